"""The Content Security Policy the pages are sent with does not get in their way: a member goes
through the main pages of the demo, with htmx swapping parts of them in, and the browser blocks
nothing (no `securitypolicyviolation` event fires)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from companion.models import Game, Group

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Installed before any page script runs, and not itself subject to the page's policy.
LISTEN = """
window.blocked = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.blocked.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
});
"""


@pytest.fixture
def demo():
    call_command("demo")
    account = User.objects.get(username="demo")
    account.set_password("a demo password")  # as `make run` gives it one at every start
    account.save()
    return Group.objects.get(name="Demo table")


def nothing_blocked(phone) -> None:
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("window.blocked") == [], phone.url


def test_the_main_pages_work_under_the_content_security_policy(phone, live_server, demo):
    phone.add_init_script(LISTEN)
    game = Game.objects.filter(group=demo).order_by("pk")[1]  # the demo's game in progress
    group_url = f"{live_server.url}/groups/{demo.pk}"

    phone.goto(f"{live_server.url}/")
    nothing_blocked(phone)
    phone.goto(f"{live_server.url}/accounts/login/")
    phone.get_by_label("Username").fill("demo")
    phone.get_by_label("Password").fill("a demo password")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(f"{live_server.url}/")
    nothing_blocked(phone)

    phone.goto(f"{group_url}/")
    link = phone.locator("#invite-url")
    link.focus()  # selected whole, to copy, without an onfocus attribute
    assert link.evaluate("(e) => e.selectionEnd - e.selectionStart") == len(link.input_value())
    nothing_blocked(phone)
    for page in (f"{group_url}/history/", f"{group_url}/games/{game.pk}/"):
        phone.goto(page)
        nothing_blocked(phone)

    # The hand form: its card grid (hand.js) and its live preview (htmx).
    phone.goto(f"{group_url}/games/{game.pk}/hands/new/")
    phone.locator("#kitty-more > summary").click()
    phone.locator('.kitty-card[data-card="5H"]').click()
    phone.get_by_role("button", name="+20").click()
    phone.locator("#preview").get_by_text("The kitty holds exactly 8 cards").wait_for()
    nothing_blocked(phone)

    # The dispute page: the card grid (dispute.js) and the verdict swapped in by htmx.
    phone.goto(f"{group_url}/games/{game.pk}/dispute/")
    phone.get_by_role("button", name="Judge the trick").click()
    phone.locator("#verdict").wait_for()
    nothing_blocked(phone)

    # A scoring table's preview bar, shaded band by band from the server's data-style.
    phone.goto(f"{group_url}/tables/new/")
    band = phone.locator(".table-preview-bar > div").first
    assert band.evaluate("(e) => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    nothing_blocked(phone)
