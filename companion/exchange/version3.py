"""Version 3 of the export file, from before group roles and the group's log: today's form
without a member's ``role`` and the group's ``log``. It reads as migration ``0015_group_roles``
reads the memberships it finds: the earliest member (by joining time, then by place in the
file) is the group's admin, everyone else a member; the log is empty. The games are as
today's.

Only the keys version 4 added are looked at here; `companion.exchange.schema` checks the rest
as any other file."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from django.utils.translation import gettext as _
from pydantic import model_validator

from companion.exchange.errors import problem
from companion.exchange.fields import JSON, Part
from companion.exchange.schema import FORMAT
from companion.exchange.version4 import FOURTH_VERSION, FourthHead
from companion.models import Membership

THIRD_VERSION = 3
ADMIN, MEMBER = Membership.Role.ADMIN.value, Membership.Role.MEMBER.value


class ThirdHead(Part):
    """A version 3 file but for its games; :meth:`today` is its text as version 5 writes it,
    through version 4's."""

    format: Literal[FORMAT]
    version: Literal[THIRD_VERSION]
    group: JSON
    members: JSON
    players: JSON
    scoring_tables: JSON
    games: JSON

    @model_validator(mode="after")
    def _of_its_time(self) -> ThirdHead:
        """A key of version 4 in a version 3 file is a key version 3 did not know (``log``,
        unknown to this model, is refused as any other)."""
        for number, member in enumerate(self.members if isinstance(self.members, list) else []):
            if isinstance(member, dict) and "role" in member:
                unknown = _("%(key)s is not a key this server knows.")
                raise problem(unknown, "members", number, "role")
        return self

    def today(self) -> dict:
        members = self.members
        if isinstance(members, list) and all(isinstance(member, dict) for member in members):
            first = _earliest(members)
            members = [
                {**member, "role": ADMIN if number == first else MEMBER}
                for number, member in enumerate(members)
            ]
        fourth = {**dict(self), "members": members, "version": FOURTH_VERSION, "log": []}
        return FourthHead.model_validate(fourth).today()


def _earliest(members: list[dict]) -> int | None:
    """The place of the member who joined first, the first of them in the file on a tie; None
    where a joining time cannot be read (today's check names it)."""
    try:
        joined = [datetime.fromisoformat(member["joined"]) for member in members]
        return min(range(len(members)), key=joined.__getitem__, default=None)
    except (KeyError, TypeError, ValueError):  # naive and aware times compare as TypeError
        return None
