from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_home_page_fits_a_phone(phone, live_server, screenshot):
    phone.goto(live_server.url)

    assert phone.get_by_role("link", name="Score a hand").is_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways on a phone: {width}px wide"
    assert screenshot(phone, "home").stat().st_size > 0


def test_bootstrap_and_htmx_load_from_our_own_static_files(phone, live_server):
    phone.goto(live_server.url)

    assert phone.evaluate("typeof htmx") == "object"
    # Bootstrap's reboot sets the body's margin to 0; without its stylesheet it is 8px.
    assert phone.evaluate("getComputedStyle(document.body).margin") == "0px"


def test_score_a_hand_updates_live_as_fields_change(phone, live_server, screenshot):
    phone.goto(f"{live_server.url}/settle/")
    phone.get_by_label("Rules").select_option("kawu")
    phone.get_by_label("Declarers' level").select_option("5")
    phone.get_by_label("Opponents' level").select_option("3")
    phone.get_by_label("Opponents' points").fill("65")
    phone.get_by_label("Kitty points").fill("20")
    phone.get_by_text("Opponents", exact=True).click()
    phone.get_by_text("Pair", exact=True).click()

    result = phone.locator("#settlement")
    result.get_by_text(
        "= 145 points. In the 120–155 band, the opponents take the deal and climb 1 level."
    ).wait_for()
    assert phone.url.endswith("/settle/"), "the preview must not reload the page"
    screenshot(phone, "settle-hand")
