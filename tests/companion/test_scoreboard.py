"""The scoreboard as a long game makes it: its latest hands on the page, earlier ones a page at a
time, and watching phones sent only what changed since the version they show."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from companion.models import Game, GameSummary, Group, Hand
from companion.scoreboard import HANDS_SHOWN
from scoring import Rank
from scoring.cli import judge_request
from tests.reading import elements, text

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def held(number: int, declarer: int, climbs: bool) -> dict:
    """Hand ``number``'s fields: the declarers hold to 45 and climb, or the opponents reach 80
    and take the deal without climbing; nobody bids, so the hand has no trump."""
    return {
        "declarer": declarer,
        "bid": "none",
        "trump": "NT",
        "kitty_points": 0,
        "opponent_points": 45 if climbs else 80,
        "last_trick_winner": "declarers",
        "last_trick_format": "single",
        "last_trick_cards": 1,
    }


def play(game: Game, user, count: int) -> Game:
    """Record ``count`` hands as a phone does: every seventh the declarers climb (below Q), the
    others the deal passes; each change raises the game's version."""
    for _ in range(count):
        game.refresh_from_db()
        state = game.scored().state
        number = state.number
        climbs = number % 7 == 0 and state.levels[state.next_declarer] < Rank.QUEEN
        game.record_hand(
            held(number, state.next_declarer, climbs),
            version=game.version,
            request_key="",
            by=user,
        )
    game.refresh_from_db()
    return game


@pytest.fixture
def long_game(member, start_game, user):
    """Twenty hands of Mei and Lin against Jun and Hao, Mei starting."""
    return play(start_game(first_declarer=0), user, 20)


def watch(client, game: Game, **query) -> object:
    return client.get(f"/watch/{game.share_token}/", query, headers=HTMX)


def rows(page: str) -> list[int]:
    return [
        int(number) for number in re.findall(r'<li class="hand-row[^"]*" id="hand-(\d+)"', page)
    ]


def swapped(page: str) -> list[int]:
    """The rows a poll swaps in for those the phone shows."""
    return [int(n) for n in re.findall(r'id="hand-(\d+)" hx-swap-oob="true"', page)]


def added(page: str) -> list[int]:
    """The rows a poll puts on top of those the phone shows."""
    wrappers = elements(page, 'ol[hx-swap-oob="afterbegin:#hands"]')
    found = [row for wrapper in wrappers for row in elements(wrapper, "li.hand-row")]
    return [int(row.attrs["id"].removeprefix("hand-")) for row in found]


def removed(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'id="hand-(\d+)" hx-swap-oob="delete"', page)]


def test_it_shows_the_latest_hands_and_a_link_to_the_earlier_ones(client, long_game):
    page = client.get(long_game.get_absolute_url()).text

    assert rows(page) == list(range(20, 20 - HANDS_SHOWN, -1))
    assert "Show hands 1 to 8" in text(page)
    assert f'href="{long_game.get_absolute_url()}?before=9"' in page


def test_the_earlier_hands_open_without_javascript(client, long_game):
    page = client.get(long_game.get_absolute_url(), {"before": 9}).text

    assert rows(page) == list(range(8, 0, -1))
    assert "Back to the scoreboard" in text(page)
    assert "Show hand" not in page  # hand 1 is on this page: nothing earlier
    assert "#1 · Mei at 2 · No trump" in text(page)
    assert "Opponents 80 points. In the 80+ band, the opponents take the deal" in text(page)
    assert "scoreboard-poll" not in page  # a page of the past: nothing to watch


def test_htmx_brings_the_earlier_hands_into_the_list(client, long_game):
    response = client.get(long_game.get_absolute_url(), {"before": 9}, headers=HTMX)

    assert rows(response.text) == list(range(8, 0, -1))
    assert "<html" not in response.text
    # Polls now send rows from hand 1 on: the phone shows them.
    assert re.search(r'id="hands-from" name="from" value="1" hx-swap-oob="true"', response.text)


def test_it_pages_back_through_a_game_longer_than_two_pages(client, member, start_game, user):
    game = play(start_game(first_declarer=0), user, 30)

    first = client.get(game.get_absolute_url(), {"before": 19}, headers=HTMX).text

    assert rows(first) == list(range(18, 6, -1))
    assert "Show hands 1 to 6" in text(first)
    assert "?before=7" in first


