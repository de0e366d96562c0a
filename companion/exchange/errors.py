"""What is wrong with a file, in the players' words and naming where it is ("Game 12, hand 4:
…"): the one error an import raises, and the reading of pydantic's errors into it.

Every message is a whole sentence in the reader's language: the validators raise a translated
sentence (`problem`) whose ``%(key)s`` is the file's key being read (``opponent_points``,
``before.declarer``), and `message` puts the part of the file it is in before it."""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from scoring import ScoringError


class ExchangeError(ValueError):
    """A file that is not a group export this server can read; the message names the problem."""


# The file's lists, each item named by its number from 1: ("games", 0) is "Game 1".
PARTS = {
    "members": _("Member %(number)s"),
    "players": _("Player %(number)s"),
    "scoring_tables": _("Scoring table %(number)s"),
    "log": _("Entry %(number)s of the group's log"),
    "evenings": _("Evening %(number)s"),
    "games": _("Game %(number)s"),
}
GAME_PARTS = {
    "seats": _("Game %(game)s, seat %(number)s"),
    "hands": _("Game %(game)s, hand %(number)s"),
    "changes": _("Game %(game)s, change %(number)s"),
    "disputes": _("Game %(game)s, dispute %(number)s"),
}
EVENING_PARTS = {
    "presences": _("Evening %(evening)s, player %(number)s on its list"),
    "rounds": _("Evening %(evening)s, round %(number)s"),
}
ROUND_PARTS = {"tables": _("Evening %(evening)s, round %(round)s, table %(number)s")}
# pydantic's type errors, as what the value must be.
# Translators: %(key)s is a key of the export file as the file writes it (opponent_points,
# seats.level); %(value)s is the file's value there, quoted from the file.
EXPECTED = {
    "int_type": _("%(key)s must be a whole number, not %(value)s."),
    "bool_type": _("%(key)s must be true or false, not %(value)s."),
    "string_type": _("%(key)s must be text, not %(value)s."),
    "list_type": _("%(key)s must be a list, not %(value)s."),
    "dict_type": _("%(key)s must be a JSON object, not %(value)s."),
    "model_type": _("%(key)s must be a JSON object, not %(value)s."),
    "model_attributes_type": _("%(key)s must be a JSON object, not %(value)s."),
}


def problem(text: str, *at: str | int, **values: object) -> PydanticCustomError:
    """An error for a validator to raise: ``text``, a translated sentence filled in from
    ``values`` and ``key`` (the key being validated) when shown; ``at`` is a place within the
    one being validated, as pydantic locations go (``"hands", 1, "kitty_cards"``: hand 2's
    kitty_cards)."""
    return PydanticCustomError("exchange", "{text}", {"text": text, "at": at, "values": values})


def in_words(error: ScoringError) -> str:
    """A `scoring` error as a player reads it, in the reader's language."""
    return error.in_words(gettext, ngettext)


def where(location: tuple) -> tuple[str, str]:
    """A pydantic location as the part of the file it is in, in the players' words, and the
    key within that part: ``("games", 0, "changes", 2, "before")`` is ("Game 1, change 3",
    "before"); ("", …) where the location is in no numbered part."""
    items = list(location)
    place, game, evening, round_, keys = "", None, 0, 0, []
    while items:
        item = items.pop(0)
        numbered = not keys and items and isinstance(items[0], int)
        if numbered and game is None and item in PARTS:
            number = items.pop(0) + 1
            place = PARTS[item] % {"number": number}
            game = number if item == "games" else 0
            evening = number if item == "evenings" else 0
        elif numbered and game and item in GAME_PARTS:
            place = GAME_PARTS[item] % {"game": game, "number": items.pop(0) + 1}
            game = 0
        elif numbered and evening and item in EVENING_PARTS:
            number = items.pop(0) + 1
            place = EVENING_PARTS[item] % {"evening": evening, "number": number}
            round_ = number if item == "rounds" else 0
            evening = evening if item == "rounds" else 0
        elif numbered and evening and round_ and item in ROUND_PARTS:
            values = {"evening": evening, "round": round_, "number": items.pop(0) + 1}
            place = ROUND_PARTS[item] % values
            evening = round_ = 0
        else:
            keys.append(str(item if not isinstance(item, int) else item + 1))
    return place, ".".join(keys)


def said(location: tuple, text: str, values: Mapping[str, object] | None = None) -> str:
    """``text`` filled in, after the part of the file ``location`` is in; a sentence that does
    not name the key it is about comes after the key."""
    place, key = where(location)
    sentence = text % {**(values or {}), "key": key}
    if key and "%(key)s" not in text:
        # Translators: %(key)s is a key of the export file (rules, request), %(problem)s a
        # sentence saying what is wrong with its value.
        sentence = gettext("%(key)s: %(problem)s") % {"key": key, "problem": sentence}
    if not place:
        return sentence
    # Translators: %(place)s is a part of the export file, such as "Game 1, hand 2";
    # %(problem)s a sentence saying what is wrong there.
    return gettext("%(place)s: %(problem)s") % {"place": place, "problem": sentence}


def message(error: ValidationError, at: tuple = ()) -> str:
    """The first problem pydantic found, as a sentence; ``at`` is where in the file the part
    validated is (``("games", 0)``: game 1)."""
    first = error.errors(include_url=False)[0]
    kind, location, ctx = first["type"], (*at, *first["loc"]), first.get("ctx") or {}
    value = show(first.get("input"))
    if kind == "exchange":
        return said((*location, *ctx["at"]), ctx["text"], ctx["values"])
    if kind == "missing":
        return said(location, gettext("The key %(key)s is missing."))
    if kind == "extra_forbidden":
        return said(location, gettext("%(key)s is not a key this server knows."))
    if kind in EXPECTED:
        return said(location, str(EXPECTED[kind]), {"value": value})
    if kind == "literal_error":
        expected = ", ".join(ctx["expected"].rsplit(" or ", 1))
        # Translators: %(expected)s lists the values the file may hold there, as the file
        # writes them ('partners', 'pairs'); %(value)s is the file's value.
        text = gettext("%(key)s must be one of %(expected)s, not %(value)s.")
        return said(location, text, {"expected": expected, "value": value})
    if kind == "value_error":
        return said(location, "%(problem)s", {"problem": str(ctx["error"])})
    # Translators: %(problem)s is a technical description in English of what is wrong.
    text = gettext("%(key)s cannot be read (%(problem)s): %(value)s.")
    return said(location, text, {"problem": first["msg"], "value": value})


def show(value: object) -> str:
    """A value as the file wrote it, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"
