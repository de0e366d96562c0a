"""The scoreboard and recording hands: what the scorekeeper and the watchers see, at every
table: four partners, six or eight with more decks, pairs, find-a-friend, a fixed trump."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hands import held_form

from companion.models import GameSummary, Hand, HandChange, Player
from scoring import Rank, Suit, Teams, TrumpRule
from tests.reading import elements, text, texts

pytestmark = pytest.mark.django_db

# Wei and Yan join the cast at the bigger tables; Zhao and Xiu make eight.
MORE = ("Wei", "Yan", "Zhao", "Xiu")


@pytest.fixture
def game(member, start_game):
    """Mei and Lin against Jun and Hao, standard rules, everyone at 2."""
    return start_game()


@pytest.fixture
def everyone(group, players) -> list[Player]:
    """The cast and four more, in play order: Mei, Jun, Lin, Hao, Wei, Yan, Zhao, Xiu."""
    return players + [Player.objects.create(group=group, name=name) for name in MORE]


@pytest.fixture
def six_friends(member, start_game, everyone):
    """Six players with three decks, each for themselves: a declarer calls one card."""
    return start_game(seated=everyone[:6], teams=Teams.FIND_A_FRIEND)


def record(client, game, **changes):
    game.refresh_from_db()
    data = {"version": game.version, "request_key": f"key-{game.version}", **held_form(**changes)}
    return client.post(f"/groups/{game.group_id}/games/{game.pk}/hands/new/", data)


def new_hand_page(client, game) -> str:
    return client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").text


def scoreboard(client, game) -> str:
    """The game's page as a player reads it: its text, without the markup."""
    return text(client.get(game.get_absolute_url()).text)


def test_it_records_a_hand_and_shows_what_it_did(client, game):
    response = record(client, game)

    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    page = client.get(game.get_absolute_url()).text
    assert "Opponents 45 points. In the 40–75 band, the declarers climb 1 level" in text(page)
    assert texts(page, '[data-level="0-2"]') == ["3"]
    assert texts(page, '[data-level="1-3"]') == ["2"]
    assert "Mei or Lin may start hand 2 at level 3 (Lin by turn): the declarers held." in text(page)
    assert "#1 · Mei at 2 · ♥" in text(page)
    assert "Mei & Lin against Jun & Hao" in text(page)
    # Where both teams stand after the hand, the level it changed as before → after.
    assert "Mei & Lin 2 → 3 Jun & Hao 2" in text(page)


def test_it_previews_a_hand_without_saving_it(client, game):
    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": game.version, "preview": "1", **held_form(opponent_points="120")},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="preview"')
    assert "Opponents 120 points. In the 80+ band, the opponents take the deal" in text(
        response.text
    )
    assert "Jun or Hao may start hand 2 at level 2 (Jun by turn): Jun and Hao take over." in text(
        response.text
    )
    assert not Hand.objects.exists()


@pytest.mark.parametrize("htmx", [True, False])
def test_it_previews_a_hand_without_saving_it_with_or_without_htmx(client, game, htmx):
    headers = {"HX-Request": "true"} if htmx else {}

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": game.version, "preview": "1", **held_form(opponent_points="120")},
        headers=headers,
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="preview"') is htmx
    assert "Opponents 120 points. In the 80+ band, the opponents take the deal" in text(
        response.text
    )
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
        "Opponents 60 + kitty 25 × 2 = 110 points. In the 80+ band, the opponents take the deal"
        in client.get(game.get_absolute_url()).text
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"kitty_cards": "5H KD TS 2C"},
            "The kitty holds exactly 8 cards, but 4 cards were given.",
        ),
        ({"kitty_cards": "5H 5H 5H 2C 3C 4C 6C 7C"}, "5H is there 3 times, but 2 decks hold 2."),
        (
            {"kitty_cards": "5H XX TS 2C 3C 4C 6C 7C"},
            "XX is not a card: write cards like 5H KD TS BJ.",
        ),
        (
            {"opponent_points": "42"},
            "The opponents' points must be a multiple of 5 between 0 and 200; 42 is not.",
        ),
        (
            {"opponent_points": "150", "kitty_points": "60"},
            "The opponents' 150 points and the kitty's 60 make 210, more than the 200 in 2 decks.",
        ),
        (
            {"kitty_points": "", "last_trick_winner": "opponents"},
            "The opponents took the last trick, so the kitty counts: give its points.",
        ),
        (
            {"last_trick_format": "throw", "last_trick_cards": "3"},
            "These rules allow no throws, so the last trick was not a throw.",
        ),
        ({"declarer": "Q"}, "Select a valid choice"),
        ({"opponent_points": "many"}, "Write a whole number, like 45."),
        (
            {"bid": "big-jokers"},
            "Big jokers won the bid, so the hand has no trump, not ♥: choose No trump, "
            "or another bid.",
        ),
        (
            {"bid": "pair", "trump": "NT"},
            "A pair of level cards won the bid, so their suit is trump: choose the suit",
        ),
        ({"trump": ""}, "Tap the trump suit, or No trump."),
        ({"bid": "pair", "trump": ""}, "Tap the trump suit, or No trump."),
    ],
)
def test_it_refuses_a_bad_hand_naming_the_problem_and_keeping_the_input(
    client, game, changes, message
):
    response = record(client, game, **changes)

    assert response.status_code == 200
    assert message in text(response.text)
    assert not Hand.objects.exists()
    for value in changes.values():
        if value and value != "Q":
            assert value in response.text  # kept in its control's value