def test_the_rows_read_from_the_stored_summary_say_what_a_replay_says(
    client, member, start_game, user
):
    game = play(start_game(first_declarer=0), user, 30)
    url = game.get_absolute_url()
    resumed = [client.get(url).text, client.get(url, {"before": 19}).text]

    GameSummary.objects.filter(game=game).delete()  # no summary: every hand is played again
    caches["scoreboards"].clear()  # nor the scoreboard kept for this version
    replayed = [client.get(url).text, client.get(url, {"before": 19}).text]

    def board(page: str) -> str:
        return re.sub(r"[A-Za-z0-9]{64}", "(a CSRF token, masked afresh each time)", page)

    assert [board(page) for page in resumed] == [board(page) for page in replayed]
    assert "The level race from hand 19 to hand 30" in text(resumed[0])


@pytest.mark.parametrize("watching", [False, True])
def test_the_page_s_queries_do_not_grow_with_the_game(
    client, member, start_game, user, endless_hands, watching
):
    if watching:
        client.logout()
    counts = []
    for length in (30, 300):
        game = start_game()
        endless_hands(game, length)
        GameSummary.bring_up_to_date([game])  # as an import does for the hands it writes
        url = f"/watch/{game.share_token}/" if watching else game.get_absolute_url()
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200
        assert rows(page.text)[0] == length
        counts.append(len(queries))

    # The game, its seats, the latest hands, the levels before them, their precedents (and the
    # member's session and account).
    assert counts[0] == counts[1] == (5 if watching else 7)


def test_the_next_viewer_of_a_version_gets_the_board_made_for_the_first(
    client, member, long_game, django_assert_num_queries
):
    client.get(long_game.get_absolute_url())

    # The member's session and account, and the game: the board is not made again.
    with django_assert_num_queries(3):
        page = client.get(long_game.get_absolute_url()).text
    client.logout()
    with django_assert_num_queries(1):
        watched = client.get(f"/watch/{long_game.share_token}/").text

    assert rows(page) == rows(watched) == list(range(20, 20 - HANDS_SHOWN, -1))
    assert page.count(">Edit</a>") == HANDS_SHOWN
    assert "Undo hand 20?" in page
    # Nothing of the scorekeeper's reaches the watcher: no links to correct, no forms but the
    # language switch every page has.
    assert "Edit" not in watched
    assert "Undo" not in watched
    assert re.findall(r'<form[^>]* action="([^"]*)"', watched) == ["/i18n/setlang/"]


def test_a_page_seen_again_gives_its_forms_a_csrf_token_of_its_own(user, long_game):
    phone = Client(enforce_csrf_checks=True)
    phone.force_login(user)
    url = long_game.get_absolute_url()
    first, again = (phone.get(url).text for _ in range(2))

    tokens = [
        set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page))
        for page in (first, again)
    ]
    # One token for every form of a page, masked afresh for each.
    assert [len(found) for found in tokens] == [1, 1]
    assert tokens[0] != tokens[1]
    # The page seen again, its scoreboard kept, takes the table's tap on a trump.
    tapped = phone.post(
        f"/groups/{long_game.group_id}/games/{long_game.pk}/trump/",
        {"hand": "21", "trump": "S", "csrfmiddlewaretoken": tokens[1].pop()},
    )
    assert tapped.status_code == 302
    long_game.refresh_from_db()
    assert long_game.declared_trump(21) == "S"


def test_a_renamed_group_heads_its_game_page_at_once(client, member, group, long_game):
    client.get(long_game.get_absolute_url())

    Group.objects.filter(pk=group.pk).update(name="Friday Tractor")

    assert "Friday Tractor" in client.get(long_game.get_absolute_url()).text


def test_a_change_makes_the_board_again(client, long_game, user):
    client.get(long_game.get_absolute_url())
    edited = held(20, long_game.hands.get(number=20).declarer, False) | {"opponent_points": 100}
    long_game.edit_hand(20, edited, version=long_game.version, by=user)

    page = client.get(long_game.get_absolute_url()).text

    assert "Opponents 100 points. In the 80+ band, the opponents take the deal" in text(page)


def test_a_poll_with_nothing_new_costs_one_query_and_sends_nothing(
    client, long_game, django_assert_num_queries
):
    with django_assert_num_queries(1):
        response = watch(client, long_game, since=long_game.version)

    assert response.status_code == 204
    assert response.content == b""


def test_a_poll_after_one_new_hand_sends_that_hand_and_the_levels(client, long_game, user):
    since = long_game.version
    play(long_game, user, 1)

    response = watch(client, long_game, since=since, **{"from": 9})

    assert response.status_code == 200
    assert added(response.text) == [21]
    assert swapped(response.text) == []
    assert 'id="scoreboard-summary" hx-swap-oob="true"' in response.text
    assert 'data-level="0-2"' in response.text
    assert f"since={long_game.version}" in response.text  # the next poll asks from here
    assert 'id="scoreboard"' not in response.text  # not the whole board
    assert len(response.content) < 10_000  # a few KB, however long the game


