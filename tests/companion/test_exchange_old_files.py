"""Files of older versions: a version 2 file (before confirmations) and an export of the four-seat
days (version 1) read into today's form, as the migrations convert the same data."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from exchange_documents import (
    DOCUMENT,
    EIGHT_SEAT_V2,
    FOUR_SEAT_V1,
    UNCONFIRMED,
    document,
    forget_the_import,
    import_text,
    version_2,
)

from companion import exchange
from companion.models import Group

pytestmark = pytest.mark.django_db


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
    assert exported["version"] == 5
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
    assert exported["version"] == 5
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
