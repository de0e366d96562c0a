"""A group's ladder history in numbers: what its games say about each player.

The statistics read :class:`GameRecord` values, each a game reduced to what they need: its rules,
who sat where (in play order), its fixed teams, when it was played, and one :class:`HandLine` per
settled hand. A record is made from a scored game (:meth:`GameRecord.of`) and keeps a compact
JSON form, so that an app can store it beside the game and not replay every hand of every game on
every page.

The definitions, as the player pages show them:

- A player **declares** a hand when they are on its declaring side: their team are its
  declarers (whichever of them bid), or in find-a-friend they started it or were a friend; they
  **defend** it otherwise.
- **Hold rate**: of the hands a player declared, the share their side held (the hand's winner
  was the declarers). Per level, it is counted at the level the hand was played at; at A it
  says how often a side got stuck there. In find-a-friend it is also split into the hands the
  player started and those they joined as a friend, and **called** says how often another
  declarer's called card found them.
- **Take-over rate**: of the hands a player defended, the share their side took the deal.
- **Opponents' points**: the opponents' total that the rules' bands read (card points plus the
  kitty bonus), averaged over the hands a player declared (points conceded) and defended
  (points scored).
- **Kitty scoop**: a hand whose opponents won the last trick while the kitty held points, so that
  a kitty bonus was added to their total.
- **Big win**: a hand whose declarers held the opponents to a total of 0.
- **Near miss**: a hand lost by one five-point step at the line where the deal changes hands
  (the lowest total of the rules' first opponents' band, for the game's decks: 80 with two
  decks in every preset). The declarers miss narrowly when the opponents reach exactly that
  total; the opponents miss narrowly when they stop five short of it.
- **Win rate**, partners and opponents count finished games only; a game's winners are the
  players it names (a team, or in find-a-friend the players who reached the end). Partners are
  the fixed team-mates; find-a-friend games have none.

>>> from scoring.rules import Format, get_rules
>>> from scoring.game import GameSetup, HandResult, replay
>>> from scoring.settle import LastTrick
>>> from scoring.table import Table
>>> game = replay(GameSetup(get_rules("standard"), Table(tuple("MJLH"))), [
...     HandResult(0, 0, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))])
>>> record = GameRecord.of(1, game, "MJLH")
>>> stats = player_stats([record], "M")
>>> stats.declared.count, stats.declared.hits, stats.big_wins
(1, 1, 1)
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

from scoring.cards import Rank
from scoring.errors import ScoringError
from scoring.game import Game, GameError, GameSetup, HandResult
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


def take_over_total(rules: Rules, decks: int = 2) -> int:
    """The lowest opponents' total at which the opponents win the hand (80 with two decks in
    every preset).

    >>> from scoring.rules import get_rules
    >>> take_over_total(get_rules("simplified")), take_over_total(get_rules("standard"), 3)
    (80, 120)
    """
    return next(band.low for band in rules.for_decks(decks).bands if band.winner is Side.OPPONENTS)


@dataclass(frozen=True, slots=True)
class HandLine:
    """One settled hand, as the statistics read it: seats are numbered in play order."""

    declarer: int
    declarers: tuple[int, ...]
    """The declaring side: the declarer's team, or the declarer and their friends."""
    level: Rank
    opponent_total: int
    kitty_bonus: int
    winner: Side
    levels: tuple[Rank, ...]
    """Every player's level after the hand."""

    @property
    def held(self) -> bool:
        return self.winner is Side.DECLARERS

    def to_json(self) -> list:
        return [
            self.declarer,
            "".join(map(str, self.declarers)),
            self.level.symbol,
            self.opponent_total,
            self.kitty_bonus,
            self.winner.value,
            "".join(level.symbol for level in self.levels),
        ]

    @classmethod
    def from_json(cls, data: Sequence) -> HandLine:
        return _hand_line(data)


_RANKS = {rank.symbol: rank for rank in Rank}
_SIDES = {side.value: side for side in Side}


