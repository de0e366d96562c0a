"""The history's statistics, each computed by hand on three small games and compared.

The cast: Ann, Bo, Cy, Di and Ed. The games, with what each hand does:

Game 1, standard, North–South (Ann, Cy) from Q, East–West (Bo, Di) from 2; North–South win:
  1. N declares at Q, opponents 0: North–South climb 3, stopping at A (a big win)
  2. S declares at A, opponents 80: East–West take the deal (Ann and Cy lose it by 5)
  3. E declares at 2, opponents 30 + kitty 10 × 2 = 50: East–West climb 1 (a scoop of 20)
  4. W declares at 3, opponents 75: East–West climb 1 (Ann and Cy stop 5 short)
  5. W declares at 4, opponents 120: North–South take the deal
  6. N declares at A, opponents 40: North–South hold at A and win

Game 2, standard, North–South (Ann, Bo) from 2, East–West (Cy, Di) from K; East–West win:
  1. E declares at K, opponents 0: East–West climb to A
  2. W declares at A, opponents 80: North–South take the deal
  3. N declares at 2, opponents 100 + kitty 20 × 2 = 140: East–West take it back (scoop of 40)
  4. E declares at A, opponents 35: East–West hold at A and win

Game 3, kawu, North–South (Ed, Di), East–West (Ann, Bo), both from 2; unfinished:
  1. E declares at 2, opponents 45: East–West climb 1
  2. W declares at 3, opponents 120: North–South take the deal and climb 1
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

import pytest

from scoring import Format, LastTrick, Rank, Side, get_rules
from scoring.game import GameSetup, HandResult, Seat, Team, TeamLevels, replay
from scoring.stats import (
    GameRecord,
    HandLine,
    Matchup,
    Tally,
    opponent_totals,
    partial_replay,
    player_stats,
    standings,
    take_over_total,
)

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
SCOOPED = LastTrick(Side.OPPONENTS, Format.SINGLE, 1)


def hand(declarer: Seat, points: int, kitty: int = 0, last: LastTrick = HELD) -> HandResult:
    return HandResult(declarer, points, kitty, last)


GAME_1 = (
    GameSetup(get_rules("standard"), TeamLevels(Rank.QUEEN, Rank.TWO)),
    {N: "Ann", E: "Bo", S: "Cy", W: "Di"},
    [hand(N, 0), hand(S, 80), hand(E, 30, 10, SCOOPED), hand(W, 75), hand(W, 120), hand(N, 40)],
)
GAME_2 = (
    GameSetup(get_rules("standard"), TeamLevels(Rank.TWO, Rank.KING)),
    {N: "Ann", E: "Cy", S: "Bo", W: "Di"},
    [hand(E, 0), hand(W, 80), hand(N, 100, 20, SCOOPED), hand(E, 35)],
)
GAME_3 = (
    GameSetup(get_rules("kawu")),
    {N: "Ed", E: "Ann", S: "Di", W: "Bo"},
    [hand(E, 45), hand(W, 120)],
)


def record(number: int, game) -> GameRecord:
    setup, seats, results = game
    return GameRecord.of(number, replay(setup, results), seats, datetime(2025, 1, number))


@pytest.fixture
def history() -> list[GameRecord]:
    return [record(1, GAME_1), record(2, GAME_2), record(3, GAME_3)]


def test_a_record_keeps_each_hand_and_the_result(history):
    first, second, third = history

    assert first.winner is Team.NORTH_SOUTH
    assert second.winner is Team.EAST_WEST
    assert third.winner is None and not third.finished
    assert [hand.opponent_total for hand in first.hands] == [0, 80, 50, 75, 120, 40]
    assert [hand.kitty_bonus for hand in first.hands] == [0, 0, 20, 0, 0, 0]
    assert [hand.held for hand in first.hands] == [True, False, True, True, False, True]
    assert [str(hand.level) for hand in first.hands] == ["Q", "A", "2", "3", "4", "A"]
    assert [(str(ns), str(ew)) for ns, ew in first.race] == [
        ("Q", "2"),
        ("A", "2"),
        ("A", "2"),
        ("A", "3"),
        ("A", "4"),
        ("A", "4"),
        ("A", "4"),
    ]
    assert third.levels == TeamLevels(Rank.THREE, Rank.THREE)
    assert first.seat_of("Cy") is S and first.seat_of("Ed") is None
    assert first.players(Team.EAST_WEST) == ("Bo", "Di")


def test_a_record_reads_back_its_hands_from_their_json(history):
    setup, seats, _results = GAME_1
    first = history[0]

    again = GameRecord.with_hands_json(1, setup, seats, first.hands_json(), "NS", first.played)

    assert again == first
    assert first.hands_json()[2] == ["E", "2", 50, 20, "declarers", "A", "3"]
    assert HandLine.from_json(first.hands_json()[0]) == first.hands[0]


def test_ann_wins_one_of_her_two_finished_games(history):
    stats = player_stats(history, "Ann")

    assert (stats.games, stats.finished, stats.wins) == (3, 2, 1)
    assert stats.win_rate == 0.5
    assert stats.hands == 12


def test_ann_holds_three_of_the_six_hands_her_team_declares(history):
    stats = player_stats(history, "Ann")

    # Declared: game 1 hands 1, 2, 6; game 2 hand 3; game 3 hands 1 and 2.
    assert stats.declared == Tally(count=6, hits=3, points=0 + 80 + 40 + 140 + 45 + 120)
    assert stats.declared.rate == 0.5
    assert stats.declared.average == pytest.approx(425 / 6)


def test_the_hold_rate_per_level_shows_ann_stuck_once_at_ace(history):
    stats = player_stats(history, "Ann")

    assert stats.by_level == (
        (Rank.TWO, Tally(2, 1)),
        (Rank.THREE, Tally(1, 0)),
        (Rank.QUEEN, Tally(1, 1)),
        (Rank.ACE, Tally(2, 1)),
    )
    assert stats.at_ace == Tally(2, 1)
    assert stats.stuck_at_ace == 1


def test_ann_takes_the_deal_in_two_of_the_six_hands_she_defends(history):
    stats = player_stats(history, "Ann")

    # Defended: game 1 hands 3, 4, 5; game 2 hands 1, 2, 4.
    assert stats.defended == Tally(count=6, hits=2, points=50 + 75 + 120 + 0 + 80 + 35)
    assert stats.defended.rate == pytest.approx(1 / 3)
    assert stats.defended.average == 60


def test_kitty_scoops_made_and_suffered(history):
    ann = player_stats(history, "Ann")
    di = player_stats(history, "Di")

    assert (ann.scoops.hits, ann.scoops.points) == (1, 20)  # game 1 hand 3
    assert (ann.scooped.hits, ann.scooped.points) == (1, 40)  # game 2 hand 3
    assert (di.scoops.hits, di.scoops.points) == (1, 40)
    assert (di.scooped.hits, di.scooped.points) == (1, 20)


def test_big_wins_and_shut_outs(history):
    ann = player_stats(history, "Ann")
    cy = player_stats(history, "Cy")

    assert (ann.big_wins, ann.shut_out) == (1, 1)
    assert (cy.big_wins, cy.shut_out) == (2, 0)


def test_near_misses_lose_by_five_at_the_take_over_line(history):
    ann = player_stats(history, "Ann")
    bo = player_stats(history, "Bo")

    # Ann's team lost the deal at 80 (game 1 hand 2) and stopped at 75 (game 1 hand 4).
    assert (ann.near_misses_declaring, ann.near_misses_defending) == (1, 1)
    # Bo declared game 1 hand 4 (held the opponents to 75) and defended game 2 hand 2 (their
    # team took the deal at 80): neither is Bo's near miss.
    assert (bo.near_misses_declaring, bo.near_misses_defending) == (0, 0)


@pytest.mark.parametrize(("rules", "line"), [("standard", 80), ("kawu", 80), ("simplified", 80)])
def test_the_take_over_line_is_the_first_opponents_band(rules, line):
    assert take_over_total(get_rules(rules)) == line


def test_a_table_with_another_line_moves_the_near_misses():
    rules = get_rules(
        {
            "name": "generous",
            "bands": [
                {"from": 0, "to": 95, "winner": "declarers", "levels": 1},
                {"from": 100, "to": None, "winner": "opponents", "levels": 0},
            ],
        }
    )
    game = replay(GameSetup(rules), [hand(N, 100), hand(E, 95)])
    stats = player_stats([GameRecord.of(1, game, dict(zip(Seat, "ABCD", strict=True)))], "A")

    assert take_over_total(rules) == 100
    assert (stats.near_misses_declaring, stats.near_misses_defending) == (1, 1)


def test_partners_and_opponents_count_finished_games(history):
    stats = player_stats(history, "Ann")

    assert stats.partners == (Matchup("Cy", 1, 1), Matchup("Bo", 1, 0))
    assert stats.opponents == (Matchup("Bo", 1, 1), Matchup("Di", 2, 1), Matchup("Cy", 1, 0))
    assert stats.best_partner == Matchup("Cy", 1, 1)
    assert stats.worst_partner == Matchup("Bo", 1, 0)
    assert stats.toughest_opponent == Matchup("Cy", 1, 0)


def test_one_partner_is_no_worst_partner_and_no_game_no_best():
    game = replay(*GAME_1[::2])
    alone = player_stats([GameRecord.of(1, game, GAME_1[1])], "Ann")
    nobody = player_stats([], "Ann")

    assert alone.best_partner == Matchup("Cy", 1, 1)
    assert alone.worst_partner is None
    assert nobody.best_partner is nobody.toughest_opponent is None
    assert nobody.win_rate is None and nobody.declared.rate is None
    assert nobody.declared.average is None


def test_a_player_who_never_played_has_empty_stats(history):
    stats = player_stats(history, "Zoe")

    assert (stats.games, stats.hands, stats.by_level, stats.partners) == (0, 0, (), ())


def test_the_totals_a_player_saw(history):
    stats = player_stats(history, "Ed")

    assert stats.totals == Counter({45: 1, 120: 1})


def test_standings_count_games_finished_games_and_wins(history):
    table = standings(history)

    assert [(s.player, s.games, s.finished, s.wins) for s in table.values()] == [
        ("Ann", 3, 2, 1),
        ("Bo", 3, 2, 0),
        ("Cy", 2, 2, 2),
        ("Di", 3, 2, 1),
        ("Ed", 1, 0, 0),
    ]
    assert table["Cy"].win_rate == 1
    assert table["Ed"].win_rate is None


def test_the_opponents_totals_per_rules_most_played_first(history):
    (standard, standard_totals), (kawu, kawu_totals) = opponent_totals(history)

    assert (standard.name, kawu.name) == ("standard", "kawu")
    assert standard_totals == Counter({0: 2, 80: 2, 50: 1, 75: 1, 120: 1, 40: 1, 140: 1, 35: 1})
    assert kawu_totals == Counter({45: 1, 120: 1})


def test_the_same_hands_replay_fully_under_simplified_rules():
    setup, _seats, results = GAME_1

    partial = partial_replay(GameSetup(get_rules("simplified"), setup.levels), results)

    assert partial.error is None and partial.stopped is None
    assert [str(ns) for ns, _ew in (hand.after.levels for hand in partial.game.hands)] == [
        "K",
        "K",
        "K",
        "K",
        "A",
        "A",
    ]
    assert partial.game.state.winner is Team.NORTH_SOUTH


def test_a_replay_stops_where_the_rotation_names_another_starter():
    setup, _seats, results = GAME_1

    partial = partial_replay(GameSetup(get_rules("kawu"), setup.levels), results)

    assert partial.stopped == 5
    assert len(partial.game.hands) == 4
    assert str(partial.error) == "hand 5: W cannot declare: E starts this hand"


def test_a_replay_stops_where_the_game_ended_earlier():
    setup, _seats, results = GAME_2

    partial = partial_replay(GameSetup(get_rules("open-ladder"), setup.levels), results)

    assert partial.game.state.winner is Team.EAST_WEST
    assert partial.stopped == 2
    assert str(partial.error) == "hand 2: the game is over: EW won it"


def test_a_replay_stops_at_a_last_trick_the_rules_do_not_allow():
    throw = LastTrick(Side.OPPONENTS, Format.THROW, 3)
    results = [hand(N, 45), hand(S, 60, 10, throw)]

    partial = partial_replay(GameSetup(get_rules("standard")), results)

    assert partial.stopped == 2
    assert "the standard rules allow no throws" in str(partial.error)


def test_a_rotation_may_give_a_hand_to_the_declarers_partner():
    setup, _seats, results = GAME_1
    kawu = GameSetup(get_rules("kawu"), setup.levels)

    partial = partial_replay(kawu, results, swap_partners=True)

    assert partial.error is None
    assert partial.swapped == (5,)
    assert partial.game.hands[4].result.declarer is E
    assert partial.game.state.winner is Team.NORTH_SOUTH


def test_swapping_partners_never_gives_a_hand_to_the_other_team():
    setup, _seats, results = GAME_2
    kawu = GameSetup(get_rules("kawu"), setup.levels)

    partial = partial_replay(kawu, [*results[:1], hand(N, 80)], swap_partners=True)

    assert partial.stopped == 2
    assert str(partial.error) == "hand 2: N cannot declare: W starts this hand"
