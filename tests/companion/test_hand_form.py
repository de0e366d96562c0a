"""The hand form as the table meets it: bid, trump and kitty that agree, failed throws bounded
by a hand, errors in the players' words, and corrections that say what they changed."""

from __future__ import annotations

import re

import pytest
from hands import held_form

from companion.models import Hand
from scoring import Rank
from tests.reading import text, texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(member, start_game):
    """Mei and Lin against Jun and Hao, standard rules, everyone at 2."""
    return start_game()


def post(client, game, number: int | None = None, **changes):
    game.refresh_from_db()
    where = "new" if number is None else number
    data = {"version": game.version, "request_key": f"key-{game.version}", **held_form(**changes)}
    return client.post(f"/groups/{game.group_id}/games/{game.pk}/hands/{where}/", data)


def errors(response) -> str:
    """What stopped the save, as a player reads it: above the form when it is about the whole
    hand, else beside the field at fault."""
    return " ".join(texts(response, "#hand-errors") + texts(response, "div.invalid-feedback"))


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"trump": ""}, "Tap the trump suit, or No trump."),
        ({"opponent_points": "33"}, "must be a multiple of 5 between 0 and 200; 33 is not."),
    ],
)
def test_a_refused_hand_says_its_error_once_beside_its_field(client, game, changes, said):
    response = post(client, game, **changes)

    assert response.text.count(said) == 1
    assert 'id="hand-errors"' not in response.text  # that box is for the hand as a whole


def test_it_refuses_a_bid_that_contradicts_the_trump_in_the_players_words(client, game):
    response = post(client, game, bid="big-jokers")

    assert response.status_code == 200
    assert errors(response) == (
        "Big jokers won the bid, so the hand has no trump, not ♥: choose No trump, or another bid."
    )
    assert not Hand.objects.exists()


@pytest.mark.parametrize(("trump", "bid"), [("H", "one"), ("NT", "small-jokers")])
def test_without_a_bid_the_hand_has_the_weakest_its_trump_allows(client, game, trump, bid):
    post(client, game, trump=trump)

    stored = Hand.objects.get()
    assert (stored.trump, stored.bid) == (trump, bid)


def test_a_hand_without_its_trump_is_refused_in_words(client, game):
    response = post(client, game, trump="")

    assert errors(response) == "Tap the trump suit, or No trump."
    assert not Hand.objects.exists()


@pytest.mark.parametrize("bid", ["small-jokers", "big-jokers"])
def test_a_bid_of_jokers_names_no_trump_by_itself(client, game, bid):
    post(client, game, trump="", bid=bid)

    assert (Hand.objects.get().trump, Hand.objects.get().bid) == ("NT", bid)


def test_the_trump_starts_untapped_and_a_correction_shows_no_trump_tapped(client, game):
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/"
    page = client.get(url + "new/").text
    post(client, game, trump="NT")
    correction = client.get(url + "1/").text

    tapped = r'name="trump"[^>]*value="(\w+)"[^>]*checked'
    assert re.findall(tapped, page) == []
    assert re.findall(tapped, correction) == ["NT"]


def test_the_form_tells_its_script_which_trumps_each_bid_allows(client, game):
    page = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text

    assert (
        'data-bid-trumps="one:S H D C;pair:S H D C;small-jokers:NT;big-jokers:NT;none:S H D C NT;"'
    ) in page


def test_the_kitty_s_points_come_from_its_cards(client, game):
    post(client, game, kitty_cards="5h kd 10s 2c 3c 4c 6c 7c", last_trick_winner="opponents")

    saved = Hand.objects.get()
    assert (saved.kitty_cards, saved.kitty_points) == ("5H KD TS 2C 3C 4C 6C 7C", 25)


def test_typed_kitty_points_that_disagree_with_its_cards_are_named_not_overridden(client, game):
    response = post(client, game, kitty_cards="5H KD TS 2C 3C 4C 6C 7C", kitty_points="30")

    assert errors(response) == (
        "The kitty's cards hold 25 points, not 30: clear the points or check the cards."
    )
    assert re.search(r"<details id=\"kitty-more\" open>", response.text)
    assert not Hand.objects.exists()


def test_an_unknown_kitty_counts_nothing_when_the_declarers_took_the_last_trick(client, game):
    post(client, game)
    assert Hand.objects.get().kitty_points == 0

    response = post(client, game, declarer="2", last_trick_winner="opponents")
    assert errors(response) == (
        "The opponents took the last trick, so the kitty counts: give its points."
    )


