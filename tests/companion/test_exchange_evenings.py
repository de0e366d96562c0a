"""Club nights in the export (version 5): an evening goes out whole (its shape, seed and rule,
who was present, its rounds' seating by name and each table's game by its number in the file,
the games it cut short) and comes back the same; a version 4 file imports without evenings; an
evening the app could not have played is refused in a sentence, before anything is built."""

from __future__ import annotations

import csv
import io
import json

import pytest
from exchange_documents import FOUR_SEAT_V1, document, forget_the_import, import_text

from companion import exchange
from companion.exchange import reading
from companion.models import Evening, EveningTable, Game, Player
from scoring import get_rules

pytestmark = pytest.mark.django_db

HELD = {
    "friends": [],
    "bid": "one",
    "trump": "H",
    "kitty_cards": "",
    "kitty_points": 0,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
}


@pytest.fixture
def night(group, cast) -> list[Player]:
    """Nine players at a club night: the cast's eight and Ivy."""
    return [*cast.values(), Player.objects.create(group=group, name="Ivy")]


@pytest.fixture
def played(group, night, user) -> Evening:
    """A club night of nine at tables of four, new partners: round 1 played two hands at table
    1 and one at table 2, then cut short (both games ended by the evening); Ivy went home; round
    2 under way, a hand at its table 1; a second evening ended before its first round."""
    evening = Evening.start(
        group,
        night,
        by=user,
        rules_json=get_rules("standard").to_json(),
        seating=Evening.SeatingRule.NEW_PARTNERS,
        hands_per_round=6,
        minutes_per_round=45,
    )
    first = evening.start_round(by=user)
    one, two = (table.game for table in first.tables_played.order_by("number"))
    record(one, user, 0, 45)
    record(one, user, 2, 90)
    record(two, user, 0, 20)
    evening.next_round()
    resting = evening.current_round().sitting_out[0]
    evening.set_present(next(p for p in night if p.pk == resting), False)
    second = evening.start_round(by=user)
    record(second.tables_played.get(number=1).game, user, 0, 60)
    other = Evening.start(group, night[:4], by=user, rules_json=get_rules("kawu").to_json())
    other.end()
    return evening


def record(game: Game, user, declarer: int, points: int) -> None:
    game.refresh_from_db()
    fields = {**HELD, "declarer": declarer, "opponent_points": points}
    game.record_hand(fields, version=game.version, request_key="", by=user)


def exported(group) -> dict:
    return json.loads(exchange.dumps(group))


def test_it_exports_an_evening_whole_by_names_and_game_numbers(group, played):
    data = exported(group)

    assert data["version"] == 5
    evening, other = data["evenings"]
    assert evening["seating"] == "new-partners"
    assert (evening["hands_per_round"], evening["minutes_per_round"]) == (6, 45)
    assert evening["seed"] == played.seed
    assert [presence["present"] for presence in evening["presences"]].count(False) == 1
    first, second = evening["rounds"]
    assert [table["game"] for table in first["tables"]] == [1, 2]
    assert all(table["ended"] is not None for table in first["tables"])
    assert [table["game"] for table in second["tables"]] == [3, 4]
    assert second["ended"] is None
    names = [seat["player"] for seat in data["games"][0]["seats"]]
    assert first["tables"][0]["players"] == names
    assert len(first["sitting_out"]) == 1
    assert second["sitting_out"] == []
    assert other["ended"] is not None and other["rounds"] == []


def test_an_evening_comes_back_the_same_with_a_room_screen_link_of_its_own(group, played, user):
    text = exchange.dumps(group)

    copy = import_text(text, name=group.name, members=[user])

    assert exchange.dumps(forget_the_import(copy)) == text
    again = copy.evenings.order_by("pk").first()
    assert again.share_token != played.share_token
    assert again.current_round().number == 2
    cut_short = EveningTable.objects.filter(round__evening=again, ended__isnull=False)
    assert cut_short.count() == 2
    assert [p.name for p in again.present()] == [p.name for p in played.present()]


def test_a_version_4_file_imports_without_evenings(user):
    data = document()
    data["version"] = 4
    del data["evenings"]

    group = import_text(json.dumps(data), name="Old", members=[user])

    assert not group.evenings.exists()
    assert group.games.count() == 1
    again = exported(forget_the_import(group))
    assert (again["version"], again["evenings"]) == (5, [])


# An evening the app could not have played.


def _table(data: dict, round_: int = 0, table: int = 0) -> dict:
    return data["evenings"][0]["rounds"][round_]["tables"][table]


def _game_not_in_the_file(data):
    _table(data)["game"] = 99


def _a_player_not_on_the_list(data):
    gone = _table(data)["players"][0]
    evening = data["evenings"][0]
    evening["presences"] = [p for p in evening["presences"] if p["player"] != gone]
    return gone


def _seated_twice(data):
    twice = _table(data)["players"][0]
    data["evenings"][0]["rounds"][0]["sitting_out"] = [twice]
    return twice


def _a_table_of_five(data):
    first = data["evenings"][0]["rounds"][0]
    _table(data, table=1)["players"].append(first["sitting_out"].pop())


def _tables_swapped(data):
    one, two = _table(data), _table(data, table=1)
    one["players"][0], two["players"][0] = two["players"][0], one["players"][0]


def _a_game_at_two_tables(data):
    _table(data, round_=1)["game"] = 1


def _rounds_out_of_order(data):
    data["evenings"][0]["rounds"][1]["number"] = 3


def _a_waiting_round_before_another(data):
    first = data["evenings"][0]["rounds"][0]
    first["started"] = first["ended"] = None
    for table in first["tables"]:
        table["game"] = table["ended"] = None


