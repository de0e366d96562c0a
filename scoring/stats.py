"""A group's ladder history in numbers: what its games say about each player.

The statistics read :class:`GameRecord` values, each a game reduced to what they need: its rules,
who sat where, when it was played, and one :class:`HandLine` per settled hand. A record is made
from a scored game (:meth:`GameRecord.of`) and keeps a compact JSON form, so that an app can store
it beside the game and not replay every hand of every game on every page.

The definitions, as the player pages show them:

- A player **declares** a hand when their team are its declarers (whichever partner bid), and
  **defends** it when their team are its opponents.
- **Hold rate**: of the hands a player declared, the share their team held (the hand's winner
  was the declarers, who then declared again). Per level, it is counted at the level the hand
  was played at; at A it says how often a team got stuck there.
- **Take-over rate**: of the hands a player defended, the share their team took the deal.
- **Opponents' points**: the opponents' total that the rules' bands read (card points plus the
  kitty bonus), averaged over the hands a player declared (points conceded) and defended
  (points scored).
- **Kitty scoop**: a hand whose opponents won the last trick while the kitty held points, so that
  a kitty bonus was added to their total.
- **Big win**: a hand whose declarers held the opponents to a total of 0.
- **Near miss**: a hand lost by one five-point step at the line where the deal changes hands
  (the lowest total of the rules' first opponents' band: 80 in every preset). The declarers
  miss narrowly when the opponents reach exactly that total (80: they lose the deal by 5); the
  opponents miss narrowly when they stop five short of it (75).
- **Win rate**, partners and opponents count finished games only.

>>> from scoring.rules import Format, get_rules
>>> from scoring.game import GameSetup, HandResult, replay
>>> from scoring.settle import LastTrick
>>> game = replay(GameSetup(get_rules("standard")), [
...     HandResult(Seat.NORTH, 0, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))])
>>> record = GameRecord.of(1, game, dict(zip(Seat, "MJLH")))
>>> stats = player_stats([record], "M")
>>> stats.declared.count, stats.declared.hits, stats.big_wins
(1, 1, 1)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from scoring.cards import Rank
from scoring.errors import ScoringError
from scoring.game import Game, GameError, GameSetup, HandResult, Seat, Team, TeamLevels
from scoring.rules import Rules, Side

P = TypeVar("P", bound=Hashable)
"""A player's identity, as the caller knows it: a database id, a name."""

__all__ = [
    "GameRecord",
    "HandLine",
    "Matchup",
    "PartialReplay",
    "PlayerStats",
    "Standing",
    "Tally",
    "opponent_totals",
    "partial_replay",
    "player_stats",
    "standings",
    "take_over_total",
]


def take_over_total(rules: Rules) -> int:
    """The lowest opponents' total at which the opponents win the hand (80 in every preset).

    >>> from scoring.rules import get_rules
    >>> take_over_total(get_rules("simplified"))
    80
    """
    return next(band.low for band in rules.bands if band.winner is Side.OPPONENTS)


@dataclass(frozen=True, slots=True)
class HandLine:
    """One settled hand, as the statistics read it."""

    declarer: Seat
    level: Rank
    opponent_total: int
    kitty_bonus: int
    winner: Side
    levels: TeamLevels
    """Both teams' levels after the hand."""

    @property
    def declarers(self) -> Team:
        return self.declarer.team

    @property
    def held(self) -> bool:
        return self.winner is Side.DECLARERS

    def to_json(self) -> list:
        north_south, east_west = self.levels
        return [
            self.declarer.value,
            self.level.symbol,
            self.opponent_total,
            self.kitty_bonus,
            self.winner.value,
            north_south.symbol,
            east_west.symbol,
        ]

    @classmethod
    def from_json(cls, data: Sequence) -> HandLine:
        return _hand_line(data)


_SEATS = {seat.value: seat for seat in Seat}
_RANKS = {rank.symbol: rank for rank in Rank}
_SIDES = {side.value: side for side in Side}
_LEVELS = {
    (north_south.symbol, east_west.symbol): TeamLevels(north_south, east_west)
    for north_south in Rank
    for east_west in Rank
}


