"""Club nights: seating each round of an evening, swapping two players, and the evening's
standings.

An evening plays rounds; each round seats the players present at tables of one
:class:`Shape` (players per table and the teams rule, optionally tables of mixed sizes), and
those who do not fill a table sit out. Players are any hashable ids (database ids, names), given
in roster order; nothing here sorts or hashes them for an order, so the same inputs and seed
always give the same seating.

The API:

- ``Shape(size, teams=Teams.PARTNERS, mixed=False)``: the table shape;
  ``shape.tables(count)`` the table sizes for ``count`` players.
- ``Seating(tables, out=(), teams=Teams.PARTNERS)``: a round's tables (player ids in seat
  order, so the teams follow from the seats as in :class:`~scoring.table.Table`) and who sits out;
  ``seating.teams_at(index)``, ``seating.partnerships``, ``seating.players``.
- ``seat(players, shape, rule, *, ratings=None, played=(), seed=0) -> Seating``: the next
  round's seating by ``Rule.RANDOM``, ``Rule.BALANCED`` or ``Rule.NEW_PARTNERS``, of at most
  :data:`MAX_EVENING_PLAYERS` players; :class:`EveningError` (a ``ValueError``, with
  ``field``) for input it cannot seat.
- ``spread(seating, ratings) -> float`` and ``repeats(seating, played) -> int``: the measures
  balanced and new-partners seatings minimise, for a page to show.
- ``swap(seating, a, b) -> Seating``: the seating with two players' places exchanged.
- ``standings(games, players=()) -> tuple[EveningStanding, ...]``: the evening's standings from
  its games (``EveningGame(record, ended=False)``), ranked as :data:`RANKING` says.

The rules, each in the sentence a page can show:

- **Sitting out**: :data:`SITTING_OUT`.
- **Mixed sizes**: where the shape allows mixed tables, as many players as possible are seated,
  at tables as close to the chosen size as possible (:meth:`Shape.tables`).
- **Random**: a shuffle drawn from the evening's seed.
- **Balanced**: the largest difference, over the tables, between a table's teams' summed
  ratings is as small as the search finds; find-a-friend tables even out the tables' mean
  ratings instead (:func:`spread`). Where there are at most :data:`EXACT_UP_TO` different
  seatings (8 players at two tables) every one is tried; otherwise the most even of
  :data:`BALANCED_DRAWS` seeded random seatings, each table's teams divided as evenly as its
  players allow, are improved by swapping players within and between tables. Equal seatings
  are told apart by the seed.
- **New partners**: as few pairs of players as possible are team-mates again who were
  team-mates earlier in the evening (:func:`repeats`); none whenever that is possible. The
  search is exact where it ends within :data:`NEW_PARTNERS_BUDGET` steps (every case of up to
  12 players the tests try); beyond, it keeps the best seating found. Find-a-friend tables
  have no fixed teams and are seated at random.

>>> players = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy")
>>> first = seat(players, Shape(4), Rule.NEW_PARTNERS, seed=1)
>>> [len(table) for table in first.tables], len(first.out)
([4, 4], 1)
>>> second = seat(players, Shape(4), Rule.NEW_PARTNERS, played=[first], seed=1)
>>> repeats(second, [first]), first.out[0] in second.out
(0, False)
"""

from __future__ import annotations

import enum
import functools
import itertools
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.errors import ScoringError
from scoring.stats import GameRecord
from scoring.table import MAX_PLAYERS, MIN_PLAYERS, Table, TableError, Teams
from scoring.words import gettext_noop

P = TypeVar("P", bound=Hashable)
"""A player's identity, as the caller knows it: a database id, a name."""

__all__ = [
    "MAX_EVENING_PLAYERS",
    "RANKING",
    "SITTING_OUT",
    "EveningError",
    "EveningGame",
    "EveningStanding",
    "Rule",
    "Seating",
    "Shape",
    "repeats",
    "seat",
    "spread",
    "standings",
    "swap",
    "table_sizes",
]

SITTING_OUT = gettext_noop(
    "Players who don't fill a table sit out in turn: those who have sat out least this evening "
    "first, then those who have played the most rounds, then by the evening's draw."
)
"""Who sits out, as the page says it."""

RANKING = gettext_noop(
    "Ranked by games won, then levels climbed in all, then levels climbed as declarers; "
    "players equal on all three share a place. A game the evening ended counts for levels "
    "and hands, never as won."
)
"""The evening's ranking and its tie-break, as the page says it."""