def _nine_a_table(data):
    data["evenings"][0]["players_per_table"] = 9


def _decks_not_whole(data):
    data["evenings"][0]["decks"] = 2.0


def _called_true(data):
    data["evenings"][0]["called"] = True


REFUSED = [
    (
        _game_not_in_the_file,
        "Evening 1, round 1, table 1: game must be null or the number of a game of the file "
        "(it has 4 games), not 99.",
    ),
    (
        _a_player_not_on_the_list,
        "Evening 1, round 1: {name} is seated in the round, but is not on the evening's list.",
    ),
    (_seated_twice, "Evening 1, round 1: {name} is seated twice in the round."),
    (
        _a_table_of_five,
        "Evening 1, round 1, table 2: The evening seats 4 players a table, but this table seats 5.",
    ),
    (_a_game_at_two_tables, "Evening 1: Game 1 is played at two tables of the evenings."),
    (
        _rounds_out_of_order,
        "Evening 1, round 2: number: The evening's rounds are numbered from 1 in order: this "
        "one is 3.",
    ),
    (
        _a_waiting_round_before_another,
        "Evening 1, round 1: Only the evening's last round may wait to start.",
    ),
    (_nine_a_table, "Evening 1: players_per_table must be 4 to 8, not 9."),
    (_decks_not_whole, "Evening 1: decks must be null, 2, 3 or 4, not 2.0."),
    (_called_true, "Evening 1: called must be null, 1 or 2, not true."),
]


@pytest.mark.parametrize(
    ("change", "message"), REFUSED, ids=[change.__name__ for change, _ in REFUSED]
)
def test_it_refuses_an_evening_the_app_could_not_have_played(group, played, change, message):
    data = exported(group)
    name = change(data)

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.read(json.dumps(data))

    assert str(raised.value) == message.format(name=json.dumps(name))


def test_it_refuses_a_game_whose_players_are_not_its_tables(group, played, user):
    data = exported(group)
    _tables_swapped(data)
    one = _table(data)["players"]
    groups = set(group.__class__.objects.values_list("pk", flat=True))

    with pytest.raises(exchange.ExchangeError) as raised:
        import_text(json.dumps(data), name="Copy", members=[user])

    players = [seat["player"] for seat in data["games"][0]["seats"]]
    assert str(raised.value) == (
        f"Game 1 is table 1 of round 1 of evening 1, which seats {', '.join(one[:3])} and "
        f"{one[3]}, but the game's players are {', '.join(players[:3])} and {players[3]}."
    )
    assert set(group.__class__.objects.values_list("pk", flat=True)) == groups


def test_a_version_4_file_with_evenings_is_refused(group, played):
    data = exported(group)
    data["version"] = 4

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.read(json.dumps(data))

    assert str(raised.value) == "evenings is not a key this server knows."


@pytest.mark.parametrize(
    ("part", "count", "message"),
    [
        ("rounds", 201, "Evening 1 holds more than 200 rounds, far more than a club night plays."),
        (
            "presences",
            257,
            "Evening 1 lists more than 256 players, far more than a club night seats.",
        ),
    ],
)
def test_an_evening_past_any_club_night_is_refused_before_it_is_built(part, count, message):
    data = document()
    # Empty parts: were the evening built, its first round or player would be refused instead.
    data["evenings"] = [{part: [{}] * count}]

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.read(json.dumps(data))

    assert str(raised.value) == message


def test_more_evenings_than_a_group_plays_are_refused_before_they_are_built(monkeypatch):
    monkeypatch.setattr(reading, "MOST_EVENINGS", 2)
    data = document()
    data["evenings"] = [{}] * 3

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.read(json.dumps(data))

    assert str(raised.value) == (
        "The file is not a group export: it holds more than 2 evenings, far more than a "
        "group plays."
    )


def test_a_game_the_evening_ended_cannot_be_won(user):
    # The four-seat file's third game is won: North-South hold at the ace.
    data = exported(import_text(FOUR_SEAT_V1.read_bytes(), members=[user]))
    players = [seat["player"] for seat in data["games"][2]["seats"]]
    at = "2025-03-06T22:00:00+00:00"
    data["evenings"] = [
        {
            "created": at,
            "created_by": None,
            "ended": at,
            "seed": 7,
            "seating": "random",
            "leftover": "sit-out",
            "players_per_table": 4,
            "rules": data["games"][2]["rules"],
            "decks": None,
            "teams": "partners",
            "trumps": "bid",
            "called": None,
            "hands_per_round": None,
            "minutes_per_round": None,
            "presences": [{"player": name, "present": True} for name in players],
            "rounds": [
                {
                    "number": 1,
                    "tables": [{"players": players, "game": 3, "ended": at}],
                    "sitting_out": [],
                    "started": at,
                    "ended": at,
                }
            ],
        }
    ]

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(json.dumps(data))

    assert str(raised.value) == (
        "Game 3 is won, but its club night ended it with round 1: a game the evening ended is "
        "not won."
    )
    data["evenings"][0]["rounds"][0]["tables"][0]["ended"] = None
    assert exchange.load(json.dumps(data)).game_count == 3


def test_the_csv_names_the_evening_round_and_table_of_a_club_nights_game(group, played):
    rows = list(csv.DictReader(io.StringIO(exchange.csv_text(group))))

    at = [(row["evening"], row["round"], row["table"]) for row in rows]
    evening = str(played.pk)
    assert at == [(evening, "1", "1")] * 2 + [(evening, "1", "2"), (evening, "2", "1")]
