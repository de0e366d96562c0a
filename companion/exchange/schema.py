"""The export file, version 3, declared once: each model is a part of the file (its games:
`companion.exchange.games`), each field a kind of value of `companion.exchange.fields`."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from pydantic import StrictBool, ValidationInfo, field_validator

from companion.exchange.errors import problem, show
from companion.exchange.fields import (
    GroupName,
    Moment,
    OptionalUsername,
    Part,
    PlayerName,
    Rules,
    Username,
)
from companion.exchange.games import GameEntry

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


class GroupExport(Part):
    """An export file, read and checked against `scoring`: ready to import."""

    format: Literal["tractor-companion-group"]
    version: Literal[3]
    group: GroupPart
    members: list[MemberEntry]
    players: list[PlayerEntry]
    scoring_tables: list[TableEntry]
    games: list[GameEntry]

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
    def usernames(self) -> set[str]:
        """Every account the file names: members, players' accounts, who did what."""
        names = {member.username for member in self.members}
        names.update(player.user for player in self.players)
        for game in self.games:
            names.add(game.created_by)
            names.update(change.by for change in game.changes)
            names.update(name for hand in game.hands for name in hand.accounts.values())
            names.update(dispute.created_by for dispute in game.disputes)
        names.discard(None)
        return names

    @property
    def hand_count(self) -> int:
        return sum(len(game.hands) for game in self.games)

    @property
    def counts(self) -> dict[str, str]:
        """What the file holds, as counts to fill a sentence in: "5 players", "1 game",
        "2 hands"."""
        players, games, hands = len(self.players), len(self.games), self.hand_count
        return {
            "players": ngettext("%(count)s player", "%(count)s players", players)
            % {"count": players},
            "games": ngettext("%(count)s game", "%(count)s games", games) % {"count": games},
            "hands": ngettext("%(count)s hand", "%(count)s hands", hands) % {"count": hands},
        }
