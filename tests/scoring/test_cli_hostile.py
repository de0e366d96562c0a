"""``python -m scoring judge|settle|game`` given hostile JSON: exit 2 and one line naming the
problem on standard error, never a traceback. Run in-process for speed; a few as a player runs
them."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sweep import examples

from scoring.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]
HUGE = 10**30
SETTLE = {
    "rules": "kawu",
    "levels": {"declarers": "5", "opponents": "3"},
    "opponent_points": 65,
    "kitty_points": 20,
    "last_trick": {"winner": "opponents", "format": "pair", "cards": 2},
}
JUDGE = {"rules": "open-ladder", "level": "2", "trump": "H", "plays": [["P1", ["AS"]]]}
GAME = {
    "rules": "standard",
    "players": ["Mei", "Jun", "Lin", "Hao"],
    "teams": "find-a-friend",
    "first_declarer": "Mei",
    "hands": [
        {"declarer": "Mei", "trump": "H", "opponent_points": 35, "kitty_points": 10,
         "friends": ["Lin"], "last_trick": {"winner": "declarers", "format": "single"}},
    ],
}  # fmt: skip
TABLE = {
    "name": "House",
    "bands": [
        {"from": 0, "to": 75, "winner": "declarers", "levels": 1},
        {"from": 80, "winner": "opponents", "levels": 1},
    ],
}


def settle(**changes: object) -> str:
    return json.dumps({**SETTLE, **changes})


def judge(**changes: object) -> str:
    return json.dumps({**JUDGE, **changes})


def game(**changes: object) -> str:
    return json.dumps({**GAME, **changes})


def game_hand(**changes: object) -> str:
    return game(hands=[{**GAME["hands"][0], **changes}])


def run(command: str, stdin: str | io.TextIOBase, capsys) -> tuple[int, str, str]:
    code = main([command], stdin=io.StringIO(stdin) if isinstance(stdin, str) else stdin)
    out, err = capsys.readouterr()
    return code, out, err


CASES = [
    pytest.param(
        "settle", "[" * 100_000 + "]" * 100_000, "the input is nested too deeply to read", id="deep"
    ),
    pytest.param(
        "judge",
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        "the input is nested too deeply to read",
        id="deep-objects",
    ),
    pytest.param(
        "settle", "9" * 5000, "the input holds a number of more than 4300 digits", id="5000-digits"
    ),
    pytest.param(
        "settle",
        settle(opponent_points=HUGE),
        f"opponent_points must be a multiple of 5 from 0 to 200, got {HUGE}",
        id="huge-points",
    ),
    pytest.param(
        "settle",
        settle().replace("65", "1e309"),
        "opponent_points must be a multiple of 5 from 0 to 200, got inf",
        id="1e309",
    ),
    pytest.param(
        "settle",
        settle().replace("65", "NaN"),
        "opponent_points must be a multiple of 5 from 0 to 200, got nan",
        id="NaN",
    ),
    pytest.param(
        "settle",
        settle().replace("20", "-Infinity"),
        "kitty_points must be a multiple of 5 from 0 to 80, got -inf",
        id="-Infinity",
    ),
    pytest.param(
        "settle",
        settle(opponent_points=65.0),
        "opponent_points must be a multiple of 5 from 0 to 200, got 65.0",
        id="float",
    ),
    pytest.param(
        "settle",
        settle(opponent_points="65"),
        "opponent_points must be a multiple of 5 from 0 to 200, got '65'",
        id="string-points",
    ),
    pytest.param(
        "settle",
        settle(levels=["5", "3"]),
        'levels must be a JSON object, got ["5", "3"]',
        id="list-for-object",
    ),
    pytest.param(
        "settle",
        settle(levels={"declarers": "🂡", "opponents": "3"}),
        'levels.declarers must be a level from 2 to A, got "\\ud83c\\udca1"',
        id="emoji-level",
    ),
    pytest.param(
        "settle",
        settle(levels={"declarers": HUGE, "opponents": "3"}),
        f"levels.declarers must be a level from 2 to A, got {HUGE}",
        id="huge-level",
    ),
    pytest.param(
        "settle",
        settle(last_trick="pair"),
        'last_trick must be a JSON object, got "pair"',
        id="string-for-object",
    ),
    pytest.param(
        "settle",
        settle(last_trick={"winner": ["opponents"], "format": "pair"}),
        'last_trick.winner must be one of declarers, opponents, got ["opponents"]',
        id="list-for-choice",
    ),
    pytest.param(
        "settle",
        settle(last_trick={"winner": "opponents", "format": "tractor", "cards": HUGE}),
        f"a last trick of {HUGE} cards per player is more than a hand of 25 holds",
        id="huge-last-trick",
    ),
    pytest.param(
        "settle",
        settle(rules="open-ladder", taken_back={"declarers": HUGE}),
        f"taken_back.declarers must be a number of cards from 0 to 25, got {HUGE}",
        id="huge-taken-back",
    ),
    pytest.param(
        "settle",
        settle(rules={**TABLE, "throws": True, "throw_penalty": 2.5}),
        "throw_penalty must be a whole number, got 2.5",
        id="float-penalty",
    ),
    pytest.param(
        "settle",
        settle(rules={**TABLE, "bands": "0-75 declarers"}),
        "bands must be a list, got '0-75 declarers'",
        id="string-for-list",
    ),
    pytest.param(
        "settle",
        settle(rules=["kawu"]),
        "rules must be a preset's name or a rules object, got ['kawu']",
        id="list-for-rules",
    ),
    pytest.param(
        "judge",
        judge(plays="AS"),
        'plays must be a list of [player, [cards]], got "AS"',
        id="string-for-plays",
    ),
    pytest.param(
        "judge",
        judge(plays=[["P1", [["AS"]]]]),
        "P1's play: a card must be a string like 'TH', got ['AS']",
        id="nested-card",
    ),
    pytest.param(
        "judge", judge(decks=HUGE), f"decks must be 2, 3 or 4, got {HUGE}", id="huge-decks"
    ),
    pytest.param("judge", judge(decks=2.0), "decks must be 2, 3 or 4, got 2.0", id="float-decks"),
    pytest.param(
        "judge",
        judge(plays=[["P1", ["AS"] * 100_000]]),
        "the plays: AS appears 100000 times, but 2 decks hold only 2",
        id="100000-cards",
    ),
    pytest.param(
        "judge",
        judge(plays=[["P1", ["AS\x00"]]]),
        "P1's play: unknown card 'AS\\x00'",
        id="NUL-card",
    ),
    pytest.param(
        "judge",
        judge(plays=[["P\n1", ["XX"]]]),
        "P 1's play: unknown card 'XX'",
        id="newline-in-a-name",
    ),
    pytest.param(
        "judge",
        judge(plays=[["\ud800", ["AS"]]]),
        "the input holds '\\ud800', which is not a character",
        id="lone-surrogate",
    ),
    pytest.param(
        "judge",
        judge(hands={"P1": "AS"}),
        'P1\'s hand must be a list of cards, got "AS"',
        id="string-for-hand",
    ),
    pytest.param(
        "settle", settle(decks=HUGE), f"decks must be 2, 3 or 4, got {HUGE}", id="huge-decks"
    ),
    pytest.param(
        "settle",
        settle(kitty_cards=HUGE),
        f"kitty_cards must be a number of cards from 5 to 12, got {HUGE}",
        id="huge-kitty-cards",
    ),
    pytest.param(
        "settle",
        settle(kitty_cards=float("nan")),
        "kitty_cards must be a number of cards from 5 to 12, got nan",
        id="NaN-kitty-cards",
    ),
    pytest.param("game", "[" * 100_000, "the input is nested too deeply to read", id="game-deep"),
    pytest.param(
        "game",
        game(players=["P"] * 100_000),
        "a table has 4 to 8 players, got 100000",
        id="game-100000-players",
    ),
    pytest.param(
        "game",
        game(players=[["Mei"], "Jun", "Lin", "Hao"]),
        "players must be a list of names, got [['Mei'], 'Jun', 'Lin', 'Hao']",
        id="game-nested-player",
    ),
    pytest.param(
        "game",
        game(levels={"Mei": HUGE}),
        f"levels.Mei must be a level from 2 to A, got {HUGE}",
        id="game-huge-level",
    ),
    pytest.param(
        "game", game(called=float("inf")), "a declarer calls 1 or 2 cards, got inf", id="game-inf"
    ),
    pytest.param(
        "game",
        game(first_declarer=["Mei"]),
        'first_declarer: ["Mei"] is not one of the players',
        id="game-list-for-a-player",
    ),
    pytest.param(
        "game",
        game(hands=[None] * 100_000),
        "hand 1: the hand must be a JSON object, got null",
        id="game-100000-null-hands",
    ),
    pytest.param(
        "game",
        game_hand(declarer="Me\ni"),
        'hand 1: declarer: "Me\\ni" is not one of the players',
        id="game-newline-in-a-name",
    ),
    pytest.param(
        "game",
        game_hand(friends=[HUGE]),
        f"hand 1: friends: {HUGE} is not one of the players",
        id="game-huge-friend",
    ),
    pytest.param(
        "game",
        game_hand(opponent_points=HUGE),
        f"hand 1: opponent_points must be a multiple of 5 from 0 to 200, got {HUGE}",
        id="game-huge-points",
    ),
    pytest.param("judge", '"judge"', 'the request must be a JSON object, got "judge"', id="string"),
    pytest.param(
        "judge", "", "the input is not JSON: Expecting value: line 1 column 1 (char 0)", id="empty"
    ),
]


@pytest.mark.parametrize(("command", "stdin", "message"), CASES)
def test_hostile_input_exits_2_with_one_line(command, stdin, message, capsys) -> None:
    assert run(command, stdin, capsys) == (2, "", message + "\n")


def test_bytes_that_are_not_utf8_exit_2(capsys) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b'{"level": "2", "\xff": 1}'), encoding="utf-8")

    assert run("judge", stdin, capsys) == (2, "", "the input is not UTF-8 text\n")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def shaped(request: dict) -> st.SearchStrategy[dict]:
    """A request with each of its keys kept, dropped, or given any JSON value."""
    return st.fixed_dictionaries(
        {},
        optional={key: st.one_of(st.just(value), JSON_VALUES) for key, value in request.items()},
    )


@examples(100, 2000)
@given(
    command=st.sampled_from(["judge", "settle", "game"]),
    request=st.one_of(JSON_VALUES, shaped(SETTLE), shaped(JUDGE), shaped(GAME)),
)
def test_any_json_answers_one_line_on_stdout_or_exits_2_with_one_line(command, request) -> None:
    out, err = io.StringIO(), io.StringIO()
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main([command], stdin=io.StringIO(json.dumps(request)))
    finally:
        sys.stdout, sys.stderr = stdout, stderr

    if code == 0:
        assert (out.getvalue().count("\n"), err.getvalue()) == (1, "")
        json.loads(out.getvalue())
    else:
        assert (code, out.getvalue()) == (2, "")
        assert err.getvalue().count("\n") == 1


def run_scoring(command: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    # Strict UTF-8 on the standard streams, as a UTF-8 locale gives: no surrogateescape.
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "scoring", command],
        input=stdin,
        capture_output=True,
        cwd=REPO_ROOT,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b'{"level": "2", "trump": "H", "plays": [["\xff", ["AS"]]]}', b"not UTF-8 text"),
        (judge(plays=[["\ud800", ["AS"]]]).encode(), b"which is not a character"),
        (b"9" * 5000, b"more than 4300 digits"),
        (b"[" * 100_000, b"nested too deeply"),
    ],
    ids=["not-utf8", "lone-surrogate", "5000-digits", "deep"],
)
def test_a_player_running_it_sees_one_line_and_no_traceback(stdin: bytes, message: bytes) -> None:
    result = run_scoring("judge", stdin)

    assert (result.returncode, result.stdout) == (2, b"")
    assert message in result.stderr
    assert result.stderr.count(b"\n") == 1
    assert b"Traceback" not in result.stderr
