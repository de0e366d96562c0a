from __future__ import annotations

import pytest
from django.core.management import call_command

from companion.models import Game, Group

pytestmark = pytest.mark.django_db


def test_it_makes_one_demo_group_with_a_finished_game_and_two_in_progress():
    call_command("demo")
    call_command("demo")

    group = Group.objects.get()
    games = Game.objects.filter(group=group).order_by("pk")
    states = [game.scored().state for game in games]
    assert group.members.filter(username="demo").exists()
    assert [state.game_over for state in states] == [True, False, False]
    assert [(game.teams, len(game.seated)) for game in games] == [
        ("partners", 4),
        ("partners", 4),
        ("find-a-friend", 6),
    ]
