"""A hand's trump context: which cards are trumps, what suit each card follows as, their order.

Trumps, high to low: big joker, small joker, the level card of the trump suit, the level cards of
the other suits (equal to each other), then the trump suit from A down to 2. Every other suit
runs from A down to 2. The level rank is skipped everywhere, so at level 5 the four comes just
below the six. Without a trump suit only jokers and level cards are trumps, and all four level
cards are equal; where the rules keep a no-trump hand's level cards in their suits
(``no_trump_level_cards=False``, as open-ladder does), only the jokers are trumps and every suit
runs from A down to 2 with nothing skipped.

>>> from scoring.cards import Card
>>> trump = Trump(Rank.FIVE, Suit.HEARTS)
>>> trump.suit_of(Card.parse("5S")), trump.suit_of(Card.parse("9S"))
(<Trumps.TRUMP: 'trump'>, <Suit.SPADES: 'S'>)
>>> trump.key(Card.parse("5S")) == trump.key(Card.parse("5C"))
True
>>> trump.consecutive(Card.parse("4S"), Card.parse("6S"))
True
>>> jokers_only = Trump(Rank.FIVE, None, no_trump_level_cards=False)
>>> jokers_only.suit_of(Card.parse("5S"))
<Suit.SPADES: 'S'>
>>> jokers_only.consecutive(Card.parse("4S"), Card.parse("5S"))
True
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.cards import DISTINCT_CARDS, Card, Joker, Rank, Suit, check_decks
from scoring.words import Sentence, ngettext


class Trumps(enum.Enum):
    """The one suit that every trump follows as: jokers, level cards and the trump suit."""

    TRUMP = "trump"

    def __str__(self) -> str:
        return self.value


TRUMP = Trumps.TRUMP

FollowSuit = Suit | Trumps
"""What a card follows as: its own suit, or :data:`TRUMP`."""

TRUMP_BASE = 16
"""Added to a trump's step so that every trump outranks every plain card."""


def suit_name(suit: FollowSuit, count: int = 2) -> Sentence:
    """The suit as a player names ``count`` cards of it: ``hearts``, ``trumps``, ``heart``;
    its own words in every language (:meth:`~scoring.words.Sentence.in_words`).

    >>> suit_name(Suit.HEARTS), suit_name(TRUMP, 1)
    ('hearts', 'trump')
    """
    if suit is Suit.SPADES:
        # Translators: a suit's name for as many of its cards as the sentence counts, as in
        # "P2 had 1 spade left" and "P2 held the pair 7S 7S in spades".
        return Sentence(ngettext("spade", "spades", count))
    if suit is Suit.HEARTS:
        # Translators: a suit's name for as many of its cards as the sentence counts.
        return Sentence(ngettext("heart", "hearts", count))
    if suit is Suit.DIAMONDS:
        # Translators: a suit's name for as many of its cards as the sentence counts.
        return Sentence(ngettext("diamond", "diamonds", count))
    if suit is Suit.CLUBS:
        # Translators: a suit's name for as many of its cards as the sentence counts.
        return Sentence(ngettext("club", "clubs", count))
    return Sentence(ngettext("trump", "trumps", count))


