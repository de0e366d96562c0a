"""Replaying a whole hand: the winners' chain, the points each side captured, the last trick,
the first play that broke the rules, and the records that cannot be a hand."""

from __future__ import annotations

import random

import pytest
from random_hands import play_hand

from scoring.cards import Rank, Suit, parse_cards
from scoring.errors import ReplayError
from scoring.replay import Fault, replay_hand
from scoring.rules import Format, Side, get_rules
from scoring.tricks import Play
from scoring.trump import Trump

STANDARD = get_rules("standard")
LEVEL_2_SPADES = Trump(Rank.TWO, Suit.SPADES)


def trick(*plays: tuple[str, str]) -> list[Play]:
    return [Play(player, parse_cards(cards.split())) for player, cards in plays]


# Level 2, spades trump: N leads, E wins the first trick with a trump, then W's ace.
TWO_TRICKS = [
    trick(("N", "AH"), ("W", "KH"), ("S", "5H"), ("E", "3S")),
    trick(("E", "TD"), ("N", "4D"), ("W", "AD"), ("S", "3D")),
]


def test_each_trick_goes_to_its_winners_side() -> None:
    hand = replay_hand(STANDARD, LEVEL_2_SPADES, TWO_TRICKS)
    assert hand.seats == ("N", "W", "S", "E")
    assert hand.declarers == {"N", "S"}
    assert hand.winners == ("E", "W")
    assert (hand.declarer_points, hand.opponent_points, hand.kitty_points) == (0, 25, None)
    assert hand.first_illegal is None


def test_the_declarers_can_be_named() -> None:
    hand = replay_hand(STANDARD, LEVEL_2_SPADES, TWO_TRICKS, declarers=["W", "E"])
    assert (hand.declarer_points, hand.opponent_points) == (25, 0)
    assert hand.last_trick.winner is Side.DECLARERS


def test_the_last_trick_feeds_the_kitty_bonus() -> None:
    hand = replay_hand(
        STANDARD,
        LEVEL_2_SPADES,
        [*TWO_TRICKS, trick(("W", "QC QC"), ("S", "3C 4C"), ("E", "6C 7C"), ("N", "8C 9C"))],
    )
    assert (hand.last_trick.winner, hand.last_trick.format, hand.last_trick.cards) == (
        Side.OPPONENTS,
        Format.PAIR,
        2,
    )


def test_a_trick_led_by_someone_other_than_the_last_winner_is_a_fault() -> None:
    tricks = [TWO_TRICKS[0], trick(("N", "4D"), ("W", "AD"), ("S", "3D"), ("E", "TD"))]
    hand = replay_hand(STANDARD, LEVEL_2_SPADES, tricks)
    assert hand.first_illegal == Fault(2, "N", "N led, but E won trick 1 and should have led")
    assert str(hand.first_illegal) == "trick 2: N led, but E won trick 1 and should have led"
    assert hand.winners == ("E", "W")


def test_a_play_out_of_turn_is_a_fault() -> None:
    tricks = [TWO_TRICKS[0], trick(("E", "TD"), ("W", "AD"), ("N", "4D"), ("S", "3D"))]
    hand = replay_hand(STANDARD, LEVEL_2_SPADES, tricks)
    assert hand.first_illegal == Fault(2, "W", "W played out of turn: it was N's turn")


def test_the_first_illegal_play_is_reported_with_its_reason() -> None:
    hands = {"W": parse_cards(["KH", "AD", "2H"]), "S": parse_cards(["5H", "3D", "8D"])}
    tricks = [
        trick(("N", "AH"), ("W", "KH"), ("S", "5H"), ("E", "3S")),
        trick(("E", "TD"), ("N", "4D"), ("W", "2H"), ("S", "3D")),
    ]
    hand = replay_hand(STANDARD, LEVEL_2_SPADES, tricks, hands)
    assert hand.first_illegal == Fault(2, "W", "W had 1 diamond left and did not play it")
    assert hand.winners == ("E", "E")  # W's level card 2H was a revoke: it takes nothing


