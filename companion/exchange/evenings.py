"""The club nights of the export file (version 5): each evening whole, its players by name and
each round's tables by the number in the file of the game played at them, as the log names
games. An evening is read with the file's head, before any game: the games it names are
checked against it as they are read (`companion.exchange.reading`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from django.utils.translation import gettext as _
from pydantic import StrictBool, StrictInt, field_validator, model_validator

from companion.display import either, joined
from companion.exchange.errors import in_words, problem, show
from companion.exchange.fields import (
    JSON,
    FileGame,
    Moment,
    OptionalMoment,
    OptionalUsername,
    Part,
    RosterName,
    Rules,
)
from companion.models import Evening
from companion.models.evenings import (
    MAX_ROUND_HANDS,
    MAX_ROUND_MINUTES,
    MIN_ROUND_HANDS,
    MIN_ROUND_MINUTES,
)
from scoring import Table, TableError, Teams, TrumpRule, default_decks
from scoring.evenings import MAX_EVENING_PLAYERS, table_sizes
from scoring.table import MAX_PLAYERS, MIN_PLAYERS

TEAMS = tuple(teams.value for teams in Teams)
SEED_CEILING = 2**63 - 1  # PositiveBigIntegerField's
# An evening seats 64 players at most at once (`scoring.evenings`); players come and go
# between rounds and keep their place on its list, which four rooms' worth is far past.
MOST_PRESENCES = 4 * MAX_EVENING_PLAYERS
# A round takes two hands at least, ten minutes or more: 200 rounds are over 30 hours of play.
MOST_ROUNDS = 200
# A group plays a club night a week, or a day: 10,000 are 27 years of one every day.
MOST_EVENINGS = 10_000


@dataclass(frozen=True)
class Played:
    """Where the file's evenings put a game: at a table of a round, and whether the evening
    ended it (numbers from 1)."""

    evening: int
    round: int
    table: int
    players: tuple[str, ...]
    ended: datetime | None


class PresenceEntry(Part):
    """A player on the evening's list: present, or gone since."""

    player: RosterName
    present: StrictBool


class TablePlayed(Part):
    """A table of a round: its players in seat order, the number in the file of the game
    played at it (null while the round waits to start, or if the game is gone) and when the
    evening ended that game (null unless the round cut it short)."""

    players: list[str]
    game: FileGame
    ended: OptionalMoment

    @field_validator("players", mode="plain")
    @classmethod
    def _names(cls, names: object) -> list[str]:
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise problem(_("%(key)s must be a list of names, not %(value)s."), value=show(names))
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise problem(
                _("A table seats %(least)s to %(most)s players, not %(count)s."),
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                count=len(names),
            )
        return names

    @model_validator(mode="after")
    def _ended_with_a_game(self) -> TablePlayed:
        if self.ended is not None and self.game is None:
            raise problem(_("The table says the evening ended its game, but it names no game."))
        return self


class RoundEntry(Part):
    """A round: its seating (proposed until it starts), who sits out, and its times."""

    number: StrictInt
    tables: list[TablePlayed]
    sitting_out: list[str]
    started: OptionalMoment
    ended: OptionalMoment

    @model_validator(mode="after")
    def _as_played(self) -> RoundEntry:
        if self.ended is not None and (self.started is None or self.ended < self.started):
            raise problem(_("The round ends before it starts."))
        if self.started is None and any(table.game is not None for table in self.tables):
            raise problem(_("The round has not started, but a game is played at its tables."))
        return self

    @property
    def seated(self) -> list[str]:
        return [name for table in self.tables for name in table.players]


