"""``python -m scoring game [FILE]``: the contract of docs/engine-json.md ("game"), answered
exactly; bad input exits 2 with one line naming the hand and the field; every table shape
answers."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import game_request, main
from scoring.table import deal

REPO_ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Bo", "Chen"]
HOLD = {"winner": "declarers", "format": "single", "cards": 1}

ENGINE_JSON_REQUEST = {
    "rules": "standard",
    "decks": 2,
    "players": ["Mei", "Jun", "Lin", "Hao"],
    "teams": "partners",
    "first_declarer": "Mei",
    "hands": [
        {"declarer": "Mei", "trump": "H", "opponent_points": 35, "kitty_points": 10,
         "last_trick": {"winner": "declarers", "format": "single", "cards": 1}},
        {"declarer": "Lin", "trump": None, "opponent_points": 85, "kitty_points": 0,
         "last_trick": {"winner": "opponents", "format": "pair", "cards": 2}},
    ],
}  # fmt: skip
ENGINE_JSON_ANSWER = {
    "hands": [
        {"number": 1, "declarers": ["Mei", "Lin"], "opponents": ["Jun", "Hao"],
         "opponent_total": 35, "winner": "declarers", "levels_gained": {"Mei": 2, "Lin": 2},
         "levels": {"Mei": "4", "Jun": "2", "Lin": "4", "Hao": "2"},
         "next_declarers": ["Mei", "Lin"], "next_declarer": "Lin",
         "game_over": False, "game_winners": []},
        {"number": 2, "declarers": ["Mei", "Lin"], "opponents": ["Jun", "Hao"],
         "opponent_total": 85, "winner": "opponents", "levels_gained": {"Jun": 0, "Hao": 0},
         "levels": {"Mei": "4", "Jun": "2", "Lin": "4", "Hao": "2"},
         "next_declarers": ["Jun", "Hao"], "next_declarer": "Hao",
         "game_over": False, "game_winners": []},
    ],
    "levels": {"Mei": "4", "Jun": "2", "Lin": "4", "Hao": "2"},
    "next_declarers": ["Jun", "Hao"],
    "next_declarer": "Hao",
    "game_over": False,
    "game_winners": [],
}  # fmt: skip
HAND_KEYS = set(ENGINE_JSON_ANSWER["hands"][0])
STATE_KEYS = {"levels", "next_declarers", "next_declarer", "game_over", "game_winners"}


def listed(answer: dict) -> dict:
    """The answer cut down to the keys the contract lists (others may be added)."""
    assert set(answer) >= {"hands", *STATE_KEYS}
    for played in answer["hands"]:
        assert set(played) >= HAND_KEYS
    return {
        "hands": [{key: played[key] for key in HAND_KEYS} for played in answer["hands"]],
        **{key: answer[key] for key in STATE_KEYS},
    }


def run_game(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", "game", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


def answer(request: object, capsys: pytest.CaptureFixture[str]) -> dict:
    """The answer of ``game`` in-process: exit 0, one line on stdout, nothing on stderr."""
    code = main(["game"], stdin=io.StringIO(json.dumps(request)))
    out, err = capsys.readouterr()
    assert (code, err, out.count("\n")) == (0, "", 1)
    return json.loads(out)


def refusal(request: object, capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``game`` exits 2 with, in-process."""
    code = main(["game"], stdin=io.StringIO(json.dumps(request)))
    out, err = capsys.readouterr()
    assert (code, out, err.count("\n")) == (2, "", 1)
    assert "Traceback" not in err
    return err.rstrip("\n")


def game(**changes: object) -> dict:
    """The docs/engine-json.md example with some keys changed (None removes a key)."""
    data = {**copy.deepcopy(ENGINE_JSON_REQUEST), **changes}
    return {key: value for key, value in data.items() if value is not None}


def a_hand(declarer: str, points: int = 45, **changes: object) -> dict:
    return {
        "declarer": declarer,
        "trump": None,
        "opponent_points": points,
        "kitty_points": 0,
        "last_trick": HOLD,
        **changes,
    }


# The contract's example ---------------------------------------------------------------------


def test_the_engine_json_example_from_stdin_gives_the_example_answer() -> None:
    result = run_game(stdin=json.dumps(ENGINE_JSON_REQUEST))
    assert (result.returncode, result.stderr, result.stdout.count("\n")) == (0, "", 1)
    assert listed(json.loads(result.stdout)) == ENGINE_JSON_ANSWER


