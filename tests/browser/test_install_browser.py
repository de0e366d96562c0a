"""On localhost the app installs: the service worker registers (and never answers for a page),
the manifest loads, and the Content Security Policy blocks nothing. With them, what a phone at the
table sees of the local run's address, the share panel and the group's games list."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from companion.models import Game, Group

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAN = "192.168.1.23"
# Installed before any page script runs, and not itself subject to the page's policy.
LISTEN = """
window.blocked = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.blocked.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


@pytest.fixture
def demo() -> Group:
    call_command("demo")
    return Group.objects.get(name="Demo table")


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def test_on_localhost_the_service_worker_registers_and_the_manifest_loads(
    phone, live_server, settings, screenshot
):
    settings.DEBUG, settings.LAN_ADDRESS = True, LAN  # as `make run` on a machine on a network
    errors: list[str] = []
    phone.on("console", lambda message: message.type == "error" and errors.append(message.text))
    phone.add_init_script(LISTEN)

    phone.goto(f"{live_server.url}/")
    scope = phone.evaluate("navigator.serviceWorker.ready.then((ready) => ready.scope)")
    manifest = phone.context.new_cdp_session(phone).send("Page.getAppManifest")

    assert scope == f"{live_server.url}/"
    assert manifest["url"].endswith(".webmanifest"), manifest
    assert manifest["errors"] == [], manifest["errors"]
    assert '"short_name": "Tractor"' in manifest["data"]
    # Controlled by the worker now: the stylesheet comes through it, the page never does.
    with phone.expect_response(lambda response: response.url.endswith("/app.css")) as css:
        page = phone.reload()
    assert css.value.from_service_worker
    assert not page.from_service_worker
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("window.blocked") == []
    assert errors == []
    phone.get_by_text(f"http://{LAN}:", exact=False).wait_for()
    assert phone.locator("#lan svg.qr-code").bounding_box()["width"] >= 100  # a camera reads it
    screenshot(phone, "home-lan")


def test_the_share_panel_copies_the_link_and_shows_its_qr_code(
    phone, live_server, demo, screenshot
):
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(phone, live_server, "demo")
    game = Game.objects.filter(group=demo).order_by("pk")[1]  # the demo's game in progress
    phone.goto(f"{live_server.url}{game.get_absolute_url()}")

    phone.get_by_text("Share the scoreboard").click()
    phone.get_by_role("button", name="Copy").click()

    phone.get_by_text("Copied: paste it in a message.").wait_for()
    copied = phone.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_server.url}/watch/{game.share_token}/"
    assert phone.locator("#share svg.qr-code").is_visible()
    phone.locator("#share").scroll_into_view_if_needed()
    screenshot(phone, "share-panel")


def test_the_games_list_says_where_each_game_stands(phone, live_server, demo, screenshot):
    log_in(phone, live_server, "demo")

    phone.goto(f"{live_server.url}/groups/{demo.pk}/")

    rows = phone.locator("#games .list-group-item")
    assert rows.count() == Game.objects.filter(group=demo).count()
    assert "won" in rows.filter(has_text="finished").first.inner_text()
    # The six-player find-a-friend game: "Mei leads at 5", "Mei and Lin lead at 5".
    assert rows.filter(has_text=re.compile(r" leads? at ")).count() == 1
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "the list is wider than the phone"
    screenshot(phone, "games-list")
