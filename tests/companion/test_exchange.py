"""A group's export and import: the JSON file holds everything and reads back to the same
document, the CSV has one row per hand with `scoring`'s results, and a bad file is refused with
its problem named and nothing made."""

from __future__ import annotations

import copy
import csv
import io
import json
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError

from companion import exchange
from companion.models import Dispute, Game, Group, HandChange, Membership, Player
from scoring import get_rules
from scoring.cli import judge_request

pytestmark = pytest.mark.django_db

THURSDAY = "2025-03-06T19:30:00+00:00"
HOUSE = {
    "name": "House",
    "bands": [
        {"from": 0, "to": 75, "winner": "declarers", "levels": 1},
        {"from": 80, "to": None, "winner": "opponents", "levels": 1},
    ],
    "kitty": "double",
    "game_end": "hold-at-ace",
    "starter": "bid",
    "throws": False,
    "throw_penalty": 0,
    "tractor_follow": "tractor",
}
FIRST = {
    "declarer": "N",
    "bid": "one",
    "trump": "H",
    "kitty_cards": "",
    "kitty_points": 10,
    "opponent_points": 45,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
    "declarer_cards_taken_back": 0,
    "opponent_cards_taken_back": 0,
}
SECOND = {
    "declarer": "S",
    "bid": "pair",
    "trump": "S",
    "kitty_cards": "5H 5S TD KC 2C 3C 4C 6C",
    "kitty_points": 30,
    "opponent_points": 60,
    "last_trick_winner": "opponents",
    "last_trick_format": "pair",
    "last_trick_cards": 2,
    "declarer_cards_taken_back": 0,
    "opponent_cards_taken_back": 0,
}
# The disputed trick: East's big joker takes North's king of trumps.
TRICK = {
    "rules": "standard",
    "level": "3",
    "trump": "S",
    "plays": [["N", ["KS"]], ["E", ["BJ"]], ["S", ["2S"]], ["W", ["4S"]]],
}
# Thursday Tractor as a hand-written export: the cast, a house table, one standard game of two
# hands (the second's trump corrected), a dispute saved to hand 2.
DOCUMENT = {
    "format": "tractor-companion-group",
    "version": 1,
    "group": {"name": "Thursday Tractor", "created": "2025-01-02T18:00:00+00:00"},
    "members": [{"username": "mei", "joined": "2025-01-02T18:00:00+00:00"}],
    "players": [
        {"name": "Mei", "user": "mei"},
        {"name": "Jun", "user": None},
        {"name": "Lin", "user": None},
        {"name": "Hao", "user": None},
        {"name": "Zoe", "user": None},
    ],
    "scoring_tables": [{"rules": HOUSE, "updated": "2025-01-09T20:00:00.250000+00:00"}],
    "games": [
        {
            "created": THURSDAY,
            "created_by": "mei",
            "rules": get_rules("standard").to_json(),
            "seats": {"north": 0, "east": 1, "south": 2, "west": 3},
            "north_south_level": "2",
            "east_west_level": "2",
            "first_starter": "",
            "hands": [
                {
                    **FIRST,
                    "created": "2025-03-06T19:35:00+00:00",
                    "updated": "2025-03-06T19:35:00+00:00",
                },
                {
                    **SECOND,
                    "created": "2025-03-06T19:41:00+00:00",
                    "updated": "2025-03-06T19:44:10.500000+00:00",
                },
            ],
            "changes": [
                {
                    "hand_number": 1,
                    "action": "recorded",
                    "before": None,
                    "after": {"number": 1, **FIRST},
                    "by": "mei",
                    "at": "2025-03-06T19:35:00+00:00",
                },
                {
                    "hand_number": 2,
                    "action": "recorded",
                    "before": None,
                    "after": {"number": 2, **SECOND, "trump": "H"},
                    "by": None,
                    "at": "2025-03-06T19:41:00+00:00",
                },
                {
                    "hand_number": 2,
                    "action": "edited",
                    "before": {"number": 2, **SECOND, "trump": "H"},
                    "after": {"number": 2, **SECOND},
                    "by": "mei",
                    "at": "2025-03-06T19:44:10.500000+00:00",
                },
            ],
            "disputes": [
                {
                    "hand_number": 2,
                    "hand": 2,
                    "request": TRICK,
                    "verdict": judge_request(TRICK),
                    "created_by": "mei",
                    "created": "2025-03-06T19:39:00+00:00",
                }
            ],
        }
    ],
}


