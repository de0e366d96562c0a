"""A failed throw's penalty (open-ladder: 10 points per card taken back) moves the opponents'
total: up for a declarer's failed throw, down for an opponent's, never below 0."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import Format, LastTrick, Levels, Rank, SettleError, Side, TakenBack, get_rules
from scoring import settle as settle_hand

REPO_ROOT = Path(__file__).resolve().parents[2]
DECLARERS_TAKE_THE_LAST_SINGLE = LastTrick(Side.DECLARERS, Format.SINGLE, 1)


def settle(points: int, taken_back: TakenBack, rules: str = "open-ladder"):
    return settle_hand(
        get_rules(rules),
        Levels(Rank.FIVE, Rank.THREE),
        opponent_points=points,
        kitty_points=0,
        last_trick=DECLARERS_TAKE_THE_LAST_SINGLE,
        taken_back=taken_back,
    )


@pytest.mark.parametrize(
    ("points", "taken_back", "penalty", "total", "explanation"),
    [
        (
            60,
            TakenBack(declarers=3),
            30,
            90,
            "Opponents 60 + 30 for failed throws = 90 points. "
            "In the 80–115 band, the opponents take the deal.",
        ),
        (
            90,
            TakenBack(opponents=2),
            -20,
            70,
            "Opponents 90 − 20 for failed throws = 70 points. "
            "In the 40–75 band, the declarers climb 1 level.",
        ),
        (
            10,
            TakenBack(opponents=4),
            -40,
            0,
            "Opponents 10 − 40 for failed throws = 0 points. "
            "In the 0 band, the declarers climb 3 levels.",
        ),
        (
            60,
            TakenBack(declarers=2, opponents=2),
            0,
            60,
            "Opponents 60 points. In the 40–75 band, the declarers climb 1 level.",
        ),
    ],
)
def test_a_failed_throw_moves_points_between_the_sides(
    points, taken_back, penalty, total, explanation
):
    result = settle(points, taken_back)

    assert (result.throw_penalty, result.opponent_total) == (penalty, total)
    assert result.explanation == explanation


@pytest.mark.parametrize("rules", ["standard", "kawu", "simplified"])
def test_no_throw_is_taken_back_under_rules_without_throws(rules):
    with pytest.raises(SettleError, match=f"the {rules} rules allow no throws"):
        settle(60, TakenBack(declarers=1), rules)


def test_a_negative_count_of_cards_is_refused():
    with pytest.raises(SettleError, match=r"taken_back\.opponents must be a number of cards"):
        settle(60, TakenBack(opponents=-1))


def run(request: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "settle"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        check=False,
    )


REQUEST = {
    "rules": "open-ladder",
    "levels": {"declarers": "5", "opponents": "3"},
    "opponent_points": 65,
    "kitty_points": 20,
    "last_trick": {"winner": "opponents", "format": "pair", "cards": 2},
}


def test_the_cli_takes_failed_throws_as_an_optional_key():
    answer = json.loads(run({**REQUEST, "taken_back": {"declarers": 3}}).stdout)

    assert (answer["throw_penalty"], answer["opponent_total"]) == (30, 175)
    assert answer["levels"] == {"declarers": "5", "opponents": "5"}


def test_the_cli_without_failed_throws_answers_as_before():
    answer = json.loads(run(REQUEST).stdout)

    assert (answer["throw_penalty"], answer["opponent_total"]) == (0, 145)


def test_the_cli_names_an_unknown_side_in_taken_back():
    result = run({**REQUEST, "taken_back": {"dealers": 1}})

    assert result.returncode == 2
    assert result.stderr == "taken_back has only declarers and opponents, got 'dealers'\n"


@pytest.mark.parametrize(
    ("decks", "points", "explanation"),
    [
        (2, 100, "Opponents 100 + 30 for failed throws = 130 points. "
            "In the 120–155 band, the opponents take the deal and climb 1 level."),
        (3, 100, "Opponents 100 + 30 for failed throws = 130 points. "
            "In the 120–175 band, the opponents take the deal."),
        (4, 130, "Opponents 130 + 30 for failed throws = 160 points. "
            "In the 160–235 band, the opponents take the deal."),
    ],
)  # fmt: skip
def test_the_penalty_moves_the_total_through_the_table_the_decks_scale(decks, points, explanation):
    result = settle_hand(
        get_rules("open-ladder"),
        Levels(Rank.FIVE, Rank.THREE),
        opponent_points=points,
        kitty_points=0,
        last_trick=DECLARERS_TAKE_THE_LAST_SINGLE,
        taken_back=TakenBack(declarers=3),
        decks=decks,
    )

    assert result.explanation == explanation
