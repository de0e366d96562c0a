"""Club nights: each seating rule checked against what it promises, by brute force where the
tables are small, and the evening's standings computed by hand on small games.

The cast: Ann, Bo, Cy, Di, Ed, Fay, Gus, Hal, Ivy, then players named p0, p1, … where the
tables are bigger. Ratings are OpenSkill ordinals: unrated players stand at the default, 0.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sweep import examples

from scoring import Format, LastTrick, Rank, Side, get_rules
from scoring.evenings import (
    RANKING,
    SITTING_OUT,
    EveningError,
    EveningGame,
    EveningStanding,
    Rule,
    Seating,
    Shape,
    repeats,
    seat,
    spread,
    standings,
    swap,
    table_sizes,
)
from scoring.game import GameSetup, HandResult, replay
from scoring.stats import GameRecord, HandLine
from scoring.table import Table, TableError, Teams

PARTNERS, PAIRS, FRIEND = Teams.PARTNERS, Teams.PAIRS, Teams.FIND_A_FRIEND
REPO_ROOT = Path(__file__).resolve().parents[2]
CAST = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy")


def named(count: int) -> tuple[str, ...]:
    return tuple(f"p{number}" for number in range(count))


def rated(players: Sequence[str], seed: int) -> dict[str, float]:
    """Ordinals as a club has them: spread round 10, a quarter unrated at the default 0."""
    draw = random.Random(seed)
    return {p: 0.0 if draw.random() < 0.25 else round(draw.gauss(10, 8), 3) for p in players}


# --- table shapes -------------------------------------------------------------------------


def test_it_allows_the_table_sizes_the_table_allows() -> None:
    for teams in Teams:
        for size in range(1, 11):
            try:
                Table(tuple(str(n) for n in range(size)), teams=teams)
            except TableError:
                allowed = False
            else:
                allowed = True
            assert (size in table_sizes(teams)) is allowed


@pytest.mark.parametrize(("size", "teams"), [(5, PARTNERS), (4, PAIRS), (7, PAIRS), (9, FRIEND)])
def test_it_refuses_a_shape_the_teams_do_not_allow(size: int, teams: Teams) -> None:
    with pytest.raises(EveningError) as error:
        Shape(size, teams)
    assert error.value.field == "size"


@pytest.mark.parametrize(
    ("shape", "count", "tables"),
    [
        (Shape(4), 8, (4, 4)),
        (Shape(4), 11, (4, 4)),
        (Shape(4), 3, ()),
        (Shape(6), 13, (6, 6)),
        (Shape(4, mixed=True), 10, (6, 4)),
        (Shape(4, mixed=True), 12, (4, 4, 4)),
        (Shape(4, mixed=True), 14, (6, 4, 4)),
        (Shape(4, mixed=True), 7, (6,)),
        (Shape(4, mixed=True), 9, (4, 4)),
        (Shape(6, mixed=True), 10, (6, 4)),
        (Shape(8, mixed=True), 12, (6, 6)),
        (Shape(8, mixed=True), 14, (8, 6)),
        (Shape(6, PAIRS, mixed=True), 14, (8, 6)),
        (Shape(6, PAIRS, mixed=True), 13, (6, 6)),
        (Shape(6, PAIRS, mixed=True), 10, (8,)),
        (Shape(4, FRIEND, mixed=True), 9, (5, 4)),
        (Shape(4, FRIEND, mixed=True), 11, (6, 5)),
        (Shape(6, FRIEND, mixed=True), 16, (6, 5, 5)),
        (Shape(5, FRIEND, mixed=True), 12, (6, 6)),
        (Shape(5, FRIEND, mixed=True), 3, ()),
    ],
)
def test_it_sizes_the_tables(shape: Shape, count: int, tables: tuple[int, ...]) -> None:
    assert shape.tables(count) == tables


def test_it_seats_at_most_64_players() -> None:
    assert Shape(8).tables(64) == (8,) * 8
    with pytest.raises(EveningError, match="an evening seats 0 to 64 players, got 65") as error:
        seat(named(65), Shape(4, mixed=True), Rule.RANDOM)
    assert error.value.field == "players"


def test_it_seats_database_ids_as_well_as_names() -> None:
    ids = tuple(range(101, 111))
    seating = seat(ids, Shape(4, mixed=True), Rule.BALANCED, ratings=dict.fromkeys(ids, 0.0))
    assert sorted(seating.players) == list(ids)
    assert seating == seat(
        ids, Shape(4, mixed=True), Rule.BALANCED, ratings=dict.fromkeys(ids, 0.0)
    )


def test_it_seats_the_most_players_mixed_sizes_can() -> None:
    for teams in Teams:
        for size in table_sizes(teams):
            for count in range(0, 65):
                tables = Shape(size, teams, mixed=True).tables(count)
                assert all(table in table_sizes(teams) for table in tables)
                assert sum(tables) <= count
                # No mix of allowed sizes seats more.
                better = [
                    total
                    for total in range(sum(tables) + 1, count + 1)
                    if sums_to(total, table_sizes(teams))
                ]
                assert better == []


def sums_to(total: int, sizes: Sequence[int]) -> bool:
    reachable = {0}
    for _ in range(total):
        reachable |= {r + s for r in reachable for s in sizes if r + s <= total}
    return total in reachable


# --- a seating as a value ---------------------------------------------------------------------


def test_it_makes_the_teams_from_the_seats_as_the_table_does() -> None:
    six = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay")
    assert Seating((six,)).teams_at(0) == (("Ann", "Cy", "Ed"), ("Bo", "Di", "Fay"))
    assert Seating((six,), teams=PAIRS).teams_at(0) == (("Ann", "Di"), ("Bo", "Ed"), ("Cy", "Fay"))
    assert Seating((six,), teams=FRIEND).teams_at(0) == ()
    assert Seating((six,), teams=FRIEND).partnerships == frozenset()


def test_it_refuses_a_seating_with_a_player_twice_or_a_table_too_small() -> None:
    with pytest.raises(EveningError, match="'Ann' is named twice"):
        Seating((("Ann", "Bo", "Cy", "Di"),), ("Ann",))
    with pytest.raises(EveningError, match="partners tables have 4, 6 or 8 players, got 5"):
        Seating((("Ann", "Bo", "Cy", "Di", "Ed"),))
    with pytest.raises(EveningError, match="'Bo' is named twice"):
        seat(("Ann", "Bo", "Cy", "Bo"), Shape(4), Rule.RANDOM)


# --- the measures -----------------------------------------------------------------------------


def test_it_measures_the_spread_of_fixed_teams_table_by_table() -> None:
    ratings = {"Ann": 30.0, "Bo": 20.0, "Cy": 10.0, "Di": 0.0, "Ed": 5.0, "Fay": 5.0}
    ratings |= {"Gus": 1.0, "Hal": 2.0}
    # Ann+Cy 40 against Bo+Di 20; Ed+Gus 6 against Fay+Hal 7.
    seating = Seating((("Ann", "Bo", "Cy", "Di"), ("Ed", "Fay", "Gus", "Hal")))
    assert spread(seating, ratings) == 20.0
    # Pairs at six: Ann+Di 30, Bo+Ed 25, Cy+Fay 15.
    pairs = Seating((("Ann", "Bo", "Cy", "Di", "Ed", "Fay"),), teams=PAIRS)
    assert spread(pairs, ratings) == 15.0


def test_it_measures_the_spread_of_find_a_friend_tables_by_their_means() -> None:
    ratings = dict(zip(CAST, (8.0, 4.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0), strict=True))
    seating = Seating((CAST[:4], CAST[4:]), teams=FRIEND)
    assert spread(seating, ratings) == 2.0
    assert spread(Seating((CAST[:4],), CAST[4:], teams=FRIEND), ratings) == 0.0


def test_it_needs_every_seated_players_rating() -> None:
    with pytest.raises(EveningError, match="'Di' has no rating"):
        spread(Seating((CAST[:4],), ("Ed",)), {"Ann": 1.0, "Bo": 1.0, "Cy": 1.0})
    with pytest.raises(EveningError, match="needs the players' ratings"):
        seat(CAST[:4], Shape(4), Rule.BALANCED)


def test_it_counts_each_repeated_partnership_once() -> None:
    first = Seating((("Ann", "Bo", "Cy", "Di", "Ed", "Fay"),))  # Ann Cy Ed / Bo Di Fay
    second = Seating((("Ann", "Bo", "Cy", "Di", "Ed", "Fay"),), teams=PAIRS)  # Ann+Di Bo+Ed Cy+Fay
    # Ann+Ed and Bo+Di again; Cy+Gus and Fay+Hal new.
    again = Seating((("Ann", "Bo", "Ed", "Di"), ("Cy", "Fay", "Gus", "Hal")))
    assert repeats(again, [first]) == 2
    assert repeats(again, [first, first]) == 2
    assert repeats(second, [first]) == 0
    assert repeats(again, [Seating((CAST[:6],), teams=FRIEND)]) == 0


# --- the same seed, the same seating --------------------------------------------------------

SHAPES = [
    Shape(4),
    Shape(6),
    Shape(8),
    Shape(6, PAIRS),
    Shape(8, PAIRS),
    Shape(4, FRIEND),
    Shape(4, mixed=True),
    Shape(6, PAIRS, mixed=True),
    Shape(5, FRIEND, mixed=True),
]


@pytest.mark.parametrize("rule", list(Rule))
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_it_seats_the_same_way_for_the_same_seed(rule: Rule, shape: Shape) -> None:
    players = named(19)
    ratings = rated(players, 1)
    first = seat(players, shape, rule, ratings=ratings, seed=3)
    played = [first]
    seatings = {
        seat(players, shape, rule, ratings=ratings, played=played, seed=seed) for seed in range(4)
    }
    for seed in range(4):
        again = seat(players, shape, rule, ratings=dict(ratings), played=list(played), seed=seed)
        assert again == seat(players, shape, rule, ratings=ratings, played=played, seed=seed)
    # Another seed draws another seating.
    assert len(seatings) > 1


def test_it_seats_the_same_way_in_another_interpreter() -> None:
    # Hash randomisation of strings must not reach the draw.
    import subprocess
    import sys

    probe = (
        "from scoring.evenings import seat, Shape, Rule\n"
        "players = [f'p{n}' for n in range(14)]\n"
        "print([seat(players, Shape(4, mixed=True), rule, ratings=dict.fromkeys(players, 1.0),"
        " seed=5) for rule in Rule])\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(hash_seed)},
            cwd=REPO_ROOT,
        ).stdout
        for hash_seed in (1, 2, 3)
    }
    assert len(outputs) == 1


# --- everyone seated once or sitting out ----------------------------------------------------


@examples(40, 1000)
@given(
    count=st.integers(min_value=0, max_value=30),
    shape=st.sampled_from(SHAPES),
    rule=st.sampled_from(list(Rule)),
    seed=st.integers(min_value=0, max_value=2**32),
    rounds=st.integers(min_value=0, max_value=3),
)
def test_it_seats_everyone_present_once_or_sits_them_out(
    count: int, shape: Shape, rule: Rule, seed: int, rounds: int
) -> None:
    players = named(count)
    ratings = rated(players, seed)
    played: list[Seating[str]] = []
    for _ in range(rounds + 1):
        seating = seat(players, shape, rule, ratings=ratings, played=played, seed=seed)
        assert sorted(seating.players) == sorted(players)
        assert tuple(len(table) for table in seating.tables) == shape.tables(count)
        assert all(len(table) in table_sizes(shape.teams) for table in seating.tables)
        assert seating.teams is shape.teams
        # Those who sit out keep the roster's order.
        assert list(seating.out) == [p for p in players if p in seating.out]
        played.append(seating)


# --- sitting out in turn ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "shape"),
    [
        (9, Shape(4)),
        (10, Shape(4)),
        (15, Shape(6)),
        (11, Shape(4, mixed=True)),
        (13, Shape(6, PAIRS)),
    ],
)
@pytest.mark.parametrize("rule", list(Rule))
def test_it_sits_players_out_in_turn(count: int, shape: Shape, rule: Rule) -> None:
    players = named(count)
    ratings = rated(players, count)
    # Three times round the roster at random; once under the other rules, which choose those
    # who sit out the same way.
    cycles = 3 if rule is Rule.RANDOM else 1
    played: list[Seating[str]] = []
    for round_number in range(1, cycles * count + 1):
        seating = seat(players, shape, rule, ratings=ratings, played=played, seed=round_number)
        played.append(seating)
        sat_out = [sum(p in earlier.out for earlier in played) for p in players]
        # Nobody sits out a second time before everyone has sat out once.
        assert max(sat_out) - min(sat_out) <= 1, round_number
    out_each_round = count - sum(shape.tables(count))
    assert set(sat_out) == {cycles * out_each_round}


def test_it_sits_out_those_who_played_most_among_those_who_sat_out_least() -> None:
    # Round 1: Ed sat out. Round 2: Fay and Gus arrived; of the three who never sat out,
    # Ann to Di played a round, the newcomers none.
    first = Seating((("Ann", "Bo", "Cy", "Di"),), ("Ed",))
    for seed in range(20):
        second = seat(CAST[:7], Shape(6), Rule.RANDOM, played=[first], seed=seed)
        assert len(second.out) == 1
        assert second.out[0] in ("Ann", "Bo", "Cy", "Di")
    drawn = {seat(CAST[:7], Shape(6), Rule.RANDOM, played=[first], seed=s).out for s in range(20)}
    assert len(drawn) > 1  # the draw decides among equals


def test_it_says_who_sits_out_and_how_the_evening_ranks() -> None:
    assert SITTING_OUT.startswith("Players who don't fill a table sit out in turn")
    assert RANKING.startswith("Ranked by games won, then levels climbed in all")


# --- joining and leaving between rounds -----------------------------------------------------


def test_it_seats_whoever_is_present_now() -> None:
    first = seat(CAST[:8], Shape(4), Rule.NEW_PARTNERS, seed=2)
    # Hal leaves, Ivy arrives.
    present = (*CAST[:7], "Ivy")
    second = seat(present, Shape(4), Rule.NEW_PARTNERS, played=[first], seed=2)
    assert sorted(second.players) == sorted(present)
    assert "Hal" not in second.players
    assert repeats(second, [first]) == 0
    # Hal comes back and Gus leaves: the evening still remembers Hal's partner.
    third_present = (*CAST[:6], "Hal", "Ivy")
    third = seat(third_present, Shape(4), Rule.NEW_PARTNERS, played=[first, second], seed=2)
    assert repeats(third, [first, second]) == 0


def test_it_counts_sit_outs_only_for_those_present() -> None:
    first = Seating((("Ann", "Bo", "Cy", "Di"),), ("Ed", "Fay"))
    # Ed left; Fay has sat out once, the others never: two of them sit out now.
    second = seat(("Ann", "Bo", "Cy", "Di", "Fay", "Gus"), Shape(4), Rule.RANDOM, played=[first])
    assert "Fay" not in second.out
    assert len(second.out) == 2


# --- random -------------------------------------------------------------------------------------


def test_it_draws_every_seating_at_random() -> None:
    players = CAST[:4]
    seen = {seat(players, Shape(4), Rule.RANDOM, seed=s).tables[0] for s in range(400)}
    assert len(seen) == 24  # every seat order of four


# --- balanced ---------------------------------------------------------------------------------

BALANCED_CASES = [
    (8, Shape(4)),
    (8, Shape(8)),
    (8, Shape(8, PAIRS)),
    (8, Shape(4, FRIEND)),
    (10, Shape(4, mixed=True)),
    (10, Shape(5, FRIEND)),
    (12, Shape(4)),
    (12, Shape(6)),
    (12, Shape(6, PAIRS)),
    (12, Shape(4, FRIEND)),
    (16, Shape(4)),
    (16, Shape(8)),
    (16, Shape(8, PAIRS)),
    (16, Shape(4, FRIEND)),
    (24, Shape(4)),
    (24, Shape(6)),
    (24, Shape(8)),
    (24, Shape(6, PAIRS)),
    (24, Shape(8, PAIRS)),
    (24, Shape(6, FRIEND)),
]


@pytest.mark.parametrize(("count", "shape"), BALANCED_CASES, ids=str)
def test_it_balances_no_worse_than_the_best_of_1000_random_seatings(
    count: int, shape: Shape
) -> None:
    players = named(count)
    for ratings_seed in range(3):
        ratings = rated(players, 100 * count + ratings_seed)
        best_random = min(
            spread(seat(players, shape, Rule.RANDOM, seed=seed), ratings) for seed in range(1000)
        )
        for seed in range(2):
            balanced = seat(players, shape, Rule.BALANCED, ratings=ratings, seed=seed)
            assert spread(balanced, ratings) <= best_random


def all_seatings(players: Sequence[str], shape: Shape) -> Iterator[Seating[str]]:
    sizes = shape.tables(len(players))
    for order in itertools.permutations(players):
        tables, at = [], 0
        for size in sizes:
            tables.append(order[at : at + size])
            at += size
        yield Seating(tuple(tables), teams=shape.teams)


@pytest.mark.parametrize("shape", [Shape(4), Shape(8), Shape(8, PAIRS), Shape(4, FRIEND)], ids=str)
def test_it_balances_eight_players_as_well_as_any_seating(shape: Shape) -> None:
    players = named(8)
    for ratings_seed in range(2):
        ratings = rated(players, ratings_seed)
        best = min(spread(seating, ratings) for seating in all_seatings(players, shape))
        assert spread(seat(players, shape, Rule.BALANCED, ratings=ratings), ratings) == best


def test_it_balances_integer_ratings_to_zero_where_they_allow() -> None:
    ratings = dict(zip(CAST[:8], (8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0), strict=True))
    seating = seat(CAST[:8], Shape(4), Rule.BALANCED, ratings=ratings, seed=4)
    assert spread(seating, ratings) == 0.0


def test_it_seats_24_players_well_under_a_second() -> None:
    # Processor time, not the wall clock, which a shared machine stretches. Measured at
    # 25–170 ms balanced and up to 210 ms for new partners (eight partners, late rounds).
    players = named(24)
    ratings = rated(players, 24)
    for shape in (Shape(4), Shape(6), Shape(8), Shape(6, PAIRS), Shape(8, PAIRS), Shape(6, FRIEND)):
        started = time.process_time()
        seat(players, shape, Rule.BALANCED, ratings=ratings, seed=1)
        assert time.process_time() - started < 0.5
        played: list[Seating[str]] = []
        for round_number in range(6):
            started = time.process_time()
            played.append(seat(players, shape, Rule.NEW_PARTNERS, played=played, seed=round_number))
            assert time.process_time() - started < 0.5


# --- new partners -----------------------------------------------------------------------------


def groupings(players: Sequence[str], sizes: Sequence[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way of dividing ``players`` into groups of ``sizes`` (as a multiset)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for others in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in others]
            for tail in groupings(left, remaining):
                yield [(first, *others), *tail]


def fewest_repeats(players: Sequence[str], shape: Shape, played: Sequence[Seating[str]]) -> int:
    """By brute force: repeats depend only on the teams, so every division into teams of the
    tables' team sizes."""
    earlier = frozenset().union(*(round.partnerships for round in played))
    team_sizes = []
    for size in shape.tables(len(players)):
        seating = Seating((tuple(named(size)),), teams=shape.teams)
        team_sizes += [len(team) for team in seating.teams_at(0)]
    seated = players[: sum(team_sizes)]
    return min(
        sum(
            frozenset(pair) in earlier for team in teams for pair in itertools.combinations(team, 2)
        )
        for teams in groupings(seated, team_sizes)
    )


