"""The engine's sentences reach a player whole, in their language: lists, the judge's reasons and
the scoring table's errors are each one sentence a translator can reorder."""

from __future__ import annotations

import pytest
from language import fake_french

from scoring import (
    Play,
    PlayError,
    Rank,
    RulesError,
    Suit,
    Trump,
    get_rules,
    judge,
    parse_cards,
)
from scoring.rules import rules_from_json
from scoring.words import listed

FRENCH = fake_french(
    {
        "{first} and {second}": "{first} et {second}",
        "{start}, {next}": "{start}, {next}",
        "{start} and {last}": "{start} et {last}",
        "{first} or {second}": "{first} ou {second}",
        "{player} had {held} {suit} left and played only {played} of it": (
            "{player} avait encore {held} {suit} et n'en a joué que {played}",
            "{player} avait encore {held} {suit} et n'en a joué que {played}",
        ),
        "spade": ("pique", "piques"),
        "{player} had 1 {suit} left and did not play it": (
            "{player} avait encore 1 {suit} et ne l'a pas joué"
        ),
        "Band {band} leaves a gap: no band holds {missing}.": (
            "La tranche {band} laisse un trou : aucune tranche ne contient {missing}."
        ),
    }
)
TRUMP = Trump(Rank.TWO, Suit.HEARTS)


@pytest.mark.parametrize(
    ("names", "either", "french"),
    [
        (["Mei"], False, "Mei"),
        (["Mei", "Lin"], False, "Mei et Lin"),
        (["Mei", "Lin", "Wei", "Yan"], False, "Mei, Lin, Wei et Yan"),
        (["Mei", "Lin"], True, "Mei ou Lin"),
    ],
)
def test_it_lists_names_with_the_languages_own_joins(names, either, french) -> None:
    assert listed(names, either=either).in_words(*FRENCH) == french


def test_a_throws_parts_are_listed_with_the_languages_own_comma() -> None:
    chinese = fake_french(
        {
            "{start}, {next}": "{start}、{next}",
            "{player}'s lead {cards} is a throw ({parts}), which the {rules} rules forbid: "
            "lead a single, a pair or a tractor": "{player} 首出的 {cards} 是甩牌（{parts}）",
        }
    )
    plays = [Play("P1", parse_cards(["AS", "KS", "KS", "QS"]))]
    with pytest.raises(PlayError) as raised:
        judge(get_rules("kawu"), TRUMP, plays, {})

    assert (
        raised.value.args[0].in_words(*chinese) == "P1 首出的 AS KS KS QS 是甩牌（KS KS、AS、QS）"
    )


def follow(lead: str, play: str, hand: str) -> str:
    plays = [Play("P1", parse_cards(lead.split())), Play("P2", parse_cards(play.split()))]
    judgement = judge(get_rules("standard"), TRUMP, plays, {"P2": parse_cards(hand.split())})
    return judgement.plays[1].reason.in_words(*FRENCH)


def test_the_judges_reason_names_the_suit_in_the_plural_its_count_asks_for() -> None:
    assert follow("9S 9S", "3S AC", "3S 4S AC KC") == (
        "P2 avait encore 2 piques et n'en a joué que 1"
    )
    assert follow("9S", "AC", "3S AC") == "P2 avait encore 1 pique et ne l'a pas joué"


def test_the_untranslated_reason_is_the_english_sentence() -> None:
    plays = [Play("P1", parse_cards(["9S"])), Play("P2", parse_cards(["AC"]))]
    judgement = judge(get_rules("standard"), TRUMP, plays, {"P2": parse_cards(["3S", "AC"])})

    assert judgement.plays[1].reason == "P2 had 1 spade left and did not play it"
    assert judgement.to_json(*FRENCH)["plays"][1]["reason"] == (
        "P2 avait encore 1 pique et ne l'a pas joué"
    )


def test_a_scoring_table_error_names_its_band_as_a_field_and_in_its_sentence() -> None:
    bands = [
        {"from": 0, "to": 35, "winner": "declarers", "levels": 1},
        {"from": 45, "to": None, "winner": "opponents", "levels": 0},
    ]
    with pytest.raises(RulesError) as raised:
        rules_from_json({"name": "House", "bands": bands})

    assert raised.value.band == 2
    assert str(raised.value) == "band 2 (45+) leaves a gap: no band holds 40"
    assert raised.value.in_words(*FRENCH) == (
        "La tranche 2 laisse un trou : aucune tranche ne contient 40."
    )
