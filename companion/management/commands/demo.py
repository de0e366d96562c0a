"""`python manage.py demo`: a demo group to look around in, made once (`make run` calls it)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from companion.models import Game, Group, Membership, Player
from scoring import get_rules

DEMO_USER = "demo"
DEMO_PASSWORD = "tractor-demo"
SEATS = ("north", "east", "south", "west")

# (declarer, opponents' points, kitty points, last trick winner, format, cards)
FINISHED = [
    ("N", 30, 0, "declarers", "single", 1),
    ("S", 85, 10, "opponents", "single", 1),
    ("E", 0, 5, "declarers", "pair", 2),
    ("W", 90, 15, "declarers", "single", 1),
    ("N", 55, 10, "declarers", "tractor", 4),
]
IN_PROGRESS = [
    ("S", 50, 10, "declarers", "single", 1),
    ("N", 95, 20, "opponents", "pair", 2),
    ("W", 30, 0, "declarers", "single", 1),
]


class Command(BaseCommand):
    help = "Create the demo group (one finished game, one in progress) unless it exists."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        if Group.objects.filter(name="Demo table").exists():
            return
        user = User.objects.filter(username=DEMO_USER).first() or User.objects.create_user(
            DEMO_USER, password=DEMO_PASSWORD
        )
        group = Group.objects.create(name="Demo table")
        Membership.objects.create(group=group, user=user)
        players = [
            Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
        ]
        self.play(group, players, user, "standard", FINISHED, levels=("Q", "J"))
        self.play(group, players, user, "kawu", IN_PROGRESS, levels=("2", "2"))
        self.stdout.write(
            f"Demo group ready: log in as {DEMO_USER!r} with password {DEMO_PASSWORD!r}."
        )

    def play(self, group, players, user, rules, hands, levels) -> Game:
        game = Game.objects.create(
            group=group,
            rules_json=get_rules(rules).to_json(),
            north_south_level=levels[0],
            east_west_level=levels[1],
            created_by=user,
            **dict(zip(SEATS, players, strict=True)),
        )
        for declarer, points, kitty, winner, shape, cards in hands:
            game.record_hand(
                {
                    "declarer": declarer,
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