def test_the_engine_json_example_from_a_file_gives_the_example_answer(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ENGINE_JSON_REQUEST), encoding="utf-8")
    result = run_game(str(path))
    assert (result.returncode, result.stderr) == (0, "")
    assert listed(json.loads(result.stdout)) == ENGINE_JSON_ANSWER


def test_each_hand_also_says_what_settle_would() -> None:
    hands = game_request(ENGINE_JSON_REQUEST)["hands"]
    assert [played["explanation"] for played in hands] == [
        "Opponents 35 points (the declarers took the last trick and the kitty). "
        "In the 5–35 band, the declarers climb 2 levels.",
        "Opponents 85 + kitty 0 × 2 = 85 points. In the 80+ band, the opponents take the deal.",
    ]


def test_the_top_level_keys_repeat_the_last_hands() -> None:
    full = game_request(ENGINE_JSON_REQUEST)
    assert {key: full[key] for key in STATE_KEYS} == {
        key: full["hands"][-1][key] for key in STATE_KEYS
    }


def test_with_no_hands_under_a_bidding_starter_anyone_may_start() -> None:
    assert listed(game_request(game(first_declarer=None, hands=[]))) == {
        "hands": [],
        "levels": {"Mei": "2", "Jun": "2", "Lin": "2", "Hao": "2"},
        "next_declarers": ["Mei", "Jun", "Lin", "Hao"],
        "next_declarer": None,
        "game_over": False,
        "game_winners": [],
    }


def test_with_no_hands_a_chosen_first_declarer_starts() -> None:
    request = game(rules="kawu", first_declarer="Hao", hands=None, levels={"Jun": "5", "Hao": "5"})
    assert listed(game_request(request)) == {
        "hands": [],
        "levels": {"Mei": "2", "Jun": "5", "Lin": "2", "Hao": "5"},
        "next_declarers": ["Hao"],
        "next_declarer": "Hao",
        "game_over": False,
        "game_winners": [],
    }


def test_the_defaults_are_standard_2_decks_partners_and_bidding() -> None:
    minimal = {
        "players": ["Mei", "Jun", "Lin", "Hao"],
        "hands": [a_hand("Jun", 45)],
    }
    assert listed(game_request(minimal))["hands"][0]["levels_gained"] == {"Jun": 1, "Hao": 1}


# Other tables, answered whole --------------------------------------------------------------


def test_a_find_a_friend_game_folds_each_players_own_level(capsys) -> None:
    request = {
        "rules": "kawu",
        "players": NAMES[:5],
        "teams": "find-a-friend",
        "levels": {"Wei": "9"},
        "first_declarer": "Jun",
        "hands": [
            a_hand("Jun", 5, friends=["Wei"]),
            a_hand("Wei", 0, friends=[]),
            a_hand("Wei", 120, friends=["Wei"]),
        ],
    }
    assert listed(answer(request, capsys)) == {
        "hands": [
            {"number": 1, "declarers": ["Jun", "Wei"], "opponents": ["Mei", "Lin", "Hao"],
             "opponent_total": 5, "winner": "declarers", "levels_gained": {"Jun": 2, "Wei": 2},
             "levels": {"Mei": "2", "Jun": "4", "Lin": "2", "Hao": "2", "Wei": "J"},
             "next_declarers": ["Wei"], "next_declarer": "Wei",
             "game_over": False, "game_winners": []},
            {"number": 2, "declarers": ["Wei"], "opponents": ["Mei", "Jun", "Lin", "Hao"],
             "opponent_total": 0, "winner": "declarers", "levels_gained": {"Wei": 3},
             "levels": {"Mei": "2", "Jun": "4", "Lin": "2", "Hao": "2", "Wei": "A"},
             "next_declarers": ["Wei"], "next_declarer": "Wei",
             "game_over": False, "game_winners": []},
            {"number": 3, "declarers": ["Wei"], "opponents": ["Mei", "Jun", "Lin", "Hao"],
             "opponent_total": 120, "winner": "opponents",
             "levels_gained": {"Mei": 1, "Jun": 1, "Lin": 1, "Hao": 1},
             "levels": {"Mei": "3", "Jun": "5", "Lin": "3", "Hao": "3", "Wei": "A"},
             "next_declarers": ["Mei"], "next_declarer": "Mei",
             "game_over": False, "game_winners": []},
        ],
        "levels": {"Mei": "3", "Jun": "5", "Lin": "3", "Hao": "3", "Wei": "A"},
        "next_declarers": ["Mei"],
        "next_declarer": "Mei",
        "game_over": False,
        "game_winners": [],
    }  # fmt: skip


