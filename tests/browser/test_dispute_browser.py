"""A disputed trick tapped in by thumb at 360 px: the verdict in large text, any table from 4 to
8 players, and a game's verdict saved as a precedent of the hand being played."""

from __future__ import annotations

import contextlib

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion.models import Dispute, Game, Group, Hand, Membership, Player
from scoring import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def tap_cards(phone, field: str, cards: list[str]) -> None:
    """Open the card grid of ``field`` (``play_0``, ``hand_2``…), tap ``cards``, close it."""
    block = phone.locator(".cards-field", has=phone.locator(f"#id_{field}"))
    if field.startswith("hand_"):
        phone.locator("details", has=block).locator("summary").click()
    block.get_by_role("button", name="Cards").click()
    for card in cards:
        block.locator(f'.grid-card[data-card="{card}"]').click()
    assert phone.locator(f"#id_{field}").input_value() == " ".join(cards)
    block.get_by_role("button", name="Done").click()


def release(phone, held: list) -> None:
    """Let the held requests through; those the page gave up on (htmx replaced them) stay so."""
    phone.unroute("**/dispute/")
    for route in held:
        with contextlib.suppress(PlaywrightError):
            route.continue_()


def seat_names(phone) -> list[str]:
    return [name.split()[0] for name in phone.locator(".seat-name").all_inner_texts()]


def assert_fits_a_phone(phone) -> None:
    """Nothing wider than the screen, and every button a thumb can hit (44 px or more)."""
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    small = phone.evaluate(
        """[...document.querySelectorAll('main button, main .btn, main select, main input')]
             .filter((e) => e.offsetParent !== null && e.type !== 'radio')
             .map((e) => e.getBoundingClientRect())
             .filter((r) => r.height < 44 || r.width < 44)
             .map((r) => [r.width, r.height])"""
    )
    assert small == []


def test_a_trick_tapped_in_on_a_phone_gets_its_verdict_in_place(phone, live_server, screenshot):
    phone.goto(f"{live_server.url}/")
    phone.get_by_role("link", name="Dispute a trick").click()
    phone.get_by_label("Rules").select_option("kawu")
    phone.get_by_label("Level").select_option("5")
    phone.locator("label", has_text="♥").click()

    tap_cards(phone, "play_0", ["5H", "5H"])
    tap_cards(phone, "play_1", ["9H", "KH"])
    block = phone.locator(".cards-field", has=phone.locator("#id_hand_1"))
    phone.locator("summary", has_text="P2's hand").click()
    block.get_by_role("button", name="Cards").click()
    for card in ["9H", "KH", "7H", "7H", "3C"]:
        block.locator(f'.grid-card[data-card="{card}"]').click()
    assert block.locator('.grid-card[data-card="7H"] .copies').inner_text() == "×2"
    block.locator('.grid-card[data-card="3C"]').click()  # two decks: a third 3C takes it back
    assert phone.locator("#id_hand_1").input_value() == "9H KH 7H 7H 3C 3C"
    block.locator('.grid-card[data-card="3C"]').click()
    assert phone.locator("#id_hand_1").input_value() == "9H KH 7H 7H"
    block.locator('.grid-card[data-card="3C"]').click()
    assert_fits_a_phone(phone)
    screenshot(phone, "grid-open")
    block.get_by_role("button", name="Done").click()
    tap_cards(phone, "play_2", ["SJ", "SJ"])
    tap_cards(phone, "play_3", ["2C", "3C"])

    phone.evaluate("window.notReloaded = true")
    phone.get_by_role("button", name="Judge the trick").click()
    verdict = phone.locator("#verdict")
    verdict.get_by_text("P3 wins the trick").wait_for()

    assert phone.evaluate("window.notReloaded") is True  # htmx swapped the verdict in
    assert verdict.locator(".verdict-points").inner_text() == "20 points"
    assert "P2 held the pair 7H 7H in trumps and had to play it" in verdict.inner_text()
    font_size = verdict.locator(".verdict-headline").evaluate("e => getComputedStyle(e).fontSize")
    assert float(font_size.removesuffix("px")) >= 24
    assert_fits_a_phone(phone)
    verdict.scroll_into_view_if_needed()
    screenshot(phone, "verdict")

    # A card the grid would not write, typed: the error stands beside P4's field, kept.
    phone.locator("#id_play_3").fill("2C XC")
    phone.get_by_role("button", name="Judge the trick").click()
    field = phone.locator(".cards-field", has=phone.locator("#id_play_3"))
    field.get_by_text("XC is not a card").wait_for()
    assert phone.locator("#id_play_3").input_value() == "2C XC"
    assert phone.locator("#id_play_0").input_value() == "5H 5H"
    screenshot(phone, "error-beside-field")

    # Cards typed in any notation the server reads show on the grid as pressed.
    phone.locator("#id_play_3").fill("10h 10♥ 2c")
    field.get_by_role("button", name="Cards").click()
    expect(field.locator('.grid-card[data-card="TH"] .copies')).to_have_text("×2")
    expect(field.locator('.grid-card[data-card="2C"]')).to_have_attribute("aria-pressed", "true")
    expect(field.locator('.grid-card[data-card="3C"]')).to_have_attribute("aria-pressed", "false")
    screenshot(phone, "typed-cards-pressed")
    field.locator('.grid-card[data-card="TH"]').click()  # two decks: a third takes them back
    assert phone.locator("#id_play_3").input_value() == "2C"


