"""A version 1 file whose game kept its hands but no history (an export made before the
history, or trimmed by hand): it imports, its hands scored as the file says, with nothing
made up about changes nobody recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import exchange
from companion.models import GroupChange, HandChange

pytestmark = pytest.mark.django_db

FOUR_SEAT_V1 = Path(__file__).parent / "exports" / "four_seat_v1.json"


def without_history(*games: int) -> bytes:
    """The four-seat file with games ``games`` (from 0) kept without their changes."""
    document = json.loads(FOUR_SEAT_V1.read_bytes())
    for number in games:
        document["games"][number]["changes"] = []
    return json.dumps(document).encode()


def test_it_imports_a_game_with_hands_and_no_history(user):
    group = exchange.import_group(exchange.load(without_history(0)), members=[user]).group

    standard, kawu, _aces = group.games.order_by("pk")
    assert [hand.opponent_points for hand in standard.hands.order_by("number")] == [45, 60, 85]
    assert [str(hand.after.levels[0]) for hand in standard.scored().hands] == ["6", "6", "6"]
    assert not HandChange.objects.filter(game=standard).exists()
    assert HandChange.objects.filter(game=kawu).count() == 5
    # From then on the file is today's, and reads back to the same text but for the log's
    # newest entry, the copy's own import.
    text = exchange.dumps(group)
    copy = exchange.import_group(exchange.load(text), members=[user]).group
    imported = copy.changes.first()
    assert imported.action == GroupChange.Action.IMPORTED
    imported.delete()
    assert exchange.dumps(copy) == text


def test_it_imports_a_file_none_of_whose_games_kept_a_history(user):
    group = exchange.import_group(exchange.load(without_history(0, 1, 2)), members=[user]).group

    assert group.games.count() == 3
    assert [game.hands.count() for game in group.games.order_by("pk")] == [3, 3, 2]
    assert not HandChange.objects.exists()