def test_it_stores_a_double_tapped_save_once(client, game):
    data = {"version": game.version, "request_key": "same-tap", **held_form()}
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"

    first = client.post(url, data)
    second = client.post(url, data)

    assert first.status_code == second.status_code == 302
    assert Hand.objects.count() == 1


def test_a_double_tapped_hand_that_passes_the_deal_is_stored_once_and_shown_saved(client, game):
    # At 80 the deal passes to Jun and Hao: Mei may not declare the next hand.
    data = {"version": game.version, "request_key": "same-tap", **held_form(opponent_points="80")}
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"
    client.post(url, data)

    second = client.post(url, data, follow=True)

    assert second.redirect_chain == [(game.get_absolute_url(), 302)]
    assert "Someone else" not in text(second.text)
    assert Hand.objects.count() == 1


def test_the_slower_scorekeeper_is_told_someone_saved_first_after_the_deal_passed(client, game):
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"
    loaded_version = game.version
    client.post(
        url,
        {"version": loaded_version, "request_key": "phone-1", **held_form(opponent_points="80")},
    )

    response = client.post(
        url,
        {"version": loaded_version, "request_key": "phone-2", **held_form(opponent_points="85")},
        follow=True,
    )

    assert response.redirect_chain == [(game.get_absolute_url(), 302)]
    assert "Someone else saved a change first" in text(response.text)
    assert list(Hand.objects.values_list("opponent_points", flat=True)) == [80]


def test_it_tells_the_slower_of_two_scorekeepers_and_keeps_the_first_save(client, game):
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"
    loaded_version = game.version
    client.post(url, {"version": loaded_version, "request_key": "phone-1", **held_form()})

    response = client.post(
        url,
        {"version": loaded_version, "request_key": "phone-2", **held_form(opponent_points="0")},
        follow=True,
    )

    assert response.redirect_chain == [(game.get_absolute_url(), 302)]
    assert "Someone else saved a change first" in text(response.text)
    assert "Opponents 45 points. In the 40–75 band, the declarers climb 1 level" in text(
        response.text
    )
    assert list(Hand.objects.values_list("opponent_points", flat=True)) == [45]


def test_a_save_overtaken_by_a_correction_between_its_reads_is_told_someone_saved_first(
    client, game, user, before_hands_are_read
):
    # Hand 2 is made on a page of version V, after Mei held hand 1: Mei may start it. A
    # correction of hand 1 to 80 (the deal passes to Jun and Hao) lands while the save is
    # read: after the game's version, before its hands.
    record(client, game)
    game.refresh_from_db()
    loaded = game.version

    def correct() -> None:
        hand = Hand.objects.get(number=1).snapshot()
        game.edit_hand(1, {**hand, "opponent_points": 80}, version=loaded, by=user)

    before_hands_are_read(correct)

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": loaded, "request_key": "late", **held_form(declarer="0")},
        follow=True,
    )

    assert Hand.objects.get(number=1).opponent_points == 80  # the correction landed
    assert "Select a valid choice" not in text(response.text)
    assert "Someone else saved a change first" in text(response.text)
    assert Hand.objects.count() == 1