MAX_EVENING_PLAYERS = 64
"""An evening seats at most this many players (eight tables of eight): enough for any club
room, and it bounds the seating's work (about 0.6 s of processor time at 64)."""
EXACT_UP_TO = 1000
"""Balanced seating tries every seating where there are at most this many (8 players at two
tables, 10 find-a-friend players at two)."""
BALANCED_DRAWS = 1000
BALANCED_STARTS = 3
"""Above that, it draws :data:`BALANCED_DRAWS` seeded random seatings and improves the
:data:`BALANCED_STARTS` most even of them by local search."""
NEW_PARTNERS_BUDGET = 5_000
"""New-partners search steps before the best seating found so far is kept (about 0.1 s): the
tests' brute force finds no fewer repeats in any case of up to 12 players."""


class EveningError(ScoringError):
    """An evening's input that cannot be seated: a player named twice, a table size the teams
    do not allow, a balanced seating without a player's rating, a swap of someone not there.

    ``field`` names the input at fault (``players``, ``size``, ``ratings``, ``swap``).
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class Rule(enum.Enum):
    """How an evening seats each round."""

    RANDOM = "random"
    """A shuffle drawn from the evening's seed."""
    BALANCED = "balanced"
    """Every table's teams (find-a-friend: the tables) as even in rating as possible."""
    NEW_PARTNERS = "new-partners"
    """Nobody a team-mate again of someone they were a team-mate of earlier, where possible."""

    def __str__(self) -> str:
        return self.value


def _names(size: int) -> tuple[str, ...]:
    return tuple(str(seat + 1) for seat in range(size))


@functools.cache
def table_sizes(teams: Teams) -> tuple[int, ...]:
    """The table sizes ``teams`` allows, as :class:`~scoring.table.Table` checks them.

    >>> table_sizes(Teams.PARTNERS), table_sizes(Teams.PAIRS), table_sizes(Teams.FIND_A_FRIEND)
    ((4, 6, 8), (6, 8), (4, 5, 6, 7, 8))
    """
    sizes = []
    for size in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            Table(_names(size), teams=teams)
        except TableError:
            continue
        sizes.append(size)
    return tuple(sizes)


@functools.cache
def _fixed(size: int, teams: Teams) -> tuple[tuple[int, ...], ...]:
    """The fixed teams' seats at a table of ``size`` (none in find-a-friend)."""
    return Table(_names(size), teams=teams).fixed


@dataclass(frozen=True, slots=True)
class Shape:
    """An evening's tables: ``size`` players each under the ``teams`` rule; with ``mixed``,
    other sizes the teams allow where they seat more players.

    >>> Shape(4).tables(10), Shape(4, mixed=True).tables(10), Shape(6, Teams.PAIRS).tables(13)
    ((4, 4), (6, 4), (6, 6))
    """

    size: int
    teams: Teams = Teams.PARTNERS
    mixed: bool = False

    def __post_init__(self) -> None:
        try:
            Table(_names(self.size), teams=self.teams)
        except TableError as error:
            raise EveningError(str(error), field="size") from None

    def tables(self, count: int) -> tuple[int, ...]:
        """The table sizes for ``count`` players, largest first. Without ``mixed``, as many
        tables of ``size`` as fill; with it, the sizes the teams allow that seat the most
        players, as close to ``size`` as possible (the least sum of squared differences),
        larger tables first among equals.

        >>> Shape(4, mixed=True).tables(14), Shape(6, Teams.FIND_A_FRIEND, True).tables(16)
        ((6, 4, 4), (6, 5, 5))
        >>> Shape(4, mixed=True).tables(7), Shape(4, mixed=True).tables(3)
        ((6,), ())
        """
        if not 0 <= count <= MAX_EVENING_PLAYERS:
            raise EveningError(
                f"an evening seats 0 to {MAX_EVENING_PLAYERS} players, got {count}",
                field="players",
            )
        if not self.mixed:
            return (self.size,) * (count // self.size)
        return _mixed(table_sizes(self.teams), self.size, count)


@functools.lru_cache(maxsize=256)
def _mixed(sizes: tuple[int, ...], size: int, count: int) -> tuple[int, ...]:
    best: tuple[tuple[int, int, tuple[int, ...]], tuple[int, ...]] | None = None
    for tables in _multisets(tuple(sorted(sizes, reverse=True)), count):
        key = (
            -sum(tables),
            sum((table - size) ** 2 for table in tables),
            tuple(-t for t in tables),
        )
        if best is None or key < best[0]:
            best = (key, tables)
    assert best is not None  # the empty multiset is always there
    return best[1]


def _multisets(sizes: tuple[int, ...], room: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``sizes`` (given largest first) that sums to at most ``room``,
    largest first; only those that leave less room than the smallest size, as no other can seat
    the most."""
    if not sizes or room < sizes[-1]:
        yield ()
        return
    first, rest = sizes[0], sizes[1:]
    if first <= room:
        for tail in _multisets(sizes, room - first):
            yield (first, *tail)
    if rest:
        yield from _multisets(rest, room)


@dataclass(frozen=True, slots=True)
class Seating(Generic[P]):
    """A round's seating: each table's players in seat order (play order, as
    :class:`~scoring.table.Table` reads them: partners alternate seats, pairs sit opposite),
    and who sits out, in roster order.

    >>> seating = Seating((("Ann", "Bo", "Cy", "Di"),), ("Ed",))
    >>> seating.teams_at(0), seating.partnerships == {frozenset("Ann Cy".split()),
    ...                                               frozenset("Bo Di".split())}
    ((('Ann', 'Cy'), ('Bo', 'Di')), True)
    """

    tables: tuple[tuple[P, ...], ...]
    out: tuple[P, ...] = ()
    teams: Teams = Teams.PARTNERS

    def __post_init__(self) -> None:
        allowed = table_sizes(self.teams)
        for table in self.tables:
            if len(table) not in allowed:
                raise EveningError(
                    f"{self.teams} tables have {_either(allowed)} players, got {len(table)}",
                    field="size",
                )
        _check_once(self.players)

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone in the round: the seated, table by table, then those sitting out."""
        return (*itertools.chain.from_iterable(self.tables), *self.out)

    def teams_at(self, index: int) -> tuple[tuple[P, ...], ...]:
        """Table ``index``'s fixed teams as players (none in find-a-friend)."""
        table = self.tables[index]
        return tuple(tuple(table[s] for s in seats) for seats in _fixed(len(table), self.teams))

    @property
    def partnerships(self) -> frozenset[frozenset[P]]:
        """Every two players who share a fixed team this round."""
        return frozenset(
            frozenset(pair)
            for index in range(len(self.tables))
            for team in self.teams_at(index)
            for pair in itertools.combinations(team, 2)
        )


def _either(sizes: Sequence[int]) -> str:
    return ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])


