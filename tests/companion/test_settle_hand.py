from __future__ import annotations

import pytest

URL = "/settle/"
KAWU_HAND = {
    "rules": "kawu",
    "declarers_level": "5",
    "opponents_level": "3",
    "opponent_points": "65",
    "kitty_points": "20",
    "last_trick_winner": "opponents",
    "last_trick_format": "pair",
}


def test_it_shows_an_empty_form(client):
    response = client.get(URL)

    assert response.status_code == 200
    assert "Score a hand" in response.text
    assert 'id="settlement"' in response.text


def test_it_settles_a_hand_and_explains_it(client):
    response = client.get(URL, KAWU_HAND)

    assert response.status_code == 200
    assert "Opponents 65 + kitty 20 × 4 = 145: 120–155, opponents take the deal and climb 1" in (
        response.text
    )


def test_it_answers_htmx_with_the_settlement_fragment_only(client):
    response = client.get(URL, KAWU_HAND, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="settlement"')
    assert "<form" not in response.text
    assert "take the deal and climb 1" in response.text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"opponent_points": "63"},
            "opponent_points must be a multiple of 5 from 0 to 200, got 63",
        ),
        ({"kitty_points": "85"}, "kitty_points must be a multiple of 5 from 0 to 80, got 85"),
        (
            {"opponent_points": "150", "kitty_points": "60"},
            "opponent_points 150 + kitty_points 60 = 210, but the deck holds only 200 points",
        ),
        ({"last_trick_format": "throw", "last_trick_cards": "5"}, "kawu rules allow no throws"),
        ({"last_trick_format": "tractor"}, "a tractor last trick needs its number of cards"),
        ({"declarers_level": "1"}, "Select a valid choice"),
        ({"opponent_points": "lots"}, "Enter a whole number"),
    ],
)
def test_it_names_the_problem_beside_the_field_and_keeps_the_input(client, change, message):
    response = client.get(URL, {**KAWU_HAND, **change})

    assert response.status_code == 200
    assert message in response.text
    for value in change.values():
        if value != "1":
            assert f'value="{value}"' in response.text
