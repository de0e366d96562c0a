"""`python manage.py demo`: a demo group to look around in, made once (`make run` calls it)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from companion.models import Game, Group, Player
from scoring import Rank, Teams, get_rules

DEMO_USER = "demo"
# The account has no password until `make run` (runlan) gives it a new one at every start, and
# prints it beside the address: anyone on the same Wi-Fi can reach the app.
LOG_IN = f"log in as {DEMO_USER!r} with the password `make run` prints beside the address"
ROSTER = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan")

# (declarer's seat, opponents' points, kitty points, last trick winner, format, cards, friends)
FINISHED = [
    (0, 30, 0, "declarers", "single", 1, []),
    (2, 85, 10, "opponents", "single", 1, []),
    (3, 0, 5, "declarers", "pair", 2, []),
    (1, 90, 15, "declarers", "single", 1, []),
    (0, 55, 10, "declarers", "tractor", 4, []),
]
IN_PROGRESS = [
    (2, 50, 10, "declarers", "single", 1, []),
    (0, 95, 20, "opponents", "pair", 2, []),
    (1, 30, 0, "declarers", "single", 1, []),
]
# Six players with three decks, each for themselves: Mei finds Wei, Wei finds Jun, Yan plays alone.
FIND_A_FRIEND = [
    (0, 60, 10, "declarers", "single", 1, [4]),
    (4, 150, 20, "opponents", "pair", 2, [1]),
    (5, 40, 0, "declarers", "single", 1, []),
]


class Command(BaseCommand):
    help = "Create the demo group (a finished game and two in progress) unless it exists."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        if Group.objects.filter(name="Demo table").exists():
            return
        user = User.objects.filter(username=DEMO_USER).first() or User.objects.create_user(
            DEMO_USER
        )
        group = Group.objects.create(name="Demo table")
        group.add_admin(user)
        players = [Player.objects.create(group=group, name=name) for name in ROSTER]
        four = players[:4]
        queen, jack = Rank.QUEEN, Rank.JACK
        self.play(
            Game.start(group, four, get_rules("standard"), levels=[queen, jack] * 2, by=user),
            FINISHED,
            user,
        )
        self.play(
            Game.start(group, four, get_rules("kawu"), first_declarer=2, by=user), IN_PROGRESS, user
        )
        friends = Game.start(
            group, players, get_rules("standard"), teams=Teams.FIND_A_FRIEND, by=user
        )
        self.play(friends, FIND_A_FRIEND, user)
        self.stdout.write(f"Demo group ready: {LOG_IN}.")

    def play(self, game: Game, hands: list, user: User) -> Game:
        for declarer, points, kitty, winner, shape, cards, friends in hands:
            game.record_hand(
                {
                    "declarer": declarer,
                    "friends": friends,
                    "trump": "H",
                    "kitty_points": kitty,
                    "opponent_points": points,
                    "last_trick_winner": winner,
                    "last_trick_format": shape,
                    "last_trick_cards": cards,
                },
                version=game.version,
                request_key="",
                by=user,
            )
        return game