def test_six_players_are_seated_with_three_decks_and_their_trick_judged(
    phone, live_server, screenshot
):
    phone.goto(f"{live_server.url}/dispute/")
    phone.get_by_label("Level").select_option("2")
    phone.locator("label", has_text="♠").click()
    tap_cards(phone, "play_0", ["KH", "KH"])  # typed before the table grows, and kept

    phone.locator("fieldset", has_text="Players").get_by_text("6", exact=True).click()
    phone.locator(".seat-name", has_text="P6").wait_for()
    assert seat_names(phone) == ["P1", "P2", "P3", "P4", "P5", "P6"]
    decks = phone.locator("fieldset", has_text="Decks")
    assert decks.locator("input:checked").get_attribute("value") == "3"
    assert phone.locator("#id_play_0").input_value() == "KH KH"
    screenshot(phone, "six-seats")

    # Three decks: three kings of hearts in P1's hand.
    block = phone.locator(".cards-field", has=phone.locator("#id_hand_0"))
    phone.locator("summary", has_text="P1's hand").click()
    block.get_by_role("button", name="Cards").click()
    for _ in range(3):
        block.locator('.grid-card[data-card="KH"]').click()
    assert block.locator('.grid-card[data-card="KH"] .copies').inner_text() == "×3"
    assert_fits_a_phone(phone)
    screenshot(phone, "three-copies")
    block.get_by_role("button", name="Done").click()
    tap_cards(phone, "play_1", ["AH", "AH"])
    tap_cards(phone, "play_2", ["5H", "6H"])
    tap_cards(phone, "hand_2", ["5H", "6H", "9H", "9H"])
    tap_cards(phone, "play_3", ["2S", "2S"])
    tap_cards(phone, "play_4", ["3H", "3H"])
    tap_cards(phone, "play_5", ["SJ", "SJ"])

    phone.get_by_role("button", name="Judge the trick").click()
    verdict = phone.locator("#verdict")
    verdict.get_by_text("P6 wins the trick").wait_for()

    assert verdict.locator(".verdict-points").inner_text() == "25 points"
    plays = verdict.locator(".verdict-play").all_inner_texts()
    assert [play.split()[0] for play in plays] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert "P3 held the pair 9H 9H in hearts and had to play it" in plays[2]
    assert_fits_a_phone(phone)
    verdict.scroll_into_view_if_needed()
    screenshot(phone, "six-verdict")


SIX = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan")


@pytest.fixture
def game():
    """Six at the table under open-ladder with three decks; Mei started hand 1 and her team
    held, so Lin starts hand 2."""
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [Player.objects.create(group=group, name=name) for name in SIX]
    game = Game.start(group, players, get_rules("open-ladder"), first_declarer=0)
    Hand.objects.create(
        game=game,
        number=1,
        declarer=0,
        trump="S",
        kitty_points=0,
        opponent_points=45,
        last_trick_winner="declarers",
        last_trick_format="single",
        last_trick_cards=1,
    )
    return game


