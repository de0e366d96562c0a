"""Cards, ranks and suits, with the notation of docs/engine-json.md.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("♠5"))
Traceback (most recent call last):
...
scoring.errors.CardError: unknown card '♠5'
>>> Card.parse("KD").points
10
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import CardError, gettext_noop

POINTS_PER_DECK = 100
CARDS_PER_DECK = 54


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit: ``S H D C`` (any case) or ``♠ ♥ ♦ ♣``."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.value, _SYMBOLS[suit]):
                return suit
        raise CardError(f"unknown suit {text!r}")

    def __str__(self) -> str:
        return self.value


_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}


class Rank(enum.IntEnum):
    """The thirteen ranks, valued 2 to 14 so that natural order is play order."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return "23456789TJQKA"[self - 2]

    @property
    def spoken(self) -> str:
        """The rank as players say and write it, a level or a card's: ``10`` rather than ``T``."""
        return "10" if self is Rank.TEN else self.symbol

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank: ``2``–``9``, ``T`` or ``10``, ``J Q K A`` (any case)."""
        key = text.strip().upper()
        if key == "10":
            key = "T"
        if len(key) == 1 and key in "23456789TJQKA":
            return cls("23456789TJQKA".index(key) + 2)
        raise CardError(f"unknown rank {text!r}")

    def __str__(self) -> str:
        return self.symbol


class Joker(enum.Enum):
    SMALL = "SJ"
    BIG = "BJ"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and a suit, or a joker (then ``rank`` and ``suit`` are None)."""

    rank: Rank | None = None
    suit: Suit | None = None
    joker: Joker | None = None

    def __post_init__(self) -> None:
        if (self.joker is None) == (self.rank is None or self.suit is None):
            raise CardError("a card is either a rank and a suit, or a joker")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``TH``, ``10h``, ``5♠``, ``BJ``, ``sj``."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string like 'TH', got {text!r}")
        key = text.strip().upper()
        for joker in Joker:
            if key == joker.value:
                return cls(joker=joker)
        if len(key) >= 2:
            try:
                return cls(rank=Rank.parse(key[:-1]), suit=Suit.parse(key[-1]))
            except CardError:
                pass
        raise CardError(
            f"unknown card {text!r}",
            said=gettext_noop("{card} is not a card: write cards like 5H KD TS BJ."),
            values={"card": text.strip()},
        )

    @property
    def is_joker(self) -> bool:
        return self.joker is not None

    @property
    def points(self) -> int:
        """What the card is worth (:data:`POINT_RANKS`): 5 for a five, 10 for a ten or a king,
        0 for any other card."""
        return POINT_RANKS.get(self.rank, 0) if self.rank is not None else 0

    def __str__(self) -> str:
        if self.joker is not None:
            return self.joker.value
        return f"{self.rank}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


POINT_RANKS: dict[Rank, int] = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}
"""The ranks whose cards score, and what each card of them is worth: no other card scores."""


@dataclass(frozen=True, slots=True)
class PointCards:
    """The cards of one scoring rank in a game's decks: what each is worth and how many there
    are (every suit's, once a deck)."""

    rank: Rank
    worth: int
    copies: int


def point_cards(decks: int = 2) -> tuple[PointCards, ...]:
    """The scoring cards of ``decks`` decks, rank by rank, lowest first.

    >>> [(str(cards.rank), cards.worth, cards.copies) for cards in point_cards(2)]
    [('5', 5, 8), ('T', 10, 8), ('K', 10, 8)]
    >>> sum(cards.worth * cards.copies for cards in point_cards(3)) == 3 * POINTS_PER_DECK
    True
    """
    copies = len(Suit) * check_decks(decks)
    return tuple(PointCards(rank, worth, copies) for rank, worth in sorted(POINT_RANKS.items()))


BIG_JOKER = Card(joker=Joker.BIG)
SMALL_JOKER = Card(joker=Joker.SMALL)

#: Every distinct card once: 52 suited cards and the two jokers.
DISTINCT_CARDS: tuple[Card, ...] = (
    *(Card(rank=rank, suit=suit) for suit in Suit for rank in Rank),
    SMALL_JOKER,
    BIG_JOKER,
)


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Read a list of card strings."""
    return tuple(Card.parse(text) for text in texts)


def points(cards: Iterable[Card]) -> int:
    """The card points in some cards.

    >>> points(parse_cards(["5H", "TS", "KD", "BJ"]))
    25
    """
    return sum(card.points for card in cards)


def check_decks(decks: int) -> int:
    """A table plays with 2 to 4 decks (4, 6 or 8 players)."""
    if isinstance(decks, bool) or not isinstance(decks, int) or not 2 <= decks <= 4:
        raise CardError(f"decks must be 2, 3 or 4, got {decks!r}")
    return decks


def check_copies(cards: Iterable[Card], decks: int = 2) -> None:
    """Raise if a card is named more often than ``decks`` decks hold it."""
    for card, count in Counter(cards).items():
        if count > decks:
            raise CardError(
                f"{card} appears {count} times, but {decks} decks hold only {decks}",
                said=gettext_noop("{card} is there {count} times, but {decks} decks hold {decks}."),
                values={"card": str(card), "count": count, "decks": decks},
            )


def full_pack(decks: int = 2) -> tuple[Card, ...]:
    """Every card of ``decks`` decks: 108 cards for two."""
    return tuple(card for card in DISTINCT_CARDS for _ in range(check_decks(decks)))
