"""Every number a rules object or a settle request reads has a bound the game justifies: at the
bound it is taken, past it the error names the field, and a number thousands of digits long is
refused in one line, never printed in full or multiplied into one Python cannot print."""

from __future__ import annotations

import io
import json

import pytest

from scoring import RulesError, SettleError, rules_from_json
from scoring.cards import Rank
from scoring.cli import main
from scoring.rules import MAX_BAND_POINTS, MAX_LEVELS, MAX_THROW_PENALTY, Format, Side
from scoring.settle import LastTrick, Levels, TakenBack, settle

HUGE = 10**4000  # JSON reads it (under 4,300 digits); str() of its square would fail
BIG = "a number of more than 100 digits"
LEVELS = "levels must be a whole number from 0 to 12, got"
POINTS = "must be a multiple of 5 from 0 to 1000, got"
EVERY = "every must be a multiple of 5 from 5 to 1000, got"
PENALTY = "throw_penalty must be a multiple of 5 from 0 to 50, got"
CARDS = "must be a number of cards from 0 to 25, got"


def table(**changes: object) -> dict:
    """A table with every number at its bound; ``changes`` as ``band2_levels=…`` or
    ``throw_penalty=…``."""
    bands = [
        {"from": 0, "to": 0, "winner": "declarers", "levels": MAX_LEVELS},
        {"from": 5, "to": MAX_BAND_POINTS - 5, "winner": "declarers", "levels": 1},
        {"from": MAX_BAND_POINTS, "to": None, "winner": "opponents", "levels": MAX_LEVELS,
         "every": 5},
    ]  # fmt: skip
    data: dict = {
        "name": "bounds",
        "bands": bands,
        "kitty": "per-card",
        "throws": True,
        "throw_penalty": MAX_THROW_PENALTY,
    }
    for key, value in changes.items():
        if key.startswith("band"):
            number, field = key[4], key[6:]
            bands[int(number) - 1][field] = value
        else:
            data[key] = value
    return data


def test_a_table_at_every_bound_is_a_table() -> None:
    rules = rules_from_json(table())

    assert [band.label for band in rules.bands] == ["0", "5–995", "1000+"]
    assert [band.label for band in rules.for_decks(4).bands] == ["0", "5–1995", "2000+"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"band1_levels": 13}, f"band 1 (0): {LEVELS} 13"),
        ({"band3_levels": 13}, f"band 3 (1000+): {LEVELS} 13"),
        ({"band1_levels": HUGE}, f"band 1 (0): {LEVELS} {BIG}"),
        ({"band3_every": 1005}, f"band 3 (1000+): {EVERY} 1005"),
        ({"band3_every": 0}, f"band 3 (1000+): {EVERY} 0"),
        ({"band3_from": 1005, "band2_to": 1000}, f"band 3 (1005+): from {POINTS} 1005"),
        ({"band2_to": HUGE}, f"band 2: to {POINTS} {BIG}"),
        ({"throw_penalty": 55}, f"{PENALTY} 55"),
        ({"throw_penalty": HUGE}, f"{PENALTY} {BIG}"),
    ],
    ids=["levels", "open levels", "huge levels", "every", "no every", "from", "huge to",
         "penalty", "huge penalty"],
)  # fmt: skip
def test_a_number_past_its_bound_is_refused_naming_it(changes, message) -> None:
    with pytest.raises(RulesError) as raised:
        rules_from_json(table(**changes))

    assert str(raised.value) == message


def settled(**changes: object):
    arguments: dict = {
        "rules": rules_from_json(table()),
        "levels": Levels(Rank.TWO, Rank.TWO),
        "opponent_points": 120,
        "kitty_points": 80,
        "last_trick": LastTrick(Side.OPPONENTS, Format.THROW, 25),
        "taken_back": TakenBack(declarers=25),
    } | changes
    return settle(**arguments)


def test_the_largest_total_the_bounds_allow_settles() -> None:
    result = settled()

    assert result.opponent_total == 120 + 80 * 2 * 25 + 25 * MAX_THROW_PENALTY
    assert result.award == MAX_LEVELS + (result.opponent_total - MAX_BAND_POINTS) // 5
    assert result.stopped_at_ace


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"taken_back": TakenBack(declarers=26)}, f"taken_back.declarers {CARDS} 26"),
        ({"taken_back": TakenBack(opponents=HUGE)}, f"taken_back.opponents {CARDS} {BIG}"),
        (
            {"last_trick": LastTrick(Side.OPPONENTS, Format.TRACTOR, 34), "decks": 4},
            "a tractor last trick has an even number of cards from 4 to 32 per player, got 34",
        ),
        (
            {"last_trick": LastTrick(Side.OPPONENTS, Format.THROW, HUGE)},
            f"a last trick of {BIG} cards per player is more than a hand of 25 holds",
        ),
    ],
    ids=["taken back", "huge taken back", "long tractor", "huge last trick"],
)  # fmt: skip
def test_a_result_past_its_bound_is_refused_naming_it(changes, message) -> None:
    with pytest.raises(SettleError) as raised:
        settled(**changes)

    assert str(raised.value) == message


@pytest.mark.parametrize("command", ["settle", "judge", "game"])
@pytest.mark.parametrize("change", [{"band1_levels": HUGE}, {"throw_penalty": HUGE}])
def test_the_cli_refuses_poisoned_rules_in_one_line(command, change, capsys) -> None:
    request = {
        "settle": {
            "levels": {"declarers": "2", "opponents": "2"},
            "opponent_points": 120,
            "kitty_points": 80,
            "last_trick": {"winner": "opponents", "format": "throw", "cards": 25},
            "taken_back": {"declarers": 25},
        },
        "judge": {"level": "2", "trump": "H", "plays": [["P1", ["AS"]]]},
        "game": {"players": ["A", "B", "C", "D"], "first_declarer": "A", "hands": []},
    }[command]
    stdin = io.StringIO(json.dumps({**request, "rules": table(**change)}))

    assert main([command], stdin) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert "a number of more than 100 digits" in err
