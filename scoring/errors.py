"""The engine's errors: each is a ValueError whose message quotes the bad input."""

from __future__ import annotations

from collections.abc import Callable, Mapping


def gettext_noop(text: str) -> str:
    """Marks a sentence for the translation catalogues (Django's ``makemessages`` reads this
    name) without translating it: :meth:`ScoringError.in_words` translates it when shown."""
    return text


class ScoringError(ValueError):
    """Bad input to the rules engine; the message names the problem and quotes the input.

    Where a player can meet the error, ``said`` is the same problem as a sentence in the
    players' words, a pattern filled in from ``values``: see :meth:`in_words`.
    """

    def __init__(
        self, message: str, *, said: str = "", values: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.said = said
        self.values = dict(values or {})

    def in_words(self, gettext: Callable[[str], str] = str) -> str:
        """The error as a player reads it. ``gettext`` translates the sentence before it is
        filled in (the web app passes Django's); an error with no sentence gives its message.

        >>> error = ScoringError("points 7 > 5", said="At most {top} points.", values={"top": 5})
        >>> str(error), error.in_words()
        ('points 7 > 5', 'At most 5 points.')
        """
        if not self.said:
            return self.args[0] if self.args else ""
        return gettext(self.said).format(**self.values)


class CardError(ScoringError):
    """A card, rank or suit that cannot be read, or more copies than the decks hold."""


class RulesError(ScoringError):
    """A rules object or scoring table that is not valid."""


class SettleError(ScoringError):
    """A hand's result that cannot be settled (points out of range, impossible last trick).

    ``field`` names the input at fault (``opponent_points``, ``kitty_points``, ``last_trick``),
    so that a form can show the message beside it.
    """

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        said: str = "",
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, said=said, values=values)
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