@functools.cache
def _seats(text: str) -> tuple[int, ...]:
    return tuple(map(int, text))


@functools.lru_cache(maxsize=4096)
def _levels(text: str) -> tuple[Rank, ...]:
    return tuple(_RANKS[symbol] for symbol in text)


def _hand_line(data: Sequence) -> HandLine:
    """A hand line read from its JSON form by table look-ups: a long history holds thousands."""
    declarer, declarers, level, total, bonus, winner, levels = data
    return HandLine(
        declarer,
        _seats(declarers),
        _RANKS[level],
        total,
        bonus,
        _SIDES[winner],
        _levels(levels),
    )


@dataclass(frozen=True, slots=True)
class GameRecord(Generic[P]):
    """A game as the history reads it: ``seats`` name the player in each seat, in play order;
    ``teams`` are its fixed teams as seats (none in find-a-friend); ``winners`` the seats that
    won it, once it is finished."""

    key: Hashable
    rules: Rules
    seats: tuple[P, ...]
    teams: tuple[tuple[int, ...], ...]
    start: tuple[Rank, ...]
    hands: tuple[HandLine, ...]
    winners: tuple[int, ...]
    played: datetime | None = None
    decks: int = 2

    @classmethod
    def of(
        cls,
        key: Hashable,
        game: Game,
        seats: Sequence[P],
        played: datetime | None = None,
    ) -> GameRecord[P]:
        """The record of a scored game."""
        return cls(
            key=key,
            rules=game.setup.rules,
            seats=tuple(seats),
            teams=game.table.fixed,
            start=game.setup.levels,
            hands=tuple(
                HandLine(
                    declarer=hand.result.declarer,
                    declarers=hand.declarers,
                    level=hand.level,
                    opponent_total=hand.settlement.opponent_total,
                    kitty_bonus=hand.settlement.kitty_bonus,
                    winner=hand.settlement.winner,
                    levels=hand.after.levels,
                )
                for hand in game.hands
            ),
            winners=game.state.winners,
            played=played,
            decks=game.table.decks,
        )

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def levels(self) -> tuple[Rank, ...]:
        """Every player's level now: after the last hand, or where the game started."""
        return self.hands[-1].levels if self.hands else self.start

    @property
    def race(self) -> tuple[tuple[Rank, ...], ...]:
        """Every player's level at the start and after each hand: the level race."""
        return (self.start, *(hand.levels for hand in self.hands))

    def seat_of(self, player: P) -> int | None:
        return next((seat for seat, seated in enumerate(self.seats) if seated == player), None)

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seat's fixed team (just the seat in find-a-friend)."""
        return next((team for team in self.teams if seat in team), (seat,))

    def players(self, seats: Iterable[int]) -> tuple[P, ...]:
        return tuple(self.seats[seat] for seat in seats)

    def won(self, seat: int) -> bool:
        return seat in self.winners

    def hands_json(self) -> list[list]:
        """The hands' compact JSON form; :meth:`with_hands_json` reads it back."""
        return [hand.to_json() for hand in self.hands]

    @classmethod
    def with_hands_json(
        cls,
        key: Hashable,
        setup: GameSetup,
        seats: Sequence[P],
        hands: Iterable[Sequence],
        winners: str,
        played: datetime | None = None,
    ) -> GameRecord[P]:
        """A record from a game's setup and seats and its stored hands and winners (their seats
        as digits, ``"02"``)."""
        return cls(
            key=key,
            rules=setup.rules,
            seats=tuple(seats),
            teams=setup.table.fixed,
            start=setup.levels,
            hands=tuple(map(_hand_line, hands)),
            winners=_seats(winners),
            played=played,
            decks=setup.table.decks,
        )

    @staticmethod
    def winners_json(winners: Iterable[int]) -> str:
        return "".join(map(str, winners))


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
    started: Tally = Tally()
    """Find-a-friend hands this player started; hits: held."""
    befriended: Tally = Tally()
    """Find-a-friend hands this player joined as a friend; hits: held."""
    called: Tally = Tally()
    """Find-a-friend hands another player started; hits: a called card found this player."""
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
    declared = defended = scoops = scooped = started = befriended = called = Tally()
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
        games += 1
        line = take_over_total(record.rules, record.decks)
        friendly = not record.teams
        for hand in record.hands:
            totals[hand.opponent_total] += 1
            scoop = hand.kitty_bonus > 0
            if seat in hand.declarers:
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
            if not friendly:
                continue
            if hand.declarer == seat:
                started = started.add(hand.held)
            else:
                friend = seat in hand.declarers
                called = called.add(friend)
                if friend:
                    befriended = befriended.add(hand.held)
        if not record.finished:
            continue
        won = record.won(seat)
        finished += 1
        wins += won
        team = record.team_of(seat)
        for partner in record.players(other for other in team if other != seat):
            partners[partner] += 1
            partner_wins[partner] += won
        for opponent in record.players(
            other for other in range(len(record.seats)) if other not in team
        ):
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
        started=started,
        befriended=befriended,
        called=called,
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
        for seat, player in enumerate(record.seats):
            games[player] += 1
            finished[player] += record.finished
            wins[player] += record.won(seat)
    return {p: Standing(p, games[p], finished[p], wins[p]) for p in games}


