"""`python manage.py demo_history --games 500`: a group with two years of weekly games.

A roster of 8 to 12 players meets one evening a week at one to three tables; each table plays
a few games under one of the presets or the group's own table, with legal hands of realistic
points, now and then a corrected trump or an undone hand; most games are played to the end and a
few are left unfinished. Every table is four partners with two decks, unless ``--table`` names
another shape (``--table 6:find-a-friend``, ``--table 8:pairs:4``: players, teams and, if not one
deck for every two players, decks; given twice or more, the tables mix them) or ``--variants``
mixes every shape, fixed trumps included.

Every game is started with :meth:`Game.start` and every hand played through `scoring.game` as it
is made, so the declarer, the friends and the trump are always ones `scoring` allows. The hands
and their history are written in bulk: 500 games (some 10,000 hands) take about ten seconds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connections, router, transaction
from django.utils import timezone

from companion.management.commands.demo import DEMO_USER, LOG_IN
from companion.models import (
    Game,
    GameSummary,
    Group,
    Hand,
    HandChange,
    Player,
    ScoringTable,
    rebuild_ladder,
)
from scoring import PRESETS, Format, LastTrick, Rank, Rules, Side, points, rules_from_json
from scoring.cards import Card, Suit, full_pack
from scoring.game import Game as ScoredGame
from scoring.game import GameSetup, HandResult
from scoring.table import (
    BY_BID,
    NO_TRUMP,
    Bid,
    Table,
    TableError,
    Teams,
    TrumpRule,
    default_decks,
)

NAMES = (
    "Mei", "Jun", "Lin", "Hao", "Yan", "Bo", "Xiu", "Tao",
    "Ana", "Luc", "Inês", "Pablo", "Chloé", "Rui", "Sofía", "Omar",
)  # fmt: skip
HOUSE_RULES = rules_from_json(
    {
        "name": "Thursday rules",
        "description": "Standard, but 120 or more also climbs one level.",
        "bands": [
            {"from": 0, "to": 0, "winner": "declarers", "levels": 3},
            {"from": 5, "to": 35, "winner": "declarers", "levels": 2},
            {"from": 40, "to": 75, "winner": "declarers", "levels": 1},
            {"from": 80, "to": 115, "winner": "opponents", "levels": 0},
            {"from": 120, "to": None, "winner": "opponents", "levels": 1},
        ],
    }
)
# How often a table plays under each rule set.
RULES_WEIGHTS = {
    PRESETS["standard"]: 40,
    PRESETS["kawu"]: 20,
    PRESETS["open-ladder"]: 15,
    PRESETS["simplified"]: 10,
    HOUSE_RULES: 15,
}
BIDS = {Bid.ONE: 60, Bid.PAIR: 27, Bid.SMALL_JOKERS: 4, Bid.BIG_JOKERS: 2, Bid.NONE: 7}
KITTY_POINTS = {0: 20, 5: 18, 10: 20, 15: 14, 20: 12, 25: 7, 30: 5, 35: 2, 40: 2}
SESSIONS = 104  # two years of weekly evenings
THURSDAY = 3
ABANDONED = 0.04  # games left unfinished when the evening ended
LONGEST_GAME = 60  # hands; a game still going after this many is left unfinished
FIXED_TRUMP = 0.15  # with --variants, the games that fix the trump instead of bidding


@dataclass(frozen=True)
class Shape:
    """A table's shape: how many play, how they make sides, and the decks (None: one for
    every two players)."""

    players: int
    teams: Teams = Teams.PARTNERS
    decks: int | None = None

    @classmethod
    def parse(cls, text: str) -> Shape:
        """``6:find-a-friend`` or ``8:pairs:4``, checked by `scoring`."""
        parts = text.split(":")
        try:
            players = int(parts[0])
            teams = Teams(parts[1]) if len(parts) > 1 else Teams.PARTNERS
            decks = int(parts[2]) if len(parts) > 2 else None
        except ValueError:
            raise CommandError(
                f"--table is players:teams[:decks], such as 6:find-a-friend or 8:pairs:4 "
                f"(teams: partners, pairs or find-a-friend), got {text!r}"
            ) from None
        if len(parts) > 3:
            raise CommandError(f"--table is players:teams[:decks], got {text!r}")
        shape = cls(players, teams, decks)
        try:
            shape.table(tuple(NAMES[:players]) if players <= len(NAMES) else ())
        except TableError as error:
            raise CommandError(f"--table {text}: {error}") from None
        return shape

    def table(self, names: tuple[str, ...], trumps: TrumpRule = BY_BID) -> Table:
        return Table(
            names,
            decks=self.decks or default_decks(len(names)),
            teams=self.teams,
            trumps=trumps,
        )


FOURS = {Shape(4): 1}
VARIANTS = {
    Shape(4): 40,
    Shape(5, Teams.FIND_A_FRIEND): 14,
    Shape(6, Teams.FIND_A_FRIEND): 8,
    Shape(6, Teams.PAIRS): 10,
    Shape(6): 8,
    Shape(8): 6,
    Shape(8, Teams.FIND_A_FRIEND): 6,
    Shape(4, decks=3): 8,
}
"""How often a table takes each shape with ``--variants``."""


class Command(BaseCommand):
    help = "Create a group with a long ladder history of legal, realistic games."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=500)
        parser.add_argument("--group", default="Ladder club", help="the new group's name")
        parser.add_argument("--seed", type=int, default=None, help="the same seed, the same group")
        parser.add_argument(
            "--until",
            type=date.fromisoformat,
            default=None,
            help="play until this date, YYYY-MM-DD (default: today); the group meets on Thursdays",
        )
        parser.add_argument(
            "--table",
            action="append",
            default=[],
            metavar="PLAYERS:TEAMS[:DECKS]",
            help="a shape of table, such as 6:find-a-friend or 8:pairs:4 (repeat to mix them)",
        )
        parser.add_argument(
            "--variants",
            action="store_true",
            help="mix every shape of table, 4 to 8 players, and fixed trumps",
        )

    def handle(
        self,
        *args,
        games: int,
        group: str,
        seed: int | None,
        until,
        table: list[str],
        variants: bool,
        **options,
    ) -> None:
        if games < 1:
            raise CommandError("--games must be at least 1")
        if table and variants:
            raise CommandError("choose --table or --variants, not both")
        if isinstance(until, str):  # call_command passes keyword options unparsed
            until = date.fromisoformat(until)
        shapes = {Shape.parse(text): 1 for text in table} or (VARIANTS if variants else FOURS)
        user = User.objects.filter(username=DEMO_USER).first() or User.objects.create_user(
            DEMO_USER
        )
        rng = random.Random(seed)
        made = Ladder(rng, shapes, fixed_trump=FIXED_TRUMP if variants else 0)
        made.play(games, until or timezone.localdate())
        with transaction.atomic():
            created = made.save(group, user)
        hands = Hand.objects.filter(game__group=created).count()
        self.stdout.write(
            f"{created.name} (group {created.pk}): {created.players.count()} players, "
            f"{len(made.games)} games, {hands} hands; "
            f"{LOG_IN}."
        )


@dataclass
class Played:
    """A game as it was played: who sat where (positions in the roster), its rules, table and
    start, its hands as entered and their history."""

    seats: list[int]
    rules: Rules
    table: Table
    levels: list[Rank]
    first_declarer: int | None
    start: datetime
    hands: list[dict]
    changes: list[dict]


class Ladder:
    """Two years of Thursday evenings, made up in memory, then saved in bulk."""

    def __init__(self, rng: random.Random, shapes: dict[Shape, int], fixed_trump: float):
        self.rng = rng
        self.shapes = shapes
        self.fixed_trump = fixed_trump
        most = max(shape.players for shape in shapes)
        self.roster = rng.sample(NAMES, rng.randint(max(8, most), max(12, most)))
        self.attendance = [rng.uniform(0.3, 1.0) for _ in self.roster]
        self.games: list[Played] = []

    def play(self, games: int, until: date) -> None:
        rng = self.rng
        sessions = min(SESSIONS, games)
        last = until - timedelta(days=(until.weekday() - THURSDAY) % 7)
        self.first = _at(last - timedelta(weeks=sessions - 1), 18, 0)
        for week in range(sessions):
            evening = last - timedelta(weeks=sessions - 1 - week)
            count = games // sessions + (week < games % sessions)
            tables = self._tables(count)
            seated = _weighted_sample(
                rng, range(len(self.roster)), self.attendance, sum(s.players for s in tables)
            )
            for number, shape in enumerate(tables):
                players = seated[: shape.players]
                seated = seated[shape.players :]
                start = _at(evening, 19, rng.randrange(0, 30))
                for _ in range(number, count, len(tables)):
                    start = self._game(shape, players, start)
        self.games.sort(key=lambda game: game.start)
        # The last evening's last game is still being played.
        final = self.games[-1]
        if final.hands and len(self.games) > 1:
            keep = max(1, rng.randrange(len(final.hands)))
            final.hands = final.hands[:keep]
            final.changes = [c for c in final.changes if c["hand_number"] <= keep]

    def _tables(self, count: int) -> list[Shape]:
        """The evening's tables: as many as the games allow (two games or more each) and the
        roster seats, each of a shape the players left can fill."""
        rng, free, tables = self.rng, len(self.roster), []
        while len(tables) < max(1, count // 2):
            fitting = [shape for shape in self.shapes if shape.players <= free]
            if not fitting:
                break
            shape = rng.choices(fitting, weights=[self.shapes[s] for s in fitting])[0]
            tables.append(shape)
            free -= shape.players
        return tables

    def _game(self, shape: Shape, players: list[int], start: datetime) -> datetime:
        """One game at a table from ``start``; returns when the table is free again."""
        rng = self.rng
        rules = rng.choices(list(RULES_WEIGHTS), weights=list(RULES_WEIGHTS.values()))[0]
        seats = rng.sample(players, shape.players)
        table = shape.table(tuple(self.roster[seat] for seat in seats), self._trumps())
        level = Rank.TWO if rng.random() < 0.7 else Rank.parse(rng.choice("3456789"))
        setup = GameSetup(rules, table, (level,) * table.size)
        first = None
        if setup.needs_first_declarer or rng.random() < 0.3:
            first = rng.choice(table.seats)
            setup = GameSetup(rules, table, setup.levels, first)
        game = ScoredGame(setup)
        stop = rng.randrange(3, 20) if rng.random() < ABANDONED else LONGEST_GAME
        moment = start
        hands, changes = [], []
        while not game.state.game_over and len(game.hands) < stop:
            result, entered = _hand(rng, game)
            game = game.play(result)
            moment += timedelta(minutes=rng.randint(3, 7), seconds=rng.randrange(60))
            hands.append({**entered, "created": moment, "updated": moment})
            changes.extend(_entries(rng, table, hands[-1], len(hands), moment))
        changes.sort(key=lambda change: change["at"])
        self.games.append(
            Played(seats, rules, table, list(setup.levels), first, start, hands, changes)
        )
        return moment + timedelta(minutes=rng.randint(2, 10))

    def _trumps(self) -> TrumpRule:
        """Bid for, or now and then (with --variants) no trump or a rotation of suits."""
        rng = self.rng
        if rng.random() >= self.fixed_trump:
            return BY_BID
        if rng.random() < 0.5:
            return TrumpRule(no_trump=True)
        return TrumpRule(suits=tuple(rng.sample(list(Suit), rng.randint(2, 4))))

    def save(self, name: str, user: User) -> Group:
        """The group, its roster and its games, with the times they were played."""
        group = Group.objects.create(name=name, created=self.first)
        group.add_admin(user, joined=self.first)
        players = Player.objects.bulk_create(
            Player(group=group, name=name, user=user if number == 0 else None)
            for number, name in enumerate(self.roster)
        )
        ScoringTable.objects.create(group=group, rules_json=HOUSE_RULES.to_json())
        games = []
        for played in self.games:
            table = played.table
            games.append(
                Game.start(
                    group,
                    [players[seat] for seat in played.seats],
                    played.rules,
                    decks=table.decks,
                    teams=table.teams,
                    trumps=table.trumps,
                    called=table.called,
                    levels=played.levels,
                    first_declarer=played.first_declarer,
                    by=user,
                )
            )
        _restamp(
            Game,
            games,
            [{"created": played.start, "version": len(played.changes)} for played in self.games],
        )
        pairs = list(zip(games, self.games, strict=True))
        hands = Hand.objects.bulk_create(
            (
                Hand(game=game, number=number, **hand)
                for game, played in pairs
                for number, hand in enumerate(played.hands, start=1)
            ),
            batch_size=500,
        )
        stamps = [hand for played in self.games for hand in played.hands]
        _restamp(Hand, hands, [{"created": s["created"], "updated": s["updated"]} for s in stamps])
        changes = HandChange.objects.bulk_create(
            (
                HandChange(game=game, by=user, **change)
                for game, played in pairs
                for change in played.changes
            ),
            batch_size=500,
        )
        stamps = [{"at": change["at"]} for played in self.games for change in played.changes]
        _restamp(HandChange, changes, stamps)
        GameSummary.bring_up_to_date(games, ladder=False)
        rebuild_ladder(group.pk)
        return group


def _restamp(model, objects: list, values: list[dict]) -> None:
    """Write ``values`` (the same fields for each object) over what was saved: bulk_create
    stamps auto_now fields with the present moment, and the games were played in the past. One
    executemany: bulk_update builds a CASE per row and takes seconds for a long history."""
    if not objects:
        return
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    fields = [model._meta.get_field(name) for name in values[0]]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {quote(model._meta.pk.column)} = %s"
    )
    rows = []
    for obj, row in zip(objects, values, strict=True):
        for field in fields:
            setattr(obj, field.attname, row[field.name])
        rows.append(
            [field.get_db_prep_save(row[field.name], connection) for field in fields] + [obj.pk]
        )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _hand(rng: random.Random, game: ScoredGame) -> tuple[HandResult, dict]:
    """A legal next hand: a declarer, friends and trump `scoring` expects, points a real hand
    could make with the table's decks."""
    state, table = game.state, game.table
    declarer = rng.choice(state.next_declarers)
    friends: list[int] = []
    for _card in range(table.called or 0):
        # A called card mostly finds a friend; now and then the declarer holds it, or it never
        # comes out.
        roll = rng.random()
        if roll < 0.8:
            friend = rng.choice([seat for seat in table.seats if seat != declarer])
        elif roll < 0.9:
            friend = declarer
        else:
            continue
        if friend not in friends:
            friends.append(friend)
    if table.trumps.bids:
        bid = rng.choices(list(BIDS), weights=list(BIDS.values()))[0]
        jokers = bid in (Bid.SMALL_JOKERS, Bid.BIG_JOKERS)
        no_trump = jokers or (bid is Bid.NONE and rng.random() < 0.5)
        trump = None if no_trump else rng.choice(list(Suit))
    else:
        bid, trump = None, table.trumps.fixed(state.number)
    cards: list[Card] = []
    if rng.random() < 0.15:
        pack = full_pack(table.decks)
        cards = rng.sample(pack, table.kitty_cards)
        while points(cards) > 40:
            cards = rng.sample(pack, table.kitty_cards)
        kitty = points(cards)
    else:
        kitty = rng.choices(list(KITTY_POINTS), weights=list(KITTY_POINTS.values()))[0]
    opponents = _opponent_points(rng, table.decks, table.deck_points - kitty)
    last_trick = _last_trick(rng, game.setup.rules)
    result = HandResult(
        declarer,
        opponents,
        kitty,
        last_trick,
        friends=tuple(sorted(friends)),
        trump=trump,
        bid=bid,
    )
    return result, Hand.fields_of(result, tuple(cards))