def test_it_lets_only_the_declaring_team_declare_the_next_hand(client, game):
    record(client, game)
    page = new_hand_page(client, game)

    response = record(client, game, declarer="1")

    assert "Jun cannot start this hand: Mei or Lin may start it." in text(response.text)
    assert Hand.objects.count() == 1
    # Under a bid either partner may start; the one whose turn it is comes ticked.
    assert re.findall(r'name="declarer" id="[^"]+"\s+value="(\d)"[^>]*?(checked)?>', page) == [
        ("0", ""),
        ("2", "checked"),
    ]


def test_the_first_hand_of_a_bid_game_may_be_started_by_anyone(client, game):
    page = new_hand_page(client, game)

    assert "Hand 1: whoever wins the bid starts it." in text(page)
    assert re.findall(r'name="declarer" id="[^"]+"\s+value="(\d)"', page) == ["0", "1", "2", "3"]


def test_an_edit_of_an_early_hand_changes_the_later_levels(client, game):
    record(client, game)
    record(client, game, declarer="2", opponent_points="40")
    game.refresh_from_db()

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {"version": game.version, **held_form(opponent_points="0")},
    )

    assert response.status_code == 302
    page = client.get(game.get_absolute_url()).text
    assert (
        "Hand 1 corrected. Mei and Lin are now at 6 instead of 4. The levels after hand 2 changed."
        in text(page)
    )
    assert "Opponents 0 points. In the 0 band, the declarers climb 3 levels" in text(page)
    assert texts(page, '[data-level="0-2"]') == ["6"]
    assert list(HandChange.objects.values_list("action", flat=True)) == [
        "edited",
        "recorded",
        "recorded",
    ]
    edit = HandChange.objects.first()
    assert edit.before["opponent_points"] == 45
    assert edit.after["opponent_points"] == 0
    history = client.get(f"/groups/{game.group_id}/games/{game.pk}/history/").text
    assert "Hand 1 edited" in text(history)
    assert "opponents' points" in texts(history, "dt")
    assert "45 → 0" in text(history)
    assert "kitty points</dt>" not in history.split("Hand 1 edited")[1].split("Hand 2")[0]


def test_the_history_names_the_declarer(client, game):
    record(client, game)

    history = client.get(f"/groups/{game.group_id}/games/{game.pk}/history/").text

    assert "declarer Mei" in text(history)
    assert "friends" not in texts(history, "dt")


def test_an_edit_that_breaks_a_later_hand_is_refused(client, game):
    record(client, game)
    record(client, game, declarer="2")
    game.refresh_from_db()

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {"version": game.version, **held_form(opponent_points="80")},
    )

    assert response.status_code == 200
    assert (
        "With this correction hand 2 no longer fits: Lin cannot start this hand: Jun or Hao may "
        "start it. Delete hand 2 first and record it again after the correction, or check "
        "the numbers of hand 1."
    ) in text(response.text)
    assert Hand.objects.get(number=1).opponent_points == 45


def test_undo_removes_the_last_hand_and_keeps_it_in_the_history(client, game):
    record(client, game)
    game.refresh_from_db()

    response = client.post(game.get_absolute_url() + "undo/", {"version": game.version})

    assert response.status_code == 302
    assert not Hand.objects.exists()
    undone = HandChange.objects.first()
    assert (undone.action, undone.before["opponent_points"]) == ("deleted", 45)
    history = client.get(f"/groups/{game.group_id}/games/{game.pk}/history/").text
    assert "Hand 1 deleted" in text(history)


def test_deleting_a_middle_hand_renumbers_the_later_ones(client, game):
    record(client, game)
    record(client, game, declarer="2", opponent_points="0")
    record(client, game, declarer="0", opponent_points="5")
    game.refresh_from_db()

    client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/2/delete/",
        {"version": game.version},
    )

    assert list(Hand.objects.values_list("number", "opponent_points")) == [(1, 45), (2, 5)]


