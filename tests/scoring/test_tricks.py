"""Judging tricks: who wins (trumps, shapes, equal cards, throws), which plays break the following
rules and why, failed throws, tricks in progress, and 3 and 4 decks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.cards import Rank, Suit, parse_cards
from scoring.errors import PlayError
from scoring.rules import PRESETS, Rules, TractorFollow
from scoring.tricks import Judgement, Play, judge
from scoring.trump import Trump


def judge_trick(
    *plays: tuple[str, str],
    level: str = "5",
    trump: str | None = "H",
    rules: str | Rules = "standard",
    hands: dict[str, str] | None = None,
    decks: int = 2,
) -> Judgement:
    context = Trump(Rank.parse(level), Suit.parse(trump) if trump else None, decks)
    return judge(
        PRESETS[rules] if isinstance(rules, str) else rules,
        context,
        [Play(player, parse_cards(cards.split())) for player, cards in plays],
        {player: parse_cards(cards.split()) for player, cards in (hands or {}).items()},
    )


def winner(*plays: tuple[str, str], **context: object) -> str | None:
    return judge_trick(*plays, **context).winner  # type: ignore[arg-type]


def reasons(judgement: Judgement) -> dict[str, str]:
    return {play.player: play.reason for play in judgement.plays if play.reason}


# Level 5, hearts trump unless a case says otherwise.
WINNERS = [
    pytest.param(
        [("P1", "9S"), ("P2", "KS"), ("P3", "QS"), ("P4", "2S")], "P2", id="highest-single"
    ),
    pytest.param([("P1", "AS"), ("P2", "AS"), ("P3", "QS")], "P1", id="equal-first-played"),
    pytest.param([("P1", "9S"), ("P2", "AD"), ("P3", "2H")], "P3", id="trump-beats-plain"),
    pytest.param([("P1", "9S"), ("P2", "2H"), ("P3", "AH")], "P3", id="higher-trump"),
    pytest.param([("P1", "9S"), ("P2", "AH"), ("P3", "5C")], "P3", id="level-card-beats-ace"),
    pytest.param([("P1", "9S"), ("P2", "5C"), ("P3", "5H")], "P3", id="trump-level-card"),
    pytest.param([("P1", "9S"), ("P2", "5H"), ("P3", "SJ"), ("P4", "BJ")], "P4", id="jokers"),
    pytest.param([("P1", "2H"), ("P2", "AS")], "P1", id="plain-ace-cannot-beat-trump"),
    pytest.param([("P1", "9S 9S"), ("P2", "KS KS"), ("P3", "AS QS")], "P2", id="higher-pair"),
    pytest.param([("P1", "9S 9S"), ("P2", "AD AD")], "P1", id="other-plain-pair-cannot-win"),
    pytest.param([("P1", "9S 9S"), ("P2", "AH KH")], "P1", id="two-trumps-are-no-pair"),
    pytest.param([("P1", "9S 9S"), ("P2", "3H 3H"), ("P3", "2H 2H")], "P2", id="trump-pairs"),
    pytest.param(
        [("P1", "9S 9S TS TS"), ("P2", "3H 3H 4H 4H"), ("P3", "KS KS AS AS")],
        "P2",
        id="trump-tractor",
    ),
    pytest.param(
        [("P1", "9S 9S TS TS"), ("P2", "3H 3H 6H 6H")], "P1", id="unconnected-trump-pairs"
    ),
    pytest.param(
        [("P1", "9S 9S TS TS"), ("P2", "4H 4H 6H 6H"), ("P3", "AH AH 5D 5D")],
        "P3",
        id="tractors-across-the-level-gap-and-through-the-chain",
    ),
    pytest.param(
        [("P1", "QH QH KH KH"), ("P2", "5S 5S 5H 5H"), ("P3", "SJ SJ BJ BJ")],
        "P3",
        id="trump-tractors",
    ),
    pytest.param(
        [("P1", "3S 3S 4S 4S"), ("P2", "5S 5S 5D 5D")], "P1", id="equal-level-pairs-no-tractor"
    ),
]


@pytest.mark.parametrize(("plays", "expected"), WINNERS)
def test_the_highest_play_of_the_leads_shape_wins(
    plays: list[tuple[str, str]], expected: str
) -> None:
    assert winner(*plays) == expected


def test_trump_pair_beats_plain_pair() -> None:
    assert winner(("P1", "AS AS"), ("P2", "2H 2H")) == "P2"


def test_level_cards_of_other_suits_are_equal_first_played_wins() -> None:
    assert winner(("P1", "9S"), ("P2", "5D"), ("P3", "5C"), ("P4", "5S")) == "P2"
    assert winner(("P1", "9S 9S"), ("P2", "5D 5D"), ("P3", "5C 5C")) == "P2"


@pytest.mark.parametrize(
    ("plays", "expected"),
    [
        ([("P1", "9H"), ("P2", "AH"), ("P3", "5S")], "P3"),
        ([("P1", "AH"), ("P2", "5S"), ("P3", "5H"), ("P4", "SJ")], "P4"),
        ([("P1", "AH"), ("P2", "KH"), ("P3", "AS")], "P1"),
        ([("P1", "5S"), ("P2", "5H")], "P1"),  # level cards are equal without a trump suit
        ([("P1", "9H 9H TH TH"), ("P2", "5S 5S SJ SJ")], "P2"),
        ([("P1", "9H 9H TH TH"), ("P2", "5S 5S 5D 5D")], "P1"),
        ([("P1", "2C 2C"), ("P2", "BJ BJ"), ("P3", "AC AC")], "P2"),
    ],
)
def test_without_a_trump_suit_only_jokers_and_level_cards_are_trumps(
    plays: list[tuple[str, str]], expected: str
) -> None:
    assert winner(*plays, trump=None) == expected


# Level 5 without a trump suit: the winner under open-ladder, then under the other presets.
NO_TRUMP_LEVEL_CARDS = [
    pytest.param([("P1", "9S"), ("P2", "5S"), ("P3", "TS")], "P3", "P2", id="five-is-a-spade"),
    pytest.param([("P1", "5S"), ("P2", "AS")], "P2", "P1", id="ace-above-the-five"),
    pytest.param([("P1", "AH"), ("P2", "5S")], "P1", "P2", id="five-of-spades-follows-no-heart"),
    pytest.param([("P1", "5S 5S"), ("P2", "6S 6S")], "P2", "P1", id="a-pair-of-fives-is-plain"),
    pytest.param(
        [("P1", "9S 9S"), ("P2", "5H 5H"), ("P3", "SJ SJ")], "P3", "P3", id="jokers-trump-all"
    ),
    pytest.param([("P1", "9H 9H TH TH"), ("P2", "SJ SJ BJ BJ")], "P2", "P2", id="a-joker-tractor"),
]


@pytest.mark.parametrize("rules", ["standard", "kawu", "simplified"])
@pytest.mark.parametrize(("plays", "open_ladder", "others"), NO_TRUMP_LEVEL_CARDS)
def test_without_a_trump_suit_open_ladder_trumps_only_the_jokers(
    rules: str, plays: list[tuple[str, str]], open_ladder: str, others: str
) -> None:
    assert winner(*plays, trump=None, rules="open-ladder") == open_ladder
    assert winner(*plays, trump=None, rules=rules) == others


@pytest.mark.parametrize(
    ("rules", "lead", "format", "suit"),
    [
        ("open-ladder", "4S 4S 5S 5S", "tractor", "S"),
        ("open-ladder", "5S 5S 6S 6S", "tractor", "S"),
        ("open-ladder", "4S 4S 6S 6S", "throw", "S"),  # the five lies between
        ("open-ladder", "SJ SJ BJ BJ", "tractor", "trump"),
        ("standard", "4S 4S 6S 6S", "tractor", "S"),  # the level rank is skipped
        ("standard", "5S 5S SJ SJ", "tractor", "trump"),
    ],
)
def test_open_ladder_no_trump_tractors_run_through_the_level_card(
    rules: str, lead: str, format: str, suit: str
) -> None:
    judgement = judge_trick(("P1", lead), trump=None, rules=rules)
    assert (judgement.lead.format.value, str(judgement.lead.suit)) == (format, suit)


def test_open_ladder_no_trump_a_level_card_must_follow_its_suit() -> None:
    plays = (("P1", "9S"), ("P2", "3D"))
    judgement = judge_trick(*plays, trump=None, rules="open-ladder", hands={"P2": "5S 3D"})
    assert reasons(judgement) == {"P2": "P2 had 1 spade left and did not play it"}
    judgement = judge_trick(*plays, trump=None, rules="standard", hands={"P2": "5S 3D"})
    assert judgement.plays[1].legal is True


def test_open_ladder_with_a_trump_suit_still_trumps_the_level_cards() -> None:
    assert winner(("P1", "9S"), ("P2", "5C"), rules="open-ladder") == "P2"
    assert judge_trick(("P1", "4S 4S 6S 6S"), rules="open-ladder").lead.format.value == "tractor"


def test_the_points_are_the_tricks_fives_tens_and_kings() -> None:
    judgement = judge_trick(("P1", "5S"), ("P2", "TS"), ("P3", "KH"), ("P4", "2S"))
    assert judgement.points == 25


def test_a_trick_in_progress_is_won_so_far() -> None:
    assert winner(("P1", "9S")) == "P1"
    assert winner(("P1", "9S"), ("P2", "2H")) == "P2"
    judgement = judge_trick(("P1", "9S 9S"), hands={"P1": "9S 9S 3C"})
    assert [play.legal for play in judgement.plays] == [True]


FOLLOWING = [
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "2S 3C"),
        "2S 3S 3C",
        "P2 had 2 spades left and played only 1 of them",
        id="all-of-the-suit-when-short",
    ),
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "3C 4C"),
        "2S 3C 4C",
        "P2 had 1 spade left and did not play it",
        id="the-last-card-of-the-suit",
    ),
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "2S 3C"),
        "2S 3S 4S 3C",
        "P2 had 3 spades left and played only 1 of them to a lead of 2",
        id="enough-of-the-suit",
    ),
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "2H 3C"),
        "2S 3S 2H 3C",
        "P2 had 2 spades left and played none of them",
        id="trumping-while-holding-the-suit",
    ),
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "2S 3S"),
        "2S 3S 7S 7S",
        "P2 held the pair 7S 7S in spades and had to play it",
        id="a-pair-for-a-pair",
    ),
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "2S 3S"),
        "2S 3S 7S 7S JS JS",
        "P2 held the pairs JS JS and 7S 7S in spades and had to play one of them",
        id="one-of-several-pairs",
    ),
    pytest.param(
        "standard",
        ("P1", "5H 5H"),
        ("P2", "9H KH"),
        "9H KH 7H 7H 2C",
        "P2 held the pair 7H 7H in trumps and had to play it",
        id="engine-json-example",
    ),
    pytest.param(
        "standard",
        ("P1", "5H 5H"),
        ("P2", "9H KH"),
        "9H KH 5C 5C",
        "P2 held the pair 5C 5C in trumps and had to play it",
        id="an-off-suit-level-pair-is-a-trump-pair",
    ),
    pytest.param(
        "kawu",
        ("P1", "9S 9S TS TS"),
        ("P2", "2S 2S 7S 7S"),
        "2S 2S 3S 3S 4S 4S 7S 7S",
        "P2 held the tractor 3S 3S 4S 4S in spades and had to play a tractor of 2 pairs",
        id="a-tractor-for-a-tractor",
    ),
    pytest.param(
        "kawu",
        ("P1", "9S 9S TS TS"),
        ("P2", "2S 2S 7S 8S"),
        "2S 2S 7S 7S 8S",
        "P2 held the pairs 7S 7S and 2S 2S in spades and had to play both, not 1",
        id="as-many-pairs-as-held",
    ),
    pytest.param(
        "open-ladder",
        ("P1", "9S 9S TS TS QS QS"),
        ("P2", "2S 2S 7S 8S JS KS"),
        "2S 2S 7S 7S 8S JS JS KS",
        "P2 held the pairs JS JS, 7S 7S and 2S 2S in spades and had to play all of them, not 1",
        id="as-many-pairs-as-the-lead",
    ),
    pytest.param(
        "open-ladder",
        ("P1", "AS AS KS"),
        ("P2", "2S 3S 4S"),
        "2S 3S 4S 4S",
        "P2 held the pair 4S 4S in spades and had to play it",
        id="a-pair-for-a-throws-pair",
    ),
    pytest.param(
        "standard",
        ("P1", "9S 9S"),
        ("P2", "2S"),
        "2S 3S",
        "P2 played 1 card to a lead of 2",
        id="too-few-cards",
    ),
]


@pytest.mark.parametrize(("rules", "lead", "play", "hand", "reason"), FOLLOWING)
def test_a_play_that_breaks_the_following_rules_says_why(
    rules: str, lead: tuple[str, str], play: tuple[str, str], hand: str, reason: str
) -> None:
    judgement = judge_trick(lead, play, rules=rules, hands={"P2": hand})
    assert judgement.plays[1].legal is False
    assert judgement.plays[1].reason == reason


LEGAL = [
    pytest.param(
        "standard", ("P1", "9S 9S"), ("P2", "2H 3C"), "2H 3C 4D", id="void-plays-anything"
    ),
    pytest.param("standard", ("P1", "9S 9S"), ("P2", "2S 3C"), "2S 3C 4D", id="the-suit-then-any"),
    pytest.param("standard", ("P1", "9S 9S"), ("P2", "2S 3S"), "2S 3S 4S", id="no-pair-held"),
    pytest.param(
        "standard", ("P1", "9S 9S"), ("P2", "4S 4S"), "4S 4S 7S 7S", id="any-pair-will-do"
    ),
    pytest.param(
        "open-ladder",
        ("P1", "9S 9S TS TS"),
        ("P2", "2S 2S 7S 7S"),
        "2S 2S 3S 3S 4S 4S 7S 7S",
        id="pairs-need-not-be-a-tractor-in-open-ladder",
    ),
    pytest.param(
        "kawu",
        ("P1", "9S 9S TS TS JS JS"),
        ("P2", "2S 2S 3S 3S 7S 7S"),
        "2S 2S 3S 3S 7S 7S 8S",
        id="a-shorter-tractor-is-not-owed",
    ),
    pytest.param(
        "kawu",
        ("P1", "9S 9S TS TS"),
        ("P2", "2S 2S 3S 8S"),
        "2S 2S 3S 8S JS",
        id="one-pair-then-the-suit",
    ),
    pytest.param(
        "standard", ("P1", "9S 9S"), ("P2", "2S 3S"), "5S 5S 2S 3S", id="a-level-pair-is-no-spade"
    ),
]


@pytest.mark.parametrize(("rules", "lead", "play", "hand"), LEGAL)
def test_a_play_that_follows_the_rules_is_legal(
    rules: str, lead: tuple[str, str], play: tuple[str, str], hand: str
) -> None:
    judgement = judge_trick(lead, play, rules=rules, hands={"P2": hand})
    assert (judgement.plays[1].legal, judgement.plays[1].reason) == (True, None)


def test_legality_is_unknown_without_the_hand_but_a_short_play_is_still_illegal() -> None:
    judgement = judge_trick(("P1", "9S 9S"), ("P2", "2H 3C"), ("P3", "4D"))
    assert [play.legal for play in judgement.plays] == [None, None, False]
    assert reasons(judgement) == {"P3": "P3 played 1 card to a lead of 2"}


def test_an_illegal_play_cannot_win() -> None:
    judgement = judge_trick(
        ("P1", "9S 9S"), ("P2", "2H 2H"), ("P3", "3S 4S"), hands={"P2": "2H 2H 3S"}
    )
    assert judgement.plays[1].legal is False
    assert judgement.winner == "P1"


def test_a_play_with_more_cards_than_the_lead_cannot_win() -> None:
    assert winner(("P1", "9S"), ("P2", "2H 2H")) == "P1"


THROWS = [
    pytest.param([("P1", "AS KS KS"), ("P2", "2H 3H 3H")], "P2", id="trumped-in-its-shape"),
    pytest.param([("P1", "AS KS KS"), ("P2", "2H 3H 4H")], "P1", id="trumps-of-another-shape"),
    pytest.param(
        [("P1", "AS KS KS"), ("P2", "2H 3H 3H"), ("P3", "6H 7H 7H")],
        "P3",
        id="over-trumped-combination-by-combination",
    ),
    pytest.param(
        [("P1", "AS KS KS"), ("P2", "2H 3H 3H"), ("P3", "2H 7H 7H")],
        "P2",
        id="a-higher-pair-and-an-equal-single-do-not-beat-it",
    ),
    pytest.param(
        [("P1", "AS KS KS"), ("P2", "8H 3H 3H"), ("P3", "2H 7H 7H")],
        "P2",
        id="a-higher-pair-and-a-lower-single-do-not-beat-it",
    ),
    pytest.param(
        [("P1", "AS AS KS"), ("P2", "AH AH BJ")],
        "P2",
        id="a-pair-and-a-single-in-trumps",
    ),
    pytest.param(
        [("P1", "AS AS QS QS"), ("P2", "2H 2H 3H 3H")],
        "P2",
        id="a-tractor-serves-as-two-pairs",
    ),
]


@pytest.mark.parametrize(("plays", "expected"), THROWS)
def test_a_throw_is_taken_only_in_its_shape(plays: list[tuple[str, str]], expected: str) -> None:
    assert winner(*plays, rules="open-ladder") == expected


# Level 2, clubs trump, against the spade throw QS QS 8S 7S (a pair and two singles): 2C is the
# trump-suit level card, above every other club, so 6C 6C 2C 2C reads as the pair 2C 2C with
# 6C 6C as singles, or as the pair 6C 6C with 2C 2C as singles.
READ_TWO_WAYS = [
    pytest.param("6C 6C 2C 2C", "SJ SJ 8C 7C", "P2", id="beats-one-reading-only"),
    pytest.param("6C 6C 2C 2C", "BJ BJ 2S 2S", "P2", id="neither-reading-beats-both"),
    pytest.param("6C 6C 2C 2C", "2D 2D AC KC", "P2", id="lower-pair-higher-singles"),
    pytest.param("6C 6C 2C 2C", "BJ BJ SJ SJ", "P3", id="one-reading-beats-both"),
    pytest.param("7C 7C 4C 3C", "6C 6C 2C 2C", "P3", id="the-later-play-read-its-best-way"),
    pytest.param("SJ SJ 8C 7C", "6C 6C 2C 2C", "P2", id="no-reading-of-the-later-play-beats"),
]


@pytest.mark.parametrize(("earlier", "later", "expected"), READ_TWO_WAYS)
def test_a_later_play_takes_the_trick_only_if_one_reading_beats_every_reading_of_the_winner(
    earlier: str, later: str, expected: str
) -> None:
    plays = [("P1", "QS QS 8S 7S"), ("P2", earlier), ("P3", later)]
    assert winner(*plays, level="2", trump="C", rules="open-ladder") == expected


@pytest.mark.parametrize("beaten", [[], [("P2", "3C 3C 7C 4C")]], ids=["alone", "after-3C-3C"])
def test_an_earlier_beaten_play_does_not_change_who_wins_between_two_later_plays(
    beaten: list[tuple[str, str]],
) -> None:
    # 6C 6C 2C 2C beats 3C 3C 7C 4C only read as the pair 6C 6C with 2C 2C; SJ SJ 8C 7C beats
    # only the other reading, so the earlier play keeps the trick with or without 3C 3C 7C 4C.
    plays = [("P1", "QS QS 8S 7S"), *beaten, ("P3", "6C 6C 2C 2C"), ("P4", "SJ SJ 8C 7C")]
    assert winner(*plays[:-1], level="2", trump="C", rules="open-ladder") == "P3"
    assert winner(*plays, level="2", trump="C", rules="open-ladder") == "P3"


def test_a_throw_beaten_by_one_card_fails() -> None:
    judgement = judge_trick(
        ("P1", "KS QS QS"),
        ("P2", "AS 2S 3S"),
        rules="open-ladder",
        hands={"P2": "AS 2S 3S 9D", "P3": "JS JS TS"},
    )
    throw = judgement.throw
    assert throw is not None
    assert (throw.ok, throw.beaten_by, str(throw.forced), throw.penalty) == (
        False,
        "P2",
        "KS",
        20,
    )
    assert judgement.winner is None
    assert judgement.winner_as_played == "P1"
    assert judgement.plays[0].legal is False
    assert judgement.plays[0].reason == (
        "P1's throw fails: P2 held AS, which beats KS; P1 takes back 2 cards and leads KS, "
        "paying 20 points"
    )


def test_a_failed_throw_forces_its_smallest_beatable_combination() -> None:
    judgement = judge_trick(
        ("P1", "AS QS QS 9S"),
        rules="open-ladder",
        hands={"P2": "KS KS TS", "P3": "JS"},
    )
    throw = judgement.throw
    assert throw is not None
    assert (throw.beaten_by, str(throw.forced), throw.penalty) == ("P2", "9S", 30)
    assert throw.checked == ("P2", "P3")


@pytest.mark.parametrize(("throw", "forced"), [("2S 2D", "2S"), ("2D 2S", "2D")])
def test_among_equal_level_cards_a_failed_throw_forces_the_one_thrown_first(
    throw: str, forced: str
) -> None:
    judgement = judge_trick(
        ("P1", throw), rules="open-ladder", level="2", trump="H", hands={"P2": "2H 3H"}
    )
    assert judgement.throw is not None
    assert (judgement.throw.beaten_by, str(judgement.throw.forced)) == ("P2", forced)


def test_a_throw_fails_against_a_higher_card_a_follower_played_without_any_hand_given() -> None:
    judgement = judge_trick(("P1", "AS QS"), ("P2", "KS 2S"), rules="open-ladder")
    throw = judgement.throw
    assert throw is not None
    assert (throw.ok, throw.checked, throw.beaten_by, str(throw.beater), str(throw.forced)) == (
        False,
        ("P2",),
        "P2",
        "KS",
        "QS",
    )
    assert (judgement.winner, judgement.winner_as_played) == (None, "P1")
    assert reasons(judgement) == {
        "P1": "P1's throw fails: P2 held KS, which beats QS; "
        "P1 takes back 1 card and leads QS, paying 10 points"
    }


# Open-ladder, level 5, hearts trump: P1 throws; what the others played and held beat it or not.
THROWS_CHECKED_AGAINST_PLAYS = [
    pytest.param(
        [("P1", "QS QS AS"), ("P2", "KS KS 2S")], {}, ("P2", "QS QS", 10), id="a-higher-pair"
    ),
    pytest.param(
        [("P1", "AS QS QS 9S"), ("P2", "KS KS TS 2S")],
        {},
        ("P2", "9S", 30),
        id="the-smallest-combination-that-can-be-beaten",
    ),
    pytest.param(
        [("P1", "KS KS 9S 9S"), ("P2", "AS AS 3S 2S")],
        {},
        ("P2", "9S 9S", 20),
        id="the-lowest-of-those-it-could-beat",
    ),
    pytest.param(
        [("P1", "AS QS"), ("P2", "3S 2S"), ("P3", "KS 4S")],
        {"P4": "KS 9D"},
        ("P3", "QS", 10),
        id="the-first-in-play-order-who-played-it",
    ),
    pytest.param(
        [("P1", "AS QS"), ("P2", "3S 2S"), ("P3", "KS 4S")],
        {"P2": "KS 3S 2S"},
        ("P2", "QS", 10),
        id="the-first-in-play-order-who-held-it",
    ),
    pytest.param(
        [("P1", "AS QS"), ("P2", "3S 2S")],
        {"P4": "KS 9D"},
        ("P4", "QS", 10),
        id="a-hand-given-for-a-player-still-to-play",
    ),
    pytest.param(
        [("P1", "AS AS KS"), ("P2", "QS QS 2S"), ("P3", "3H 4H 5H")], {}, None, id="nothing-higher"
    ),
    pytest.param(
        [("P1", "AS KS"), ("P2", "BJ BJ")], {}, None, id="trumps-played-are-no-higher-spade"
    ),
]


@pytest.mark.parametrize(("plays", "hands", "failure"), THROWS_CHECKED_AGAINST_PLAYS)
def test_a_throw_is_checked_against_what_the_others_played_too(
    plays: list[tuple[str, str]], hands: dict[str, str], failure: tuple[str, str, int] | None
) -> None:
    throw = judge_trick(*plays, rules="open-ladder", hands=hands).throw
    assert throw is not None
    if failure is None:
        assert throw.ok
    else:
        assert (throw.beaten_by, str(throw.forced), throw.penalty) == failure


def test_a_throw_no_given_hand_can_beat_stands() -> None:
    judgement = judge_trick(
        ("P1", "AS AS KS"), ("P2", "2S 3S 4S"), rules="open-ladder", hands={"P2": "2S 3S 4S 4H"}
    )
    assert judgement.throw is not None
    assert (judgement.throw.ok, judgement.throw.checked) == (True, ("P2",))
    assert judgement.winner == "P1"


def test_a_throw_cannot_be_beaten_by_trumps_held_by_a_player_who_follows() -> None:
    judgement = judge_trick(("P1", "AS KS"), rules="open-ladder", hands={"P2": "BJ BJ 2S"})
    assert judgement.throw is not None
    assert judgement.throw.ok


@pytest.mark.parametrize(
    ("rules", "lead", "message"),
    [
        (
            "kawu",
            "AS KS",
            "P1's lead AS KS is a throw (AS, KS), which the kawu rules forbid: "
            "lead a single, a pair or a tractor",
        ),
        (
            "standard",
            "7S 7S 9S 9S",
            "P1's lead 9S 9S 7S 7S is a throw (9S 9S, 7S 7S), which the standard rules forbid: "
            "lead a single, a pair or a tractor",
        ),
        (
            "open-ladder",
            "AS 5S",
            "P1's lead AS 5S mixes spades and trumps: every lead, a throw too, is of one suit "
            "(trumps count as one suit)",
        ),
    ],
)
def test_a_lead_that_is_no_lead_cannot_be_judged(rules: str, lead: str, message: str) -> None:
    with pytest.raises(PlayError) as raised:
        judge_trick(("P1", lead), rules=rules)
    assert str(raised.value) == message.replace("9S 9S 7S 7S", lead)


@pytest.mark.parametrize(
    ("plays", "hands", "message"),
    [
        ([], {}, "plays is empty: a trick needs at least its lead"),
        ([("P1", "9S"), ("P1", "TS")], {}, "P1 plays twice in this trick"),
        ([("P1", "9S"), ("P2", "TS")], {"P2": "2S"}, "P2's play: TS is not in P2's hand"),
        (
            [("P1", "9S 9S")],
            {"P1": "9S 3C"},
            "P1's play: 9S is played 2 times, but P1's hand holds 1",
        ),
        (
            [("P1", "9S")],
            {"P1": "9S 9S 9S"},
            "P1's hand: 9S appears 3 times, but 2 decks hold only 2",
        ),
        (
            [("P1", "BJ"), ("P2", "BJ")],
            {"P3": "BJ 2S"},
            "the hands and plays together: BJ appears 3 times, but 2 decks hold only 2",
        ),
    ],
)
def test_a_trick_that_cannot_be_judged(
    plays: list[tuple[str, str]], hands: dict[str, str], message: str
) -> None:
    with pytest.raises(PlayError) as raised:
        judge_trick(*plays, hands=hands)
    assert str(raised.value) == message


def test_three_decks_three_identical_cards_are_a_pair_and_a_single() -> None:
    judgement = judge_trick(("P1", "AS AS AS"), ("P2", "2H 2H 3H"), rules="open-ladder", decks=3)
    assert judgement.lead.format.value == "throw"
    assert judgement.winner == "P2"
    with pytest.raises(PlayError, match="is a throw"):
        judge_trick(("P1", "AS AS AS"), decks=3)


def test_three_decks_a_triple_in_hand_owes_a_pair() -> None:
    judgement = judge_trick(
        ("P1", "9S 9S"), ("P2", "2S 3S"), decks=3, hands={"P2": "2S 3S 7S 7S 7S"}
    )
    assert reasons(judgement) == {"P2": "P2 held the pair 7S 7S in spades and had to play it"}


def test_four_decks_equal_pairs_first_played_wins() -> None:
    plays = [("P1", "9S 9S"), ("P2", "9S 9S"), ("P3", "AH AH")]
    assert winner(*plays[:2], decks=4) == "P1"
    assert winner(*plays, decks=4) == "P3"


def test_four_decks_four_identical_cards_are_two_pairs_not_a_tractor() -> None:
    judgement = judge_trick(
        ("P1", "AS AS AS AS"), ("P2", "2H 2H 3H 3H"), rules="open-ladder", decks=4
    )
    assert judgement.lead.format.value == "throw"
    assert [str(combo) for combo in judgement.lead.combos] == ["AS AS", "AS AS"]
    assert judgement.winner == "P2"


def test_four_decks_allow_four_copies_of_a_card_and_no_more() -> None:
    assert winner(("P1", "BJ"), ("P2", "BJ"), ("P3", "BJ"), ("P4", "BJ"), decks=4) == "P1"
    with pytest.raises(PlayError, match="BJ appears 5 times, but 4 decks hold only 4"):
        judge_trick(("P1", "BJ"), ("P2", "BJ BJ BJ BJ"), decks=4)


THROWS_AND_TRACTORS = replace(
    PRESETS["standard"],
    name="throws-and-tractors",
    throws=True,
    tractor_follow=TractorFollow.TRACTOR,
)


@pytest.mark.parametrize(
    ("play", "reason"),
    [
        (
            "2S 2S 3S 3S 6S 7S 8S 6S",
            "P2 held tractors in spades to match 2 of the lead's 2 tractors and had to play them",
        ),
        ("2S 2S 3S 3S 6S 6S 7S 7S", None),
    ],
)
def test_a_throw_of_tractors_owes_tractors_where_the_rules_say_so(
    play: str, reason: str | None
) -> None:
    judgement = judge_trick(
        ("P1", "9S 9S TS TS KS KS AS AS"),
        ("P2", play),
        rules=THROWS_AND_TRACTORS,
        hands={"P2": "2S 2S 3S 3S 6S 6S 7S 7S 8S"},
    )
    assert judgement.throw is not None and judgement.throw.ok
    assert judgement.plays[1].reason == reason
