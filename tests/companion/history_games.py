"""Random legal games for a group's history: each hand is played through `scoring.game` as it is
made, so that it follows the rules and the table (who may start, who may be a friend, the fixed
trump, the points the decks hold, when the game is over)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from companion.ladder import whole
from companion.models import (
    Game,
    GameSummary,
    Group,
    Hand,
    LadderTally,
    Player,
    PlayerLadder,
    Rating,
)
from companion.ratings import replay_ratings
from scoring import PRESETS, Bid, Format, LastTrick, Rank, Side, Suit, get_rules
from scoring.game import Game as ScoredGame
from scoring.game import GameSetup, HandResult
from scoring.stats import GameLine, GameRecord, every_player_stats
from scoring.table import Table, Teams, TrumpRule, default_decks

FOURS = ({"teams": Teams.PARTNERS, "players": 4},)
"""Four partners with two decks, the table every game had before variants."""
VARIANTS = (
    {"teams": Teams.PARTNERS, "players": 4},
    {"teams": Teams.FIND_A_FRIEND, "players": 5},
    {"teams": Teams.PAIRS, "players": 6, "trumps": TrumpRule(suits=(Suit.SPADES, Suit.HEARTS))},
    {"teams": Teams.PARTNERS, "players": 6, "trumps": TrumpRule(no_trump=True)},
    {"teams": Teams.FIND_A_FRIEND, "players": 8},
    {"teams": Teams.PARTNERS, "players": 4, "decks": 3},
)
"""Every shape of table: find-a-friend with five and eight, pairs and partners of six, fixed
trumps, three decks at four."""


def random_results(rng: random.Random, setup: GameSetup, most: int) -> list[HandResult]:
    """Up to ``most`` legal hands; fewer when the game ends first."""
    game = ScoredGame(setup)
    table = setup.table
    while not game.state.game_over and len(game.hands) < most:
        state = game.state
        declarer = rng.choice(state.next_declarers)
        friends = ()
        if not table.fixed_teams:
            # Called cards are played by anyone, the declarer too, or by nobody.
            friends = tuple(rng.sample(table.seats, rng.randint(0, table.called)))
        if table.trumps.bids:
            bid = rng.choice([Bid.ONE, Bid.PAIR, Bid.SMALL_JOKERS])
            trump = rng.choice(list(Suit)) if bid.names_suit else None
        else:
            bid, trump = None, table.trumps.fixed(state.number)
        scale = table.decks / 2
        points = 5 * round(rng.triangular(0, 150 * scale, 50 * scale) / 5)
        kitty = 5 * rng.randint(0, min(table.max_kitty_points, table.deck_points - points) // 10)
        winner = Side.OPPONENTS if rng.random() < 0.3 else Side.DECLARERS
        last = (
            LastTrick(winner, Format.PAIR, 2)
            if rng.random() < 0.3
            else LastTrick(winner, Format.SINGLE, 1)
        )
        result = HandResult(declarer, points, kitty, last, friends=friends, trump=trump, bid=bid)
        game = game.play(result)
    return [hand.result for hand in game.hands]


def make_games(
    group: Group,
    players: list[Player],
    count: int,
    *,
    seed: int = 0,
    start: datetime | None = None,
    most: int = 40,
    tables=FOURS,
) -> list[Game]:
    """``count`` games of ``players`` at random ``tables`` (the shapes of :data:`VARIANTS`)
    under random presets, three days apart from ``start``, each with up to ``most`` random legal
    hands (so some are left unfinished)."""
    rng = random.Random(seed)
    start = start or timezone.now() - timedelta(days=3 * count)
    games = []
    for number in range(count):
        shape = rng.choice(tables)
        rules = rng.choice(list(PRESETS.values()))
        seated = rng.sample(players, shape["players"])
        table = Table(
            tuple(player.name for player in seated),
            decks=shape.get("decks") or default_decks(len(seated)),
            teams=shape["teams"],
            trumps=shape.get("trumps", TrumpRule()),
        )
        first = rng.choice(table.seats) if GameSetup(rules, table).needs_first_declarer else None
        game = Game.start(
            group,
            seated,
            rules,
            decks=table.decks,
            teams=table.teams,
            trumps=table.trumps,
            first_declarer=first,
        )
        results = random_results(rng, game.setup, rng.randint(3, most))
        _save_hands(game, results, start + timedelta(days=3 * number))
        games.append(game)
    return games


def save_game(
    group: Group,
    players: list[Player],
    rules: str,
    results: list[HandResult],
    *,
    levels: tuple[str, ...] | None = None,
    created: datetime | None = None,
    **table,
) -> Game:
    """One game of ``players`` in play order with these hands, as if recorded one by one (its
    version counts them); ``table`` as :meth:`Game.start` takes it."""
    game = Game.start(
        group,
        players,
        get_rules(rules),
        levels=[Rank.parse(level) for level in levels] if levels else None,
        **table,
    )
    _save_hands(game, results, created)
    return game


def _save_hands(game: Game, results: list[HandResult], created: datetime | None) -> None:
    fields = {"version": len(results)}
    if created is not None:
        fields["created"] = game.created = created
    Game.objects.filter(pk=game.pk).update(**fields)
    game.version = len(results)
    Hand.objects.bulk_create(
        hand_row(game, number, result) for number, result in enumerate(results, start=1)
    )
    GameSummary.bring_up_to_date([game])  # as every writer of hands in bulk does


def hand_row(game: Game, number: int, result: HandResult) -> Hand:
    return Hand(game=game, number=number, **Hand.fields_of(result))


def seated(cast: dict[str, Player], names: str) -> list[Player]:
    """The players named in ``names`` ("Mei Jun Lin Hao"), in that seat order."""
    return [cast[name] for name in names.split()]


def next_hand(game: Game) -> dict:
    """A hand the declarers hold with 40, started by whoever starts next."""
    scored = game.scored()
    trumps = game.table.trumps
    trump = trumps.fixed(scored.state.number) if not trumps.bids else None
    return {
        "declarer": scored.state.next_declarers[0],
        "friends": [],
        "bid": "one" if trumps.bids else "",
        "trump": "S" if trumps.bids else (trump.value if trump else ""),
        "kitty_points": 0,
        "opponent_points": 40,
        "last_trick_winner": "declarers",
        "last_trick_format": "single",
        "last_trick_cards": 1,
    }


@dataclass(frozen=True)
class LadderNumbers:
    """What a group's ladder holds: its games' records in the order played and their lines
    (where each stands, as lists show it), every player's statistics and ratings, and the
    history's tallies."""

    records: list[GameRecord]
    lines: list[GameLine]
    statistics: dict
    ratings: dict
    tallies: dict


