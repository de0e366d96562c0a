"""A group's export and import: the JSON file holds everything and reads back to the same
text for every table (4 to 8 players, partners, pairs, find-a-friend), an export of the
four-seat days reads into today's form, the CSV has one row per hand with `scoring`'s results,
and a bad file is refused with its problem named and nothing made."""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

from companion import exchange
from companion.exchange import exporting, importing
from companion.models import (
    Dispute,
    Game,
    GameSummary,
    Group,
    GroupChange,
    Hand,
    HandChange,
    Membership,
    Player,
)
from scoring import Suit, Teams, TrumpRule, get_rules
from scoring.cli import judge_request

pytestmark = pytest.mark.django_db

# An export made by the four-seat version (file version 1): Thursday Tractor's roster of five,
# a house table and three games. Game 1 (standard, 5 v 4): Mei north, Jun east, Lin south, Hao
# west, East chosen to start (under bidding, which it never bound); hand 2 bid big jokers but
# played spades then (after an edit) diamonds, hand 3 bid a pair with no trump; a precedent on
# hand 2 and one waiting for hand 4. Game 2 (kawu): Jun, Zoe, Hao, Mei from north, West (Mei)
# chosen to start; hand 2 undone and entered again. Game 3 (standard, A v K): Lin, Hao, Zoe,
# Jun from north; North-South hold at A and win.
FOUR_SEAT_V1 = Path(__file__).parent / "exports" / "four_seat_v1.json"
# An export from before second-seat confirmation (file version 2): the find-a-friend game of six
# and the pairs game of eight of the fixtures below, exported as they were then.
EIGHT_SEAT_V2 = Path(__file__).parent / "exports" / "eight_seat_v2.json"

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
    "declarer": "Mei",
    "friends": [],
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
    "declarer": "Lin",
    "friends": [],
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
# A hand entered while nobody asked for a confirmation, as every hand of a version 2 file reads.
UNCONFIRMED = {
    "entered_by": None,
    "needs_confirmation": False,
    "confirmed_by": None,
    "confirmed_at": None,
    "flagged_by": None,
    "flagged_at": None,
    "flag_note": "",
}
# The disputed trick: Jun's big joker takes Mei's king of trumps.
TRICK = {
    "rules": "standard",
    "level": "3",
    "trump": "S",
    "plays": [["Mei", ["KS"]], ["Jun", ["BJ"]], ["Lin", ["2S"]], ["Hao", ["4S"]]],
}
# Thursday Tractor as a hand-written export: the cast, a house table, one standard game of two
# hands (the second's trump corrected), a dispute saved to hand 2.
DOCUMENT = {
    "format": "tractor-companion-group",
    "version": 4,
    "group": {
        "name": "Thursday Tractor",
        "created": "2025-01-02T18:00:00+00:00",
        "hands_need_confirmation": False,
    },
    "members": [{"username": "mei", "joined": "2025-01-02T18:00:00+00:00", "role": "admin"}],
    "players": [
        {"name": "Mei", "user": "mei", "retired": False},
        {"name": "Jun", "user": None, "retired": False},
        {"name": "Lin", "user": None, "retired": False},
        {"name": "Hao", "user": None, "retired": False},
        {"name": "Zoe", "user": None, "retired": True},
    ],
    "scoring_tables": [{"rules": HOUSE, "updated": "2025-01-09T20:00:00.250000+00:00"}],
    "log": [],
    "games": [
        {
            "created": THURSDAY,
            "created_by": "mei",
            "rules": get_rules("standard").to_json(),
            "seats": [
                {"player": "Mei", "level": "2"},
                {"player": "Jun", "level": "2"},
                {"player": "Lin", "level": "2"},
                {"player": "Hao", "level": "2"},
            ],
            "decks": 2,
            "teams": "partners",
            "trumps": "bid",
            "called": None,
            "first_declarer": None,
            "hands": [
                {
                    **FIRST,
                    "created": "2025-03-06T19:35:00+00:00",
                    "updated": "2025-03-06T19:35:00+00:00",
                    **UNCONFIRMED,
                },
                {
                    **SECOND,
                    "created": "2025-03-06T19:41:00+00:00",
                    "updated": "2025-03-06T19:44:10.500000+00:00",
                    **UNCONFIRMED,
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
                    "note": "",
                },
                {
                    "hand_number": 2,
                    "action": "recorded",
                    "before": None,
                    "after": {"number": 2, **SECOND, "trump": "H"},
                    "by": None,
                    "at": "2025-03-06T19:41:00+00:00",
                    "note": "",
                },
                {
                    "hand_number": 2,
                    "action": "edited",
                    "before": {"number": 2, **SECOND, "trump": "H"},
                    "after": {"number": 2, **SECOND},
                    "by": "mei",
                    "at": "2025-03-06T19:44:10.500000+00:00",
                    "note": "",
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


def forget_the_import(group: Group) -> Group:
    """``group`` as its file made it: its log without the import's own entry, the latest."""
    latest = group.changes.first()
    assert latest.action == GroupChange.Action.IMPORTED
    latest.delete()
    return group


def entered(declarer: int, **fields) -> dict:
    """A hand as the hand form saves it (seats by number): by default one heart bid, 40 points
    to the opponents, the last trick a single the declarers win."""
    return {
        "declarer": declarer,
        "friends": [],
        "bid": "one",
        "trump": "H",
        "kitty_cards": "",
        "kitty_points": 0,
        "opponent_points": 40,
        "last_trick_winner": "declarers",
        "last_trick_format": "single",
        "last_trick_cards": 1,
        **fields,
    }


def record(game: Game, user, *hands: dict) -> None:
    for fields in hands:
        game.record_hand(fields, version=game.version, request_key="", by=user)


@pytest.fixture
def eight(players, group) -> list[Player]:
    """The cast and four more, in play order: Mei, Jun, Lin, Hao, Wei, Yan, Kai, Bo."""
    more = [Player.objects.create(group=group, name=name) for name in ("Wei", "Yan", "Kai", "Bo")]
    return [*players, *more]


@pytest.fixture
def friends_game(start_game, eight, user) -> Game:
    """Six players find friends (standard rules, 3 decks, one card called). Hand 1: Mei calls
    Lin and they hold; hand 2: Lin finds nobody and the opponents take over with a kitty of
    six cards; hand 3: Hao calls Mei (entered at 100, corrected to 95). A precedent on hand 2."""
    game = start_game(seated=eight[:6], teams=Teams.FIND_A_FRIEND)
    record(
        game,
        user,
        entered(0, friends=[2], opponent_points=60, kitty_points=10),
        entered(
            2,
            bid="pair",
            trump="S",
            kitty_cards="5H 5S TD KC 2C 3C",
            kitty_points=30,
            opponent_points=150,
            last_trick_winner="opponents",
            last_trick_format="pair",
            last_trick_cards=2,
        ),
        entered(3, friends=[0], bid="big-jokers", trump="", opponent_points=100),
    )
    game.edit_hand(3, {"opponent_points": 95}, version=game.version, by=user)
    trick = {**TRICK, "decks": 3, "plays": [*TRICK["plays"], ["Wei", ["3S"]], ["Yan", ["5S"]]]}
    game.add_dispute(2, trick, judge_request(trick), by=user)
    return game


@pytest.fixture
def pairs_game(start_game, eight, user) -> Game:
    """Eight players in pairs (partners opposite, 4 decks), trump fixed to spades then hearts
    in turn, Yan chosen to start. Hand 1: Yan and Jun hold and climb to 3; hand 2: Jun's pair
    loses the deal to Lin and Kai (a kitty of eight cards); hand 3: Lin and Kai climb to 4."""
    game = start_game(
        seated=eight,
        teams=Teams.PAIRS,
        trumps=TrumpRule(suits=(Suit.SPADES, Suit.HEARTS)),
        first_declarer=5,
    )
    record(
        game,
        user,
        entered(5, bid="", trump="S", opponent_points=90),
        entered(
            1,
            bid="",
            trump="H",
            kitty_cards="KH KH KH KH 5C 5C 2D 3D",
            kitty_points=50,
            opponent_points=170,
        ),
        entered(2, bid="", trump="S", opponent_points=20),
    )
    return game


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
    assert [player.name for player in game.players] == ["Mei", "Jun", "Lin", "Hao"]
    assert game.created_by == user
    assert game.version == 3
    first, second = game.hands.all()
    assert (first.declarer, second.declarer) == (0, 2)
    assert second.kitty_cards == "5H 5S TD KC 2C 3C 4C 6C"
    assert second.updated == datetime(2025, 3, 6, 19, 44, 10, 500000, tzinfo=UTC)
    assert [str(level) for level in game.scored().state.levels] == ["3", "2", "3", "2"]
    assert [change.action for change in game.changes.order_by("pk")] == [
        "recorded",
        "recorded",
        "edited",
    ]
    assert game.changes.order_by("pk").last().before["declarer"] == 2
    assert game.changes.filter(by=None).count() == 1
    dispute = Dispute.objects.get(game=game)
    assert (dispute.hand, dispute.created_by, dispute.verdict["winner"]) == (second, user, "Jun")


def test_it_exports_an_import_as_the_same_document(user):
    group = import_text(json.dumps(DOCUMENT), name="Restored", members=[user])

    again = exchange.export_group(forget_the_import(group))

    assert again == {**DOCUMENT, "group": {**DOCUMENT["group"], "name": "Restored"}}


def test_it_exports_a_game_recorded_at_the_table(group, start_game, user):
    game = start_game("kawu", first_declarer=0)
    record(game, user, entered(0, kitty_points=10, opponent_points=45))
    game.edit_hand(1, {"trump": "D"}, version=1, by=user)

    exported = exchange.export_group(group)

    assert exported["version"] == 4
    assert exported["members"] == [
        {
            "username": "mei",
            "joined": exchange.isoformat(Membership.objects.get().joined),
            "role": "admin",
        }
    ]
    assert [player["name"] for player in exported["players"]] == ["Mei", "Jun", "Lin", "Hao"]
    (entry,) = exported["games"]
    assert entry["rules"]["name"] == "kawu"
    assert entry["seats"] == [
        {"player": "Mei", "level": "2"},
        {"player": "Jun", "level": "2"},
        {"player": "Lin", "level": "2"},
        {"player": "Hao", "level": "2"},
    ]
    assert (entry["decks"], entry["teams"], entry["trumps"], entry["called"]) == (
        2,
        "partners",
        "bid",
        None,
    )
    assert entry["first_declarer"] == "Mei"
    hand = {key: value for key, value in entry["hands"][0].items() if key in FIRST}
    assert hand == {**FIRST, "trump": "D"}
    assert "request_key" not in entry["hands"][0]
    assert [(c["action"], c["by"]) for c in entry["changes"]] == [
        ("recorded", "mei"),
        ("edited", "mei"),
    ]
    assert entry["changes"][1]["before"] == {"number": 1, **FIRST, "trump": "H"}
    assert "share_token" not in json.dumps(exported)


def test_a_six_player_find_a_friend_game_round_trips_byte_for_byte(group, friends_game, user):
    text = exchange.dumps(group)

    copy_ = import_text(text, name="Copy", members=[user])

    forget_the_import(copy_)
    assert exchange.dumps(copy_) == text.replace('"name":"Thursday Tractor"', '"name":"Copy"', 1)
    (entry,) = json.loads(text)["games"]
    assert entry["seats"][5] == {"player": "Yan", "level": "2"}
    assert (entry["decks"], entry["teams"], entry["called"]) == (3, "find-a-friend", 1)
    assert [(hand["declarer"], hand["friends"]) for hand in entry["hands"]] == [
        ("Mei", ["Lin"]),
        ("Lin", []),
        ("Hao", ["Mei"]),
    ]
    assert entry["changes"][-1]["before"]["friends"] == ["Mei"]
    game = copy_.games.get()
    assert game.table.teams is Teams.FIND_A_FRIEND
    assert game.scored().state.levels == friends_game.scored().state.levels
    assert game.disputes.get().hand.number == 2


def test_an_eight_player_pairs_game_round_trips_byte_for_byte(group, pairs_game, user):
    text = exchange.dumps(group)

    copy_ = import_text(text, members=[user])

    assert exchange.dumps(forget_the_import(copy_)) == text
    (entry,) = json.loads(text)["games"]
    assert [seat["player"] for seat in entry["seats"]] == [
        "Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Kai", "Bo",
    ]  # fmt: skip
    assert (entry["decks"], entry["teams"], entry["trumps"]) == (4, "pairs", ["S", "H"])
    assert entry["first_declarer"] == "Yan"
    assert [(hand["declarer"], hand["bid"]) for hand in entry["hands"]] == [
        ("Yan", ""),
        ("Jun", ""),
        ("Lin", ""),
    ]
    state = copy_.games.get().scored().state
    assert state == pairs_game.scored().state
    assert [str(state.levels[seat]) for seat in (1, 5, 2, 6, 0)] == ["3", "3", "4", "4", "2"]


def account(group: Group, player: Player) -> User:
    """An account for ``player``, a member of ``group``."""
    player.user = User.objects.create_user(player.name.lower())
    player.save()
    Membership.objects.create(group=group, user=player.user)
    return player.user


@pytest.fixture
def confirmed_game(group, players, start_game, user) -> Game:
    """Thursday Tractor asks for each hand's confirmation; Jun and Hao have accounts. Mei
    enters every hand. Hand 1: Jun confirms it. Hand 2: Hao flags it, Mei takes the flag back,
    Jun flags it again with a note. Hand 3: entered while the group did not ask, so it needs no
    confirmation. Hand 4 waits for its confirmation."""
    players[0].user = user
    players[0].save()
    jun, hao = account(group, players[1]), account(group, players[3])
    group.ask_for_confirmations(True)
    game = start_game()
    record(game, user, entered(0), entered(2))
    game.confirm_hand(1, seen=game.version, by=jun)
    game.flag_hand(2, "Hao counted 50 for the opponents", by=hao)
    game.unflag_hand(2, by=user)
    game.flag_hand(2, "the last trick was a pair", by=jun)
    for asked, declarer in ((False, 0), (True, 2)):
        group.ask_for_confirmations(asked)  # the waiting hands change: a new game version
        game.refresh_from_db(fields=["version"])
        record(game, user, entered(declarer))
    return game


def test_confirmations_flags_and_their_notes_round_trip_byte_for_byte(group, confirmed_game):
    text = exchange.dumps(group)
    members = [membership.user for membership in group.membership_set.order_by("pk")]

    copy_ = import_text(text, name="Copy", members=members)

    forget_the_import(copy_)
    assert exchange.dumps(copy_) == text.replace('"name":"Thursday Tractor"', '"name":"Copy"', 1)
    exported = json.loads(text)
    assert exported["group"]["hands_need_confirmation"] is True
    (entry,) = exported["games"]
    assert [
        (
            h["entered_by"],
            h["needs_confirmation"],
            h["confirmed_by"],
            h["flagged_by"],
            h["flag_note"],
        )
        for h in entry["hands"]
    ] == [
        ("mei", True, "jun", None, ""),
        ("mei", True, None, "jun", "the last trick was a pair"),
        ("mei", False, None, None, ""),
        ("mei", True, None, None, ""),
    ]
    hand = entry["hands"][0]
    assert hand["confirmed_at"] == exchange.isoformat(
        confirmed_game.hands.get(number=1).confirmed_at
    )
    assert [(c["action"], c["hand_number"], c["by"], c["note"]) for c in entry["changes"]] == [
        ("recorded", 1, "mei", ""),
        ("recorded", 2, "mei", ""),
        ("confirmed", 1, "jun", ""),
        ("flagged", 2, "hao", "Hao counted 50 for the opponents"),
        ("unflagged", 2, "mei", ""),
        ("flagged", 2, "jun", "the last trick was a pair"),
        ("recorded", 3, "mei", ""),
        ("recorded", 4, "mei", ""),
    ]
    game = copy_.games.get()
    assert copy_.hands_need_confirmation
    assert game.unconfirmed_hands == [2, 4]
    flagged = game.hands.get(number=2)
    assert (flagged.flagged_by.username, flagged.flag_note) == ("jun", "the last trick was a pair")
    assert not game.counts


def test_a_copy_imported_by_one_member_exports_a_file_that_imports_again(
    group, confirmed_game, user
):
    """As the import page makes it, the copy has the importer as its one member: the next file
    credits confirmations and flags to accounts it does not list as members."""
    copy_ = import_text(exchange.dumps(group), members=[user])
    text = exchange.dumps(copy_)
    assert [member["username"] for member in json.loads(text)["members"]] == ["mei"]

    again = import_text(text, members=[user])

    assert exchange.dumps(forget_the_import(again)) == text
    assert again.games.get().hands.get(number=1).confirmed_by.username == "jun"


def test_a_hand_written_confirmation_imports_with_its_accounts_linked(user):
    jun = User.objects.create_user("jun")
    data = _confirming(document())

    group = import_text(json.dumps(data), members=[user])

    hand = group.games.get().hands.get(number=1)
    assert (hand.entered_by, hand.confirmed_by, hand.confirmed_at) == (
        user,
        jun,
        datetime(2025, 3, 6, 19, 36, tzinfo=UTC),
    )
    assert group.games.get().version == 4
    assert exchange.export_group(forget_the_import(group)) == data


def version_2(data: dict) -> dict:
    """A version 4 document as version 2 wrote it, without what confirmation, roles and the
    group's log added."""
    data["version"] = 2
    del data["group"]["hands_need_confirmation"]
    del data["log"]
    for member in data["members"]:
        del member["role"]
    for game in data["games"]:
        for hand in game["hands"]:
            for key in UNCONFIRMED:
                del hand[key]
        for change in game["changes"]:
            del change["note"]
    return data


def test_a_version_2_file_imports_with_no_hand_needing_a_confirmation(user):
    group = import_text(json.dumps(version_2(document())), members=[user])

    assert exchange.export_group(forget_the_import(group)) == DOCUMENT
    assert not group.hands_need_confirmation
    assert not group.games.get().hands.filter(needs_confirmation=True).exists()


def test_an_export_from_before_confirmations_reads_as_the_migration_reads_old_hands(user):
    old = json.loads(EIGHT_SEAT_V2.read_text())
    assert old["version"] == 2

    group = import_text(EIGHT_SEAT_V2.read_bytes(), members=[user])

    exported = exchange.export_group(group)
    assert exported["version"] == 4
    assert exported["group"] == {**old["group"], "hands_need_confirmation": False}
    assert [[hand["created"] for hand in game["hands"]] for game in exported["games"]] == [
        [hand["created"] for hand in game["hands"]] for game in old["games"]
    ]
    for game in exported["games"]:
        assert all(hand.items() >= UNCONFIRMED.items() for hand in game["hands"])
        assert {change["note"] for change in game["changes"]} == {""}
    assert version_2(exported) == old
    assert all(game.counts for game in group.games.all())


def test_an_export_of_the_four_seat_days_imports_in_todays_form(user):
    group = import_text(FOUR_SEAT_V1.read_bytes(), members=[user])

    exported = exchange.export_group(group)
    standard, kawu, aces = exported["games"]
    assert exported["version"] == 4
    assert exported["group"]["hands_need_confirmation"] is False
    assert all(hand.items() >= UNCONFIRMED.items() for hand in standard["hands"])
    # North, West, South, East: play order; partners 0+2 (north-south) against 1+3.
    assert standard["seats"] == [
        {"player": "Mei", "level": "5"},
        {"player": "Hao", "level": "4"},
        {"player": "Lin", "level": "5"},
        {"player": "Jun", "level": "4"},
    ]
    assert (standard["decks"], standard["teams"], standard["trumps"]) == (2, "partners", "bid")
    # A chosen first starter bound only the rules that rotate the start.
    assert (standard["first_declarer"], kawu["first_declarer"]) == (None, "Mei")
    assert [(h["declarer"], h["bid"], h["trump"]) for h in standard["hands"]] == [
        ("Mei", "one", "H"),
        ("Lin", "none", "D"),
        ("Jun", "none", ""),
    ]
    assert [(c["action"], c["before"] and c["before"]["declarer"]) for c in kawu["changes"]] == [
        ("recorded", None),
        ("recorded", None),
        ("deleted", "Zoe"),
        ("recorded", None),
        ("recorded", None),
    ]
    assert [dispute["hand"] for dispute in standard["disputes"]] == [2, None]
    # The same levels and winners as the four-seat version scored (north-south, east-west).
    games = group.games.order_by("pk")
    assert [
        [(str(hand.after.levels[0]), str(hand.after.levels[1]), hand.winner.value) for hand in h]
        for h in (game.scored().hands for game in games)
    ] == [
        [("6", "4", "declarers"), ("6", "4", "opponents"), ("6", "4", "opponents")],
        [("2", "4", "declarers"), ("3", "4", "opponents"), ("5", "4", "declarers")],
        [("A", "K", "opponents"), ("A", "K", "declarers")],
    ]  # fmt: skip
    assert [game.scored().state.winners for game in games] == [(), (), (0, 2)]
    assert [seat["player"] for seat in aces["seats"][::2]] == ["Lin", "Zoe"]
    # From then on the file is today's, and reads back to the same text.
    text = exchange.dumps(group)
    assert exchange.dumps(forget_the_import(import_text(text, members=[user]))) == text


def test_an_old_file_reads_as_migration_0005_converts_the_same_games(transactional_db, user):
    """The file of the four-seat days, imported today, and the database it came from, migrated,
    export the same text."""
    executor = MigrationExecutor(connection)
    before = [("companion", "0004_hand_cards_taken_back")]
    executor.migrate(before)
    _restore_with_the_four_seat_models(executor.loader.project_state(before).apps, user)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    migrated = exchange.dumps(Group.objects.get())
    imported = import_text(FOUR_SEAT_V1.read_bytes(), members=[user])

    assert exchange.dumps(forget_the_import(imported)) == migrated


def _restore_with_the_four_seat_models(apps, user) -> None:
    """The old file's group, written row by row as the four-seat version kept it."""
    data = json.loads(FOUR_SEAT_V1.read_text())

    def make(model_name: str, times: tuple[str, ...] = (), **fields):
        model = apps.get_model("companion", model_name)
        row = model.objects.create(**fields)
        # Keep the file's times over auto_now and auto_now_add.
        model.objects.filter(pk=row.pk).update(**{time: fields[time] for time in times})
        return row

    def account(username):
        return user.pk if username == user.username else None

    group = make(
        "Group", ("created",), name=data["group"]["name"], created=data["group"]["created"]
    )
    for member in data["members"]:
        make(
            "Membership",
            ("joined",),
            group=group,
            user_id=account(member["username"]),
            joined=member["joined"],
        )
    players = [
        make("Player", group=group, name=player["name"], user_id=account(player["user"]))
        for player in data["players"]
    ]
    for table in data["scoring_tables"]:
        make(
            "ScoringTable",
            ("updated",),
            group=group,
            rules_json=table["rules"],
            updated=table["updated"],
        )
    for entry in data["games"]:
        game = make(
            "Game",
            ("created",),
            group=group,
            rules_json=entry["rules"],
            **{seat: players[number] for seat, number in entry["seats"].items()},
            north_south_level=entry["north_south_level"],
            east_west_level=entry["east_west_level"],
            first_starter=entry["first_starter"],
            created=entry["created"],
            created_by_id=account(entry["created_by"]),
            version=len(entry["changes"]),
        )
        hands = [
            make("Hand", ("created", "updated"), game=game, number=number, **hand)
            for number, hand in enumerate(entry["hands"], start=1)
        ]
        for change in entry["changes"]:
            by = account(change.pop("by"))
            make("HandChange", ("at",), game=game, by_id=by, **change)
        for dispute in entry["disputes"]:
            by = account(dispute.pop("created_by"))
            linked = dispute.pop("hand")
            hand = hands[linked - 1] if linked else None
            make("Dispute", ("created",), game=game, hand=hand, created_by_id=by, **dispute)


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
        "game", "date", "rules", "teams", "decks", "seat_1", "seat_2", "seat_3", "seat_4",
        "seat_5", "seat_6", "seat_7", "seat_8", "hand", "declarer", "friends", "bid", "trump",
        "kitty_cards", "kitty_points", "opponent_points", "last_trick_winner",
        "last_trick_format", "last_trick_cards", "declarer_cards_taken_back",
        "opponent_cards_taken_back", "declarers", "opponents", "opponent_total", "winner",
        "level_1", "level_2", "level_3", "level_4", "level_5", "level_6", "level_7", "level_8",
    ]  # fmt: skip
    table = [str(game.pk), game.created.date().isoformat(), "standard", "partners", "2",
             "Mei", "Jun", "Lin", "Hao", "", "", "", ""]  # fmt: skip
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


def test_it_downloads_the_export_as_a_json_file(member, group, players):
    response = member.get(f"/groups/{group.pk}/export.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-tractor-')
    assert response["Content-Disposition"].endswith('.json"')
    assert json.loads(response.getvalue())["players"][0] == {
        "name": "Mei",
        "user": None,
        "retired": False,
    }


def test_the_group_page_links_to_both_exports(member, group):
    page = member.get(f"/groups/{group.pk}/").text

    assert f'href="/groups/{group.pk}/export.json"' in page
    assert f'href="/groups/{group.pk}/export.csv"' in page


def test_it_imports_a_file_as_a_new_group_with_the_importer_as_its_member(member, user, outsider):
    data = document()
    data["members"].append({"username": "zoe", "joined": THURSDAY, "role": "member"})
    data["players"][4]["user"] = "zoe"

    response = member.post("/groups/import/", {"file": _upload(data), "name": ""}, follow=True)

    group = Group.objects.get(name="Thursday Tractor")
    assert list(group.members.all()) == [user]
    # Zoe shares no group with Mei: the file cannot link her account.
    assert group.players.get(name="Zoe").user is None
    assert "Imported Thursday Tractor: 5 players, 1 game, 2 hands." in response.text
    assert "is credited to nobody: zoe." in response.text
    assert response.redirect_chain == [(group.get_absolute_url(), 302)]


def test_it_imports_an_old_file_through_the_page(member, user):
    upload = io.BytesIO(FOUR_SEAT_V1.read_bytes())
    upload.name = "four_seat_v1.json"

    response = member.post("/groups/import/", {"file": upload, "name": "Old"}, follow=True)

    assert "Imported Old: 5 players, 3 games, 8 hands." in response.text
    assert Group.objects.get(name="Old").games.count() == 3


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


def test_it_round_trips_a_500_game_history_through_the_pages(client, django_user_model):
    """The issue's case: two years of weekly games, exported, imported, exported again."""
    call_command(
        "demo_history", "--games=500", "--seed=11", "--until=2025-06-26", "--group=Ladder club"
    )
    source = Group.objects.get(name="Ladder club")
    client.force_login(django_user_model.objects.get(username="demo"))
    text = client.get(f"/groups/{source.pk}/export.json").getvalue()
    exported = json.loads(text)
    assert len(exported["games"]) == 500
    assert 8_000 <= sum(len(game["hands"]) for game in exported["games"]) <= 12_500

    upload = io.BytesIO(text)
    upload.name = "ladder-club.json"
    response = client.post("/groups/import/", {"file": upload, "name": "Ladder club (copy)"})

    copy_ = Group.objects.get(name="Ladder club (copy)")
    assert response.status_code == 302
    assert response["Location"] == copy_.get_absolute_url()
    forget_the_import(copy_)
    again = client.get(f"/groups/{copy_.pk}/export.json").getvalue()
    assert again == text.replace(b'"name":"Ladder club"', b'"name":"Ladder club (copy)"', 1)


# Bad files: (what is wrong, how to break the file, what the message says).


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


CONFIRMED_AT = "2025-03-06T19:36:00+00:00"


def _confirming(data: dict) -> dict:
    """Thursday Tractor asking for confirmations: Jun confirmed hand 1, which Mei entered."""
    data["group"]["hands_need_confirmation"] = True
    hand = data["games"][0]["hands"][0]
    hand.update(
        entered_by="mei", needs_confirmation=True, confirmed_by="jun", confirmed_at=CONFIRMED_AT
    )
    confirmed = {"hand_number": 1, "action": "confirmed", "before": None, "after": None}
    confirmed.update(by="jun", at=CONFIRMED_AT, note="")
    data["games"][0]["changes"].insert(1, confirmed)
    return data


def _confirmed(change):
    return _both(_confirming, change)


def _seat_zoe(data: dict) -> dict:
    data["games"][0]["seats"].append({"player": "Zoe", "level": "2"})
    return data


BAD = [
    ("a list", lambda data: [data], "The file must be a JSON object, not [{"),
    (
        "another format",
        _set("format", "something-else"),
        'The file is not a group export: its format is "something-else", '
        'not "tractor-companion-group".',
    ),
    (
        "a later version",
        _set("version", 5),
        "The file is version 5 of the export format, and this server reads versions 1 to 4.",
    ),
    ("no version", _set("version", KeyError), "The file is not a group export: it has no version."),
    ("no games", _set("games", KeyError), "The key games is missing."),
    (
        "a hand without its declarer",
        _set("games.0.hands.1.declarer", KeyError),
        "Game 1, hand 2: The key declarer is missing.",
    ),
    (
        "an unknown key",
        _set("games.0.winner", "NS"),
        "Game 1: winner is not a key this server knows.",
    ),
    (
        "a declarer scoring refuses",
        _set("games.0.hands.1.declarer", "Jun"),
        "Game 1, hand 2: Jun cannot start this hand: Mei or Lin may start it",
    ),
    (
        "a declarer away from the table",
        _set("games.0.hands.0.declarer", "Zoe"),
        "Game 1, hand 1: declarer must be one of the players at the table, "
        'Mei, Jun, Lin or Hao, not "Zoe".',
    ),
    (
        "a declarer by seat number",
        _set("games.0.hands.0.declarer", 0),
        "Game 1, hand 1: declarer must be one of the players at the table",
    ),
    (
        "a friend under partners",
        _set("games.0.hands.0.friends", ["Lin"]),
        "Game 1, hand 1: Only find-a-friend hands have friends.",
    ),
    (
        "five players as partners",
        _seat_zoe,
        "Game 1: partners need an even number of players (4, 6 or 8), got 5",
    ),
    ("four players in pairs", _set("games.0.teams", "pairs"), "Game 1: pairs need 6 or 8 players"),
    (
        "teams nobody plays",
        _set("games.0.teams", "three-handed"),
        "Game 1: teams must be one of 'partners', 'pairs', 'find-a-friend', not \"three-handed\".",
    ),
    ("five decks", _set("games.0.decks", 5), "Game 1: decks must be 2, 3 or 4, got 5"),
    (
        "a trump rule nobody plays",
        _set("games.0.trumps", ["S", "S"]),
        'Game 1: trumps must be "bid", "no-trump" or a list of 1 to 4 different suits, '
        "got ['S', 'S']",
    ),
    (
        "cards called by partners",
        _set("games.0.called", 1),
        "Game 1: only find-a-friend declarers call cards",
    ),
    (
        "partners at two levels",
        _set("games.0.seats.2.level", "3"),
        "Game 1: Mei and Lin are a team and share one level",
    ),
    (
        "a first declarer away from the table",
        _set("games.0.first_declarer", "Zoe"),
        "Game 1: first_declarer must be one of the players at the table",
    ),
    (
        "a bid that contradicts the trump",
        _set("games.0.hands.0.bid", "big-jokers"),
        "Game 1, hand 1: Big jokers won the bid, so the hand has no trump, not ♥",
    ),
    (
        "more points than the deck holds",
        _set("games.0.hands.0.opponent_points", 195),
        "Game 1, hand 1: The opponents' 195 points and the kitty's 10 make 205, more than the 200 "
        "in 2 decks.",
    ),
    (
        "a throw under rules without throws",
        _set("games.0.hands.0.last_trick_format", "throw"),
        "Game 1, hand 1: These rules allow no throws, so the last trick was not a throw.",
    ),
    (
        "points as text",
        _set("games.0.hands.0.opponent_points", "45"),
        'Game 1, hand 1: opponent_points must be a whole number, not "45".',
    ),
    (
        "a kitty that holds other points",
        _set("games.0.hands.1.kitty_points", 25),
        'Game 1, hand 2: kitty_cards "5H 5S TD KC 2C 3C 4C 6C" hold 30 points, '
        "but kitty_points is 25.",
    ),
    (
        "a kitty of another table",
        _both(
            _set("games.0.hands.1.kitty_cards", "5H 5S TD KC 2C 3C"),
            _set("games.0.hands.1.kitty_points", 30),
        ),
        "Game 1, hand 2: kitty_cards holds 6 cards, but this table's kitty holds 8.",
    ),
    (
        "a bid nobody makes",
        _set("games.0.hands.0.bid", "three"),
        "Game 1, hand 1: bid must be one of '', 'one', 'pair', 'small-jokers', 'big-jokers', "
        "'none', not \"three\".",
    ),
    (
        "rules scoring refuses",
        _set("scoring_tables.0.rules.bands.1.from", 85),
        "Scoring table 1: rules: Band 2 leaves a gap: no band holds 80.",
    ),
    (
        "a seat for nobody",
        _set("games.0.seats.3.player", "Xi"),
        'Game 1, seat 4: player must be a name on the roster, not "Xi".',
    ),
    (
        "a player in two seats",
        _set("games.0.seats.3.player", "Mei"),
        "Game 1: Mei sits at the table twice",
    ),
    (
        "a player twice",
        _set("players.4.name", "Mei"),
        'Player 5: "Mei" is on the roster twice.',
    ),
    (
        "a player twice in another case",
        _set("players.4.name", "mEI"),
        'Player 5: "mEI" is on the roster twice.',
    ),
    (
        "a table twice in another case",
        lambda data: {
            **data,
            "scoring_tables": [
                *data["scoring_tables"],
                {
                    **data["scoring_tables"][0],
                    "rules": {**data["scoring_tables"][0]["rules"], "name": "HOUSE"},
                },
            ],
        },
        'Scoring table 2: Two of the group\'s scoring tables are called "HOUSE".',
    ),
    (
        "a level of 10",
        _set("games.0.seats.0.level", "10"),
        'Game 1, seat 1: level must be a level, one of 23456789TJQKA, not "10".',
    ),
    (
        "a time without its zone",
        _set("games.0.created", "2025-03-06T19:30:00"),
        "Game 1: created must be a date and time with its UTC offset",
    ),
    (
        "a history naming someone away from the table",
        _set("games.0.changes.2.before.declarer", "Zoe"),
        "Game 1, change 3: before.declarer must be one of the players at the table",
    ),
    (
        "a history holding a list",
        _set("games.0.changes.2.before.trump", ["H"]),
        'Game 1, change 3: before.trump must be a number or text, not ["H"].',
    ),
    (
        "a dispute on a hand the game lacks",
        _set("games.0.disputes.0.hand", 3),
        "Game 1, dispute 1: hand must be null or the number of one of the game's 2 hands, not 3.",
    ),
    (
        "a NUL in a name",
        _set("players.1.name", "J\x00un"),
        "Player 2: name holds a NUL character.",
    ),
    (
        "a forged verdict",
        _set("games.0.disputes.0.verdict.winner", "Mei"),
        "Game 1, dispute 1: The verdict is not the one this server gives for the trick.",
    ),
    (
        "a dispute scoring cannot judge",
        _set("games.0.disputes.0.request.plays", []),
        "Game 1, dispute 1: request: plays is empty: a trick needs at least its lead",
    ),
    (
        "one account for two players",
        _both(_set("players.0.user", "mei"), _set("players.1.user", "mei")),
        'Player 2: The account "mei" is another player already.',
    ),
    (
        "a band climbing past the bound",
        _set("games.0.rules.bands.0.levels", 13),
        "Game 1: rules: Band 1 must give a whole number of levels from 0 to 12, not 13.",
    ),
    (
        "a band starting past the bound",
        _set("scoring_tables.0.rules.bands.1.from", 10**3000),
        "Scoring table 1: rules: Band 2 must start at a multiple of 5 from 0 to 1000, "
        "not a number of more than 100 digits.",
    ),
    (
        "a history that edits a hand into another",
        _set("games.0.changes.2.after.opponent_points", 65),
        "Game 1, hand 2: The history leaves its opponent_points at 65, but the hand has 60.",
    ),
    (
        "a history that forgets a hand",
        lambda data: _set("games.0.changes", data["games"][0]["changes"][:1])(data),
        "Game 1: The history leads to 1 hand, but the game has 2.",
    ),
    (
        "a history that edits a hand never recorded",
        _set("games.0.changes.0.action", "edited"),
        'Game 1, change 1: This change, "edited", is about hand 1, but the history had 0 hands '
        "then.",
    ),
    (
        "a group without its confirmation setting",
        _set("group.hands_need_confirmation", KeyError),
        "The key group.hands_need_confirmation is missing.",
    ),
    (
        "a hand without its confirmation",
        _set("games.0.hands.0.needs_confirmation", KeyError),
        "Game 1, hand 1: The key needs_confirmation is missing.",
    ),
    (
        "a confirmation as text",
        _set("games.0.hands.0.needs_confirmation", "yes"),
        'Game 1, hand 1: needs_confirmation must be true or false, not "yes".',
    ),
    (
        "a confirmation at no time",
        _confirmed(_set("games.0.hands.0.confirmed_at", "yesterday")),
        "Game 1, hand 1: confirmed_at must be a date and time with its UTC offset",
    ),
    (
        "a confirmation without its time",
        _confirmed(_set("games.0.hands.0.confirmed_at", None)),
        'Game 1, hand 1: The hand says "jun" confirmed it, but not when.',
    ),
    (
        "a flag without its time",
        _confirmed(_set("games.0.hands.1.flagged_by", "jun")),
        'Game 1, hand 2: The hand says "jun" flagged it, but not when.',
    ),
    (
        "a flag's note without a flag",
        _confirmed(_set("games.0.hands.0.flag_note", "the kitty held 25")),
        'Game 1, hand 1: The hand holds a flag\'s note, "the kitty held 25", but nobody '
        "flagged it.",
    ),
    (
        "a flag's note of a page",
        _set("games.0.hands.1.flag_note", "wrong " * 40),
        "Game 1, hand 2: flag_note is longer than 200 characters",
    ),
    (
        "a hand confirmed and flagged",
        _confirmed(_set("games.0.hands.0.flagged_at", CONFIRMED_AT)),
        "Game 1, hand 1: The hand is both confirmed and flagged, but a flag takes a confirmation "
        "back.",
    ),
    (
        "a confirmation nobody asked for",
        _confirmed(_set("games.0.hands.0.needs_confirmation", False)),
        "Game 1, hand 1: The hand is confirmed, but it was entered without needing a confirmation.",
    ),
    (
        "a flag nobody asked for",
        _both(
            _set("games.0.hands.1.flagged_by", "jun"),
            _set("games.0.hands.1.flagged_at", CONFIRMED_AT),
        ),
        "Game 1, hand 2: The hand is flagged, but it was entered without needing a confirmation.",
    ),
    (
        "a confirmation by the account that entered the hand",
        _confirmed(_set("games.0.hands.0.confirmed_by", "mei")),
        'Game 1, hand 1: "mei" entered the hand and confirmed it, but a confirmation comes from '
        "another account.",
    ),
    (
        "a confirmation of a hand not recorded yet",
        _confirmed(_set("games.0.changes.1.hand_number", 2)),
        'Game 1, change 2: This change, "confirmed", is about hand 2, but the history had 1 hand '
        "then.",
    ),
    (
        "a flag in place of a hand",
        _confirmed(
            _both(
                _set("games.0.changes.2.action", "flagged"), _set("games.0.changes.2.after", None)
            )
        ),
        'Game 1, change 3: This change, "flagged", is about hand 2, but the history had 1 hand '
        "then.",
    ),
    (
        "a confirmation that changes the hand",
        _confirmed(_set("games.0.changes.1.after", {"number": 1, **FIRST})),
        'Game 1, change 2: A change "confirmed" leaves the hand as it was, so its before and after '
        "must be null.",
    ),
    (
        "a note on an edit",
        _set("games.0.changes.2.note", "typo"),
        'Game 1, change 3: Only a flag has a note, but this change, "edited", has "typo".',
    ),
    (
        "a version 2 file with a confirmation",
        _both(version_2, _set("games.0.hands.0.flag_note", "")),
        "Game 1, hand 1: flag_note is not a key this server knows.",
    ),
    (
        "a version 2 file with a note",
        _both(version_2, _set("games.0.changes.0.note", "")),
        "Game 1, change 1: note is not a key this server knows.",
    ),
]


@pytest.mark.parametrize(("problem", "change", "message"), BAD, ids=[case[0] for case in BAD])
def test_it_names_the_problem_of_a_bad_file(problem, change, message):
    text = json.dumps(change(document()))

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(text)

    assert message in str(raised.value)


def old_document() -> dict:
    return json.loads(FOUR_SEAT_V1.read_text())


OLD_BAD = [
    (
        "a declarer off the compass",
        _set("games.0.hands.0.declarer", "X"),
        "Game 1, hand 1: declarer must be one of 'N', 'E', 'S', 'W', not \"X\".",
    ),
    (
        "a declarer scoring refuses",
        _set("games.2.hands.1.declarer", "E"),
        "Game 3, hand 2: Hao cannot start this hand: Lin or Zoe may start it",
    ),
    (
        "a seat for nobody",
        _set("games.0.seats.west", 7),
        "Game 1: seats.west must be a player's place on the roster, from 0 to 4, not 7.",
    ),
    ("a player in two seats", _set("games.0.seats.west", 0), "Game 1: Mei sits at the table twice"),
    (
        "a level of 10",
        _set("games.0.north_south_level", "10"),
        'Game 1: north_south_level must be a level, one of 23456789TJQKA, not "10".',
    ),
    (
        "a first starter off the compass",
        _set("games.1.first_starter", "X"),
        "Game 2: first_starter must be one of '', 'N', 'E', 'S', 'W', not \"X\".",
    ),
    (
        "a history's declarer off the compass",
        _set("games.0.changes.0.after.declarer", "X"),
        "Game 1, change 1: after.declarer must be one of 'N', 'E', 'S', 'W', not \"X\".",
    ),
    (
        "a key of today's files",
        _set("games.0.decks", 2),
        "Game 1: decks is not a key this server knows.",
    ),
    (
        "a hand without its bid",
        _set("games.0.hands.0.bid", KeyError),
        "Game 1, hand 1: The key bid is missing.",
    ),
]


@pytest.mark.parametrize(
    ("problem", "change", "message"), OLD_BAD, ids=[case[0] for case in OLD_BAD]
)
def test_it_names_the_problem_of_a_bad_old_file(problem, change, message):
    text = json.dumps(change(old_document()))

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(text)

    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("problem", "change", "message"),
    [
        (
            "a declarer the rules do not allow",
            _set("games.0.hands.1.declarer", "Jun"),
            "Game 1, hand 2: Jun cannot start this hand: Lin starts it",
        ),
        (
            "two friends for one called card",
            _set("games.0.hands.0.friends", ["Lin", "Hao"]),
            "Game 1, hand 1: The declarer calls one card, so one friend at most is found, not 2.",
        ),
        (
            "a friend away from the table",
            _set("games.0.hands.0.friends", ["Kai"]),
            "Game 1, hand 1: friends must be one of the players at the table, "
            'Mei, Jun, Lin, Hao, Wei or Yan, not "Kai".',
        ),
        (
            "a kitty of two decks",
            _both(
                _set("games.0.hands.1.kitty_cards", "5H 5S TD KC 2C 3C 4C 6C"),
                _set("games.0.hands.1.kitty_points", 30),
            ),
            "Game 1, hand 2: kitty_cards holds 8 cards, but this table's kitty holds 6.",
        ),
        ("three cards called", _set("games.0.called", 3), "Game 1: a declarer calls 1 or 2 cards"),
    ],
    ids=["declarer", "friends", "friend away", "kitty", "called"],
)
def test_the_import_page_names_what_the_find_a_friend_game_refuses(
    member, group, friends_game, problem, change, message
):
    data = change(exchange.export_group(group))

    response = member.post("/groups/import/", {"file": _upload(data), "name": "Copy"}, follow=True)

    assert response.status_code == 200
    assert _html(message) in response.text
    assert list(Group.objects.all()) == [group]
    assert list(Game.objects.all()) == [friends_game]
    assert Player.objects.count() == 8


def _case(problem: str) -> tuple:
    return next(case for case in BAD if case[0] == problem)


@pytest.mark.parametrize(
    ("problem", "change", "message"),
    [
        _case("a later version"),
        _case("a hand without its declarer"),
        _case("a declarer scoring refuses"),
        _case("a friend under partners"),
        _case("five players as partners"),
        _case("a confirmation by the account that entered the hand"),
        _case("a hand confirmed and flagged"),
        (*_case("a list")[:2], "The file must be a JSON object"),
    ],
    ids=[
        "version",
        "missing key",
        "refused hand",
        "friend",
        "five partners",
        "confirmed by its enterer",
        "confirmed and flagged",
        "list",
    ],
)
def test_the_import_page_shows_the_problem_and_makes_nothing(
    member, group, problem, change, message
):
    response = member.post(
        "/groups/import/", {"file": _upload(change(document())), "name": ""}, follow=True
    )

    assert response.status_code == 200
    assert _html(message) in response.text
    assert list(Group.objects.all()) == [group]
    assert not Player.objects.exists()


def _html(message: str) -> str:
    return message.replace('"', "&quot;").replace("'", "&#x27;")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"game 1: Mei & Lin v Jun & Hao",
            "The file is not JSON: expected value at line 1, column 1.",
        ),
        (b"", "The file is not JSON: EOF while parsing a value at line 1"),
        (b'{"format": "\xff"}', "The file is not UTF-8 text (byte 12)."),
        (b"[" * 100_000 + b"]" * 100_000, "The file is not a group export: 100000 lists"),
    ],
    ids=["text", "empty", "latin-1", "deep"],
)
def test_it_refuses_a_file_that_is_not_json(content, message):
    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(content)

    assert message in str(raised.value)


def test_the_import_page_refuses_a_file_that_is_not_json(member, group):
    upload = io.BytesIO(b"\x89PNG\r\n")
    upload.name = "photo.png"

    response = member.post("/groups/import/", {"file": upload}, follow=True)

    assert response.status_code == 200
    assert "The file is not UTF-8 text (byte 0)." in response.text
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
    with pytest.raises(exchange.ExchangeError, match="The database refused the import: disk"):
        exchange.import_group(export, members=[user])

    assert not Group.objects.exists()
    assert not Game.objects.exists()


def games_of(count: int) -> dict:
    """DOCUMENT with its game played ``count`` times."""
    data = document()
    data["games"] = [copy.deepcopy(DOCUMENT["games"][0]) for _ in range(count)]
    return data


def test_an_import_that_fails_after_its_first_games_leaves_no_group(user, monkeypatch):
    export = exchange.load(json.dumps(games_of(3)))
    monkeypatch.setattr(importing, "GAMES_PER_TRANSACTION", 1)
    written = Hand.objects.bulk_create

    def fails_the_second_time(objects, *args, **kwargs):
        if Hand.objects.exists():
            raise DatabaseError("disk full")
        return written(objects, *args, **kwargs)

    monkeypatch.setattr(Hand.objects, "bulk_create", fails_the_second_time)
    with pytest.raises(exchange.ExchangeError, match="The database refused the import: disk"):
        exchange.import_group(export, members=[user])

    assert not Group.objects.exists()
    assert not Player.objects.exists()
    assert not Game.objects.exists()
    assert not Hand.objects.exists()


def test_nobody_sees_an_import_until_its_last_games_are_in(user, monkeypatch):
    export = exchange.load(json.dumps(games_of(3)))
    monkeypatch.setattr(importing, "GAMES_PER_TRANSACTION", 1)
    write = importing._games
    seen = []

    def watched(group, *args):
        write(group, *args)
        seen.append(
            (group.games.count(), list(group.members.all()), list(user.tractor_groups.all()))
        )

    monkeypatch.setattr(importing, "_games", watched)

    group = exchange.import_group(export, members=[user]).group

    assert seen == [(1, [], []), (2, [], []), (3, [], [])]
    assert list(group.members.all()) == [user]
    assert list(user.tractor_groups.all()) == [group]


def test_an_import_brings_the_ladder_up_to_date_itself(user):
    group = import_text(json.dumps(games_of(3)), members=[user])

    assert group.version > 0
    assert [summary.version for summary in GameSummary.objects.filter(game__group=group)] == [3] * 3


# A hand saved at another table while a file is imported, in a database of its own (the tests'
# SQLite lives in memory, where a second connection is refused at once rather than waiting):
# every transaction of the import is held 0.3 s, longer than any real one, and a save waits at
# most 1 s for the database before it is refused. The whole import holds the database longer.
CONCURRENT_SAVES = """
import json, sys, threading, time
from pathlib import Path
import django
from django.conf import settings
django.setup()
settings.DATABASES["default"]["OPTIONS"]["timeout"] = 1
from django.core.management import call_command
from django.db import OperationalError, connection
from companion import exchange
from companion.exchange import importing
from django.contrib.auth.models import User
from companion.models import Game, Group, Player
from scoring import get_rules

call_command("migrate", verbosity=0)
call_command("createcachetable", verbosity=0)
user = User.objects.create(username="mei")
export = exchange.load(Path(sys.argv[1]).read_bytes())
importing.GAMES_PER_TRANSACTION = 2
write = importing._games
def held(*args):
    write(*args)
    time.sleep(0.3)
importing._games = held
other = Group.objects.create(name="Another table")
game = Game.start(other, [Player.objects.create(group=other, name=n) for n in "ABCD"],
                  get_rules("standard"))
hand = {"declarer": 0, "bid": "one", "trump": "H", "kitty_points": 0, "opponent_points": 40,
        "last_trick_winner": "declarers", "last_trick_format": "single", "last_trick_cards": 1}
importing_now, done, waits, refused = threading.Event(), threading.Event(), [], []
def another_table():
    importing_now.wait()
    while not done.is_set():
        start = time.perf_counter()
        try:
            if game.hands.exists():
                game.delete_hand(1, version=game.version, by=user)
            else:
                game.record_hand(hand, version=game.version, request_key="", by=user)
        except OperationalError as error:
            refused.append(str(error))
        waits.append(time.perf_counter() - start)
        time.sleep(0.05)  # a busy table, saving ten times a second, still lets others in
    connection.close()
thread = threading.Thread(target=another_table)
thread.start()
importing_now.set()
start = time.perf_counter()
try:
    exchange.import_group(export, members=[user])
finally:  # a refused import fails the test at once, not by a timeout
    importing_time = time.perf_counter() - start
    done.set()
    thread.join()
print(json.dumps({"import": importing_time, "saves": len(waits), "longest": max(waits),
                  "refused": refused}))
"""


def test_a_hand_saved_at_another_table_during_an_import_is_never_refused(tmp_path):
    path = tmp_path / "twelve-games.json"
    path.write_text(json.dumps(games_of(12)))
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DEBUG": "true",
    }

    ran = subprocess.run(
        [sys.executable, "-c", CONCURRENT_SAVES, str(path)],
        env=environment,
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    assert result["import"] > 1.8  # the import held the database longer than a save waits
    assert result["refused"] == []
    assert result["saves"] > 3
    assert result["longest"] < 1


@pytest.mark.parametrize("path", ["export.json", "export.csv"])
def test_the_exports_are_sent_a_little_at_a_time(member, group, friends_game, pairs_game, path):
    response = member.get(f"/groups/{group.pk}/{path}")

    assert response.streaming
    chunks = list(response.streaming_content)
    assert len(chunks) > 3
    whole = exchange.dumps(group) if path.endswith("json") else exchange.csv_text(group)
    assert b"".join(chunks) == whole.encode()


def test_an_export_read_in_batches_is_the_same_text(group, friends_game, pairs_game, monkeypatch):
    whole = exchange.dumps(group)
    monkeypatch.setattr(exporting, "GAMES_PER_BATCH", 1)

    assert exchange.dumps(group) == whole
    assert json.loads(whole) == exchange.export_group(group)


# The commands.


def test_the_commands_copy_a_group_through_a_file(tmp_path, user):
    group = forget_the_import(import_text(json.dumps(DOCUMENT), members=[user]))
    path = tmp_path / "thursday.json"

    call_command("export_group", str(group.pk), str(path))
    out = io.StringIO()
    call_command("import_group", str(path), "--name", "Copy", stdout=out)

    copy_ = Group.objects.get(name="Copy")
    assert out.getvalue().startswith(
        f"Imported Copy (group {copy_.pk}): 5 players, 1 game, 2 hands; members: mei."
    )
    again = exchange.export_group(forget_the_import(copy_))
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
        (["import_group", "{bad}"], "{bad}: Game 1, hand 2: Jun cannot start"),
        (["import_group", "{missing}"], "cannot read {missing}: No such file or directory"),
        (["import_group", "{good}", "--member", "nobody"], "--member 'nobody': no account"),
        (
            ["import_group", "{good}", "--name", " "],
            "A group's name has 1 to 80 characters, not ''.",
        ),
    ],
    ids=["no group", "refused hand", "no file", "no account", "empty name"],
)
def test_the_commands_name_the_problem(tmp_path, user, arguments, message):
    paths = {"bad": tmp_path / "bad.json", "good": tmp_path / "good.json"}
    paths["bad"].write_text(json.dumps(_set("games.0.hands.1.declarer", "Jun")(document())))
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