def test_cards_taken_back_are_bounded_by_a_hand(client, member, start_game):
    game = start_game("open-ladder", first_declarer=0)
    page = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text
    assert re.search(r'name="declarer_cards_taken_back"[^>]* min="0" max="25"', page)

    response = post(client, game, declarer_cards_taken_back="26")

    assert errors(response) == (
        "The declarers' failed throws take back from 0 to 25 cards, "
        "a hand at most; 26 is not possible."
    )
    assert re.search(r"<details id=\"throws-more\" open>", response.text)
    assert post(client, game, declarer_cards_taken_back="25").status_code == 302


@pytest.mark.parametrize(
    "changes",
    [
        {"opponent_points": "33"},
        {"opponent_points": "190", "kitty_points": "20"},
        {"opponent_points": ""},
        {"opponent_points": "many"},
        {"kitty_points": "85"},
        {"kitty_cards": "5H XX"},
        {"kitty_cards": "5H 5H 5H 2C 3C 4C 6C 7C"},
        {"last_trick_format": "tractor"},
        {"last_trick_format": "tractor", "last_trick_cards": "30"},
        {"last_trick_format": "single", "last_trick_cards": "3"},
        {"last_trick_format": "throw", "last_trick_cards": "3"},
        {"bid": "pair", "trump": ""},
        {"bid": "small-jokers"},
    ],
)
def test_no_error_names_a_field(client, game, changes):
    response = post(client, game, **changes)

    said = errors(response)
    assert said
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|\bgot\b", said), said
    assert 'aria-invalid="true"' in response.text
    assert response.text.count(" autofocus") == 1


def test_the_opponents_points_and_kitty_beyond_two_decks_are_named_together(client, game):
    response = post(client, game, opponent_points="190", kitty_points="20")

    assert errors(response) == (
        "The opponents' 190 points and the kitty's 20 make 210, more than the 200 in 2 decks."
    )


def test_a_correction_names_the_later_hands_whose_levels_moved(client, game):
    post(client, game)  # Mei and Lin 2 → 3
    post(client, game, declarer="2")  # → 4
    post(client, game, declarer="0")  # → 5

    response = post(client, game, 1, opponent_points="0")  # hand 1: 2 → 5, then 6 and 7

    assert response.status_code == 302
    shown = client.get(game.get_absolute_url()).text
    assert (
        "Hand 1 corrected. Mei and Lin are now at 7 instead of 5. "
        "The levels after hands 2–3 changed." in shown
    )


def test_a_correction_that_changes_nothing_later_says_so(client, game):
    post(client, game)

    post(client, game, 1, opponent_points="40")

    assert "Hand 1 corrected. No levels changed." in text(client.get(game.get_absolute_url()).text)


def test_a_correction_that_would_end_the_game_earlier_says_how_to_go_on(client, member, start_game):
    game = start_game(levels=[Rank.ACE, Rank.TWO, Rank.ACE, Rank.TWO])
    post(client, game, opponent_points="80")  # Jun and Hao take the deal
    post(client, game, declarer="1", opponent_points="80")  # Mei and Lin take it back
    post(client, game, declarer="0", opponent_points="80")

    response = post(client, game, 1, opponent_points="30")  # Mei and Lin hold at A: won

    assert errors(response) == (
        "This hand was not saved: With this correction the game is won before hand 2, so "
        "hands 2–3 could not have been played. Delete hands 2–3 first, or check the numbers "
        "of hand 1."
    )
    assert Hand.objects.get(number=1).opponent_points == 80


def test_a_hand_sent_late_from_a_phone_comes_back_filled_in_when_the_game_moved_on(client, game):
    stale = game.version
    post(client, game)  # another phone saves hand 1 first

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": stale, "request_key": "kept-offline", **held_form(opponent_points="85")},
        headers={"Kept-Hand": "true"},
    )

    assert response.status_code == 422
    assert errors(response).startswith(
        "This hand was not saved: Someone else saved a change first, so this hand was not saved."
    )
    assert "Hand 2" in text(response.text)
    assert 'value="85"' in response.text
    assert Hand.objects.count() == 1


def test_a_save_sent_by_the_page_script_is_told_where_to_go(client, game):
    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": game.version, "request_key": "by-script", **held_form()},
        headers={"Kept-Hand": "true"},
    )

    assert response["HX-Redirect"] == game.get_absolute_url()
    assert Hand.objects.get().request_key == "by-script"