def test_a_team_that_holds_at_ace_wins_and_no_more_hands_can_be_recorded(
    client, member, start_game
):
    game = start_game(levels=[Rank.ACE, Rank.TWO, Rank.ACE, Rank.TWO])
    record(client, game, opponent_points="30")

    page = client.get(game.get_absolute_url()).text
    assert "Mei & Lin win the game after 1 hand." in text(page)
    banner = page.split('alert-success fs-5 fw-bold" role="status"')[1].split("</div>\n")[0]
    assert (
        "Opponents 30 points. In the 5–35 band, the declarers hold at A and win the game"
        in text(banner)
    )
    assert "Record a hand" not in text(page)
    response = client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/")
    assert response.status_code == 302


def test_a_watcher_with_the_share_link_sees_the_game_without_logging_in(client, game):
    record(client, game)
    client.logout()

    page = client.get(f"/watch/{game.share_token}/")

    assert page.status_code == 200
    assert "Opponents 45 points. In the 40–75 band, the declarers climb 1 level" in text(page.text)
    assert "Record a hand" not in text(page.text)
    assert "Undo last hand" not in text(page.text)


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
    # Only what changed: the next poll, the levels, the new hand (see test_scoreboard.py).
    assert changed.text.lstrip().startswith('<div id="scoreboard-poll"')
    assert "declarers climb 1" in text(changed.text)


def test_it_hides_the_game_from_people_outside_the_group(client, game):
    outsider = User.objects.create_user("stranger", password="another long password")
    client.force_login(outsider)

    for url in (
        game.get_absolute_url(),
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        f"/groups/{game.group_id}/games/{game.pk}/history/",
    ):
        assert client.get(url).status_code == 404
    assert client.post(game.get_absolute_url() + "undo/").status_code == 404


