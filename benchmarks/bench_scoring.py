"""How fast the rules engine judges: the median time to judge one 4-player trick, and to replay
a whole random hand of 25 cards each. Goals: under 1 ms and under 25 ms; exits 1 if one is
missed. The times are this process's CPU time, not the wall clock: the machine may be busy
with other work.

Run from the repository root: ``.venv/bin/python benchmarks/bench_scoring.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# The tests' random hands are played by rule; timing the same games keeps one generator of them.
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from random_hands import Hand, play_hand  # noqa: E402
from served import Goals  # noqa: E402

from scoring import Rank, Suit, Trump, get_rules, judge, replay_hand  # noqa: E402
from scoring.cli import judge_request  # noqa: E402

GOALS = {"judge a 4-player trick": 1.0, "replay a whole hand": 25.0}


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def hands_before(hand: Hand, number: int) -> dict[str, list]:
    """Each player's cards before trick ``number`` (counted from 0)."""
    left = {player: list(cards) for player, cards in hand.hands.items()}
    for trick in hand.tricks[:number]:
        for play in trick:
            for card in play.cards:
                left[play.player].remove(card)
    return left


def main() -> int:
    rng = random.Random(2026)
    games = []
    for preset in ("standard", "open-ladder", "kawu"):
        for _ in range(10):
            rules = get_rules(preset)
            trump = Trump(Rank(rng.randint(2, 14)), rng.choice([None, *Suit]))
            games.append((rules, trump, play_hand(rng, rules, trump)))

    tricks = []
    for rules, trump, hand in games:
        for number in range(0, len(hand.tricks), 3):
            tricks.append((rules, trump, hand.tricks[number], hands_before(hand, number)))
    requests = [
        {
            "rules": rules.name,
            "level": str(trump.level),
            "trump": str(trump.suit) if trump.suit else None,
            "hands": {player: [str(card) for card in cards] for player, cards in hands.items()},
            "plays": [[play.player, [str(card) for card in play.cards]] for play in plays],
        }
        for rules, trump, plays, hands in tricks
    ]

    results = {
        "judge a 4-player trick": statistics.median(
            median_ms(lambda case=case: judge(*case), repeat=20) for case in tricks
        ),
        "judge a trick from JSON": statistics.median(
            median_ms(lambda data=data: judge_request(data), repeat=20) for data in requests
        ),
        "replay a whole hand": statistics.median(
            median_ms(
                lambda game=game: replay_hand(
                    game[0], game[1], game[2].tricks, game[2].hands, game[2].kitty
                ),
                repeat=5,
            )
            for game in games
        ),
    }
    print(f"{len(tricks)} tricks and {len(games)} hands, 4 players, 2 decks (median CPU times)")
    goals = Goals()
    for name, value in results.items():
        goal = GOALS.get(name)
        if goal is None:
            print(f"{name:<52} {value:.3f} ms")
        else:
            goals.check(name, f"{value:.3f} ms", f"< {goal:g} ms", value < goal)
    return goals.status()


if __name__ == "__main__":
    sys.exit(main())