def _check_once(players: Sequence[Hashable]) -> None:
    seen: set[Hashable] = set()
    for player in players:
        if player in seen:
            raise EveningError(f"{player!r} is named twice", field="players")
        seen.add(player)


def spread(seating: Seating[P], ratings: Mapping[P, float]) -> float:
    """How uneven the seating is, as balanced seating measures it: with fixed teams, the
    largest difference, over the tables, between a table's highest and lowest team's summed
    ratings; in find-a-friend, the highest table's mean rating less the lowest's.

    >>> ratings = {"Ann": 30.0, "Bo": 20.0, "Cy": 10.0, "Di": 0.0}
    >>> spread(Seating((("Ann", "Bo", "Cy", "Di"),)), ratings)
    20.0
    >>> spread(Seating((("Ann", "Bo", "Di", "Cy"),)), ratings)
    0.0
    """
    _check_rated(seating.players[: len(seating.players) - len(seating.out)], ratings)
    if seating.teams is Teams.FIND_A_FRIEND:
        means = [math.fsum(ratings[p] for p in table) / len(table) for table in seating.tables]
        return max(means) - min(means) if means else 0.0
    widest = 0.0
    for index in range(len(seating.tables)):
        sums = [math.fsum(ratings[p] for p in team) for team in seating.teams_at(index)]
        widest = max(widest, max(sums) - min(sums))
    return widest


def repeats(seating: Seating[P], played: Iterable[Seating[P]]) -> int:
    """How many pairs of players share a fixed team in ``seating`` who shared one in a round
    ``played`` earlier that evening (each pair counted once).

    >>> first = Seating((("Ann", "Bo", "Cy", "Di"),))
    >>> repeats(Seating((("Ann", "Di", "Cy", "Bo"),)), [first])
    2
    >>> repeats(Seating((("Ann", "Cy", "Bo", "Di"),)), [first])
    0
    """
    earlier = frozenset().union(*(round.partnerships for round in played))
    return len(seating.partnerships & earlier)


def _check_rated(players: Iterable[P], ratings: Mapping[P, float]) -> None:
    for player in players:
        if player not in ratings:
            raise EveningError(f"{player!r} has no rating", field="ratings")


