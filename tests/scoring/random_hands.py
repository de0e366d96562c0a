"""Random legal hands: a shuffled deal and every trick played by rule, for the Hypothesis
properties and the benchmark.

The players here follow the rules as a person reads them (count the cards of the led suit, the
pairs, the tractors) rather than through the judge's own helpers, so that the judge is checked
against an independent reading. The judge only names each trick's winner, who leads next, and
says whether a throw stands.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from scoring.cards import Card, full_pack
from scoring.rules import Rules, TractorFollow
from scoring.table import deal as table_deal
from scoring.tricks import Play, judge
from scoring.trump import Trump

TABLES = {2: 4, 3: 6, 4: 8}
"""The players dealt in at a table of 2, 3 or 4 decks; the deal is the rules' (`scoring.table`)."""


@dataclass(frozen=True)
class Hand:
    """A dealt hand and its tricks, as a recorder at the table would write them down."""

    hands: dict[str, tuple[Card, ...]]
    kitty: tuple[Card, ...]
    tricks: list[list[Play]]


def deal(rng: random.Random, decks: int = 2) -> tuple[dict[str, tuple[Card, ...]], tuple]:
    pack = list(full_pack(decks))
    rng.shuffle(pack)
    players = [f"P{seat}" for seat in range(1, TABLES[decks] + 1)]
    each, _ = table_deal(len(players), decks)
    hands = {
        player: tuple(pack[seat * each : (seat + 1) * each]) for seat, player in enumerate(players)
    }
    return hands, tuple(pack[len(players) * each :])


def play_hand(rng: random.Random, rules: Rules, trump: Trump) -> Hand:
    """Deal and play a whole hand: random legal leads and random legal follows."""
    dealt, kitty = deal(rng, trump.decks)
    hands = {player: list(cards) for player, cards in dealt.items()}
    seats = list(hands)
    leader = seats[0]
    tricks = []
    while hands[leader]:
        lead = random_lead(rng, rules, trump, hands[leader])
        if len(_units(lead)) > 1:
            check = judge(rules, trump, [Play(leader, lead)], hands).throw
            if check is not None and not check.ok and check.forced is not None:
                lead = check.forced.cards
        start = seats.index(leader)
        plays = [Play(leader, lead)]
        for player in seats[start + 1 :] + seats[:start]:
            plays.append(Play(player, random_follow(rng, rules, trump, lead, hands[player])))
        winner = judge(rules, trump, plays, hands).winner
        assert winner is not None
        for play in plays:
            for card in play.cards:
                hands[play.player].remove(card)
        tricks.append(plays)
        leader = winner
    return Hand(dealt, kitty, tricks)


def random_lead(
    rng: random.Random, rules: Rules, trump: Trump, hand: Sequence[Card]
) -> tuple[Card, ...]:
    """A single, a pair, a tractor, or (where the rules allow) a throw of one suit's top cards.

    The rarer a shape, the likelier it is led when the hand holds it."""
    runs = _runs(trump, hand)
    if runs and rng.random() < 0.6:
        return tuple(card for card in rng.choice(runs) for _ in range(2))
    if rules.throws and rng.random() < 0.4:
        suit = trump.suit_of(rng.choice(hand))
        units = _units([card for card in hand if trump.suit_of(card) is suit])
        units.sort(key=lambda unit: trump.key(unit[0]), reverse=True)
        if len(units) > 1:
            picked = units[: rng.randint(2, min(4, len(units)))]
            return tuple(card for unit in picked for card in unit)
    pairs = _pairs(hand)
    if pairs and rng.random() < 0.5:
        return (rng.choice(pairs),) * 2
    return (rng.choice(hand),)


def random_follow(
    rng: random.Random, rules: Rules, trump: Trump, lead: Sequence[Card], hand: Sequence[Card]
) -> tuple[Card, ...]:
    """Any play the following rules allow for this hand."""
    count = len(lead)
    suit = trump.suit_of(lead[0])
    held = [card for card in hand if trump.suit_of(card) is suit]
    if len(held) <= count:
        others = [card for card in hand if trump.suit_of(card) is not suit]
        return (*held, *rng.sample(others, count - len(held)))
    pool = Counter(held)
    chosen: list[Card] = []
    lead_pairs = sum(copies // 2 for copies in Counter(lead).values())
    is_tractor = lead_pairs > 1 and _is_run(trump, lead)
    if is_tractor and rules.tractor_follow is TractorFollow.TRACTOR:
        windows = [run[i : i + lead_pairs] for run in _runs(trump, held) for i in range(len(run))]
        windows = [window for window in windows if len(window) == lead_pairs]
        if windows:
            for card in rng.choice(windows):
                chosen += [card, card]
                pool[card] -= 2
    while sum(copies // 2 for copies in Counter(chosen).values()) < lead_pairs:
        pairs = [card for card, copies in pool.items() if copies >= 2]
        if not pairs:
            break
        card = rng.choice(pairs)
        chosen += [card, card]
        pool[card] -= 2
    rest = list(pool.elements())
    return (*chosen, *rng.sample(rest, count - len(chosen)))


def _pairs(cards: Sequence[Card]) -> list[Card]:
    return [card for card, copies in Counter(cards).items() if copies >= 2]


def _runs(trump: Trump, cards: Sequence[Card]) -> list[list[Card]]:
    """Every run of two or more consecutive pairs in the cards (a tractor's pairs, once each)."""
    pairs = _pairs(cards)
    runs: list[list[Card]] = []
    frontier = [[card] for card in pairs]
    while frontier:
        longer = [
            [*run, card] for run in frontier for card in pairs if trump.consecutive(run[-1], card)
        ]
        runs += longer
        frontier = longer
    return runs


def _is_run(trump: Trump, cards: Sequence[Card]) -> bool:
    steps = sorted(set(cards), key=trump.key)
    return all(Counter(cards)[card] == 2 for card in steps) and all(
        trump.consecutive(low, high) for low, high in pairwise(steps)
    )


def _units(cards: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The cards as pairs and singles, each card in one unit: the bricks of a throw."""
    counts = Counter(cards)
    units: list[tuple[Card, ...]] = []
    for card, copies in counts.items():
        units += [(card, card)] * (copies // 2) + [(card,)] * (copies % 2)
    return units
