"""A group's export and import: the JSON file holds everything and reads back to the same text for
every table (4 to 8 players, partners, pairs, find-a-friend), confirmations and flags included."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from exchange_documents import (
    DOCUMENT,
    FIRST,
    _confirming,
    document,
    entered,
    forget_the_import,
    import_text,
    record,
)

from companion import exchange
from companion.models import Dispute, Game, Group, Membership, Player
from scoring import Teams

pytestmark = pytest.mark.django_db


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

    assert exported["version"] == 5
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


def test_a_hand_without_trump_is_written_blank_as_every_version_wrote_it(group, start_game, user):
    game = start_game(first_declarer=0)
    record(game, user, entered(0, bid="small-jokers", trump="NT", opponent_points=45))

    written = exchange.export_group(group)["games"][0]
    imported = import_text(json.dumps(exchange.export_group(group)), members=[user])

    assert (written["hands"][0]["trump"], written["changes"][0]["after"]["trump"]) == ("", "")
    hand = imported.games.get().hands.get()
    assert (hand.trump, hand.result.trump) == ("NT", None)
    assert imported.games.get().changes.get().after["trump"] == "NT"
