"""A player's page: their games, hands, partners and rating, on games counted by hand.

Seats are numbered in play order from 0.

Game 1, standard, Mei (0) and Lin (2) from Q against Jun (1) and Hao (3) from 2; Mei and Lin win:
  Mei 0 (to A), Lin 80 (deal lost), Jun 30 + kitty 10 × 2 = 50, Hao 75, Hao 120 (deal back),
  Mei 40 (win at A)
Game 2, standard, Mei (0) and Jun (2) from 2 against Lin (1) and Hao (3) from K; Lin and Hao win:
  Lin 0 (to A), Hao 80 (deal lost), Mei 100 + kitty 20 × 2 = 140 (deal back), Lin 35 (win at A)
Game 3, kawu, Ed (0) and Hao (2) against Mei (1) and Jun (3), Mei starts; unfinished:
  Mei 45, Jun 120

Find-a-friend, standard, Mei (0), Jun (1), Lin (2), Hao (3) and Ed (4) from 2, one card called;
unfinished:
  1. Mei declares, Lin is found; 40: Mei and Lin climb to 3
  2. Lin declares, nobody is found; 35: Lin climbs 2 + 1 to 6
  3. Lin declares, Mei is found; 80: Jun, Hao and Ed take the deal
  4. Hao declares, Mei is found; 40: Hao and Mei climb 1
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone
from hands import QUEENS_WIN, QUEENS_WIN_LEVELS, SCOOPED, result
from history_games import VARIANTS, make_games, save_game, seated

from companion.models import Group, Player
from companion.ratings import MODEL
from scoring.table import Teams
from tests.reading import rows, text, texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(group, cast):
    start = timezone.now() - timedelta(days=30)
    return [
        save_game(
            group,
            seated(cast, "Mei Jun Lin Hao"),
            "standard",
            list(QUEENS_WIN),
            levels=QUEENS_WIN_LEVELS,
            created=start,
        ),
        save_game(
            group,
            seated(cast, "Mei Lin Jun Hao"),
            "standard",
            [result(1, 0), result(3, 80), result(0, 100, 20, SCOOPED), result(1, 35)],
            levels=("2", "K", "2", "K"),
            created=start + timedelta(days=7),
        ),
        save_game(
            group,
            seated(cast, "Ed Mei Hao Jun"),
            "kawu",
            [result(1, 45), result(3, 120)],
            created=start + timedelta(days=14),
            first_declarer=1,
        ),
    ]


@pytest.fixture
def friendly(group, cast):
    return save_game(
        group,
        seated(cast, "Mei Jun Lin Hao Ed"),
        "standard",
        [
            result(0, 40, friends=(2,)),
            result(2, 35),
            result(2, 80, friends=(0,)),
            result(3, 40, friends=(0,)),
        ],
        teams=Teams.FIND_A_FRIEND,
    )


def page_of(member, group, player) -> str:
    return member.get(f"/groups/{group.pk}/players/{player.pk}/").text


def stat(page: str, element_id: str) -> str:
    """The text of the element with this id (a number or a rate)."""
    return text(page, f"#{element_id}")


def test_it_shows_meis_games_and_win_rate(member, group, cast, games):
    page = page_of(member, group, cast["Mei"])

    assert texts(page, "h1") == ["Mei"]
    assert "Played 3" in text(page) and "Finished 2" in text(page)
    assert stat(page, "win-rate") == "50%"


def test_it_shows_how_often_mei_holds_as_declarers_and_at_each_level(member, group, cast, games):
    page = page_of(member, group, cast["Mei"])

    # Declared: game 1 hands 1, 2, 6; game 2 hand 3; game 3 hands 1, 2: held 3 of 6.
    assert stat(page, "hold-rate") == "50%"
    assert "Opponents' points 70.8" in text(page)  # (0 + 80 + 40 + 140 + 45 + 120) / 6
    assert ["A", "2", "1", "50%"] in rows(page)
    assert "At A: 2 hands declared; stuck there (not held): 1." in text(page)


def test_it_shows_meis_take_overs_scoops_big_wins_and_near_misses(member, group, cast, games):
    page = page_of(member, group, cast["Mei"])

    # Defended: game 1 hands 3, 4, 5 and game 2 hands 1, 2, 4: took the deal twice.
    assert stat(page, "take-over-rate") == "33%"
    assert "Points scored 60.0" in text(page)
    assert stat(page, "scoops") == "1" and "Scoop bonus 20" in text(page)
    assert "Kitty scooped 1" in text(page) and "Bonus given 40" in text(page)
    assert stat(page, "big-wins") == "1"
    assert stat(page, "near-declaring") == "1"  # lost the deal at 80
    assert stat(page, "near-defending") == "1"  # stopped at 75


def test_it_names_meis_best_and_worst_partners_and_toughest_opponent(member, group, cast, games):
    page = page_of(member, group, cast["Mei"])

    assert "Best partner: Lin · 1 of 1 game won" in text(page)
    assert "Worst partner: Jun · 0 of 1 game won" in text(page)
    assert "Toughest opponent: Lin · 0 of 1 game won" in text(page)


def test_a_player_of_fixed_teams_only_sees_no_find_a_friend_numbers(member, group, cast, games):
    page = page_of(member, group, cast["Mei"])

    assert 'id="friend-heading"' not in page


def test_it_splits_meis_find_a_friend_hands_into_started_and_befriended(
    member, group, cast, friendly
):
    page = page_of(member, group, cast["Mei"])

    assert "Hands started 1" in text(page) and stat(page, "started-hold-rate") == "100%"
    assert "Hands as a friend 2" in text(page) and stat(page, "friend-hold-rate") == "50%"
    assert (
        "Called: another declarer's called card found them in 2 of the 3 hands someone else "
        "started (67%)."
    ) in text(page)
    assert stat(page, "hold-rate") == "67%"  # 2 of the 3 hands declared, either way


def test_a_player_never_found_by_a_called_card_is_called_in_none(member, group, cast, friendly):
    page = page_of(member, group, cast["Jun"])

    assert "Hands started 0" in text(page) and stat(page, "started-hold-rate") == "–"
    assert "found them in 0 of the 4 hands someone else started (0%)." in text(page)


def test_a_find_a_friend_game_has_no_partners_only_opponents(member, group, cast):
    save_game(
        group,
        seated(cast, "Mei Jun Lin Hao Ed"),
        "standard",
        [result(0, 40)],
        levels=("A", "2", "2", "2", "2"),
        teams=Teams.FIND_A_FRIEND,
    )

    page = page_of(member, group, cast["Mei"])

    assert "Find-a-friend games have no partners" in text(page)
    assert "Best partner" not in text(page)
    assert "Toughest opponent: Jun · 1 of 1 game won" in text(page)
    assert stat(page, "win-rate") == "100%"


def test_it_shows_meis_rating_and_its_history(member, group, cast, games):
    mei, lin, jun, hao = (MODEL.rating() for _ in range(4))
    [[mei, lin], [jun, hao]] = MODEL.rate([[mei, lin], [jun, hao]], ranks=[0, 1])
    [[mei, jun], [lin, hao]] = MODEL.rate([[mei, jun], [lin, hao]], ranks=[1, 0])

    page = page_of(member, group, cast["Mei"])

    assert stat(page, "rating") == f"{mei.ordinal():.1f}"
    assert "Rating after each finished game" in text(page)
    assert page.count("<circle") >= 2


def test_a_player_without_a_finished_game_has_no_rating_yet(member, group, cast, games):
    page = page_of(member, group, cast["Ed"])

    assert "No finished game yet: no rating." in text(page)
    assert "Played 1" in text(page)
    assert stat(page, "win-rate") == "–"


def test_the_history_links_to_each_players_page(member, group, cast, games):
    page = member.get(f"/groups/{group.pk}/history/").text

    for name in ("Mei", "Jun", "Lin", "Hao", "Ed"):
        assert f"/groups/{group.pk}/players/{cast[name].pk}/" in page


def test_a_player_of_another_group_is_not_found(member, group, user, cast, games):
    other = Group.objects.create(name="Sunday Tractor")
    stranger = Player.objects.create(group=other, name="Zoe")

    assert member.get(f"/groups/{group.pk}/players/{stranger.pk}/").status_code == 404
    assert member.get(f"/groups/{other.pk}/players/{stranger.pk}/").status_code == 404


def test_the_player_page_runs_a_fixed_number_of_queries(
    member, group, cast, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        make_games(group, list(cast.values()), 36, seed=7, tables=VARIANTS)
    cache.clear()
    url = f"/groups/{group.pk}/players/{cast['Mei'].pk}/"

    # The session, the account, the group, the roster, the players' lines, the rating's months,
    # the latest games, their summaries and their seats: never every game.
    with django_assert_max_num_queries(9):
        assert member.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        make_games(group, list(cast.values()), 4, seed=8, tables=VARIANTS)
    with django_assert_max_num_queries(9):
        assert member.get(url).status_code == 200