def document() -> dict:
    return copy.deepcopy(DOCUMENT)


def import_text(text, **options) -> Group:
    return exchange.import_group(exchange.load(text), **options).group


def test_it_imports_a_hand_written_export_with_nothing_lost(user):
    group = import_text(json.dumps(DOCUMENT), name="Restored", members=[user])

    assert group.name == "Restored"
    assert group.created == datetime(2025, 1, 2, 18, tzinfo=UTC)
    assert list(group.members.all()) == [user]
    assert Membership.objects.get(group=group).joined == datetime(2025, 1, 2, 18, tzinfo=UTC)
    assert [(p.name, p.user) for p in group.players.order_by("pk")] == [
        ("Mei", user),
        ("Jun", None),
        ("Lin", None),
        ("Hao", None),
        ("Zoe", None),
    ]
    assert group.scoring_tables.get().rules.name == "House"
    game = group.games.get()
    assert (game.north.name, game.east.name, game.south.name, game.west.name) == (
        "Mei",
        "Jun",
        "Lin",
        "Hao",
    )
    assert game.created_by == user
    assert game.version == 3
    _, second = game.hands.all()
    assert second.kitty_cards == "5H 5S TD KC 2C 3C 4C 6C"
    assert second.updated == datetime(2025, 3, 6, 19, 44, 10, 500000, tzinfo=UTC)
    assert [str(level) for level in game.scored().state.levels] == ["3", "2"]
    assert [change.action for change in game.changes.order_by("pk")] == [
        "recorded",
        "recorded",
        "edited",
    ]
    assert game.changes.filter(by=None).count() == 1
    dispute = Dispute.objects.get(game=game)
    assert (dispute.hand, dispute.created_by, dispute.verdict["winner"]) == (second, user, "E")


def test_it_exports_an_import_as_the_same_document(user):
    group = import_text(json.dumps(DOCUMENT), name="Restored", members=[user])

    again = exchange.export_group(group)

    assert again == {**DOCUMENT, "group": {**DOCUMENT["group"], "name": "Restored"}}


def test_it_exports_a_game_recorded_at_the_table(group, players, user):
    game = Game.objects.create(
        group=group, rules_json=get_rules("kawu").to_json(), created_by=user, **players
    )
    game.record_hand(FIRST, version=0, request_key="tap-1", by=user)
    game.edit_hand(1, {"trump": "D"}, version=1, by=user)

    exported = exchange.export_group(group)

    assert exported["members"] == [
        {"username": "mei", "joined": exchange.isoformat(Membership.objects.get().joined)}
    ]
    assert [player["name"] for player in exported["players"]] == ["Mei", "Jun", "Lin", "Hao"]
    (entry,) = exported["games"]
    assert entry["rules"]["name"] == "kawu"
    assert entry["seats"] == {"north": 0, "east": 1, "south": 2, "west": 3}
    hand = {key: value for key, value in entry["hands"][0].items() if key in FIRST}
    assert hand == {**FIRST, "trump": "D"}
    assert "request_key" not in entry["hands"][0]
    assert [(c["action"], c["by"]) for c in entry["changes"]] == [
        ("recorded", "mei"),
        ("edited", "mei"),
    ]
    assert entry["changes"][1]["before"]["trump"] == "H"
    assert "share_token" not in json.dumps(exported)


def test_it_round_trips_a_500_game_history_through_the_pages(client, django_user_model):
    """The issue's case: two years of weekly games, exported, imported, exported again."""
    call_command(
        "demo_history", "--games=500", "--seed=11", "--until=2025-06-26", "--group=Ladder club"
    )
    source = Group.objects.get(name="Ladder club")
    client.force_login(django_user_model.objects.get(username="demo"))
    text = client.get(f"/groups/{source.pk}/export.json").content
    exported = json.loads(text)
    assert len(exported["games"]) == 500
    assert 8_000 <= sum(len(game["hands"]) for game in exported["games"]) <= 12_500

    upload = io.BytesIO(text)
    upload.name = "ladder-club.json"
    response = client.post("/groups/import/", {"file": upload, "name": "Ladder club (copy)"})

    copy_ = Group.objects.get(name="Ladder club (copy)")
    assert response.status_code == 302
    assert response["Location"] == copy_.get_absolute_url()
    again = json.loads(client.get(f"/groups/{copy_.pk}/export.json").content)
    assert again == {**exported, "group": {**exported["group"], "name": "Ladder club (copy)"}}


