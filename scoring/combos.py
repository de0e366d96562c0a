"""Combinations: cards read as singles, pairs and tractors in a hand's trump context.

A combination is ``length`` consecutive steps of ``width`` identical cards, all following one
suit: a single is 1 × 1, a pair 2 × 1, a tractor 2 × n with n ≥ 2. Several combinations of one
suit played at once are a throw.

With 3 or 4 decks a card can be held three or four times, but a pair is still two identical
cards and the formats stay single, pair, tractor and throw: three identical cards are a pair and a
single, four are two pairs (a throw either way, not a tractor, whose pairs are consecutive, never
equal), and 7-7-7-8-8-8 is the tractor 7-7-8-8 with the singles 7 and 8.

>>> from scoring.cards import Rank, Suit, parse_cards
>>> from scoring.trump import Trump
>>> trump = Trump(Rank.FIVE, Suit.HEARTS)
>>> [str(combo) for combo in decompose(trump, parse_cards(["AS", "KS", "KS", "QS", "QS", "2S"]))]
['QS QS KS KS', 'AS', '2S']
>>> classify(trump, parse_cards(["AH", "AH", "5C", "5C"]))
<Format.TRACTOR: 'tractor'>
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from scoring.cards import Card
from scoring.errors import PlayError
from scoring.rules import Format
from scoring.trump import FollowSuit, Trump
from scoring.words import Sentence, gettext_noop

Shape = tuple[int, int]
"""A combination's ``(width, length)``: (1, 1) single, (2, 1) pair, (2, n) tractor of n pairs."""


@dataclass(frozen=True, slots=True)
class Combo:
    """One combination, its cards low to high, ``top`` the trump key of its highest card."""

    cards: tuple[Card, ...]
    width: int
    length: int
    top: int
    suit: FollowSuit

    @property
    def shape(self) -> Shape:
        return (self.width, self.length)

    @property
    def format(self) -> Format:
        if self.width == 1:
            return Format.SINGLE
        return Format.PAIR if self.length == 1 else Format.TRACTOR

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def decompose(trump: Trump, cards: Iterable[Card]) -> tuple[Combo, ...]:
    """Read cards of one suit as combinations: the longest tractors first, then pairs, then
    singles, in the order :func:`find_split` compares them (largest first, then highest).

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> trump = Trump(Rank.TWO, Suit.SPADES)
    >>> [combo.format.value for combo in decompose(trump, parse_cards(["7H", "7H", "7H"]))]
    ['pair', 'single']
    """
    cards = tuple(cards)
    suit = _one_suit(trump, cards)
    counts = Counter(cards)
    combos = []
    while (run := _longest_run(trump, counts)) is not None:
        combos.append(_tractor(trump, run, suit))
        counts.subtract(run * 2)
    for card in _ordered(trump, counts):
        while counts[card] >= 2:
            combos.append(Combo((card, card), 2, 1, trump.key(card), suit))
            counts[card] -= 2
    combos.extend(Combo((card,), 1, 1, trump.key(card), suit) for card in +counts)
    return tuple(sorted(combos, key=_place))


def classify(trump: Trump, cards: Iterable[Card]) -> Format:
    """The format of cards led together: a single, a pair, a tractor, or else a throw.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> trump = Trump(Rank.FIVE, Suit.HEARTS)
    >>> classify(trump, parse_cards(["4S", "4S", "6S", "6S"])).value
    'tractor'
    >>> classify(trump, parse_cards(["5S", "5S", "5D", "5D"])).value
    'throw'
    """
    combos = decompose(trump, cards)
    return combos[0].format if len(combos) == 1 else Format.THROW


