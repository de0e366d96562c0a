"""Mei signs up, starts a group, puts four players on its roster, writes the group's own
scoring table and starts a game: all on a 360 px phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.models import Game, Group, ScoringTable

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long table password"


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{page.url} scrolls sideways on a phone: {width}px wide"


TARGETS = ", ".join(
    [
        "nav .btn",
        "main .btn",
        "main input:not([type=hidden]):not([type=checkbox]):not(.btn-check)",
        "main select",
        "main summary",
        "main .form-check",
    ]
)


def small_targets(page) -> list[str]:
    """What a thumb must hit but is less than 44 px high (visually hidden ones aside)."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter(el => el.offsetParent !== null && !el.classList.contains('visually-hidden'))
            .filter(el => el.getBoundingClientRect().height < 43.5)
            .map(el => el.outerHTML.slice(0, 80))""",
        TARGETS,
    )


def test_a_new_player_sets_up_a_group_and_starts_a_game(phone, live_server, screenshot):
    # Bootstrap's transitions off: the screenshots show each field's settled border.
    phone.emulate_media(reduced_motion="reduce")
    phone.goto(live_server.url)
    screenshot(phone, "1-home")
    phone.get_by_role("link", name="Sign up").first.click()
    phone.get_by_label("Username").fill("mei")
    phone.locator("#id_password1").fill(PASSWORD)
    phone.locator("#id_password2").fill(PASSWORD)
    fits(phone)
    screenshot(phone, "2-signup-form")
    phone.get_by_role("button", name="Create my account").click()
    phone.get_by_role("heading", name="Your groups").wait_for()
    fits(phone)
    assert small_targets(phone) == []
    screenshot(phone, "2-home-member")

    phone.get_by_role("link", name="New group").click()
    phone.get_by_label("Group name").fill("Thursday Tractor")
    phone.get_by_role("button", name="Create the group").click()
    phone.get_by_role("heading", name="Thursday Tractor").wait_for()
    phone.wait_for_load_state()  # htmx has taken over the forms

    for name in ("Mei", "Jun", "Lin", "Hao"):
        phone.get_by_label("Player's name").fill(name)
        phone.get_by_label("Player's name").press("Enter")
        phone.locator("#players li", has_text=name).wait_for()
        # htmx takes the new form over as it settles (until then Enter would post it plainly).
        expect(phone.locator("#roster")).not_to_have_class(re.compile("htmx-added"))
        expect(phone.get_by_label("Player's name")).to_be_focused()
    assert phone.get_by_text("is on the roster.").count() == 0, "htmx added them in place"
    phone.get_by_label("Player's name").fill("jun")
    phone.get_by_role("button", name="Add", exact=True).click()
    phone.get_by_text("jun is already on the roster.").wait_for()
    assert "/groups/" in phone.url and phone.url.endswith("/"), "adding must not leave the page"
    phone.get_by_text("Show a QR code").click()
    fits(phone)
    assert small_targets(phone) == []
    screenshot(phone, "3-group")

    phone.get_by_role("link", name="New table").click()
    phone.get_by_label("Start from a preset").select_option("open-ladder")
    phone.get_by_role("button", name="Load").click()
    phone.wait_for_url("**/tables/new/?preset=open-ladder")
    phone.wait_for_load_state()
    phone.get_by_label("Table name").fill("Thursday rules")
    # Thursday's table: the opponents climb from 120 but never more than 2.
    for number in (7, 6):
        phone.locator("label", has_text=f"Remove band {number}").click()
    phone.get_by_label("Band 5: to").fill("")
    phone.locator("#table-preview .range", has_text="120+").wait_for()
    phone.get_by_role("button", name="Add a band").click()
    expect(phone.locator("#bands .band-row")).to_have_count(6)  # the removed bands are gone
    phone.get_by_label("Band 6: from").fill("160")
    phone.locator("label[for=id_band-5-winner_1]").click()
    phone.get_by_label("Band 6: levels").fill("2")
    phone.locator("#table-preview").get_by_text("so it must be the last band").wait_for()
    screenshot(phone, "4-table-error")
    phone.get_by_label("Band 5: to").fill("155")
    phone.locator("#table-preview .range", has_text="160+").wait_for()
    phone.locator("label", has_text="×2 single, ×4 pair").click()
    phone.locator("summary", has_text="More rules").click()
    phone.get_by_label("Throws allowed").uncheck()
    phone.get_by_label("Penalty per card taken back from a failed throw").fill("0")
    expect(phone.locator("#table-preview .alert")).to_have_count(0)
    fits(phone)
    assert small_targets(phone) == []
    screenshot(phone, "4-table")
    phone.get_by_role("button", name="Save the table").click()
    phone.get_by_text("Saved the table Thursday rules.").wait_for()
    rules = ScoringTable.objects.get().rules
    assert [band.label for band in rules.bands][-3:] == ["80–115", "120–155", "160+"]

    phone.get_by_role("link", name="New game").click()
    for seat, name in enumerate(("Mei", "Jun", "Lin", "Jun"), start=1):
        phone.locator(f"#id_seat_{seat}").select_option(label=name)
    phone.get_by_label("Rules").select_option(label="Thursday rules")
    phone.get_by_label("Level of player 2").select_option(label="10")
    phone.get_by_role("button", name="Start the game").click()
    phone.get_by_text("Jun already has a seat: choose each player once.").wait_for()
    phone.wait_for_load_state()
    fits(phone)
    screenshot(phone, "5-game-new-error")
    phone.locator("#id_seat_4").select_option("")
    phone.get_by_text("Someone missing? Add a player").click()
    phone.get_by_label("Player's name").fill("Zoe")
    phone.get_by_role("button", name="Add", exact=True).click()
    expect(phone.locator("#id_seat_4 option:checked")).to_have_text("Zoe")
    expect(phone.locator("#id_seat_4")).not_to_have_class(re.compile("is-invalid"))  # settled
    # Thursday rules rotate the start (open-ladder's way): nobody bids for hand 1.
    phone.get_by_label("Who starts hand 1").select_option(label="Jun")
    phone.locator("#table-summary").get_by_text("Mei & Lin against Jun & Zoe.").wait_for()
    assert small_targets(phone) == []
    screenshot(phone, "6-game-new")
    phone.get_by_role("button", name="Start the game").click()

    phone.wait_for_url("**/games/*/")
    game = Game.objects.get()
    assert game.group == Group.objects.get(name="Thursday Tractor")
    assert [player.name for player in game.players] == ["Mei", "Jun", "Lin", "Zoe"]
    assert game.rules.name == "Thursday rules"
    assert [seat.level for seat in game.seated] == ["2", "T", "2", "T"]
    assert game.first_declarer == 1
    phone.get_by_text("Jun starts hand 1 at level 10.").wait_for()
    screenshot(phone, "7-game")
