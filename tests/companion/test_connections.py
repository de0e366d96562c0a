"""A server process keeps its PostgreSQL connection from one request to the next (opening one
costs more than most pages' queries), checks it before reusing it, and the operator can set how
long it is kept; SQLite opens its file afresh."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from unittest import mock
from wsgiref.util import setup_testing_defaults

import pytest
from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.db.backends.signals import connection_created

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