NEW_PARTNER_CASES = [
    (8, Shape(4)),
    (12, Shape(4)),
    (12, Shape(6)),
    (6, Shape(6, PAIRS)),
    (8, Shape(8, PAIRS)),
    (12, Shape(6, PAIRS)),
    (10, Shape(4, mixed=True)),
    (8, Shape(8)),
]


@pytest.mark.parametrize(("count", "shape"), NEW_PARTNER_CASES, ids=str)
@pytest.mark.parametrize("earlier", [Rule.NEW_PARTNERS, Rule.RANDOM])
def test_it_repeats_no_partnership_when_a_seating_without_one_exists(
    count: int, shape: Shape, earlier: Rule
) -> None:
    players = named(count)
    for history_seed in range(4):
        played: list[Seating[str]] = []
        for round_number in range(1, 5):
            seating = seat(players, shape, Rule.NEW_PARTNERS, played=played, seed=history_seed)
            assert repeats(seating, played) == fewest_repeats(players, shape, played), (
                history_seed,
                round_number,
            )
            # Earlier rounds drawn either rule, to meet histories the rule would not make.
            played.append(
                seat(players, shape, earlier, played=played, seed=history_seed + round_number)
            )


def test_it_gives_eight_partners_at_four_new_partners_for_three_rounds_then_repeats() -> None:
    # Seven players each partner of one player per round: each can have 7 partners, and three
    # rounds of four at two tables use 3 of them.
    players = CAST[:8]
    played: list[Seating[str]] = []
    for seed in range(7):
        seating = seat(players, Shape(4), Rule.NEW_PARTNERS, played=played, seed=seed)
        assert repeats(seating, played) == 0
        played.append(seating)
    # After seven rounds everyone has partnered everyone: the eighth repeats all four pairs.
    eighth = seat(players, Shape(4), Rule.NEW_PARTNERS, played=played, seed=0)
    assert repeats(eighth, played) == 4


