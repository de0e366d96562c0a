"""A game as a fold over its hands: seats, teams, levels, who declares and who starts next.

Four players sit North, East, South and West; partners face each other (North–South against
East–West). Play runs counter-clockwise, so the player to a seat's right plays after it:
North, West, South, East.

>>> from scoring.settle import LastTrick
>>> from scoring.rules import Format, Side, get_rules
>>> setup = GameSetup(get_rules("standard"))
>>> hand = HandResult(Seat.NORTH, 45, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))
>>> [str(level) for level in replay(setup, [hand]).state.levels]
['3', '2']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.cards import Rank
from scoring.errors import ScoringError
from scoring.rules import Rules, Side, Starter
from scoring.settle import NOTHING_TAKEN_BACK, LastTrick, Levels, Settlement, TakenBack, settle


class GameError(ScoringError):
    """A hand that cannot follow the game so far (wrong declarer, game already over)."""


class Seat(enum.Enum):
    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def team(self) -> Team:
        return Team.NORTH_SOUTH if self in (Seat.NORTH, Seat.SOUTH) else Team.EAST_WEST

    @property
    def partner(self) -> Seat:
        return _PARTNERS[self]

    @property
    def right(self) -> Seat:
        """The player to this seat's right, who plays next (counter-clockwise)."""
        return _RIGHT[self]

    def __str__(self) -> str:
        return self.value


_PARTNERS = {
    Seat.NORTH: Seat.SOUTH,
    Seat.SOUTH: Seat.NORTH,
    Seat.EAST: Seat.WEST,
    Seat.WEST: Seat.EAST,
}
_RIGHT = {
    Seat.NORTH: Seat.WEST,
    Seat.WEST: Seat.SOUTH,
    Seat.SOUTH: Seat.EAST,
    Seat.EAST: Seat.NORTH,
}


class Team(enum.Enum):
    NORTH_SOUTH = "NS"
    EAST_WEST = "EW"

    @property
    def other(self) -> Team:
        return Team.EAST_WEST if self is Team.NORTH_SOUTH else Team.NORTH_SOUTH

    @property
    def seats(self) -> tuple[Seat, Seat]:
        if self is Team.NORTH_SOUTH:
            return (Seat.NORTH, Seat.SOUTH)
        return (Seat.EAST, Seat.WEST)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class TeamLevels:
    """Both teams' levels on the ladder; iterates North–South first."""

    north_south: Rank = Rank.TWO
    east_west: Rank = Rank.TWO

    def of(self, team: Team) -> Rank:
        return self.north_south if team is Team.NORTH_SOUTH else self.east_west

    def with_level(self, team: Team, level: Rank) -> TeamLevels:
        if team is Team.NORTH_SOUTH:
            return TeamLevels(level, self.east_west)
        return TeamLevels(self.north_south, level)

    def __iter__(self):
        return iter((self.north_south, self.east_west))


@dataclass(frozen=True, slots=True)
class GameSetup:
    """How a game starts: its rules, both teams' levels, and optionally who starts first."""

    rules: Rules
    levels: TeamLevels = TeamLevels()
    first_starter: Seat | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """What the table enters when a hand ends. ``declarer`` is the player who declared (won the
    bid, or held the deal) and started the hand; their team are the hand's declarers."""

    declarer: Seat
    opponent_points: int
    kitty_points: int
    last_trick: LastTrick
    taken_back: TakenBack = NOTHING_TAKEN_BACK


@dataclass(frozen=True, slots=True)
class GameState:
    """The game between hands.

    ``declarers`` is None before the first hand, when the bid decides it. ``starter`` is who
    starts the next hand when the rules say so (rotation, or the first hand's chosen starter);
    None when the next hand's bid decides it.
    """

    levels: TeamLevels
    declarers: Team | None
    starter: Seat | None
    winner: Team | None = None

    @property
    def game_over(self) -> bool:
        return self.winner is not None

    @property
    def level(self) -> Rank | None:
        """The next hand's level rank, once the declarers are known."""
        return self.levels.of(self.declarers) if self.declarers else None

    def check(self, hand: HandResult) -> None:
        """Raise if ``hand`` cannot be the next hand of this game."""
        if self.game_over:
            raise GameError(f"the game is over: {self.winner} won it")
        if self.starter is not None and hand.declarer is not self.starter:
            raise GameError(f"{hand.declarer} cannot declare: {self.starter} starts this hand")
        if self.declarers is not None and hand.declarer.team is not self.declarers:
            raise GameError(
                f"{hand.declarer} cannot declare: {self.declarers} are the declarers this hand"
            )


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand of a game: what was entered, how it settled, and the game after it."""

    number: int
    result: HandResult
    declarers: Team
    level: Rank
    settlement: Settlement
    before: GameState
    after: GameState


@dataclass(frozen=True, slots=True)
class Game:
    """A game's setup and its hands so far, each settled in turn."""

    setup: GameSetup
    hands: tuple[PlayedHand, ...] = ()

    @property
    def state(self) -> GameState:
        return self.hands[-1].after if self.hands else start(self.setup)

    def play(self, result: HandResult) -> Game:
        """The game with ``result`` as its next hand; GameError names the hand if it can't be."""
        number = len(self.hands) + 1
        try:
            hand = _play(self.setup.rules, number, self.state, result)
        except ScoringError as error:
            raise GameError(f"hand {number}: {error}") from error
        return Game(self.setup, (*self.hands, hand))


def start(setup: GameSetup) -> GameState:
    # A chosen first starter binds only rules that rotate the start; elsewhere the bid decides.
    starter = setup.first_starter if setup.rules.starter is Starter.ROTATE else None
    return GameState(levels=setup.levels, declarers=None, starter=starter)


def replay(setup: GameSetup, results: Iterable[HandResult]) -> Game:
    """Fold a game's hands in order."""
    game = Game(setup)
    for result in results:
        game = game.play(result)
    return game


def _play(rules: Rules, number: int, before: GameState, hand: HandResult) -> PlayedHand:
    before.check(hand)
    declarers = hand.declarer.team
    level = before.levels.of(declarers)
    settlement = settle(
        rules,
        Levels(declarers=level, opponents=before.levels.of(declarers.other)),
        opponent_points=hand.opponent_points,
        kitty_points=hand.kitty_points,
        last_trick=hand.last_trick,
        taken_back=hand.taken_back,
    )
    held = settlement.next_declarers is Side.DECLARERS
    starter = None
    if rules.starter is Starter.ROTATE:
        starter = hand.declarer.partner if held else hand.declarer.right
    winner = None
    if settlement.game_winner is not None:
        winner = declarers if settlement.game_winner is Side.DECLARERS else declarers.other
    after = GameState(
        levels=before.levels.with_level(declarers, settlement.levels.declarers).with_level(
            declarers.other, settlement.levels.opponents
        ),
        declarers=declarers if held else declarers.other,
        starter=starter,
        winner=winner,
    )
    return PlayedHand(number, hand, declarers, level, settlement, before, after)
