"""The scoreboard and recording hands: what the scorekeeper and the watchers see."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from companion.models import Game, Group, Hand, HandChange, Membership, Player
from scoring import get_rules

pytestmark = pytest.mark.django_db

SEATS = {"north": "Mei", "east": "Jun", "south": "Lin", "west": "Hao"}


@pytest.fixture
def scorekeeper(client):
    user = User.objects.create_user("mei", password="a long table password")
    client.force_login(user)
    return user


@pytest.fixture
def game(scorekeeper):
    group = Group.objects.create(name="Thursday Tractor")
    Membership.objects.create(group=group, user=scorekeeper)
    seats = {seat: Player.objects.create(group=group, name=name) for seat, name in SEATS.items()}
    return Game.objects.create(group=group, rules_json=get_rules("standard").to_json(), **seats)


def hand(**changes) -> dict:
    """A hand North declares and holds to 45 points: North–South climb 1."""
    return {
        "declarer": "N",
        "bid": "one",
        "trump": "H",
        "kitty_cards": "",
        "kitty_points": "0",
        "opponent_points": "45",
        "last_trick_winner": "declarers",
        "last_trick_format": "single",
        "last_trick_cards": "",
        **changes,
    }


def record(client, game, **changes):
    game.refresh_from_db()
    data = {"version": game.version, "request_key": f"key-{game.version}", **hand(**changes)}
    return client.post(f"/groups/{game.group_id}/games/{game.pk}/hands/new/", data)


def test_it_records_a_hand_and_shows_what_it_did(client, game):
    response = record(client, game)

    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    page = client.get(game.get_absolute_url()).text
    assert "Opponents 45: 40–75, declarers climb 1" in page
    assert 'data-level="NS">3<' in page
    assert 'data-level="EW">2<' in page
    assert "Next hand: North–South declare at level 3." in page


def test_it_previews_a_hand_without_saving_it(client, game):
    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": game.version, "preview": "1", **hand(opponent_points="120")},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="preview"')
    assert "Opponents 120: 80+, opponents take the deal" in response.text
    assert "East–West declare next" in response.text
    assert not Hand.objects.exists()


def test_it_adds_up_the_kitty_from_its_cards(client, game):
    record(
        client,
        game,
        kitty_cards="5H KD TS 2C 3C 4C 6C 7C",
        kitty_points="",
        opponent_points="60",
        last_trick_winner="opponents",
    )

    saved = Hand.objects.get()
    assert saved.kitty_points == 25
    assert saved.kitty_cards == "5H KD TS 2C 3C 4C 6C 7C"
    assert (
        "Opponents 60 + kitty 25 × 2 = 110: 80+, opponents take the deal"
        in client.get(game.get_absolute_url()).text
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kitty_cards": "5H KD TS 2C"}, "The kitty holds exactly 8 cards; 4 were given."),
        ({"kitty_cards": "5H 5H 5H 2C 3C 4C 6C 7C"}, "5H appears 3 times, but 2 decks hold only 2"),
        ({"kitty_cards": "5H XX TS 2C 3C 4C 6C 7C"}, "unknown card &#x27;XX&#x27;"),
        ({"opponent_points": "42"}, "opponent_points must be a multiple of 5 from 0 to 200"),
        (
            {"opponent_points": "150", "kitty_points": "60"},
            "opponent_points 150 + kitty_points 60 = 210, but the deck holds only 200 points",
        ),
        ({"kitty_points": ""}, "Give the kitty&#x27;s points, or tap its cards."),
        ({"last_trick_format": "throw", "last_trick_cards": "3"}, "standard rules allow no throws"),
        ({"declarer": "Q"}, "Select a valid choice"),
        ({"opponent_points": "many"}, "Enter a whole number"),
    ],
)
def test_it_refuses_a_bad_hand_naming_the_problem_and_keeping_the_input(
    client, game, changes, message
):
    response = record(client, game, **changes)

    assert response.status_code == 200
    assert message in response.text
    assert not Hand.objects.exists()
    for value in changes.values():
        if value and value != "Q":
            assert value in response.text


def test_it_stores_a_double_tapped_save_once(client, game):
    data = {"version": game.version, "request_key": "same-tap", **hand()}
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"

    first = client.post(url, data)
    second = client.post(url, data)

    assert first.status_code == second.status_code == 302
    assert Hand.objects.count() == 1


def test_it_tells_the_slower_of_two_scorekeepers_and_keeps_the_first_save(client, game):
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"
    loaded_version = game.version
    client.post(url, {"version": loaded_version, "request_key": "phone-1", **hand()})

    response = client.post(
        url,
        {"version": loaded_version, "request_key": "phone-2", **hand(opponent_points="0")},
        follow=True,
    )

    assert response.redirect_chain == [(game.get_absolute_url(), 302)]
    assert "Someone else saved a change first" in response.text
    assert "Opponents 45: 40–75, declarers climb 1" in response.text
    assert list(Hand.objects.values_list("opponent_points", flat=True)) == [45]


def test_it_lets_only_the_declaring_team_declare_the_next_hand(client, game):
    record(client, game)

    response = record(client, game, declarer="E")

    assert "Select a valid choice. E is not one of the available choices." in response.text
    assert Hand.objects.count() == 1


def test_an_edit_of_an_early_hand_changes_the_later_levels(client, game):
    record(client, game)
    record(client, game, declarer="S", opponent_points="40")
    game.refresh_from_db()

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {"version": game.version, **hand(opponent_points="0")},
    )

    assert response.status_code == 302
    page = client.get(game.get_absolute_url()).text
    assert "Hand 1 corrected. North–South now at 6 (was 4)." in page
    assert "Opponents 0: 0, declarers climb 3" in page
    assert 'data-level="NS">6<' in page
    assert list(HandChange.objects.values_list("action", flat=True)) == [
        "edited",
        "recorded",
        "recorded",
    ]
    edit = HandChange.objects.first()
    assert edit.before["opponent_points"] == 45
    assert edit.after["opponent_points"] == 0
    history = client.get(f"/groups/{game.group_id}/games/{game.pk}/history/").text
    assert "Hand 1 edited" in history
    assert "opponents&#x27; points</dt>" in history
    assert "45 → 0" in history
    assert "kitty points</dt>" not in history.split("Hand 1 edited")[1].split("Hand 2")[0]


def test_an_edit_that_breaks_a_later_hand_is_refused(client, game):
    record(client, game)
    record(client, game, declarer="S")
    game.refresh_from_db()

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {"version": game.version, **hand(opponent_points="80")},
    )

    assert response.status_code == 200
    assert "hand 2: S cannot declare: EW are the declarers this hand" in response.text
    assert Hand.objects.get(number=1).opponent_points == 45


def test_undo_removes_the_last_hand_and_keeps_it_in_the_history(client, game):
    record(client, game)
    game.refresh_from_db()

    response = client.post(game.get_absolute_url(), {"action": "undo", "version": game.version})

    assert response.status_code == 302
    assert not Hand.objects.exists()
    undone = HandChange.objects.first()
    assert (undone.action, undone.before["opponent_points"]) == ("deleted", 45)
    history = client.get(f"/groups/{game.group_id}/games/{game.pk}/history/").text
    assert "Hand 1 deleted" in history


def test_deleting_a_middle_hand_renumbers_the_later_ones(client, game):
    record(client, game)
    record(client, game, declarer="S", opponent_points="0")
    record(client, game, declarer="N", opponent_points="5")
    game.refresh_from_db()

    client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/2/",
        {"action": "delete", "version": game.version},
    )

    assert list(Hand.objects.values_list("number", "opponent_points")) == [(1, 45), (2, 5)]


def test_a_team_that_holds_at_ace_wins_and_no_more_hands_can_be_recorded(client, game):
    Game.objects.filter(pk=game.pk).update(north_south_level="A")
    record(client, game, opponent_points="30")

    page = client.get(game.get_absolute_url()).text
    assert "North–South win the game after 1 hand." in page
    banner = page.split('role="status"')[1].split("</div>\n")[0]
    assert "Opponents 30: 5–35, declarers hold at A and win the game" in banner
    assert "Record a hand" not in page
    response = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/")
    assert response.status_code == 302


def test_a_watcher_with_the_share_link_sees_the_game_without_logging_in(client, game):
    record(client, game)
    client.logout()

    page = client.get(f"/watch/{game.share_token}/")

    assert page.status_code == 200
    assert "Opponents 45: 40–75, declarers climb 1" in page.text
    assert "Record a hand" not in page.text
    assert "Undo last hand" not in page.text


def test_a_watching_phone_hears_nothing_new_until_the_game_changes(
    client, game, django_assert_num_queries
):
    url = f"/watch/{game.share_token}/"
    game.refresh_from_db()

    with django_assert_num_queries(1):
        unchanged = client.get(url, {"since": game.version}, headers={"HX-Request": "true"})
    record(client, game)
    changed = client.get(url, {"since": game.version}, headers={"HX-Request": "true"})

    assert unchanged.status_code == 204
    assert changed.status_code == 200
    assert changed.text.lstrip().startswith('<section id="scoreboard"')
    assert "declarers climb 1" in changed.text


def test_it_hides_the_game_from_people_outside_the_group(client, game):
    outsider = User.objects.create_user("stranger", password="another long password")
    client.force_login(outsider)

    for url in (
        game.get_absolute_url(),
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        f"/groups/{game.group_id}/games/{game.pk}/history/",
    ):
        assert client.get(url).status_code == 404
    assert client.post(game.get_absolute_url(), {"action": "undo"}).status_code == 404


def test_pages_use_a_fixed_number_of_queries_however_long_the_game(
    client, game, django_assert_max_num_queries, endless_hands
):
    # 300 hands where the opponents always take the deal at 80: the game never ends.
    endless_hands(game)

    with django_assert_max_num_queries(6):
        assert client.get(game.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").status_code == 200


@pytest.fixture
def open_ladder_game(game):
    Game.objects.filter(pk=game.pk).update(rules_json=get_rules("open-ladder").to_json())
    game.refresh_from_db()
    return game


def test_a_failed_throw_moves_points_under_rules_with_throws(client, open_ladder_game):
    game = open_ladder_game
    page = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text
    assert "Cards the declarers took back" in page

    record(client, game, opponent_points="60", declarer_cards_taken_back="3")

    saved = Hand.objects.get()
    assert saved.declarer_cards_taken_back == 3
    page = client.get(game.get_absolute_url()).text
    assert "Opponents 60 + 30 for failed throws = 90: 80–115, opponents take the deal" in page


def test_the_hand_form_asks_about_failed_throws_only_where_throws_are_allowed(client, game):
    page = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text

    assert "Cards the declarers took back" not in page
    record(client, game, declarer_cards_taken_back="3")
    assert Hand.objects.get().declarer_cards_taken_back == 0


def test_the_quick_totals_are_the_lines_of_the_game_s_own_rules(client, game, open_ladder_game):
    page = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text

    # open-ladder changes its result at 40, 80, 120, 160 and 200: the first three fit with 0.
    assert re.findall(r'data-value="(\d+)"', page) == ["0", "40", "80", "120"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"opponent_points": "42"}, "opponent_points"),
        ({"kitty_points": "85"}, "kitty_points"),
        ({"last_trick_format": "tractor", "last_trick_cards": "3"}, "last_trick_cards"),
    ],
)
def test_the_engine_s_complaint_stands_beside_the_field_it_is_about(client, game, changes, field):
    response = record(client, game, **changes)

    assert f'id="error_1_id_{field}"' in response.text