def test_it_writes_a_csv_row_per_hand_with_scorings_results(member, group, players, user):
    game = Game.objects.create(
        group=group, rules_json=get_rules("standard").to_json(), created_by=user, **players
    )
    game.record_hand(FIRST, version=0, request_key="", by=user)
    game.record_hand(SECOND, version=1, request_key="", by=user)

    response = member.get(f"/groups/{group.pk}/export.csv")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-tractor-')
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == list(exchange.CSV_COLUMNS)
    assert rows[0] == [
        "game", "date", "north", "east", "south", "west", "rules", "hand", "declarer_seat",
        "declarer", "bid", "trump", "kitty_cards", "kitty_points", "opponent_points",
        "last_trick_winner", "last_trick_format", "last_trick_cards",
        "declarer_cards_taken_back", "opponent_cards_taken_back", "opponent_total",
        "winner", "north_south_level", "east_west_level",
    ]  # fmt: skip
    date = game.created.date().isoformat()
    assert rows[1:] == [
        [str(game.pk), date, "Mei", "Jun", "Lin", "Hao", "standard", "1", "N", "Mei", "one",
         "H", "", "10", "45", "declarers", "single", "1", "0", "0", "45", "declarers", "3", "2"],
        [str(game.pk), date, "Mei", "Jun", "Lin", "Hao", "standard", "2", "S", "Lin", "pair",
         "S", "5H 5S TD KC 2C 3C 4C 6C", "30", "60", "opponents", "pair", "2", "0", "0", "120",
         "opponents", "3", "2"],
    ]  # fmt: skip


