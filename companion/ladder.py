"""A group's whole ladder history as one value: its games in the order played, and what they add
up to. No Django here.

A :class:`Ladder` is kept in Django's cache and read by every page of the history, so it holds
its games as :class:`Row` values made of plain tuples, strings and numbers (a 2,000-game ladder
pickles and unpickles in a few milliseconds, where the same games as records of hand lines take
a good part of a second), with the ratings, standings, every player's statistics and the
opponents' totals worked out when it is made. A page turns into
:class:`scoring.stats.GameRecord` values only the rows it shows.
:meth:`Ladder.of` reuses what an older ladder worked out: the ratings before the first game that
changed (recording a hand in the newest game re-rates that game alone), and the players'
statistics, from which it takes the changed games' old shares away and adds their new ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from companion.ratings import RatingPoint, leaderboard, replay_ratings
from companion.views import RECENT_GAMES  # no Django: a number the pages share
from scoring.cards import Rank
from scoring.rules import Rules
from scoring.stats import (
    GameRecord,
    HandLine,
    PlayerStats,
    Standing,
    every_player_stats,
    game_stats,
    standings,
)

FORMAT = 2
"""The shape of a kept :class:`Ladder` and :class:`PlayerPages`, part of their cache keys: raise
it whenever either changes, so that an entry of another shape is never read."""

OPPONENT_TOTAL = 3
"""Where a hand line's JSON form holds the opponents' total."""


class Row(NamedTuple):
    """A game as a ladder keeps it: a :class:`GameRecord`'s fields, its hands in their JSON form
    (as tuples), and the game's ``version`` they belong to."""

    key: Hashable
    version: int
    rules: Rules
    seats: tuple
    teams: tuple[tuple[int, ...], ...]
    start: tuple[Rank, ...]
    hands: tuple[tuple, ...]
    winners: tuple[int, ...]
    played: datetime | None
    decks: int

    @classmethod
    def of(cls, record: GameRecord, version: int) -> Row:
        return cls(
            record.key,
            version,
            record.rules,
            record.seats,
            record.teams,
            record.start,
            tuple(map(tuple, record.hands_json())),
            record.winners,
            record.played,
            record.decks,
        )

    @property
    def record(self) -> GameRecord:
        return GameRecord(
            self.key,
            self.rules,
            self.seats,
            self.teams,
            self.start,
            tuple(map(HandLine.from_json, self.hands)),
            self.winners,
            self.played,
            self.decks,
        )

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    def won(self, seat: int) -> bool:
        return seat in self.winners


@dataclass(frozen=True, eq=False)
class Ladder:
    """Every game of a group, oldest first, at the group's ``version``; made by :meth:`of`."""

    version: int
    games: tuple[Row, ...]
    ratings: dict[Hashable, list[RatingPoint]]
    standings: dict[Hashable, Standing]
    statistics: dict[Hashable, PlayerStats]
    """Every player's statistics, as :func:`scoring.stats.player_stats` counts them."""
    opponent_totals: list[tuple[Rules, int, Counter]]
    # Made on a page's demand and dropped when the ladder is cached.
    _records: dict[int, GameRecord] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, version: int, games: Iterable[Row], previous: Ladder | None = None) -> Ladder:
        """The ladder of ``games``; the ratings resume from ``previous`` (an older ladder of the
        same group) before the first game that is not the same row there, and its players'
        statistics are brought up to date by the rows that are not the same."""
        games = tuple(games)
        kept = previous.games if previous is not None else ()
        changed = (
            n for n, (row, old) in enumerate(zip(games, kept, strict=False)) if row is not old
        )
        start = next(changed, min(len(games), len(kept)))
        history = previous.ratings if previous is not None else None
        return cls(
            version,
            games,
            replay_ratings(games[start:], history, kept[start:]),
            standings(games),
            players_statistics(games, previous),
            totals(games),
        )

    def __getstate__(self) -> dict:
        return {name: value for name, value in vars(self).items() if not name.startswith("_")}

    def __setstate__(self, state: dict) -> None:
        vars(self).update(state, _records={})

    @property
    def leaderboard(self) -> list[tuple[Hashable, RatingPoint]]:
        return leaderboard(self.ratings)

    @property
    def hands(self) -> int:
        return sum(len(row.hands) for row in self.games)

    def record(self, index: int) -> GameRecord:
        """The record of the game at ``index``, made once."""
        if index not in self._records:
            self._records[index] = self.games[index].record
        return self._records[index]

    @property
    def records(self) -> list[GameRecord]:
        return [self.record(index) for index in range(len(self.games))]

    @property
    def player_pages(self) -> PlayerPages:
        """What the players' pages read of this ladder."""
        latest: dict[Hashable, list[Row]] = {player: [] for player in self.standings}
        waiting = set(latest)
        for row in reversed(self.games):
            if not waiting:
                break
            for player in row.seats:
                if player in waiting:
                    latest[player].append(row)
                    if len(latest[player]) == RECENT_GAMES:
                        waiting.discard(player)
        return PlayerPages(
            self.version,
            self.statistics,
            self.ratings,
            {player: tuple(rows) for player, rows in latest.items()},
        )