def _hand_line(data: Sequence) -> HandLine:
    """A hand line read from its JSON form by table look-ups: a long history holds thousands."""
    declarer, level, total, bonus, winner, north_south, east_west = data
    return HandLine(
        _SEATS[declarer],
        _RANKS[level],
        total,
        bonus,
        _SIDES[winner],
        _LEVELS[north_south, east_west],
    )


@dataclass(frozen=True, slots=True)
class GameRecord(Generic[P]):
    """A game as the history reads it: ``seats`` name the player in each seat."""

    key: Hashable
    rules: Rules
    seats: Mapping[Seat, P]
    start: TeamLevels
    hands: tuple[HandLine, ...]
    winner: Team | None
    played: datetime | None = None

    @classmethod
    def of(
        cls,
        key: Hashable,
        game: Game,
        seats: Mapping[Seat, P],
        played: datetime | None = None,
    ) -> GameRecord[P]:
        """The record of a scored game."""
        return cls(
            key=key,
            rules=game.setup.rules,
            seats=dict(seats),
            start=game.setup.levels,
            hands=tuple(
                HandLine(
                    declarer=hand.result.declarer,
                    level=hand.level,
                    opponent_total=hand.settlement.opponent_total,
                    kitty_bonus=hand.settlement.kitty_bonus,
                    winner=hand.settlement.winner,
                    levels=hand.after.levels,
                )
                for hand in game.hands
            ),
            winner=game.state.winner,
            played=played,
        )

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def levels(self) -> TeamLevels:
        """Both teams' levels now: after the last hand, or where the game started."""
        return self.hands[-1].levels if self.hands else self.start

    @property
    def race(self) -> tuple[TeamLevels, ...]:
        """Both teams' levels at the start and after each hand: the level race."""
        return (self.start, *(hand.levels for hand in self.hands))

    def seat_of(self, player: P) -> Seat | None:
        return next((seat for seat, seated in self.seats.items() if seated == player), None)

    def players(self, team: Team) -> tuple[P, P]:
        first, second = team.seats
        return self.seats[first], self.seats[second]

    def hands_json(self) -> list[list]:
        """The hands' compact JSON form; :meth:`with_hands_json` reads it back."""
        return [hand.to_json() for hand in self.hands]

    @classmethod
    def with_hands_json(
        cls,
        key: Hashable,
        setup: GameSetup,
        seats: Mapping[Seat, P],
        hands: Iterable[Sequence],
        winner: str | None,
        played: datetime | None = None,
    ) -> GameRecord[P]:
        """A record from a game's setup and seats and its stored hands."""
        return cls(
            key=key,
            rules=setup.rules,
            seats=dict(seats),
            start=setup.levels,
            hands=tuple(map(_hand_line, hands)),
            winner=Team(winner) if winner else None,
            played=played,
        )


@dataclass(frozen=True, slots=True)
class Tally:
    """``hits`` out of ``count``, with their points where points are counted."""

    count: int = 0
    hits: int = 0
    points: int = 0

    @property
    def rate(self) -> float | None:
        return self.hits / self.count if self.count else None

    @property
    def average(self) -> float | None:
        """The points per counted hand."""
        return self.points / self.count if self.count else None

    def add(self, hit: bool, points: int = 0) -> Tally:
        return Tally(self.count + 1, self.hits + hit, self.points + points)


@dataclass(frozen=True, slots=True)
class Matchup(Generic[P]):
    """Finished games with (or against) ``player``, and how many of them were won."""

    player: P
    games: int
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.games


