"""A hand's result in one sentence (`PlayedHand.summary`), as the table screen shows it: who
declared, the opponents' total and what it did to the game, for each way a hand can end."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import Band, Format, LastTrick, Rank, Side, get_rules
from scoring.game import GameSetup, HandResult, replay
from scoring.table import Table

HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
TABLE = Table(("Mei", "Jun", "Lin", "Hao"))
# A group's own table under which the declarers keep the deal without climbing from 40 to 75.
KEEPING = dataclasses.replace(
    get_rules("standard"),
    name="keeping",
    bands=(
        Band(0, 35, Side.DECLARERS, 1),
        Band(40, 75, Side.DECLARERS, 0),
        Band(80, None, Side.OPPONENTS, 1),
    ),
)


@pytest.mark.parametrize(
    ("rules", "declarers_at", "opponents_at", "points", "said"),
    [
        ("standard", "2", "2", 0, "the declarers held the opponents to 0 and climbed 3 levels."),
        ("standard", "2", "2", 45, "the declarers held the opponents to 45 and climbed 1 level."),
        ("standard", "A", "2", 45, "the declarers held the opponents to 45 and won the game."),
        (KEEPING, "2", "2", 45, "the declarers held the opponents to 45 and kept the deal."),
        ("standard", "2", "2", 80, "the opponents reached 80 and took the deal."),
        ("kawu", "2", "2", 120, "the opponents reached 120, took the deal and climbed 1 level."),
        ("kawu", "2", "2", 160, "the opponents reached 160, took the deal and climbed 2 levels."),
        ("open-ladder", "2", "A", 120, "the opponents reached 120 and won the game."),
    ],
)
def test_a_hand_in_one_sentence(rules, declarers_at, opponents_at, points, said):
    levels = (Rank.parse(declarers_at), Rank.parse(opponents_at)) * 2
    rules = get_rules(rules) if isinstance(rules, str) else rules
    setup = GameSetup(rules, TABLE, levels, first_declarer=0)

    hand = replay(setup, [HandResult(0, points, 0, HELD)]).hands[0]

    assert hand.summary(TABLE.players) == f"Hand 1, Mei declaring: {said}"
