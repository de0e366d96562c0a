"""What a group's ladder history adds up to, counted so that a change to one game moves only that
game's share: the pure arithmetic behind the ladder's rows (`companion.models.ladder`). No
Django here.

Every number the history shows is a sum over games: a player's statistics
(:func:`scoring.stats.game_stats`), and for each player (or everyone) and period the games, hands
and opponents' totals (:func:`shares`). So a change to a game takes the game's old share away and
adds its new one, whatever the group's age; :func:`whole` counts every game afresh, which a
rebuild writes and the tests compare the rows with. Ratings are not a sum: they are replayed in
the order played (`companion.ratings`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from scoring.rules import Rules
from scoring.stats import GameRecord

ALL_TIME = ""
"""The period of every game."""


def periods(played: datetime) -> tuple[str, str, str]:
    """The periods a game played at ``played`` (local time) counts in: all time, its year
    ("2025") and its month ("2025-03").

    >>> periods(datetime(2025, 3, 9))
    ('', '2025', '2025-03')
    """
    return (ALL_TIME, f"{played.year:04d}", f"{played.year:04d}-{played.month:02d}")


def months(first: datetime, last: datetime) -> list[str]:
    """The months from ``first``'s to ``last``'s, as periods.

    >>> months(datetime(2024, 11, 30), datetime(2025, 2, 1))
    ['2024-11', '2024-12', '2025-01', '2025-02']
    """
    found = []
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        found.append(f"{year:04d}-{month:02d}")
        year, month = (year, month + 1) if month < 12 else (year + 1, 1)
    return found


class TallyKey(NamedTuple):
    """Whose games (a player's, or everyone's: None), in which period, under which rules and
    with how many decks (totals of three decks read against other bands than two)."""

    player: Hashable | None
    period: str
    rules: Rules
    decks: int


@dataclass
class Tally:
    """Games, their hands, and how often each opponents' total was scored in them."""

    games: int = 0
    hands: int = 0
    totals: Counter = field(default_factory=Counter)

    def add(self, other: Tally, sign: int = 1) -> None:
        self.games += sign * other.games
        self.hands += sign * other.hands
        for total, times in other.totals.items():
            self.totals[total] += sign * times
        # A total scored no more is no longer shown (a change's delta keeps what it takes away).
        self.totals = Counter({total: times for total, times in self.totals.items() if times})

    @property
    def empty(self) -> bool:
        return not (self.games or self.hands or self.totals)


def shares(record: GameRecord, played: datetime) -> dict[TallyKey, Tally]:
    """The game's share of every tally it counts in: everyone's and each of its players', in
    each of its periods (``played``: when it was played, in local time)."""
    totals = Counter(hand.opponent_total for hand in record.hands)
    return {
        TallyKey(player, period, record.rules, record.decks): Tally(1, len(record.hands), totals)
        for player in (None, *record.seats)
        for period in periods(played)
    }


def moved(
    changes: Iterable[tuple[GameRecord | None, GameRecord | None]], local
) -> dict[TallyKey, Tally]:
    """What ``changes`` (a game's old and new records, None where there was or is no game) add
    to each tally (taken away where negative); ``local`` turns a game's time into local time."""
    delta: dict[TallyKey, Tally] = {}
    for old, new in changes:
        for sign, record in ((-1, old), (1, new)):
            if record is None:
                continue
            for key, share in shares(record, local(record.played)).items():
                delta.setdefault(key, Tally()).add(share, sign)
    return {key: tally for key, tally in delta.items() if not tally.empty}


def whole(records: Iterable[GameRecord], local) -> dict[TallyKey, Tally]:
    """Every tally of ``records``, counted afresh."""
    return moved(((None, record) for record in records), local)
