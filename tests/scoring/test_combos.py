"""Reading cards as combinations: singles, pairs, tractors across the level gap and through the
trump chain, throws, 3 and 4 decks, and splitting a play into the lead's shape."""

from __future__ import annotations

import pytest

from scoring.cards import Rank, Suit, parse_cards
from scoring.combos import classify, decompose, find_split, highest, pairs, tractors_matched
from scoring.errors import PlayError
from scoring.trump import Trump

LEVEL_5_HEARTS = Trump(Rank.FIVE, Suit.HEARTS)
LEVEL_5_NO_TRUMP = Trump(Rank.FIVE, None)


def cards(text: str) -> tuple:
    return parse_cards(text.split())


def read(trump: Trump, text: str) -> list[str]:
    return [str(combo) for combo in decompose(trump, cards(text))]


@pytest.mark.parametrize(
    ("trump", "text", "format"),
    [
        (LEVEL_5_HEARTS, "9S", "single"),
        (LEVEL_5_HEARTS, "9S 9S", "pair"),
        (LEVEL_5_HEARTS, "BJ BJ", "pair"),
        (LEVEL_5_HEARTS, "9S 9S TS TS", "tractor"),
        (LEVEL_5_HEARTS, "4S 4S 6S 6S", "tractor"),  # across the level gap
        (LEVEL_5_HEARTS, "4H 4H 6H 6H", "tractor"),
        (LEVEL_5_HEARTS, "AH AH 5S 5S", "tractor"),
        (LEVEL_5_HEARTS, "5C 5C 5H 5H", "tractor"),
        (LEVEL_5_HEARTS, "5H 5H SJ SJ", "tractor"),
        (LEVEL_5_HEARTS, "SJ SJ BJ BJ", "tractor"),
        (LEVEL_5_HEARTS, "KH KH AH AH 5D 5D 5H 5H SJ SJ BJ BJ", "tractor"),
        (LEVEL_5_HEARTS, "5S 5S 5D 5D", "throw"),  # equal level cards are not consecutive
        (LEVEL_5_HEARTS, "5S 5S SJ SJ", "throw"),  # the trump-suit level card lies between
        (LEVEL_5_HEARTS, "9S 9S JS JS", "throw"),
        (LEVEL_5_HEARTS, "9S TS", "throw"),
        (LEVEL_5_HEARTS, "9S 9S TS", "throw"),
        (LEVEL_5_NO_TRUMP, "5S 5S SJ SJ", "tractor"),  # no trump-suit level card between them
        (LEVEL_5_NO_TRUMP, "5S 5S 5H 5H", "throw"),
        (Trump(Rank.ACE, Suit.CLUBS), "KC KC AD AD AC AC", "tractor"),
        (Trump(Rank.TWO, Suit.CLUBS), "3S 3S 4S 4S", "tractor"),
    ],
)
def test_a_lead_is_a_single_a_pair_a_tractor_or_a_throw(
    trump: Trump, text: str, format: str
) -> None:
    assert classify(trump, cards(text)).value == format


@pytest.mark.parametrize(
    ("trump", "text"),
    [
        (LEVEL_5_HEARTS, "5H 9S"),
        (LEVEL_5_HEARTS, "AS AS 5S 5S"),  # a plain ace and a trump level card
        (LEVEL_5_NO_TRUMP, "AH AH 5H 5H"),  # without a trump suit the ace of hearts is plain
    ],
)
def test_cards_of_several_suits_are_no_combination(trump: Trump, text: str) -> None:
    with pytest.raises(PlayError, match=f"^{text} are not cards of one suit"):
        decompose(trump, cards(text))


@pytest.mark.parametrize(
    ("trump", "text", "combos"),
    [
        (LEVEL_5_HEARTS, "AS KS KS QS QS 2S", ["QS QS KS KS", "AS", "2S"]),
        (LEVEL_5_HEARTS, "AS AS QS QS 8S", ["AS AS", "QS QS", "8S"]),
        (LEVEL_5_HEARTS, "9S 9S TS TS QS QS KS KS AS AS", ["QS QS KS KS AS AS", "9S 9S TS TS"]),
        # The longest run takes one of the equal level pairs; the other stays a pair.
        (LEVEL_5_HEARTS, "AH AH 5S 5S 5C 5C 5H 5H", ["AH AH 5C 5C 5H 5H", "5S 5S"]),
        (LEVEL_5_HEARTS, "BJ SJ 5H", ["BJ", "SJ", "5H"]),
    ],
)
def test_a_throw_reads_as_its_longest_tractors_then_pairs_then_singles(
    trump: Trump, text: str, combos: list[str]
) -> None:
    assert read(trump, text) == combos


@pytest.mark.parametrize(
    ("decks", "text", "combos"),
    [
        (3, "7H 7H 7H", ["7H 7H", "7H"]),
        (3, "7H 7H 7H 8H 8H 8H", ["7H 7H 8H 8H", "8H", "7H"]),
        (4, "7H 7H 7H 7H", ["7H 7H", "7H 7H"]),
        (4, "7H 7H 7H 7H 8H 8H 8H 8H", ["7H 7H 8H 8H", "7H 7H 8H 8H"]),
        (4, "BJ BJ BJ SJ SJ SJ SJ", ["SJ SJ BJ BJ", "SJ SJ", "BJ"]),
    ],
)
def test_with_more_decks_a_pair_is_still_two_identical_cards(
    decks: int, text: str, combos: list[str]
) -> None:
    trump = Trump(Rank.TWO, Suit.SPADES, decks=decks)
    assert read(trump, text) == combos
    assert classify(trump, cards(text)).value == "throw"


