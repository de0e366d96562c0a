"""Which cards score and what they are worth, as the hand form's card counter asks."""

from __future__ import annotations

import pytest

from scoring.cards import DISTINCT_CARDS, POINTS_PER_DECK, Card, Rank, full_pack, point_cards
from scoring.errors import CardError


@pytest.mark.parametrize("card", DISTINCT_CARDS, ids=str)
def test_fives_count_5_tens_and_kings_10_and_no_other_card_scores(card: Card) -> None:
    worth = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}.get(card.rank, 0) if card.rank else 0
    assert card.points == worth


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_the_point_cards_of_a_table_are_every_scoring_card_of_its_decks(decks: int) -> None:
    pack = full_pack(decks)
    counted = point_cards(decks)
    assert [cards.rank for cards in counted] == [Rank.FIVE, Rank.TEN, Rank.KING]
    for cards in counted:
        held = [card for card in pack if card.rank is cards.rank]
        assert cards.copies == len(held) == 4 * decks
        assert {card.points for card in held} == {cards.worth}
    assert sum(cards.worth * cards.copies for cards in counted) == decks * POINTS_PER_DECK


@pytest.mark.parametrize("decks", [1, 5])
def test_point_cards_refuse_decks_no_table_plays_with(decks: int) -> None:
    with pytest.raises(CardError, match=f"decks must be 2, 3 or 4, got {decks}"):
        point_cards(decks)
