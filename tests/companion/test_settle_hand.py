from __future__ import annotations

import pytest

from tests.reading import text

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
    assert "Score a hand" in text(response.text)
    assert 'id="settlement"' in response.text


def test_it_settles_a_hand_and_explains_it(client):
    response = client.get(URL, KAWU_HAND)

    assert response.status_code == 200
    assert (
        "Opponents 65 + kitty 20 × 4 = 145 points. "
        "In the 120–155 band, the opponents take the deal and climb 1 level"
    ) in text(response.text)


def test_it_answers_htmx_with_the_settlement_fragment_only(client):
    response = client.get(URL, KAWU_HAND, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="settlement"')
    assert "<form" not in response.text
    assert "take the deal and climb 1" in text(response.text)


def test_it_scales_the_table_with_the_decks(client):
    response = client.get(URL, {**KAWU_HAND, "players": "6", "decks": "3"})

    # Three decks: the take-over band 80–115 becomes 120–175.
    assert (
        "Opponents 65 + kitty 20 × 4 = 145 points. In the 120–175 band, the opponents take the deal"
    ) in text(response.text)


def test_a_short_handed_side_that_holds_climbs_one_more(client):
    hand = {**KAWU_HAND, "opponent_points": "30", "kitty_points": "0", "short_handed": "on"}

    response = client.get(URL, hand)

    assert (
        "Opponents 30 + kitty 0 × 4 = 30 points. "
        "In the 5–35 band, the declarers climb 3 levels, one more"
    ) in text(response.text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"opponent_points": "63"},
            "The opponents' points must be a multiple of 5 between 0 and 200; 63 is not.",
        ),
        (
            {"kitty_points": "85"},
            "The kitty's points must be a multiple of 5 between 0 and 80; 85 is not.",
        ),
        (
            {"opponent_points": "150", "kitty_points": "60"},
            "The opponents' 150 points and the kitty's 60 make 210, more than the 200 in 2 decks.",
        ),
        (
            {"opponent_points": "350", "decks": "3", "players": "6"},
            "The opponents' points must be a multiple of 5 between 0 and 300; 350 is not.",
        ),
        (
            {"last_trick_format": "throw", "last_trick_cards": "5"},
            "These rules allow no throws, so the last trick was not a throw.",
        ),
        (
            {"last_trick_format": "tractor"},
            "The last trick was a tractor: say how many cards each player played to it.",
        ),
        (
            {"last_trick_format": "tractor", "last_trick_cards": "24", "players": "8"},
            "Each player held 12 cards, so nobody played 24 to the last trick.",
        ),
        ({"declarers_level": "1"}, "Select a valid choice"),
        ({"decks": "5"}, "Select a valid choice"),
        ({"opponent_points": "lots"}, "Write a whole number, like 45."),
    ],
)
def test_it_names_the_problem_beside_the_field_and_keeps_the_input(client, change, message):
    response = client.get(URL, {**KAWU_HAND, **change})

    assert response.status_code == 200
    assert message in text(response.text)
    for name, value in change.items():
        if name not in ("declarers_level", "decks", "players"):
            assert f'value="{value}"' in response.text