def test_a_pairs_game_lets_only_the_team_after_the_starter_climb(capsys) -> None:
    request = {
        "rules": "kawu",
        "decks": 3,
        "players": NAMES[:6],
        "teams": "pairs",
        "first_declarer": "Jun",
        "hands": [a_hand("Jun", 180), a_hand("Lin", 0)],
    }
    assert listed(answer(request, capsys))["hands"] == [
        {"number": 1, "declarers": ["Jun", "Wei"], "opponents": ["Mei", "Lin", "Hao", "Yan"],
         "opponent_total": 180, "winner": "opponents",
         "levels_gained": {"Mei": 0, "Lin": 1, "Hao": 0, "Yan": 1},
         "levels": {"Mei": "2", "Jun": "2", "Lin": "3", "Hao": "2", "Wei": "2", "Yan": "3"},
         "next_declarers": ["Lin"], "next_declarer": "Lin",
         "game_over": False, "game_winners": []},
        {"number": 2, "declarers": ["Lin", "Yan"], "opponents": ["Mei", "Jun", "Hao", "Wei"],
         "opponent_total": 0, "winner": "declarers", "levels_gained": {"Lin": 3, "Yan": 3},
         "levels": {"Mei": "2", "Jun": "2", "Lin": "6", "Hao": "2", "Wei": "2", "Yan": "6"},
         "next_declarers": ["Yan"], "next_declarer": "Yan",
         "game_over": False, "game_winners": []},
    ]  # fmt: skip


def test_a_fixed_rotation_lets_a_hand_omit_its_trump(capsys) -> None:
    without_trump = {key: value for key, value in a_hand("Mei").items() if key != "trump"}
    request = game(
        trumps=["S", "H"],
        hands=[without_trump, a_hand("Lin", trump="H"), without_trump],
    )
    played = answer(request, capsys)["hands"]
    assert [hand["next_declarers"] for hand in played] == [["Lin"], ["Mei"], ["Lin"]]


def test_a_won_game_names_its_winners_and_nobody_starts_next(capsys) -> None:
    request = game(
        rules="open-ladder",
        levels={"Jun": "Q", "Hao": "Q"},
        first_declarer="Mei",
        hands=[a_hand("Mei", 200, last_trick={"winner": "opponents", "format": "single"})],
    )
    result = listed(answer(request, capsys))
    assert result["hands"][0]["levels_gained"] == {"Jun": 3, "Hao": 3}
    assert {key: result[key] for key in STATE_KEYS} == {
        "levels": {"Mei": "2", "Jun": "A", "Lin": "2", "Hao": "A"},
        "next_declarers": [],
        "next_declarer": None,
        "game_over": True,
        "game_winners": ["Jun", "Hao"],
    }


def test_levels_gained_under_hold_at_ace_is_the_climb_cut_at_A(capsys) -> None:
    request = game(levels={"Mei": "K", "Lin": "K"}, hands=[a_hand("Mei", 0)])
    played = answer(request, capsys)["hands"][0]
    assert (played["levels_gained"], played["levels"]["Mei"], played["game_over"]) == (
        {"Mei": 1, "Lin": 1},
        "A",
        False,
    )


# Every table shape answers ---------------------------------------------------------------

SHAPES = [
    pytest.param(players, decks, teams, id=f"{players}-players-{decks}-decks-{teams}")
    for players in range(4, 9)
    for decks in (2, 3, 4)
    for teams in ("partners", "pairs", "find-a-friend")
    if not (teams == "partners" and players % 2)
    and not (teams == "pairs" and players not in (6, 8))
]