class EveningEntry(Part):
    """A club night: its table shape and seating rule as the evening's start chose them, its
    list of players and its rounds."""

    created: Moment
    created_by: OptionalUsername
    ended: OptionalMoment
    seed: StrictInt
    seating: Literal[tuple(Evening.SeatingRule.values)]
    leftover: Literal[tuple(Evening.Leftover.values)]
    players_per_table: StrictInt
    rules: Rules
    decks: JSON
    teams: Literal[TEAMS]
    trumps: JSON
    called: JSON
    hands_per_round: StrictInt | None
    minutes_per_round: StrictInt | None
    presences: list[PresenceEntry]
    rounds: list[RoundEntry]

    @field_validator("seed")
    @classmethod
    def _a_seed(cls, seed: int) -> int:
        if not 0 <= seed <= SEED_CEILING:
            raise problem(
                _("%(key)s must be a whole number from 0 to %(most)s, not %(value)s."),
                most=SEED_CEILING,
                value=show(seed),
            )
        return seed

    @field_validator("hands_per_round")
    @classmethod
    def _hands(cls, hands: int | None) -> int | None:
        if hands is not None and not MIN_ROUND_HANDS <= hands <= MAX_ROUND_HANDS:
            raise problem(
                _("%(key)s must be null or %(least)s to %(most)s hands, not %(value)s."),
                least=MIN_ROUND_HANDS,
                most=MAX_ROUND_HANDS,
                value=show(hands),
            )
        return hands

    @field_validator("minutes_per_round")
    @classmethod
    def _minutes(cls, minutes: int | None) -> int | None:
        if minutes is not None and not MIN_ROUND_MINUTES <= minutes <= MAX_ROUND_MINUTES:
            raise problem(
                _("%(key)s must be null or %(least)s to %(most)s minutes, not %(value)s."),
                least=MIN_ROUND_MINUTES,
                most=MAX_ROUND_MINUTES,
                value=show(minutes),
            )
        return minutes

    @field_validator("presences")
    @classmethod
    def _each_once(cls, presences: list[PresenceEntry]) -> list[PresenceEntry]:
        seen: set[str] = set()
        for number, presence in enumerate(presences, start=1):
            if presence.player in seen:
                raise problem(
                    _("%(name)s is on the evening's list twice."),
                    number - 1,
                    name=show(presence.player),
                )
            seen.add(presence.player)
        here = sum(presence.present for presence in presences)
        if here > MAX_EVENING_PLAYERS:
            raise problem(
                _("An evening seats %(most)s players at most, but %(count)s are present."),
                most=MAX_EVENING_PLAYERS,
                count=here,
            )
        return presences

    @model_validator(mode="after")
    def _seated(self) -> EveningEntry:
        if self.ended is not None and self.ended < self.created:
            raise problem(_("The evening ends before it starts."))
        if not MIN_PLAYERS <= self.players_per_table <= MAX_PLAYERS:
            raise problem(
                _("%(key)s must be %(least)s to %(most)s, not %(value)s."),
                "players_per_table",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                value=show(self.players_per_table),
            )
        if self.decks is not None and (type(self.decks) is not int or self.decks not in (2, 3, 4)):
            raise problem(
                _("%(key)s must be null, 2, 3 or 4, not %(value)s."),
                "decks",
                value=show(self.decks),
            )
        if self.called is not None and (type(self.called) is not int or self.called not in (1, 2)):
            raise problem(
                _("%(key)s must be null, 1 or 2, not %(value)s."), "called", value=show(self.called)
            )
        try:
            size = self.players_per_table
            Table(
                players=tuple(str(seat) for seat in range(size)),
                decks=self.decks or default_decks(size),
                teams=Teams(self.teams),
                trumps=TrumpRule.from_json(self.trumps),
                called=self.called if self.teams == Teams.FIND_A_FRIEND.value else None,
            )
        except TableError as error:
            raise problem("%(problem)s", problem=in_words(error)) from None
        listed = {presence.player for presence in self.presences}
        sizes = (
            table_sizes(Teams(self.teams))
            if self.leftover == Evening.Leftover.MIXED
            else (self.players_per_table,)
        )
        for index, entry in enumerate(self.rounds):
            if entry.number != index + 1:
                raise problem(
                    _("The evening's rounds are numbered from 1 in order: this one is %(value)s."),
                    "rounds",
                    index,
                    "number",
                    value=show(entry.number),
                )
            if entry.started is None and index != len(self.rounds) - 1:
                raise problem(
                    _("Only the evening's last round may wait to start."), "rounds", index
                )
            self._check_seating(entry, index, listed, sizes)
        return self

    def _check_seating(
        self, entry: RoundEntry, index: int, listed: set[str], sizes: tuple[int, ...]
    ) -> None:
        seen: set[str] = set()
        for table, played in enumerate(entry.tables):
            if len(played.players) not in sizes:
                raise problem(
                    # Translators: %(sizes)s is a choice of table sizes, as "4, 6 or 8".
                    _(
                        "The evening seats %(sizes)s players a table, but this table seats "
                        "%(count)s."
                    ),
                    "rounds",
                    index,
                    "tables",
                    table,
                    sizes=either(sizes),
                    count=len(played.players),
                )
        for name in [*entry.seated, *entry.sitting_out]:
            if not isinstance(name, str) or name not in listed:
                raise problem(
                    _("%(name)s is seated in the round, but is not on the evening's list."),
                    "rounds",
                    index,
                    name=show(name),
                )
            if name in seen:
                raise problem(
                    _("%(name)s is seated twice in the round."), "rounds", index, name=show(name)
                )
            seen.add(name)

    @property
    def usernames(self) -> set[str]:
        return {self.created_by} - {None}

    @property
    def game_numbers(self) -> list[int]:
        """The numbers in the file of the games played at the evening's tables."""
        return [
            played.game
            for entry in self.rounds
            for played in entry.tables
            if played.game is not None
        ]

    def games(self, number: int) -> dict[int, Played]:
        """The games the evening names, by their number in the file, where they were played
        (``number``: the evening's, from 1)."""
        return {
            played.game: Played(number, entry.number, table, tuple(played.players), played.ended)
            for entry in self.rounds
            for table, played in enumerate(entry.tables, start=1)
            if played.game is not None
        }


def unlike(game: int, played: Played, players: tuple[str, ...], *, won: bool) -> str:
    """Why game ``game`` (from 1) of the file is not the one its evening says, or ""."""
    if played.players != players:
        return _(
            "Game %(game)s is table %(table)s of round %(round)s of evening %(evening)s, which "
            "seats %(seated)s, but the game's players are %(players)s."
        ) % {
            "game": game,
            "table": played.table,
            "round": played.round,
            "evening": played.evening,
            "seated": joined(played.players),
            "players": joined(players),
        }
    if played.ended is not None and won:
        return _(
            "Game %(game)s is won, but its club night ended it with round %(round)s: a game "
            "the evening ended is not won."
        ) % {"game": game, "round": played.round}
    return ""
