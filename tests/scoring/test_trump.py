"""The trump context: which cards are trumps, what suit each follows as, their order and which
steps are consecutive, with and without a trump suit."""

from __future__ import annotations

from itertools import pairwise

import pytest

from scoring.cards import DISTINCT_CARDS, Card, Rank, Suit
from scoring.errors import CardError
from scoring.trump import TRUMP, Trump

LEVEL_5_HEARTS = Trump(Rank.FIVE, Suit.HEARTS)
LEVEL_5_NO_TRUMP = Trump(Rank.FIVE, None)
LEVEL_5_JOKERS_ONLY = Trump(Rank.FIVE, None, no_trump_level_cards=False)
"""Open-ladder's no-trump hand: the level cards stay in their suits."""


def card(text: str) -> Card:
    return Card.parse(text)


@pytest.mark.parametrize(
    ("trump", "text", "follows"),
    [
        (LEVEL_5_HEARTS, "BJ", "trump"),
        (LEVEL_5_HEARTS, "SJ", "trump"),
        (LEVEL_5_HEARTS, "5H", "trump"),
        (LEVEL_5_HEARTS, "5S", "trump"),
        (LEVEL_5_HEARTS, "5C", "trump"),
        (LEVEL_5_HEARTS, "2H", "trump"),
        (LEVEL_5_HEARTS, "AH", "trump"),
        (LEVEL_5_HEARTS, "AS", "S"),
        (LEVEL_5_HEARTS, "4D", "D"),
        (LEVEL_5_NO_TRUMP, "BJ", "trump"),
        (LEVEL_5_NO_TRUMP, "5D", "trump"),
        (LEVEL_5_NO_TRUMP, "AH", "H"),
        (LEVEL_5_NO_TRUMP, "2S", "S"),
        (LEVEL_5_JOKERS_ONLY, "BJ", "trump"),
        (LEVEL_5_JOKERS_ONLY, "SJ", "trump"),
        (LEVEL_5_JOKERS_ONLY, "5S", "S"),
        (LEVEL_5_JOKERS_ONLY, "5H", "H"),
        (LEVEL_5_JOKERS_ONLY, "AD", "D"),
    ],
)
def test_each_card_follows_its_suit_or_trumps(trump: Trump, text: str, follows: str) -> None:
    assert str(trump.suit_of(card(text))) == follows
    assert trump.is_trump(card(text)) is (follows == "trump")


def test_off_suit_level_card_is_a_trump_not_a_heart() -> None:
    trump = Trump(Rank.FIVE, Suit.SPADES)
    assert trump.suit_of(card("5H")) is TRUMP
    assert trump.common_suit([card("5H"), card("AH")]) is None
    assert trump.common_suit([card("5H"), card("AS"), card("SJ")]) is TRUMP


# Every card of the order, high to low, for level 5 with hearts trump; "=" joins equal cards.
LEVEL_5_HEARTS_ORDER = "BJ SJ 5H 5S=5D=5C AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H"
LEVEL_5_SPADES_PLAIN_ORDER = "AS KS QS JS TS 9S 8S 7S 6S 4S 3S 2S"
LEVEL_5_NO_TRUMP_ORDER = "BJ SJ 5H=5S=5D=5C"


@pytest.mark.parametrize(
    ("trump", "order"),
    [
        (LEVEL_5_HEARTS, LEVEL_5_HEARTS_ORDER),
        (LEVEL_5_HEARTS, LEVEL_5_SPADES_PLAIN_ORDER),
        (LEVEL_5_NO_TRUMP, LEVEL_5_NO_TRUMP_ORDER),
        (LEVEL_5_NO_TRUMP, "AH KH QH JH TH 9H 8H 7H 6H 4H 3H 2H"),
        (LEVEL_5_JOKERS_ONLY, "BJ SJ"),
        (LEVEL_5_JOKERS_ONLY, "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"),
        (Trump(Rank.ACE, Suit.CLUBS), "BJ SJ AC AS=AH=AD KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"),
        (Trump(Rank.TWO, Suit.DIAMONDS), "BJ SJ 2D 2S=2H=2C AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D"),
    ],
)
def test_cards_rank_high_to_low_with_equal_level_cards(trump: Trump, order: str) -> None:
    groups = [[card(text) for text in group.split("=")] for group in order.split()]
    keys = [{trump.key(c) for c in group} for group in groups]
    assert all(len(group_keys) == 1 for group_keys in keys)
    flat = [group_keys.pop() for group_keys in keys]
    assert flat == sorted(flat, reverse=True)
    assert len(set(flat)) == len(flat)


def test_every_trump_outranks_every_plain_card() -> None:
    lowest_trump = LEVEL_5_HEARTS.key(card("2H"))
    assert all(LEVEL_5_HEARTS.key(card(f"A{suit}")) < lowest_trump for suit in "SDC")
    assert LEVEL_5_NO_TRUMP.key(card("5S")) > LEVEL_5_NO_TRUMP.key(card("AS"))


