"""The export file, version 3, declared once: each model is a part of the file (its games:
`companion.exchange.games`), each field a kind of value of `companion.exchange.fields`. The file
is never validated whole: `ExportHead` is everything but the games, and each game is a
`GameEntry` of its own (`companion.exchange.reading`)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.utils.translation import gettext as _
from pydantic import StrictBool, ValidationInfo, field_validator

from companion.exchange.errors import problem, show
from companion.exchange.fields import (
    JSON,
    GroupName,
    Moment,
    OptionalUsername,
    Part,
    PlayerName,
    Rules,
    Username,
)

FORMAT = "tractor-companion-group"
VERSION = 3


class GroupPart(Part):
    name: GroupName
    created: Moment
    hands_need_confirmation: StrictBool


class MemberEntry(Part):
    username: Username
    joined: Moment


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
    version: Literal[3]
    group: GroupPart
    members: list[MemberEntry]
    players: list[PlayerEntry]
    scoring_tables: list[TableEntry]
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
    def roster(self) -> set[str]:
        return {player.name for player in self.players}

    @property
    def usernames(self) -> set[str]:
        """The accounts the file names outside its games: members and players' accounts."""
        names = {member.username for member in self.members}
        names.update(player.user for player in self.players)
        names.discard(None)
        return names