def find_split(
    trump: Trump,
    cards: Sequence[Card],
    shapes: Sequence[Shape],
    above: Sequence[Card] | None = None,
) -> tuple[Combo, ...] | None:
    """A way to read ``cards`` as combinations of exactly ``shapes``, or None if there is none.

    ``shapes`` are ordered as :func:`decompose` orders combinations. A tractor may serve as
    shorter tractors or as pairs, a pair as two singles. With ``above`` (the cards of another
    play of one suit), the reading must beat every reading of ``above`` combination by
    combination: each of its combinations strictly higher than the one in the same place.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> trump = Trump(Rank.TWO, Suit.SPADES)
    >>> lead = decompose(trump, parse_cards(["AH", "KH", "KH"]))
    >>> shapes = [combo.shape for combo in lead]
    >>> [str(c) for c in find_split(trump, parse_cards(["3S", "3S", "4S"]), shapes)]
    ['3S 3S', '4S']
    >>> find_split(trump, parse_cards(["3S", "4S", "6S"]), shapes) is None
    True

    As a pair and two singles, 6S 6S 3S 3S is the pair 6S 6S with 3S 3S, or the pair 3S 3S with
    6S 6S: 7S 7S 5S 4S beats the first reading only, so it does not beat the play.

    >>> shapes = [(2, 1), (1, 1), (1, 1)]
    >>> play = parse_cards(["7S", "7S", "5S", "4S"])
    >>> find_split(trump, play, shapes, above=parse_cards(["6S", "6S", "3S", "3S"])) is None
    True
    >>> split = find_split(trump, play, shapes, above=parse_cards(["6S", "6S", "4S", "3S"]))
    >>> [str(c) for c in split]
    ['7S 7S', '5S', '4S']
    """
    suit = trump.common_suit(cards)
    if suit is None or sum(width * length for width, length in shapes) != len(cards):
        return None
    bar = None if above is None else _bar(trump, above, tuple(shapes))
    return next(_splits(trump, Counter(cards), suit, tuple(shapes), bar, []), None)


def highest(trump: Trump, cards: Iterable[Card], shape: Shape) -> Combo | None:
    """The highest combination of ``shape`` that ``cards`` of one suit hold, if any.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> trump = Trump(Rank.FIVE, Suit.HEARTS)
    >>> str(highest(trump, parse_cards(["4S", "4S", "6S", "6S", "9S", "9S"]), (2, 2)))
    '4S 4S 6S 6S'
    """
    cards = tuple(cards)
    if not cards:
        return None
    counts = Counter(cards)
    return next(_placements(trump, counts, _one_suit(trump, cards), shape), None)


