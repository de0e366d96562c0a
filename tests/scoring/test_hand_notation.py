"""A hand's result in the ``game`` command's notation (docs/engine-json.md): written as the
command reads it, read back to the same result, and bad input named with its hand."""

from __future__ import annotations

import json

import pytest

from scoring import (
    Bid,
    Format,
    GameError,
    HandResult,
    LastTrick,
    Side,
    Suit,
    Table,
    TakenBack,
    Teams,
    TrumpRule,
)

NAMES = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan")
PARTNERS = Table(NAMES[:4])
FRIENDS = Table(NAMES[:5], teams=Teams.FIND_A_FRIEND)
ROTATION = Table(NAMES[:4], trumps=TrumpRule(suits=(Suit.SPADES, Suit.HEARTS)))
HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
THROWN = LastTrick(Side.OPPONENTS, Format.THROW, 3)


@pytest.mark.parametrize(
    ("table", "result", "written"),
    [
        (
            PARTNERS,
            HandResult(2, 85, 0, LastTrick(Side.OPPONENTS, Format.PAIR, 2)),
            {"declarer": "Lin", "trump": None, "opponent_points": 85, "kitty_points": 0,
             "last_trick": {"winner": "opponents", "format": "pair", "cards": 2}},
        ),
        (
            PARTNERS,
            HandResult(0, 70, 15, THROWN, TakenBack(1, 0), trump=Suit.DIAMONDS),
            {"declarer": "Mei", "trump": "D", "opponent_points": 70, "kitty_points": 15,
             "last_trick": {"winner": "opponents", "format": "throw", "cards": 3},
             "taken_back": {"declarers": 1, "opponents": 0}},
        ),
        (
            FRIENDS,
            HandResult(4, 40, 5, HELD, friends=(1,), trump=Suit.CLUBS),
            {"declarer": "Wei", "trump": "C", "opponent_points": 40, "kitty_points": 5,
             "last_trick": {"winner": "declarers", "format": "single", "cards": 1},
             "friends": ["Jun"]},
        ),
        (
            FRIENDS,
            HandResult(0, 0, 0, HELD),
            {"declarer": "Mei", "trump": None, "opponent_points": 0, "kitty_points": 0,
             "last_trick": {"winner": "declarers", "format": "single", "cards": 1},
             "friends": []},
        ),
    ],
)  # fmt: skip
def test_a_hand_is_written_as_the_game_command_reads_it(table, result, written):
    assert result.to_json(table) == written
    assert HandResult.from_json(json.loads(json.dumps(written)), table, 1) == result


def test_the_bid_is_no_part_of_the_notation():
    result = HandResult(0, 45, 0, HELD, trump=None, bid=Bid.BIG_JOKERS)
    assert "bid" not in result.to_json(PARTNERS)
    assert HandResult.from_json(result.to_json(PARTNERS), PARTNERS, 1).bid is None


@pytest.mark.parametrize(
    ("number", "trump"), [(1, Suit.SPADES), (2, Suit.HEARTS), (3, Suit.SPADES)]
)
def test_a_fixed_trump_left_out_is_the_rules_for_that_hand(number, trump):
    hand = {"declarer": "Mei", "opponent_points": 45, "kitty_points": 0,
            "last_trick": {"winner": "declarers", "format": "single"}}  # fmt: skip
    assert HandResult.from_json(hand, ROTATION, number).trump is trump


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"declarer": "Yan"}, 'hand 3: declarer: "Yan" is not one of the players'),
        ({"trump": "X"}, 'hand 3: trump must be S, H, D, C or null (no trump), got "X"'),
        ({"trump": "NT"}, 'hand 3: trump must be S, H, D, C or null (no trump), got "NT"'),
        ({"friends": "Jun"}, 'hand 3: friends must be a list of players, got "Jun"'),
        ({"last_trick": []}, "hand 3: last_trick must be a JSON object, got []"),
        (
            {"last_trick": {"winner": "us", "format": "single"}},
            'hand 3: last_trick.winner must be one of declarers, opponents, got "us"',
        ),
        (
            {"taken_back": {"thrower": 1}},
            "hand 3: taken_back has only declarers and opponents, got 'thrower'",
        ),
    ],
)
def test_a_bad_hand_is_named_and_its_input_quoted(change, message):
    hand = {"declarer": "Mei", "trump": "S", "opponent_points": 45, "kitty_points": 0,
            "last_trick": {"winner": "declarers", "format": "single"}, **change}  # fmt: skip
    with pytest.raises(GameError) as error:
        HandResult.from_json(hand, PARTNERS, 3)
    assert str(error.value) == message
    assert isinstance(error.value, ValueError)


def test_a_missing_key_is_named():
    with pytest.raises(GameError) as error:
        HandResult.from_json({"declarer": "Mei", "trump": None, "opponent_points": 5}, PARTNERS, 1)
    assert str(error.value) == "hand 1: 'kitty_points' is missing"
