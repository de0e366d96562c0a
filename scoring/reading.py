"""Reading the engine's JSON notation (docs/engine-json.md): each reader returns the value the
input stands for, or raises a :class:`~scoring.errors.ScoringError` that names where the input
is and quotes it as JSON."""

from __future__ import annotations

import json
from collections.abc import Mapping

from scoring.cards import Suit
from scoring.errors import CardError, ScoringError
from scoring.rules import E
from scoring.table import Table


def json_object(value: object, what: str) -> Mapping[str, object]:
    """``value`` where it is a JSON object; ``what`` names it in the error.

    >>> json_object([], "the hand")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: the hand must be a JSON object, got []
    """
    if not isinstance(value, Mapping):
        raise ScoringError(f"{what} must be a JSON object, got {json.dumps(value)}")
    return value


def required(data: Mapping[str, object], key: str, where: str = "") -> object:
    """``data[key]``; ``where`` is the path to ``data`` in the request, such as ``levels.``."""
    if key not in data:
        raise ScoringError(f"{where + key!r} is missing")
    return data[key]


def choice(kind: type[E], data: Mapping[str, object], key: str, what: str) -> E:
    """The member of the enum ``kind`` whose value ``data[key]`` is; ``what`` is its path."""
    value = required(data, key, what.removesuffix(key))
    try:
        return kind(value)  # type: ignore[call-arg]
    except ValueError:
        choices = ", ".join(member.value for member in kind)  # type: ignore[attr-defined]
        raise ScoringError(f"{what} must be one of {choices}, got {json.dumps(value)}") from None


def trump_suit(value: object) -> Suit | None:
    """A hand's trump as JSON writes it: a suit, or null for a hand without a trump suit.

    >>> trump_suit("h"), trump_suit(None)
    (<Suit.HEARTS: 'H'>, None)
    """
    if value is None:
        return None
    try:
        if not isinstance(value, str):
            raise CardError(value)
        return Suit.parse(value)
    except CardError:
        raise ScoringError(
            f"trump must be S, H, D, C or null (no trump), got {json.dumps(value)}"
        ) from None


def player_seat(table: Table, name: object, what: str) -> int:
    """The seat of the player ``name`` at ``table``; ``what`` is where the request names them."""
    if not isinstance(name, str) or name not in table.players:
        raise ScoringError(f"{what}: {json.dumps(name)} is not one of the players")
    return table.players.index(name)