def pairs(trump: Trump, cards: Iterable[Card]) -> tuple[Combo, ...]:
    """Every pair the cards hold, highest first; a card held four times makes two pairs.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> trump = Trump(Rank.TWO, Suit.SPADES, decks=4)
    >>> [str(pair) for pair in pairs(trump, parse_cards(["7H"] * 4 + ["9H", "9H", "9H"]))]
    ['9H 9H', '7H 7H', '7H 7H']
    """
    cards = tuple(cards)
    counts = Counter(cards)
    return tuple(
        Combo((card, card), 2, 1, trump.key(card), trump.suit_of(card))
        for card in _ordered(trump, counts, reverse=True)
        for _ in range(counts[card] // 2)
    )


def tractors_matched(trump: Trump, cards: Iterable[Card], lengths: Sequence[int]) -> int:
    """How many tractors of the given lengths the cards (of one suit) hold at once, disjoint.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> trump = Trump(Rank.TWO, Suit.SPADES)
    >>> tractors_matched(trump, parse_cards(["7H", "7H", "8H", "8H", "9H", "9H"]), [2, 2])
    1
    """
    steps: Counter[int] = Counter()
    for card, count in Counter(cards).items():
        steps[trump.key(card)] += count // 2
    return _pack(steps, sorted(lengths, reverse=True))


def _pack(steps: Counter[int], lengths: list[int]) -> int:
    if not lengths:
        return 0
    length, rest = lengths[0], lengths[1:]
    best = _pack(steps, rest)
    for top in [key for key, count in steps.items() if count]:
        window = range(top - length + 1, top + 1)
        if best == len(lengths):
            break
        if all(steps[key] for key in window):
            steps.subtract(window)
            best = max(best, 1 + _pack(steps, rest))
            steps.update(window)
    return best


def _bar(trump: Trump, cards: Sequence[Card], shapes: tuple[Shape, ...]) -> tuple[int, ...] | None:
    """In each place, the highest top that any reading of ``cards`` puts there: a reading beats
    every reading of ``cards`` exactly when it is strictly higher than this in every place.
    None when ``cards`` cannot be read as ``shapes`` at all: then there is nothing to beat."""
    suit = trump.common_suit(cards)
    readings = [] if suit is None else list(_splits(trump, Counter(cards), suit, shapes, None, []))
    if not readings:
        return None
    return tuple(max(split[place].top for split in readings) for place in range(len(shapes)))


def _splits(
    trump: Trump,
    counts: Counter[Card],
    suit: FollowSuit,
    shapes: tuple[Shape, ...],
    bar: Sequence[int] | None,
    chosen: list[Combo],
) -> Iterator[tuple[Combo, ...]]:
    """Every reading of ``counts`` as ``shapes`` that is strictly above ``bar`` in every place,
    strongest combinations first."""
    place = len(chosen)
    if place == len(shapes):
        yield tuple(chosen)
        return
    shape = shapes[place]
    if shape == (1, 1):
        # Only singles are left (shapes run largest first): the remaining cards, highest first,
        # are the one reading of them, and the strongest.
        singles = [
            Combo((card,), 1, 1, trump.key(card), suit)
            for card in sorted(+counts, key=trump.key, reverse=True)
            for _ in range(counts[card])
        ]
        if bar is None or all(
            mine.top > top for mine, top in zip(singles, bar[place:], strict=True)
        ):
            yield (*chosen, *singles)
        return
    # Equal shapes are taken highest first, which avoids trying the same split in every order.
    ceiling = chosen[-1].top if chosen and chosen[-1].shape == shape else None
    for combo in _placements(trump, counts, suit, shape):
        if ceiling is not None and combo.top > ceiling:
            continue
        if bar is not None and combo.top <= bar[place]:
            break
        used = Counter(combo.cards)
        counts.subtract(used)
        chosen.append(combo)
        yield from _splits(trump, counts, suit, shapes, bar, chosen)
        chosen.pop()
        counts.update(used)


def _placements(
    trump: Trump, counts: Counter[Card], suit: FollowSuit, shape: Shape
) -> Iterator[Combo]:
    """Every combination of ``shape`` in ``counts``, highest first."""
    width, length = shape
    if length == 1:
        for card in _ordered(trump, counts, reverse=True):
            if counts[card] >= width:
                yield Combo((card,) * width, width, 1, trump.key(card), suit)
        return
    steps = _pair_steps(trump, counts)
    for top in sorted(steps, reverse=True):
        window = range(top - length + 1, top + 1)
        if all(key in steps for key in window):
            for run in product(*(steps[key] for key in window)):
                yield _tractor(trump, run, suit)


def _longest_run(trump: Trump, counts: Counter[Card]) -> tuple[Card, ...] | None:
    """The longest run of two or more consecutive pairs (the highest of equal length)."""
    steps = _pair_steps(trump, counts)
    best: list[int] = []
    run: list[int] = []
    for key in sorted(steps):
        run = [*run, key] if run and run[-1] == key - 1 else [key]
        if len(run) >= max(2, len(best)):
            best = run
    return tuple(steps[key][0] for key in best) if best else None


def _pair_steps(trump: Trump, counts: Counter[Card]) -> dict[int, list[Card]]:
    """The cards held at least twice, by step; several only for equal off-suit level cards."""
    steps: dict[int, list[Card]] = {}
    for card in _ordered(trump, counts):
        if counts[card] >= 2:
            steps.setdefault(trump.key(card), []).append(card)
    return steps


def _tractor(trump: Trump, run: Sequence[Card], suit: FollowSuit) -> Combo:
    cards = tuple(card for card in run for _ in range(2))
    return Combo(cards, 2, len(run), trump.key(run[-1]), suit)


def _ordered(trump: Trump, counts: Counter[Card], *, reverse: bool = False) -> list[Card]:
    # Equal cards (off-suit level cards) sort by name so that every answer is reproducible.
    held = [card for card, count in counts.items() if count > 0]
    return sorted(held, key=lambda card: (trump.key(card), str(card)), reverse=reverse)


def _place(combo: Combo) -> tuple[int, int]:
    return (-combo.width * combo.length, -combo.top)


def _one_suit(trump: Trump, cards: Sequence[Card]) -> FollowSuit:
    suit = trump.common_suit(cards)
    if suit is None:
        raise PlayError(
            Sentence(
                # Translators: {cards} are card codes such as "AH 5S".
                gettext_noop("{cards} are not cards of one suit (trumps are one suit)."),
                cards=" ".join(str(card) for card in cards),
            )
        )
    return suit