@pytest.mark.parametrize(("players", "decks", "teams"), SHAPES)
def test_every_table_shape_answers_with_its_own_deal(
    players: int, decks: int, teams: str, capsys
) -> None:
    each, kitty = deal(players, decks)
    full_kitty = a_hand(
        "Mei", 0, kitty_points=10 * kitty, last_trick={"winner": "declarers", "format": "single"}
    )
    request = {
        "players": NAMES[:players],
        "decks": decks,
        "teams": teams,
        "first_declarer": "Mei",
        "hands": [full_kitty],
    }
    played = answer(request, capsys)["hands"][0]
    declarers = {
        "partners": NAMES[:players:2],
        "pairs": ["Mei", NAMES[players // 2]],
        "find-a-friend": ["Mei"],
    }[teams]
    assert played["declarers"] == declarers
    assert played["opponents"] == [name for name in NAMES[:players] if name not in declarers]
    assert played["winner"] == "declarers"
    climbed = 4 if teams == "find-a-friend" else 3  # alone: one more for holding short-handed
    assert played["levels_gained"] == dict.fromkeys(declarers, climbed)

    overfull = {**full_kitty, "kitty_points": 10 * kitty + 5}
    assert refusal({**request, "hands": [overfull]}, capsys) == (
        f"hand 1: kitty_points must be a multiple of 5 from 0 to {10 * kitty}, got {10 * kitty + 5}"
    )
    longest = each + 1 + (each + 1) % 2  # the shortest tractor longer than a hand
    too_long = {**full_kitty, "last_trick": {"winner": "opponents", "format": "tractor"}}
    too_long["last_trick"]["cards"] = longest
    assert refusal({**request, "hands": [too_long]}, capsys) == (
        f"hand 1: last_trick: a last trick of {longest} cards per player "
        f"is more than a hand of {each} holds"
    )


# Bad input: exit 2, one line naming the hand and the field --------------------------------

FRIENDS = {"teams": "find-a-friend", "first_declarer": "Mei"}
BAD_GAMES = [
    pytest.param(game(hands=[a_hand("Zed")]),
                 'hand 1: declarer: "Zed" is not one of the players', id="unknown-declarer"),
    pytest.param(game(hands=[a_hand("Jun")]),
                 "hand 1: declarer: Jun cannot start this hand: Mei starts it",
                 id="not-the-first-declarer"),
    pytest.param(game(hands=[a_hand("Mei"), a_hand("Jun")]),
                 "hand 2: declarer: Jun cannot start this hand: Mei or Lin may start it",
                 id="wrong-declarer-under-a-bid"),
    pytest.param(game(rules="kawu", hands=[a_hand("Mei"), a_hand("Mei")]),
                 "hand 2: declarer: Mei cannot start this hand: Lin starts it",
                 id="wrong-declarer-under-a-rotation"),
    pytest.param(game(hands=[a_hand("Mei", friends=["Jun"])]),
                 "hand 1: friends: only find-a-friend hands have friends",
                 id="friends-under-partners"),
    pytest.param(game(**FRIENDS, hands=[a_hand("Mei", friends=["Jun", "Lin"])]),
                 "hand 1: friends: a declarer calls 1 card, so at most 1 found a friend, got 2",
                 id="too-many-friends"),
    pytest.param(game(**FRIENDS, called=2, hands=[a_hand("Mei", friends=["Jun", "Jun"])]),
                 "hand 1: friends: a friend is named twice", id="a-friend-twice"),
    pytest.param(game(**FRIENDS, hands=[a_hand("Mei", friends=["Zed"])]),
                 'hand 1: friends: "Zed" is not one of the players', id="unknown-friend"),
    pytest.param(game(**FRIENDS, hands=[a_hand("Mei", friends="Jun")]),
                 'hand 1: friends must be a list of players, got "Jun"', id="friends-not-a-list"),
    pytest.param(game(trumps=["S", "H"],
                      hands=[a_hand("Mei", trump="S"), a_hand("Lin", trump="S")]),
                 "hand 2: trump: this hand's trump is H, not S",
                 id="trump-other-than-the-rotation"),
    pytest.param(game(trumps="no-trump", hands=[a_hand("Mei", trump="H")]),
                 "hand 1: trump: this hand's trump is none, not H", id="trump-under-no-trump"),
    pytest.param(game(hands=[{key: value for key, value in a_hand("Mei").items()
                              if key != "trump"}]),
                 "hand 1: 'trump' is missing", id="trump-missing-under-a-bid"),
    pytest.param(game(hands=[a_hand("Mei", trump="X")]),
                 'hand 1: trump must be S, H, D, C or null (no trump), got "X"', id="bad-trump"),
    pytest.param(game(rules="kawu", first_declarer=None),
                 "first_declarer is missing: nobody bids for the first hand",
                 id="no-first-declarer-under-a-rotation"),
    pytest.param(game(trumps=["S"], first_declarer=None),
                 "first_declarer is missing: nobody bids for the first hand",
                 id="no-first-declarer-under-a-fixed-trump"),
    pytest.param(game(first_declarer="Zed"),
                 'first_declarer: "Zed" is not one of the players', id="unknown-first-declarer"),
    pytest.param(game(levels={"Mei": "A", "Lin": "A"}, hands=[a_hand("Mei"), a_hand("Lin")]),
                 "hand 2: the game is over: Mei and Lin won it", id="a-hand-after-the-end"),
    pytest.param(game(players=NAMES[:5]),
                 "partners need an even number of players (4, 6 or 8), got 5",
                 id="5-players-as-partners"),
    pytest.param(game(teams="pairs"), "pairs need 6 or 8 players, got 4", id="4-players-as-pairs"),
    pytest.param(game(players=NAMES[:3], teams="find-a-friend"),
                 "a table has 4 to 8 players, got 3", id="3-players"),
    pytest.param(game(players=[*NAMES, "Ding"], teams="find-a-friend"),
                 "a table has 4 to 8 players, got 9", id="9-players"),
    pytest.param(game(players=["Mei", "Jun", "Mei", "Hao"]), "Mei sits at the table twice",
                 id="a-player-twice"),
    pytest.param(game(players="Mei Jun Lin Hao"),
                 "players must be a list of names, got 'Mei Jun Lin Hao'", id="players-not-a-list"),
    pytest.param(game(teams="trio"),
                 "teams must be partners, pairs or find-a-friend, got 'trio'", id="unknown-teams"),
    pytest.param(game(trumps=["S", "S"]),
                 "trumps must be \"bid\", \"no-trump\" or a list of 1 to 4 different suits, "
                 "got ['S', 'S']", id="a-rotation-repeating-a-suit"),
    pytest.param(game(teams="find-a-friend", called=3),
                 "a declarer calls 1 or 2 cards, got 3", id="3-called-cards"),
    pytest.param(game(called=1), "only find-a-friend declarers call cards",
                 id="called-cards-under-partners"),
    pytest.param(game(levels={"Zed": "5"}), 'levels: "Zed" is not one of the players',
                 id="level-of-an-unknown-player"),
    pytest.param(game(levels={"Mei": "5"}),
                 "levels: Mei and Lin are a team and share one level", id="team-at-two-levels"),
    pytest.param(game(levels={"Mei": "1", "Lin": "1"}),
                 'levels.Mei must be a level from 2 to A, got "1"', id="level-1"),
    pytest.param(game(decks=5), "decks must be 2, 3 or 4, got 5", id="5-decks"),
    pytest.param(game(hands=[a_hand("Mei"), a_hand("Lin", 203)]),
                 "hand 2: opponent_points must be a multiple of 5 from 0 to 200, got 203",
                 id="points-of-hand-2"),
    pytest.param(game(hands=[a_hand("Mei", taken_back={"declarers": 1})]),
                 "hand 1: taken_back: the standard rules allow no throws, "
                 "so no throw was taken back",
                 id="taken-back-without-throws"),
    pytest.param(game(hands="all of them"),
                 'hands must be a list of hands, got "all of them"', id="hands-not-a-list"),
    pytest.param(game(hands=[a_hand("Mei"), 7]),
                 "hand 2: the hand must be a JSON object, got 7", id="hand-not-an-object"),
    pytest.param(game(rules="bridge"),
                 "unknown rules 'bridge': the presets are standard, open-ladder, kawu, simplified",
                 id="unknown-rules"),
    pytest.param(["Mei"], 'the request must be a JSON object, got ["Mei"]', id="not-an-object"),
]  # fmt: skip


@pytest.mark.parametrize(("request_data", "message"), BAD_GAMES)
def test_bad_input_exits_2_with_one_line_naming_the_problem(
    request_data: object, message: str, capsys
) -> None:
    assert refusal(request_data, capsys) == message


@pytest.mark.parametrize(
    ("request_data", "message"), [BAD_GAMES[2], BAD_GAMES[9], BAD_GAMES[16], BAD_GAMES[17]]
)
def test_a_player_running_it_sees_the_same_one_line_and_no_traceback(
    request_data: object, message: str
) -> None:
    result = run_game(stdin=json.dumps(request_data))
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message + "\n")


def test_the_first_bad_hand_is_the_one_named() -> None:
    request = game(hands=[a_hand("Mei"), a_hand("Jun"), a_hand("Zed", 203)])
    with pytest.raises(ValueError, match=r"^hand 2: declarer: Jun cannot start this hand"):
        game_request(request)
