"""A scorekeeper records a game with their thumbs while a friend watches by share link."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game, Group, Membership, Player
from scoring import Rank, get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game():
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [
        Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
    ]
    # Mei and Lin start at Q against Jun and Hao at 2.
    levels = [Rank.QUEEN, Rank.TWO, Rank.QUEEN, Rank.TWO]
    return Game.start(group, players, get_rules("standard"), levels=levels, by=user)


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def test_a_game_recorded_by_thumb_appears_on_a_watching_phone(
    second_phone, phone, live_server, game, screenshot, record_hand
):
    log_in(phone, live_server, "mei")
    watcher = second_phone
    watcher.goto(f"{live_server.url}/watch/{game.share_token}/")
    phone.goto(live_server.url + game.get_absolute_url())

    record_hand(phone, "Mei", opponent_points=0)
    screenshot(phone, "scoreboard-after-hand-1")
    watcher.get_by_text("In the 0 band, the declarers climb 2 levels, stopping at A").wait_for()
    assert watcher.locator('[data-level="0-2"]').inner_text() == "A"

    phone.get_by_role("link", name="Record a hand").click()
    screenshot(phone, "hand-form")
    phone.goto(live_server.url + game.get_absolute_url())
    record_hand(phone, "Lin", opponent_points=40)
    phone.get_by_text("Mei & Lin win the game after 2 hands.").wait_for()
    watcher.get_by_text("Mei & Lin win the game after 2 hands.").wait_for()
    screenshot(phone, "game-won")
    screenshot(watcher, "watcher")

    # Hand 1 was really 40 points: North–South reach only K, so hand 2 no longer wins at A.
    phone.locator("#hand-1").get_by_role("link", name="Edit").click()
    phone.get_by_label("Opponents' points").fill("40")
    phone.locator("#preview").get_by_text("the declarers climb 1 level").wait_for()
    phone.get_by_role("button", name="Save the correction").click()
    phone.wait_for_url(f"**/games/{game.pk}/")
    assert phone.locator('[data-level="0-2"]').inner_text() == "A"
    assert phone.get_by_text("win the game").count() == 0
    watcher.locator("#hand-1").get_by_text(
        "In the 40–75 band, the declarers climb 1 level"
    ).wait_for()
    screenshot(phone, "after-correction")

    # Undo asks first: dismissed, nothing happens; accepted, hand 2 goes (into the history).
    phone.once("dialog", lambda dialog: dialog.dismiss())
    phone.get_by_role("button", name="Undo last hand").click()
    assert phone.locator("#hand-2").count() == 1
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Undo last hand").click()
    phone.get_by_text("Hand 2 undone.").wait_for()
    assert phone.locator("#hand-2").count() == 0