def _opponent_points(rng: random.Random, decks: int, most: int) -> int:
    """Mostly 20 to 120 with two decks (and as much more with more decks); now and then a
    shut-out or a rout."""
    if rng.random() < 0.02:
        return 0
    scale = decks / 2
    while True:
        value = 5 * round(rng.gauss(62 * scale, 32 * scale) / 5)
        if 0 <= value <= most:
            return value


def _last_trick(rng: random.Random, rules: Rules) -> LastTrick:
    winner = Side.DECLARERS if rng.random() < 0.65 else Side.OPPONENTS
    shapes = {Format.SINGLE: 70, Format.PAIR: 20, Format.TRACTOR: 7}
    if rules.throws:
        shapes[Format.THROW] = 3
    shape = rng.choices(list(shapes), weights=list(shapes.values()))[0]
    cards = {
        Format.SINGLE: 1,
        Format.PAIR: 2,
        Format.TRACTOR: rng.choice((4, 4, 4, 6)),
        Format.THROW: rng.randint(2, 5),
    }[shape]
    return LastTrick(winner, shape, cards)


def _entries(rng: random.Random, table: Table, hand: dict, number: int, moment: datetime):
    """The history of one hand: recorded; sometimes first recorded wrong and undone, sometimes
    its trump or bid corrected a little later (where trump is bid for)."""
    fields = (name for name in Hand.SNAPSHOT_FIELDS if name != "number")
    snapshot = {"number": number, **{name: hand[name] for name in fields}}
    entries = []
    if rng.random() < 0.015:
        wrong = dict(snapshot, opponent_points=max(0, snapshot["opponent_points"] - 10))
        if wrong != snapshot:
            early = moment - timedelta(minutes=2)
            entries += [
                _entry(number, "recorded", None, wrong, early),
                _entry(number, "deleted", wrong, None, early + timedelta(seconds=40)),
            ]
    entries.append(_entry(number, "recorded", None, snapshot, moment))
    if table.trumps.bids and rng.random() < 0.03:
        later = moment + timedelta(minutes=rng.randint(1, 30))
        if snapshot["trump"] != NO_TRUMP:
            others = [suit.value for suit in Suit if suit.value != snapshot["trump"]]
            before = dict(snapshot, trump=rng.choice(others))
        else:
            before = dict(snapshot, bid=Bid.ONE.value, trump=Suit.SPADES.value)
        entries.append(_entry(number, "edited", before, snapshot, later))
        hand["updated"] = later
    return entries


def _entry(number: int, action: str, before, after, at: datetime) -> dict:
    return {"hand_number": number, "action": action, "before": before, "after": after, "at": at}


def _weighted_sample(rng: random.Random, items, weights, count: int) -> list:
    """``count`` distinct items, the heavier more likely."""
    keyed = sorted(items, key=lambda item: rng.random() ** (1 / weights[item]), reverse=True)
    return keyed[:count]


def _at(day: date, hour: int, minute: int) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))
