"""A game as a fold over its hands: teams, levels, who declares and who starts next."""

from __future__ import annotations

import pytest

from scoring import Format, LastTrick, Rank, Side, get_rules
from scoring.game import Game, GameError, GameSetup, HandResult, Seat, Team, TeamLevels, replay

HOLD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)


def hand(declarer: str, points: int) -> HandResult:
    return HandResult(Seat(declarer), points, 0, HOLD)


def levels(game: Game) -> tuple[str, str]:
    north_south, east_west = game.state.levels
    return str(north_south), str(east_west)


@pytest.mark.parametrize(
    ("seat", "partner", "right", "team"),
    [
        ("N", "S", "W", Team.NORTH_SOUTH),
        ("W", "E", "S", Team.EAST_WEST),
        ("S", "N", "E", Team.NORTH_SOUTH),
        ("E", "W", "N", Team.EAST_WEST),
    ],
)
def test_partners_face_each_other_and_play_runs_to_the_right(seat, partner, right, team):
    assert Seat(seat).partner is Seat(partner)
    assert Seat(seat).right is Seat(right)
    assert Seat(seat).team is team


def test_holding_declarers_climb_and_declare_again():
    game = replay(GameSetup(get_rules("standard")), [hand("N", 45), hand("S", 0)])

    assert levels(game) == ("6", "2")
    assert game.state.declarers is Team.NORTH_SOUTH
    assert [played.level for played in game.hands] == [Rank.TWO, Rank.THREE]


def test_opponents_who_take_the_deal_declare_at_their_own_level():
    setup = GameSetup(get_rules("standard"), TeamLevels(Rank.NINE, Rank.FOUR))
    game = replay(setup, [hand("N", 100)])

    assert levels(game) == ("9", "4")
    assert game.state.declarers is Team.EAST_WEST
    assert game.state.level is Rank.FOUR


def test_the_first_hand_may_be_declared_by_either_team_but_later_ones_only_by_the_declarers():
    game = replay(GameSetup(get_rules("standard")), [hand("E", 45)])

    with pytest.raises(GameError, match="hand 2: N cannot declare: EW are the declarers"):
        game.play(hand("N", 45))


@pytest.mark.parametrize(
    ("points", "next_starter"),
    [
        (45, Seat.SOUTH),  # the declarers hold: the starter's partner starts
        (85, Seat.WEST),  # the opponents take over: the player to the starter's right
    ],
)
def test_kawu_rotates_the_start(points, next_starter):
    game = replay(GameSetup(get_rules("kawu")), [hand("N", points)])

    assert game.state.starter is next_starter
    with pytest.raises(GameError, match=f"cannot declare: {next_starter} starts this hand"):
        game.play(hand("E" if next_starter is Seat.SOUTH else "N", 45))


def test_a_chosen_first_starter_must_start_the_first_hand():
    setup = GameSetup(get_rules("kawu"), first_starter=Seat.EAST)

    with pytest.raises(GameError, match="hand 1: N cannot declare: E starts this hand"):
        replay(setup, [hand("N", 45)])


def test_standard_leaves_the_next_starter_to_the_bid():
    game = replay(GameSetup(get_rules("standard")), [hand("N", 45)])

    assert game.state.starter is None


def test_a_team_that_holds_at_ace_wins_and_the_game_takes_no_more_hands():
    setup = GameSetup(get_rules("standard"), TeamLevels(Rank.ACE, Rank.TWO))
    game = replay(setup, [hand("S", 75)])

    assert game.state.winner is Team.NORTH_SOUTH
    with pytest.raises(GameError, match="hand 2: the game is over: NS won it"):
        game.play(hand("N", 0))


def test_open_ladder_opponents_who_climb_past_ace_win():
    setup = GameSetup(get_rules("open-ladder"), TeamLevels(Rank.FIVE, Rank.KING))
    game = replay(setup, [HandResult(Seat.NORTH, 160, 0, HOLD)])

    assert game.state.winner is Team.EAST_WEST
    assert levels(game) == ("5", "A")


def test_a_bad_hand_names_its_number():
    game = replay(GameSetup(get_rules("standard")), [hand("N", 45)])

    with pytest.raises(GameError, match="hand 2: opponent_points must be a multiple of 5"):
        game.play(hand("N", 42))


def test_a_chosen_first_starter_does_not_bind_rules_where_the_bid_decides():
    setup = GameSetup(get_rules("standard"), first_starter=Seat.EAST)

    game = replay(setup, [hand("N", 45)])

    assert game.hands[0].declarers is Team.NORTH_SOUTH
