"""Players' OpenSkill ratings, replayed from a group's finished games in the order played.

A rating is not a rule of Tractor, so it lives here rather than in `scoring`, which stays free of
any dependency beyond the standard library; like `scoring`, this module imports no Django.

Every finished game is one match under OpenSkill's Plackett-Luce model with its defaults (a new
player has mu 25 and sigma 25/3): its fixed teams, the winners ranked first and the other teams
tied behind; in find-a-friend, the winners against everyone else, however many on each side
(1 against 4 when a declarer who found no friend wins the game). The
number shown is the ordinal, mu - 3 sigma: 0 for a newcomer, rising as the games make the
model both surer and more impressed. Ratings are a replay in the order played, so an edit to an
old game or hand changes every rating after it; a replay can resume from the ratings before the
first game that changed (the newest, when a hand is recorded) instead of starting over.

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

from collections.abc import Hashable, Iterable, Sequence
from datetime import datetime
from typing import NamedTuple, Protocol

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its default parameters."""


class RatingPoint(NamedTuple):
    """A player's rating after one game: ``won`` says whether they won it."""

    game: Hashable
    played: datetime | None
    mu: float
    sigma: float
    won: bool

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class Rated(Protocol):
    """What a replay reads of a game: a :class:`scoring.stats.GameRecord` or a ladder's row."""

    key: Hashable
    played: datetime | None
    seats: tuple
    teams: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]


def replay_ratings(
    records: Iterable[Rated],
    history: dict[Hashable, list[RatingPoint]] | None = None,
    replaced: Sequence[Rated] = (),
) -> dict[Hashable, list[RatingPoint]]:
    """Each player's rating after every finished game they played, in the order of ``records``.

    Unfinished games change nothing. A player's last point is their current rating. Given the
    ``history`` of an earlier replay, the points of its ``replaced`` games (its last ones) are
    dropped and ``records`` are rated after what is left; ``history`` itself is not changed.
    """
    gone = {record.key for record in replaced}
    history = {player: list(points) for player, points in (history or {}).items()}
    for points in history.values():
        while points and points[-1].game in gone:
            points.pop()
    history = {player: points for player, points in history.items() if points}
    current = {player: points[-1] for player, points in history.items()}
    for record in records:
        for player, point in rate_game(record, current).items():
            current[player] = point
            history.setdefault(player, []).append(point)
    return history


def rate_game(record: Rated, current: dict[Hashable, RatingPoint]) -> dict[Hashable, RatingPoint]:
    """Each player's rating after ``record``, from their ``current`` ratings (a newcomer's is
    the model's default); none for a game not finished."""
    if not record.winners:
        return {}
    seats = record.seats
    teams = record.teams or (
        record.winners,
        tuple(seat for seat in range(len(seats)) if seat not in record.winners),
    )
    won = [team[0] in record.winners for team in teams]

    def rating(player: Hashable):
        point = current.get(player)
        return MODEL.rating() if point is None else MODEL.rating(mu=point.mu, sigma=point.sigma)

    rated = MODEL.rate(
        [[rating(seats[seat]) for seat in team] for team in teams],
        ranks=[0 if winner else 1 for winner in won],
    )
    return {
        seats[seat]: RatingPoint(record.key, record.played, new.mu, new.sigma, winner)
        for team, winner, news in zip(teams, won, rated, strict=True)
        for seat, new in zip(team, news, strict=True)
    }


def leaderboard(history: dict[Hashable, list[RatingPoint]]) -> list[tuple[Hashable, RatingPoint]]:
    """Every rated player with their current rating, the highest ordinal first."""
    current = [(player, points[-1]) for player, points in history.items() if points]
    return sorted(current, key=lambda item: -item[1].ordinal)
