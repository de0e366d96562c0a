from __future__ import annotations

import io
import os
import re
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings

from companion.management.commands.runlan import DEMO_PASSWORD_VARIABLE, Runserver
from companion.management.commands.runlan import Command as RunLan
from companion.models import Game, Group

pytestmark = pytest.mark.django_db


def test_it_makes_one_demo_group_with_a_finished_game_and_two_in_progress():
    call_command("demo")
    call_command("demo")

    group = Group.objects.get()
    games = Game.objects.filter(group=group).order_by("pk")
    states = [game.scored().state for game in games]
    assert group.members.filter(username="demo").exists()
    assert [state.game_over for state in states] == [True, False, False]
    assert [(game.teams, len(game.seated)) for game in games] == [
        ("partners", 4),
        ("partners", 4),
        ("find-a-friend", 6),
    ]


# The demo account on the local network


def test_the_demo_account_has_no_password_until_make_run_gives_it_one(client):
    printed = io.StringIO()
    call_command("demo", stdout=printed)

    demo = User.objects.get(username="demo")
    assert not demo.has_usable_password()
    assert "log in as 'demo' with the password `make run` prints beside the address" in (
        printed.getvalue()
    )
    for password in ("tractor-demo", ""):
        client.post("/accounts/login/", {"username": "demo", "password": password})
        assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("addr", ["0.0.0.0", "127.0.0.1"])
def test_make_run_prints_a_new_demo_password_beside_the_address(client, monkeypatch, addr):
    call_command("demo", stdout=io.StringIO())
    monkeypatch.delenv(DEMO_PASSWORD_VARIABLE, raising=False)
    with mock.patch.object(Runserver, "run"):
        RunLan(stdout=io.StringIO()).run(use_reloader=True)
    password = os.environ[DEMO_PASSWORD_VARIABLE]
    command = RunLan(stdout=io.StringIO())
    command.addr, command._raw_ipv6, command.protocol = addr, False, "http"

    with override_settings(LAN_ADDRESS="192.168.1.23"):
        command.on_bind(8000)

    printed = command.stdout.getvalue()
    assert f"Log in as 'demo' with password '{password}' (a new one at every start)." in printed
    assert re.fullmatch(r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}", password)
    if addr == "0.0.0.0":
        assert printed.index(password) < printed.index("The other phones at the table open")
    client.post("/accounts/login/", {"username": "demo", "password": password})
    assert client.session["_auth_user_id"] == str(User.objects.get(username="demo").pk)


def test_each_start_has_its_own_demo_password_and_a_reload_keeps_it(monkeypatch):
    monkeypatch.delenv(DEMO_PASSWORD_VARIABLE, raising=False)
    with mock.patch.object(Runserver, "run"):
        RunLan(stdout=io.StringIO()).run(use_reloader=True)
        first = os.environ[DEMO_PASSWORD_VARIABLE]
        RunLan(stdout=io.StringIO()).run(use_reloader=True)  # the reloader's next server
        assert os.environ[DEMO_PASSWORD_VARIABLE] == first
        monkeypatch.delenv(DEMO_PASSWORD_VARIABLE)
        RunLan(stdout=io.StringIO()).run(use_reloader=True)  # the next `make run`

    assert os.environ[DEMO_PASSWORD_VARIABLE] != first
