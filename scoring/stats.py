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
    "GameLine",
    "GameRecord",
    "HandLine",
    "Matchup",
    "PartialReplay",
    "PlayerStats",
    "Standing",
    "Tally",
    "every_player_stats",
    "game_stats",
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
    def line(self) -> GameLine[P]:
        """The game as a list of games shows it."""
        return GameLine(
            key=self.key,
            rules=self.rules,
            seats=self.seats,
            teams=self.teams,
            levels=self.levels,
            hand_count=len(self.hands),
            winners=self.winners,
            played=self.played,
            decks=self.decks,
        )

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
class GameLine(Generic[P]):
    """A game as a list of games shows it (:attr:`GameRecord.line`): who sat where, its fixed
    teams, everyone's level now, how many hands were played and who won; none of the hands'
    lines, which a long list need not read."""

    key: Hashable
    rules: Rules
    seats: tuple[P, ...]
    teams: tuple[tuple[int, ...], ...]
    levels: tuple[Rank, ...]
    hand_count: int
    winners: tuple[int, ...]
    played: datetime | None = None
    decks: int = 2

    @classmethod
    def stored(
        cls,
        key: Hashable,
        rules: Rules,
        seats: Sequence[P],
        teams: tuple[tuple[int, ...], ...],
        levels: str,
        hand_count: int,
        winners: str,
        played: datetime | None = None,
        decks: int = 2,
    ) -> GameLine[P]:
        """A line from what an app stores: the levels as :meth:`levels_text` wrote them and the
        winners' seats as digits (``"02"``)."""
        return cls(
            key,
            rules,
            tuple(seats),
            teams,
            _levels(levels),
            hand_count,
            _seats(winners),
            played,
            decks,
        )

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats at the highest level now, ahead in the game (all while all are level)."""
        top = max(self.levels)
        return tuple(seat for seat, level in enumerate(self.levels) if level == top)

    def players(self, seats: Iterable[int]) -> tuple[P, ...]:
        return tuple(self.seats[seat] for seat in seats)

    def won(self, seat: int) -> bool:
        return seat in self.winners

    def levels_text(self) -> str:
        """Everyone's level now as symbols in seat order (``"2T5"``), as apps store it."""
        return "".join(level.symbol for level in self.levels)


@dataclass(frozen=True, slots=True)
class Tally:
    """``hits`` out of ``count``, with their points where points are counted."""

    count: int = 0
    hits: int = 0
    points: int = 0

    @property
    def rate(self) -> float | None:
        return self.hits / self.count if self.count else None

    def as_tuple(self) -> tuple[int, int, int]:
        return (self.count, self.hits, self.points)

    @property
    def average(self) -> float | None:
        """The points per counted hand."""
        return self.points / self.count if self.count else None


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
    """Fixed team-mates in finished games, in the order of their identities (ids, names)."""
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

    def to_json(self) -> dict:
        """The statistics as plain JSON (the player themself left out: the reader knows them);
        :meth:`from_json` reads them back.

        >>> from scoring.rules import get_rules
        >>> won = GameRecord(1, get_rules("standard"), (7, 8, 9, 10), ((0, 2), (1, 3)),
        ...                  (Rank.TWO,) * 4, (), (0, 2))
        >>> stats = player_stats([won], 7)
        >>> PlayerStats.from_json(7, stats.to_json()) == stats
        True
        """
        return {
            **{name: getattr(self, name) for name in _NUMBERS},
            **{name: list(getattr(self, name).as_tuple()) for name in _TALLIES},
            "by_level": [[rank.symbol, tally.count, tally.hits] for rank, tally in self.by_level],
            "partners": [[m.player, m.games, m.wins] for m in self.partners],
            "opponents": [[m.player, m.games, m.wins] for m in self.opponents],
            "totals": sorted(self.totals.items()),
        }

    @classmethod
    def from_json(cls, player: P, data: dict) -> PlayerStats[P]:
        return cls(
            player,
            **{name: data[name] for name in _NUMBERS},
            **{name: Tally(*data[name]) for name in _TALLIES},
            by_level=tuple(
                (_RANKS[symbol], Tally(count, hits)) for symbol, count, hits in data["by_level"]
            ),
            partners=tuple(Matchup(*matchup) for matchup in data["partners"]),
            opponents=tuple(Matchup(*matchup) for matchup in data["opponents"]),
            totals=Counter(dict(map(tuple, data["totals"]))),
        )

    @classmethod
    def sum(
        cls, player: P, added: Iterable[PlayerStats[P]], taken: Iterable[PlayerStats[P]] = ()
    ) -> PlayerStats[P]:
        """``player``'s statistics over the games of ``added`` (shares of games, or statistics
        over several) less those of ``taken``: every number is a count, so a sum of games'
        shares equals a count over the games, whatever their order.

        >>> from scoring.rules import get_rules
        >>> won = GameRecord(1, get_rules("standard"), tuple("MJLH"), ((0, 2), (1, 3)),
        ...                  (Rank.TWO,) * 4, (), (0, 2))
        >>> both = PlayerStats.sum("M", [player_stats([won], "M")] * 2)
        >>> both.wins, both.partners
        (2, (Matchup(player='L', games=2, wins=2),))
        >>> PlayerStats.sum("M", [both], [player_stats([won], "M")]) == player_stats([won], "M")
        True
        """
        counts = _Counts()
        for stats in added:
            counts.add(stats)
        for stats in taken:
            counts.add(stats, -1)
        return counts.stats(player)


