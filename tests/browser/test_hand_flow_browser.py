"""The hand form at the table, on a 360 × 740 phone: one screen for the common hand, a kitty
scoop in a few taps, a refused save that shows its error, and a save that outlives a lost
connection."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from companion.models import Game, Group, Hand, Membership, Player
from scoring import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEIGHT = 740
KITTY = ("5H", "KD", "2C", "3C", "4C", "6C", "7C", "8C")  # 15 points


@pytest.fixture
def game() -> Game:
    """Mei and Lin against Jun and Hao under standard rules, everyone at 2."""
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [
        Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
    ]
    return Game.start(group, players, get_rules("standard"), by=user)


@pytest.fixture
def hand_page(phone, live_server, game):
    """The phone, logged in as Mei, on the form for hand 1."""
    client = Client()
    client.force_login(User.objects.get(username="mei"))
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/groups/{game.group_id}/games/{game.pk}/hands/new/")
    return phone


def in_view(phone, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT


def page_height(phone) -> int:
    """How tall the page is, from the top of the screen to the end of its content."""
    return phone.evaluate(
        "Math.ceil(document.querySelector('main').getBoundingClientRect().bottom)"
    )


def test_a_standard_hand_is_recorded_without_scrolling(hand_page, game, screenshot):
    phone = hand_page
    screenshot(phone, "hand-form")
    print(f"hand form at 360×740: {page_height(phone)}px empty")  # the report's measurement

    controls = [
        phone.locator("#id_declarer label", has_text="Mei"),
        phone.locator("#id_trump label", has_text="♥"),
        phone.get_by_role("button", name="+20"),
        phone.get_by_role("button", name="+5"),
        phone.locator("#id_last_trick_winner label", has_text="Declarers"),
        phone.locator("#id_last_trick_format label", has_text="Single"),
        phone.get_by_role("button", name="Save hand"),
    ]
    for control in controls:
        assert in_view(phone, control), control
    for control in controls[:-1]:
        control.click()
    phone.get_by_role("button", name="+20").click()
    phone.locator("#preview").get_by_text(
        "Opponents 45 points. In the 40–75 band, the declarers climb 1 level"
    ).wait_for()
    assert phone.evaluate("window.scrollY") == 0
    assert in_view(phone, phone.get_by_role("button", name="Save hand"))
    assert in_view(phone, phone.locator("#preview"))
    print(f"hand form at 360×740: {page_height(phone)}px filled in")
    screenshot(phone, "hand-form-filled")
    phone.get_by_role("button", name="Save hand").click()

    phone.wait_for_url(f"**{game.get_absolute_url()}")
    assert Hand.objects.get().opponent_points == 45


def test_a_kitty_scoop_takes_a_few_taps_and_the_cards(hand_page, game, screenshot):
    phone = hand_page
    taps = [
        phone.locator("#id_declarer label", has_text="Jun"),
        phone.locator("#id_trump label", has_text="♠"),
        phone.locator("#id_last_trick_winner label", has_text="Opponents"),
        phone.locator("#id_last_trick_format label", has_text="Pair"),
    ]
    for tap in taps:
        tap.click()
    # The opponents took the last trick: the kitty counts, so its cards are there to tap.
    expect(phone.locator("#kitty-more")).to_have_attribute("open", "")
    for card in KITTY:
        phone.locator(f'.kitty-card[data-card="{card}"]').click()
    expect(phone.locator("#kitty-count")).to_have_text("8/8 · 15")
    expect(phone.locator("#id_kitty_points")).to_have_value("15")
    taps.append(phone.get_by_role("button", name="40", exact=True))
    taps[-1].click()
    phone.locator("#preview").get_by_text("Opponents 40 + kitty 15 ×").wait_for()
    screenshot(phone, "kitty-scoop")
    taps.append(phone.get_by_role("button", name="Save hand"))
    taps[-1].click()

    phone.wait_for_url(f"**{game.get_absolute_url()}")
    assert len(taps) <= 8
    saved = Hand.objects.get()
    assert (saved.kitty_cards, saved.kitty_points) == (" ".join(KITTY), 15)


def test_typed_kitty_cards_count_like_tapped_ones(hand_page):
    phone = hand_page
    phone.locator("#kitty-more > summary").click()
    phone.locator("#id_kitty_cards").fill("5h kd 10s")

    expect(phone.locator("#kitty-count")).to_have_text("3/8 · 25")
    expect(phone.locator('.kitty-card[data-card="TS"]')).to_have_attribute("aria-pressed", "true")
    expect(phone.locator("#id_kitty_points")).to_have_value("25")


def test_a_refused_save_opens_with_its_error_in_view_and_focused(hand_page, game, screenshot):
    phone = hand_page
    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_trump label", has_text="♥").click()
    phone.locator("#id_opponent_points").fill("33")
    phone.get_by_role("button", name="Save hand").click()

    message = "The opponents' points must be a multiple of 5 between 0 and 200; 33 is not."
    phone.locator("#id_opponent_points_error").get_by_text(message).wait_for()
    screenshot(phone, "refused-save")
    assert phone.evaluate("document.activeElement.id") == "id_opponent_points"
    assert in_view(phone, phone.locator("#id_opponent_points"))
    assert in_view(phone, phone.locator("#id_opponent_points_error"))
    assert "opponent_points" not in phone.locator("#hand-page").inner_text()
    assert not Hand.objects.exists()

    # Fixed, it saves.
    phone.locator("#id_opponent_points").fill("35")
    phone.get_by_role("button", name="Save hand").click()
    phone.wait_for_url(f"**{game.get_absolute_url()}")
    assert Hand.objects.get().opponent_points == 35


def test_a_hand_saved_offline_waits_on_the_phone_and_is_sent_once(hand_page, game, screenshot):
    phone = hand_page
    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_trump label", has_text="No trump").click()
    phone.get_by_role("button", name="40", exact=True).click()
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()

    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save hand").click()
    phone.get_by_role("button", name="Save hand").click()  # an impatient second tap

    waiting = phone.get_by_text("Saved on this phone; will send when the connection returns.")
    waiting.wait_for()
    screenshot(phone, "waiting-offline")
    assert not Hand.objects.exists()
    assert phone.evaluate("Object.keys(localStorage).length") == 1

    phone.context.set_offline(False)
    phone.wait_for_url(f"**{game.get_absolute_url()}")
    phone.get_by_text(
        "Opponents 40 points. In the 40–75 band, the declarers climb 1 level"
    ).first.wait_for()
    assert Hand.objects.count() == 1
    assert phone.evaluate("Object.keys(localStorage).length") == 0


def test_the_trump_starts_untapped_and_a_hand_without_it_is_refused(hand_page, game, screenshot):
    phone = hand_page
    trumps = phone.locator("#id_trump input")
    assert [trumps.nth(i).is_checked() for i in range(trumps.count())] == [False] * 5
    expect(phone.locator("#bid-more > summary")).to_have_text("Bid")
    taps = [
        phone.locator("#id_declarer label", has_text="Mei"),
        phone.get_by_role("button", name="40", exact=True),
        phone.get_by_role("button", name="Save hand"),
    ]
    for tap in taps:
        tap.click()

    phone.locator("#id_trump_error").get_by_text("Tap the trump suit, or No trump.").wait_for()
    screenshot(phone, "no-trump-tapped")
    assert in_view(phone, phone.locator("#id_trump"))
    assert not Hand.objects.exists()

    # A plain hand without trump: one tap more than when "No trump" came tapped (3 taps).
    taps.insert(1, phone.locator("#id_trump label", has_text="No trump"))
    taps[1].click()
    expect(phone.locator("#bid-more > summary")).to_have_text("Bid: Small jokers")
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()
    taps[-1].click()
    phone.wait_for_url(f"**{game.get_absolute_url()}")
    assert len(taps) == 4
    assert (Hand.objects.get().trump, Hand.objects.get().bid) == ("NT", "small-jokers")


def test_tapping_a_bid_of_jokers_taps_no_trump(hand_page, game):
    phone = hand_page
    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_trump label", has_text="♠").click()
    phone.locator("#bid-more > summary").click()
    expect(phone.locator("#bid-more > summary")).to_have_text("Bid: One level card")
    phone.locator("#id_bid label", has_text="Big jokers").click()

    expect(phone.locator("#id_trump input[value=NT]")).to_be_checked()
    expect(phone.locator("#id_trump input[value=S]")).not_to_be_checked()
    expect(phone.locator("#bid-more > summary")).to_have_text("Bid: Big jokers")
    phone.get_by_role("button", name="40", exact=True).click()
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()
    phone.get_by_role("button", name="Save hand").click()
    phone.wait_for_url(f"**{game.get_absolute_url()}")
    assert (Hand.objects.get().trump, Hand.objects.get().bid) == ("NT", "big-jokers")
