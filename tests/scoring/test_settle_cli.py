"""``python -m scoring settle [FILE]``: the JSON contract of docs/engine-json.md, run as a player
would, and the examples of docs/rules.md answered through it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import settle_request
from scoring.errors import SettleError

REPO_ROOT = Path(__file__).resolve().parents[2]

ENGINE_JSON_REQUEST = {
    "rules": "kawu",
    "levels": {"declarers": "5", "opponents": "3"},
    "opponent_points": 65,
    "kitty_points": 20,
    "last_trick": {"winner": "opponents", "format": "pair", "cards": 2},
}
ENGINE_JSON_ANSWER = {
    "kitty_multiplier": 4,
    "kitty_bonus": 80,
    "opponent_total": 145,
    "winner": "opponents",
    "levels_gained": 1,
    "levels": {"declarers": "5", "opponents": "4"},
    "next_declarers": "opponents",
    "game_over": False,
    "game_winner": None,
}


def run_settle(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


def request(**changes: object) -> dict[str, object]:
    """The docs/engine-json.md example with some keys changed (None removes a key)."""
    data = {**ENGINE_JSON_REQUEST, **changes}
    return {key: value for key, value in data.items() if value is not None}


def answer_of(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.endswith("}\n")
    assert result.stdout.count("\n") == 1
    return json.loads(result.stdout)


def test_the_engine_json_example_from_stdin_gives_the_example_answer() -> None:
    answer = answer_of(run_settle("settle", stdin=json.dumps(ENGINE_JSON_REQUEST)))
    assert {key: answer[key] for key in ENGINE_JSON_ANSWER} == ENGINE_JSON_ANSWER
    assert set(answer) == {*ENGINE_JSON_ANSWER, "explanation", "throw_penalty"}
    assert answer["explanation"] == (
        "Opponents 65 + kitty 20 × 4 = 145 points. "
        "In the 120–155 band, the opponents take the deal and climb 1 level."
    )


def test_the_engine_json_example_from_a_file_gives_the_example_answer(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(ENGINE_JSON_REQUEST), encoding="utf-8")
    answer = answer_of(run_settle("settle", str(path)))
    assert {key: answer[key] for key in ENGINE_JSON_ANSWER} == ENGINE_JSON_ANSWER


def test_a_dash_for_file_reads_stdin() -> None:
    answer = answer_of(run_settle("settle", "-", stdin=json.dumps(ENGINE_JSON_REQUEST)))
    assert answer["opponent_total"] == 145


@pytest.mark.parametrize(
    ("declarers", "opponents", "after"),
    [
        ("10", "3", {"declarers": "T", "opponents": "4"}),
        ("T", "3", {"declarers": "T", "opponents": "4"}),
        ("t", "j", {"declarers": "T", "opponents": "Q"}),
        (5, 3, {"declarers": "5", "opponents": "4"}),
        (10, 9, {"declarers": "T", "opponents": "T"}),
        ("A", "K", {"declarers": "A", "opponents": "A"}),
    ],
)
def test_levels_are_read_as_rank_symbols_or_numbers_and_written_as_symbols(
    declarers: object, opponents: object, after: dict[str, str]
) -> None:
    answer = settle_request(request(levels={"declarers": declarers, "opponents": opponents}))
    assert answer["levels"] == after


def test_the_rules_default_to_standard() -> None:
    answer = settle_request(request(rules=None))
    assert answer["kitty_multiplier"] == 2
    assert (answer["opponent_total"], answer["winner"], answer["levels_gained"]) == (
        105,
        "opponents",
        0,
    )


def test_a_single_or_pair_last_trick_may_omit_its_cards() -> None:
    answer = settle_request(request(last_trick={"winner": "opponents", "format": "pair"}))
    assert answer["kitty_multiplier"] == 4


def test_a_groups_own_table_is_read_from_the_request() -> None:
    rules = {
        "name": "house",
        "bands": [
            {"from": 0, "to": 55, "winner": "declarers", "levels": 1},
            {"from": 60, "to": None, "winner": "opponents", "levels": 2},
        ],
        "kitty": "per-pair",
    }
    answer = settle_request(request(rules=rules, opponent_points=40, kitty_points=5))
    assert (answer["opponent_total"], answer["winner"], answer["levels_gained"]) == (
        60,
        "opponents",
        2,
    )
    assert answer["levels"] == {"declarers": "5", "opponents": "5"}


# docs/rules.md's examples that settle can answer: (what it says, request changes, answer keys).
RULES_MD_EXAMPLES = [
    pytest.param(
        {"rules": "open-ladder", "opponent_points": 0, "kitty_points": 5,
         "last_trick": {"winner": "opponents", "format": "throw", "cards": 5}},
        {"kitty_multiplier": 10, "kitty_bonus": 50, "opponent_total": 50},
        id="open-ladder-a-5-card-last-trick-gives-x10",
    ),
    pytest.param(
        {"rules": "standard", "opponent_points": 0, "kitty_points": 5,
         "last_trick": {"winner": "opponents", "format": "tractor", "cards": 6}},
        {"kitty_multiplier": 2, "kitty_bonus": 10, "opponent_total": 10},
        id="standard-kitty-x2",
    ),
    pytest.param(
        {"rules": "kawu", "opponent_points": 0, "kitty_points": 5,
         "last_trick": {"winner": "opponents", "format": "tractor", "cards": 4}},
        {"kitty_multiplier": 8, "kitty_bonus": 40, "opponent_total": 40},
        id="kawu-x8-tractor-of-two-pairs",
    ),
    pytest.param(
        {"rules": "kawu", "opponent_points": 0, "kitty_points": 5,
         "last_trick": {"winner": "opponents", "format": "tractor", "cards": 6}},
        {"kitty_multiplier": 16, "kitty_bonus": 80, "opponent_total": 80},
        id="kawu-doubling-with-each-further-pair",
    ),
    pytest.param(
        {"rules": "standard", "levels": {"declarers": "5", "opponents": "9"},
         "opponent_points": 200, "kitty_points": 0},
        {"winner": "opponents", "levels_gained": 0, "next_declarers": "opponents",
         "levels": {"declarers": "5", "opponents": "9"}},
        id="standard-80-or-more-opponents-declare-at-their-own-level-nobody-climbs",
    ),
    pytest.param(
        {"rules": "standard", "levels": {"declarers": "A", "opponents": "9"},
         "opponent_points": 75, "kitty_points": 0},
        {"winner": "declarers", "game_over": True, "game_winner": "declarers",
         "levels": {"declarers": "A", "opponents": "9"}},
        id="standard-winning-while-declaring-at-A-wins-the-game",
    ),
    pytest.param(
        {"rules": "standard", "levels": {"declarers": "Q", "opponents": "9"},
         "opponent_points": 0, "kitty_points": 0},
        {"levels_gained": 2, "game_over": False, "levels": {"declarers": "A", "opponents": "9"}},
        id="standard-levels-stop-at-A",
    ),
    pytest.param(
        {"rules": "standard", "levels": {"declarers": "K", "opponents": "9"},
         "opponent_points": 0, "kitty_points": 0},
        {"winner": "declarers", "levels_gained": 1, "game_over": False,
         "levels": {"declarers": "A", "opponents": "9"}},
        id="standard-declarers-at-K-holding-to-0-are-awarded-3-and-climb-1",
    ),
    pytest.param(
        {"rules": "kawu", "levels": {"declarers": "5", "opponents": "K"},
         "opponent_points": 200, "kitty_points": 0},
        {"winner": "opponents", "levels_gained": 1, "game_over": False,
         "levels": {"declarers": "5", "opponents": "A"}},
        id="kawu-opponents-climb-to-A-and-no-further",
    ),
    pytest.param(
        {"rules": "open-ladder", "levels": {"declarers": "Q", "opponents": "9"},
         "opponent_points": 0, "kitty_points": 0},
        {"winner": "declarers", "levels_gained": 3, "game_over": True,
         "game_winner": "declarers", "levels": {"declarers": "A", "opponents": "9"}},
        id="open-ladder-declarers-at-Q-holding-to-0-gain-the-whole-3",
    ),
    pytest.param(
        {"rules": "open-ladder", "opponent_points": 160, "kitty_points": 40,
         "last_trick": {"winner": "opponents", "format": "single"}},
        {"opponent_total": 240, "winner": "opponents", "levels_gained": 4},
        id="open-ladder-200-235-plus-3-then-one-more-for-each-further-40",
    ),
    pytest.param(
        {"rules": "open-ladder", "levels": {"declarers": "5", "opponents": "K"},
         "opponent_points": 160, "kitty_points": 0},
        {"levels_gained": 2, "game_over": True, "game_winner": "opponents",
         "levels": {"declarers": "5", "opponents": "A"}},
        id="open-ladder-the-game-ends-when-a-team-climbs-past-A",
    ),
    pytest.param(
        {"rules": "kawu", "opponent_points": 120, "kitty_points": 0},
        {"winner": "opponents", "levels_gained": 1, "next_declarers": "opponents"},
        id="kawu-120-155-take-the-deal-and-plus-1",
    ),
    pytest.param(
        {"rules": "kawu", "opponent_points": 200, "kitty_points": 0},
        {"winner": "opponents", "levels_gained": 3},
        id="kawu-one-more-per-further-40",
    ),
    pytest.param(
        {"rules": "kawu", "levels": {"declarers": "A", "opponents": "9"},
         "opponent_points": 40, "kitty_points": 0},
        {"game_over": True, "game_winner": "declarers"},
        id="kawu-a-team-wins-by-holding-as-declarers-at-A",
    ),
    pytest.param(
        {"rules": "simplified", "opponent_points": 75, "kitty_points": 0},
        {"winner": "declarers", "levels_gained": 1, "next_declarers": "declarers"},
        id="simplified-declarers-below-80-climb-1",
    ),
    pytest.param(
        {"rules": "simplified", "opponent_points": 80, "kitty_points": 0},
        {"winner": "opponents", "levels_gained": 1, "next_declarers": "opponents"},
        id="simplified-opponents-at-80-or-more-climb-1-and-declare",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "expected"), RULES_MD_EXAMPLES)
def test_the_examples_of_rules_md(changes: dict[str, object], expected: dict[str, object]) -> None:
    answer = settle_request(request(**changes))
    assert {key: answer[key] for key in expected} == expected


BAD_INPUTS = [
    pytest.param('{"rules": "kawu",', None, "the input is not JSON: ", id="bad-json"),
    pytest.param(
        json.dumps(request(rules="bridge")),
        "unknown rules 'bridge': the presets are standard, open-ladder, kawu, simplified",
        None,
        id="unknown-preset",
    ),
    pytest.param(
        json.dumps(request(levels={"declarers": "1", "opponents": "3"})),
        'levels.declarers must be a level from 2 to A, got "1"',
        None,
        id="level-1",
    ),
    pytest.param(
        json.dumps(request(levels={"declarers": "5", "opponents": 15})),
        "levels.opponents must be a level from 2 to A, got 15",
        None,
        id="level-15",
    ),
    pytest.param(
        json.dumps(request(opponent_points=203)),
        "opponent_points must be a multiple of 5 from 0 to 200, got 203",
        None,
        id="points-not-a-multiple-of-5",
    ),
    pytest.param(
        json.dumps(request(opponent_points=150, kitty_points=60)),
        "opponent_points 150 + kitty_points 60 = 210, but 2 decks hold only 200 points",
        None,
        id="points-and-kitty-over-200",
    ),
    pytest.param(
        json.dumps(request(last_trick={"winner": "opponents", "format": "triple", "cards": 3})),
        'last_trick.format must be one of single, pair, tractor, throw, got "triple"',
        None,
        id="unknown-last-trick-format",
    ),
    pytest.param(
        json.dumps(request(last_trick={"winner": "opponents", "format": "throw", "cards": 3})),
        "the kawu rules allow no throws, so the last trick was no throw",
        None,
        id="throw-under-kawu",
    ),
    pytest.param(
        json.dumps(request(opponent_points=None)),
        "'opponent_points' is missing",
        None,
        id="missing-key",
    ),
    pytest.param(
        json.dumps(request(last_trick={"winner": "opponents", "format": "tractor"})),
        "a tractor last trick needs its number of cards per player",
        None,
        id="tractor-without-cards",
    ),
    pytest.param(
        json.dumps(request(last_trick={"winner": "us", "format": "pair"})),
        'last_trick.winner must be one of declarers, opponents, got "us"',
        None,
        id="unknown-last-trick-winner",
    ),
    pytest.param(
        json.dumps(request(rules={"bands": []})),
        "a scoring table needs at least one band",
        None,
        id="invalid-custom-table",
    ),
    pytest.param(
        "[1, 2]", "the request must be a JSON object, got [1, 2]", None, id="not-an-object"
    ),
    pytest.param(
        json.dumps(request(levels="5/3")),
        'levels must be a JSON object, got "5/3"',
        None,
        id="levels-not-an-object",
    ),
]


def assert_refused(result: subprocess.CompletedProcess[str]) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr and no traceback: that line."""
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.endswith("\n")
    assert result.stderr.count("\n") == 1
    return result.stderr.rstrip("\n")


