"""Imports that fail while writing leave nothing; nobody sees an import until it is in; a hand
saved at another table during an import waits briefly and is never refused; exports are
streamed a little at a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import DatabaseError
from exchange_documents import DOCUMENT, games_of, import_text

from companion import exchange
from companion.exchange import exporting, importing
from companion.models import Game, GameSummary, Group, Hand, HandChange, Player

pytestmark = pytest.mark.django_db


def test_an_import_that_fails_while_writing_makes_nothing(user, monkeypatch):
    export = exchange.load(json.dumps(DOCUMENT))

    def broken(*args, **kwargs):
        raise DatabaseError("disk full")

    monkeypatch.setattr(HandChange.objects, "bulk_create", broken)
    with pytest.raises(exchange.ExchangeError, match="The database refused the import: disk"):
        exchange.import_group(export, members=[user])

    assert not Group.objects.exists()
    assert not Game.objects.exists()


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