def opponent_totals(records: Iterable[GameRecord]) -> list[tuple[Rules, int, Counter]]:
    """How often each opponents' total was scored, per rules and number of decks (totals of
    three decks are read against other bands than two), the most played first."""
    by_rules: dict[tuple[Rules, int], Counter] = {}
    for record in records:
        counter = by_rules.setdefault((record.rules, record.decks), Counter())
        counter.update(hand.opponent_total for hand in record.hands)
    return sorted(
        ((rules, decks, totals) for (rules, decks), totals in by_rules.items()),
        key=lambda item: -item[2].total(),
    )


@dataclass(frozen=True, slots=True)
class PartialReplay:
    """A game's hands folded for as long as they can be: ``error`` says why the rest could not.

    ``stopped`` is the number of the first hand that could not be played, or None; ``swapped``
    the numbers of the hands that the rules' rotation gave to a team-mate of the declarer.
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

    Replaying a game under other rules can end it earlier, or make the next declarers another
    team, or meet a last trick those rules do not allow; the replay stops there. With
    ``swap_partners``, a hand whose rules name its one starter (a rotation) but which a
    team-mate of that starter declared is taken as the starter's: the same team, the same points.

    >>> from scoring.rules import Format, get_rules
    >>> from scoring.settle import LastTrick
    >>> held = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
    >>> from scoring.table import Table
    >>> table = Table(tuple("MJLH"))
    >>> hands = [HandResult(0, 45, 0, held), HandResult(0, 45, 0, held)]
    >>> partial_replay(GameSetup(get_rules("kawu"), table, first_declarer=0), hands).stopped
    2
    >>> kawu = GameSetup(get_rules("kawu"), table, first_declarer=0)
    >>> partial_replay(kawu, hands, swap_partners=True).swapped
    (2,)
    >>> throw = LastTrick(Side.DECLARERS, Format.THROW, 3)
    >>> partial = partial_replay(GameSetup(get_rules("standard"), table), [
    ...     HandResult(0, 45, 0, throw)])
    >>> partial.stopped, str(partial.error)
    (1, 'hand 1: the standard rules allow no throws, so the last trick was no throw')
    """
    game = Game(setup)
    swapped: list[int] = []
    for result in results:
        starters = game.state.next_declarers
        if (
            swap_partners
            and len(starters) == 1
            and result.declarer != starters[0]
            and result.declarer in setup.table.team(starters[0])
        ):
            result = dataclasses.replace(result, declarer=starters[0])
            swapped.append(len(game.hands) + 1)
        try:
            game = game.play(result)
        except ScoringError as error:
            if not isinstance(error, GameError):
                error = GameError(str(error), hand=len(game.hands) + 1)
            return PartialReplay(game, error, tuple(swapped))
    return PartialReplay(game, None, tuple(swapped))