@dataclass(frozen=True, slots=True)
class PlayerStats(Generic[P]):
    """What a player's games say about them; see the module's docstring for the definitions."""

    player: P
    games: int = 0
    finished: int = 0
    wins: int = 0
    declared: Tally = Tally()
    """Hands declared; hits: held; points: the opponents' totals conceded."""
    by_level: tuple[tuple[Rank, Tally], ...] = ()
    """Hands declared and held at each level played, from 2 up."""
    defended: Tally = Tally()
    """Hands defended; hits: the deal taken; points: the opponents' totals scored."""
    scoops: Tally = Tally()
    """Hands defended; hits: kitty scoops made; points: their kitty bonus."""
    scooped: Tally = Tally()
    """Hands declared; hits: kitty scoops suffered; points: the bonus given away."""
    big_wins: int = 0
    """Hands declared with the opponents held to 0."""
    shut_out: int = 0
    """Hands defended with a total of 0."""
    near_misses_declaring: int = 0
    """Hands declared and lost at exactly the take-over total (80)."""
    near_misses_defending: int = 0
    """Hands defended and lost five short of the take-over total (75)."""
    partners: tuple[Matchup[P], ...] = ()
    opponents: tuple[Matchup[P], ...] = ()
    totals: Counter = field(default_factory=Counter)
    """The opponents' totals of every hand played, declaring or defending."""

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None

    @property
    def hands(self) -> int:
        return self.declared.count + self.defended.count

    @property
    def at_ace(self) -> Tally:
        """Hands declared at A; hits: held. Those not held are the times stuck at A."""
        return dict(self.by_level).get(Rank.ACE, Tally())

    @property
    def stuck_at_ace(self) -> int:
        """Hands declared at A and not held."""
        return self.at_ace.count - self.at_ace.hits

    @property
    def best_partner(self) -> Matchup[P] | None:
        """The partner with the best win rate; more games together break a tie."""
        return max(self.partners, key=lambda m: (m.rate, m.games), default=None)

    @property
    def worst_partner(self) -> Matchup[P] | None:
        """The partner with the worst win rate, if there are two partners to tell apart."""
        if len(self.partners) < 2:
            return None
        return min(self.partners, key=lambda m: (m.rate, -m.games))

    @property
    def toughest_opponent(self) -> Matchup[P] | None:
        """The opponent this player beats least often; more games against break a tie."""
        return min(self.opponents, key=lambda m: (m.rate, -m.games), default=None)


def player_stats(records: Iterable[GameRecord[P]], player: P) -> PlayerStats[P]:
    """Everything :class:`PlayerStats` holds, for ``player``, over ``records``."""
    games = finished = wins = 0
    declared = defended = scoops = scooped = Tally()
    by_level: dict[Rank, Tally] = {}
    big_wins = shut_out = near_declaring = near_defending = 0
    partners: Counter = Counter()
    partner_wins: Counter = Counter()
    opponents: Counter = Counter()
    opponent_wins: Counter = Counter()
    totals: Counter = Counter()
    for record in records:
        seat = record.seat_of(player)
        if seat is None:
            continue
        team = seat.team
        games += 1
        line = take_over_total(record.rules)
        for hand in record.hands:
            totals[hand.opponent_total] += 1
            scoop = hand.kitty_bonus > 0
            if hand.declarers is team:
                declared = declared.add(hand.held, hand.opponent_total)
                by_level[hand.level] = by_level.get(hand.level, Tally()).add(hand.held)
                scooped = scooped.add(scoop, hand.kitty_bonus)
                big_wins += hand.opponent_total == 0
                near_declaring += hand.opponent_total == line
            else:
                defended = defended.add(not hand.held, hand.opponent_total)
                scoops = scoops.add(scoop, hand.kitty_bonus)
                shut_out += hand.opponent_total == 0
                near_defending += hand.opponent_total == line - 5
        if not record.finished:
            continue
        won = record.winner is team
        finished += 1
        wins += won
        partner = record.seats[seat.partner]
        partners[partner] += 1
        partner_wins[partner] += won
        for opponent in record.players(team.other):
            opponents[opponent] += 1
            opponent_wins[opponent] += won
    return PlayerStats(
        player=player,
        games=games,
        finished=finished,
        wins=wins,
        declared=declared,
        by_level=tuple(sorted(by_level.items())),
        defended=defended,
        scoops=scoops,
        scooped=scooped,
        big_wins=big_wins,
        shut_out=shut_out,
        near_misses_declaring=near_declaring,
        near_misses_defending=near_defending,
        partners=tuple(Matchup(p, n, partner_wins[p]) for p, n in partners.items()),
        opponents=tuple(Matchup(p, n, opponent_wins[p]) for p, n in opponents.items()),
        totals=totals,
    )


