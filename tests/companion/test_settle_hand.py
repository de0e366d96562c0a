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


def test_it_scales_the_table_with_the_decks(client):
    response = client.get(URL, {**KAWU_HAND, "players": "6", "decks": "3"})

    # Three decks: the take-over band 80–115 becomes 120–175.
    assert "Opponents 65 + kitty 20 × 4 = 145: 120–175, opponents take the deal" in response.text


def test_a_short_handed_side_that_holds_climbs_one_more(client):
    hand = {**KAWU_HAND, "opponent_points": "30", "kitty_points": "0", "short_handed": "on"}

    response = client.get(URL, hand)

    assert "Opponents 30 + kitty 0 × 4 = 30: 5–35, declarers climb 3, one more" in response.text


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
            "opponent_points 150 + kitty_points 60 = 210, but 2 decks hold only 200 points",
        ),
        (
            {"opponent_points": "350", "decks": "3", "players": "6"},
            "opponent_points must be a multiple of 5 from 0 to 300, got 350",
        ),
        ({"last_trick_format": "throw", "last_trick_cards": "5"}, "kawu rules allow no throws"),
        ({"last_trick_format": "tractor"}, "a tractor last trick needs its number of cards"),
        (
            {"last_trick_format": "tractor", "last_trick_cards": "24", "players": "8"},
            "a last trick of 24 cards per player is more than a hand of 12 holds",
        ),
        ({"declarers_level": "1"}, "Select a valid choice"),
        ({"decks": "5"}, "Select a valid choice"),
        ({"opponent_points": "lots"}, "Enter a whole number"),
    ],
)
def test_it_names_the_problem_beside_the_field_and_keeps_the_input(client, change, message):
    response = client.get(URL, {**KAWU_HAND, **change})

    assert response.status_code == 200
    assert message in response.text
    for name, value in change.items():
        if name not in ("declarers_level", "decks", "players"):
            assert f'value="{value}"' in response.text
