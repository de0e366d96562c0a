"""What is wrong with a file, in the players' words and naming where it is ("game 12, hand 4:
…"): the one error an import raises, and the reading of pydantic's errors into it."""

from __future__ import annotations

import json

from pydantic import ValidationError
from pydantic_core import PydanticCustomError


class ExchangeError(ValueError):
    """A file that is not a group export this server can read; the message names the problem."""


# The file's lists, each item named by its number from 1: ("games", 0) is "game 1".
NUMBERED = {
    "members": "member",
    "players": "player",
    "scoring_tables": "scoring table",
    "games": "game",
    "seats": "seat",
    "hands": "hand",
    "friends": "friend",
    "changes": "change",
    "disputes": "dispute",
}
# pydantic's type errors, as what the value must be.
EXPECTED = {
    "int_type": "a whole number",
    "bool_type": "true or false",
    "string_type": "text",
    "list_type": "a list",
    "dict_type": "a JSON object",
    "model_type": "a JSON object",
    "model_attributes_type": "a JSON object",
}


def problem(text: str, *at: str | int, joined: str = ": ") -> PydanticCustomError:
    """An error for a validator to raise: ``text`` after the place being validated (and ``at``,
    a place within it, as pydantic locations go: ``"hands", 1`` is hand 2). A field's own
    complaint reads on from its name (``joined=" "``: "bid must be one of …")."""
    return PydanticCustomError("exchange", "{text}", {"text": text, "at": at, "joined": joined})


def where(location: tuple) -> str:
    """A pydantic location in the players' words: ``("games", 0, "changes", 2, "before")`` is
    "game 1, change 3: before"."""
    places: list[str] = []
    keys: list[str] = []
    items = list(location)
    while items:
        item = items.pop(0)
        if isinstance(item, str) and item in NUMBERED and items and isinstance(items[0], int):
            place = f"{NUMBERED[item]} {items.pop(0) + 1}"
            if keys:  # a list inside a key: "game 1: seats: …" reads on from the key
                keys.append(place)
            else:
                places.append(place)
        else:
            keys.append(str(item))
    text = ": ".join([", ".join(places), *keys] if places else keys)
    return text or "the file"


def message(error: ValidationError) -> str:
    """The first problem pydantic found, as a sentence."""
    first = error.errors(include_url=False)[0]
    kind, location, ctx = first["type"], tuple(first["loc"]), first.get("ctx") or {}
    if kind == "exchange":
        return f"{where((*location, *ctx['at']))}{ctx['joined']}{ctx['text']}"
    if kind in ("missing", "extra_forbidden"):
        word = "missing" if kind == "missing" else "unknown"
        return f"{where(location[:-1])}: {word} key {location[-1]!r}"
    if kind in EXPECTED:
        return f"{where(location)} must be {EXPECTED[kind]}, got {show(first['input'])}"
    if kind == "literal_error":
        expected = ", ".join(ctx["expected"].rsplit(" or ", 1))
        return f"{where(location)} must be one of {expected}, got {show(first['input'])}"
    if kind == "value_error":
        return f"{where(location)}: {ctx['error']}"
    return f"{where(location)}: {first['msg']}, got {show(first['input'])}"


def show(value: object) -> str:
    """A value as the file wrote it, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"
