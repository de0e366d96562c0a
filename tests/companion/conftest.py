"""The cast: Mei keeps score for "Thursday Tractor" (its admin), where Mei, Jun, Lin and Hao
play; Zoe has an account but is in no group of theirs."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

# The games the exchange tests export, with the documents they are made of.
from exchange_documents import eight, friends_game, pairs_game  # noqa: F401

from companion.models import Game, Group, Hand, Player
from scoring import get_rules

PASSWORD = "a long table password"
# The four at the table, in play order: Mei and Lin are partners against Jun and Hao.
CAST = ("Mei", "Jun", "Lin", "Hao")


@pytest.fixture
def user(db) -> User:
    """Mei's account (username "mei"), a member of ``group``."""
    return User.objects.create_user("mei", email="mei@example.com", password=PASSWORD)


@pytest.fixture
def group(user) -> Group:
    """Thursday Tractor, with ``user`` as its one member (its admin) and an empty roster."""
    group = Group.objects.create(name="Thursday Tractor")
    group.add_admin(user)
    return group


@pytest.fixture
def players(group) -> list[Player]:
    """The roster of ``group`` in play order: Mei, Jun, Lin, Hao (seats 0 to 3)."""
    return [Player.objects.create(group=group, name=name) for name in CAST]


@pytest.fixture
def cast(group, players) -> dict[str, Player]:
    """The four of ``players`` by name, and Ed, Wei, Yan and Bo, who joined the roster later."""
    named = {player.name: player for player in players}
    for name in ("Ed", "Wei", "Yan", "Bo"):
        named[name] = Player.objects.create(group=group, name=name)
    return named


@pytest.fixture
def start_game(group, players, user):
    """Starts a game of ``group`` (default: the four of ``players`` under standard rules);
    keywords as :meth:`Game.start` takes them."""

    def start(rules: str = "standard", seated: list[Player] | None = None, **table) -> Game:
        return Game.start(group, seated or players, get_rules(rules), by=user, **table)

    return start


@pytest.fixture
def member(client, user):
    """The test client, logged in as ``user``."""
    client.force_login(user)
    return client


@pytest.fixture
def outsider(db) -> User:
    """Zoe: logged-in-able, a member of no group here."""
    return User.objects.create_user("zoe", email="zoe@example.com", password=PASSWORD)


@pytest.fixture
def endless_hands():
    """Adds ``count`` hands to a standard game in which the opponents always take the deal at
    80, so that the game never ends: a long game for query-count tests."""

    def add(game, count: int = 300) -> list[Hand]:
        return Hand.objects.bulk_create(
            Hand(
                game=game,
                number=number,
                declarer=0 if number % 2 else 1,
                bid="none",
                trump="NT",
                kitty_points=0,
                opponent_points=80,
                last_trick_winner="declarers",
                last_trick_format="single",
                last_trick_cards=1,
            )
            for number in range(1, count + 1)
        )

    return add