def seat(
    players: Sequence[P],
    shape: Shape,
    rule: Rule,
    *,
    ratings: Mapping[P, float] | None = None,
    played: Sequence[Seating[P]] = (),
    seed: int = 0,
) -> Seating[P]:
    """The next round's seating of ``players`` (those present now, in roster order) at tables of
    ``shape``, by ``rule``, after the evening's ``played`` rounds; the same inputs and ``seed``
    always give the same seating. ``ratings`` (balanced only) hold every player's rating, the
    default one for those unrated. Those who sit out are chosen first, as :data:`SITTING_OUT`
    says; the rule then seats the others.

    >>> seat("ABCDEFGH", Shape(4), Rule.RANDOM, seed=7) == seat("ABCDEFGH", Shape(4),
    ...                                                          Rule.RANDOM, seed=7)
    True
    """
    players = tuple(players)
    _check_once(players)
    sizes = shape.tables(len(players))
    draw = random.Random(seed)
    out = _sitting_out(players, len(players) - sum(sizes), played, draw)
    seated = tuple(player for player in players if player not in out)
    if rule is Rule.BALANCED:
        if ratings is None:
            raise EveningError("balanced seating needs the players' ratings", field="ratings")
        _check_rated(seated, ratings)
        groups = _balanced(seated, sizes, shape.teams, ratings, draw)
    elif rule is Rule.NEW_PARTNERS and shape.teams is not Teams.FIND_A_FRIEND:
        groups = _new_partners(seated, sizes, shape.teams, played, draw)
    else:
        shuffled = list(seated)
        draw.shuffle(shuffled)
        groups = _cut(shuffled, sizes, shape.teams)
    return Seating(_seat_orders(groups, sizes, shape.teams, draw), out, shape.teams)


def _sitting_out(
    players: tuple[P, ...], count: int, played: Sequence[Seating[P]], draw: random.Random
) -> tuple[P, ...]:
    """The ``count`` players who sit out, in roster order: fewest sit-outs, then the most
    rounds played, then the draw."""
    if count <= 0:
        return ()
    sat_out = dict.fromkeys(players, 0)
    rounds = dict.fromkeys(players, 0)
    for earlier in played:
        for player in earlier.out:
            if player in sat_out:
                sat_out[player] += 1
        for table in earlier.tables:
            for player in table:
                if player in rounds:
                    rounds[player] += 1
    lots = list(range(len(players)))
    draw.shuffle(lots)
    order = sorted(
        range(len(players)), key=lambda i: (sat_out[players[i]], -rounds[players[i]], lots[i])
    )
    chosen = set(order[:count])
    return tuple(player for i, player in enumerate(players) if i in chosen)


# A seating under search: per table, its groups (fixed teams; in find-a-friend, the whole
# table as one group), each a list of players.
Groups = list[list[list[P]]]


def _shape_of(size: int, teams: Teams) -> tuple[int, int]:
    """A table's groups: how many, and how many players each."""
    fixed = _fixed(size, teams)
    return (len(fixed), len(fixed[0])) if fixed else (1, size)


def _cut(players: Sequence[P], sizes: Sequence[int], teams: Teams) -> Groups:
    groups: Groups = []
    at = 0
    for size in sizes:
        count, each = _shape_of(size, teams)
        groups.append([list(players[at + k * each : at + (k + 1) * each]) for k in range(count)])
        at += size
    return groups


def _seat_orders(
    groups: Groups, sizes: Sequence[int], teams: Teams, draw: random.Random
) -> tuple[tuple[P, ...], ...]:
    """Each table's seat order: its teams in the seats :class:`Table` gives them, which team
    takes which seats and each team's order drawn; a find-a-friend table shuffled."""
    tables = []
    for size, table in zip(sizes, groups, strict=True):
        fixed = _fixed(size, teams)
        if not fixed:
            seated = list(table[0])
            draw.shuffle(seated)
            tables.append(tuple(seated))
            continue
        order: list[P | None] = [None] * size
        teams_drawn = [list(team) for team in table]
        draw.shuffle(teams_drawn)
        for seats, team in zip(fixed, teams_drawn, strict=True):
            draw.shuffle(team)
            for s, player in zip(seats, team, strict=True):
                order[s] = player
        tables.append(tuple(order))  # type: ignore[arg-type]
    return tuple(tables)


