"""A member looks back over a year of games on a phone: the ladder history, a player, a game."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game, Group, Hand, Membership, Player

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion"))
from history_games import make_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def group():
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [
        Player.objects.create(group=group, name=name)
        for name in ("Mei", "Jun", "Lin", "Hao", "Ed", "Fay")
    ]
    make_games(group, players, 40, seed=5)
    return group


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def test_the_history_a_player_and_a_game_read_on_a_phone(phone, live_server, group, screenshot):
    log_in(phone, live_server, "mei")
    phone.goto(f"{live_server.url}/groups/{group.pk}/")
    phone.get_by_role("link", name="Ladder history").click()
    phone.get_by_role("heading", name="Ratings").wait_for()
    screenshot(phone, "history")
    assert phone.locator("svg[role=img]").count() >= 1
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide"

    mei = Player.objects.get(name="Mei")
    phone.get_by_label("Player").select_option(str(mei.pk))
    phone.wait_for_url(f"**/history/?player={mei.pk}*")
    phone.locator("#history-results").get_by_text("games").first.wait_for()
    screenshot(phone, "history-mei")

    phone.locator("#ratings").get_by_role("link", name="Mei").click()
    phone.get_by_role("heading", name="Mei").wait_for()
    screenshot(phone, "player")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360

    long_game = max(
        Game.objects.filter(group=group), key=lambda game: Hand.objects.filter(game=game).count()
    )
    phone.goto(live_server.url + long_game.get_absolute_url())
    phone.locator("figure.chart-race svg[role=img]").wait_for()
    screenshot(phone, "game")
    phone.get_by_role("link", name="Replay under other rules").click()
    phone.get_by_label("Replay under").select_option(
        random.Random(1).choice([n for n in ("kawu", "open-ladder") if n != long_game.rules.name])
    )
    phone.get_by_role("button", name="Replay the same hands").click()
    phone.locator("#replay").wait_for()
    screenshot(phone, "replay")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