def test_it_downloads_the_export_as_a_json_file(member, group, players):
    response = member.get(f"/groups/{group.pk}/export.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-tractor-')
    assert response["Content-Disposition"].endswith('.json"')
    assert json.loads(response.content)["players"][0] == {"name": "Mei", "user": None}


def test_the_group_page_links_to_both_exports(member, group):
    page = member.get(f"/groups/{group.pk}/").text

    assert f'href="/groups/{group.pk}/export.json"' in page
    assert f'href="/groups/{group.pk}/export.csv"' in page


def test_it_imports_a_file_as_a_new_group_with_the_importer_as_its_member(member, user, outsider):
    data = document()
    data["members"].append({"username": "zoe", "joined": THURSDAY})
    data["players"][4]["user"] = "zoe"

    response = member.post("/groups/import/", {"file": _upload(data), "name": ""}, follow=True)

    group = Group.objects.get(name="Thursday Tractor")
    assert list(group.members.all()) == [user]
    # Zoe shares no group with Mei: the file cannot link her account.
    assert group.players.get(name="Zoe").user is None
    assert "Imported Thursday Tractor: 5 players, 1 game, 2 hands." in response.text
    assert "is credited to nobody: zoe." in response.text
    assert response.redirect_chain == [(group.get_absolute_url(), 302)]


def test_it_links_the_accounts_of_people_the_importer_plays_with(member, group, outsider):
    Membership.objects.create(group=group, user=outsider)
    data = document()
    data["players"][4]["user"] = "zoe"

    member.post("/groups/import/", {"file": _upload(data), "name": "Copy"})

    assert Group.objects.get(name="Copy").players.get(name="Zoe").user == outsider


def test_the_new_group_page_links_to_the_import(member):
    page = member.get("/groups/new/").text

    assert 'href="/groups/import/"' in page
    assert member.get("/groups/import/").status_code == 200


# Bad files: (what is wrong, how to break DOCUMENT, what the message says).


def _both(first, second):
    return lambda data: second(first(data))


def _set(path: str, value):
    def change(data: dict) -> dict:
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is KeyError:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return data

    return change


BAD = [
    ("a list", lambda data: [data], "the file must be a JSON object, got [{"),
    (
        "another format",
        _set("format", "something-else"),
        "the file is not a group export: its 'format' is \"something-else\"",
    ),
    (
        "a later version",
        _set("version", 2),
        "the file is version 2 of the export format; this server reads version 1",
    ),
    ("no version", _set("version", KeyError), "the file has no 'version'"),
    ("no games", _set("games", KeyError), "the file: missing key 'games'"),
    (
        "a hand without its declarer",
        _set("games.0.hands.1.declarer", KeyError),
        "game 1, hand 2: missing key 'declarer'",
    ),
    ("an unknown key", _set("games.0.winner", "NS"), "game 1: unknown key 'winner'"),
    (
        "a declarer scoring refuses",
        _set("games.0.hands.1.declarer", "E"),
        "game 1: hand 2: E cannot declare: NS are the declarers this hand",
    ),
    (
        "more points than the deck holds",
        _set("games.0.hands.0.opponent_points", 195),
        "game 1: hand 1: opponent_points 195 + kitty_points 10 = 205, but the deck holds only 200",
    ),
    (
        "a throw under rules without throws",
        _set("games.0.hands.0.last_trick_format", "throw"),
        "game 1: hand 1: the standard rules allow no throws",
    ),
    (
        "points as text",
        _set("games.0.hands.0.opponent_points", "45"),
        'game 1, hand 1: opponent_points must be a whole number, got "45"',
    ),
    (
        "a kitty that holds other points",
        _set("games.0.hands.1.kitty_points", 25),
        "game 1, hand 2: kitty_cards '5H 5S TD KC 2C 3C 4C 6C' hold 30 points, "
        "but kitty_points is 25",
    ),
    (
        "a bid nobody makes",
        _set("games.0.hands.0.bid", "three"),
        "game 1, hand 1: bid must be one of 'one', 'pair', 'small-jokers', 'big-jokers', "
        "'none', got \"three\"",
    ),
    (
        "rules scoring refuses",
        _set("scoring_tables.0.rules.bands.1.from", 85),
        "scoring table 1: rules: band 2 (85+) leaves a gap: no band holds 80",
    ),
    (
        "a seat for nobody",
        _set("games.0.seats.west", 7),
        "game 1: seats: west must be a player's position from 0 to 4, got 7",
    ),
    (
        "a player in two seats",
        _set("games.0.seats.west", 0),
        "game 1: seats: player 1 is seated twice",
    ),
    (
        "a player twice",
        _set("players.4.name", "Mei"),
        "player 5: 'Mei' is on the roster twice",
    ),
    (
        "a level of 10",
        _set("games.0.north_south_level", "10"),
        'game 1: north_south_level must be one of 23456789TJQKA, got "10"',
    ),
    (
        "a time without its zone",
        _set("games.0.created", "2025-03-06T19:30:00"),
        "game 1: created must be a date and time with its UTC offset",
    ),
    (
        "a dispute on a hand the game lacks",
        _set("games.0.disputes.0.hand", 3),
        "game 1, dispute 1: hand must be null or the number of one of the game's 2 hands, got 3",
    ),
    (
        "a NUL in a name",
        _set("players.1.name", "J\x00un"),
        "player 2: name holds a NUL character",
    ),
    (
        "a forged verdict",
        _set("games.0.disputes.0.verdict.winner", "N"),
        "game 1, dispute 1: the verdict is not what scoring answers for the request",
    ),
    (
        "a dispute scoring cannot judge",
        _set("games.0.disputes.0.request.plays", []),
        "game 1, dispute 1: request: plays is empty: a trick needs at least its lead",
    ),
    (
        "one account for two players",
        _both(_set("players.0.user", "mei"), _set("players.1.user", "mei")),
        "player 2: the account 'mei' is another player already",
    ),
]


@pytest.mark.parametrize(("problem", "change", "message"), BAD, ids=[case[0] for case in BAD])
def test_it_names_the_problem_of_a_bad_file(problem, change, message):
    text = json.dumps(change(document()))

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(text)

    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"game 1: Mei & Lin v Jun & Hao", "the file is not JSON: Expecting value at line 1"),
        (b"", "the file is not JSON: Expecting value at line 1, column 1"),
        (b'{"format": "\xff"}', "the file is not UTF-8 text (byte 12)"),
        (b"[" * 100_000 + b"]" * 100_000, "the file is not"),
    ],
    ids=["text", "empty", "latin-1", "deep"],
)
def test_it_refuses_a_file_that_is_not_json(content, message):
    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(content)

    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("problem", "change", "message"),
    [BAD[2], BAD[5], BAD[7], (*BAD[0][:2], "the file must be a JSON object")],
    ids=["version", "missing key", "refused hand", "list"],
)
def test_the_import_page_shows_the_problem_and_makes_nothing(
    member, group, problem, change, message
):
    response = member.post("/groups/import/", {"file": _upload(change(document())), "name": ""})

    assert response.status_code == 200
    assert message.replace('"', "&quot;").replace("'", "&#x27;") in response.text
    assert list(Group.objects.all()) == [group]
    assert not Player.objects.exists()


