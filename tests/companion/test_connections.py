"""A server process keeps its PostgreSQL connection from one request to the next (opening one
costs more than most pages' queries), checks it before reusing it, and the operator can set how
long it is kept; SQLite opens its file afresh."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock
from wsgiref.util import setup_testing_defaults

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.db.backends.signals import connection_created

from companion.models import Game
from scoring import get_rules
from tests.reading import text

POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")


def database_read_from(**environment: str) -> dict:
    """The default database as ``companion/settings.py`` reads it from ``environment``."""
    path = Path(settings.BASE_DIR) / "companion" / "settings.py"
    spec = importlib.util.spec_from_file_location("settings_under_test", path)
    module = importlib.util.module_from_spec(spec)
    outside = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DATABASE_URL", "CONN_MAX_AGE")
    }
    with mock.patch.dict(os.environ, {**outside, "DEBUG": "true", **environment}, clear=True):
        spec.loader.exec_module(module)
    return module.DATABASES["default"]


def test_it_keeps_a_postgresql_connection_a_minute_and_checks_it_before_reuse():
    database = database_read_from(DATABASE_URL="postgres://tractor@db.example:5432/tractor")

    assert database["CONN_MAX_AGE"] == 60
    assert database["CONN_HEALTH_CHECKS"] is True


def test_it_keeps_the_connection_as_long_as_the_operator_says():
    url = "postgres://tractor@db.example:5432/tractor"

    assert database_read_from(DATABASE_URL=url, CONN_MAX_AGE="300")["CONN_MAX_AGE"] == 300
    assert database_read_from(DATABASE_URL=url, CONN_MAX_AGE="0")["CONN_MAX_AGE"] == 0


def test_it_opens_sqlite_afresh_for_each_request():
    database = database_read_from(DATABASE_URL="sqlite:///tractor.sqlite3")

    assert database["CONN_MAX_AGE"] == 0


@pytest.mark.skipif(not POSTGRES, reason="DATABASE_URL names no PostgreSQL server")
def test_it_serves_a_players_requests_on_one_connection(transactional_db, client, user):
    client.force_login(user)
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    application = get_wsgi_application()
    opened = []

    def count(**kwargs) -> None:
        opened.append(kwargs["connection"])

    connection_created.connect(count)

    def get(path: str) -> str:
        environ = {"PATH_INFO": path, "HTTP_HOST": "testserver", "HTTP_COOKIE": cookie}
        setup_testing_defaults(environ)
        status = []
        body = application(environ, lambda line, headers, exc_info=None: status.append(line))
        b"".join(body)
        body.close()  # as a WSGI server does: the end of the request
        return status[0]

    try:
        statuses = [get("/") for _ in range(3)]
    finally:
        connection_created.disconnect(count)

    assert statuses == ["200 OK"] * 3
    assert len(opened) <= 1


# A second app process: records a hand in the game (when asked) and prints what its history page
# says of the group, as a player opening it would see it.
OTHER_PROCESS = """
import re, sys
import django

django.setup()
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game

username, group, game, record = sys.argv[1:5]
if record == "record":
    played = Game.objects.get(pk=game)
    state = played.scored().state
    hand = dict(HAND, declarer=state.next_declarers[0])
    played.record_hand(hand, version=played.version, request_key="", by=None)
client = Client()
client.force_login(User.objects.get(username=username))
page = " ".join(client.get(f"/groups/{group}/history/").text.split())
print(re.search(r"\\d+ games? · \\d+ hands?", page).group())
"""
HAND = {
    "friends": [],
    "bid": "one",
    "trump": "S",
    "kitty_points": 0,
    "opponent_points": 40,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
}


@pytest.mark.skipif(not POSTGRES, reason="DATABASE_URL names no PostgreSQL server")
def test_two_app_processes_see_each_others_changes_ladder_included(
    transactional_db, client, user, group, players
):
    game = Game.start(group, players, get_rules("standard"), by=user)
    client.force_login(user)
    database = connection.settings_dict
    url = (
        f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST'] or 'localhost'}"
        f":{database['PORT'] or 5432}/{database['NAME']}"
    )

    def other(record: bool) -> str:
        """The history page's count in another app process on the same database."""
        environment = {
            **os.environ,
            "DATABASE_URL": url,
            "DEBUG": "true",
            "ALLOWED_HOSTS": "testserver",
        }
        script = f"HAND = {HAND!r}\n" + OTHER_PROCESS
        arguments = [user.username, str(group.pk), str(game.pk), "record" if record else "look"]
        done = subprocess.run(
            [sys.executable, "-c", script, *arguments],
            env=environment,
            cwd=settings.BASE_DIR,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def here() -> str:
        page = text(client.get(f"/groups/{group.pk}/history/"))
        return re.search(r"\d+ games? · \d+ hands?", page).group()

    assert here() == "1 game · 0 hands"
    assert other(record=True) == "1 game · 1 hand"
    assert here() == "1 game · 1 hand"
    game.refresh_from_db()
    state = game.scored().state
    game.record_hand(
        {**HAND, "declarer": state.next_declarers[0]}, version=game.version, request_key="", by=user
    )
    assert other(record=False) == "1 game · 2 hands"
    Game.start(group, players[::-1], get_rules("kawu"), first_declarer=0, by=user)
    assert other(record=False) == "2 games · 2 hands"
    cache.clear()  # nothing depends on it
    assert other(record=False) == "2 games · 2 hands"
