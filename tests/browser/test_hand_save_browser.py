"""A hand on its way from the phone to the database, on a 360 × 740 phone: never lost, stored
once, and never checked against a game it was not made for."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game, Group, Hand, Membership, Player
from scoring import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HELD = {
    "declarer": 0,
    "bid": "one",
    "trump": "H",
    "kitty_cards": "",
    "kitty_points": 0,
    "opponent_points": 45,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
}


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
    phone.locator("#hand-waiting").wait_for()

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
