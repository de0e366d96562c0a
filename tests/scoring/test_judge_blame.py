"""What the web's Dispute page needs from the judge: the request it stores reads back to the
same verdict, and every trick it cannot judge names the player and the input at fault."""

from __future__ import annotations

import pytest

from scoring import Play, PlayError, Rank, Suit, Trump, get_rules, judge, parse_cards
from scoring.cli import judge_input, judge_request
from scoring.rules import rules_from_json

TRUMP = Trump(Rank.FIVE, Suit.HEARTS)


def plays(*entries: tuple[str, str]) -> list[Play]:
    return [Play(player, parse_cards(cards.split())) for player, cards in entries]


def hands(**given: str) -> dict:
    return {player: parse_cards(cards.split()) for player, cards in given.items()}


@pytest.mark.parametrize(
    "rules",
    [
        get_rules("kawu"),
        rules_from_json({**get_rules("open-ladder").to_json(), "name": "Thursday"}),
    ],
    ids=["preset", "own table"],
)
def test_the_request_of_a_trick_reads_back_to_its_verdict(rules) -> None:
    trick = plays(("Mei", "5H 5H"), ("Jun", "9H KH"), ("Lin", "SJ SJ"))
    given = hands(Jun="9H KH 7H 7H 3C")

    request = judge_input(rules, TRUMP, trick, given)

    assert request["rules"] == ("kawu" if rules.name == "kawu" else rules.to_json())
    assert request["hands"] == {"Jun": ["9H", "KH", "7H", "7H", "3C"]}
    assert judge_request(request) == judge(rules, TRUMP, trick, given).to_json()


def test_a_trick_without_trump_is_asked_with_a_null_trump() -> None:
    request = judge_input(get_rules("standard"), Trump(Rank.TEN, None, 3), plays(("P1", "TS")))

    assert (request["level"], request["trump"], request["decks"]) == ("T", None, 3)


@pytest.mark.parametrize(
    ("trick", "given", "rules", "blamed"),
    [
        # A lead of mixed suits, and a throw where throws are forbidden.
        ([("P1", "AS KH")], {}, "standard", ("P1", "play")),
        ([("P1", "AS KS")], {}, "kawu", ("P1", "play")),
        # A play not in the hand given for it, or more copies than that hand holds.
        ([("P1", "AS"), ("P2", "3S")], {"P2": "4S"}, "standard", ("P2", "play")),
        ([("P1", "AS AS"), ("P2", "3S 3S")], {"P2": "3S 4S"}, "standard", ("P2", "play")),
        # A hand that names a card three times in two decks.
        ([("P1", "AS")], {"P3": "2C 2C 2C"}, "standard", ("P3", "hand")),
        # The plays together: the third AS is P3's.
        ([("P1", "AS"), ("P2", "AS"), ("P3", "AS")], {}, "standard", ("P3", "play")),
        # A hand and a play together: P4's hand already holds both BJ, so P1's is one too many.
        ([("P1", "BJ")], {"P4": "BJ BJ"}, "standard", ("P1", "play")),
        ([("P1", "3C"), ("P2", "BJ")], {"P1": "BJ BJ 3C"}, "standard", ("P2", "play")),
    ],
)
def test_an_error_names_the_player_and_the_input_at_fault(trick, given, rules, blamed) -> None:
    with pytest.raises(PlayError) as raised:
        judge(get_rules(rules), TRUMP, plays(*trick), hands(**given))

    assert (raised.value.player, raised.value.part) == blamed


def test_an_empty_trick_blames_nobody() -> None:
    with pytest.raises(PlayError) as raised:
        judge(get_rules("standard"), TRUMP, [])

    assert (raised.value.player, raised.value.part) == (None, None)
