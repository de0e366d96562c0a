"""Laws of the judge over random hands: every play dealt by rule is legal, each trick has one
winner, both sides' points and the kitty make 100 per deck, holding back a card of the led suit is
always caught, and a failed throw forces a part of itself."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from random_hands import Hand, deal, play_hand, random_follow, random_lead

from scoring.cards import Card, Rank, Suit
from scoring.replay import replay_hand
from scoring.rules import PRESETS, get_rules
from scoring.tricks import Play, judge
from scoring.trump import Trump

FAST = settings(max_examples=60, deadline=None)

trumps = st.builds(
    Trump,
    level=st.sampled_from(list(Rank)),
    suit=st.sampled_from([None, *Suit]),
    decks=st.sampled_from([2, 3, 4]),
)
presets = st.sampled_from(sorted(PRESETS))
seeds = st.integers(min_value=0, max_value=2**32 - 1)


@FAST
@given(preset=presets, trump=trumps, seed=seeds)
def test_a_hand_played_by_rule_replays_without_a_fault(
    preset: str, trump: Trump, seed: int
) -> None:
    rules = get_rules(preset)
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


def _left(played: Hand) -> list[list[Card]]:
    left = {player: list(cards) for player, cards in played.hands.items()}
    for trick in played.tricks:
        for play in trick:
            for card in play.cards:
                left[play.player].remove(card)
    return list(left.values())