def _search(
    players: Sequence[int],
    tables: Sequence[tuple[int, int]],
    cost: Callable[[int, list[int]], float] | None,
    bound: list[float],
    budget: int,
    least: Callable[[int, list[list[int]]], float] | None = None,
) -> Iterator[list[list[int]]]:
    """Every placement of ``players`` into the groups of ``tables`` (each so many groups of so
    many players) up to the groups' and the tables' interchangeability, in the order of
    ``players``; with ``cost`` (the cost of adding a player to a group), only placements
    cheaper than ``bound[0]``, which the caller lowers as it finds better ones. Stops after
    ``budget`` steps; ``least`` (a lower bound of what placing ``players[k:]`` will cost
    given the groups so far) prunes further. The groups come table by table."""
    flat: list[tuple[int, int]] = []  # each group's table and capacity
    first_group = []  # each table's first group
    for t, (count, each) in enumerate(tables):
        first_group.append(len(flat))
        flat.extend((t, each) for _ in range(count))
    same_size = [[u for u in range(t) if tables[u] == tables[t]] for t in range(len(tables))]
    members: list[list[int]] = [[] for _ in flat]
    table_count = [0] * len(tables)
    steps = [0]

    def place(k: int, spent: float) -> Iterator[list[list[int]]]:
        if k == len(players):
            yield [list(group) for group in members]
            return
        if least and spent + least(k, members) >= bound[0]:
            return
        player = players[k]
        options = []
        for g, (t, capacity) in enumerate(flat):
            if len(members[g]) == capacity:
                continue
            if not members[g]:
                # An empty group equals every other empty group of its table before it, and an
                # empty table every empty table of its size before it.
                if any(not members[h] for h in range(first_group[t], g)):
                    continue
                if not table_count[t] and any(not table_count[u] for u in same_size[t]):
                    continue
            added = cost(player, members[g]) if cost else 0
            if spent + added < bound[0]:
                options.append((added, g))
        options.sort(key=lambda option: option[0])
        for added, g in options:
            if steps[0] >= budget or spent + added >= bound[0]:
                return
            steps[0] += 1
            members[g].append(player)
            table_count[flat[g][0]] += 1
            yield from place(k + 1, spent + added)
            table_count[flat[g][0]] -= 1
            members[g].pop()

    return place(0, 0)


def _regroup(flat: list[list[int]], sizes: Sequence[int], teams: Teams) -> list[list[list[int]]]:
    groups, at = [], 0
    for size in sizes:
        count = _shape_of(size, teams)[0]
        groups.append(flat[at : at + count])
        at += count
    return groups


def _new_partners(
    seated: tuple[P, ...],
    sizes: Sequence[int],
    teams: Teams,
    played: Sequence[Seating[P]],
    draw: random.Random,
) -> Groups:
    """The seating with the fewest repeated partnerships: a branch-and-bound search, players
    with the most earlier partners placed first, ties in the draw's order."""
    index = {player: i for i, player in enumerate(seated)}
    partnered: list[set[int]] = [set() for _ in seated]
    for earlier in played:
        for pair in earlier.partnerships:
            a, b = tuple(pair)
            if a in index and b in index:
                partnered[index[a]].add(index[b])
                partnered[index[b]].add(index[a])
    order = list(range(len(seated)))
    draw.shuffle(order)
    order.sort(key=lambda i: -len(partnered[i]))
    bound = [math.inf]
    best: list[list[int]] | None = None

    def cost(player: int, group: list[int]) -> float:
        return sum(other in partnered[player] for other in group)

    # Repeats depend on the teams alone: any team fits any table that has teams of its size.
    alone = [
        (1, each)
        for count, each in (_shape_of(size, teams) for size in sizes)
        for _ in range(count)
    ]

    def least(k: int, members: list[list[int]]) -> float:
        # Each player still to place will meet at least the fewest earlier partners any group
        # with room holds now.
        open_groups = [
            group for group, (_, each) in zip(members, alone, strict=True) if len(group) < each
        ]
        return sum(min(cost(player, group) for group in open_groups) for player in order[k:])

    for found in _search(order, alone, cost, bound, NEW_PARTNERS_BUDGET, least):
        score = sum(cost(group[i], group[:i]) for group in found for i in range(1, len(group)))
        bound[0], best = score, found
        if score == 0:
            break
    assert best is not None  # the first descent always completes
    return [
        [[seated[i] for i in group] for group in table] for table in _regroup(best, sizes, teams)
    ]


