"""`make run` for every phone at the table: it listens on the local network, names its address
(and a QR code of it) on the home page and in the terminal, accepts that address only with DEBUG
on, and shows Django's debug pages to this machine alone."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.http import Http404
from django.test import Client, override_settings
from django.urls import path

from companion.management.commands.runlan import Command as RunLan
from companion.urls import urlpatterns as app_urls
from tests.reading import text

pytestmark = pytest.mark.django_db

LAN = "192.168.1.23"
PHONE = {"REMOTE_ADDR": "192.168.1.5", "HTTP_HOST": f"{LAN}:8000"}


def boom(request):
    raise RuntimeError("a secret in a traceback")


def gone(request):
    raise Http404("no game 99 in group 7")


# The app's pages and two that fail (this module is the urlconf of the tests that need them).
urlpatterns = [path("boom/", boom), path("gone/", gone), *app_urls]


def settings_read_with(environment: dict[str, str]):
    """``companion/settings.py`` as a process with ``environment`` reads it, on a machine whose
    address on the local network is LAN."""
    source = Path(settings.BASE_DIR) / "companion" / "settings.py"
    spec = importlib.util.spec_from_file_location("settings_under_test", source)
    module = importlib.util.module_from_spec(spec)
    with (
        mock.patch.dict(os.environ, environment),
        mock.patch("companion.lan.address", return_value=LAN),
    ):
        spec.loader.exec_module(module)
    return module


# The server: where it listens, what it prints.


def test_make_run_starts_the_server_on_every_interface():
    dry_run = subprocess.run(
        ["make", "--dry-run", "run"],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

    assert "manage.py runlan 0.0.0.0:8000" in dry_run


def test_runlan_listens_on_every_interface_by_default():
    with mock.patch.object(RunLan, "inner_run") as run:
        command = RunLan(stdout=io.StringIO())
        call_command(command, use_reloader=False, skip_checks=True)

    run.assert_called_once()
    assert (command.addr, command.port) == ("0.0.0.0", "8000")


@override_settings(LAN_ADDRESS=LAN)
def test_runlan_prints_the_address_the_other_phones_open_with_its_qr_code():
    command = RunLan(stdout=io.StringIO())
    command.addr, command._raw_ipv6, command.protocol = "0.0.0.0", False, "http"

    command.on_bind(8000)

    printed = command.stdout.getvalue()
    assert f"The other phones at the table open http://{LAN}:8000/" in printed
    drawing = printed[printed.index("█") :].rstrip("\n")
    assert "\n\n" not in drawing  # one QR code, drawn line under line, that a camera reads
    assert len(drawing.splitlines()) > 10


@override_settings(LAN_ADDRESS=LAN)
def test_runlan_names_no_lan_address_when_it_listens_on_this_machine_only():
    command = RunLan(stdout=io.StringIO())
    command.addr, command._raw_ipv6, command.protocol = "127.0.0.1", False, "http"

    command.on_bind(8000)

    assert LAN not in command.stdout.getvalue()


# Which Host headers are accepted.


def test_debug_runs_accept_this_machines_lan_address():
    local = settings_read_with({"DEBUG": "true"})

    assert local.LAN_ADDRESS == LAN
    assert LAN in local.ALLOWED_HOSTS
    with override_settings(ALLOWED_HOSTS=local.ALLOWED_HOSTS):
        assert Client().get("/", **PHONE).status_code == 200


def test_production_refuses_the_lan_address():
    production = settings_read_with(
        {"DEBUG": "false", "SECRET_KEY": "test-only", "ALLOWED_HOSTS": "tractor.example"}
    )

    assert production.LAN_ADDRESS is None
    assert production.ALLOWED_HOSTS == ["tractor.example"]
    with override_settings(ALLOWED_HOSTS=production.ALLOWED_HOSTS):
        assert Client().get("/", **PHONE).status_code == 400


# The home page.


@override_settings(DEBUG=True, LAN_ADDRESS=LAN, ALLOWED_HOSTS=["localhost", LAN])
def test_the_home_page_shows_the_local_run_address_and_its_qr_code():
    page = Client().get("/", HTTP_HOST="localhost:8000", SERVER_PORT="8000").text

    assert "Everyone at the table can join" in text(page)
    assert f'href="http://{LAN}:8000/">http://{LAN}:8000/</a>' in page
    assert 'class="qr-code qr-code-small"' in page


@override_settings(LAN_ADDRESS=LAN)
def test_the_home_page_of_a_production_server_names_no_lan_address():
    page = Client().get("/").text

    assert LAN not in page
    assert "Everyone at the table can join" not in page


# Debug pages.


@override_settings(DEBUG=True, ALLOWED_HOSTS=["localhost", LAN], ROOT_URLCONF=__name__)
@pytest.mark.parametrize(
    ("url", "status"),
    [("/boom/", 500), ("/gone/", 404), ("/no/such/page/", 404)],
)
def test_a_phone_on_the_local_network_never_sees_a_debug_page(url, status):
    response = Client(raise_request_exception=False).get(url, **PHONE)

    assert response.status_code == status
    page = response.text
    assert "Traceback" not in page
    assert "a secret in a traceback" not in page
    assert "no game 99" not in page
    assert "URLconf" not in page
    assert "DEBUG = True" not in page
    assert "Go to the home page" in text(page)  # the ordinary page, as production sends it


@override_settings(DEBUG=True, ALLOWED_HOSTS=["localhost", LAN])
def test_a_phone_with_a_host_the_server_does_not_serve_gets_the_plain_400():
    response = Client().get("/", REMOTE_ADDR="192.168.1.5", HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert "DisallowedHost" not in response.text
    assert "ALLOWED_HOSTS" not in response.text


@override_settings(DEBUG=True, ALLOWED_HOSTS=["localhost", LAN], ROOT_URLCONF=__name__)
def test_a_phone_on_the_local_network_follows_the_missing_slash_redirect():
    response = Client().get("/settle", **PHONE)

    assert response.status_code == 301
    assert response["Location"] == "/settle/"


@override_settings(DEBUG=True, ROOT_URLCONF=__name__)
@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "::ffff:127.0.0.1"])
def test_this_machine_still_gets_the_debug_pages(address):
    client = Client(raise_request_exception=False, REMOTE_ADDR=address)

    assert "Using the URLconf defined in" in text(client.get("/no/such/page/").text)
    assert "a secret in a traceback" in text(client.get("/boom/").text)


@override_settings(DEBUG=True, ALLOWED_HOSTS=["localhost", LAN])
def test_a_phone_posting_without_a_cookie_gets_the_apps_own_403_page():
    response = Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"username": "mei", "password": "x"}, **PHONE
    )

    assert response.status_code == 403
    assert "CSRF_COOKIE" not in response.text
    assert "Reason given for failure" not in response.text
    assert "The page was open too long" in text(response.text)
    assert "Go to the home page" in text(response.text)


@override_settings(DEBUG=True)
def test_this_machine_still_gets_djangos_help_on_a_refused_form():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "mei"})

    assert response.status_code == 403
    assert "Reason given for failure" in text(response.text)
