"""The group's data. Models are glue: they store what the table entered and ask `scoring` what
it means; no game rule is computed here.

A module a part: the groups and who is in them (`groups`), the games and their hands (`games`),
the ladder's store (`ladder`), imports as jobs (`import_jobs`), club nights (`evenings`).
Import the models from here."""

from __future__ import annotations

from companion.models.evenings import (
    Evening,
    EveningTable,
    GameEnded,
    NotProposed,
    Presence,
    Round,
)
from companion.models.games import (
    CONFIRMERS,
    FLAG_NOTE_LENGTH,
    SEATED,
    ConfirmationRefused,
    Dispute,
    Game,
    Hand,
    HandChange,
    HandChangedSince,
    Refusal,
    SavedDifferently,
    Seat,
    StaleGame,
    TrumpNotDeclarable,
    trumps_by_bid,
)
from companion.models.groups import (
    AccountLanguage,
    Group,
    GroupAction,
    GroupChange,
    LastAdmin,
    LastMember,
    Membership,
    Player,
    ScoringTable,
    new_token,
)
from companion.models.import_jobs import ImportBusy, ImportChunk, ImportJob
from companion.models.ladder import (
    GameSummary,
    LadderTally,
    PlayerLadder,
    Rating,
    count_ladder,
    rebuild_ladder,
)

__all__ = [
    "CONFIRMERS",
    "FLAG_NOTE_LENGTH",
    "SEATED",
    "AccountLanguage",
    "ConfirmationRefused",
    "Dispute",
    "Evening",
    "EveningTable",
    "Game",
    "GameEnded",
    "GameSummary",
    "Group",
    "GroupAction",
    "GroupChange",
    "Hand",
    "HandChange",
    "HandChangedSince",
    "ImportBusy",
    "ImportChunk",
    "ImportJob",
    "LadderTally",
    "LastAdmin",
    "LastMember",
    "Membership",
    "NotProposed",
    "Player",
    "PlayerLadder",
    "Presence",
    "Rating",
    "Refusal",
    "Round",
    "SavedDifferently",
    "ScoringTable",
    "Seat",
    "StaleGame",
    "TrumpNotDeclarable",
    "count_ladder",
    "new_token",
    "rebuild_ladder",
    "trumps_by_bid",
]