def _balanced(
    seated: tuple[P, ...],
    sizes: Sequence[int],
    teams: Teams,
    ratings: Mapping[P, float],
    draw: random.Random,
) -> Groups:
    """The most even seating found: the best of every seating where there are at most
    :data:`EXACT_UP_TO`; else the :data:`BALANCED_STARTS` most even of :data:`BALANCED_DRAWS`
    seeded random seatings (each table's teams divided as evenly as its players allow),
    each improved by swaps within and between tables until none helps, and the best kept."""
    values = [float(ratings[player]) for player in seated]
    friendly = teams is Teams.FIND_A_FRIEND
    flat_tables = [t for t, size in enumerate(sizes) for _ in range(_shape_of(size, teams)[0])]

    def key(flat: list[list[int]]) -> tuple[float, float]:
        sums = [math.fsum(values[i] for i in group) for group in flat]
        return _key(sums, flat_tables, [len(group) for group in flat], len(sizes), friendly)

    candidates: list[list[list[int]]] = []
    order = list(range(len(seated)))
    draw.shuffle(order)
    if _seatings(sizes, teams) <= EXACT_UP_TO:
        best_key, best = None, None
        tables = [_shape_of(size, teams) for size in sizes]
        for found in _search(order, tables, None, [math.inf], 10**9):
            found_key = key(found)
            if best_key is None or found_key < best_key:
                best_key, best = found_key, found
        assert best is not None
        candidates.append(best)
    else:
        # The starts: the most even of many seeded random seatings (each table's teams made as
        # even as its players allow), each then improved.
        drawn = []
        for _ in range(BALANCED_DRAWS):
            draw.shuffle(order)
            if friendly:
                flat = [group for table in _cut(order, sizes, teams) for group in table]
                drawn.append((key(flat), flat))
                continue
            flat, differences, at = [], [], 0
            for size in sizes:
                difference, split = _split(order[at : at + size], size, teams, values)
                flat += split
                differences.append(difference)
                at += size
            drawn.append(((max(differences), sum(d * d for d in differences)), flat))
        drawn.sort(key=lambda keyed: keyed[0])
        for _, flat in drawn[:BALANCED_STARTS]:
            while True:
                flat = _swap_down(flat, values, flat_tables, len(sizes), friendly)
                if friendly:
                    break
                resplit = _resplit(flat, flat_tables, sizes, teams, values)
                if not _swap_across(flat, flat_tables, sizes, teams, values) and not resplit:
                    break
            candidates.append(flat)
    best = min(candidates, key=key)
    return [
        [[seated[i] for i in group] for group in table] for table in _regroup(best, sizes, teams)
    ]


def _seatings(sizes: Sequence[int], teams: Teams) -> int:
    """How many different seatings of players at tables of ``sizes`` make different teams
    (find-a-friend: different tables)."""
    count = math.factorial(sum(sizes))
    for size, same in itertools.groupby(sorted(sizes)):
        groups, each = _shape_of(size, teams)
        tables = len(list(same))
        count //= (math.factorial(each) ** groups * math.factorial(groups)) ** tables
        count //= math.factorial(tables)
    return count