@pytest.mark.parametrize("size", [4, 8])
def test_pages_use_a_fixed_number_of_queries_however_long_the_game(
    client, member, start_game, everyone, size, django_assert_max_num_queries, endless_hands
):
    game = start_game(seated=everyone[:size])
    # 300 hands where the opponents always take the deal at 80: the game never ends.
    if size == 4:
        endless_hands(game)
    else:
        # Eight partners take over at 160 with four decks: seats 0 and 1 take turns.
        Hand.objects.bulk_create(
            Hand(
                game=game,
                number=number,
                declarer=0 if number % 2 else 1,
                bid="none",
                trump="NT",
                kitty_points=0,
                opponent_points=160,
                last_trick_winner="declarers",
                last_trick_format="single",
                last_trick_cards=1,
            )
            for number in range(1, 301)
        )
    GameSummary.bring_up_to_date([game])  # as an import does for the hands it writes

    with django_assert_max_num_queries(7):
        assert client.get(game.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get(f"/groups/{game.group_id}/games/{game.pk}/hands/new/").status_code == 200
    client.logout()
    # A watcher: the game, its seats, its latest hands, the levels before them, their precedents.
    with django_assert_max_num_queries(5):
        assert client.get(f"/watch/{game.share_token}/").status_code == 200


@pytest.fixture
def open_ladder_game(member, start_game):
    return start_game("open-ladder", first_declarer=0)


def test_a_failed_throw_moves_points_under_rules_with_throws(client, open_ladder_game):
    game = open_ladder_game
    assert "Cards the declarers took back" in text(new_hand_page(client, game))

    record(client, game, opponent_points="60", declarer_cards_taken_back="3")

    saved = Hand.objects.get()
    assert saved.declarer_cards_taken_back == 3
    page = client.get(game.get_absolute_url()).text
    assert (
        "Opponents 60 + 30 for failed throws = 90 points. "
        "In the 80–115 band, the opponents take the deal"
    ) in text(page)


def test_the_hand_form_asks_about_failed_throws_only_where_throws_are_allowed(client, game):
    assert "Cards the declarers took back" not in text(new_hand_page(client, game))

    record(client, game, declarer_cards_taken_back="3")

    assert Hand.objects.get().declarer_cards_taken_back == 0


def test_the_quick_totals_are_the_lines_of_the_game_s_own_rules(client, open_ladder_game):
    page = new_hand_page(client, open_ladder_game)

    # open-ladder changes its result at 40, 80, 120, 160 and 200: 0, then both sides of each;
    # five fit the row, the rest wait with the card counter behind "More".
    row, more = page.split('id="point-counter"')
    assert re.findall(r'data-value="(\d+)"', row) == ["0", "35", "40", "75", "80"]
    assert re.findall(r'data-value="(\d+)"', more) == ["115", "120", "155", "160", "195", "200"]
    assert ">More</button>" in row


@pytest.mark.parametrize(
    ("rules", "more", "totals"),
    [
        ("standard", (), ["0", "35", "40", "75", "80"]),
        ("standard", ("Wei", "Yan"), ["0", "55", "60", "115", "120"]),  # 3 decks
        ("simplified", (), ["0", "75", "80"]),  # one line, and 0
    ],
)
def test_the_quick_totals_follow_the_rules_and_the_decks(
    client, member, group, players, start_game, rules, more, totals
):
    seated = players + [Player.objects.create(group=group, name=name) for name in more]
    game = start_game(rules, seated=seated, teams=Teams.FIND_A_FRIEND if more else Teams.PARTNERS)

    page = new_hand_page(client, game)

    assert re.findall(r'data-value="(\d+)"', page) == totals
    assert ">Count cards</button>" in page


def test_a_rotating_start_names_who_starts_and_why(client, open_ladder_game):
    game = open_ladder_game
    assert "Mei starts hand 1 at level 2." in text(client.get(game.get_absolute_url()).text)

    record(client, game, opponent_points="90")

    page = client.get(game.get_absolute_url()).text
    assert "Jun starts hand 2 at level 2: Jun and Hao take over." in text(page)
    assert re.findall(
        r'name="declarer" id="[^"]+"\s+value="(\d)"', new_hand_page(client, game)
    ) == ["1"]


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

    assert f'id="id_{field}_error"' in response.text


def test_a_bid_that_does_not_fit_the_trump_is_named_beside_the_trump(client, game):
    response = record(client, game, bid="small-jokers")

    trump = response.text.split(">Trump</legend>")[1].split("</fieldset>")[0]
    assert "Small jokers won the bid, so the hand has no trump, not ♥" in text(trump)


# Six players, three decks, find a friend.


def test_a_find_a_friend_scoreboard_has_a_ladder_for_every_player(client, six_friends):
    page = client.get(six_friends.get_absolute_url()).text

    levels = {seat.attrs["data-level"]: text(seat) for seat in elements(page, "[data-level]")}
    assert levels == dict.fromkeys(["0", "1", "2", "3", "4", "5"], "2")
    assert "6 players, 3 decks, find a friend · 1 card called" in text(page)
    assert "Hand 1: whoever wins the bid starts it." in text(page)


def test_a_friend_found_climbs_with_the_declarer(client, six_friends):
    # Three decks: 60–115 is a climb of 1 for the declarers.
    response = record(client, six_friends, friends=["4"], opponent_points="60")

    assert response.status_code == 302
    assert Hand.objects.get().friends == [4]
    page = client.get(six_friends.get_absolute_url()).text
    assert "Mei with Wei against Jun, Lin, Hao and Yan" in text(page)
    assert "Opponents 60 points. In the 60–115 band, the declarers climb 1 level" in text(page)
    assert "Mei 2 → 3 Jun 2 Lin 2 Hao 2 Wei 2 → 3 Yan 2" in text(page)
    # The declarers held: the next of them after Mei starts.
    assert "Wei starts hand 2 at level 3: the declarers held." in text(page)
    levels = {seat.attrs["data-level"]: text(seat) for seat in elements(page, "[data-level]")}
    assert [seat for seat, level in levels.items() if level == "3"] == ["0", "4"]


def test_a_declarer_whose_friend_never_came_climbs_one_more_for_holding_short_handed(
    client, six_friends
):
    record(client, six_friends, friends=["nobody"], opponent_points="60")

    page = client.get(six_friends.get_absolute_url()).text
    assert Hand.objects.get().friends == []
    assert "Mei alone against Jun, Lin, Hao, Wei and Yan" in text(page)
    assert (
        "Opponents 60 points. "
        "In the 60–115 band, the declarers climb 2 levels, one more for holding short-handed"
    ) in text(page)
    assert "Mei starts hand 2 at level 4: the declarers held." in text(page)


def test_a_declarer_who_played_their_own_called_card_plays_alone(client, six_friends):
    record(client, six_friends, friends=["0"], opponent_points="0")

    page = client.get(six_friends.get_absolute_url()).text
    assert Hand.objects.get().friends == [0]
    assert "Mei alone against" in text(page)
    assert (
        "Opponents 0 points. "
        "In the 0 band, the declarers climb 4 levels, one more for holding short-handed"
    ) in text(page)


def test_the_opponents_who_take_the_deal_all_climb_and_the_next_of_them_starts(
    client, member, start_game, everyone
):
    game = start_game(
        "open-ladder", seated=everyone[:6], teams=Teams.FIND_A_FRIEND, first_declarer=0
    )

    record(client, game, friends=["2"], opponent_points="180")

    page = scoreboard(client, game)
    # Three decks under open-ladder: 180–235 takes the deal and climbs 1.
    assert (
        "Opponents 180 points. In the 180–235 band, the opponents take the deal and climb 1 level"
    ) in text(page)
    assert "Mei 2 Jun 2 → 3 Lin 2 Hao 2 → 3 Wei 2 → 3 Yan 2 → 3" in text(page)
    assert "Jun starts hand 2 at level 3: the opponents took the deal." in text(page)


@pytest.mark.parametrize(
    ("friends", "message"),
    [
        ([], "Tap who played the called card, or Nobody."),
        (["nobody", "2"], "Nobody, or the friends who were found: not both."),
        (["2", "4"], "The declarer calls one card, so one friend at most is found, not 2."),
        (["9"], "Select a valid choice. 9 is not one of the available choices."),
    ],
)
def test_it_asks_who_the_friends_were_and_refuses_too_many(client, six_friends, friends, message):
    response = record(client, six_friends, friends=friends)

    assert response.status_code == 200
    assert message in text(response.text)
    assert not Hand.objects.exists()


def test_a_three_deck_hand_form_takes_the_table_s_kitty_and_points(client, six_friends):
    page = new_hand_page(client, six_friends)

    assert 'data-kitty="6" data-copies="3"' in page
    assert "The 6 buried cards" in text(page)
    assert re.search(r'name="opponent_points"[^>]* min="0" max="300"', page)
    assert re.search(r'name="kitty_points"[^>]* min="0" max="60"', page)
    assert re.findall(r'data-most="(\d+)"', page) == ["12", "12", "12"]
    assert "Who played the called card?" in text(page)

    record(
        client,
        six_friends,
        friends=["2"],
        kitty_cards="KD KD KD 5H 5H 5H",
        kitty_points="",
        opponent_points="250",
    )
    assert Hand.objects.get().kitty_points == 45


def test_a_find_a_friend_hand_can_be_corrected_to_another_friend(client, six_friends):
    record(client, six_friends, friends=["4"], opponent_points="60")
    six_friends.refresh_from_db()
    form = client.get(f"/groups/{six_friends.group_id}/games/{six_friends.pk}/hands/1/").text
    assert re.search(r'value="4"\s+autocomplete="off" checked', form)

    client.post(
        f"/groups/{six_friends.group_id}/games/{six_friends.pk}/hands/1/",
        {"version": six_friends.version, **held_form(friends=["3"], opponent_points="60")},
    )

    page = client.get(six_friends.get_absolute_url()).text
    assert "Hand 1 corrected. Hao is now at 3 instead of 2. Wei is now at 2 instead of 3." in text(
        page
    )
    history = client.get(f"/groups/{six_friends.group_id}/games/{six_friends.pk}/history/").text
    assert "Wei → Hao" in text(history)


# Eight players with four decks; pairs; a fixed trump.


def test_eight_partners_play_with_four_decks(client, member, start_game, everyone):
    game = start_game(seated=everyone)

    record(
        client, game, opponent_points="155", kitty_cards="KD KD KD KD 5H 5H 5H 5H", kitty_points=""
    )

    page = client.get(game.get_absolute_url()).text
    assert "8 players, 4 decks, partners" in text(page)
    assert "Mei, Lin, Wei & Zhao against Jun, Hao, Yan & Xiu" in text(page)
    # Four decks: 0 → +3, 5–75 → +2, 80–155 → +1, 160+ take over.
    assert (
        "Opponents 155 points (the declarers took the last trick and the kitty). In the 80–155 band"
    ) in text(page)
    assert "Mei, Lin, Wei & Zhao 2 → 3 Jun, Hao, Yan & Xiu 2" in text(page)


def test_pairs_play_the_declaring_pair_against_all_the_others(client, member, start_game, everyone):
    game = start_game(seated=everyone[:6], teams=Teams.PAIRS)

    record(client, game, opponent_points="120")

    page = client.get(game.get_absolute_url()).text
    assert texts(page, ".standing-name") == ["Mei & Hao", "Jun & Wei", "Lin & Yan"]
    assert "Mei & Hao against Jun, Lin, Wei and Yan" in text(page)
    # Only the pair of the next player after Mei climbs, and declares next.
    assert "Jun or Wei may start hand 2 at level 2 (Jun by turn): Jun and Wei take over." in text(
        page
    )


def test_a_fixed_trump_asks_no_bid_and_stores_the_hand_s_suit(client, member, start_game):
    game = start_game(trumps=TrumpRule(suits=(Suit.SPADES, Suit.HEARTS)), first_declarer=1)
    page = new_hand_page(client, game)
    assert 'name="bid"' not in page
    assert 'name="trump"' not in page
    assert "Trump is fixed for this hand: ♠. Nobody bids." in text(page)
    assert "Jun starts hand 1 at level 2." in text(page)

    record(client, game, declarer="1", bid="", trump="")
    record(client, game, declarer="3", bid="", trump="")

    assert list(Hand.objects.values_list("trump", "bid")) == [("S", ""), ("H", "")]
    scoreboard = client.get(game.get_absolute_url()).text
    assert "#2 · Hao at 3 · ♥" in text(scoreboard)
    assert "Hand 3's trump: ♠." in text(scoreboard)


def test_a_game_without_trump_plays_every_hand_without_trump(client, member, start_game):
    game = start_game(trumps=TrumpRule(no_trump=True), first_declarer=0)

    assert "This hand is played without trump. Nobody bids." in text(new_hand_page(client, game))
    record(client, game, trump="S")

    assert list(Hand.objects.values_list("trump", "bid")) == [("NT", "")]


def test_a_find_a_friend_game_is_watched_undone_and_audited(client, six_friends):
    record(client, six_friends, friends=["4"], opponent_points="60")
    six_friends.refresh_from_db()
    watched = client.get(f"/watch/{six_friends.share_token}/").text
    assert "Mei with Wei against Jun, Lin, Hao and Yan" in text(watched)

    client.post(six_friends.get_absolute_url() + "undo/", {"version": six_friends.version})

    assert not Hand.objects.exists()
    assert "Hand 1: whoever wins the bid starts it." in scoreboard(client, six_friends)
    history = text(
        client.get(f"/groups/{six_friends.group_id}/games/{six_friends.pk}/history/").text
    )
    assert "Hand 1 deleted" in text(history)
    assert "friends Wei" in text(history)
    assert "declarer Mei" in text(history)


SCRIPT = {"Kept-Hand": "true"}


def test_a_saved_hand_s_answer_says_which_hand_is_stored_and_so_does_a_resend(client, game):
    data = {"version": game.version, "request_key": "kept-on-the-phone", **held_form()}
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"

    first = client.post(url, data, headers=SCRIPT)
    resent = client.post(url, data, headers=SCRIPT)

    assert first["Hand-Saved"] == resent["Hand-Saved"] == "1"
    assert resent["HX-Redirect"] == game.get_absolute_url()
    assert Hand.objects.count() == 1
    game.refresh_from_db()
    corrected = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {"version": game.version, **held_form(opponent_points="50")},
        headers=SCRIPT,
    )
    assert corrected["Hand-Saved"] == "1"


