"""Mei tidies Thursday Tractor on a 360 px phone: retires Hao and brings him back, makes a new
invite link, removes Jun (after saying yes), and a phone watching the game loses the old share
link once Mei makes a new one."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from companion.models import Game, Group, Membership, Player
from scoring import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, user: User) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways on a phone: {width}px wide"
    small = page.evaluate(
        """[...document.querySelectorAll('main .btn, main select, main summary')]
             .filter((e) => e.offsetParent !== null)
             .filter((e) => e.getBoundingClientRect().height < 43.5)
             .map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert small == []


@pytest.fixture
def thursday(db) -> Group:
    group = Group.objects.create(name="Thursday Tractor")
    for name, role in (("mei", "admin"), ("jun", "member")):
        Membership.objects.create(group=group, user=User.objects.create_user(name), role=role)
    players = [
        Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
    ]
    Game.start(group, players, get_rules("standard"))
    return group


def test_a_member_retires_a_player_renews_the_invite_and_removes_a_member(
    phone, live_server, screenshot, thursday
):
    log_in(phone, live_server, User.objects.get(username="mei"))
    phone.goto(f"{live_server.url}/groups/{thursday.pk}/")
    phone.wait_for_load_state()

    phone.get_by_text("Retire a player").click()
    phone.get_by_label("Player to retire").select_option(label="Hao")
    phone.get_by_role("button", name="Retire", exact=True).click()
    retired = phone.locator("#retired")
    expect(retired).to_contain_text("Hao")
    expect(phone.locator("#players")).not_to_contain_text("Hao")
    assert Player.objects.get(name="Hao").retired
    fits(phone)
    screenshot(phone, "1-retired")

    phone.get_by_role("button", name="Bring Hao back").click()
    phone.locator("#players li", has_text="Hao").wait_for()
    expect(phone.locator("#retired")).to_have_count(0)
    assert not Player.objects.get(name="Hao").retired

    old_link = phone.locator("#invite-url").input_value()
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Make a new link").click()
    phone.get_by_text("Made a new invite link: the old one no longer works.").wait_for()
    assert phone.locator("#invite-url").input_value() != old_link

    sent = []
    phone.on("request", lambda request: sent.append(request.method))
    phone.once("dialog", lambda dialog: dialog.dismiss())
    phone.get_by_role("button", name="Remove jun").click()
    assert thursday.members.filter(username="jun").exists(), "saying no keeps Jun"
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Remove jun").click()
    phone.get_by_text("jun is no longer a member of Thursday Tractor.").wait_for()
    assert sent.count("POST") == 1, "saying no sent nothing: only the yes removed Jun"
    assert list(thursday.members.values_list("username", flat=True)) == ["mei"]
    phone.get_by_text(
        "You are the only member: invite someone before you can leave the group."
    ).wait_for()
    fits(phone)
    screenshot(phone, "2-group")


def test_a_watching_phone_loses_the_old_share_link(phone, second_phone, live_server, thursday):
    game = thursday.games.get()
    second_phone.goto(f"{live_server.url}/watch/{game.share_token}/")
    second_phone.get_by_text("No hands yet.").wait_for()
    log_in(phone, live_server, User.objects.get(username="mei"))
    phone.goto(f"{live_server.url}{game.get_absolute_url()}")

    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_text("Share the scoreboard").click()
    phone.get_by_role("button", name="Stop the share link: make a new one").click()
    phone.get_by_text("Made a new share link: the old one no longer shows the game.").wait_for()

    second_phone.reload()
    expect(second_phone.get_by_text("No hands yet.")).to_have_count(0)
    game.refresh_from_db()
    phone.get_by_text("Share the scoreboard").click()
    assert phone.get_by_role("link", name="See what watchers see").get_attribute("href") == (
        f"/watch/{game.share_token}/"
    )
