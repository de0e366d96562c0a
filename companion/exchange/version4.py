"""Version 4 of the export file, from before club nights: today's form without the group's
``evenings``. It reads as a group whose games were never played at an evening: the games are
as today's, none of them a table of a round.

Only the key version 5 added is looked at here; `companion.exchange.schema` checks the rest as
any other file."""

from __future__ import annotations

from typing import Literal

from companion.exchange.fields import JSON, Part
from companion.exchange.schema import FORMAT, VERSION

FOURTH_VERSION = 4


class FourthHead(Part):
    """A version 4 file but for its games; :meth:`today` is its text as version 5 writes it
    (``evenings``, unknown to this model, is refused as any other key version 4 did not know)."""

    format: Literal[FORMAT]
    version: Literal[FOURTH_VERSION]
    group: JSON
    members: JSON
    players: JSON
    scoring_tables: JSON
    log: JSON
    games: JSON

    def today(self) -> dict:
        return {**dict(self), "version": VERSION, "evenings": []}
