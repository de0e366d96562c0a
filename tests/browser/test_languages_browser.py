"""The language switch at the foot of every page, on a phone: picked with a thumb, the same page
comes back in that language; without JavaScript its button does it."""

from __future__ import annotations

import pytest

from tests.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_switches_the_page_it_is_on(phone, live_server, screenshot):
    phone.goto(f"{live_server.url}/dispute/")
    screenshot(phone, "before")
    switch = phone.get_by_label("Language")
    assert switch.bounding_box()["height"] >= 44, "too small a target for a thumb"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not phone.get_by_role("button", name="Change language").is_visible()

    switch.select_option("fr")

    phone.locator("html[lang=fr]").wait_for(state="attached")
    assert phone.url == f"{live_server.url}/dispute/"
    assert phone.locator("#language-switch option:checked").inner_text() == "français"
    screenshot(phone, "after")


def test_it_works_without_javascript(browser, live_server, screenshot):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/settle/")
        page.get_by_label("Language").select_option("es")
        button = page.get_by_role("button", name="Change language")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        screenshot(page, "no-script")

        button.click()

        page.locator("html[lang=es]").wait_for(state="attached")
        assert page.url == f"{live_server.url}/settle/"
    finally:
        context.close()
