"""Players' OpenSkill ratings, replayed from a group's finished games in the order played.

A rating is not a rule of Tractor, so it lives here rather than in `scoring`, which stays free of
any dependency beyond the standard library; like `scoring`, this module imports no Django.

Every finished game is one match under OpenSkill's Plackett-Luce model with its defaults (a new
player has mu 25 and sigma 25/3): its fixed teams, the winners ranked first and the other teams
tied behind; in find-a-friend, the winners against everyone else, however many on each side
(1 against 4 when a declarer who found no friend wins the game). The
number shown is the ordinal, mu - 3 sigma: 0 for a newcomer, rising as the games make the
model both surer and more impressed. Ratings are always replayed from the first game, so an
edit to an old game or hand changes every rating after it.

>>> from scoring.cards import Rank
>>> from scoring.rules import get_rules
>>> from scoring.stats import GameRecord
>>> won = GameRecord(1, get_rules("standard"), tuple("MJLH"), ((0, 2), (1, 3)),
...                  (Rank.TWO,) * 4, (), (0, 2))
>>> ratings = replay_ratings([won])
>>> ratings["M"][-1].ordinal > 0 > ratings["J"][-1].ordinal
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce

from scoring.stats import GameRecord

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its default parameters."""


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one game: ``won`` says whether they won it."""

    game: Hashable
    played: datetime | None
    mu: float
    sigma: float
    won: bool

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def replay_ratings(records: Iterable[GameRecord]) -> dict[Hashable, list[RatingPoint]]:
    """Each player's rating after every finished game they played, in the order of ``records``.

    Unfinished games change nothing. A player's last point is their current rating.
    """
    ratings: dict[Hashable, object] = {}
    history: dict[Hashable, list[RatingPoint]] = {}
    for record in records:
        if not record.finished:
            continue
        teams = record.teams or (
            record.winners,
            tuple(seat for seat in range(len(record.seats)) if seat not in record.winners),
        )
        won = [record.won(team[0]) for team in teams]
        rated = MODEL.rate(
            [
                [ratings.get(player) or MODEL.rating() for player in record.players(team)]
                for team in teams
            ],
            ranks=[0 if winner else 1 for winner in won],
        )
        for team, winner, new in zip(teams, won, rated, strict=True):
            for player, rating in zip(record.players(team), new, strict=True):
                ratings[player] = rating
                history.setdefault(player, []).append(
                    RatingPoint(record.key, record.played, rating.mu, rating.sigma, winner)
                )
    return history


def leaderboard(history: dict[Hashable, list[RatingPoint]]) -> list[tuple[Hashable, RatingPoint]]:
    """Every rated player with their current rating, the highest ordinal first."""
    current = [(player, points[-1]) for player, points in history.items() if points]
    return sorted(current, key=lambda item: -item[1].ordinal)
