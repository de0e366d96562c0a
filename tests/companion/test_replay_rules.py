"""Replaying a game's hands under other rules, or with another number of decks: how it would
have ended, or where it stops."""

from __future__ import annotations

import pytest
from hands import QUEENS_WIN, QUEENS_WIN_LEVELS, result
from history_games import save_game

from companion.models import Group, Membership, Player, ScoringTable
from scoring import get_rules
from scoring.table import Teams
from tests.reading import text, texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(group, players):
    """Mei and Lin, from Q, beat Jun and Hao under the standard rules in six hands."""
    return save_game(
        group,
        players,
        "standard",
        list(QUEENS_WIN),
        levels=QUEENS_WIN_LEVELS,
    )


@pytest.fixture
def five(group, players) -> list[Player]:
    return [*players, Player.objects.create(group=group, name="Ed")]


@pytest.fixture
def friendly(group, five):
    """Five find a friend: Mei finds Lin, then Lin finds nobody; unfinished."""
    return save_game(
        group,
        five,
        "standard",
        [result(0, 40, friends=(2,)), result(2, 35)],
        teams=Teams.FIND_A_FRIEND,
    )


def replay(client, game, rules: str | None = None, decks: str | None = None):
    data = {"rules": rules} if rules else {}
    if decks:
        data["decks"] = decks
    response = client.get(f"/groups/{game.group_id}/games/{game.pk}/replay/", data)
    return response, response.text


def test_it_offers_the_presets_the_groups_tables_and_other_decks(member, game, group):
    table = ScoringTable.objects.create(
        group=group, rules_json={**get_rules("simplified").to_json(), "name": "house"}
    )

    response, page = replay(member, game)

    assert response.status_code == 200
    assert "Mei & Lin v Jun & Hao" in text(page)
    assert "Played under Standard with 2 decks: 6 hands. Mei & Lin won." in text(page)
    for name in ("standard", "open-ladder", "kawu", "simplified"):
        assert f'<option value="{name}"' in page
    assert f'<option value="table-{table.pk}">house</option>' in page
    assert '<option value="" selected>2, as played</option>' in page
    assert '<option value="3">3</option>' in page and '<option value="4">4</option>' in page
    assert 'id="replay"' not in page


def test_the_same_hands_under_simplified_rules_end_the_same_way(member, game):
    _response, page = replay(member, game, "simplified")

    assert "Under Simplified with 2 decks" in text(page)
    assert "Mei & Lin would have won after 6 hands." in text(page)
    assert "#1 · Mei & Lin at Q" in text(page)
    assert "Opponents 0 points. In the 0–75 band, the declarers climb 1 level" in text(page)
    assert "Mei & Lin K · Jun & Hao 2 (as played: Mei & Lin A · Jun & Hao 2)" in text(page)
    assert 'id="replay-stopped"' not in page


def test_a_game_that_ends_earlier_stops_the_replay_and_says_so(member, game):
    _response, page = replay(member, game, "open-ladder")

    assert "Mei & Lin would have won after 1 hand." in text(page)
    assert "The replay stops at hand 2: 5 hands cannot be played under these rules." in text(page)
    assert "The game is over: Mei and Lin won it." in text(page)


def test_a_rotation_takes_a_hand_as_started_by_the_declarers_partner(member, game):
    _response, page = replay(member, game, "kawu")

    assert "Mei & Lin would have won after 6 hands." in text(page)
    assert "2 hands are taken as started by the declarer's partner." in text(page)
    assert "#3 · Jun & Hao at 2" in text(page)


def test_a_declarer_who_no_longer_fits_stops_the_replay(member, game, group):
    generous = {
        "name": "generous",
        "bands": [
            {"from": 0, "to": 95, "winner": "declarers", "levels": 1},
            {"from": 100, "to": None, "winner": "opponents", "levels": 0},
        ],
    }
    table = ScoringTable.objects.create(group=group, rules_json=generous)

    _response, page = replay(member, game, f"table-{table.pk}")

    assert "Under generous with 2 decks" in text(page)
    assert "The replay stops at hand 3: 4 hands cannot be played under these rules." in text(page)
    assert "Jun cannot start this hand: Mei or Lin may start it." in text(page)
    assert page.count('class="hand-row') == 2


