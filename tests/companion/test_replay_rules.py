"""Replaying a game's hands under other rules: how it would have ended, or where it stops."""

from __future__ import annotations

import pytest
from history_games import save_game

from companion.models import Group, Membership, ScoringTable
from scoring import Format, LastTrick, Side, get_rules
from scoring.game import HandResult, Seat

pytestmark = pytest.mark.django_db

HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
SCOOPED = LastTrick(Side.OPPONENTS, Format.SINGLE, 1)


def hand(declarer: str, points: int, kitty: int = 0, last: LastTrick = HELD) -> HandResult:
    return HandResult(Seat(declarer), points, kitty, last)


@pytest.fixture
def game(group, players):
    """Mei and Lin, from Q, beat Jun and Hao under the standard rules in six hands."""
    return save_game(
        group,
        players,
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
    )


def replay(client, game, rules: str | None = None):
    data = {"rules": rules} if rules else {}
    response = client.get(f"/groups/{game.group_id}/games/{game.pk}/replay/", data)
    return response, " ".join(response.text.split())


def test_it_offers_the_presets_and_the_groups_tables(member, game, group):
    table = ScoringTable.objects.create(
        group=group, rules_json={**get_rules("simplified").to_json(), "name": "house"}
    )

    response, page = replay(member, game)

    assert response.status_code == 200
    assert "Played under standard: 6 hands. North–South won." in page
    for name in ("standard", "open-ladder", "kawu", "simplified"):
        assert f'<option value="{name}"' in page
    assert f'<option value="table-{table.pk}">house</option>' in page
    assert 'id="replay"' not in page


def test_the_same_hands_under_simplified_rules_end_the_same_way(member, game):
    _response, page = replay(member, game, "simplified")

    assert "Under simplified" in page
    assert "North–South would have won after 6 hands." in page
    assert "Opponents 0: 0–75, declarers climb 1" in page
    assert 'N–S K · E–W 2 <span class="text-nowrap">(as played: N–S A · E–W 2)</span>' in page
    assert 'id="replay-stopped"' not in page


def test_a_game_that_ends_earlier_stops_the_replay_and_says_so(member, game):
    _response, page = replay(member, game, "open-ladder")

    assert "North–South would have won after 1 hand." in page
    assert "The replay stops at hand 2: 5 hands cannot be played under these rules." in page
    assert "hand 2: the game is over: NS won it" in page


def test_a_rotation_takes_a_hand_as_started_by_the_declarers_partner(member, game):
    _response, page = replay(member, game, "kawu")

    assert "North–South would have won after 6 hands." in page
    assert "1 hand is taken as started by the declarer's partner." in page


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

    assert "Under generous" in page
    assert "The replay stops at hand 3: 4 hands cannot be played under these rules." in page
    assert "hand 3: E cannot declare: NS are the declarers this hand" in page
    assert page.count('class="hand-row') == 2


def test_unknown_rules_are_refused_without_a_replay(member, game):
    response, page = replay(member, game, "poker")

    assert response.status_code == 200
    assert "Select a valid choice" in page
    assert 'id="replay"' not in page


def test_a_game_of_another_group_is_not_found(member, game, outsider):
    other = Group.objects.create(name="Sunday Tractor")
    Membership.objects.create(group=other, user=outsider)

    assert member.get(f"/groups/{other.pk}/games/{game.pk}/replay/").status_code == 404


def test_the_game_page_links_to_the_replay_and_draws_the_level_race(member, game):
    page = member.get(game.get_absolute_url()).text

    assert f"/groups/{game.group_id}/games/{game.pk}/replay/" in page
    assert "The level race over 6 hands" in page
    assert page.count('stroke-width="2.5"') == 2  # a step line per team


def test_the_replay_runs_a_fixed_number_of_queries(member, game, django_assert_max_num_queries):
    with django_assert_max_num_queries(6):
        assert replay(member, game, "kawu")[0].status_code == 200