def test_a_poll_after_an_edit_sends_the_rows_from_the_edited_hand_on(client, long_game, user):
    since = long_game.version
    # Hand 3's opponents had 100, not 80: they still take the deal, and every later row is sent.
    edited = held(3, long_game.hands.get(number=3).declarer, False) | {"opponent_points": 100}
    long_game.edit_hand(3, edited, version=since, by=user)

    every_row = watch(client, long_game, since=since)
    shown_rows = watch(client, long_game, since=since, **{"from": 9})

    assert swapped(every_row.text) == list(range(3, 21))
    assert added(every_row.text) == removed(every_row.text) == []
    assert "Opponents 100 points. In the 80+ band, the opponents take the deal" in text(
        every_row.text
    )
    assert 'id="scoreboard-summary" hx-swap-oob="true"' in every_row.text
    assert swapped(shown_rows.text) == list(range(9, 21))


def test_a_poll_after_an_undo_removes_the_row(client, long_game, user):
    since = long_game.version
    long_game.delete_hand(20, version=since, by=user)

    response = watch(client, long_game, since=since, **{"from": 9})

    assert removed(response.text) == [20]
    assert swapped(response.text) == added(response.text) == []
    assert "Undo hand 19?" not in response.text  # a watcher has no undo
    assert Hand.objects.filter(game=long_game).count() == 19


def test_a_poll_after_deleting_a_middle_hand_renumbers_the_rows_after_it(
    client, member, start_game, user
):
    game = start_game(first_declarer=0)
    # Mei and Lin hold five times, either of them starting: any hand may go.
    for number, declarer in enumerate((0, 2, 0, 2, 0), start=1):
        game.record_hand(
            held(number, declarer, True), version=game.version, request_key="", by=user
        )
    since = game.version
    game.delete_hand(2, version=since, by=user)

    response = watch(client, game, since=since)

    assert swapped(response.text) == [2, 3, 4]
    assert removed(response.text) == [5]
    assert "#2 · Mei at 3 · No trump" in text(response.text)  # hand 3 as it was, now the second


def test_a_scorekeeper_s_poll_sends_the_undo_for_the_new_last_hand(client, long_game, user):
    since = long_game.version
    play(long_game, user, 1)

    response = client.get(long_game.get_absolute_url(), {"since": since}, headers=HTMX)

    assert added(response.text) == [21]
    assert "Undo hand 21?" in response.text
    assert f'name="version" value="{long_game.version}"' in response.text


def test_a_new_precedent_sends_the_whole_scoreboard(client, member, long_game, user):
    since = long_game.version
    request = {"level": "2", "trump": "S", "plays": [["Mei", ["AS"]]]}
    long_game.add_dispute(20, request, judge_request(request), by=user)

    response = watch(client, long_game, since=since)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#scoreboard"
    assert response["HX-Reswap"] == "outerHTML"
    assert response.text.lstrip().startswith('<section id="scoreboard"')
    assert "1 precedent" in text(response.text)
    assert rows(response.text)[0] == 20


@pytest.mark.parametrize("since", ["nonsense", "-1", "99999"])
def test_a_phone_at_a_version_the_game_never_had_gets_the_whole_scoreboard(
    client, long_game, since
):
    response = watch(client, long_game, since=since)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#scoreboard"
    assert rows(response.text) == list(range(20, 20 - HANDS_SHOWN, -1))


def test_a_phone_far_behind_gets_the_whole_scoreboard(client, member, start_game, user):
    game = start_game(first_declarer=0)
    play(game, user, 45)

    response = watch(client, game, since=1)

    assert response["HX-Retarget"] == "#scoreboard"


def test_the_watch_page_says_what_it_is(client, long_game):
    client.logout()

    page = client.get(f"/watch/{long_game.share_token}/").text

    assert (
        "The live scoreboard of Thursday Tractor's game. It is read-only and updates by itself."
        in page
    )
    assert "Edit" not in page
    assert f'hx-get="/watch/{long_game.share_token}/?since={long_game.version}"' in page
    assert 'hx-trigger="every 1s"' in page
    assert "scoreboard.js" in page


def test_the_scorekeeper_s_page_is_not_called_read_only(client, long_game):
    page = client.get(long_game.get_absolute_url()).text

    assert "read-only" not in page.split('id="share"')[0]
    assert 'data-offline="Offline — last updated at {time}.' in page