@pytest.mark.parametrize(
    ("trump", "low", "high", "consecutive"),
    [
        (LEVEL_5_HEARTS, "4S", "6S", True),  # the level rank is skipped
        (LEVEL_5_HEARTS, "4H", "6H", True),
        (LEVEL_5_HEARTS, "KH", "AH", True),
        (LEVEL_5_HEARTS, "AH", "5S", True),  # trump ace, then an off-suit level card
        (LEVEL_5_HEARTS, "5C", "5H", True),  # off-suit level card, then the trump-suit one
        (LEVEL_5_HEARTS, "5H", "SJ", True),
        (LEVEL_5_HEARTS, "SJ", "BJ", True),
        (LEVEL_5_HEARTS, "5S", "5D", False),  # equal cards are not consecutive
        (LEVEL_5_HEARTS, "5S", "SJ", False),  # the trump-suit level card lies between
        (LEVEL_5_HEARTS, "AS", "5S", False),  # a plain ace and a trump
        (LEVEL_5_HEARTS, "6S", "4S", False),  # order matters
        (LEVEL_5_HEARTS, "3S", "3D", False),
        (LEVEL_5_HEARTS, "QS", "KD", False),
        (LEVEL_5_NO_TRUMP, "5S", "SJ", True),  # no trump-suit level card between them
        (LEVEL_5_NO_TRUMP, "5S", "5H", False),
        (LEVEL_5_NO_TRUMP, "AH", "5H", False),  # plain aces are not trumps without a trump suit
        (LEVEL_5_NO_TRUMP, "SJ", "BJ", True),
        (LEVEL_5_JOKERS_ONLY, "4S", "5S", True),  # the level card in its natural place
        (LEVEL_5_JOKERS_ONLY, "5S", "6S", True),
        (LEVEL_5_JOKERS_ONLY, "4S", "6S", False),  # the five lies between
        (LEVEL_5_JOKERS_ONLY, "5S", "5H", False),
        (LEVEL_5_JOKERS_ONLY, "AS", "SJ", False),
        (LEVEL_5_JOKERS_ONLY, "SJ", "BJ", True),
        (Trump(Rank.ACE, Suit.CLUBS), "KC", "AS", True),  # at level A the trump king leads on
        (Trump(Rank.TWO, Suit.CLUBS), "3S", "4S", True),
    ],
)
def test_consecutive_steps_for_tractors(
    trump: Trump, low: str, high: str, consecutive: bool
) -> None:
    assert trump.consecutive(card(low), card(high)) is consecutive


def test_jokers_only_trumps_beat_every_plain_card_and_plain_aces_top_their_suits() -> None:
    trump = LEVEL_5_JOKERS_ONLY
    assert trump.key(card("SJ")) > max(trump.key(card(f"A{suit}")) for suit in "SHDC")
    assert trump.key(card("AS")) > trump.key(card("5S")) > trump.key(card("4S"))


@pytest.mark.parametrize("level", list(Rank))
@pytest.mark.parametrize("suit", list(Suit))
def test_with_a_trump_suit_the_level_cards_are_trumps_whatever_the_no_trump_setting(
    level: Rank, suit: Suit
) -> None:
    usual = Trump(level, suit)
    jokers_only = Trump(level, suit, no_trump_level_cards=False)
    for each in DISTINCT_CARDS:
        assert (jokers_only.suit_of(each), jokers_only.key(each)) == (
            usual.suit_of(each),
            usual.key(each),
        )


@pytest.mark.parametrize("level", list(Rank))
def test_with_jokers_only_each_suit_runs_2_to_a_through_its_level_card(level: Rank) -> None:
    trump = Trump(level, None, no_trump_level_cards=False)
    for suit in Suit:
        chain = [Card(rank=rank, suit=suit) for rank in Rank]
        assert {trump.suit_of(each) for each in chain} == {suit}
        assert all(trump.consecutive(low, high) for low, high in pairwise(chain))
    assert [trump.is_trump(each) for each in DISTINCT_CARDS].count(True) == 2


def test_trump_notation_and_repr() -> None:
    assert str(LEVEL_5_HEARTS) == "level 5, hearts trump"
    assert str(Trump(Rank.TEN, None, decks=3)) == "level T, no trump, 3 decks"
    assert str(LEVEL_5_JOKERS_ONLY) == "level 5, no trump, jokers only"
    assert repr(LEVEL_5_HEARTS) == "Trump(Rank.FIVE, Suit.HEARTS, decks=2)"
    assert repr(LEVEL_5_JOKERS_ONLY) == (
        "Trump(Rank.FIVE, None, decks=2, no_trump_level_cards=False)"
    )
    assert eval(repr(LEVEL_5_NO_TRUMP)) == LEVEL_5_NO_TRUMP
    assert eval(repr(LEVEL_5_JOKERS_ONLY)) == LEVEL_5_JOKERS_ONLY
    assert hash(Trump(Rank.FIVE, None)) == hash(LEVEL_5_NO_TRUMP)


def test_a_trump_needs_two_to_four_decks() -> None:
    with pytest.raises(CardError, match="decks must be 2, 3 or 4, got 5"):
        Trump(Rank.FIVE, Suit.HEARTS, decks=5)
