"""The table screen on a phone and a tablet: the level and the trump read across the table in
either orientation, a "Trump declared" tap and a save on another phone show on it, and it keeps
the screen on where the browser lets it."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game, Group, Membership, Player
from scoring import Rank, Teams, TrumpRule, get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
TABLET = {"width": 1024, "height": 768}

# What the Content Security Policy blocks, listened for before any page script runs.
LISTEN = """
window.blocked = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.blocked.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""

# A glyph's rendered text box: the range of its text, as the browser lays it out.
TEXT_BOX = """(id) => {
  const range = document.createRange();
  range.selectNodeContents(document.getElementById(id));
  const box = range.getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, height: box.height};
}"""


@pytest.fixture
def group():
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    return group


@pytest.fixture
def game(group):
    """Mei and Lin at 10 against Jun and Hao at 2, trump bid each hand, Mei to start."""
    players = [Player.objects.create(group=group, name=n) for n in ("Mei", "Jun", "Lin", "Hao")]
    levels = [Rank.TEN, Rank.TWO, Rank.TEN, Rank.TWO]
    user = User.objects.get(username="mei")
    return Game.start(
        group, players, get_rules("standard"), levels=levels, first_declarer=0, by=user
    )


@pytest.fixture
def eight_friends(group):
    """Eight players with long names find friends, always without trump: the widest screen."""
    names = ("Mei-Ling", "Jun-Hao", "Wei", "Yan", "Zhao", "Xiu", "Alexandra", "Bo")
    players = [Player.objects.create(group=group, name=name) for name in names]
    return Game.start(
        group,
        players,
        get_rules("standard"),
        teams=Teams.FIND_A_FRIEND,
        trumps=TrumpRule(no_trump=True),
        levels=[Rank.TEN] * 8,
        first_declarer=6,
    )


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def measured(page, viewport: dict) -> dict[str, float]:
    """The level's and trump's text boxes, each checked whole in view; their heights."""
    heights = {}
    for glyph in ("screen-level", "screen-trump"):
        box = page.evaluate(TEXT_BOX, glyph)
        assert box["left"] >= 0 and box["right"] <= viewport["width"], (glyph, box)
        assert box["top"] >= 0 and box["bottom"] <= viewport["height"], (glyph, box)
        heights[glyph] = round(box["height"], 1)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    return heights


@pytest.mark.parametrize(
    "viewport", [PORTRAIT, LANDSCAPE, TABLET], ids=["portrait", "landscape", "tablet"]
)
def test_the_level_and_trump_are_a_fifth_of_the_screen_high(
    browser, live_server, game, eight_friends, viewport, screenshot
):
    game.declare_trump(1, "NT")  # "10" and "NT": the widest pair a screen shows
    context = browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    try:
        for name, shown in (("four", game), ("eight", eight_friends)):
            page.goto(f"{live_server.url}/watch/{shown.share_token}/table/")
            assert page.locator("#screen-level").inner_text() == "10"
            assert page.locator("#screen-trump").inner_text() == "NT"
            heights = measured(page, viewport)
            print(viewport, name, heights)
            assert min(heights.values()) >= viewport["height"] / 5
            # The rest is on the screen too: who declares and every side's level.
            last_side = page.locator(".screen-sides li").last.bounding_box()
            assert last_side["y"] + last_side["height"] <= viewport["height"]
            screenshot(page, f"{name}-{viewport['width']}x{viewport['height']}")
    finally:
        context.close()


def test_a_declared_trump_and_a_save_reach_the_table_screen(
    browser, phone, live_server, game, screenshot, record_hand
):
    tablet = browser.new_context(viewport=TABLET, has_touch=True).new_page()
    tablet.add_init_script(LISTEN)
    phone.add_init_script(LISTEN)
    try:
        tablet.goto(f"{live_server.url}/watch/{game.share_token}/table/")
        assert tablet.locator("#screen-level").inner_text() == "10"
        assert tablet.locator("#screen-trump").count() == 0
        tablet.get_by_text("Trump not declared yet.").wait_for()

        log_in(phone, live_server, "mei")
        phone.goto(live_server.url + game.get_absolute_url())
        phone.get_by_text("Trump declared for hand 1").wait_for()
        tapped = time.monotonic()
        phone.locator("#trump-declared").get_by_role("button", name="♥").click()
        tablet.locator("#screen-trump", has_text="♥").wait_for()
        shown = time.monotonic() - tapped
        assert phone.locator('#trump-declared [aria-pressed="true"]').inner_text() == "♥"
        screenshot(phone, "game-page-trump-declared")
        screenshot(tablet, "tablet-trump-declared")

        # The hand form opens with hearts tapped; the save reaches the screen.
        phone.get_by_role("link", name="Record a hand").click()
        assert phone.locator('input[name="trump"][value="H"]').is_checked()
        phone.goto(live_server.url + game.get_absolute_url())
        record_hand(phone, "Mei", opponent_points=45)
        saved = time.monotonic()
        tablet.get_by_text(
            "Hand 1, Mei declaring: the declarers held the opponents to 45 and climbed 1 level."
        ).wait_for()
        print(
            f"declared trump shown after {shown:.1f} s, save after {time.monotonic() - saved:.1f} s"
        )
        assert tablet.locator("#screen-level").inner_text() == "J"
        assert tablet.locator("#screen-trump").count() == 0  # hand 2's trump is not known yet
        assert "Hand 2" in tablet.locator(".screen-heading").inner_text()
        screenshot(tablet, "tablet-after-the-save")
        # Its scripts, its polls and the tap's swap all run under the Content Security Policy.
        assert tablet.evaluate("window.blocked") == []
        assert phone.evaluate("window.blocked") == []
    finally:
        tablet.context.close()


def test_it_keeps_the_screen_on_or_says_how(browser, live_server, game):
    context = browser.new_context(viewport=PORTRAIT)
    page = context.new_page()
    try:
        # On the machine itself (a secure context) Chromium offers the wake lock.
        page.goto(f"{live_server.url}/watch/{game.share_token}/table/")
        page.wait_for_function("document.documentElement.dataset.wakeLock")
        assert page.evaluate("document.documentElement.dataset.wakeLock") == "held"
        assert page.locator("#screen-awake").is_hidden()

        # Without it (plain HTTP on a local network), one line says how to keep the screen on.
        page.add_init_script("delete Navigator.prototype.wakeLock")
        page.goto(f"{live_server.url}/watch/{game.share_token}/table/")
        note = page.locator("#screen-awake")
        note.wait_for()
        assert "set the device's screen timeout to Never" in note.inner_text()
        assert page.locator("text=screen timeout").count() == 1
    finally:
        context.close()
