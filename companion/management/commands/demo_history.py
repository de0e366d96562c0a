"""`python manage.py demo_history --games 500`: a group with two years of weekly games.

A roster of 8 to 12 players meets one evening a week at one to three tables; each table plays
a few games under one of the presets or the group's own table, with legal hands of realistic
points, now and then a corrected trump or an undone hand; most games are played to the end and a
few are left unfinished. Every hand is played through `scoring.game` as it is made, so the
declarer is always one `scoring` allows. The group is written as an export document and stored
by `companion.exchange`, in bulk: 500 games take a few seconds.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from companion import exchange
from companion.management.commands.demo import DEMO_PASSWORD, DEMO_USER
from companion.models import Hand
from scoring import PRESETS, Format, LastTrick, Rank, Rules, Side, points, rules_from_json
from scoring.cards import full_pack
from scoring.game import Game, GameSetup, HandResult, Seat, TeamLevels
from scoring.settle import DECK_POINTS, KITTY_CARDS

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
BIDS = {
    Hand.Bid.ONE: 60,
    Hand.Bid.PAIR: 27,
    Hand.Bid.SMALL_JOKERS: 4,
    Hand.Bid.BIG_JOKERS: 2,
    Hand.Bid.NONE: 7,
}
KITTY_POINTS = {0: 20, 5: 18, 10: 20, 15: 14, 20: 12, 25: 7, 30: 5, 35: 2, 40: 2}
PACK = full_pack(2)
SESSIONS = 104  # two years of weekly evenings
THURSDAY = 3
ABANDONED = 0.04  # games left unfinished when the evening ended
LONGEST_GAME = 60  # hands; a game still going after this many is left unfinished


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

    def handle(self, *args, games: int, group: str, seed: int | None, until, **options) -> None:
        if games < 1:
            raise CommandError("--games must be at least 1")
        user = User.objects.filter(username=DEMO_USER).first() or User.objects.create_user(
            DEMO_USER, password=DEMO_PASSWORD
        )
        if isinstance(until, str):  # call_command passes keyword options unparsed
            until = date.fromisoformat(until)
        rng = random.Random(seed)
        export = exchange.read(history(rng, games, until or timezone.localdate(), group, DEMO_USER))
        imported = exchange.import_group(export, members=[user])
        self.stdout.write(
            f"{imported.group.name} (group {imported.group.pk}): {export.summary}; "
            f"log in as {DEMO_USER!r} with password {DEMO_PASSWORD!r}."
        )


def history(rng: random.Random, games: int, until: date, name: str, username: str) -> dict:
    """The whole group as an export document (see `companion.exchange`)."""
    roster = rng.sample(NAMES, rng.randint(8, 12))
    attendance = [rng.uniform(0.3, 1.0) for _ in roster]
    sessions = min(SESSIONS, games)
    last = until - timedelta(days=(until.weekday() - THURSDAY) % 7)
    evenings = [last - timedelta(weeks=sessions - 1 - week) for week in range(sessions)]
    per_evening = [games // sessions + (week < games % sessions) for week in range(sessions)]
    first = _at(evenings[0], 18, 0)
    documents = []
    for evening, count in zip(evenings, per_evening, strict=True):
        tables = max(1, min(len(roster) // 4, count // 2))
        seated = _weighted_sample(rng, range(len(roster)), attendance, 4 * tables)
        for table in range(tables):
            players = seated[4 * table : 4 * table + 4]
            start = _at(evening, 19, rng.randrange(0, 30))
            for _ in range(table, count, tables):
                document, start = _game(rng, players, start, username)
                documents.append(document)
    documents.sort(key=lambda document: document["created"])
    # The last evening's last game is still being played.
    if documents and documents[-1]["hands"] and len(documents) > 1:
        _cut(documents[-1], rng.randrange(len(documents[-1]["hands"])))
    return {
        "format": exchange.FORMAT,
        "version": exchange.VERSION,
        "group": {"name": name, "created": _iso(first)},
        "members": [{"username": username, "joined": _iso(first)}],
        "players": [
            {"name": name, "user": username if number == 0 else None}
            for number, name in enumerate(roster)
        ],
        "scoring_tables": [{"rules": HOUSE_RULES.to_json(), "updated": _iso(first)}],
        "games": documents,
    }


def _game(rng: random.Random, players: list[int], start: datetime, username: str):
    """One game at a table from ``start``; returns its document and when the table is free."""
    rules = rng.choices(list(RULES_WEIGHTS), weights=list(RULES_WEIGHTS.values()))[0]
    seats = rng.sample(players, 4)
    level = "2" if rng.random() < 0.7 else rng.choice("3456789")
    first_starter = rng.choice("NESW") if rng.random() < 0.3 else ""
    setup = GameSetup(
        rules,
        TeamLevels(Rank.parse(level), Rank.parse(level)),
        Seat(first_starter) if first_starter else None,
    )
    game = Game(setup)
    stop = rng.randrange(3, 20) if rng.random() < ABANDONED else LONGEST_GAME
    moment = start
    hands, changes = [], []
    while not game.state.game_over and len(game.hands) < stop:
        result, entered = _hand(rng, rules, game)
        game = game.play(result)
        moment += timedelta(minutes=rng.randint(3, 7), seconds=rng.randrange(60))
        hands.append({**entered, "created": _iso(moment), "updated": _iso(moment)})
        changes.extend(_entries(rng, hands[-1], len(hands), moment, username))
    changes.sort(key=lambda change: change["at"])
    document = {
        "created": _iso(start),
        "created_by": username,
        "rules": rules.to_json(),
        "seats": dict(zip(exchange.SEATS, seats, strict=True)),
        "north_south_level": level,
        "east_west_level": level,
        "first_starter": first_starter,
        "hands": hands,
        "changes": changes,
        "disputes": [],
    }
    return document, moment + timedelta(minutes=rng.randint(2, 10))


def _hand(rng: random.Random, rules: Rules, game: Game) -> tuple[HandResult, dict]:
    """A legal next hand: the declarer `scoring` expects, points a real hand could make."""
    state = game.state
    if state.starter is not None:
        declarer = state.starter
    elif state.declarers is not None:
        declarer = rng.choice(state.declarers.seats)
    else:
        declarer = rng.choice(list(Seat))
    bid = rng.choices(list(BIDS), weights=list(BIDS.values()))[0]
    no_trump = bid in (Hand.Bid.SMALL_JOKERS, Hand.Bid.BIG_JOKERS) or (
        bid == Hand.Bid.NONE and rng.random() < 0.5
    )
    kitty_cards = ""
    if rng.random() < 0.15:
        cards = rng.sample(PACK, KITTY_CARDS)
        while points(cards) > 40:
            cards = rng.sample(PACK, KITTY_CARDS)
        kitty_cards = " ".join(str(card) for card in cards)
        kitty = points(cards)
    else:
        kitty = rng.choices(list(KITTY_POINTS), weights=list(KITTY_POINTS.values()))[0]
    opponents = _opponent_points(rng, DECK_POINTS - kitty)
    last_trick = _last_trick(rng, rules)
    entered = {
        "declarer": declarer.value,
        "bid": str(bid),
        "trump": "" if no_trump else rng.choice("SHDC"),
        "kitty_cards": kitty_cards,
        "kitty_points": kitty,
        "opponent_points": opponents,
        "last_trick_winner": last_trick.winner.value,
        "last_trick_format": last_trick.format.value,
        "last_trick_cards": last_trick.cards,
        "declarer_cards_taken_back": 0,
        "opponent_cards_taken_back": 0,
    }
    return HandResult(declarer, opponents, kitty, last_trick), entered


def _opponent_points(rng: random.Random, most: int) -> int:
    """Mostly 20 to 120; now and then a shut-out or a rout."""
    if rng.random() < 0.02:
        return 0
    while True:
        value = 5 * round(rng.gauss(62, 32) / 5)
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


def _entries(rng: random.Random, hand: dict, number: int, moment: datetime, username: str):
    """The history of one hand: recorded; sometimes first recorded wrong and undone, sometimes
    its trump or bid corrected a little later."""
    snapshot = {"number": number, **{name: hand[name] for name in exchange.HAND_FIELDS}}
    entries = []
    if rng.random() < 0.015:
        wrong = dict(snapshot, opponent_points=max(0, snapshot["opponent_points"] - 10))
        if wrong != snapshot:
            early = moment - timedelta(minutes=2)
            entries += [
                _entry(number, "recorded", None, wrong, early, username),
                _entry(number, "deleted", wrong, None, early + timedelta(seconds=40), username),
            ]
    entries.append(_entry(number, "recorded", None, snapshot, moment, username))
    if rng.random() < 0.03:
        later = moment + timedelta(minutes=rng.randint(1, 30))
        fixed = dict(snapshot)
        if snapshot["trump"]:
            before = dict(snapshot, trump=rng.choice([s for s in "SHDC" if s != snapshot["trump"]]))
        else:
            before = dict(snapshot, bid=str(Hand.Bid.ONE), trump="S")
        entries.append(_entry(number, "edited", before, fixed, later, username))
        hand["updated"] = _iso(later)
    return entries


def _entry(number: int, action: str, before, after, at: datetime, username: str) -> dict:
    return {
        "hand_number": number,
        "action": action,
        "before": before,
        "after": after,
        "by": username,
        "at": _iso(at),
    }


def _cut(document: dict, keep: int) -> None:
    """Leave a game unfinished after its first ``keep`` hands (at least one)."""
    keep = max(1, keep)
    document["hands"] = document["hands"][:keep]
    document["changes"] = [c for c in document["changes"] if c["hand_number"] <= keep]


def _weighted_sample(rng: random.Random, items, weights, count: int) -> list:
    """``count`` distinct items, the heavier more likely."""
    keyed = sorted(items, key=lambda item: rng.random() ** (1 / weights[item]), reverse=True)
    return keyed[:count]


def _at(day: date, hour: int, minute: int) -> datetime:
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


def _iso(moment: datetime) -> str:
    return exchange.isoformat(moment)
