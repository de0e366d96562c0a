from __future__ import annotations

import pytest
from django.core.management import call_command

from companion.models import Game, Group

pytestmark = pytest.mark.django_db


def test_it_makes_one_demo_group_with_a_finished_game_and_one_in_progress():
    call_command("demo")
    call_command("demo")

    group = Group.objects.get()
    states = [game.scored().state for game in Game.objects.filter(group=group)]
    assert group.members.filter(username="demo").exists()
    assert sorted(state.game_over for state in states) == [False, True]