def test_it_breaks_ties_among_new_partner_seatings_by_the_seed() -> None:
    first = seat(CAST[:8], Shape(4), Rule.NEW_PARTNERS, seed=0)
    seconds = {
        seat(CAST[:8], Shape(4), Rule.NEW_PARTNERS, played=[first], seed=s).partnerships
        for s in range(30)
    }
    assert len(seconds) > 1


def test_it_seats_find_a_friend_tables_at_random_under_new_partners() -> None:
    for seed in range(10):
        assert seat(CAST, Shape(4, FRIEND), Rule.NEW_PARTNERS, seed=seed) == seat(
            CAST, Shape(4, FRIEND), Rule.RANDOM, seed=seed
        )


# --- swapping -----------------------------------------------------------------------------------


def test_it_swaps_a_seated_player_with_one_sitting_out() -> None:
    seating = Seating((("Ann", "Bo", "Cy", "Di"), ("Ed", "Fay", "Gus", "Hal")), ("Ivy",))
    swapped = swap(seating, "Ivy", "Fay")
    assert swapped.tables == (("Ann", "Bo", "Cy", "Di"), ("Ed", "Ivy", "Gus", "Hal"))
    assert swapped.out == ("Fay",)


def test_it_swaps_two_players_at_tables() -> None:
    seating = Seating((("Ann", "Bo", "Cy", "Di"), ("Ed", "Fay", "Gus", "Hal")))
    assert swap(seating, "Bo", "Gus").tables == (
        ("Ann", "Gus", "Cy", "Di"),
        ("Ed", "Fay", "Bo", "Hal"),
    )
    # At one table a swap changes the teams: Ann now partners Bo.
    same_table = swap(seating, "Bo", "Cy")
    assert same_table.teams_at(0) == (("Ann", "Bo"), ("Cy", "Di"))
    assert swap(same_table, "Bo", "Cy") == seating


