"""The engine's errors: each is a ValueError whose message quotes the bad input."""

from __future__ import annotations


class ScoringError(ValueError):
    """Bad input to the rules engine; the message names the problem and quotes the input."""


class CardError(ScoringError):
    """A card, rank or suit that cannot be read, or more copies than the decks hold."""


class RulesError(ScoringError):
    """A rules object or scoring table that is not valid."""


class SettleError(ScoringError):
    """A hand's result that cannot be settled (points out of range, impossible last trick).

    ``field`` names the input at fault (``opponent_points``, ``kitty_points``, ``last_trick``),
    so that a form can show the message beside it.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PlayError(ScoringError):
    """A trick that cannot be judged: a lead of mixed suits, a forbidden throw, a play that is
    not in its player's hand, a player who plays twice.

    ``player`` and ``part`` (``"play"`` or ``"hand"``) name the input at fault where one does,
    so that a form can show the message beside it.
    """

    def __init__(self, message: str, player: str | None = None, part: str | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.part = part


class ReplayError(ScoringError):
    """A hand's record that cannot be replayed: a deal that is not the pack, a missing player."""
