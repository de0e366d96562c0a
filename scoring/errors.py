"""The engine's errors: each is a ValueError whose message quotes the bad input."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.words import Gettext, Ngettext, Plural, Sentence, english, gettext_noop

__all__ = [
    "CardError",
    "PlayError",
    "ReplayError",
    "RulesError",
    "ScoringError",
    "SettleError",
    "gettext_noop",
]


class ScoringError(ValueError):
    """Bad input to the rules engine; the message names the problem and quotes the input.

    Where a player can meet the error, ``said`` is the same problem as a sentence in the
    players' words, a pattern (or :class:`~scoring.words.Plural`) filled in from ``values``:
    see :meth:`in_words`. A message that is itself a :class:`~scoring.words.Sentence` is that
    sentence.
    """

    def __init__(
        self,
        message: str,
        *,
        said: str | Plural | Sentence = "",
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        if not said and isinstance(message, Sentence):
            said = message
        self.said = said
        self.values = dict(values or {})

    def in_words(self, gettext: Gettext = str, ngettext: Ngettext = english) -> str:
        """The error as a player reads it. ``gettext`` and ``ngettext`` translate the sentence
        before it is filled in (the web app passes Django's); an error with no sentence gives
        its message.

        >>> error = ScoringError("points 7 > 5", said="At most {top} points.", values={"top": 5})
        >>> str(error), error.in_words()
        ('points 7 > 5', 'At most 5 points.')
        """
        sentence = self.sentence
        return sentence.in_words(gettext, ngettext) if isinstance(sentence, Sentence) else sentence

    @property
    def sentence(self) -> Sentence | str:
        """The error's sentence, to put in a player's language or in another sentence; the
        message where the error has none."""
        if not self.said:
            return self.args[0] if self.args else ""
        if isinstance(self.said, Sentence):
            return self.said
        return Sentence(self.said, **self.values)


class CardError(ScoringError):
    """A card, rank or suit that cannot be read, or more copies than the decks hold."""


class RulesError(ScoringError):
    """A rules object or scoring table that is not valid.

    ``band`` is the number (from 1) of the scoring table's band at fault, where one is, so that
    a form can show the message beside that band.
    """

    def __init__(
        self,
        message: str,
        *,
        band: int | None = None,
        said: str | Plural | Sentence = "",
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, said=said, values=values)
        self.band = band


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
        super().__init__(message)  # a Sentence: its own words are the players'
        self.player = player
        self.part = part


class ReplayError(ScoringError):
    """A hand's record that cannot be replayed: a deal that is not the pack, a missing player."""