@examples(50, 2000)
@given(
    count=st.integers(min_value=5, max_value=20),
    shape=st.sampled_from(SHAPES),
    seed=st.integers(min_value=0, max_value=1000),
    picks=st.tuples(st.integers(min_value=0), st.integers(min_value=0)),
)
def test_it_swaps_back_to_the_same_seating(
    count: int, shape: Shape, seed: int, picks: tuple[int, int]
) -> None:
    seating = seat(named(count), shape, Rule.RANDOM, seed=seed)
    seated = [p for table in seating.tables for p in table]
    if not seated:
        return
    a = seated[picks[0] % len(seated)]
    others = [p for p in seating.players if p != a]
    b = others[picks[1] % len(others)]
    swapped = swap(seating, a, b)
    assert sorted(swapped.players) == sorted(seating.players)
    assert tuple(map(len, swapped.tables)) == tuple(map(len, seating.tables))
    assert (b in swapped.out) is (a in seating.out) and (a in swapped.out) is (b in seating.out)
    assert swap(swapped, a, b) == seating


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("Ann", "Zed", "'Zed' is not in this round"),
        ("Ann", "Ann", "'Ann' cannot swap with themselves"),
        ("Ed", "Fay", "'Ed' and 'Fay' both sit out"),
    ],
)
def test_it_refuses_a_swap_that_cannot_be(a: str, b: str, message: str) -> None:
    seating = Seating((("Ann", "Bo", "Cy", "Di"),), ("Ed", "Fay"))
    with pytest.raises(EveningError, match=message) as error:
        swap(seating, a, b)
    assert error.value.field == "swap"


