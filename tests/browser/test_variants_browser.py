"""Bigger tables on a 360 px phone: six players finding friends with three decks, eight
partners with four, and a game whose trump is fixed in turn, each started from the new-game
form and recorded with thumbs."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from companion.models import Game, Group, Hand, Membership, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAST = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Zhao", "Xiu")


@pytest.fixture
def group(live_server, phone) -> Group:
    """Thursday Tractor with eight on its roster, and Mei's phone logged in."""
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    for name in CAST:
        Player.objects.create(group=group, name=name)
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return group


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways on a phone: {width}px wide"


def seat(phone, players: tuple[str, ...], levels: dict[str, str] | None = None) -> None:
    """On the new-game form: ``players`` in seats 1, 2, … and their starting levels."""
    phone.locator("#id_players label", has_text=str(len(players))).click()
    for number, name in enumerate(players, start=1):
        phone.locator(f"#id_seat_{number}").select_option(label=name)
        if levels and name in levels:
            phone.locator(f"#id_level_{number}").select_option(levels[name])


def tap_hand(
    phone,
    *,
    points: int,
    declarer: str | None = None,
    friends: tuple[str, ...] = (),
    trump: str | None = "♥",
    kitty: tuple[str, ...] = (),
    expect: str,
    screenshot=None,
) -> None:
    """From the scoreboard: record a hand, tapping who declared (unless there is one choice),
    the friends (or Nobody), the trump where it is bid, the kitty's cards (or none: 0) and
    the opponents' points by steps of 20 and 5; ``expect`` is a part of the preview's
    sentence."""
    phone.get_by_role("link", name="Record a hand").click()
    if declarer is not None:
        phone.locator("input[name=declarer] + label", has_text=declarer).click()
    for friend in friends:
        phone.locator("#id_friends label", has_text=friend).click()
    if trump is not None:
        phone.locator("input[name=trump] + label", has_text=trump).click()
    if kitty:
        phone.locator("#kitty-more > summary").click()
    for card in kitty:
        phone.locator(f'.kitty-card[data-card="{card}"]').click()
    phone.get_by_role("button", name="0", exact=True).click()
    for _ in range(points // 20):
        phone.get_by_role("button", name="+20").click()
    for _ in range(points % 20 // 5):
        phone.get_by_role("button", name="+5").click()
    # The preview answers each tap: wait for the one of the last.
    phone.locator("#preview").get_by_text(f"Opponents {points}").wait_for()
    phone.locator("#preview").get_by_text(expect).wait_for()
    if screenshot is not None:
        screenshot()
    phone.get_by_role("button", name="Save hand").click()
    phone.wait_for_url("**/games/*/")


def test_six_players_find_friends_until_a_side_holds_at_ace(phone, live_server, group, screenshot):
    phone.goto(f"{live_server.url}/groups/{group.pk}/games/new/")
    seat(phone, CAST[:6], levels={"Mei": "K", "Wei": "5", "Yan": "A"})
    phone.get_by_text("Find a friend", exact=True).click()
    summary = phone.locator("#table-summary")
    summary.get_by_text("6 players with 3 decks: 26 cards each, a kitty of 6.").wait_for()
    summary.get_by_text("each declarer calls 1 card").wait_for()
    assert phone.get_by_label("Cards a declarer calls").is_visible()
    fits(phone)
    screenshot(phone, "new-game")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/games/*/")
    game = Game.objects.get()
    assert (game.decks, game.teams, game.called) == (3, "find-a-friend", 1)
    phone.get_by_text("Hand 1: whoever wins the bid starts it.").wait_for()

    # Mei finds Wei: both climb one (3 decks: 60–115 is +1), and Wei starts next.
    phone.get_by_role("link", name="Record a hand").click()
    # The count is the page script's: wait for it rather than read it as the page loads.
    expect(phone.locator("#kitty-count")).to_have_text("0/6 · 0")
    phone.locator("#kitty-more > summary").click()
    for _ in range(3):
        phone.locator('.kitty-card[data-card="5H"]').click()
    assert phone.locator('.kitty-card[data-card="5H"] .copies').inner_text() == "×3"
    phone.locator('.kitty-card[data-card="5H"]').click()
    assert phone.locator('.kitty-card[data-card="5H"] .copies').inner_text() == ""
    phone.go_back()
    tap_hand(
        phone,
        declarer="Mei",
        friends=("Wei",),
        kitty=("5H", "5H", "5H", "KD", "KD", "2C"),
        points=60,
        expect="Opponents 60",
        screenshot=lambda: screenshot(phone, "friend-found-form"),
    )
    phone.get_by_text("Wei starts hand 2 at level 6: the declarers held.").wait_for()
    assert phone.locator("#hand-1 .hand-sides").inner_text() == (
        "Mei with Wei against Jun, Lin, Hao and Yan"
    )
    assert phone.locator('[data-level="0"]').inner_text() == "A"
    assert phone.locator('[data-level="4"]').inner_text() == "6"
    fits(phone)
    screenshot(phone, "friend-found")

    # Wei's called card never comes: alone, Wei holds to 40 and climbs one more (2 + 1).
    tap_hand(
        phone,
        friends=("Nobody",),
        points=40,
        expect="the declarers climb 3 levels, one more for holding short-handed",
    )
    assert phone.locator("#hand-2 .hand-sides").inner_text().startswith("Wei alone against")
    phone.get_by_text("Wei starts hand 3 at level 9: the declarers held.").wait_for()

    # Wei played the called card: alone again, and the opponents take the deal; Yan, the next
    # of them after Wei, starts at A.
    tap_hand(phone, friends=("Wei",), points=120, expect="opponents take the deal")
    phone.get_by_text("Yan starts hand 4 at level A: the opponents took the deal.").wait_for()
    screenshot(phone, "short-handed")

    # Yan finds Hao and holds at A: they win the game.
    tap_hand(
        phone,
        friends=("Hao",),
        points=60,
        expect="Hao & Yan win the game.",
        screenshot=lambda: screenshot(phone, "winning-hand"),
    )
    phone.get_by_text("Hao & Yan win the game after 4 hands.").wait_for()
    assert phone.get_by_role("link", name="Record a hand").count() == 0
    assert list(Hand.objects.values_list("friends", flat=True)) == [[4], [], [4], [3]]
    fits(phone)
    screenshot(phone, "won")


def test_eight_partners_play_with_four_decks(phone, live_server, group, screenshot):
    phone.goto(f"{live_server.url}/groups/{group.pk}/games/new/")
    seat(phone, CAST)
    summary = phone.locator("#table-summary")
    summary.get_by_text("8 players with 4 decks: 26 cards each, a kitty of 8.").wait_for()
    summary.get_by_text("Mei, Lin, Wei & Zhao").wait_for()
    screenshot(phone, "new-game")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/games/*/")

    # Four decks: 0 → +3, 5–75 → +2, 80–155 → +1, 160 or more takes the deal: quick totals on
    # both sides of each line.
    phone.get_by_role("link", name="Record a hand").click()
    quick = phone.locator(".quick-points").inner_text()
    assert re.findall(r"\d+", quick) == ["0", "75", "80", "155", "160"]
    phone.locator("#kitty-more > summary").click()
    for _ in range(4):
        phone.locator('.kitty-card[data-card="KD"]').click()
    assert phone.locator('.kitty-card[data-card="KD"] .copies').inner_text() == "×4"
    phone.get_by_role("button", name="Count cards").click()
    for _ in range(17):
        phone.get_by_role("button", name="One more five").click()
    assert phone.locator("#count-fives").inner_text() == "16"
    fits(phone)
    screenshot(phone, "hand-form")
    phone.go_back()

    tap_hand(
        phone, declarer="Mei", points=155, expect="In the 80–155 band, the declarers climb 1 level"
    )
    phone.get_by_text(
        "Mei, Lin, Wei or Zhao may start hand 2 at level 3 (Lin by turn): the declarers held."
    ).wait_for()
    tap_hand(phone, declarer="Lin", points=200, expect="opponents take the deal")
    phone.get_by_text(
        "Jun, Hao, Yan or Xiu may start hand 3 at level 2 (Hao by turn): "
        "Jun, Hao, Yan and Xiu take over."
    ).wait_for()
    tap_hand(phone, declarer="Xiu", points=0, expect="the declarers climb 3 levels")
    assert phone.locator('[data-level="1-3-5-7"]').inner_text() == "5"
    assert phone.locator('[data-level="0-2-4-6"]').inner_text() == "3"
    fits(phone)
    screenshot(phone, "scoreboard")


def test_a_fixed_trump_in_turn_asks_no_bid_or_trump(phone, live_server, group, screenshot):
    phone.goto(f"{live_server.url}/groups/{group.pk}/games/new/")
    seat(phone, CAST[:4])
    phone.get_by_text("Fixed suits, in turn").click()
    phone.locator("#id_suit_1").select_option("S")
    phone.locator("#id_suit_2").select_option("D")
    phone.get_by_role("button", name="Start the game").click()
    # Nobody bids for hand 1: the form asks who starts it.
    phone.get_by_text("Nobody bids for hand 1 at this table: choose who starts it.").wait_for()
    screenshot(phone, "who-starts")
    phone.get_by_label("Who starts hand 1").select_option(label="Jun")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/games/*/")
    phone.get_by_text("Jun starts hand 1 at level 2.").wait_for()
    phone.get_by_text("Hand 1's trump: ♠.").wait_for()

    phone.get_by_role("link", name="Record a hand").click()
    assert phone.locator("input[name=trump]").count() == 0
    assert phone.locator("input[name=bid]").count() == 0
    phone.get_by_text("Trump is fixed for this hand: ♠. Nobody bids.").wait_for()
    screenshot(phone, "hand-form")
    phone.go_back()
    tap_hand(phone, trump=None, points=40, expect="the declarers climb 1 level")
    phone.get_by_text("Hao starts hand 2 at level 3: the declarers held.").wait_for()
    phone.get_by_text("Hand 2's trump: ♦.").wait_for()
    tap_hand(phone, trump=None, points=85, expect="opponents take the deal")
    assert phone.locator("#hand-1").get_by_text("#1 · Jun at 2 · ♠").is_visible()
    assert phone.locator("#hand-2").get_by_text("#2 · Hao at 3 · ♦").is_visible()
    # Mei is the next after Hao, and an opponent: she starts hand 3.
    phone.get_by_text("Mei starts hand 3 at level 2: Mei and Lin take over.").wait_for()
    phone.get_by_text("Hand 3's trump: ♠.").wait_for()
    assert list(Hand.objects.values_list("trump", "bid")) == [("S", ""), ("D", "")]
    fits(phone)
    screenshot(phone, "scoreboard")
