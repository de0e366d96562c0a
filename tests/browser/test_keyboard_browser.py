"""A hand recorded and a trick judged by keyboard alone (Tab, arrows, Space, Enter, typing), on
a 360 × 740 phone: focus moves in the order the controls are seen, every stop has a name a
player understands, the card toggles say whether they are pressed, and the hand's preview and
the verdict are live regions that stay in the page while their text changes, as a screen
reader needs to announce them."""

from __future__ import annotations

import itertools

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from companion.models import Game, Group, Hand, Membership, Player
from scoring import get_rules
from tests.browser.conftest import settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUSED = "*:focus"
# The kitty's cards as the grid's buttons are named: 15 points.
KITTY = [f'button "{card}"' for card in ("5♥", "2♣", "3♣", "4♣", "6♣", "7♣", "8♣", "K♦")]


@pytest.fixture
def game(phone, live_server) -> Game:
    """Mei and Lin against Jun and Hao under standard rules, Mei logged in on the phone."""
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [
        Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
    ]
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return Game.start(group, players, get_rules("standard"), by=user)


def focused(phone) -> str:
    """The focused control as the accessibility tree has it: ``button "Save hand"``,
    ``radio "Mei" [checked]``, once htmx has settled (a swap gives the focus back by id, and its
    Cards buttons show on htmx:load)."""
    settled(phone)
    if phone.evaluate("document.activeElement === document.body"):
        return "nothing"
    line = phone.locator(FOCUSED).aria_snapshot().splitlines()[0].removeprefix("- ")
    if line.startswith("'"):  # quoted, as YAML quotes a key with a colon in it
        return line[1:].split("'")[0]
    return line.strip(":")


def tab(phone, key: str = "Tab") -> str:
    phone.keyboard.press(key)
    return focused(phone)


def tab_to(phone, name: str, key: str = "Tab", most: int = 80) -> list[str]:
    """Tab (or ``key``) until the focused control's description starts with ``name``: the
    stops on the way."""
    stops = []
    for _ in range(most):
        stops.append(tab(phone, key))
        if stops[-1].startswith(name):
            return stops
    raise AssertionError(f"{name} never took the focus: {stops}")


def box(phone) -> dict:
    """Where the focused control is seen on the page (a toggle button's radio by its label)."""
    return phone.evaluate(
        """() => {
          const e = document.activeElement;
          const seen = e.labels && e.labels.length && e.type === "radio" ? e.labels[0] : e;
          const r = seen.getBoundingClientRect();
          return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right};
        }"""
    )


def assert_seen_in_order(stops: list[tuple[str, dict]]) -> None:
    """Each stop is right of the one before on its line, or on a line below: the order of the
    page read as a player reads it."""
    for (was, before), (now, after) in itertools.pairwise(stops):
        below = after["top"] >= before["bottom"] - 2
        same_line = after["top"] < before["bottom"] and after["bottom"] > before["top"]
        assert below or (same_line and after["left"] >= before["right"] - 2), (was, now)


def no_positive_tabindex(phone) -> None:
    positive = "[...document.querySelectorAll('[tabindex]')].filter((e) => e.tabIndex > 0)"
    assert phone.evaluate(f"{positive}.length") == 0


def live_region(phone, inside: str):
    """The live region around ``inside``: a handle that tells later whether the same element
    is still in the page (a region swapped in whole is not announced)."""
    region = phone.evaluate_handle(
        "s => document.querySelector(s).closest('[aria-live=polite], [role=status]')", inside
    )
    assert region.evaluate("e => e !== null"), f"{inside} is in no live region"
    return region


def still_says(phone, region, text: str) -> None:
    """The live region, still in the page, comes to say ``text``."""
    try:
        phone.wait_for_function(
            "([e, t]) => e.isConnected && e.innerText.includes(t)", arg=[region, text]
        )
    except PlaywrightTimeoutError:
        connected, says = region.evaluate("e => [e.isConnected, e.innerText]")
        assert connected, f"the live region was swapped out of the page; it said {says!r}"
        raise AssertionError(f"the live region says {says!r}, not {text!r}") from None


