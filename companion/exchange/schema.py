"""The export file, version 5, declared once: each model is a part of the file (its games:
`companion.exchange.games`, its evenings: `companion.exchange.evenings`), each field a kind of
value of `companion.exchange.fields`. The file is never validated whole: `ExportHead` is
everything but the games, and each game is a `GameEntry` of its own
(`companion.exchange.reading`)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.utils.translation import gettext as _
from pydantic import StrictBool, ValidationInfo, field_validator

from companion.exchange.errors import problem, show
from companion.exchange.evenings import EveningEntry, Played
from companion.exchange.fields import (
    JSON,
    FileGame,
    GroupName,
    LogDetail,
    Moment,
    OptionalUsername,
    Part,
    PlayerName,
    RecordedName,
    Rules,
    Username,
)
from companion.models import GroupAction, Membership

FORMAT = "tractor-companion-group"
VERSION = 5


class GroupPart(Part):
    name: GroupName
    created: Moment
    hands_need_confirmation: StrictBool


class MemberEntry(Part):
    username: Username
    joined: Moment
    role: Literal[tuple(Membership.Role.values)]


class LogEntry(Part):
    """A change in the group's log as it was recorded: who made it and whom it was about by the
    names they had then (their accounts are not in the file), its player by name on the roster
    and its game by number in the file (null where there is none, or it is gone)."""

    action: Literal[tuple(GroupAction.values)]
    at: Moment
    by_name: RecordedName
    member_name: RecordedName
    player: str | None
    game: FileGame
    before: LogDetail
    after: LogDetail

    @field_validator("player", mode="plain")
    @classmethod
    def _on_the_roster(cls, name: object, info: ValidationInfo) -> str | None:
        roster = info.context.get("roster", ())  # none where the roster itself is wrong
        if name is not None and (not isinstance(name, str) or (roster and name not in roster)):
            raise problem(
                _("%(key)s must be null or a name on the roster, not %(value)s."), value=show(name)
            )
        return name


class PlayerEntry(Part):
    name: PlayerName
    user: OptionalUsername
    retired: StrictBool


class TableEntry(Part):
    """A scoring table of the group's own."""

    rules: Rules
    updated: Moment


class ExportHead(Part):
    """An export file but for its games, which are read one at a time (only their list is
    looked at here): what must be known before the first game is."""

    format: Literal["tractor-companion-group"]
    version: Literal[VERSION]
    group: GroupPart
    members: list[MemberEntry]
    players: list[PlayerEntry]
    scoring_tables: list[TableEntry]
    log: list[LogEntry]
    evenings: list[EveningEntry]
    games: list[JSON]

    @field_validator("members")
    @classmethod
    def _each_once(cls, members: list[MemberEntry]) -> list[MemberEntry]:
        seen: set[str] = set()
        for number, member in enumerate(members, start=1):
            if member.username in seen:
                raise problem(
                    # Translators: %(user)s is an account's username, quoted from the file.
                    _("%(user)s is a member twice."),
                    number - 1,
                    user=show(member.username),
                )
            seen.add(member.username)
        return members

    @field_validator("scoring_tables")
    @classmethod
    def _tables_once(cls, tables: list[TableEntry]) -> list[TableEntry]:
        """Each table's name once, ignoring case, as the database holds them."""
        seen: set[str] = set()
        for number, table in enumerate(tables, start=1):
            if table.rules["name"].lower() in seen:
                raise problem(
                    _("Two of the group's scoring tables are called %(name)s."),
                    number - 1,
                    name=show(table.rules["name"]),
                )
            seen.add(table.rules["name"].lower())
        return tables

    @field_validator("players")
    @classmethod
    def _a_roster(cls, players: list[PlayerEntry], info: ValidationInfo) -> list[PlayerEntry]:
        """Names and accounts once each; the games' seats name players of this roster."""
        names: set[str] = set()
        # Mei and mei are one person: the database holds names unique ignoring case.
        folded: set[str] = set()
        accounts: set[str] = set()
        for number, player in enumerate(players, start=1):
            if player.name.lower() in folded:
                raise problem(
                    _("%(name)s is on the roster twice."), number - 1, name=show(player.name)
                )
            if player.user is not None and player.user in accounts:
                raise problem(
                    # Translators: %(user)s is an account's username, quoted from the file.
                    _("The account %(user)s is another player already."),
                    number - 1,
                    user=show(player.user),
                )
            names.add(player.name)
            folded.add(player.name.lower())
            accounts.add(player.user)
        info.context["roster"] = names
        return players

    @field_validator("evenings")
    @classmethod
    def _a_game_a_table(cls, evenings: list[EveningEntry]) -> list[EveningEntry]:
        """A game is played at one table of one evening at most."""
        seen: set[int] = set()
        for number, evening in enumerate(evenings, start=1):
            for game in evening.game_numbers:
                if game in seen:
                    raise problem(
                        _("Game %(game)s is played at two tables of the evenings."),
                        number - 1,
                        game=game,
                    )
                seen.add(game)
        return evenings

    @property
    def played(self) -> dict[int, Played]:
        """Where the evenings put the file's games, by their number in the file."""
        played: dict[int, Played] = {}
        for number, evening in enumerate(self.evenings, start=1):
            played.update(evening.games(number))
        return played

    @property
    def name(self) -> str:
        return self.group.name

    @property
    def created(self) -> datetime:
        return self.group.created

    @property
    def joined(self) -> dict[str, datetime]:
        """When each member in the file joined, by username."""
        return {member.username: member.joined for member in self.members}

    @property
    def roles(self) -> dict[str, str]:
        """Each member's role in the file, by username."""
        return {member.username: member.role for member in self.members}

    @property
    def roster(self) -> set[str]:
        return {player.name for player in self.players}

    @property
    def usernames(self) -> set[str]:
        """The accounts the file names outside its games: members and players' accounts."""
        names = {member.username for member in self.members}
        names.update(player.user for player in self.players)
        names.update(name for evening in self.evenings for name in evening.usernames)
        names.discard(None)
        return names