# --- the evening's standings ------------------------------------------------------------------

HELD, LOST = Side.DECLARERS, Side.OPPONENTS


def line(declarer: int, declarers: tuple[int, ...], winner: Side, levels: str) -> HandLine:
    """A hand: who declared, the declaring side, who won and everyone's level after it."""
    ranks = tuple(Rank.parse(symbol) for symbol in levels)
    return HandLine(declarer, declarers, Rank.TWO, 0, 0, winner, ranks)


def made(seats, teams, start: str, hands, winners=()) -> GameRecord[str]:
    return GameRecord(
        key=seats,
        rules=get_rules("standard"),
        seats=tuple(seats),
        teams=teams,
        start=tuple(Rank.parse(symbol) for symbol in start),
        hands=tuple(hands),
        winners=winners,
    )


FOUR = ((0, 2), (1, 3))
# Round 1, table 1: Ann and Cy from K win. Ann holds (+1 to A); Cy loses at A and Bo and Di
# climb 2; Bo holds (+3 to 7); Di loses and Ann and Cy take the deal at A (+0); Ann holds at A.
WON = made(
    ("Ann", "Bo", "Cy", "Di"),
    FOUR,
    "K2K2",
    [
        line(0, (0, 2), HELD, "A2A2"),
        line(2, (0, 2), LOST, "A4A4"),
        line(1, (1, 3), HELD, "A7A7"),
        line(3, (1, 3), LOST, "A7A7"),
        line(0, (0, 2), HELD, "A7A7"),
    ],
    winners=(0, 2),
)
# Round 1, table 2, ended by the evening: Ed holds (+2); Gus loses, Fay and Hal climb 1.
ENDED = made(
    ("Ed", "Fay", "Gus", "Hal"),
    FOUR,
    "2222",
    [line(0, (0, 2), HELD, "4242"), line(2, (0, 2), LOST, "4343")],
)
# Round 2, find-a-friend at five, ended by the evening: Ann finds Cy and they hold (+1 each);
# Cy finds nobody and holds alone (+3); Cy finds Bo, Ann, Di and Ed take the deal (+1 each).
FRIENDS = made(
    ("Ann", "Bo", "Cy", "Di", "Ed"),
    (),
    "22222",
    [
        line(0, (0, 2), HELD, "32322"),
        line(2, (2,), HELD, "32622"),
        line(2, (1, 2), LOST, "42633"),
    ],
)