SPADES_2 = Trump(Rank.TWO, Suit.SPADES)


@pytest.mark.parametrize(
    ("lead", "play", "split"),
    [
        ("AH", "3S", ["3S"]),
        ("AH AH", "3S 3S", ["3S 3S"]),
        ("AH AH", "3S 4S", None),
        ("KH KH AH AH", "3S 3S 4S 4S", ["3S 3S 4S 4S"]),
        ("KH KH AH AH", "3S 3S 5S 5S", None),
        ("KH KH AH AH", "3S 3S 4S", None),  # another number of cards
        ("KH KH AH AH", "3S 3S 4H 4H", None),  # two suits
        # A tractor may serve as pairs, a pair as two singles.
        ("AH AH QH QH", "3S 3S 4S 4S", ["4S 4S", "3S 3S"]),
        ("AH KH", "3S 3S", ["3S", "3S"]),
        ("AH KH KH", "3S 4S 4S", ["4S 4S", "3S"]),
        ("AH KH KH", "3S 4S 6S", None),
        # A longer tractor serves as a shorter one and a pair.
        ("KH KH AH AH 8H 8H", "3S 3S 4S 4S 5S 5S", ["4S 4S 5S 5S", "3S 3S"]),
    ],
)
def test_a_play_splits_into_the_leads_shape_or_not(
    lead: str, play: str, split: list[str] | None
) -> None:
    shapes = [combo.shape for combo in decompose(SPADES_2, cards(lead))]
    found = find_split(SPADES_2, cards(play), shapes)
    assert (None if found is None else [str(combo) for combo in found]) == split


@pytest.mark.parametrize(
    ("current", "play", "beats"),
    [
        ("4S 4S 3S", "7S 7S 6S", True),
        ("4S 4S 3S", "7S 7S 3S", False),  # the singles are equal: the first played keeps it
        ("4S 4S 3S", "3S 3S 8S", False),  # the pair is lower
        ("4S 4S AS", "7S 7S KS", False),
        # Read as pair JJ and single Q the play beats pair TT and single 9.
        ("TS TS 9S", "JS JS QS", True),
        # Two singles and a pair: the play's 8 8 can be singles and its Q Q the pair.
        ("9S 9S 6S 3S", "QS QS 8S 8S", True),
    ],
)
def test_a_play_beats_another_combination_by_combination(
    current: str, play: str, beats: bool
) -> None:
    shapes = [combo.shape for combo in decompose(SPADES_2, cards(current))]
    assert (find_split(SPADES_2, cards(play), shapes, above=cards(current)) is not None) is beats


@pytest.mark.parametrize(
    ("current", "play", "beats"),
    [
        # 6 6 3 3 is the pair 6 6 with 3 and 3, or the pair 3 3 with 6 and 6.
        ("6S 6S 3S 3S", "7S 7S 5S 4S", False),  # above the first reading only
        ("6S 6S 3S 3S", "4S 4S 8S 7S", False),  # above the second reading only
        ("6S 6S 3S 3S", "7S 7S 8S 8S", True),  # 7 7 with 8 and 8 is above both
        ("6S 6S 3S 3S", "8S 8S 7S 7S", True),  # the same cards, however they are listed
        # The later play is read its best way: 4 4 with 7 and 7 beats 3 3 with 6 and 5.
        ("3S 3S 6S 5S", "7S 7S 4S 4S", True),
    ],
)
def test_a_play_read_two_ways_must_be_beaten_in_both(current: str, play: str, beats: bool) -> None:
    shapes = [(2, 1), (1, 1), (1, 1)]
    assert (find_split(SPADES_2, cards(play), shapes, above=cards(current)) is not None) is beats


def test_the_highest_combination_of_a_shape() -> None:
    held = cards("3S 3S 4S 4S 5S 5S 9S 9S AS")
    assert str(highest(SPADES_2, held, (1, 1))) == "AS"
    assert str(highest(SPADES_2, held, (2, 1))) == "9S 9S"
    assert str(highest(SPADES_2, held, (2, 2))) == "4S 4S 5S 5S"
    assert str(highest(SPADES_2, held, (2, 3))) == "3S 3S 4S 4S 5S 5S"
    assert highest(SPADES_2, held, (2, 4)) is None
    assert highest(SPADES_2, (), (1, 1)) is None


def test_pairs_are_counted_per_two_identical_cards() -> None:
    trump = Trump(Rank.TWO, Suit.SPADES, decks=4)
    assert [str(pair) for pair in pairs(trump, cards("7H 7H 7H 7H 9H 9H 9H KH"))] == [
        "9H 9H",
        "7H 7H",
        "7H 7H",
    ]


@pytest.mark.parametrize(
    ("held", "lengths", "matched"),
    [
        ("7H 7H 8H 8H", [2], 1),
        ("7H 7H 9H 9H", [2], 0),
        ("7H 7H 8H 8H 9H 9H", [2, 2], 1),
        ("7H 7H 8H 8H 9H 9H TH TH", [2, 2], 2),
        ("7H 7H 8H 8H 9H 9H TH TH", [3, 2], 1),
        ("7H 7H 8H 8H JH JH QH QH KH KH", [3, 2], 2),
    ],
)
def test_tractors_held_at_once(held: str, lengths: list[int], matched: int) -> None:
    assert tractors_matched(SPADES_2, cards(held), lengths) == matched