def test_only_a_kept_hand_is_answered_as_one_not_any_htmx_request(client, game):
    data = {"version": game.version, "request_key": "not-kept", **held_form()}
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"

    response = client.post(url, data, headers={"HX-Request": "true"})

    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert "HX-Redirect" not in response


def test_a_hand_refused_for_what_it_says_is_answered_with_its_form_not_as_stored(client, game):
    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": game.version, "request_key": "k", **held_form(opponent_points="33")},
        headers=SCRIPT,
    )

    assert response.status_code == 422
    assert "Hand-Saved" not in response
    assert "Hand-Unstorable" not in response
    assert 'id="hand-page"' in response.text


def test_a_hand_for_a_game_that_is_over_is_answered_as_unstorable_in_words(
    client, member, start_game
):
    game = start_game(levels=[Rank.ACE, Rank.TWO, Rank.ACE, Rank.TWO])
    record(client, game, opponent_points="30")
    game.refresh_from_db()

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
        {"version": game.version, "request_key": "late", **held_form()},
        headers=SCRIPT,
    )

    assert (response.status_code, response["Hand-Unstorable"]) == (409, "true")
    assert response.text == "The game is over: no more hands to record."
    assert Hand.objects.count() == 1


def test_a_hand_for_a_deleted_game_or_a_group_left_is_answered_as_unstorable_in_words(
    client, game, user, outsider
):
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"
    data = {"version": game.version, "request_key": "late", **held_form()}
    client.force_login(outsider)

    outside = client.post(url, data, headers=SCRIPT)
    plain = client.post(url, data)
    client.force_login(user)
    game.delete()
    gone = client.post(url, data, headers=SCRIPT)
    correction = client.post(url.replace("new", "1"), data, headers=SCRIPT)

    assert (outside.status_code, outside["Hand-Unstorable"]) == (403, "true")
    assert outside.text == "This account is no longer a member of the game's group."
    assert plain.status_code == 404  # a plain post is told nothing more
    assert (gone.status_code, gone.text) == (404, "The game was deleted.")
    assert correction.text == "The game was deleted."