def test_a_failed_throw_is_a_fault_and_the_trick_stands_as_played() -> None:
    hands = {"W": parse_cards(["AH", "2D", "3D"]), "N": parse_cards(["KH", "QH", "QH"])}
    tricks = [trick(("N", "KH QH QH"), ("W", "AH 2D 3D"), ("S", "4C 5C 6C"), ("E", "7C 8C 9C"))]
    hand = replay_hand(get_rules("open-ladder"), LEVEL_2_SPADES, tricks, hands)
    assert hand.first_illegal is not None
    assert hand.first_illegal.reason.startswith("N's throw fails: W held AH, which beats KH")
    assert hand.winners == ("N",)
    assert hand.declarer_points == 15


def test_a_throw_a_follower_shows_a_higher_card_against_is_a_fault_without_hands() -> None:
    tricks = [trick(("N", "AH QH"), ("W", "KH 2H"), ("S", "4H 5H"), ("E", "7C 8C"))]
    hand = replay_hand(get_rules("open-ladder"), LEVEL_2_SPADES, tricks)
    assert hand.faults == (
        Fault(
            1,
            "N",
            "N's throw fails: W held KH, which beats QH; N takes back 1 card and leads QH, "
            "paying 10 points",
        ),
    )
    assert hand.winners == ("N",)


def test_a_whole_random_hand_replays_clean() -> None:
    rules, trump = get_rules("kawu"), Trump(Rank.SEVEN, Suit.DIAMONDS)
    played = play_hand(random.Random(7), rules, trump)
    hand = replay_hand(rules, trump, played.tricks, played.hands, played.kitty)
    assert hand.first_illegal is None
    assert sum(len(plays[0].cards) for plays in played.tricks) == 25
    assert hand.declarer_points + hand.opponent_points + hand.kitty_points == 200
    assert all(
        plays[0].player == winner
        for plays, winner in zip(played.tricks[1:], hand.winners, strict=False)
    )


def test_the_deal_must_be_the_pack_when_every_hand_and_the_kitty_are_given() -> None:
    rules, trump = get_rules("standard"), Trump(Rank.SEVEN, Suit.DIAMONDS)
    played = play_hand(random.Random(3), rules, trump)
    hands = dict(played.hands)
    hands["P1"] = (*hands["P1"][:-1], parse_cards(["SJ"])[0])
    dropped = played.hands["P1"][-1]
    if dropped == parse_cards(["SJ"])[0]:
        pytest.skip("the dealt card was the small joker already")
    with pytest.raises(ReplayError) as raised:
        replay_hand(rules, trump, played.tricks, hands, played.kitty)
    assert str(raised.value) == (
        f"the hands and the kitty are not the 108-card pack: without {dropped} and with an extra SJ"
    )


@pytest.mark.parametrize(
    ("tricks", "hands", "message"),
    [
        ([], {}, "a hand needs at least one trick with its plays"),
        (
            [TWO_TRICKS[0], trick(("E", "TD"), ("N", "4D"), ("W", "AD"))],
            {},
            "trick 2 has no play from S",
        ),
        (
            [TWO_TRICKS[0], trick(("E", "TD"), ("N", "4D"), ("X", "AD"), ("S", "3D"))],
            {},
            "trick 2: X is not at this table (N, W, S, E)",
        ),
        (TWO_TRICKS, {"W": parse_cards(["AD", "2C"])}, "trick 1: W's play: KH is not in W's hand"),
        (
            TWO_TRICKS,
            {"X": parse_cards(["AD"])},
            "X has a hand but plays no card in the first trick",
        ),
        (
            TWO_TRICKS,
            {"N": parse_cards(["BJ", "BJ"]), "S": parse_cards(["BJ"])},
            "the deal: BJ appears 3 times, but 2 decks hold only 2",
        ),
    ],
)
def test_a_record_that_cannot_be_a_hand(
    tricks: list[list[Play]], hands: dict, message: str
) -> None:
    with pytest.raises(ReplayError) as raised:
        replay_hand(STANDARD, LEVEL_2_SPADES, tricks, hands)
    assert str(raised.value) == message


def test_named_declarers_must_play_in_the_hand() -> None:
    with pytest.raises(ReplayError, match="declarers: Q does not play in this hand"):
        replay_hand(STANDARD, LEVEL_2_SPADES, TWO_TRICKS, declarers=["N", "Q"])
