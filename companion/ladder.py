"""A group's whole ladder history as one value: its games' records and what they add up to.

A :class:`Ladder` is made from the records once and then only read, so that the values drawn
from it (ratings, standings, one player's statistics) are worked out on first use and kept with
it. `companion.models.GameSummary.ladder` keeps the latest one per group while the group's games
are unchanged. No Django here.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from companion.ratings import RatingPoint, leaderboard, replay_ratings
from scoring.rules import Rules
from scoring.stats import (
    GameRecord,
    PlayerStats,
    Standing,
    opponent_totals,
    player_stats,
    standings,
)


@dataclass(frozen=True, eq=False)
class Ladder:
    """Every game of a group, oldest first (each record keyed by its game's id)."""

    records: Sequence[GameRecord]
    _stats: dict[Hashable, PlayerStats] = field(default_factory=dict, repr=False)

    @functools.cached_property
    def ratings(self) -> dict[Hashable, list[RatingPoint]]:
        return replay_ratings(self.records)

    @functools.cached_property
    def leaderboard(self) -> list[tuple[Hashable, RatingPoint]]:
        return leaderboard(self.ratings)

    @functools.cached_property
    def opponent_totals(self) -> list[tuple[Rules, int, Counter]]:
        return opponent_totals(self.records)

    @functools.cached_property
    def standings(self) -> dict[Hashable, Standing]:
        return standings(self.records)

    def stats(self, player: Hashable) -> PlayerStats:
        if player not in self._stats:
            self._stats[player] = player_stats(self.records, player)
        return self._stats[player]

    def games_of(self, player: Hashable) -> list[GameRecord]:
        return [record for record in self.records if record.seat_of(player) is not None]
