"""Random legal games for a group's history: each hand is played through `scoring.game` as it is
made, so that it follows the rules (who may declare, when the game is over)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.utils import timezone

from companion.models import Game, Group, Hand, Player
from scoring import PRESETS, Format, LastTrick, Side
from scoring.game import Game as ScoredGame
from scoring.game import GameSetup, HandResult, Seat

SEATS = ("north", "east", "south", "west")


def random_results(rng: random.Random, setup: GameSetup, most: int) -> list[HandResult]:
    """Up to ``most`` legal hands; fewer when the game ends first."""
    game = ScoredGame(setup)
    while not game.state.game_over and len(game.hands) < most:
        state = game.state
        if state.starter is not None:
            declarer = state.starter
        elif state.declarers is not None:
            declarer = rng.choice(state.declarers.seats)
        else:
            declarer = rng.choice(list(Seat))
        points = min(200, 5 * round(rng.triangular(0, 150, 50) / 5))
        kitty = 5 * rng.randint(0, min(80, 200 - points) // 10)
        winner = Side.OPPONENTS if rng.random() < 0.3 else Side.DECLARERS
        last = (
            LastTrick(winner, Format.PAIR, 2)
            if rng.random() < 0.3
            else LastTrick(winner, Format.SINGLE, 1)
        )
        game = game.play(HandResult(declarer, points, kitty, last))
    return [hand.result for hand in game.hands]


def make_games(
    group: Group,
    players: list[Player],
    count: int,
    *,
    seed: int = 0,
    start: datetime | None = None,
    most: int = 40,
) -> list[Game]:
    """``count`` games of four of ``players`` under random presets, three days apart from
    ``start``, each with up to ``most`` random legal hands (so some are left unfinished)."""
    rng = random.Random(seed)
    start = start or timezone.now() - timedelta(days=3 * count)
    games = []
    results = []
    for _ in range(count):
        rules = rng.choice(list(PRESETS.values()))
        seated = dict(zip(SEATS, rng.sample(players, 4), strict=True))
        game = Game(group=group, rules_json=rules.to_json(), **seated)
        results.append(random_results(rng, game.setup, rng.randint(3, most)))
        games.append(game)
    Game.objects.bulk_create(games)
    for number, (game, hands) in enumerate(zip(games, results, strict=True)):
        game.created = start + timedelta(days=3 * number)
        game.version = len(hands)
    Game.objects.bulk_update(games, ["created", "version"])
    Hand.objects.bulk_create(
        hand_row(game, number, result)
        for game, hands in zip(games, results, strict=True)
        for number, result in enumerate(hands, start=1)
    )
    return games


def hand_row(game: Game, number: int, result: HandResult) -> Hand:
    return Hand(
        game=game,
        number=number,
        declarer=result.declarer.value,
        kitty_points=result.kitty_points,
        opponent_points=result.opponent_points,
        last_trick_winner=result.last_trick.winner.value,
        last_trick_format=result.last_trick.format.value,
        last_trick_cards=result.last_trick.cards,
    )


def save_game(
    group: Group,
    seats: dict[str, Player],
    rules: str,
    results: list[HandResult],
    *,
    levels: tuple[str, str] = ("2", "2"),
    created: datetime | None = None,
) -> Game:
    """One game with these hands, as if recorded one by one (its version counts them)."""
    game = Game.objects.create(
        group=group,
        rules_json=PRESETS[rules].to_json(),
        north_south_level=levels[0],
        east_west_level=levels[1],
        version=len(results),
        **seats,
    )
    if created is not None:
        Game.objects.filter(pk=game.pk).update(created=created)
        game.created = created
    Hand.objects.bulk_create(
        hand_row(game, number, result) for number, result in enumerate(results, start=1)
    )
    return game
