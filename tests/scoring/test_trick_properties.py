"""Laws of the judge over random hands: every play dealt by rule is legal, each trick has one
winner, both sides' points and the kitty make 100 per deck, holding back a card of the led suit is
always caught, and a failed throw forces a part of itself. Over random tricks of plays that can be
read several ways: a play takes the trick exactly when one reading of it beats every reading of
the play winning so far, whatever plays that one beat before."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import groupby, pairwise, permutations
from operator import itemgetter

from hypothesis import given
from hypothesis import strategies as st
from random_hands import TABLES, Hand, deal, play_hand, random_follow, random_lead
from sweep import examples

from scoring.cards import Card, Rank, Suit, full_pack
from scoring.combos import Shape, decompose
from scoring.replay import replay_hand
from scoring.rules import PRESETS, Rules, get_rules
from scoring.tricks import Play, judge
from scoring.trump import TRUMP, FollowSuit, Trump

FAST = examples(30, 1000)  # whole hands

trumps = st.builds(
    Trump,
    level=st.sampled_from(list(Rank)),
    suit=st.sampled_from([None, *Suit]),
    decks=st.sampled_from([2, 3, 4]),
)
presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def under(rules: Rules, trump: Trump) -> Trump:
    """The trump context as players under ``rules`` read it (the judge reads it so too)."""
    return replace(trump, no_trump_level_cards=rules.no_trump_level_cards)


@FAST
@given(preset=presets, trump=trumps, seed=seeds)
def test_a_hand_played_by_rule_replays_without_a_fault(
    preset: str, trump: Trump, seed: int
) -> None:
    rules = get_rules(preset)
    trump = under(rules, trump)
    played = play_hand(random.Random(seed), rules, trump)
    hand = replay_hand(rules, trump, played.tricks, played.hands, played.kitty)

    assert hand.faults == ()
    assert all(verdict.legal for trick in hand.tricks for verdict in trick.plays)
    for judgement, winner in zip(hand.tricks, hand.winners, strict=True):
        assert judgement.winner == winner
        assert [verdict.player for verdict in judgement.plays].count(winner) == 1
    assert hand.declarer_points + hand.opponent_points + hand.kitty_points == 100 * trump.decks
    assert all(not cards for cards in _left(played))


@FAST
@given(preset=presets, trump=trumps, seed=seeds)
def test_holding_back_a_card_of_the_led_suit_is_always_illegal(
    preset: str, trump: Trump, seed: int
) -> None:
    rng, rules = random.Random(seed), get_rules(preset)
    trump = under(rules, trump)
    hands, _ = deal(rng, trump.decks)
    leader, follower = list(hands)[:2]
    lead = random_lead(rng, rules, trump, hands[leader])
    if rules.throws and judge(rules, trump, [Play(leader, lead)]).lead.format.value == "throw":
        return  # a throw may fail against the follower's hand; that law is below
    suit = trump.suit_of(lead[0])
    hand = hands[follower]
    follow = random_follow(rng, rules, trump, lead, hand)
    held = [card for card in hand if trump.suit_of(card) is suit]
    others = [card for card in hand if trump.suit_of(card) is not suit and card not in follow]
    in_suit = [card for card in follow if trump.suit_of(card) is suit]
    if len(held) < len(lead) or not in_suit or not others:
        return
    withheld = list(follow)
    withheld.remove(rng.choice(in_suit))
    withheld.append(rng.choice(others))
    plays = [Play(leader, lead), Play(follower, tuple(withheld))]
    verdict = judge(rules, trump, plays, {follower: hand}).plays[1]
    assert verdict.legal is False
    assert verdict.reason is not None and verdict.reason.startswith(f"{follower} had ")


@FAST
@given(trump=trumps, seed=seeds)
def test_a_failed_throw_forces_one_of_its_own_combinations(trump: Trump, seed: int) -> None:
    rng, rules = random.Random(seed), get_rules("open-ladder")
    trump = under(rules, trump)
    hands, _ = deal(rng, trump.decks)
    leader = next(iter(hands))
    lead = random_lead(rng, rules, trump, hands[leader])
    judgement = judge(rules, trump, [Play(leader, lead)], hands)
    throw = judgement.throw
    if throw is None or throw.ok:
        return
    assert throw.forced in judgement.lead.combos
    assert throw.penalty == 10 * (len(lead) - len(throw.forced.cards))
    assert throw.beater is not None and throw.beater.top > throw.forced.top
    assert throw.beater.shape == throw.forced.shape
    beaten_by_hand = hands[throw.beaten_by]
    assert all(
        beaten_by_hand.count(card) >= throw.beater.cards.count(card) for card in throw.beater.cards
    )
    assert judgement.winner is None
    assert judgement.plays[0].legal is False


@FAST
@given(trump=trumps, seed=seeds)
def test_knowing_more_of_the_others_cards_never_rescues_a_throw(trump: Trump, seed: int) -> None:
    """A throw that the plays alone beat is beaten with any hands given too, and the more hands
    are given, the smaller (never larger) the combination it forces."""
    rng, rules = random.Random(seed), get_rules("open-ladder")
    trump = under(rules, trump)
    hands, _ = deal(rng, trump.decks)
    leader, *followers = hands
    lead = random_lead(rng, rules, trump, hands[leader])
    plays = [Play(leader, lead)]
    plays += [Play(name, random_follow(rng, rules, trump, lead, hands[name])) for name in followers]
    some = {name: hands[name] for name in rng.sample(followers, rng.randint(1, len(followers)))}
    checks = [judge(rules, trump, plays, given).throw for given in ({}, some, hands)]
    if checks[0] is None:
        return
    assert all(check is not None for check in checks)
    forced = [
        (len(check.forced.cards), check.forced.top) if check.forced else (len(lead) + 1, 0)
        for check in checks
        if check is not None
    ]
    assert forced == sorted(forced, reverse=True)


throwing = st.builds(replace, st.just(get_rules("open-ladder")), no_trump_level_cards=st.booleans())
"""Rules where a lead may hold several combinations, so that a play may be read several ways."""


@examples(100, 5000)
@given(rules=throwing, trump=trumps, seed=seeds)
def test_a_play_takes_the_trick_or_not_by_itself_and_the_play_winning_so_far(
    rules: Rules, trump: Trump, seed: int
) -> None:
    """The plays that the winner so far beat never change whether the next play beats it."""
    trump = under(rules, trump)
    plays = _shaped_trick(random.Random(seed), trump)
    lead = plays[0]
    for count in range(2, len(plays) + 1):
        before = judge(rules, trump, plays[: count - 1]).winner_as_played
        after = judge(rules, trump, plays[:count]).winner_as_played
        winning = [play for play in plays[1 : count - 1] if play.player == before]
        alone = judge(rules, trump, [lead, *winning, plays[count - 1]]).winner_as_played
        assert alone == after


@examples(100, 5000)
@given(rules=throwing, trump=trumps, seed=seeds)
def test_a_play_takes_the_trick_when_one_reading_of_it_beats_every_reading_of_the_winner(
    rules: Rules, trump: Trump, seed: int
) -> None:
    """Checked against every reading of the plays, found by trying every order of their cards."""
    trump = under(rules, trump)
    plays = _shaped_trick(random.Random(seed), trump)
    shapes = [combo.shape for combo in decompose(trump, plays[0].cards)]
    winning = plays[0]
    for count in range(2, len(plays) + 1):
        play = plays[count - 1]
        if _takes(trump, shapes, winning.cards, play.cards):
            winning = play
        assert judge(rules, trump, plays[:count]).winner_as_played == winning.player


def _takes(
    trump: Trump, shapes: list[Shape], winning: tuple[Card, ...], cards: tuple[Card, ...]
) -> bool:
    mine = _readings(trump, cards, shapes)
    if trump.common_suit(cards) is not trump.common_suit(winning):
        return trump.common_suit(cards) is TRUMP and bool(mine)
    theirs = _readings(trump, winning, shapes)
    return any(all(_above(one, other) for other in theirs) for one in mine)


def _above(one: tuple[int, ...], other: tuple[int, ...]) -> bool:
    return all(top > their_top for top, their_top in zip(one, other, strict=True))


def _readings(trump: Trump, cards: tuple[Card, ...], shapes: list[Shape]) -> set[tuple[int, ...]]:
    """Every way to read ``cards`` as combinations of ``shapes``, as the top of each in place
    (equal shapes highest first), tried on every order of the cards."""
    if trump.common_suit(cards) is None:
        return set()
    readings = set()
    for order in set(permutations(cards)):
        places: list[tuple[Shape, int]] = []
        rest = list(order)
        for width, length in shapes:
            chunk, rest = rest[: width * length], rest[width * length :]
            steps = sorted(set(chunk), key=trump.key)
            if width == 2 and (
                len(steps) != length
                or any(chunk.count(card) != 2 for card in steps)
                or not all(trump.consecutive(low, high) for low, high in pairwise(steps))
            ):
                break
            places.append(((width, length), trump.key(steps[-1])))
        else:
            readings.add(
                tuple(
                    top
                    for _, same_shape in groupby(places, key=itemgetter(0))
                    for _, top in sorted(same_shape, key=itemgetter(1), reverse=True)
                )
            )
    return readings


def _shaped_trick(rng: random.Random, trump: Trump) -> list[Play]:
    """A lead of one suit, pairs and singles, then plays of its number of cards in its suit or
    in trumps, mostly pairs: all of a few neighbouring cards, so that tractors, throws and plays
    read several ways are common."""
    pool = Counter(full_pack(trump.decks))
    players = [f"P{seat}" for seat in range(1, TABLES[trump.decks] + 1)]
    led = trump.suit_of(rng.choice(list(pool)))
    lead = _neighbours(rng, trump, pool, led, rng.randint(2, 6), pairs=0.25)
    plays = [Play(players[0], lead)]
    for player in players[1:]:
        cards = _neighbours(rng, trump, pool, rng.choice([led, TRUMP]), len(lead), pairs=0.85)
        if len(cards) == len(lead):
            plays.append(Play(player, cards))
    return plays


def _neighbours(
    rng: random.Random,
    trump: Trump,
    pool: Counter[Card],
    suit: FollowSuit,
    count: int,
    pairs: float,
) -> tuple[Card, ...]:
    """Up to ``count`` cards of ``suit`` taken from ``pool``, a pair with chance ``pairs`` where
    one fits, from a window of a few neighbouring cards; fewer when the window runs out."""
    ladder = sorted({card for card in +pool if trump.suit_of(card) is suit}, key=trump.key)
    start = rng.randrange(len(ladder)) if ladder else 0
    window = ladder[start : start + rng.randint(3, 6)]
    cards: list[Card] = []
    while window and len(cards) < count:
        card = rng.choice(window)
        copies = 2 if count - len(cards) >= 2 and rng.random() < pairs else 1
        if pool[card] < copies:
            window.remove(card)
            continue
        cards += [card] * copies
        pool[card] -= copies
    return tuple(cards)


def _left(played: Hand) -> list[list[Card]]:
    left = {player: list(cards) for player, cards in played.hands.items()}
    for trick in played.tricks:
        for play in trick:
            for card in play.cards:
                left[play.player].remove(card)
    return list(left.values())