@functools.cache
def _splits(size: int, teams: Teams) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every division of a table's seats into its teams, up to the teams' order (3 at four
    partners, 105 at eight in pairs)."""
    return tuple(
        tuple(map(tuple, found))
        for found in _search(range(size), [_shape_of(size, teams)], None, [math.inf], 10**9)
    )


def _split(
    members: Sequence[int], size: int, teams: Teams, values: Sequence[float]
) -> tuple[float, list[list[int]]]:
    """The most even division of a table's players into teams, and its difference. Pairs:
    the highest rated with the lowest, and so on inwards, which makes the highest pair's sum as
    low and the lowest's as high as they can be. Partners: the team whose sum is nearest half
    the table's, of every division."""
    if teams is Teams.PAIRS:
        ranked = sorted(members, key=values.__getitem__)
        pairs = [[ranked[k], ranked[-1 - k]] for k in range(size // 2)]
        sums = [values[a] + values[b] for a, b in pairs]
        return max(sums) - min(sums), pairs
    table_values = [values[i] for i in members]
    total = sum(table_values)
    best_difference, best = math.inf, ()
    for split in _splits(size, teams):
        difference = abs(total - 2 * sum(table_values[p] for p in split[0]))
        if difference < best_difference:
            best_difference, best = difference, split
    return best_difference, [[members[p] for p in group] for group in best]


def _at(tables_of: Sequence[int], table: int) -> list[int]:
    return [g for g, t in enumerate(tables_of) if t == table]


def _difference(groups: Iterable[Sequence[int]], values: Sequence[float]) -> float:
    sums = [math.fsum(values[i] for i in group) for group in groups]
    return max(sums) - min(sums)


def _resplit(
    flat: list[list[int]],
    tables_of: Sequence[int],
    sizes: Sequence[int],
    teams: Teams,
    values: Sequence[float],
) -> bool:
    """Divide each table's players into teams as evenly as they can be; whether a table's
    difference went down."""
    changed = False
    for t, size in enumerate(sizes):
        at = _at(tables_of, t)
        _, best = _split([i for g in at for i in flat[g]], size, teams, values)
        if _difference(best, values) < _difference((flat[g] for g in at), values) - 1e-9:
            for g, group in zip(at, best, strict=True):
                flat[g] = group
            changed = True
    return changed


def _swap_across(
    flat: list[list[int]],
    tables_of: Sequence[int],
    sizes: Sequence[int],
    teams: Teams,
    values: Sequence[float],
) -> bool:
    """Move a player of the least even table to another table in exchange for one of its
    players, both tables then divided into teams anew, while that makes the seating more even
    (the first such exchange each time); whether any was made."""
    changed = False
    members = [[i for g in _at(tables_of, t) for i in flat[g]] for t in range(len(sizes))]
    differences = [_split(table, sizes[t], teams, values)[0] for t, table in enumerate(members)]
    while True:
        worst = max(range(len(sizes)), key=differences.__getitem__)
        improved = None
        for other in range(len(sizes)):
            if other == worst:
                continue
            rest = max((d for t, d in enumerate(differences) if t not in (worst, other)), default=0)
            for (k, a), (m, b) in itertools.product(
                enumerate(members[worst]), enumerate(members[other])
            ):
                if values[a] == values[b]:
                    continue
                one, two = list(members[worst]), list(members[other])
                one[k], two[m] = b, a
                first = _split(one, sizes[worst], teams, values)[0]
                second = _split(two, sizes[other], teams, values)[0]
                if max(first, second, rest) < differences[worst] - 1e-9:
                    improved = (other, one, two, first, second)
                    break
            if improved:
                break
        if improved is None:
            break
        other, members[worst], members[other], differences[worst], differences[other] = improved
        changed = True
    if changed:
        for t, size in enumerate(sizes):
            split = _split(members[t], size, teams, values)[1]
            for g, group in zip(_at(tables_of, t), split, strict=True):
                flat[g] = group
    return changed


def _key(
    sums: Sequence[float],
    tables_of: Sequence[int],
    counts: Sequence[int],
    table_count: int,
    friendly: bool,
) -> tuple[float, float]:
    """The measure a balanced search minimises: the spread, then (to steer the search where
    the spread is one table's) the sum of squares of the tables' differences, or of the
    find-a-friend tables' means from their average."""
    if friendly:
        means = [total / count for total, count in zip(sums, counts, strict=True)]
        if not means:
            return (0.0, 0.0)
        average = sum(means) / len(means)
        return (max(means) - min(means), sum((m - average) ** 2 for m in means))
    high = [-math.inf] * table_count
    low = [math.inf] * table_count
    for total, t in zip(sums, tables_of, strict=True):
        high[t] = max(high[t], total)
        low[t] = min(low[t], total)
    differences = [h - lo for h, lo in zip(high, low, strict=True)]
    return (max(differences, default=0.0), sum(d * d for d in differences))


def _swap_down(
    flat: list[list[int]],
    values: Sequence[float],
    tables_of: Sequence[int],
    table_count: int,
    friendly: bool,
) -> list[list[int]]:
    """Swap two players of different groups while a swap lowers the measure (the best swap
    each time). A swap changes one or two tables: with fixed teams only theirs are measured
    again."""
    counts = [len(group) for group in flat]
    at = [[g for g, t in enumerate(tables_of) if t == table] for table in range(table_count)]
    slots = [(g, k) for g, group in enumerate(flat) for k in range(len(group))]
    swaps = [(g, k, h, m) for (g, k), (h, m) in itertools.combinations(slots, 2) if g != h]

    def difference(table: int) -> float:
        sums_at = [sums[g] for g in at[table]]
        return max(sums_at) - min(sums_at)

    while True:
        sums = [math.fsum(values[i] for i in group) for group in flat]
        current = _key(sums, tables_of, counts, table_count, friendly)
        differences = [difference(table) for table in range(table_count)]
        squares = sum(d * d for d in differences)
        # The largest difference of the tables a swap leaves alone.
        others = [
            [
                max((d for t, d in enumerate(differences) if t not in (one, two)), default=0.0)
                for two in range(table_count)
            ]
            for one in range(table_count)
        ]
        best = None
        for g, k, h, m in swaps:
            change = values[flat[h][m]] - values[flat[g][k]]
            if not change:
                continue
            sums[g] += change
            sums[h] -= change
            if friendly:
                trial = _key(sums, tables_of, counts, table_count, friendly)
            else:
                one, two = tables_of[g], tables_of[h]
                first = difference(one)
                second = difference(two) if two != one else first
                trial = (
                    max(first, second, others[one][two]),
                    squares
                    - differences[one] ** 2
                    + first * first
                    + ((second * second - differences[two] ** 2) if two != one else 0.0),
                )
            sums[g] -= change
            sums[h] += change
            if best is None or trial < best[0]:
                best = (trial, g, k, h, m)
        if best is None or not _lower(best[0], current):
            return flat
        _, g, k, h, m = best
        flat[g][k], flat[h][m] = flat[h][m], flat[g][k]


def _lower(trial: tuple[float, float], current: tuple[float, float]) -> bool:
    """Whether ``trial`` is lower by more than rounding: the search must end."""
    return trial[0] < current[0] - 1e-9 or (
        trial[0] <= current[0] + 1e-9 and trial[1] < current[1] - 1e-9
    )


def swap(seating: Seating[P], a: P, b: P) -> Seating[P]:
    """``seating`` with ``a`` and ``b`` in each other's places: two seats, or a seat and a
    place among those sitting out (the one seated then sits out, in the other's place).

    >>> seating = Seating((("Ann", "Bo", "Cy", "Di"),), ("Ed",))
    >>> swap(seating, "Bo", "Ed")
    Seating(tables=(('Ann', 'Ed', 'Cy', 'Di'),), out=('Bo',), teams=<Teams.PARTNERS: 'partners'>)
    """
    where = {}
    for t, table in enumerate(seating.tables):
        for s, player in enumerate(table):
            where[player] = (t, s)
    for s, player in enumerate(seating.out):
        where[player] = (None, s)
    for player in (a, b):
        if player not in where:
            raise EveningError(f"{player!r} is not in this round", field="swap")
    if a == b:
        raise EveningError(f"{a!r} cannot swap with themselves", field="swap")
    if where[a][0] is None and where[b][0] is None:
        raise EveningError(f"{a!r} and {b!r} both sit out", field="swap")
    tables = [list(table) for table in seating.tables]
    out = list(seating.out)
    for player, other in ((a, b), (b, a)):
        t, s = where[player]
        (out if t is None else tables[t])[s] = other
    return Seating(tuple(map(tuple, tables)), tuple(out), seating.teams)


@dataclass(frozen=True, slots=True)
class EveningGame(Generic[P]):
    """A game of the evening: its record, and whether the evening ended it before its end
    (``ended``): such a game counts for levels climbed and hands played, never as won."""

    record: GameRecord[P]
    ended: bool = False


@dataclass(frozen=True, slots=True)
class EveningStanding(Generic[P]):
    """A player's line of the evening's standings (``rank`` 1 is first; equals share one)."""

    player: P
    rank: int
    games: int = 0
    won: int = 0
    levels: int = 0
    """Levels the player climbed in all: their side's, or in find-a-friend their own."""
    levels_declaring: int = 0
    """Of those, the levels climbed on hands the player's side declared."""
    hands: int = 0

    @property
    def order(self) -> tuple[int, int, int]:
        """What the ranking compares, highest first (:data:`RANKING`)."""
        return (self.won, self.levels, self.levels_declaring)


def standings(
    games: Iterable[EveningGame[P]], players: Sequence[P] = ()
) -> tuple[EveningStanding[P], ...]:
    """Every player's games, wins, levels climbed (in all and as declarers) and hands over the
    evening's ``games``, ranked as :data:`RANKING` says; equals share a rank and keep the order
    of ``players`` (everyone present, who stand at 0 until they play), then of first play.

    A level climbed is a step up the ranks (2 to 3, … K to A) of the player's level in a hand's
    levels after it; a climb past A ends the game at A and counts the steps up to A.
    """
    counts: dict[P, list[int]] = {player: [0, 0, 0, 0, 0] for player in players}
    for game in games:
        record = game.record
        for player in record.seats:
            counts.setdefault(player, [0, 0, 0, 0, 0])
        before = record.start
        for hand in record.hands:
            for seat_number, player in enumerate(record.seats):
                climbed = hand.levels[seat_number] - before[seat_number]
                line = counts[player]
                line[2] += climbed
                if seat_number in hand.declarers:
                    line[3] += climbed
                line[4] += 1
            before = hand.levels
        for seat_number, player in enumerate(record.seats):
            counts[player][0] += 1
            counts[player][1] += not game.ended and record.won(seat_number)
    lines = [EveningStanding(player, 0, *numbers) for player, numbers in counts.items()]
    lines.sort(key=lambda line: tuple(-n for n in line.order))
    ranked = []
    for place, line in enumerate(lines, start=1):
        tied = ranked and ranked[-1].order == line.order
        rank = ranked[-1].rank if tied else place
        ranked.append(
            EveningStanding(
                line.player,
                rank,
                *(line.games, line.won, line.levels, line.levels_declaring, line.hands),
            )
        )
    return tuple(ranked)
