"""`manage.py demo_history`: a realistic ladder history whose every game `scoring` accepts."""

from __future__ import annotations

import io
import json
from collections import Counter
from datetime import date

import pytest
from django.core.management import CommandError, call_command

from companion import exchange
from companion.models import Group, Hand, HandChange
from scoring import PRESETS

pytestmark = pytest.mark.django_db

UNTIL = "--until=2025-06-28"  # a Saturday: the last evening is Thursday 26 June


def generate(name: str, games: int = 120, seed: int = 7) -> Group:
    call_command(
        "demo_history", f"--games={games}", f"--seed={seed}", UNTIL, f"--group={name}",
        stdout=io.StringIO(),
    )  # fmt: skip
    return Group.objects.get(name=name)


@pytest.fixture
def ladder() -> Group:
    return generate("Ladder club")


def test_it_makes_a_roster_and_the_games_asked_for(ladder):
    hands = Hand.objects.filter(game__group=ladder).count()

    assert 8 <= ladder.players.count() <= 12
    assert ladder.games.count() == 120
    assert 15 * 120 <= hands <= 28 * 120
    assert [user.username for user in ladder.members.all()] == ["demo"]
    assert ladder.scoring_tables.get().rules.name == "Thursday rules"


def test_every_game_replays_through_scoring(ladder):
    states = []
    for game in ladder.games.prefetch_related("hands"):
        scored = game.scored(list(game.hands.all()))  # raises if scoring refuses a hand
        states.append(scored.state)
        assert [hand.number for hand in game.hands.all()] == list(range(1, len(scored.hands) + 1))
        assert len({game.north_id, game.east_id, game.south_id, game.west_id}) == 4

    finished = sum(state.game_over for state in states)
    assert 0.85 * len(states) <= finished < len(states)


def test_its_points_are_what_a_table_scores(ladder):
    hands = list(Hand.objects.filter(game__group=ladder))
    between = [20 <= hand.opponent_points <= 120 for hand in hands]

    assert all(hand.opponent_points % 5 == 0 and hand.kitty_points % 5 == 0 for hand in hands)
    assert all(0 <= hand.kitty_points <= 40 for hand in hands)
    assert all(hand.opponent_points + hand.kitty_points <= 200 for hand in hands)
    assert sum(between) >= 0.75 * len(hands)
    assert any(hand.kitty_cards for hand in hands)


def test_it_mixes_the_rules(ladder):
    names = Counter(game.rules.name for game in ladder.games.all())

    assert set(names) == {*PRESETS, "Thursday rules"}
    assert names.most_common(1)[0][0] == "standard"


def test_its_games_are_played_on_thursday_evenings_over_two_years(ladder):
    days = sorted({game.created.date() for game in ladder.games.all()})

    assert {day.weekday() for day in days} == {3}
    assert days[-1] == date(2025, 6, 26)
    assert (days[-1] - days[0]).days == 103 * 7


def test_its_history_records_every_hand_and_a_few_corrections(ladder):
    changes = Counter(
        HandChange.objects.filter(game__group=ladder).values_list("action", flat=True)
    )
    hands = Hand.objects.filter(game__group=ladder).count()

    assert changes["recorded"] == hands + changes["deleted"]
    assert 0 < changes["edited"] < 0.1 * hands
    for game in ladder.games.all():
        assert game.version == game.changes.count()


def test_the_same_seed_makes_the_same_group():
    first = exchange.export_group(generate("First", games=30, seed=3))
    again = exchange.export_group(generate("Again", games=30, seed=3))
    other = exchange.export_group(generate("Other", games=30, seed=4))

    assert json.dumps(first["games"]) == json.dumps(again["games"])
    assert {**first, "group": None} == {**again, "group": None}
    assert first["games"] != other["games"]


def test_it_refuses_no_games():
    with pytest.raises(CommandError, match="--games must be at least 1"):
        call_command("demo_history", "--games=0")