@dataclass(frozen=True, slots=True)
class Trump:
    """The trump context of one hand: its level rank, its trump suit (None: no trump), its decks.

    Each card gets a *step*: its place in the chain of the suit it follows as, 0 for the lowest.
    A plain suit's steps run 0 (its 2, or 3 at level 2) to 11 (its A, or K at level A). Trumps
    continue the trump suit's chain: 12 for the off-suit level cards (one step, they are equal),
    13 the trump-suit level card, 14 the small joker, 15 the big joker. Without a trump suit there
    is no trump-suit level card, so the small joker's step (13) follows the level cards' directly:
    a pair of level cards and a pair of small jokers are then consecutive, a tractor.

    ``no_trump_level_cards`` False keeps the level cards in their suits when there is no trump
    suit: only the jokers (13 and 14) are trumps, and each suit runs 0 (its 2) to 12 (its A)
    through its level card. With a trump suit it changes nothing.
    """

    level: Rank
    suit: Suit | None
    decks: int = 2
    no_trump_level_cards: bool = True
    _keys: dict[Card, int] = field(init=False, repr=False, compare=False)
    _suits: dict[Card, FollowSuit] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.level, Rank):
            raise TypeError(f"level must be a Rank, got {self.level!r}")
        if self.suit is not None and not isinstance(self.suit, Suit):
            raise TypeError(f"suit must be a Suit or None, got {self.suit!r}")
        check_decks(self.decks)
        if not isinstance(self.no_trump_level_cards, bool):
            raise TypeError(
                f"no_trump_level_cards must be True or False, got {self.no_trump_level_cards!r}"
            )
        # 54 distinct cards: reading both tables is cheaper than recomputing on every comparison.
        suits = {card: self._follow_suit(card) for card in DISTINCT_CARDS}
        keys = {card: self._step(card) + TRUMP_BASE * (suits[card] is TRUMP) for card in suits}
        object.__setattr__(self, "_suits", suits)
        object.__setattr__(self, "_keys", keys)

    @property
    def level_cards_trump(self) -> bool:
        """Whether the level cards are trumps: always with a trump suit, else as the rules say."""
        return self.suit is not None or self.no_trump_level_cards

    def is_trump(self, card: Card) -> bool:
        """Jokers, level cards (where they are trumps) and the trump suit's cards.

        >>> Trump(Rank.TWO, None).is_trump(Card.parse("AS"))
        False
        """
        return self._suits[card] is TRUMP

    def suit_of(self, card: Card) -> FollowSuit:
        """The suit a card follows as: :data:`TRUMP` for every trump, else its own suit."""
        return self._suits[card]

    def common_suit(self, cards: Iterable[Card]) -> FollowSuit | None:
        """The suit all ``cards`` follow as, or None if they mix suits (or there are none).

        >>> trump = Trump(Rank.FIVE, Suit.HEARTS)
        >>> trump.common_suit([Card.parse("5S"), Card.parse("BJ")])
        <Trumps.TRUMP: 'trump'>
        >>> trump.common_suit([Card.parse("5S"), Card.parse("9S")]) is None
        True
        """
        suits = {self._suits[card] for card in cards}
        return suits.pop() if len(suits) == 1 else None

    def key(self, card: Card) -> int:
        """The card's strength: higher wins. Equal keys are equal cards (the first played wins).

        Trumps outrank every plain card; two plain cards compare only within one suit.

        >>> from scoring.cards import parse_cards
        >>> trump = Trump(Rank.FIVE, Suit.HEARTS)
        >>> cards = parse_cards(["BJ", "SJ", "5H", "5S", "AH", "4H", "AS"])
        >>> [trump.key(card) for card in cards]
        [31, 30, 29, 28, 27, 18, 11]
        """
        return self._keys[card]

    def consecutive(self, low: Card, high: Card) -> bool:
        """Whether ``high`` is the very next step above ``low`` in the same suit (for tractors).

        >>> trump = Trump(Rank.FIVE, Suit.HEARTS)
        >>> trump.consecutive(Card.parse("AH"), Card.parse("5C"))
        True
        >>> trump.consecutive(Card.parse("5S"), Card.parse("5D"))
        False
        """
        suits, keys = self._suits, self._keys
        return suits[low] is suits[high] and keys[high] - keys[low] == 1

    def _follow_suit(self, card: Card) -> FollowSuit:
        level_card = card.rank is self.level and self.level_cards_trump
        if card.joker is not None or level_card or card.suit is self.suit:
            return TRUMP
        assert card.suit is not None
        return card.suit

    def _step(self, card: Card) -> int:
        level_step = 12
        no_trump = self.suit is None
        if card.joker is Joker.BIG:
            return level_step + 3 - no_trump
        if card.joker is Joker.SMALL:
            return level_step + 2 - no_trump
        assert card.rank is not None
        if not self.level_cards_trump:
            # The level card keeps its natural place: nothing is skipped.
            return card.rank - Rank.TWO
        if card.rank is self.level:
            return level_step + (card.suit is self.suit)
        return card.rank - Rank.TWO - (card.rank > self.level)

    def __str__(self) -> str:
        trump = f"{suit_name(self.suit)} trump" if self.suit is not None else "no trump"
        if not self.level_cards_trump:
            trump += ", jokers only"
        decks = f", {self.decks} decks" if self.decks != 2 else ""
        return f"level {self.level}, {trump}{decks}"

    def __repr__(self) -> str:
        suit = f"Suit.{self.suit.name}" if self.suit is not None else "None"
        level_cards = "" if self.no_trump_level_cards else ", no_trump_level_cards=False"
        return f"Trump(Rank.{self.level.name}, {suit}, decks={self.decks}{level_cards})"