def test_a_french_replay_says_why_it_stops_in_french(member, game):
    member.cookies["django_language"] = "fr"

    _response, page = replay(member, game, "standard", "3")

    assert "Le recalcul s'arrête à la donne 3" in text(page)
    assert "La partie est terminée" in text(page)
    assert "the game is over" not in text(page)


def test_the_same_hands_with_three_decks_end_sooner(member, game):
    _response, page = replay(member, game, "standard", "3")

    assert "Under Standard with 3 decks" in text(page)
    # 80 of 300 points is a hold: Mei and Lin hold at A in hand 2.
    assert "Mei & Lin would have won after 2 hands." in text(page)
    assert "The game is over: Mei and Lin won it." in text(page)


def test_points_three_decks_held_stop_a_replay_with_two(member, group, five):
    six = [*five, Player.objects.create(group=group, name="Wei")]
    game = save_game(group, six, "standard", [result(0, 250)])

    _response, page = replay(member, game, "standard", "2")

    assert "Played under Standard with 3 decks: 1 hand." in text(page)
    assert "The replay stops at hand 1: 1 hand cannot be played under these rules." in text(page)
    assert "points must be a multiple of 5 between 0 and 200; 250 is not." in text(page)
    assert 'class="hand-row' not in page


def test_a_find_a_friend_replay_names_each_player_and_their_friends(member, friendly):
    _response, page = replay(member, friendly, "simplified")

    assert "Mei · Jun · Lin · Hao · Ed" in text(page)
    assert "#1 · Mei with Lin at 2" in text(page)
    assert "#2 · Lin alone at 3" in text(page)
    # Simplified: the side that wins climbs 1, and one more short-handed.
    assert "Nobody would have won yet: " in text(page)
    assert "Mei 3 · Jun 2 · Lin 5" in text(page)


@pytest.mark.parametrize(("rules", "decks"), [("poker", None), ("standard", "7")])
def test_unknown_rules_or_decks_are_refused_without_a_replay(member, game, rules, decks):
    response, page = replay(member, game, rules, decks)

    assert response.status_code == 200
    assert "Select a valid choice" in text(page)
    assert 'id="replay"' not in page


def test_a_game_of_another_group_is_not_found(member, game, outsider):
    other = Group.objects.create(name="Sunday Tractor")
    Membership.objects.create(group=other, user=outsider)

    assert member.get(f"/groups/{other.pk}/games/{game.pk}/replay/").status_code == 404


def test_the_game_page_links_to_the_replay_and_draws_the_level_race(member, game):
    page = member.get(game.get_absolute_url()).text

    assert f"/groups/{game.group_id}/games/{game.pk}/replay/" in page
    assert "The level race over 6 hands" in text(page)
    race = page[page.index("chart-race") : page.index("</figure>", page.index("chart-race"))]
    assert race.count('stroke-linejoin="round"') == 2  # a step line per team
    assert texts(page, ".race-legend-name") == ["Mei & Lin", "Jun & Hao"]


def test_find_a_friend_races_a_line_per_player(member, friendly):
    page = member.get(friendly.get_absolute_url()).text

    race = page[page.index("chart-race") : page.index("</figure>", page.index("chart-race"))]
    assert race.count('stroke-linejoin="round"') == 5
    assert len(set(race.split('stroke="')[1:6])) == 5  # five colours
    assert texts(page, ".race-legend-name") == ["Mei", "Jun", "Lin", "Hao", "Ed"]


def test_the_replay_runs_a_fixed_number_of_queries(member, game, django_assert_max_num_queries):
    with django_assert_max_num_queries(7):
        assert replay(member, game, "kawu", "3")[0].status_code == 200