def test_a_six_seat_game_s_dispute_is_saved_to_the_hand_being_played(
    phone, live_server, game, screenshot
):
    log_in(phone, live_server, "mei")
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_role("link", name="Dispute a trick").click()
    phone.wait_for_load_state()

    level = game.scored().state.level.symbol
    assert phone.get_by_label("Level").input_value() == level
    assert seat_names(phone) == ["Lin", "Hao", "Wei", "Yan", "Mei", "Jun"]
    # Jun leads this trick: the page seats the others after him in play order.
    phone.locator("fieldset", has_text="Led by").get_by_text("Jun", exact=True).click()
    phone.locator(".seat-name").first.filter(has_text="Jun").wait_for()
    assert seat_names(phone) == ["Jun", "Lin", "Hao", "Wei", "Yan", "Mei"]
    phone.locator("label", has_text="♣").click()
    tap_cards(phone, "play_1", ["AS", "KS"])  # a throw, which open-ladder allows
    tap_cards(phone, "hand_2", ["AS", "QS", "QS", "4D"])
    tap_cards(phone, "play_2", ["QS", "QS"])
    phone.get_by_role("button", name="Judge the trick").click()
    verdict = phone.locator("#verdict")
    verdict.get_by_text("Jun's throw fails", exact=True).wait_for()
    assert "Lin can beat it: Jun leads K♠" in verdict.inner_text()
    assert_fits_a_phone(phone)
    screenshot(phone, "throw-fails")

    assert verdict.get_by_label("Save it as a precedent of").input_value() == "2"
    verdict.get_by_role("button", name="Save the verdict").click()
    verdict.get_by_text("Saved as a precedent of hand 2.").wait_for()
    saved = Dispute.objects.get()
    assert (saved.hand_number, saved.request["decks"]) == (2, 3)

    verdict.get_by_role("link", name="Back to the game").click()
    phone.get_by_text("This hand: 1 precedent").click()
    phone.get_by_text("Lin held").wait_for()
    assert_fits_a_phone(phone)
    screenshot(phone, "scoreboard-precedent")


def test_quick_taps_keep_every_card_while_a_reading_of_other_text_is_on_its_way(phone, live_server):
    """Typing in one field asks the server to read the cards; its answer can arrive after the
    thumb has already tapped cards into another field. It must not take them back."""
    phone.goto(f"{live_server.url}/dispute/")
    held = []
    phone.route("**/dispute/", lambda route: held.append(route))
    with phone.expect_request("**/dispute/") as reading:  # sent, and held
        phone.locator("#id_play_0").fill("5S 5S")
    assert "action=read" in reading.value.post_data, "typing asks the server to read the cards"

    block = phone.locator(".cards-field", has=phone.locator("#id_play_1"))
    block.get_by_role("button", name="Cards").click()
    block.locator('.grid-card[data-card="5H"]').click()
    # The reading of the other field arrives after the tap (on a phone so busy that the tap's
    # own reading went out first, htmx replaced the first with it: that one arrives instead).
    release(phone, held)
    read = phone.locator('#card-codes [data-field="play_0"]')
    expect(read).to_have_attribute("data-codes", "5S 5S")
    block.locator('.grid-card[data-card="6H"]').click()

    assert phone.locator("#id_play_1").input_value() == "5H 6H"
    expect(block.locator('.grid-card[data-card="5H"]')).to_have_attribute("aria-pressed", "true")
    expect(block.locator('.grid-card[data-card="6H"]')).to_have_attribute("aria-pressed", "true")


def test_a_tap_adds_to_cards_typed_before_the_server_read_them(phone, live_server):
    """Offline, or quicker than the server: what was typed stays, and the tapped card joins it."""
    phone.goto(f"{live_server.url}/dispute/")
    held = []
    phone.route("**/dispute/", lambda route: held.append(route))
    phone.locator("#id_play_1").fill("5h")

    block = phone.locator(".cards-field", has=phone.locator("#id_play_1"))
    block.get_by_role("button", name="Cards").click()
    block.locator('.grid-card[data-card="6H"]').click()

    assert phone.locator("#id_play_1").input_value() == "5h 6H"
    release(phone, held)