def test_it_records_a_hand_by_keyboard_alone(phone, live_server, game):
    phone.goto(live_server.url + game.get_absolute_url())
    tab_to(phone, 'link "Record a hand"')
    phone.keyboard.press("Enter")
    phone.wait_for_url("**/hands/new/")
    no_positive_tabindex(phone)

    # From the top, the hand's controls in the order they are seen, each named.
    stops = tab_to(phone, 'button "Save hand"')
    form = stops[stops.index('link "Back to the game"') + 1 :]
    assert form == [
        'radio "Mei"',
        'radio "♠"',
        'button "−20"',
        'button "−5"',
        'spinbutton "Opponents\' points"',
        'button "+5"',
        'button "+20"',
        'button "0"',
        'button "35"',
        'button "40"',
        'button "75"',
        'button "80"',
        'button "Count cards"',
        'radio "Declarers" [checked]',
        'radio "Single" [checked]',
        "text: Kitty cards 0 of 8, points 0",
        "text: Bid",
        'button "Save hand"',
    ]

    # Back up to the declarer: Space taps her, and the preview says what is still missing.
    preview = live_region(phone, "#preview")
    tab_to(phone, 'radio "Mei"', key="Shift+Tab")
    phone.keyboard.press("Space")
    still_says(phone, preview, "Give the opponents' points.")
    # The arrows go through a row of toggles, tapping each.
    assert tab(phone) == 'radio "♠"'
    assert tab(phone, "ArrowRight") == 'radio "♥" [checked]'
    assert tab_to(phone, 'button "+5"')[-1] == 'button "+5"'
    phone.keyboard.press("Space")
    assert tab(phone) == 'button "+20"'
    phone.keyboard.press("Enter")
    phone.keyboard.press("Enter")
    expect(phone.locator("#id_opponent_points")).to_have_value("45")
    climb = "Opponents 45 points. In the 40–75 band, the declarers climb 1 level"
    still_says(phone, preview, climb)

    # The opponents took the last trick: the kitty opens, its cards toggled by Space or Enter.
    tab_to(phone, 'radio "Declarers"')
    assert tab(phone, "ArrowRight") == 'radio "Opponents" [checked]'
    expect(phone.locator("#kitty-more")).to_have_attribute("open", "")
    assert tab(phone) == 'radio "Single" [checked]'
    stops = [(tab(phone), box(phone))]
    while not stops[-1][0].startswith('button "Save hand"'):
        if stops[-1][0] in KITTY:
            phone.keyboard.press("Space" if len(stops) % 2 else "Enter")
            assert focused(phone) == f"{stops[-1][0]} [pressed]"
        stops.append((tab(phone), box(phone)))
        assert len(stops) < 80, stops
    names = [name for name, _ in stops]
    assert names[:2] == ["text: Kitty cards 0 of 8, points 0", 'button "A♠"']
    assert names[-4:] == [
        'textbox "Kitty cards": 5H 8C 7C 6C 4C 3C 2C KD',
        'spinbutton "Kitty points": "15"',
        'text: "Bid: One level card"',
        'button "Save hand"',
    ]
    expect(phone.locator("#kitty-said")).to_have_text("cards 8 of 8, points 15")
    still_says(phone, preview, "kitty 15")
    assert_seen_in_order(stops[:-1])  # the Save bar stays at the foot of the screen

    said = preview.evaluate("e => e.innerText").split("\n")[0]
    phone.keyboard.press("Enter")
    phone.wait_for_url(f"**{game.get_absolute_url()}")
    phone.get_by_text(said).first.wait_for()
    saved = Hand.objects.get()
    assert (saved.declarer, saved.trump, saved.opponent_points) == (0, "H", 45)
    assert (saved.last_trick_winner, saved.kitty_cards) == ("opponents", "5H 8C 7C 6C 4C 3C 2C KD")


def test_it_judges_a_trick_by_keyboard_alone(phone, live_server):
    phone.goto(f"{live_server.url}/dispute/")
    no_positive_tabindex(phone)
    stops = tab_to(phone, 'button "Judge the trick"')
    table = stops[stops.index('combobox "Rules"') :]
    seats = [
        [
            f'textbox "P{n} played"',
            f'button "Cards: P{n} played"',
            f"text: P{n}'s hand before the trick (optional)",
        ]
        for n in range(1, 5)
    ]
    assert table == [
        'combobox "Rules"',
        'combobox "Level"',
        'radio "♠"',
        'radio "4" [checked]',
        'radio "2" [checked]',
        *itertools.chain(*seats),
        'button "Judge the trick"',
    ]

    verdict = live_region(phone, "#verdict")
    tab_to(phone, 'combobox "Level"', key="Shift+Tab")
    phone.keyboard.type("2")  # a closed list picks the option typed
    expect(phone.locator("#id_level")).to_have_value("2")
    tab(phone)
    assert tab(phone, "ArrowRight") == 'radio "♥" [checked]'
    # P1's cards on the grid: Enter opens it, Space and Enter press a card (a pair: twice), Done
    # (or Escape) closes it back on its button.
    tab_to(phone, 'button "Cards: P1 played"')
    phone.keyboard.press("Enter")
    assert focused(phone) == 'button "Cards: P1 played" [expanded]'
    tab_to(phone, 'button "5♠"')
    phone.keyboard.press("Space")
    phone.keyboard.press("Enter")
    assert focused(phone) == 'button "5♠ ×2" [pressed]'
    expect(phone.locator("#id_play_0")).to_have_value("5S 5S")
    tab_to(phone, 'button "Done"')
    phone.keyboard.press("Enter")
    assert focused(phone) == 'button "Cards: P1 played"'
    # The others typed, P3's pair winning; Enter in a field judges the trick.
    for seat, cards in (("P2", "9S KS"), ("P3", "AS AS"), ("P4", "3C 4C")):
        tab_to(phone, f'textbox "{seat} played"')
        phone.keyboard.type(cards)
    phone.keyboard.press("Enter")
    still_says(phone, verdict, "P3 wins the trick")
    assert "20 points" in verdict.evaluate("e => e.innerText")

    # P4 trumps it instead: the same region says the new verdict.
    assert focused(phone).startswith('textbox "P4 played"')  # kept as the fields come back
    assert tab(phone) == 'button "Cards: P4 played"'
    phone.keyboard.press("Enter")
    tab_to(phone, 'button "Clear"')
    phone.keyboard.press("Space")
    expect(phone.locator("#id_play_3")).to_have_value("")
    tab_to(phone, 'button "6♥"', key="Shift+Tab")
    phone.keyboard.press("Space")
    phone.keyboard.press("Space")
    phone.keyboard.press("Escape")
    assert focused(phone) == 'button "Cards: P4 played"'
    expect(phone.locator("#id_play_3")).to_have_value("6H 6H")
    tab_to(phone, 'button "Judge the trick"')
    phone.keyboard.press("Enter")
    still_says(phone, verdict, "P4 wins the trick")