def test_it_ranks_the_evening() -> None:
    games = [EveningGame(WON), EveningGame(ENDED, ended=True), EveningGame(FRIENDS, ended=True)]
    table = standings(games, players=CAST)
    assert table == (
        EveningStanding("Cy", 1, games=2, won=1, levels=5, levels_declaring=5, hands=8),
        EveningStanding("Ann", 2, games=2, won=1, levels=3, levels_declaring=2, hands=8),
        EveningStanding("Di", 3, games=2, won=0, levels=6, levels_declaring=3, hands=8),
        EveningStanding("Bo", 4, games=2, won=0, levels=5, levels_declaring=3, hands=8),
        EveningStanding("Ed", 5, games=2, won=0, levels=3, levels_declaring=2, hands=5),
        EveningStanding("Gus", 6, games=1, won=0, levels=2, levels_declaring=2, hands=2),
        EveningStanding("Fay", 7, games=1, won=0, levels=1, levels_declaring=0, hands=2),
        EveningStanding("Hal", 7, games=1, won=0, levels=1, levels_declaring=0, hands=2),
        EveningStanding("Ivy", 9, games=0, won=0, levels=0, levels_declaring=0, hands=0),
    )


def test_it_never_counts_a_game_the_evening_ended_as_won() -> None:
    cut = made(("Ann", "Bo", "Cy", "Di"), FOUR, "A2A2", [line(0, (0, 2), HELD, "A2A2")], (0, 2))
    (ann, *_) = standings([EveningGame(cut, ended=True)])
    assert (ann.player, ann.games, ann.won, ann.hands) == ("Ann", 1, 0, 1)
    (ann, *_) = standings([EveningGame(cut)])
    assert (ann.player, ann.won) == ("Ann", 1)


