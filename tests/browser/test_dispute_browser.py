"""A disputed trick tapped in by thumb at 360 px: the verdict in large text, and a game's
verdict saved as a precedent of the hand being played."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

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
    """Open the card grid of ``field`` (``play_1``, ``hand_2``…), tap ``cards``, close it."""
    block = phone.locator(".cards-field", has=phone.locator(f"#id_{field}"))
    block.get_by_role("button", name="Cards").click()
    for card in cards:
        block.locator(f'.grid-card[data-card="{card}"]').click()
    assert phone.locator(f"#id_{field}").input_value() == " ".join(cards)
    block.get_by_role("button", name="Done").click()


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

    tap_cards(phone, "play_1", ["5H", "5H"])
    tap_cards(phone, "play_2", ["9H", "KH"])
    phone.locator("summary", has_text="P2's hand").click()
    block = phone.locator(".cards-field", has=phone.locator("#id_hand_2"))
    block.get_by_role("button", name="Cards").click()
    for card in ["9H", "KH", "7H", "7H", "3C"]:
        block.locator(f'.grid-card[data-card="{card}"]').click()
    assert block.locator('.grid-card[data-card="7H"] .copies').inner_text() == "×2"
    assert_fits_a_phone(phone)
    screenshot(phone, "grid-open")
    block.get_by_role("button", name="Done").click()
    tap_cards(phone, "play_3", ["SJ", "SJ"])
    tap_cards(phone, "play_4", ["2C", "3C"])

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
    phone.locator("#id_play_4").fill("2C XC")
    phone.get_by_role("button", name="Judge the trick").click()
    field = phone.locator(".cards-field", has=phone.locator("#id_play_4"))
    field.get_by_text("unknown card 'XC'").wait_for()
    assert phone.locator("#id_play_4").input_value() == "2C XC"
    assert phone.locator("#id_play_1").input_value() == "5H 5H"
    screenshot(phone, "error-beside-field")


@pytest.fixture
def game():
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    seats = {
        seat: Player.objects.create(group=group, name=name)
        for seat, name in zip(
            ("north", "east", "south", "west"), ("Mei", "Jun", "Lin", "Hao"), strict=True
        )
    }
    game = Game.objects.create(group=group, rules_json=get_rules("open-ladder").to_json(), **seats)
    Hand.objects.create(
        game=game,
        number=1,
        declarer="N",
        trump="S",
        kitty_points=0,
        opponent_points=45,
        last_trick_winner="declarers",
        last_trick_format="single",
        last_trick_cards=1,
    )
    return game


def test_a_game_s_dispute_is_saved_to_the_hand_being_played(phone, live_server, game, screenshot):
    log_in(phone, live_server, "mei")
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_role("link", name="Dispute a trick").click()
    phone.wait_for_load_state()

    # Hand 2: North–South hold at 3 and Lin (South) starts under open-ladder's rotation.
    assert phone.get_by_label("Level").input_value() == "3"
    assert phone.locator(".seat-name").first.inner_text().startswith("Lin")
    # Hao leads this trick: the seats follow him counter-clockwise.
    phone.get_by_text("Hao", exact=True).click()
    assert [t.split()[0] for t in phone.locator(".seat-name").all_inner_texts()] == [
        "Hao",
        "Lin",
        "Jun",
        "Mei",
    ]
    phone.locator("label", has_text="♣").click()
    tap_cards(phone, "play_W", ["AS", "KS"])  # a throw, which open-ladder allows
    phone.locator("summary", has_text="Lin's hand").click()
    tap_cards(phone, "hand_S", ["AS", "QS", "QS", "4D"])
    tap_cards(phone, "play_S", ["QS", "QS"])
    phone.get_by_role("button", name="Judge the trick").click()
    verdict = phone.locator("#verdict")
    verdict.get_by_text("Hao's throw fails", exact=True).wait_for()
    assert "Lin can beat it: Hao leads K♠" in verdict.inner_text()
    assert_fits_a_phone(phone)
    screenshot(phone, "throw-fails")

    assert verdict.get_by_label("Save it as a precedent of").input_value() == "2"
    verdict.get_by_role("button", name="Save the verdict").click()
    verdict.get_by_text("Saved as a precedent of hand 2.").wait_for()
    assert Dispute.objects.get().hand_number == 2

    verdict.get_by_role("link", name="Back to the game").click()
    phone.get_by_text("This hand: 1 precedent").click()
    phone.get_by_text("Lin held").wait_for()
    assert_fits_a_phone(phone)
    screenshot(phone, "scoreboard-precedent")
