"""Sentences for players, kept whole until shown so that the caller's language fills them in.

`scoring` imports no translation machinery: a sentence is marked here for the catalogues and
translated by whichever ``gettext`` and ``ngettext`` the caller passes (the web app passes
Django's, ``python -m scoring --lang`` the standard library's). The markers carry the names that
Django's ``makemessages`` (xgettext) reads: :func:`gettext_noop` for a sentence,
:func:`ngettext` for a sentence with a singular and a plural form. Placeholders are named
``{braces}`` (python-brace-format).

>>> said = Sentence(ngettext("{player} took {count} card back", "{player} took {count} cards back", 3),
...                 player="Mei", count=3)
>>> said
'Mei took 3 cards back'
>>> french = {"{player} took {count} cards back": "{player} a repris {count} cartes"}
>>> said.in_words(ngettext=lambda one, many, n: french.get(many if n != 1 else one, one))
'Mei a repris 3 cartes'
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def gettext_noop(text: str) -> str:
    """Marks a sentence for the catalogues without translating it: it is translated when shown."""
    return text


class Plural(NamedTuple):
    """A sentence's singular and plural patterns and the count that chooses between them."""

    singular: str
    plural: str
    count: int


def ngettext(singular: str, plural: str, count: int) -> Plural:
    """Marks a sentence with plural forms for the catalogues (xgettext reads ``ngettext``'s first
    two arguments); the caller's ``ngettext`` picks the form for ``count`` when shown."""
    return Plural(singular, plural, count)


def english(singular: str, plural: str, count: int) -> str:
    """English's own plural rule: the untranslated ``ngettext``."""
    return singular if count == 1 else plural


class Sentence(str):
    """A sentence for a player: its English text as a ``str``, and :meth:`in_words` for any
    other language. ``pattern`` is a marked sentence (or a :class:`Plural`); ``values`` fill in
    its placeholders, and a value that is itself a Sentence is put in the same language."""

    pattern: str | Plural
    values: dict[str, object]

    def __new__(cls, pattern: str | Plural, /, **values: object) -> Sentence:
        self = super().__new__(cls, _fill(pattern, values, str, english))
        self.pattern = pattern
        self.values = values
        return self

    def in_words(self, gettext: Gettext = str, ngettext: Ngettext = english) -> str:
        """The sentence in the language of ``gettext`` and ``ngettext``."""
        return _fill(self.pattern, self.values, gettext, ngettext)

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuilt, (self.pattern, self.values))


def _rebuilt(pattern: str | Plural, values: dict[str, object]) -> Sentence:
    return Sentence(pattern, **values)


def _fill(
    pattern: str | Plural, values: dict[str, object], gettext: Gettext, ngettext: Ngettext
) -> str:
    if isinstance(pattern, Plural):
        text = ngettext(pattern.singular, pattern.plural, pattern.count)
    else:
        text = gettext(pattern)
    shown = {
        name: value.in_words(gettext, ngettext) if isinstance(value, Sentence) else value
        for name, value in values.items()
    }
    return text.format(**shown)


def in_a_row(items: Sequence[object]) -> Sentence:
    """Items side by side with no last "and", such as a throw's parts: ``AH, KH KH``, its
    comma the reader's (Chinese writes 、).

    >>> in_a_row(["AH", "KH KH", "QH"])
    'AH, KH KH, QH'
    """
    start = Sentence("{only}", only=items[0])
    for item in items[1:]:
        start = Sentence(gettext_noop("{start}, {next}"), start=start, next=item)
    return start


def listed(items: Sequence[object], *, either: bool = False) -> Sentence:
    """Names as one list a player reads: ``Mei``, ``Mei and Lin``, ``Mei, Lin and Wei`` (with
    ``either``: ``Mei or Lin``), its joins translated like any sentence.

    >>> listed(["Mei", "Lin", "Wei"]), listed(["Mei", "Lin"], either=True)
    ('Mei, Lin and Wei', 'Mei or Lin')
    """
    if not items:
        return Sentence("")
    if len(items) == 1:
        return Sentence("{only}", only=items[0])
    if len(items) == 2:
        if either:
            # Translators: a choice between two names, such as "Mei or Lin".
            return Sentence(gettext_noop("{first} or {second}"), first=items[0], second=items[1])
        # Translators: a list of two names, such as "Mei and Lin".
        return Sentence(gettext_noop("{first} and {second}"), first=items[0], second=items[1])
    start: object = items[0]
    for item in items[1:-1]:
        # Translators: the start of a list of three names or more and its next name, such as
        # "Mei, Lin" in "Mei, Lin and Wei".
        start = Sentence(gettext_noop("{start}, {next}"), start=start, next=item)
    if either:
        # Translators: the end of a choice among three names or more: "{start}" is the
        # others, such as "Mei, Lin" in "Mei, Lin or Wei".
        return Sentence(gettext_noop("{start} or {last}"), start=start, last=items[-1])
    # Translators: the end of a list of three names or more: "{start}" is the others, such as
    # "Mei, Lin" in "Mei, Lin and Wei".
    return Sentence(gettext_noop("{start} and {last}"), start=start, last=items[-1])
