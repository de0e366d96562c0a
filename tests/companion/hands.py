"""The hands the tests record: Mei's plain held hand (she declares in hearts and holds the
opponents to 45, so her side climbs 1) as the hand form posts it and as a game records it, and
hand results as ``scoring`` replays them."""

from __future__ import annotations

from scoring import Format, LastTrick, Side
from scoring.game import HandResult

# What the hand form posts for the held hand, the fields a player fills on its one screen (the
# kitty, the bid and failed throws keep their defaults); a test changes only what it is about.
HELD_FORM = {
    "declarer": "0",
    "trump": "H",
    "opponent_points": "45",
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
}

# The same hand as `Game.record_hand` takes it.
HELD_FIELDS = {
    "declarer": 0,
    "bid": "one",
    "trump": "H",
    "kitty_cards": "",
    "kitty_points": 0,
    "opponent_points": 45,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
}

HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
SCOOPED = LastTrick(Side.OPPONENTS, Format.SINGLE, 1)


def held_form(**changes) -> dict:
    """The held hand's form, with ``changes``."""
    return {**HELD_FORM, **changes}


def result(
    declarer: int,
    points: int,
    kitty: int = 0,
    last: LastTrick = HELD,
    friends: tuple[int, ...] = (),
) -> HandResult:
    """A hand as `scoring` replays it: seat ``declarer`` declared and the opponents took
    ``points``, with ``kitty`` in the kitty and the last trick ``last``."""
    return HandResult(declarer, points, kitty, last, friends=friends)


# Mei and Lin, from Q, beat Jun and Hao (at 2) under the standard rules in six hands.
QUEENS_WIN = (
    result(0, 0),
    result(2, 80),
    result(1, 30, 10, SCOOPED),
    result(3, 75),
    result(3, 120),
    result(0, 40),
)
QUEENS_WIN_LEVELS = ("Q", "2", "Q", "2")
