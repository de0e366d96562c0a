"""Second-seat confirmation at the table: Mei records a hand on her phone, Jun (an opponent)
confirms it on his; the next one he flags, and Mei's phone shows the flag with the Dispute page
one tap away."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game, Group, Hand, Membership, Player
from scoring import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game():
    """Mei and Lin against Jun and Hao; Mei (its admin) and Jun have accounts in the group."""
    group = Group.objects.create(name="Thursday Tractor")
    players = []
    for name in ("Mei", "Jun", "Lin", "Hao"):
        user = None
        if name in ("Mei", "Jun"):
            user = User.objects.create_user(name.lower(), password="a long table password")
            Membership.objects.create(
                group=group, user=user, role="admin" if name == "Mei" else "member"
            )
        players.append(Player.objects.create(group=group, name=name, user=user))
    return Game.start(group, players, get_rules("standard"), by=players[0].user)


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def record_hand(phone, declarer: str, opponent_points: int) -> None:
    """From the scoreboard: record a hand ``declarer`` declared in hearts, kitty left empty."""
    phone.get_by_role("link", name="Record a hand").click()
    phone.locator("input[name=declarer] + label", has_text=declarer).click()
    phone.locator("label", has_text="♥").click()
    phone.locator("#id_opponent_points").fill(str(opponent_points))
    phone.get_by_role("button", name="Save hand").click()
    phone.wait_for_url("**/games/*/")


def test_an_opponent_confirms_a_hand_on_his_own_phone(
    phone, second_phone, live_server, game, screenshot
):
    meis, juns = phone, second_phone
    log_in(meis, live_server, "mei")
    log_in(juns, live_server, "jun")

    # Mei turns confirmations on from the group page.
    meis.goto(f"{live_server.url}/groups/{game.group_id}/")
    meis.get_by_label("Each hand needs an opponent's confirmation").check()
    meis.locator("#confirmations").get_by_role("button", name="Save").click()
    meis.get_by_text("From now on each hand waits for an opponent's confirmation").wait_for()
    meis.locator("#confirmations").scroll_into_view_if_needed()
    screenshot(meis, "group-asks-for-confirmations")

    meis.goto(live_server.url + game.get_absolute_url())
    juns.goto(live_server.url + game.get_absolute_url())
    record_hand(meis, "Mei", opponent_points=45)
    row = meis.locator("#hand-1")
    row.get_by_text("Waiting for Jun to confirm it on their phone.").wait_for()
    assert row.get_by_role("button", name="Confirm hand 1").count() == 0  # Mei entered it
    screenshot(meis, "recorded-unconfirmed")

    # Jun's phone hears of the hand at its next poll, and confirms it with one tap at the top.
    confirm = juns.get_by_role("button", name="Confirm hand 1")
    confirm.wait_for()
    box = confirm.bounding_box()
    assert box["height"] >= 38 and box["width"] >= 300  # a thumb's target across the row
    screenshot(juns, "second-phone-before-confirming")
    confirm.click()
    juns.locator("#hand-1").get_by_text("✓ Confirmed by Jun").wait_for()
    assert juns.url.endswith(game.get_absolute_url())  # htmx: the page stays where it was
    meis.locator("#hand-1").get_by_text("✓ Confirmed by Jun").wait_for()
    assert Hand.objects.get(number=1).confirmed_by.username == "jun"
    screenshot(juns, "second-phone-confirmed")

    # The next hand Jun thinks is wrong: he flags it; Mei's phone shows it with the Dispute page.
    record_hand(meis, "Lin", opponent_points=60)
    juns.get_by_text("Something is wrong: flag it").click()
    juns.get_by_label("What is wrong? (optional)").fill("Hao won the last trick")
    juns.get_by_role("button", name="Flag hand 2").click()
    juns.locator("#hand-2").get_by_text("Flagged by Jun: Hao won the last trick").wait_for()
    flag = meis.locator("#hand-2").get_by_text("Flagged by Jun: Hao won the last trick")
    flag.wait_for()
    meis.get_by_text("Hand 2 is not confirmed yet").wait_for()
    screenshot(meis, "flagged-on-the-first-phone")
    meis.get_by_role("link", name="Settle a trick on the Dispute page").click()
    meis.wait_for_url(f"**/games/{game.pk}/dispute/?hand=2")