def test_a_correction_of_a_deleted_hand_is_answered_as_unstorable_in_words(client, game):
    record(client, game)
    game.refresh_from_db()

    response = client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/2/",
        {"version": game.version, **held_form()},
        headers=SCRIPT,
    )

    assert (response.status_code, response.text) == (409, "Hand 2 was deleted since.")


@pytest.mark.parametrize("language", ["en", "fr", "es", "pt-br", "zh-hans"])
def test_the_history_speaks_the_players_words_and_names_in_every_language(
    client, game, players, user, language
):
    # Mei's account is Mei on the roster; her username is not what the table calls her.
    user.username = "mei5004"
    user.save()
    players[0].claim(user)
    record(client, game, kitty_cards="KS TH 3C 4C 5C 6C 7C 8C", bid="one")
    game.refresh_from_db()
    client.post(
        f"/groups/{game.group_id}/games/{game.pk}/hands/1/",
        {
            "version": game.version,
            **held_form(last_trick_winner="opponents", last_trick_format="pair", bid="pair"),
            "kitty_cards": "KS TH 3C 4C 5C 6C 7C 9C",
        },
    )
    client.cookies["django_language"] = language

    history = client.get(f"/groups/{game.group_id}/games/{game.pk}/history/").text

    # What each change says, and who made it (the line above it: "Mei · <when>").
    shown = " ".join(texts(history, "dd") + texts(history, "div.text-body-secondary"))
    raw = ["one", "declarers", "opponents", "single", "KS", "TH", "mei5004"]
    assert [value for value in raw if re.search(rf"\b{value}\b", shown)] == []
    assert "K♠ 10♥ 3♣" in shown
    assert "Mei" in shown


@pytest.mark.django_db(transaction=True)
def test_a_hand_stored_without_trump_before_the_migration_reads_no_trump_after_it(member, game):
    record(member, game, bid="small-jokers", trump="NT")
    executor = MigrationExecutor(connection)
    before = [("companion", "0023_portuguese_is_brazilian")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    assert old.get_model("companion", "Hand").objects.get().trump == ""
    assert old.get_model("companion", "HandChange").objects.get().after["trump"] == ""

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    hand = Hand.objects.get()
    assert (hand.trump, hand.result.trump, hand.bid) == ("NT", None, "small-jokers")
    assert HandChange.objects.get().after["trump"] == "NT"
    assert "No trump" in scoreboard(member, game)