def test_the_import_page_refuses_a_file_that_is_not_json(member, group):
    upload = io.BytesIO(b"\x89PNG\r\n")
    upload.name = "photo.png"

    response = member.post("/groups/import/", {"file": upload})

    assert response.status_code == 200
    assert "the file is not UTF-8 text (byte 0)" in response.text
    assert list(Group.objects.all()) == [group]


def test_the_import_page_asks_for_a_file(member):
    response = member.post("/groups/import/", {"name": "Empty"})

    assert response.status_code == 200
    assert "This field is required." in response.text
    assert not Group.objects.exists()


def test_an_import_that_fails_while_writing_makes_nothing(user, monkeypatch):
    export = exchange.load(json.dumps(DOCUMENT))

    def broken(*args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(HandChange.objects, "bulk_create", broken)
    with pytest.raises(exchange.ExchangeError, match="the database refused the import: disk"):
        exchange.import_group(export, members=[user])

    assert not Group.objects.exists()
    assert not Game.objects.exists()


# The commands.


def test_the_commands_copy_a_group_through_a_file(tmp_path, user):
    group = import_text(json.dumps(DOCUMENT), members=[user])
    path = tmp_path / "thursday.json"

    call_command("export_group", str(group.pk), str(path))
    out = io.StringIO()
    call_command("import_group", str(path), "--name", "Copy", stdout=out)

    copy_ = Group.objects.get(name="Copy")
    assert out.getvalue().startswith(
        f"Imported Copy (group {copy_.pk}): 5 players, 1 game, 2 hands; members: mei."
    )
    again = exchange.export_group(copy_)
    assert again == {**DOCUMENT, "group": {**DOCUMENT["group"], "name": "Copy"}}


def test_the_import_command_adds_a_member(tmp_path, user, outsider):
    path = tmp_path / "thursday.json"
    path.write_text(json.dumps(DOCUMENT))

    call_command("import_group", str(path), "--member", "zoe", stdout=io.StringIO())

    group = Group.objects.get()
    assert [member.username for member in group.members.order_by("pk")] == ["mei", "zoe"]


def test_the_export_command_writes_to_standard_output(user):
    group = import_text(json.dumps(DOCUMENT), members=[user])
    out = io.StringIO()

    call_command("export_group", str(group.pk), stdout=out)

    assert json.loads(out.getvalue())["games"] == DOCUMENT["games"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["export_group", "999999"], "no group has the id 999999"),
        (["import_group", "{bad}"], "{bad}: game 1: hand 2: E cannot declare"),
        (["import_group", "{missing}"], "cannot read {missing}: No such file or directory"),
        (["import_group", "{good}", "--member", "nobody"], "--member 'nobody': no account"),
        (["import_group", "{good}", "--name", " "], "a group's name has 1 to 80 characters"),
    ],
    ids=["no group", "refused hand", "no file", "no account", "empty name"],
)
def test_the_commands_name_the_problem(tmp_path, user, arguments, message):
    paths = {"bad": tmp_path / "bad.json", "good": tmp_path / "good.json"}
    paths["bad"].write_text(json.dumps(_set("games.0.hands.1.declarer", "E")(document())))
    paths["good"].write_text(json.dumps(DOCUMENT))
    paths["missing"] = tmp_path / "missing.json"
    names = {key: str(path) for key, path in paths.items()}

    with pytest.raises(CommandError) as raised:
        call_command(*(argument.format(**names) for argument in arguments))

    assert message.format(**names) in str(raised.value)
    assert not Group.objects.exists()


# Access.


@pytest.mark.parametrize("url", ["/groups/{group}/export.json", "/groups/{group}/export.csv"])
def test_it_hides_the_exports_from_a_non_member(client, outsider, group, players, url):
    client.force_login(outsider)

    assert client.get(url.format(group=group.pk)).status_code == 404


@pytest.mark.parametrize(
    "url", ["/groups/{group}/export.json", "/groups/{group}/export.csv", "/groups/import/"]
)
def test_it_sends_an_anonymous_visitor_to_log_in_before_an_export(client, group, url):
    path = url.format(group=group.pk)

    response = client.post(path) if "import" in path else client.get(path)

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"
    assert Group.objects.count() == 1


def test_it_answers_404_for_the_export_of_a_group_that_does_not_exist(member):
    assert member.get("/groups/999999/export.json").status_code == 404


def _upload(data: object) -> io.BytesIO:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "thursday-tractor.json"
    return upload
