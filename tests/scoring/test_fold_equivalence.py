"""The general fold reduces to the 4-player rules: a `partners` game of 4 players and 2 decks
folds exactly as the old four-seat fold (`four_seat_fold.py`, kept as an oracle) under every
preset: the same hands accepted and refused, the same settlements, levels, declaring teams,
next starters and game end.

The old seats map to the new in play order: North, West, South, East are seats 0, 1, 2, 3.
"""

from __future__ import annotations

import random

import four_seat_fold as old
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sweep import examples

from scoring.cards import Rank
from scoring.errors import ScoringError
from scoring.game import Game, GameError, GameSetup, HandResult
from scoring.rules import PRESETS, Format, GameEnd, Rules, Side, Starter
from scoring.settle import LastTrick, TakenBack
from scoring.table import Table

SEATS = {old.Seat.NORTH: 0, old.Seat.WEST: 1, old.Seat.SOUTH: 2, old.Seat.EAST: 3}
OLD_SEATS = {seat: old_seat for old_seat, seat in SEATS.items()}
TEAMS = {old.Team.NORTH_SOUTH: (0, 2), old.Team.EAST_WEST: (1, 3)}
TABLE = Table(("N", "W", "S", "E"))
MAX_HANDS = 80


def random_result(rules: Rules, rng: random.Random, declarer: int) -> HandResult:
    """A hand the rules allow: points and kitty that two decks hold, a last trick of a format
    the rules know, failed throws where they are allowed."""
    # Totals near the bands' edges decide the most: draw them often.
    if rng.random() < 0.5:
        edge = rng.choice([band.low for band in rules.bands])
        points = min(200, max(0, edge + rng.choice([-5, 0, 5])))
    else:
        points = 5 * rng.randint(0, 40)
    kitty = 5 * rng.randint(0, min(16, (200 - points) // 5)) if rng.random() < 0.6 else 0
    formats = [Format.SINGLE, Format.PAIR, Format.TRACTOR] + (
        [Format.THROW] if rules.throws else []
    )
    fmt = rng.choice(formats)
    cards = {
        Format.SINGLE: 1,
        Format.PAIR: 2,
        Format.TRACTOR: 2 * rng.randint(2, 12),
        Format.THROW: rng.randint(2, 25),
    }[fmt]
    taken_back = TakenBack()
    if rules.throws and rng.random() < 0.3:
        taken_back = TakenBack(rng.randint(0, 3), rng.randint(0, 3))
    winner = rng.choice([Side.DECLARERS, Side.OPPONENTS])
    return HandResult(declarer, points, kitty, LastTrick(winner, fmt, cards), taken_back)


def as_old(result: HandResult) -> old.HandResult:
    return old.HandResult(
        OLD_SEATS[result.declarer],
        result.opponent_points,
        result.kitty_points,
        result.last_trick,
        result.taken_back,
    )


def assert_same_state(rules: Rules, before: old.GameState, after: Game) -> None:
    """The old state and the new one say the same about levels, the next hand and the end."""
    state = after.state
    north_south, east_west = before.levels
    assert state.levels == (north_south, east_west, north_south, east_west)
    assert state.game_over is before.game_over
    if before.game_over:
        assert state.winners == TEAMS[before.winner]
        assert (state.next_declarers, state.next_declarer) == ((), None)
        return
    if rules.starter is Starter.ROTATE:
        starter = SEATS[before.starter] if before.starter is not None else None
        assert state.next_declarer == starter
        assert state.next_declarers == ((starter,) if starter is not None else (0, 1, 2, 3))
    elif before.declarers is None:
        assert (state.next_declarers, state.next_declarer) == ((0, 1, 2, 3), None)
    else:
        assert before.starter is None
        assert state.next_declarers == TEAMS[before.declarers]
        assert state.next_declarer in state.next_declarers


def play_both(
    rules: Rules,
    levels: tuple[Rank, Rank],
    first: int | None,
    rng: random.Random,
) -> Game:
    """Fold one random game through both folds, hand by hand; the game as the new one has it."""
    north_south, east_west = levels
    old_game = old.Game(old.GameSetup(rules, old.TeamLevels(north_south, east_west),
                                      OLD_SEATS[first] if first is not None else None))  # fmt: skip
    setup = GameSetup(rules, TABLE, (north_south, east_west, north_south, east_west), first)
    game = Game(setup)
    assert_same_state(rules, old_game.state, game)
    for _ in range(MAX_HANDS):
        if game.state.game_over and rng.random() < 0.5:
            break
        # Mostly a declarer the state allows; sometimes anyone, to compare the refusals.
        allowed = game.state.next_declarers or (0, 1, 2, 3)
        declarer = rng.choice(allowed if rng.random() < 0.85 else (0, 1, 2, 3))
        result = random_result(rules, rng, declarer)
        try:
            old_next = old_game.play(as_old(result))
        except ScoringError as error:
            old_error: str | None = str(error)
        else:
            old_error = None
        try:
            new_next = game.play(result)
        except GameError as error:
            assert old_error is not None, f"only the new fold refused: {error}"
            assert str(error).split(":")[0] == old_error.split(":")[0]  # the same hand number
            if game.state.game_over:
                break
            continue
        assert old_error is None, f"only the old fold refused: {old_error}"
        old_game, game = old_next, new_next
        before, after = old_game.hands[-1], game.hands[-1]
        assert after.declarers == TEAMS[before.declarers]
        assert after.opponents == TEAMS[before.declarers.other]
        assert after.level is before.level
        assert after.settlement == before.settlement
        assert after.winner is before.settlement.winner
        climbed = {
            seat: after.after.levels[seat] - after.before.levels[seat] for seat in after.winners
        }
        if rules.game_end is GameEnd.PAST_ACE:
            assert after.levels_gained == dict.fromkeys(after.winners, after.settlement.award)
        else:
            assert after.levels_gained == climbed
        assert_same_state(rules, old_game.state, game)
    return game


ranks = st.sampled_from(Rank)


@examples(50, 2000)
@given(
    rules=st.sampled_from(list(PRESETS.values())),
    levels=st.tuples(ranks, ranks),
    first=st.none() | st.sampled_from(range(4)),
    rng=st.randoms(use_true_random=False),
)
def test_a_four_player_partners_game_folds_as_the_four_seat_fold(
    rules: Rules, levels: tuple[Rank, Rank], first: int | None, rng: random.Random
) -> None:
    # Under a bidding starter the old fold let anyone start hand 1 whoever was chosen; the new
    # one binds a chosen first declarer, so there the game starts at the bid.
    if rules.starter is Starter.BID:
        first = None
    play_both(rules, levels, first, rng)


@pytest.mark.parametrize("games", [100, pytest.param(2000, marks=pytest.mark.sweep)])
def test_seeded_games_fold_as_the_four_seat_fold(games: int) -> None:
    hands = ended = 0
    for seed in range(games):
        rng = random.Random(seed)
        rules = rng.choice(list(PRESETS.values()))
        # Half the games start low, as games do; the others anywhere, to reach the end often.
        ladder = list(Rank)[:6] if rng.random() < 0.5 else list(Rank)
        levels = (rng.choice(ladder), rng.choice(ladder))
        first = rng.randrange(4) if rules.starter is Starter.ROTATE else None
        game = play_both(rules, levels, first, rng)
        hands += len(game.hands)
        ended += game.state.game_over
    assert hands > 10 * games
    assert ended > 0.75 * games  # most reach the end, so the end is compared too
