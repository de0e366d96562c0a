"""A group's hands as CSV: one row per hand with `scoring`'s results."""

from __future__ import annotations

import csv
import io

import pytest
from exchange_documents import entered, record

from companion import exchange

pytestmark = pytest.mark.django_db


def test_it_writes_a_csv_row_per_hand_with_scorings_results(member, group, start_game, user):
    game = start_game()
    record(
        game,
        user,
        entered(0, kitty_points=10, opponent_points=45),
        entered(
            2,
            bid="pair",
            trump="S",
            kitty_cards="5H 5S TD KC 2C 3C 4C 6C",
            kitty_points=30,
            opponent_points=60,
            last_trick_winner="opponents",
            last_trick_format="pair",
            last_trick_cards=2,
        ),
    )

    response = member.get(f"/groups/{group.pk}/export.csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-tractor-')
    rows = list(csv.reader(io.StringIO(response.getvalue().decode())))
    assert rows[0] == list(exchange.CSV_COLUMNS)
    assert rows[0] == [
        "game", "date", "evening", "round", "table", "rules", "teams", "decks", "seat_1",
        "seat_2", "seat_3", "seat_4", "seat_5", "seat_6", "seat_7", "seat_8", "hand",
        "declarer", "friends", "bid", "trump",
        "kitty_cards", "kitty_points", "opponent_points", "last_trick_winner",
        "last_trick_format", "last_trick_cards", "declarer_cards_taken_back",
        "opponent_cards_taken_back", "declarers", "opponents", "opponent_total", "winner",
        "level_1", "level_2", "level_3", "level_4", "level_5", "level_6", "level_7", "level_8",
    ]  # fmt: skip
    table = [str(game.pk), game.created.date().isoformat(), "", "", "", "standard", "partners",
             "2", "Mei", "Jun", "Lin", "Hao", "", "", "", ""]  # fmt: skip
    assert rows[1:] == [
        [*table, "1", "Mei", "", "one", "H", "", "10", "45", "declarers", "single", "1", "0",
         "0", "Mei, Lin", "Jun, Hao", "45", "declarers", "3", "2", "3", "2", "", "", "", ""],
        [*table, "2", "Lin", "", "pair", "S", "5H 5S TD KC 2C 3C 4C 6C", "30", "60",
         "opponents", "pair", "2", "0", "0", "Mei, Lin", "Jun, Hao", "120", "opponents", "3",
         "2", "3", "2", "", "", "", ""],
    ]  # fmt: skip


def test_the_csv_names_the_sides_of_a_find_a_friend_game(member, group, friends_game):
    rows = list(csv.DictReader(io.StringIO(exchange.csv_text(group))))

    assert [row["seat_6"] for row in rows] == ["Yan"] * 3
    assert [(row["declarer"], row["friends"]) for row in rows] == [
        ("Mei", "Lin"),
        ("Lin", ""),
        ("Hao", "Mei"),
    ]
    assert [(row["declarers"], row["opponents"], row["winner"]) for row in rows] == [
        ("Mei, Lin", "Jun, Hao, Wei, Yan", "declarers"),
        ("Lin", "Mei, Jun, Hao, Wei, Yan", "opponents"),
        ("Mei, Hao", "Jun, Lin, Wei, Yan", "declarers"),
    ]
    levels = friends_game.scored().state.levels
    assert [rows[-1][f"level_{seat}"] for seat in range(1, 9)] == [
        *(str(level) for level in levels),
        "",
        "",
    ]