def test_it_keeps_the_order_of_first_play_among_equals_without_a_roster() -> None:
    table = standings([EveningGame(ENDED, ended=True)])
    assert [(s.player, s.rank) for s in table] == [("Ed", 1), ("Gus", 1), ("Fay", 3), ("Hal", 3)]


def test_it_climbs_the_levels_the_game_itself_awards() -> None:
    # A real game, folded by scoring.game: Ann and Cy from Q, Bo and Di from 2.
    held = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
    scooped = LastTrick(Side.OPPONENTS, Format.SINGLE, 1)
    players = ("Ann", "Bo", "Cy", "Di")
    setup = GameSetup(get_rules("standard"), Table(players), (Rank.QUEEN, Rank.TWO) * 2)
    game = replay(
        setup,
        [
            HandResult(0, 0, 0, held),
            HandResult(2, 80, 0, held),
            HandResult(1, 30, 10, scooped),
            HandResult(3, 75, 0, held),
            HandResult(3, 120, 0, held),
            HandResult(0, 40, 0, held),
        ],
    )
    record = GameRecord.of(1, game, players)
    by_player = {s.player: s for s in standings([EveningGame(record)])}
    for seat_number, player in enumerate(players):
        won_hands = [hand for hand in game.hands if seat_number in hand.winners]
        assert by_player[player].levels == sum(
            hand.levels_gained.get(seat_number, 0) for hand in won_hands
        )
        assert by_player[player].levels_declaring == sum(
            hand.levels_gained.get(seat_number, 0)
            for hand in won_hands
            if seat_number in hand.declarers
        )
        assert by_player[player].won == (seat_number in game.state.winners)
    assert [(s.player, s.rank, s.levels) for s in by_player.values()] == [
        ("Ann", 1, 2),
        ("Cy", 1, 2),
        ("Bo", 3, 2),
        ("Di", 3, 2),
    ]
