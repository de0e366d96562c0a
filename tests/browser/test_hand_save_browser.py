"""A hand on its way from the phone to the database, on a 360 × 740 phone: never lost, stored
once, and never checked against a game it was not made for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import expect

from companion.models import Game, Group, Hand, Membership, Player
from scoring import get_rules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion"))
from hands import HELD_FIELDS as HELD  # the hand as Game.record_hand takes it

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def mei() -> User:
    return User.objects.create_user("mei", password="a long table password")


@pytest.fixture
def game(mei) -> Game:
    """Mei and Lin against Jun and Hao under standard rules, everyone at 2."""
    group = Group.objects.create(name="Thursday Tractor")
    Membership.objects.create(group=group, user=mei)
    players = [
        Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
    ]
    return Game.start(group, players, get_rules("standard"), by=mei)


def log_in(phone, live_server, user: User) -> None:
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def new_hand_url(live_server, game: Game) -> str:
    return f"{live_server.url}/groups/{game.group_id}/games/{game.pk}/hands/new/"


def kept(phone) -> int:
    """How many hands wait on the phone."""
    return phone.evaluate(
        "Object.keys(localStorage).filter((key) => key.startsWith('tractor-hand')).length"
    )


def test_a_resend_racing_a_correction_is_told_someone_saved_first(
    phone, live_server, game, mei, before_hands_are_read
):
    # Mei held hand 1, so she may start hand 2; it is saved offline and kept.
    game.record_hand(HELD, version=game.version, request_key="hand-1", by=mei)
    log_in(phone, live_server, mei)
    phone.goto(new_hand_url(live_server, game))
    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_trump label", has_text="♥").click()
    phone.get_by_role("button", name="40", exact=True).click()
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save hand").click()
    phone.get_by_text("Saved on this phone; will send when the connection returns.").wait_for()

    # Another phone corrects hand 1 to 80 (the deal passes to Jun and Hao) just as the kept
    # hand reaches the server: after it read the game's version, before its hands.
    def correct() -> None:
        late = Game.objects.get(pk=game.pk)
        late.edit_hand(1, {**HELD, "opponent_points": 80}, version=late.version, by=mei)

    before_hands_are_read(correct)
    phone.context.set_offline(False)

    phone.locator("#hand-errors").get_by_text(
        "Someone else saved a change first, so this hand was not saved."
    ).wait_for()
    assert "Select a valid choice" not in phone.locator("#hand-page").inner_text()
    # Back on the form as the game now is: Jun or Hao starts hand 2.
    assert phone.locator("#id_declarer label").all_inner_texts() == ["Jun", "Hao"]
    assert Hand.objects.get(number=1).opponent_points == 80
    assert Hand.objects.count() == 1
    assert kept(phone) == 0  # refused for what it says: in its form, not sent again


def fill_hand(phone) -> None:
    """Mei declares hand 1 in hearts; the opponents took 40."""
    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_trump label", has_text="♥").click()
    phone.get_by_role("button", name="40", exact=True).click()
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()


def test_a_save_refused_for_a_changed_login_is_kept_and_stored_once_from_any_page(
    phone, live_server, game, mei, screenshot
):
    log_in(phone, live_server, mei)
    phone.goto(new_hand_url(live_server, game))
    fill_hand(phone)
    # Logged out and in again in another tab: a new session and a new token, which the
    # page's form does not have.
    phone.context.clear_cookies()
    log_in(phone, live_server, mei)
    phone.get_by_role("button", name="Save hand").click()

    phone.get_by_text("Not saved: the login changed since the page was opened").wait_for()
    screenshot(phone, "kept-after-403")
    assert not Hand.objects.exists()
    assert kept(phone) == 1
    expect(phone.locator("#id_declarer input[value='0']")).to_be_checked()

    # Any page of the same account sends it.
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_text("The hand kept on this phone is saved.").wait_for()
    assert Hand.objects.get().opponent_points == 40
    assert kept(phone) == 0

    # An answer lost on the way leaves the copy: sent again, it is answered as the hand it
    # stored, and stored once.
    phone.goto(new_hand_url(live_server, game))
    phone.evaluate(
        "([url, body]) => localStorage.setItem('tractor-hand:' + url, JSON.stringify("
        "{url, body, number: '1', account: document.body.dataset.account, state: 'sending'}))",
        [
            f"/groups/{game.group_id}/games/{game.pk}/hands/new/",
            RESENT.format(version=0, key=Hand.objects.get().request_key),
        ],
    )
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_text("The hand kept on this phone is saved.").wait_for()
    assert Hand.objects.count() == 1
    assert kept(phone) == 0


# Hand 1 as the form posts it, with the version and request key it was first sent with.
RESENT = (
    "version={version}&request_key={key}&declarer=0&trump=H&opponent_points=40"
    "&last_trick_winner=declarers&last_trick_format=single"
)


def test_a_save_that_meets_the_login_page_waits_for_the_same_account(phone, live_server, game, mei):
    jun = User.objects.create_user("jun", password="a long table password")
    Membership.objects.create(group=game.group, user=jun)
    log_in(phone, live_server, mei)
    phone.goto(new_hand_url(live_server, game))
    fill_hand(phone)
    phone.context.clear_cookies(name="sessionid")  # the session ended: logged out
    phone.get_by_role("button", name="Save hand").click()

    phone.get_by_text("Not saved: this phone is no longer logged in.").wait_for()
    assert not Hand.objects.exists()

    # Jun logs in on this phone: asked first, nothing is sent for him (kept hands are sent when
    # the page's content is loaded, before goto returns).
    log_in(phone, live_server, jun)
    sent = []
    phone.on("request", lambda request: sent.append(request.method))
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_text("Entered on this phone by mei, and not saved yet.").wait_for()
    assert "POST" not in sent
    assert not Hand.objects.exists()
    phone.get_by_role("button", name="Send it as jun").click()
    phone.get_by_text("The hand kept on this phone is saved.").wait_for()
    assert Hand.objects.get().entered_by == jun
    assert kept(phone) == 0


def test_a_hand_whose_game_is_gone_is_shown_with_why_until_dropped(phone, live_server, game, mei):
    log_in(phone, live_server, mei)
    phone.goto(new_hand_url(live_server, game))
    fill_hand(phone)
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save hand").click()
    phone.get_by_text("Saved on this phone; will send when the connection returns.").wait_for()
    Game.objects.get().delete()

    phone.context.set_offline(False)
    phone.get_by_text("Cannot be saved: The game was deleted.").wait_for()
    assert kept(phone) == 1
    phone.goto(live_server.url + "/")
    phone.get_by_text("Cannot be saved: The game was deleted.").wait_for()
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Drop it").click()
    expect(phone.locator("#kept-hands")).to_be_hidden()
    assert kept(phone) == 0


def test_a_server_error_keeps_the_hand_and_says_so(phone, live_server, game, mei):
    log_in(phone, live_server, mei)
    url = new_hand_url(live_server, game)
    phone.goto(url)
    fill_hand(phone)
    failing = lambda route: (  # noqa: E731
        route.fulfill(status=502, body="Bad gateway")
        if route.request.method == "POST" and "preview" not in (route.request.post_data or "")
        else route.continue_()
    )
    phone.route(url, failing)
    phone.get_by_role("button", name="Save hand").click()

    phone.get_by_text("Not saved: the server had a problem.").wait_for()
    assert not Hand.objects.exists()
    phone.unroute(url)
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_text("The hand kept on this phone is saved.").wait_for()
    assert Hand.objects.count() == 1


def test_a_hand_sent_after_leaving_its_form_does_not_come_back(phone, live_server, game, mei):
    log_in(phone, live_server, mei)
    url = new_hand_url(live_server, game)
    phone.goto(url)
    fill_hand(phone)
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Save hand").click()
    phone.get_by_text("Saved on this phone; will send when the connection returns.").wait_for()

    # Back online the hand is sent, but its answer is lost on the way (a network that drops
    # it, a phone leaving the page): the server stored it, the page never heard.
    phone.evaluate(
        """() => {
            const send = window.fetch;
            window.fetch = async (...args) => {
                window.fetch = send;
                await send(...args);
                window.answerLost = true;
                throw new TypeError("the answer was lost");
            };
        }"""
    )
    phone.context.set_offline(False)
    phone.wait_for_function("() => window.answerLost")
    phone.get_by_role("link", name="Back to the game").click()
    phone.get_by_text("Opponents 40 points").first.wait_for()
    assert Hand.objects.count() == 1

    # The next hand's form is the next hand's: nothing sent again, no return to the scoreboard.
    # The copy the phone kept goes once the server answers that it has the hand (this page or
    # the scoreboard sent it); where that answer took the page is then known.
    phone.get_by_role("link", name="Record a hand").click()
    phone.get_by_role("heading", name="Hand 2").wait_for()
    phone.wait_for_function(
        "() => !Object.keys(localStorage).some((key) => key.startsWith('tractor-hand'))"
    )
    phone.wait_for_load_state()
    assert phone.url == url
    expect(phone.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert kept(phone) == 0
    assert Hand.objects.count() == 1
