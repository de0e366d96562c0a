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

from companion.exchange.errors import ExchangeError, problem, said
from companion.exchange.fields import JSON, Part
from companion.exchange.schema import FORMAT
from companion.exchange.version3 import THIRD_VERSION, ThirdHead

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


class SecondHead(Part):
    """A version 2 file but for its games; :meth:`today` is its text as version 5 writes it,
    through version 3's (:func:`game_today` reads each game)."""

    format: Literal[FORMAT]
    version: Literal[SECOND_VERSION]
    group: JSON
    members: JSON
    players: JSON
    scoring_tables: JSON
    games: JSON

    @model_validator(mode="after")
    def _of_its_time(self) -> SecondHead:
        """A key of version 3 in a version 2 file is a key version 2 did not know."""
        if isinstance(self.group, dict):
            for key in GROUP_ADDED:
                if key in self.group:
                    raise problem(_("%(key)s is not a key this server knows."), "group", key)
        return self

    def today(self) -> dict:
        group = self.group
        if isinstance(group, dict):
            group = {**group, **GROUP_ADDED}
        third = {**dict(self), "group": group, "version": THIRD_VERSION}
        return ThirdHead.model_validate(third).today()


def game_today(game: object, number: int) -> object:
    """Game ``number`` (from 0) of a version 2 file in the form of versions 3 and 4: its hands and
    changes completed in place; parts of another shape are left for today's check to name.
    ExchangeError names a key version 3 added."""
    if not isinstance(game, dict):
        return game
    for key, added in (("hands", HAND_ADDED), ("changes", CHANGE_ADDED)):
        items = game.get(key)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if not isinstance(item, dict):
                continue
            for name in added:
                if name in item:
                    at = ("games", number, key, index, name)
                    raise ExchangeError(said(at, _("%(key)s is not a key this server knows.")))
            item.update(added)
    return game