class PlayerPages(NamedTuple):
    """What the players' pages read of a :class:`Ladder` at its ``version``, kept in the cache
    beside it so that a player's page does not load every game's hands: every player's
    statistics and ratings, and the rows of their latest games, the newest first."""

    version: int
    statistics: dict[Hashable, PlayerStats]
    ratings: dict[Hashable, list[RatingPoint]]
    latest: dict[Hashable, tuple[Row, ...]]

    def stats(self, player: Hashable) -> PlayerStats:
        return self.statistics.get(player) or PlayerStats(player)

    @property
    def leaderboard(self) -> list[tuple[Hashable, RatingPoint]]:
        return leaderboard(self.ratings)

    def recent(self, player: Hashable) -> list[GameRecord]:
        """The records of the player's latest games, the newest first."""
        return [row.record for row in self.latest.get(player, ())]


def players_statistics(
    games: Sequence[Row], previous: Ladder | None
) -> dict[Hashable, PlayerStats]:
    """Every player's statistics over ``games``: those of ``previous`` (an older ladder of the
    same group) with the shares of its games that are gone or changed taken away and the shares
    of the new or changed ones added; without it, counted over every game."""
    if previous is None:
        return every_player_stats(row.record for row in games)
    kept, now = {id(row) for row in previous.games}, {id(row) for row in games}
    added = _shares(row for row in games if id(row) not in kept)
    taken = _shares(row for row in previous.games if id(row) not in now)
    stats = dict(previous.statistics)
    for player in added.keys() | taken.keys():
        old = [stats[player]] if player in stats else []
        summed = PlayerStats.sum(player, [*old, *added.get(player, [])], taken.get(player, []))
        if summed.games:
            stats[player] = summed
        else:
            del stats[player]
    return stats


def _shares(rows: Iterable[Row]) -> dict[Hashable, list[PlayerStats]]:
    """The rows' games' shares of each of their players' statistics."""
    shares: dict[Hashable, list[PlayerStats]] = {}
    for row in rows:
        for player, share in game_stats(row.record).items():
            shares.setdefault(player, []).append(share)
    return shares


def totals(games: Sequence[Row]) -> list[tuple[Rules, int, Counter]]:
    """:func:`scoring.stats.opponent_totals` read from rows: how often each opponents' total
    was scored, per rules and number of decks, the most played first."""
    by_rules: dict[tuple[Rules, int], Counter] = {}
    for row in games:
        counter = by_rules.setdefault((row.rules, row.decks), Counter())
        counter.update(hand[OPPONENT_TOTAL] for hand in row.hands)
    return sorted(
        ((rules, decks, counted) for (rules, decks), counted in by_rules.items()),
        key=lambda item: -item[2].total(),
    )
