"""``python -m scoring judge [FILE]``: the JSON contract of docs/engine-json.md, run as a player
would,
and every kind of bad input answered with exit 2 and one plain line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import judge_request
from scoring.errors import PlayError
from scoring.rules import get_rules

REPO_ROOT = Path(__file__).resolve().parents[2]

ENGINE_JSON_REQUEST = {
    "rules": "kawu",
    "level": "5",
    "trump": "H",
    "decks": 2,
    "hands": {"P1": ["5H", "5H", "9S"], "P2": ["9H", "KH", "7H", "7H", "3C"], "P3": ["SJ", "SJ"]},
    "plays": [
        ["P1", ["5H", "5H"]],
        ["P2", ["9H", "KH"]],
        ["P3", ["SJ", "SJ"]],
        ["P4", ["2C", "3C"]],
    ],
}
ENGINE_JSON_ANSWER = {
    "lead": {"player": "P1", "format": "pair", "suit": "trump"},
    "winner": "P3",
    "points": 20,
    "plays": [
        {"player": "P1", "cards": ["5H", "5H"], "legal": True},
        {
            "player": "P2",
            "cards": ["9H", "KH"],
            "legal": False,
            "reason": "P2 held the pair 7H 7H in trumps and had to play it",
        },
        {"player": "P3", "cards": ["SJ", "SJ"], "legal": True},
        {"player": "P4", "cards": ["2C", "3C"], "legal": None},
    ],
}


def run_judge(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "judge", *args],
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


def test_the_engine_json_example_gives_the_example_answer() -> None:
    result = run_judge(stdin=json.dumps(ENGINE_JSON_REQUEST))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == ENGINE_JSON_ANSWER


def test_the_request_can_come_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "trick.json"
    path.write_text(json.dumps(ENGINE_JSON_REQUEST), encoding="utf-8")
    result = run_judge(str(path))
    assert result.returncode == 0
    assert json.loads(result.stdout) == ENGINE_JSON_ANSWER


def test_rules_and_decks_are_optional_and_cards_are_read_in_any_notation() -> None:
    answer = judge_request(
        {
            "level": 9,
            "trump": "♠",
            "plays": [["N", ["10h", "Th"]], ["W", ["a♥", "AH"]], ["S", ["2s", "2♠"]]],
        }
    )
    assert answer == {
        "lead": {"player": "N", "format": "pair", "suit": "H"},
        "winner": "S",
        "points": 20,
        "plays": [
            {"player": "N", "cards": ["TH", "TH"], "legal": None},
            {"player": "W", "cards": ["AH", "AH"], "legal": None},
            {"player": "S", "cards": ["2S", "2S"], "legal": None},
        ],
    }


def test_a_no_trump_hand_and_a_trick_in_progress() -> None:
    answer = judge_request({"level": "2", "trump": None, "hands": None, "plays": [["P1", ["2D"]]]})
    assert answer["lead"] == {"player": "P1", "format": "single", "suit": "trump"}
    assert answer["winner"] == "P1"


def test_an_open_ladder_no_trump_hand_keeps_the_level_cards_in_their_suits() -> None:
    trick = {"level": "5", "trump": None, "plays": [["P1", ["4S", "4S", "5S", "5S"]]]}
    answer = judge_request({**trick, "rules": "open-ladder"})
    assert answer["lead"] == {"player": "P1", "format": "tractor", "suit": "S"}
    custom = {**get_rules("open-ladder").to_json(), "name": "Thursday"}
    assert judge_request({**trick, "rules": custom})["lead"] == answer["lead"]
    with pytest.raises(PlayError, match="mixes spades and trumps"):
        judge_request({**trick, "rules": "standard"})


def test_a_failed_throw_names_who_beats_it_what_is_forced_and_the_penalty() -> None:
    answer = judge_request(
        {
            "rules": "open-ladder",
            "level": "2",
            "trump": "S",
            "hands": {"P2": ["KH", "KH", "3C"], "P3": ["4C"]},
            "plays": [["P1", ["AH", "QH", "QH"]]],
        }
    )
    assert answer["throw"] == {
        "ok": False,
        "checked": ["P2", "P3"],
        "beaten_by": "P2",
        "forced": ["QH", "QH"],
        "penalty": 10,
    }
    assert answer["winner"] is None
    assert answer["lead"] == {"player": "P1", "format": "throw", "suit": "H"}
    assert answer["plays"] == [
        {
            "player": "P1",
            "cards": ["AH", "QH", "QH"],
            "legal": False,
            "reason": "P1's throw fails: P2 held KH KH, which beats QH QH; "
            "P1 takes back 1 card and leads QH QH, paying 10 points",
        }
    ]


def test_a_throw_that_stands_says_whose_cards_it_was_checked_against() -> None:
    answer = judge_request(
        {
            "rules": "open-ladder",
            "level": "2",
            "trump": "S",
            "hands": {"P4": ["QH", "2C"]},
            "plays": [
                ["P1", ["AH", "AH", "KH"]],
                ["P2", ["3S", "3S", "4S"]],
                ["P3", ["QH", "JH", "9C"]],
            ],
        }
    )
    assert answer["throw"] == {"ok": True, "checked": ["P2", "P3", "P4"]}
    assert answer["winner"] == "P2"


def test_a_throw_fails_against_a_higher_card_a_follower_played() -> None:
    answer = judge_request(
        {
            "rules": "open-ladder",
            "level": "5",
            "trump": "H",
            "plays": [["P1", ["AS", "QS"]], ["P2", ["KS", "2S"]]],
        }
    )
    assert answer["throw"] == {
        "ok": False,
        "checked": ["P2"],
        "beaten_by": "P2",
        "forced": ["QS"],
        "penalty": 10,
    }
    assert answer["winner"] is None
    assert answer["plays"][0] == {
        "player": "P1",
        "cards": ["AS", "QS"],
        "legal": False,
        "reason": "P1's throw fails: P2 held KS, which beats QS; "
        "P1 takes back 1 card and leads QS, paying 10 points",
    }


BAD_INPUT = [
    pytest.param("[]", "the request must be a JSON object, got []", id="not-an-object"),
    pytest.param(
        "{",
        "the input is not JSON: Expecting property name enclosed in double "
        "quotes: line 1 column 2 (char 1)",
        id="not-json",
    ),
    pytest.param(request(level=None), "'level' is missing", id="no-level"),
    pytest.param(request(level="1"), 'level must be a level from 2 to A, got "1"', id="level-1"),
    pytest.param(request(level=True), "level must be a level from 2 to A, got true", id="level"),
    pytest.param(request(trump=None), "'trump' is missing", id="no-trump-key"),
    pytest.param(
        request(trump="X"), 'trump must be S, H, D, C or null (no trump), got "X"', id="trump"
    ),
    pytest.param(request(decks=5), "decks must be 2, 3 or 4, got 5", id="decks"),
    pytest.param(
        request(rules="chess"),
        "unknown rules 'chess': the presets are standard, open-ladder, kawu, simplified",
        id="rules",
    ),
    pytest.param(request(plays=None), "'plays' is missing", id="no-plays"),
    pytest.param(
        request(plays=[]), "plays is empty: a trick needs at least its lead", id="empty-plays"
    ),
    pytest.param(
        request(plays={"P1": ["5H"]}),
        'plays must be a list of [player, [cards]], got {"P1": ["5H"]}',
        id="plays-object",
    ),
    pytest.param(
        request(plays=[["P1", ["5H"]], ["P2"]]),
        'plays[1] must be [player, [cards]], got ["P2"]',
        id="play-shape",
    ),
    pytest.param(
        request(plays=[["P1", ["5H"]], ["P2", "XH"]]),
        'P2\'s play must be a list of cards, got "XH"',
        id="play-not-a-list",
    ),
    pytest.param(
        request(hands=None, plays=[["P1", ["5H"]], ["P2", ["XH"]]]),
        "P2's play: unknown card 'XH'",
        id="unknown-card",
    ),
    pytest.param(
        request(hands={"P2": ["9H", 9]}),
        "P2's hand: a card must be a string like 'TH', got 9",
        id="card-not-a-string",
    ),
    pytest.param(request(hands=["5H"]), 'hands must be a JSON object, got ["5H"]', id="hands"),
    pytest.param(
        request(hands=None, plays=[["P1", ["BJ"]], ["P2", ["BJ"]], ["P3", ["BJ"]]]),
        "the plays: BJ appears 3 times, but 2 decks hold only 2",
        id="too-many-copies",
    ),
    pytest.param(
        request(hands={"P1": ["5H", "5H", "5H"]}),
        "P1's hand: 5H appears 3 times, but 2 decks hold only 2",
        id="too-many-copies-in-a-hand",
    ),
    pytest.param(
        request(hands={"P2": ["9H", "QH"]}),
        "P2's play: KH is not in P2's hand",
        id="play-not-in-hand",
    ),
    pytest.param(
        request(plays=[["P1", ["5H", "5H"]], ["P1", ["9H", "KH"]]]),
        "P1 plays twice in this trick",
        id="duplicate-player",
    ),
    pytest.param(
        request(hands=None, plays=[["P1", ["AS", "KS"]]]),
        "P1's lead AS KS is a throw (AS, KS), which the kawu rules forbid: "
        "lead a single, a pair or a tractor",
        id="forbidden-throw",
    ),
    pytest.param(
        request(rules="open-ladder", hands=None, plays=[["P1", ["AS", "AH"]]]),
        "P1's lead AS AH mixes spades and trumps: every lead, a throw too, is of one suit "
        "(trumps count as one suit)",
        id="mixed-suit-lead",
    ),
    pytest.param(
        request(hands=None, plays=[["P1", []]]), "P1's lead has no cards", id="empty-lead"
    ),
]


@pytest.mark.parametrize(("stdin", "message"), BAD_INPUT)
def test_bad_input_exits_2_with_one_plain_line(stdin: object, message: str) -> None:
    result = run_judge(stdin=stdin if isinstance(stdin, str) else json.dumps(stdin))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == message + "\n"
    assert "Traceback" not in result.stderr


def test_a_missing_file_is_bad_input(tmp_path: Path) -> None:
    result = run_judge(str(tmp_path / "nowhere.json"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