_NUMBERS = (
    "games",
    "finished",
    "wins",
    "big_wins",
    "shut_out",
    "near_misses_declaring",
    "near_misses_defending",
)
"""The fields of :class:`PlayerStats` that are numbers."""
_TALLIES = ("declared", "defended", "scoops", "scooped", "started", "befriended", "called")
"""The fields of :class:`PlayerStats` that are tallies."""


def game_stats(record: GameRecord[P]) -> dict[P, PlayerStats[P]]:
    """Each seated player's share of one game: what :func:`player_stats` counts of it.

    A player's statistics are the sum of their games' shares (:meth:`PlayerStats.sum`), so that
    a ladder can take a changed game's old share away and add its new one instead of counting
    every game again.
    """
    groups = _groups(record)
    shares = {}
    for seat, player in enumerate(record.seats):
        counts = _Counts()
        counts.count(record, seat, groups)
        shares[player] = counts.stats(player)
    return shares


def player_stats(records: Iterable[GameRecord[P]], player: P) -> PlayerStats[P]:
    """Everything :class:`PlayerStats` holds, for ``player``, over ``records``."""
    counts = _Counts()
    for record in records:
        seat = record.seat_of(player)
        if seat is not None:
            counts.count(record, seat, _groups(record))
    return counts.stats(player)


def every_player_stats(records: Iterable[GameRecord[P]]) -> dict[P, PlayerStats[P]]:
    """:func:`player_stats` of every player of ``records``, counted in one pass over them."""
    counts: dict[P, _Counts] = {}
    for record in records:
        groups = _groups(record)
        for seat, player in enumerate(record.seats):
            if player not in counts:
                counts[player] = _Counts()
            counts[player].count(record, seat, groups)
    return {player: counted.stats(player) for player, counted in counts.items()}


# What a group of hands adds up to, in the order _groups writes it.
_HANDS, _HELD, _POINTS, _SCOOPS, _BONUS, _ZEROS, _AT_LINE, _SHORT, _LEVELS = range(9)


def _groups(record: GameRecord) -> tuple[dict[tuple[int, tuple[int, ...]], list], Counter]:
    """The record's hands grouped by declarer and declaring side, each group summed (the hands
    of a group count alike for every seat, which then reads a few groups instead of every
    hand), and the opponents' totals of all its hands."""
    line = take_over_total(record.rules, record.decks)
    groups: dict[tuple[int, tuple[int, ...]], list] = {}
    totals: Counter = Counter()
    for hand in record.hands:
        total, bonus, held = hand.opponent_total, hand.kitty_bonus, hand.held
        group = groups.get((hand.declarer, hand.declarers))
        if group is None:
            group = groups[hand.declarer, hand.declarers] = [0, 0, 0, 0, 0, 0, 0, 0, Counter()]
        group[_HANDS] += 1
        group[_HELD] += held
        group[_POINTS] += total
        group[_SCOOPS] += bonus > 0
        group[_BONUS] += bonus
        group[_ZEROS] += total == 0
        group[_AT_LINE] += total == line
        group[_SHORT] += total == line - 5
        group[_LEVELS][hand.level, held] += 1
        totals[total] += 1
    return groups, totals


