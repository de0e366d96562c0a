"""The pages a player meets when something is not there or goes wrong: in their words, with a way
home, never a traceback. pytest-django runs these with DEBUG off, as in production."""

from __future__ import annotations

import io
import logging

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import path

from companion.urls import urlpatterns as app_urls
from tests.reading import text

pytestmark = pytest.mark.django_db

NEW_LINK = "ask someone in the group for a new link."


def boom(request):
    raise RuntimeError("a bug in a view")


def forbidden(request):
    raise PermissionDenied


# The app's pages and two that fail, for the 500 and 403 pages (the test module is the urlconf).
urlpatterns = [path("boom/", boom), path("forbidden/", forbidden), *app_urls]


def assert_friendly(response, status: int, sentence: str) -> None:
    assert response.status_code == status
    page = response.text
    assert sentence in page
    assert 'href="/">Go to the home page</a>' in page
    assert "Traceback" not in page
    assert "exception" not in page.lower()


def test_it_says_a_revoked_share_link_no_longer_works(client, start_game):
    game = start_game()
    old = game.share_token
    game.new_share_link()

    response = client.get(f"/watch/{old}/")

    assert_friendly(response, 404, NEW_LINK)
    assert "the link that led here no longer works" in text(response.text)


def test_it_says_a_revoked_invite_link_no_longer_works(client, group, outsider):
    old = group.invite_token
    group.new_invite()
    client.force_login(outsider)

    response = client.get(f"/join/{old}/")

    assert_friendly(response, 404, NEW_LINK)
    assert "Thursday Tractor" not in response.text
    assert "zoe" in response.text  # the page is the app's own, with the player still logged in


def test_it_answers_an_address_that_never_existed_with_the_same_page(client):
    assert_friendly(client.get("/no-such-page/"), 404, "This page does not exist")


@override_settings(ROOT_URLCONF=__name__)
def test_a_failure_on_the_servers_side_says_so_and_how_to_check_a_save():
    browser = Client(raise_request_exception=False)

    response = browser.get("/boom/")

    assert_friendly(response, 500, "The app failed on its side, not yours.")
    assert "a bug in a view" not in response.text
    assert "open the game first to see whether the hand is there" in text(response.text)


@override_settings(ROOT_URLCONF=__name__)
def test_the_operator_finds_the_failure_in_the_server_log():
    # The server's log is its stderr; the handler writes to a buffer here instead.
    (handler,) = logging.getLogger("django.request").handlers
    log = io.StringIO()
    stderr = handler.setStream(log)
    try:
        Client(raise_request_exception=False).get("/boom/")
    finally:
        handler.setStream(stderr)

    assert "RuntimeError: a bug in a view" in log.getvalue()


@override_settings(ROOT_URLCONF=__name__)
def test_a_forbidden_page_says_so(client):
    assert_friendly(client.get("/forbidden/"), 403, "Your account may not open this page.")


def test_a_request_for_another_host_gets_the_friendly_bad_request_page(client):
    response = client.get("/", HTTP_HOST="somewhere-else.example")

    assert_friendly(response, 400, "Go back, reload the page and try again.")
