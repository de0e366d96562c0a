"""A friend watches a long game by its share link: the page follows the game by itself, brings
earlier hands in place, and says when it has lost the server."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from companion.models import Game, Group, Membership, Player
from scoring import get_rules

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def taken(declarer: int) -> dict:
    """A hand whose opponents reach 80 and take the deal without climbing."""
    return {
        "declarer": declarer,
        "bid": "none",
        "trump": "NT",
        "kitty_points": 0,
        "opponent_points": 80,
        "last_trick_winner": "declarers",
        "last_trick_format": "single",
        "last_trick_cards": 1,
    }


def save_next_hand(game: Game) -> None:
    """The scorekeeper's phone saves the next hand (as its hand form does)."""
    game.refresh_from_db()
    declarer = game.scored().state.next_declarer
    user = User.objects.get(username="mei")
    game.record_hand(taken(declarer), version=game.version, request_key="", by=user)


@pytest.fixture
def game():
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [Player.objects.create(group=group, name=n) for n in ("Mei", "Jun", "Lin", "Hao")]
    game = Game.start(group, players, get_rules("standard"), first_declarer=0, by=user)
    for _ in range(14):
        save_next_hand(game)
    return game


def test_a_watcher_follows_the_game_and_says_when_it_is_offline(
    second_phone, live_server, game, screenshot
):
    watcher = second_phone
    watcher.goto(f"{live_server.url}/watch/{game.share_token}/")
    watcher.get_by_text("The live scoreboard of Thursday Tractor's game.").wait_for()
    assert watcher.locator(".hand-row").count() == 12
    assert watcher.locator(".hand-row").first.get_attribute("id") == "hand-14"
    screenshot(watcher, "watching")

    save_next_hand(game)
    watcher.locator("#hand-15").wait_for()
    assert watcher.locator(".hand-row").first.get_attribute("id") == "hand-15"
    assert "may start hand 16" in watcher.locator(".next-hand").inner_text()

    # The earlier hands come into the list in place, without leaving the page.
    watcher.get_by_role("link", name="Show hands 1 to 2").click()
    watcher.locator("#hand-1").wait_for()
    assert watcher.url.endswith(f"/watch/{game.share_token}/")
    numbers = [row.get_attribute("id") for row in watcher.locator(".hand-row").all()]
    assert numbers == [f"hand-{number}" for number in range(15, 0, -1)]

    # The network goes: the page says since when it shows the game, and catches up once back.
    watcher.context.set_offline(True)
    offline = watcher.locator("#scoreboard-offline")
    offline.wait_for(state="visible")
    assert re.fullmatch(
        r"Offline — last updated at \d\d?:\d\d( [AP]M)?\. The scoreboard catches up by itself "
        r"when the "
        r"connection is back\.",
        offline.inner_text().strip(),
    )
    screenshot(watcher, "offline")
    save_next_hand(game)
    watcher.context.set_offline(False)
    watcher.locator("#hand-16").wait_for()
    offline.wait_for(state="hidden")
    assert watcher.locator("#hand-1").count() == 1  # the earlier hands it brought in stay
    screenshot(watcher, "back-online")