class _Counts:
    """A player's statistics while they are counted: every number of :class:`PlayerStats` as a
    plain, changing number (a tally as a list of three)."""

    __slots__ = ("by_level", "numbers", "opponents", "partners", "tallies", "totals")

    def __init__(self) -> None:
        self.numbers = dict.fromkeys(_NUMBERS, 0)
        self.tallies = {name: [0, 0, 0] for name in _TALLIES}
        self.by_level: dict[Rank, list[int]] = {}
        self.partners: dict[Hashable, list[int]] = {}
        self.opponents: dict[Hashable, list[int]] = {}
        self.totals: Counter = Counter()

    def count(self, record: GameRecord, seat: int, grouped: tuple[dict, Counter]) -> None:
        """Add the game of ``record`` for the player in ``seat``; ``grouped`` is what
        :func:`_groups` makes of its hands."""
        groups, totals = grouped
        numbers, tallies, by_level = self.numbers, self.tallies, self.by_level
        declared, defended = tallies["declared"], tallies["defended"]
        scoops, scooped = tallies["scoops"], tallies["scooped"]
        friendly = not record.teams
        for (declarer, declarers), group in groups.items():
            hands, held = group[_HANDS], group[_HELD]
            if seat in declarers:
                declared[0] += hands
                declared[1] += held
                declared[2] += group[_POINTS]
                scooped[0] += hands
                scooped[1] += group[_SCOOPS]
                scooped[2] += group[_BONUS]
                numbers["big_wins"] += group[_ZEROS]
                numbers["near_misses_declaring"] += group[_AT_LINE]
                for (level, hit), times in group[_LEVELS].items():
                    tally = by_level.setdefault(level, [0, 0])
                    tally[0] += times
                    tally[1] += hit * times
            else:
                defended[0] += hands
                defended[1] += hands - held
                defended[2] += group[_POINTS]
                scoops[0] += hands
                scoops[1] += group[_SCOOPS]
                scoops[2] += group[_BONUS]
                numbers["shut_out"] += group[_ZEROS]
                numbers["near_misses_defending"] += group[_SHORT]
            if not friendly:
                continue
            if declarer == seat:
                tallies["started"][0] += hands
                tallies["started"][1] += held
            else:
                tallies["called"][0] += hands
                if seat in declarers:
                    tallies["called"][1] += hands
                    tallies["befriended"][0] += hands
                    tallies["befriended"][1] += held
        self.totals.update(totals)
        numbers["games"] += 1
        if not record.finished:
            return
        won = record.won(seat)
        numbers["finished"] += 1
        numbers["wins"] += won
        team = record.team_of(seat)
        for other, player in enumerate(record.seats):
            if other != seat:
                matchup = self.partners if other in team else self.opponents
                games_won = matchup.setdefault(player, [0, 0])
                games_won[0] += 1
                games_won[1] += won

    def add(self, stats: PlayerStats, sign: int = 1) -> None:
        """Add ``stats`` (``sign`` 1), or take them away (-1)."""
        for name in _NUMBERS:
            self.numbers[name] += sign * getattr(stats, name)
        for name, into in self.tallies.items():
            tally = getattr(stats, name)
            into[0] += sign * tally.count
            into[1] += sign * tally.hits
            into[2] += sign * tally.points
        for level, tally in stats.by_level:
            into = self.by_level.setdefault(level, [0, 0])
            into[0] += sign * tally.count
            into[1] += sign * tally.hits
        for matchups, met in ((stats.partners, self.partners), (stats.opponents, self.opponents)):
            for matchup in matchups:
                into = met.setdefault(matchup.player, [0, 0])
                into[0] += sign * matchup.games
                into[1] += sign * matchup.wins
        for total, times in stats.totals.items():
            self.totals[total] += sign * times

    def stats(self, player: P) -> PlayerStats[P]:
        """What has been counted, as ``player``'s statistics; what adds up to none is left
        out, and partners and opponents come in the order of the players' identities, so that
        every way of counting the same games gives the same value."""

        def matchups(met: dict[P, list[int]]) -> tuple[Matchup[P], ...]:
            return tuple(
                Matchup(p, games, wins) for p, (games, wins) in sorted(met.items()) if games
            )

        by_level = self.by_level
        return PlayerStats(
            player,
            **self.numbers,
            **{name: Tally(*tally) for name, tally in self.tallies.items()},
            by_level=tuple(
                (level, Tally(*by_level[level])) for level in sorted(by_level) if by_level[level][0]
            ),
            partners=matchups(self.partners),
            opponents=matchups(self.opponents),
            totals=Counter({total: times for total, times in self.totals.items() if times}),
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