@pytest.mark.parametrize(("text", "message", "prefix"), BAD_INPUTS)
def test_bad_input_on_stdin_exits_2_with_one_line_naming_the_problem(
    text: str, message: str | None, prefix: str | None
) -> None:
    line = assert_refused(run_settle("settle", stdin=text))
    if message is not None:
        assert line == message
    else:
        assert line.startswith(prefix)


@pytest.mark.parametrize(("text", "message", "prefix"), BAD_INPUTS[:3])
def test_bad_input_in_a_file_exits_2_with_one_line_naming_the_problem(
    tmp_path: Path, text: str, message: str | None, prefix: str | None
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(text, encoding="utf-8")
    line = assert_refused(run_settle("settle", str(path)))
    if message is not None:
        assert line == message
    else:
        assert line.startswith(prefix)


def test_a_file_that_does_not_exist_exits_2_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "missing.json"
    line = assert_refused(run_settle("settle", str(path)))
    assert line == f"cannot read {str(path)!r}: No such file or directory"


@pytest.mark.parametrize(
    "args", [(), ("score",), ("settle", "a.json", "b.json")], ids=["none", "unknown", "two-files"]
)
def test_a_wrong_command_line_exits_2_with_the_usage(args: tuple[str, ...]) -> None:
    line = assert_refused(run_settle(*args, stdin=json.dumps(ENGINE_JSON_REQUEST)))
    assert line.startswith("usage: python -m scoring ")


@pytest.mark.parametrize(
    ("request_json", "message"),
    [
        ('{"levels": {"opponents": "3"}}', "'levels.declarers' is missing"),
        (
            '{"levels": {"declarers": "2", "opponents": "3"}, "opponent_points": 5,'
            ' "kitty_points": 0, "last_trick": {"format": "single"}}',
            "'last_trick.winner' is missing",
        ),
        ("[" * 100_000, "the input is nested too deeply to read"),
    ],
)
def test_cli_names_where_a_nested_problem_is(request_json, message):
    result = subprocess.run(
        [sys.executable, "-m", "scoring", "settle"],
        input=request_json,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        check=False,
    )

    assert result.returncode == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""


def test_cli_keeps_its_error_to_one_line_whatever_the_request_holds():
    result = subprocess.run(
        [sys.executable, "-m", "scoring", "judge"],
        input=json.dumps({"level": "5", "trump": "H", "plays": [["P\n1", ["XH"]]]}),
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        check=False,
    )

    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "unknown card 'XH'" in result.stderr


# `decks`: the level table scales as docs/rules.md says. Declarers at 5 take the last trick.
# rules, decks, opponent_points, winner, levels gained
SCALED_EXAMPLES = [
    ("standard", 3, 0, "declarers", 3),
    ("standard", 3, 5, "declarers", 2),
    ("standard", 3, 55, "declarers", 2),
    ("standard", 3, 60, "declarers", 1),
    ("standard", 3, 115, "declarers", 1),
    ("standard", 3, 120, "opponents", 0),
    ("standard", 4, 75, "declarers", 2),
    ("standard", 4, 80, "declarers", 1),
    ("standard", 4, 155, "declarers", 1),
    ("standard", 4, 160, "opponents", 0),
    ("open-ladder", 3, 115, "declarers", 1),
    ("open-ladder", 3, 120, "opponents", 0),
    ("open-ladder", 3, 175, "opponents", 0),
    ("open-ladder", 3, 180, "opponents", 1),
    ("open-ladder", 3, 235, "opponents", 1),
    ("open-ladder", 3, 240, "opponents", 2),
    ("open-ladder", 3, 300, "opponents", 3),
    ("open-ladder", 4, 235, "opponents", 0),
    ("open-ladder", 4, 240, "opponents", 1),
    ("open-ladder", 4, 320, "opponents", 2),
    ("open-ladder", 4, 400, "opponents", 3),
]


@pytest.mark.parametrize(("rules", "decks", "points", "winner", "gained"), SCALED_EXAMPLES)
def test_decks_scale_the_level_table(
    rules: str, decks: int, points: int, winner: str, gained: int
) -> None:
    answer = settle_request(
        request(
            rules=rules,
            decks=decks,
            opponent_points=points,
            kitty_points=0,
            last_trick={"winner": "declarers", "format": "single"},
        )
    )
    assert (answer["winner"], answer["levels_gained"]) == (winner, gained)


@pytest.mark.parametrize(
    ("decks", "most"), [(None, 80), (2, 80), (3, 60), (4, 80)], ids=["default", "2", "3", "4"]
)
def test_the_kitty_defaults_to_8_6_and_8_cards_for_2_3_and_4_decks(
    decks: int | None, most: int
) -> None:
    answer = settle_request(request(rules="standard", decks=decks, kitty_points=most))
    assert answer["kitty_bonus"] == 2 * most
    with pytest.raises(SettleError) as error:
        settle_request(request(rules="standard", decks=decks, kitty_points=most + 5))
    assert str(error.value) == (
        f"kitty_points must be a multiple of 5 from 0 to {most}, got {most + 5}"
    )


@pytest.mark.parametrize(("kitty_cards", "most"), [(5, 50), (6, 60), (12, 120)])
def test_kitty_cards_bound_the_kittys_points_at_10_a_card(kitty_cards: int, most: int) -> None:
    answer = settle_request(
        request(rules="standard", opponent_points=0, kitty_cards=kitty_cards, kitty_points=most)
    )
    assert answer["kitty_bonus"] == 2 * most
    with pytest.raises(SettleError):
        settle_request(request(kitty_cards=kitty_cards, kitty_points=most + 5))


SCALED_BAD_INPUTS = [
    pytest.param(request(decks=5), "decks must be 2, 3 or 4, got 5", id="5-decks"),
    pytest.param(request(decks="3"), "decks must be 2, 3 or 4, got '3'", id="decks-a-string"),
    pytest.param(
        request(decks=3, kitty_points=65),
        "kitty_points must be a multiple of 5 from 0 to 60, got 65",
        id="3-decks-kitty-over-60",
    ),
    pytest.param(
        request(decks=3, opponent_points=250, kitty_points=55),
        "opponent_points 250 + kitty_points 55 = 305, but 3 decks hold only 300 points",
        id="3-decks-points-and-kitty-over-300",
    ),
    pytest.param(
        request(decks=4, opponent_points=405),
        "opponent_points must be a multiple of 5 from 0 to 400, got 405",
        id="4-decks-points-over-400",
    ),
    pytest.param(
        request(kitty_cards=4),
        "kitty_cards must be a number of cards from 5 to 12, got 4",
        id="kitty-of-4-cards",
    ),
    pytest.param(
        request(kitty_cards=13),
        "kitty_cards must be a number of cards from 5 to 12, got 13",
        id="kitty-of-13-cards",
    ),
    pytest.param(
        request(kitty_cards="8"),
        "kitty_cards must be a number of cards from 5 to 12, got '8'",
        id="kitty-cards-a-string",
    ),
    pytest.param(
        request(kitty_cards=5, kitty_points=55),
        "kitty_points must be a multiple of 5 from 0 to 50, got 55",
        id="5-kitty-cards-hold-50",
    ),
]


@pytest.mark.parametrize(("data", "message"), SCALED_BAD_INPUTS)
def test_bad_decks_or_kitty_exit_2_with_one_line_naming_the_problem(
    data: dict[str, object], message: str
) -> None:
    assert assert_refused(run_settle("settle", stdin=json.dumps(data))) == message
