"""Version 2 of the export file, from before second-seat confirmation: today's form without a
group's ``hands_need_confirmation``, a hand's confirmation and a change's ``note``. It reads as
migration ``0010_confirmations`` reads the rows it finds: the group asks for no confirmation,
no hand needs one (so none is confirmed or flagged) and no change has a note.

Only the keys version 3 added are looked at here; `companion.exchange.schema` checks the rest
as any other file."""

from __future__ import annotations

from typing import Literal

from django.utils.translation import gettext as _
from pydantic import model_validator

from companion.exchange.errors import problem
from companion.exchange.fields import JSON, Part
from companion.exchange.schema import FORMAT, VERSION

SECOND_VERSION = 2
GROUP_ADDED = {"hands_need_confirmation": False}
HAND_ADDED = {
    "entered_by": None,
    "needs_confirmation": False,
    "confirmed_by": None,
    "confirmed_at": None,
    "flagged_by": None,
    "flagged_at": None,
    "flag_note": "",
}
CHANGE_ADDED = {"note": ""}


class SecondExport(Part):
    """A version 2 file; :meth:`today` is its text as version 3 writes it."""

    format: Literal[FORMAT]
    version: Literal[SECOND_VERSION]
    group: JSON
    members: JSON
    players: JSON
    scoring_tables: JSON
    games: JSON

    @model_validator(mode="after")
    def _of_its_time(self) -> SecondExport:
        """A key of version 3 in a version 2 file is a key version 2 did not know."""
        for at, part, added in _parts(dict(self)):
            for key in added:
                if key in part:
                    raise problem(_("%(key)s is not a key this server knows."), *at, key)
        return self

    def today(self) -> dict:
        return today(dict(self))


def today(document: dict) -> dict:
    """A version 2 document, as read (its parts are completed in place), in the form of
    version 3; parts of another shape are left for today's check to name."""
    for _at, part, added in _parts(document):
        part.update(added)
    return {**document, "version": VERSION}


def _parts(document: dict):
    """The document's group, hands and changes that are objects, as (where, part, the keys
    version 3 adds to it)."""
    if isinstance(document.get("group"), dict):
        yield ("group",), document["group"], GROUP_ADDED
    games = document.get("games")
    games = games if isinstance(games, list) else []
    for number, game in enumerate(games):
        if not isinstance(game, dict):
            continue
        for key, added in (("hands", HAND_ADDED), ("changes", CHANGE_ADDED)):
            items = game.get(key)
            for index, item in enumerate(items if isinstance(items, list) else []):
                if isinstance(item, dict):
                    yield ("games", number, key, index), item, added