@dataclass(frozen=True, slots=True)
class Standing(Generic[P]):
    """A player's games, finished games and wins: a line of the group's table."""

    player: P
    games: int = 0
    finished: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None


def standings(records: Iterable[GameRecord[P]]) -> dict[P, Standing[P]]:
    """Every player's games, finished games and wins, in the order they first played."""
    games: Counter = Counter()
    finished: Counter = Counter()
    wins: Counter = Counter()
    for record in records:
        for seat, player in record.seats.items():
            games[player] += 1
            finished[player] += record.finished
            wins[player] += record.winner is seat.team
    return {p: Standing(p, games[p], finished[p], wins[p]) for p in games}


def opponent_totals(records: Iterable[GameRecord]) -> list[tuple[Rules, Counter]]:
    """How often each opponents' total was scored, per rules, the most played rules first."""
    by_rules: dict[Rules, Counter] = {}
    for record in records:
        counter = by_rules.setdefault(record.rules, Counter())
        counter.update(hand.opponent_total for hand in record.hands)
    return sorted(by_rules.items(), key=lambda item: -item[1].total())


@dataclass(frozen=True, slots=True)
class PartialReplay:
    """A game's hands folded for as long as they can be: ``error`` says why the rest could not.

    ``stopped`` is the number of the first hand that could not be played, or None; ``swapped``
    the numbers of the hands that the rules' rotation gave to the declarer's partner.
    """

    game: Game
    error: GameError | None = None
    swapped: tuple[int, ...] = ()

    @property
    def stopped(self) -> int | None:
        return len(self.game.hands) + 1 if self.error else None


def partial_replay(
    setup: GameSetup, results: Iterable[HandResult], *, swap_partners: bool = False
) -> PartialReplay:
    """Fold ``results`` under ``setup`` up to the first hand that cannot follow.

    Replaying a game under other rules can end it earlier, or make the next declarers the other
    team, or meet a last trick those rules do not allow; the replay stops there. With
    ``swap_partners``, a hand whose rules name a starter (their rotation) but which the
    starter's partner declared is taken as the starter's: the same team, the same points.

    >>> from scoring.rules import Format, get_rules
    >>> from scoring.settle import LastTrick
    >>> held = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
    >>> hands = [HandResult(Seat.NORTH, 45, 0, held), HandResult(Seat.NORTH, 45, 0, held)]
    >>> partial_replay(GameSetup(get_rules("kawu")), hands).stopped
    2
    >>> partial_replay(GameSetup(get_rules("kawu")), hands, swap_partners=True).swapped
    (2,)
    >>> throw = LastTrick(Side.DECLARERS, Format.THROW, 3)
    >>> partial = partial_replay(GameSetup(get_rules("standard")), [
    ...     HandResult(Seat.NORTH, 45, 0, throw)])
    >>> partial.stopped, str(partial.error)
    (1, 'hand 1: the standard rules allow no throws, so the last trick was no throw')
    """
    game = Game(setup)
    swapped: list[int] = []
    for result in results:
        starter = game.state.starter
        if swap_partners and starter is not None and result.declarer is starter.partner:
            result = dataclasses.replace(result, declarer=starter)
            swapped.append(len(game.hands) + 1)
        try:
            game = game.play(result)
        except ScoringError as error:
            if not isinstance(error, GameError):
                error = GameError(f"hand {len(game.hands) + 1}: {error}")
            return PartialReplay(game, error, tuple(swapped))
    return PartialReplay(game, None, tuple(swapped))
