"""What a scorekeeper's thumbs do on the hand form, shared by the browser tests."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

KITTY = ("5H", "KD", "2C", "3C", "4C", "6C", "7C", "8C")  # 15 points
# What htmx marks while it works: a request on its way, a swap, a swap settling (the scripts run
# on htmx:load, focus kept by id, come back by the end of the settling).
HTMX_BUSY = ".htmx-request, .htmx-swapping, .htmx-settling"


def settled(page) -> None:
    """Wait until htmx has nothing on its way and nothing left to settle. Read focus, or
    anything ``expect`` cannot wait for, after an htmx swap only once this returns."""
    page.wait_for_function(f"() => !document.querySelector({HTMX_BUSY!r})")


def tap_hand(phone, declarer: str, opponent_points: int, kitty=KITTY) -> None:
    """From a game's scoreboard: record a hand that ``declarer`` (as the button reads: "Mei")
    declared in hearts, tapping the kitty and stepping the opponents' points."""
    phone.get_by_role("link", name="Record a hand").click()
    phone.locator("input[name=declarer] + label", has_text=declarer).click()
    phone.locator("label", has_text="♥").click()
    phone.locator("#kitty-more > summary").click()
    for card in kitty:
        phone.locator(f'.kitty-card[data-card="{card}"]').click()
    assert phone.locator("#kitty-count").inner_text().startswith("8/8")
    phone.get_by_role("button", name="0", exact=True).click()
    for _ in range(opponent_points // 20):
        phone.get_by_role("button", name="+20").click()
    for _ in range(opponent_points % 20 // 5):
        phone.get_by_role("button", name="+5").click()
    phone.locator("#preview").get_by_text(f"Opponents {opponent_points}").wait_for()
    phone.get_by_role("button", name="Save hand").click()
    phone.wait_for_url("**/games/*/")


@pytest.fixture
def record_hand():
    return tap_hand


@pytest.fixture(scope="session")
def cjk_font() -> None:
    """For the Chinese pages: without a CJK font Chromium draws boxes, and a screenshot shows
    nothing to check. A local run without one skips, saying so; CI fails."""
    fc_list = shutil.which("fc-list")
    command = [fc_list, ":lang=zh", "family"]
    if not fc_list or not subprocess.run(command, capture_output=True, text=True).stdout.strip():
        message = (
            "no CJK font (`fc-list :lang=zh` finds none): `apt-get install fonts-noto-cjk` "
            "to run the Chinese browser tests"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