def stored_ladder(group: Group) -> LadderNumbers:
    """The ladder as its rows hold it."""
    summaries = GameSummary.objects.filter(group=group).order_by("played", "game_id")
    ratings: dict = {}
    for rating in Rating.objects.filter(player__group=group).order_by("player_id", "number"):
        ratings.setdefault(rating.player_id, []).append(rating.point)
    lines = PlayerLadder.objects.filter(group=group)
    for line in lines:
        points = ratings.get(line.player_id, [])
        assert line.rated == len(points)
        assert (line.mu, line.sigma) == (
            (points[-1].mu, points[-1].sigma) if points else (None,) * 2
        )
    order = list(summaries.values_list("game_id", flat=True))
    game_lines = GameSummary.lines_of(order)
    return LadderNumbers(
        list(GameSummary.records_of(summaries).values()),
        [game_lines[pk] for pk in order],
        {line.player_id: line.statistics for line in lines},
        ratings,
        {row.key: row.tally for row in LadderTally.objects.filter(group=group)},
    )


def replayed_ladder(group: Group) -> LadderNumbers:
    """The ladder counted afresh from every hand of every game, with no row of it read."""
    records = [
        GameRecord.of(game.pk, game.scored(), [player.pk for player in game.players], game.created)
        for game in Game.objects.filter(group=group).order_by("created", "pk")
    ]
    return LadderNumbers(
        records,
        [record.line for record in records],
        every_player_stats(records),
        replay_ratings(records),
        whole(records, timezone.localtime),
    )
