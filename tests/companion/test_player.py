"""A player's page: their games, hands, partners and rating, on three games counted by hand.

Game 1, standard, Mei (N) and Lin (S) from Q against Jun (E) and Hao (W) from 2; Mei and Lin win:
  N 0 (to A), S 80 (deal lost), E 30 + kitty 10 × 2 = 50, W 75, W 120 (deal back), N 40 (win at A)
Game 2, standard, Mei (N) and Jun (S) from 2 against Lin (E) and Hao (W) from K; Lin and Hao win:
  E 0 (to A), W 80 (deal lost), N 100 + kitty 20 × 2 = 140 (deal back), E 35 (win at A)
Game 3, kawu, Ed (N) and Hao (S) against Mei (E) and Jun (W), unfinished: E 45, W 120
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from history_games import make_games, save_game

from companion.models import Group, Player
from companion.ratings import MODEL
from scoring import Format, LastTrick, Side
from scoring.game import HandResult, Seat

pytestmark = pytest.mark.django_db

HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
SCOOPED = LastTrick(Side.OPPONENTS, Format.SINGLE, 1)


def hand(declarer: str, points: int, kitty: int = 0, last: LastTrick = HELD) -> HandResult:
    return HandResult(Seat(declarer), points, kitty, last)


@pytest.fixture
def cast(group, players) -> dict[str, Player]:
    named = {player.name: player for player in players.values()}
    named["Ed"] = Player.objects.create(group=group, name="Ed")
    return named


@pytest.fixture
def games(group, cast):
    def seats(north, east, south, west):
        return {"north": cast[north], "east": cast[east], "south": cast[south], "west": cast[west]}

    start = timezone.now() - timedelta(days=30)
    return [
        save_game(
            group,
            seats("Mei", "Jun", "Lin", "Hao"),
            "standard",
            [
                hand("N", 0),
                hand("S", 80),
                hand("E", 30, 10, SCOOPED),
                hand("W", 75),
                hand("W", 120),
                hand("N", 40),
            ],
            levels=("Q", "2"),
            created=start,
        ),
        save_game(
            group,
            seats("Mei", "Lin", "Jun", "Hao"),
            "standard",
            [hand("E", 0), hand("W", 80), hand("N", 100, 20, SCOOPED), hand("E", 35)],
            levels=("2", "K"),
            created=start + timedelta(days=7),
        ),
        save_game(
            group,
            seats("Ed", "Mei", "Hao", "Jun"),
            "kawu",
            [hand("E", 45), hand("W", 120)],
            created=start + timedelta(days=14),
        ),
    ]


def text(response) -> str:
    return " ".join(response.text.split())


def stat(page: str, element_id: str) -> str:
    """The text of the element with this id (a number or a rate)."""
    start = page.index(f'id="{element_id}">') + len(f'id="{element_id}">')
    return page[start : page.index("<", start)].strip()


def test_it_shows_meis_games_and_win_rate(member, group, cast, games):
    page = text(member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/"))

    assert '<h1 class="h3">Mei</h1>' in page
    assert "Played</dt><dd>3" in page and "Finished</dt><dd>2" in page
    assert stat(page, "win-rate") == "50%"


def test_it_shows_how_often_mei_holds_as_declarers_and_at_each_level(member, group, cast, games):
    page = text(member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/"))

    # Declared: game 1 hands 1, 2, 6; game 2 hand 3; game 3 hands 1, 2: held 3 of 6.
    assert stat(page, "hold-rate") == "50%"
    assert "Opponents' points</dt><dd>70.8" in page  # (0 + 80 + 40 + 140 + 45 + 120) / 6
    assert '<td>A</td><td class="text-end">2</td><td class="text-end">1</td>' in page
    assert "At A: 2 hands declared; stuck there (not held): 1." in page


def test_it_shows_meis_take_overs_scoops_big_wins_and_near_misses(member, group, cast, games):
    page = text(member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/"))

    # Defended: game 1 hands 3, 4, 5 and game 2 hands 1, 2, 4: took the deal twice.
    assert stat(page, "take-over-rate") == "33%"
    assert "Points scored</dt><dd>60.0" in page
    assert stat(page, "scoops") == "1" and "Scoop bonus</dt><dd>20" in page
    assert "Kitty scooped</dt><dd>1" in page and "Bonus given</dt><dd>40" in page
    assert stat(page, "big-wins") == "1"
    assert stat(page, "near-declaring") == "1"  # lost the deal at 80
    assert stat(page, "near-defending") == "1"  # stopped at 75


def test_it_names_meis_best_and_worst_partners_and_toughest_opponent(member, group, cast, games):
    page = text(member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/"))

    assert 'Best partner: <span class="fw-semibold">Lin</span> · 1 of 1 won' in page
    assert 'Worst partner: <span class="fw-semibold">Jun</span> · 0 of 1 won' in page
    assert 'Toughest opponent: <span class="fw-semibold">Lin</span> · 0 of 1 won' in page


def test_it_shows_meis_rating_and_its_history(member, group, cast, games):
    mei, lin, jun, hao = (MODEL.rating() for _ in range(4))
    [[mei, lin], [jun, hao]] = MODEL.rate([[mei, lin], [jun, hao]], ranks=[0, 1])
    [[mei, jun], [lin, hao]] = MODEL.rate([[mei, jun], [lin, hao]], ranks=[1, 0])

    page = text(member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/"))

    assert stat(page, "rating") == f"{mei.ordinal():.1f}"
    assert "Rating after each finished game" in page
    assert page.count("<circle") >= 2


def test_a_player_without_a_finished_game_has_no_rating_yet(member, group, cast, games):
    page = text(member.get(f"/groups/{group.pk}/players/{cast['Ed'].pk}/"))

    assert "No finished game yet: no rating." in page
    assert "Played</dt><dd>1" in page
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
    member, group, cast, django_assert_max_num_queries
):
    make_games(group, list(cast.values()), 36, seed=7)
    url = f"/groups/{group.pk}/players/{cast['Mei'].pk}/"

    with django_assert_max_num_queries(8):
        assert member.get(url).status_code == 200
    with django_assert_max_num_queries(5):
        assert member.get(url).status_code == 200
