"""A member looks back over a year of games on a phone: the ladder history, a player, a game and
its replay under other rules, in a group that plays at every shape of table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Game, Group, Hand, Membership, Player

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion"))
from history_games import VARIANTS, make_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def group():
    group = Group.objects.create(name="Thursday Tractor")
    user = User.objects.create_user("mei", password="a long table password")
    Membership.objects.create(group=group, user=user)
    players = [
        Player.objects.create(group=group, name=name)
        for name in ("Mei", "Jun", "Lin", "Hao", "Ed", "Fay", "Wei", "Yan")
    ]
    make_games(group, players, 40, seed=5, tables=VARIANTS)
    return group


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def fits(phone) -> None:
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide"


def longest(games) -> Game:
    return max(games, key=lambda game: Hand.objects.filter(game=game).count())


def test_the_history_a_player_and_a_game_read_on_a_phone(phone, live_server, group, screenshot):
    log_in(phone, live_server, "mei")
    phone.goto(f"{live_server.url}/groups/{group.pk}/")
    phone.get_by_role("link", name="Ladder history").click()
    phone.get_by_role("heading", name="Ratings").wait_for()
    screenshot(phone, "history")
    assert phone.locator("svg[role=img]").count() >= 1
    assert phone.locator("#history-games").get_by_text("Find a friend").count() >= 1
    fits(phone)

    mei = Player.objects.get(name="Mei")
    phone.get_by_label("Player").select_option(str(mei.pk))
    phone.wait_for_url(f"**/history/?player={mei.pk}*")
    phone.locator("#history-results").get_by_text("games").first.wait_for()
    screenshot(phone, "history-mei")

    phone.locator("#ratings").get_by_role("link", name="Mei").click()
    phone.get_by_role("heading", name="Mei").wait_for()
    phone.get_by_role("heading", name="Find a friend").wait_for()
    screenshot(phone, "player")
    fits(phone)

    friendly = longest(Game.objects.filter(group=group, teams="find-a-friend"))
    phone.goto(live_server.url + friendly.get_absolute_url())
    phone.locator("figure.chart-race svg[role=img]").wait_for()
    assert phone.locator("figure.chart-race path[stroke-linejoin]").count() == len(friendly.players)
    screenshot(phone, "game-find-a-friend")
    phone.get_by_role("link", name="Replay under other rules").click()
    phone.get_by_label("Replay under").select_option("simplified")
    other = 3 if friendly.decks != 3 else 2
    phone.get_by_label("Decks").select_option(str(other))
    phone.get_by_role("button", name="Replay the same hands").click()
    phone.locator("#replay").wait_for()
    assert f"with {other} decks" in phone.locator("#replay-heading").inner_text()
    screenshot(phone, "replay-find-a-friend")
    fits(phone)

    pairs = longest(Game.objects.filter(group=group, teams="pairs"))
    phone.goto(f"{live_server.url}/groups/{group.pk}/games/{pairs.pk}/replay/?rules=kawu")
    phone.locator("#replay").wait_for()
    screenshot(phone, "replay-pairs")
    fits(phone)
