"""The history's statistics, each computed by hand on small games and compared.

The cast: Ann, Bo, Cy, Di, Ed and Fay. Seats are numbered in play order. The fixed-team games,
with what each hand does:

Game 1, standard, Ann (0) and Cy (2) from Q against Bo (1) and Di (3) from 2; Ann and Cy win:
  1. Ann declares at Q, opponents 0: Ann and Cy climb 3, stopping at A (a big win)
  2. Cy declares at A, opponents 80: Bo and Di take the deal (Ann and Cy lose it by 5)
  3. Bo declares at 2, opponents 30 + kitty 10 × 2 = 50: Bo and Di climb 1 (a scoop of 20)
  4. Di declares at 3, opponents 75: Bo and Di climb 1 (Ann and Cy stop 5 short)
  5. Di declares at 4, opponents 120: Ann and Cy take the deal
  6. Ann declares at A, opponents 40: Ann and Cy hold at A and win

Game 2, standard, Ann (0) and Bo (2) from 2 against Cy (1) and Di (3) from K; Cy and Di win:
  1. Cy declares at K, opponents 0: Cy and Di climb to A
  2. Di declares at A, opponents 80: Ann and Bo take the deal
  3. Ann declares at 2, opponents 100 + kitty 20 × 2 = 140: Cy and Di take it back (scoop of 40)
  4. Cy declares at A, opponents 35: Cy and Di hold at A and win

Game 3, kawu, Ed (0) and Di (2) against Ann (1) and Bo (3), both from 2, Ann starts; unfinished:
  1. Ann declares at 2, opponents 45: Ann and Bo climb 1
  2. Bo declares at 3, opponents 120: Ed and Di take the deal and climb 1

The find-a-friend games, five players (Ann 0, Bo 1, Cy 2, Di 3, Ed 4), two decks, one card
called:

Game 4, standard, everyone from 2; unfinished:
  1. Ann declares at 2 and Cy plays the called card; opponents 40: Ann and Cy climb 1
  2. Cy declares at 3 and nobody plays the card; opponents 35: Cy alone climbs 2 + 1 to 6
  3. Cy declares at 6 and Bo is found; opponents 80: Ann, Di and Ed take the deal
  4. Di declares at 2 and plays the card herself; opponents 0: Di alone climbs 3 + 1 to 6

Game 5, standard, Ann from A, the others from 2; Ann wins alone:
  1. Ann declares at A and nobody plays the card; opponents 40: Ann holds at A and wins

Game 6, pairs, six players with three decks (Ann 0 and Di 3, Bo 1 and Ed 4, Cy 2 and Fay 5),
Ann and Di from A; they win:
  1. Ann declares at A, opponents 115 (of 300): Ann and Di hold at A and win (Bo, Ed, Cy and Fay
     stop 5 short of 120, the line with three decks)
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

import pytest

from companion.ratings import MODEL, leaderboard, replay_ratings
from scoring import Format, LastTrick, Rank, Side, get_rules
from scoring.game import GameSetup, HandResult, replay
from scoring.stats import (
    GameRecord,
    HandLine,
    Matchup,
    PlayerStats,
    Tally,
    every_player_stats,
    game_stats,
    opponent_totals,
    partial_replay,
    player_stats,
    standings,
    take_over_total,
)
from scoring.table import Table, Teams

HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
SCOOPED = LastTrick(Side.OPPONENTS, Format.SINGLE, 1)
Q, K, A, TWO = Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO
FIVE = ("Ann", "Bo", "Cy", "Di", "Ed")


def hand(
    declarer: int,
    points: int,
    kitty: int = 0,
    last: LastTrick = HELD,
    friends: tuple[int, ...] = (),
) -> HandResult:
    return HandResult(declarer, points, kitty, last, friends=friends)


def setup(rules: str, players, levels=(), first=None, **table) -> GameSetup:
    return GameSetup(get_rules(rules), Table(tuple(players), **table), tuple(levels), first)


GAME_1 = (
    setup("standard", ("Ann", "Bo", "Cy", "Di"), (Q, TWO, Q, TWO)),
    [hand(0, 0), hand(2, 80), hand(1, 30, 10, SCOOPED), hand(3, 75), hand(3, 120), hand(0, 40)],
)
GAME_2 = (
    setup("standard", ("Ann", "Cy", "Bo", "Di"), (TWO, K, TWO, K)),
    [hand(1, 0), hand(3, 80), hand(0, 100, 20, SCOOPED), hand(1, 35)],
)
GAME_3 = (
    setup("kawu", ("Ed", "Ann", "Di", "Bo"), first=1),
    [hand(1, 45), hand(3, 120)],
)
GAME_4 = (
    setup("standard", FIVE, teams=Teams.FIND_A_FRIEND),
    [
        hand(0, 40, friends=(2,)),
        hand(2, 35),
        hand(2, 80, friends=(1,)),
        hand(3, 0, friends=(3,)),
    ],
)
GAME_5 = (
    setup("standard", FIVE, (A, TWO, TWO, TWO, TWO), teams=Teams.FIND_A_FRIEND),
    [hand(0, 40)],
)
GAME_6 = (
    setup(
        "standard",
        ("Ann", "Bo", "Cy", "Di", "Ed", "Fay"),
        (A, TWO, TWO, A, TWO, TWO),
        decks=3,
        teams=Teams.PAIRS,
    ),
    [hand(0, 115)],
)


def record(number: int, game) -> GameRecord:
    game_setup, results = game
    scored = replay(game_setup, results)
    return GameRecord.of(number, scored, game_setup.table.players, datetime(2025, 1, number))


@pytest.fixture
def history() -> list[GameRecord]:
    """The fixed-team games of four."""
    return [record(1, GAME_1), record(2, GAME_2), record(3, GAME_3)]


@pytest.fixture
def friendly() -> list[GameRecord]:
    """The find-a-friend games of five."""
    return [record(4, GAME_4), record(5, GAME_5)]


def symbols(levels) -> str:
    return "".join(level.symbol for level in levels)


def test_a_record_keeps_each_hand_and_the_result(history):
    first, second, third = history

    assert first.winners == (0, 2) and first.players(first.winners) == ("Ann", "Cy")
    assert second.winners == (1, 3)
    assert third.winners == () and not third.finished
    assert first.teams == ((0, 2), (1, 3))
    assert [hand.opponent_total for hand in first.hands] == [0, 80, 50, 75, 120, 40]
    assert [hand.kitty_bonus for hand in first.hands] == [0, 0, 20, 0, 0, 0]
    assert [hand.held for hand in first.hands] == [True, False, True, True, False, True]
    assert [str(hand.level) for hand in first.hands] == ["Q", "A", "2", "3", "4", "A"]
    ann_cy, bo_di = (0, 2), (1, 3)
    assert [hand.declarers for hand in first.hands] == [ann_cy, ann_cy, bo_di, bo_di, bo_di, ann_cy]
    assert [symbols(levels) for levels in first.race] == [
        "Q2Q2",
        "A2A2",
        "A2A2",
        "A3A3",
        "A4A4",
        "A4A4",
        "A4A4",
    ]
    assert symbols(third.levels) == "3333"
    assert first.seat_of("Cy") == 2 and first.seat_of("Ed") is None
    assert first.team_of(3) == (1, 3)
    assert first.won(2) and not first.won(1)


def test_a_find_a_friend_record_keeps_each_sides_seats_and_every_players_level(friendly):
    game, won = friendly

    assert game.teams == ()
    assert [(hand.declarer, hand.declarers) for hand in game.hands] == [
        (0, (0, 2)),
        (2, (2,)),
        (2, (1, 2)),
        (3, (3,)),
    ]
    assert [symbols(levels) for levels in game.race] == [
        "22222",
        "32322",
        "32622",
        "32622",
        "32662",
    ]
    assert game.team_of(3) == (3,)
    assert won.winners == (0,) and won.players(won.winners) == ("Ann",)


@pytest.mark.parametrize(("number", "game"), [(1, GAME_1), (4, GAME_4), (6, GAME_6)])
def test_a_record_reads_back_its_hands_from_their_json(number, game):
    kept = record(number, game)
    game_setup, _results = game

    again = GameRecord.with_hands_json(
        number,
        game_setup,
        game_setup.table.players,
        kept.hands_json(),
        GameRecord.winners_json(kept.winners),
        kept.played,
    )

    assert again == kept


def test_a_records_json_is_compact(history, friendly):
    assert history[0].hands_json()[2] == [1, "13", "2", 50, 20, "declarers", "A3A3"]
    assert friendly[0].hands_json()[2] == [2, "12", "6", 80, 0, "opponents", "32622"]
    assert GameRecord.winners_json(history[0].winners) == "02"
    assert HandLine.from_json(history[0].hands_json()[0]) == history[0].hands[0]


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


@pytest.mark.parametrize(
    ("rules", "decks", "line"),
    [("standard", 2, 80), ("kawu", 2, 80), ("simplified", 2, 80), ("standard", 3, 120)],
)
def test_the_take_over_line_is_the_first_opponents_band(rules, decks, line):
    assert take_over_total(get_rules(rules), decks) == line


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
    game = replay(GameSetup(rules, Table(tuple("ABCD"))), [hand(0, 100), hand(1, 95)])
    stats = player_stats([GameRecord.of(1, game, "ABCD")], "A")

    assert take_over_total(rules) == 100
    assert (stats.near_misses_declaring, stats.near_misses_defending) == (1, 1)


def test_three_decks_move_the_near_miss_line_to_120():
    pairs = [record(6, GAME_6)]

    assert player_stats(pairs, "Bo").near_misses_defending == 1
    assert player_stats(pairs, "Ann").near_misses_declaring == 0


def test_partners_and_opponents_count_finished_games(history):
    stats = player_stats(history, "Ann")

    # In the order of the players' identities, however the games were counted.
    assert stats.partners == (Matchup("Bo", 1, 0), Matchup("Cy", 1, 1))
    assert stats.opponents == (Matchup("Bo", 1, 1), Matchup("Cy", 1, 0), Matchup("Di", 2, 1))
    assert stats.best_partner == Matchup("Cy", 1, 1)
    assert stats.worst_partner == Matchup("Bo", 1, 0)
    assert stats.toughest_opponent == Matchup("Cy", 1, 0)


def test_one_partner_is_no_worst_partner_and_no_game_no_best(history):
    alone = player_stats(history[:1], "Ann")
    nobody = player_stats([], "Ann")

    assert alone.best_partner == Matchup("Cy", 1, 1)
    assert alone.worst_partner is None
    assert nobody.best_partner is nobody.toughest_opponent is None
    assert nobody.win_rate is None and nobody.declared.rate is None
    assert nobody.declared.average is None


def test_a_pair_is_partners_and_every_other_team_the_opponents():
    stats = player_stats([record(6, GAME_6)], "Ann")

    assert stats.partners == (Matchup("Di", 1, 1),)
    assert [m.player for m in stats.opponents] == ["Bo", "Cy", "Ed", "Fay"]
    assert stats.wins == 1


def test_a_find_a_friend_player_has_no_partners_and_everyone_else_against_them(friendly):
    ann = player_stats(friendly, "Ann")
    bo = player_stats(friendly, "Bo")

    assert ann.partners == () and ann.best_partner is None
    assert ann.opponents == tuple(Matchup(name, 1, 1) for name in ("Bo", "Cy", "Di", "Ed"))
    assert (ann.finished, ann.wins) == (1, 1)
    assert bo.opponents == tuple(Matchup(name, 1, 0) for name in ("Ann", "Cy", "Di", "Ed"))


def test_find_a_friend_splits_the_hold_rate_into_started_and_befriended(friendly):
    ann, bo, cy, di, ed = (player_stats(friendly, name) for name in FIVE)

    assert (cy.started, cy.befriended) == (Tally(2, 1), Tally(1, 1))
    assert cy.declared == Tally(3, 2, 40 + 35 + 80)
    assert (ann.started, ann.befriended) == (Tally(2, 2), Tally(0, 0))
    assert (bo.started, bo.befriended) == (Tally(0, 0), Tally(1, 0))
    assert (di.started, di.befriended) == (Tally(1, 1), Tally(0, 0))
    assert ed.declared == Tally()


def test_find_a_friend_counts_how_often_a_called_card_found_each_player(friendly):
    ann, bo, cy, di, ed = (player_stats(friendly, name) for name in FIVE)

    # Of the hands someone else started: Cy was found once of 3, Bo once of 5, Ann never.
    assert cy.called == Tally(3, 1)
    assert bo.called == Tally(5, 1)
    assert ann.called == Tally(3, 0)
    assert di.called == Tally(4, 0)
    assert ed.called == Tally(5, 0)


def test_a_declarer_who_plays_the_called_card_is_no_friend_of_her_own(friendly):
    di = player_stats(friendly, "Di")

    assert di.befriended == Tally(0, 0)
    assert di.big_wins == 1


def test_fixed_teams_count_no_find_a_friend_hands(history):
    stats = player_stats(history, "Ann")

    assert stats.started == stats.befriended == stats.called == Tally()


def test_a_player_who_never_played_has_empty_stats(history):
    stats = player_stats(history, "Zoe")

    assert (stats.games, stats.hands, stats.by_level, stats.partners) == (0, 0, (), ())


def test_the_totals_a_player_saw(history):
    stats = player_stats(history, "Ed")

    assert stats.totals == Counter({45: 1, 120: 1})


def test_standings_count_games_finished_games_and_wins(history, friendly):
    table = standings(history + friendly)

    assert [(s.player, s.games, s.finished, s.wins) for s in table.values()] == [
        ("Ann", 5, 3, 2),
        ("Bo", 5, 3, 0),
        ("Cy", 4, 3, 2),
        ("Di", 5, 3, 1),
        ("Ed", 3, 1, 0),
    ]
    assert table["Cy"].win_rate == pytest.approx(2 / 3)
    assert table["Ed"].win_rate == 0


def test_the_opponents_totals_per_rules_and_decks_most_played_first(history):
    pairs = record(6, GAME_6)

    (standard, two, standard_totals), (kawu, _, kawu_totals), (three_decks, three, totals) = (
        opponent_totals([*history, pairs])
    )

    assert (standard.name, kawu.name, three_decks.name) == ("standard", "kawu", "standard")
    assert (two, three) == (2, 3)
    assert standard_totals == Counter({0: 2, 80: 2, 50: 1, 75: 1, 120: 1, 40: 1, 140: 1, 35: 1})
    assert kawu_totals == Counter({45: 1, 120: 1})
    assert totals == Counter({115: 1})


def test_ratings_rate_fixed_teams_against_each_other(history):
    ann, cy, bo, di = (MODEL.rating() for _ in range(4))
    [[ann, cy], [bo, di]] = MODEL.rate([[ann, cy], [bo, di]], ranks=[0, 1])

    ratings = replay_ratings(history[:1])

    assert ratings["Ann"][-1].mu == pytest.approx(ann.mu)
    assert ratings["Di"][-1].sigma == pytest.approx(di.sigma)
    assert [point.won for point in ratings["Cy"]] == [True]


def test_ratings_rate_a_lone_find_a_friend_winner_against_the_other_four(friendly):
    ann, *others = (MODEL.rating() for _ in FIVE)
    [[ann], others] = MODEL.rate([[ann], others], ranks=[0, 1])

    ratings = replay_ratings(friendly)

    assert ratings["Ann"][-1].mu == pytest.approx(ann.mu)
    assert ratings["Ed"][-1].mu == pytest.approx(others[3].mu)
    assert [point.game for point in ratings["Ann"]] == [5]  # game 4 is unfinished
    assert leaderboard(ratings)[0][0] == "Ann"


def test_ratings_rate_every_pair_of_six_the_winners_first_and_the_rest_tied():
    ratings = replay_ratings([record(6, GAME_6)])
    pairs = [[MODEL.rating(), MODEL.rating()] for _ in range(3)]
    (ann, _di), _bo_ed, (_cy, fay) = MODEL.rate(pairs, ranks=[0, 1, 1])

    assert ratings["Di"][-1].mu == pytest.approx(ann.mu)
    assert ratings["Fay"][-1].mu == pytest.approx(fay.mu)
    assert ratings["Bo"][-1].mu == pytest.approx(ratings["Cy"][-1].mu)


def test_the_same_hands_replay_fully_under_simplified_rules():
    game_setup, results = GAME_1
    simplified = GameSetup(get_rules("simplified"), game_setup.table, game_setup.levels)

    partial = partial_replay(simplified, results)

    assert partial.error is None and partial.stopped is None
    assert [hand.after.levels[0].symbol for hand in partial.game.hands] == list("KKKKAA")
    assert partial.game.state.winners == (0, 2)


def test_a_replay_stops_where_the_rotation_names_another_starter():
    game_setup, results = GAME_1
    kawu = GameSetup(get_rules("kawu"), game_setup.table, game_setup.levels, first_declarer=0)

    partial = partial_replay(kawu, results)

    # Cy, then Di: Bo cannot start hand 3.
    assert partial.stopped == 3
    assert str(partial.error) == "hand 3: Bo cannot start this hand: Di starts it"


def test_a_replay_stops_where_the_game_ended_earlier():
    game_setup, results = GAME_2
    ladder = GameSetup(get_rules("open-ladder"), game_setup.table, game_setup.levels, 1)

    partial = partial_replay(ladder, results)

    assert partial.game.state.winners == (1, 3)
    assert partial.stopped == 2
    assert str(partial.error) == "hand 2: the game is over: Cy and Di won it"


def test_a_replay_stops_at_a_last_trick_the_rules_do_not_allow():
    throw = LastTrick(Side.OPPONENTS, Format.THROW, 3)
    game_setup, _results = GAME_1

    partial = partial_replay(game_setup, [hand(0, 45), hand(2, 60, 10, throw)])

    assert partial.stopped == 2
    assert "the standard rules allow no throws" in str(partial.error)


def test_a_rotation_may_give_a_hand_to_the_declarers_partner():
    game_setup, results = GAME_1
    kawu = GameSetup(get_rules("kawu"), game_setup.table, game_setup.levels, first_declarer=0)

    partial = partial_replay(kawu, results, swap_partners=True)

    assert partial.error is None
    assert partial.swapped == (3, 4)
    assert [hand.result.declarer for hand in partial.game.hands] == [0, 2, 3, 1, 3, 0]
    assert partial.game.state.winners == (0, 2)


def test_swapping_partners_never_gives_a_hand_to_the_other_team():
    game_setup, results = GAME_2
    kawu = GameSetup(get_rules("kawu"), game_setup.table, game_setup.levels, first_declarer=1)

    partial = partial_replay(kawu, [*results[:1], hand(0, 80)], swap_partners=True)

    assert partial.stopped == 2
    assert str(partial.error) == "hand 2: Ann cannot start this hand: Di starts it"


def test_the_same_hands_with_three_decks_end_sooner():
    game_setup, results = GAME_1
    three = GameSetup(game_setup.rules, Table(game_setup.table.players, decks=3), game_setup.levels)

    partial = partial_replay(three, results)

    # 80 of 300 is a hold: Ann and Cy hold at A in hand 2 and win.
    assert partial.game.state.winners == (0, 2)
    assert partial.stopped == 3
    assert str(partial.error) == "hand 3: the game is over: Ann and Cy won it"


def test_points_of_three_decks_stop_a_replay_with_two():
    pairs_setup, _results = GAME_6
    table = Table(pairs_setup.table.players, decks=2, teams=Teams.PAIRS)
    two = GameSetup(pairs_setup.rules, table, pairs_setup.levels)

    partial = partial_replay(two, [hand(0, 250)])

    assert partial.stopped == 1
    assert "opponent_points must be a multiple of 5 from 0 to 200, got 250" in str(partial.error)


@pytest.mark.parametrize("player", ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"])
def test_a_players_numbers_are_the_sum_of_their_games_shares(history, friendly, player):
    games = [*history, *friendly, record(6, GAME_6)]
    shares = [game_stats(game)[player] for game in games if player in game.seats]

    assert PlayerStats.sum(player, shares[::-1]) == player_stats(games, player)
    assert every_player_stats(games)[player] == player_stats(games, player)


def test_taking_a_games_share_away_leaves_the_other_games_numbers(history, friendly):
    games = [*history, *friendly]
    ann = player_stats(games, "Ann")

    without = PlayerStats.sum("Ann", [ann], [game_stats(history[0])["Ann"]])

    assert without == player_stats(games[1:], "Ann")
    assert PlayerStats.sum("Ann", [without], [without]) == PlayerStats("Ann")
