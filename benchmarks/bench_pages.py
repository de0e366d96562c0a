"""How the history pages and the group's ladder hold up as a group's history grows: groups of
10, 500 and 2,000 games (`manage.py demo_history --variants`: every shape of table), measured
side by side in one run, interleaved (10, 500, 2,000, 10, 500, …), so that the ratios compare
like with like on a shared machine.

- Pages: the median server time of the history page, a player's page and the group's page, the
  ladder served from the cache; the ratios to the 10-game group.
- The ladder: a hit (read from the cache), a miss (nothing kept: every game's summary read), an
  update after a hand in the newest game and after a change to the oldest (what the change does
  once it commits: the games that moved read, the ratings replayed from the first of them, the
  players' statistics adjusted by the moved games, the ladder and the players' pages stored),
  against a rebuild as the app made it before the cache (every game as a model with its seats
  and players, every record, every rating); and the size of the kept ladder.

Everything runs in a throwaway SQLite database with the database cache, or on PostgreSQL when
`DATABASE_URL` names one (its tables are made and dropped in a database of their own). Run from
the repository root: ``.venv/bin/python benchmarks/bench_pages.py``.
"""

from __future__ import annotations

import dataclasses
import io
import os
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROUNDS = 9
SIZES = (10, 500, 2000)
"""The groups' numbers of games."""


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        # The database and settings must be chosen before Django reads its settings.
        postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
        if not postgres:
            os.environ["DATABASE_URL"] = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
        os.environ["DEBUG"] = "false"  # as served: no query log, no debug pages
        os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
        os.environ["ALLOWED_HOSTS"] = "testserver"
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import override_settings
        from django.test.utils import get_runner

        runner = get_runner(django.conf.settings)(verbosity=0) if postgres else None
        databases = runner.setup_databases() if runner else None  # a test_… database
        try:
            # Pages name static files as collected (hashed); the admin's are not needed.
            with override_settings(STATIC_ROOT=Path(folder) / "static"):
                call_command(
                    "collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"]
                )
                return run(postgres)
        finally:
            if runner:
                runner.teardown_databases(databases)


def run(postgres: bool) -> int:
    from django.contrib.auth.models import User
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    from companion.models import GameSummary, Group, Hand, Seat, _ladder_key

    if not postgres:
        call_command("migrate", verbosity=0)
        call_command("createcachetable", verbosity=0)
    groups = {}
    for size in SIZES:
        start = time.perf_counter()
        name = f"{size} games"
        call_command(
            "demo_history",
            f"--games={size}",
            "--seed=2026",
            f"--group={name}",
            "--variants",
            stdout=io.StringIO(),
        )
        group = Group.objects.get(name=name)
        hands = Hand.objects.filter(game__group=group).count()
        print(f"built {name} ({hands} hands) in {time.perf_counter() - start:.1f} s")
        groups[size] = group
    print(f"on {'PostgreSQL' if postgres else 'SQLite'}, the database cache; {ROUNDS} rounds")

    client = Client()
    client.force_login(User.objects.get(username="demo"))

    def busiest(group: Group) -> int:
        seats = Seat.objects.filter(game__group=group).values("player")
        return seats.annotate(games=Count("pk")).order_by("-games", "player")[0]["player"]

    pages = {
        "history page": {size: reverse("group_history", args=[g.pk]) for size, g in groups.items()},
        "player page": {
            size: reverse("player", args=[g.pk, busiest(g)]) for size, g in groups.items()
        },
        "group page": {size: reverse("group", args=[g.pk]) for size, g in groups.items()},
    }
    for urls in pages.values():
        for url in urls.values():
            assert client.get(url, secure=True).status_code == 200, url

    def page(url: str):
        return lambda: client.get(url, secure=True)

    def fresh(group: Group) -> Group:
        return Group.objects.get(pk=group.pk)

    def hit(group: Group):
        return lambda: GameSummary.ladder(fresh(group))

    def miss(group: Group):
        return lambda: GameSummary._ladder_from(fresh(group), None)

    def update(group: Group, index: int):
        """The store a change makes once it commits, the game at ``index`` having moved."""

        def store() -> None:
            group_now = fresh(group)
            ladder = cache.get(_ladder_key(group_now))
            games = list(ladder.games)
            games[index] = games[index]._replace(version=-1)
            moved = dataclasses.replace(ladder, version=-1, games=tuple(games))
            cache.set(_ladder_key(group_now), moved, timeout=None)
            start = time.perf_counter()
            GameSummary._store_ladder(group.pk)
            return time.perf_counter() - start

        return store

    def rebuild(group: Group):
        return lambda: rebuilt(fresh(group))

    for label, each in [
        *((label, {size: page(url) for size, url in at.items()}) for label, at in pages.items()),
        ("ladder: hit", {size: hit(g) for size, g in groups.items()}),
        ("ladder: miss", {size: miss(g) for size, g in groups.items()}),
        ("rebuild as before", {size: rebuild(g) for size, g in groups.items()}),
        ("update: newest game", {size: update(g, -1) for size, g in groups.items()}),
        ("update: oldest game", {size: update(g, 0) for size, g in groups.items()}),
    ]:
        report(label, interleaved(each))

    print("\nthe kept ladder, pickled:", end="")
    for size, group in groups.items():
        kept = pickle.dumps(cache.get(_ladder_key(fresh(group))), pickle.HIGHEST_PROTOCOL)
        print(f"  {size} games {len(kept) / 1024:.0f} KB", end="")
    print()
    return 0


def interleaved(measured: dict) -> dict[int, float]:
    """The median seconds of each of ``measured``'s calls, called in turn round after round (a
    call that returns a number has timed itself)."""
    times: dict[int, list[float]] = {size: [] for size in measured}
    for _ in range(ROUNDS):
        for size, call in measured.items():
            start = time.perf_counter()
            own = call()
            elapsed = time.perf_counter() - start
            times[size].append(own if isinstance(own, float) else elapsed)
    return {size: statistics.median(values) for size, values in times.items()}


def report(label: str, times: dict[int, float]) -> None:
    smallest = min(times)
    cells = " ".join(f"{size:>5}: {seconds * 1000:7.1f} ms" for size, seconds in times.items())
    ratios = " ".join(f"{times[n] / times[smallest]:5.1f}×" for n in times if n != smallest)
    print(f"{label:<22} {cells}   ratios to {smallest} games: {ratios}")


def rebuilt(group):
    """The ladder as the app rebuilt it before the cache, with every value its pages read: every
    game with its summary, seats and players as models, every record, then the ratings,
    standings and opponents' totals."""
    from companion.models import GameSummary  # noqa: F401 - the models are loaded
    from companion.ratings import leaderboard, replay_ratings
    from scoring.stats import GameRecord, opponent_totals, standings

    games = list(
        group.games.select_related("summary")
        .prefetch_related("seats__player")
        .order_by("created", "pk")
    )
    records = [
        GameRecord.with_hands_json(
            game.pk,
            game.setup,
            [seat.player_id for seat in game.seated],
            game.summary.hands,
            game.summary.winners,
            played=game.created,
        )
        for game in games
    ]
    leaderboard(replay_ratings(records))
    standings(records)
    opponent_totals(records)


if __name__ == "__main__":
    sys.exit(main())
