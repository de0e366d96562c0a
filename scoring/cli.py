"""The JSON contract of ENGINE-JSON.md: read a request, answer one JSON object or one line.

Each command reads a decoded JSON value and returns the answer as a JSON-ready dict; anything
wrong with the request raises a :class:`~scoring.errors.ScoringError` whose message becomes the
single line on standard error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from scoring.cards import Rank
from scoring.errors import CardError, ScoringError
from scoring.rules import E, Format, Side, get_rules
from scoring.settle import LastTrick, Levels, settle

USAGE = "usage: python -m scoring judge|settle [FILE]"


def settle_request(request: object) -> dict[str, object]:
    """Answer a ``settle`` request."""
    data = _object(request, "the request")
    rules = get_rules(data.get("rules", "standard"))
    raw_levels = _object(_required(data, "levels"), "levels")
    levels = Levels(
        declarers=_level(raw_levels, "declarers"),
        opponents=_level(raw_levels, "opponents"),
    )
    last_trick = _object(_required(data, "last_trick"), "last_trick")
    result = settle(
        rules,
        levels,
        opponent_points=_required(data, "opponent_points"),  # type: ignore[arg-type]
        kitty_points=_required(data, "kitty_points"),  # type: ignore[arg-type]
        last_trick=LastTrick.of(
            winner=_choice(Side, last_trick, "winner", "last_trick.winner"),
            format=_choice(Format, last_trick, "format", "last_trick.format"),
            cards=last_trick.get("cards"),  # type: ignore[arg-type]
        ),
    )
    return {
        "kitty_multiplier": result.kitty_multiplier,
        "kitty_bonus": result.kitty_bonus,
        "opponent_total": result.opponent_total,
        "winner": result.winner.value,
        "levels_gained": result.levels_gained,
        "levels": {
            "declarers": str(result.levels.declarers),
            "opponents": str(result.levels.opponents),
        },
        "next_declarers": result.next_declarers.value,
        "game_over": result.game_over,
        "game_winner": result.game_winner.value if result.game_winner else None,
        "explanation": result.explanation,
    }


COMMANDS: dict[str, Callable[[object], dict[str, object]]] = {
    "settle": settle_request,
}


def main(argv: list[str], stdin: TextIO | None = None) -> int:
    """Run one command; 0 with the answer on stdout, 2 with one line on stderr."""
    if not argv or argv[0] not in COMMANDS or len(argv) > 2:
        print(USAGE, file=sys.stderr)
        return 2
    command = COMMANDS[argv[0]]
    try:
        text = _read(argv[1] if len(argv) == 2 else None, stdin or sys.stdin)
        try:
            request = json.loads(text)
        except json.JSONDecodeError as error:
            raise ScoringError(f"the input is not JSON: {error}") from None
        answer = command(request)
    except ScoringError as error:
        print(error, file=sys.stderr)
        return 2
    json.dump(answer, sys.stdout, ensure_ascii=False)
    print()
    return 0


def _read(path: str | None, stdin: TextIO) -> str:
    if path is None or path == "-":
        return stdin.read()
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise ScoringError(f"cannot read {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScoringError(f"{path!r} is not UTF-8 text") from None


def _object(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ScoringError(f"{what} must be a JSON object, got {json.dumps(value)}")
    return value


def _required(data: Mapping[str, object], key: str) -> object:
    if key not in data:
        raise ScoringError(f"{key!r} is missing")
    return data[key]


def _level(levels: Mapping[str, object], side: str) -> Rank:
    value = _required(levels, side)
    try:
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise CardError(value)
        return Rank.parse(str(value))
    except CardError:
        raise ScoringError(
            f"levels.{side} must be a level from 2 to A, got {json.dumps(value)}"
        ) from None


def _choice(kind: type[E], data: Mapping[str, object], key: str, what: str) -> E:
    value = _required(data, key)
    try:
        return kind(value)  # type: ignore[call-arg]
    except ValueError:
        choices = ", ".join(member.value for member in kind)  # type: ignore[attr-defined]
        raise ScoringError(f"{what} must be one of {choices}, got {json.dumps(value)}") from None
