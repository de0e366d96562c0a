"""From a new account to a game won at A, all with thumbs on a 360 px phone."""

from __future__ import annotations

import pytest

from companion.models import Hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long table password"


def test_a_new_account_plays_a_game_until_a_team_wins_at_ace(
    phone, live_server, screenshot, record_hand
):
    phone.goto(live_server.url)
    phone.get_by_role("link", name="Sign up").first.click()
    phone.get_by_label("Username").fill("mei")
    phone.locator("#id_password1").fill(PASSWORD)
    phone.locator("#id_password2").fill(PASSWORD)
    phone.get_by_role("button", name="Create my account").click()
    phone.get_by_role("link", name="New group").click()
    phone.get_by_label("Group name").fill("Thursday Tractor")
    phone.get_by_role("button", name="Create the group").click()
    phone.get_by_role("heading", name="Thursday Tractor").wait_for()
    phone.wait_for_load_state()
    for name in ("Mei", "Jun", "Lin", "Hao"):
        phone.get_by_label("Player's name").fill(name)
        phone.get_by_label("Player's name").press("Enter")
        phone.locator("#players li", has_text=name).wait_for()
    phone.get_by_role("link", name="New game").click()
    for seat, name in enumerate(("Mei", "Jun", "Lin", "Hao"), start=1):
        phone.locator(f"#id_seat_{seat}").select_option(label=name)
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/games/*/")

    # Mei and Lin hold the opponents to nothing four times: 2 → 5 → 8 → J → A (stopping at A).
    for hand, declarer in enumerate(("Mei", "Lin", "Mei", "Lin")):
        record_hand(phone, declarer, opponent_points=0)
        phone.locator(f"#hand-{hand + 1}").wait_for()
    assert phone.locator('[data-level="0-2"]').inner_text() == "A"
    assert phone.get_by_text(
        "Mei or Lin may start hand 5 at level A (Mei by turn): the declarers held."
    ).is_visible()

    # The last hand: the opponents' points counted from their cards (two fives, three kings).
    phone.get_by_role("link", name="Record a hand").click()
    assert phone.locator("input[name=declarer][value='0']").is_checked()
    phone.locator("label", has_text="♠").click()
    phone.get_by_role("button", name="Count cards").click()
    for label, taps in (("One more five", 2), ("One more king", 3)):
        for _ in range(taps):
            phone.get_by_role("button", name=label).click()
    assert phone.get_by_label("Opponents' points").input_value() == "40"
    phone.locator("#preview").get_by_text("Mei & Lin win the game.").wait_for()
    screenshot(phone, "winning-hand")
    phone.get_by_role("button", name="Save hand").click()

    phone.get_by_text("Mei & Lin win the game after 5 hands.").wait_for()
    assert phone.get_by_role("link", name="Record a hand").count() == 0
    assert Hand.objects.count() == 5
    screenshot(phone, "won")
