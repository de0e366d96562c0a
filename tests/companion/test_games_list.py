"""The group's games list says where each game stands: who plays, who leads and at which levels
(or who won), how many hands, since when; read from what is stored, in the same few queries
however many games there are."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.formats import date_format

from companion.models import Player
from scoring import Rank, Teams
from tests.reading import Element, elements, text, texts

pytestmark = pytest.mark.django_db

# A clean sweep by the declarers (no points for the opponents): they climb three levels.
SWEEP = {
    "declarer": 0,
    "bid": "one",
    "trump": "H",
    "kitty_cards": "",
    "kitty_points": 0,
    "opponent_points": 0,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
}


def sweep(game, user, **changes) -> None:
    game.refresh_from_db()
    game.record_hand({**SWEEP, **changes}, version=game.version, request_key="", by=user)


def games_list(member, group) -> list[Element]:
    """The rows of the group page's list of games, top to bottom."""
    return elements(member.get(f"/groups/{group.pk}/"), "a.list-group-item", within="#games")


def test_it_puts_the_leading_team_first_with_both_levels(member, group, user, start_game):
    game = start_game()
    sweep(game, user)

    (row,) = games_list(member, group)

    assert "Mei & Lin 5 · Jun & Hao 2" in text(row)
    assert texts(row, ".fw-semibold") == ["Mei & Lin 5"]
    started = date_format(game.created, "SHORT_DATE_FORMAT")
    assert f"Started {started} · 1 hand · in progress" in text(row)


def test_it_names_the_winners_of_a_finished_game(member, group, user, start_game):
    game = start_game()
    while not game.scored().state.game_over:
        sweep(game, user)

    row = text(games_list(member, group)[0])

    assert "Mei & Lin won" in row  # the team by the name the line above gives it
    assert "5 hands · finished" in row
    assert "in progress" not in row


def test_it_shows_each_game_where_it_stands_not_identical_rows(member, group, user, start_game):
    sweep(start_game(), user)
    start_game(levels=[Rank.FIVE] * 4)
    start_game()

    rows = games_list(member, group)

    # The newest first; a tie has nobody in bold.
    assert "Mei & Lin 2 · Jun & Hao 2" in text(rows[0])
    assert "0 hands" in text(rows[0])
    assert "Mei & Lin 5 · Jun & Hao 5" in text(rows[1])
    assert texts(rows[0], ".fw-semibold") == texts(rows[1], ".fw-semibold") == []
    assert texts(rows[2], ".fw-semibold") == ["Mei & Lin 5"]
    assert "1 hand ·" in text(rows[2])


def test_a_find_a_friend_row_names_the_leaders(member, group, players, user, start_game):
    more = [Player.objects.create(group=group, name=name) for name in ("Wei", "Yan")]
    game = start_game(seated=players + more, teams=Teams.FIND_A_FRIEND)
    (before,) = games_list(member, group)

    sweep(game, user, friends=[])

    assert "Everyone at 2" in text(before)
    row = text(games_list(member, group)[0])
    assert "Mei leads at 6" in row
    assert "Find a friend · 1 hand · in progress" in row


def test_the_list_reads_the_same_few_queries_for_one_game_or_ten(member, group, user, start_game):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert member.get(f"/groups/{group.pk}/").status_code == 200
        return len(captured)

    sweep(start_game(), user)
    one = queries()
    for _ in range(9):
        sweep(start_game(), user)

    assert queries() == one
