"""How the pages hold up as a group's history grows: the median server time of the history page,
a player's page, a game's page and the group's page for a 10-game group and a 500-game group
(`manage.py demo_history`), side by side. Goal: the 500-game pages within 3× the 10-game ones.
The exports are timed too; they grow with the history by design, so they have no goal.

Everything runs in a throwaway SQLite database. Run from the repository root:
``.venv/bin/python benchmarks/bench_pages.py``.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL = 3.0
REPEAT = 9
SIZES = (10, 500)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        # The database and settings must be chosen before Django reads its settings.
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
        os.environ["DEBUG"] = "false"  # as served: no query log, no debug pages
        os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
        os.environ["ALLOWED_HOSTS"] = "testserver"
        # whitenoise serves from the finders until collectstatic fills STATIC_ROOT.
        warnings.filterwarnings("ignore", "No directory at", UserWarning)
        import django

        django.setup()
        return run()


def run() -> int:
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db.models import Count
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from companion.models import Game, Group, Hand

    call_command("migrate", verbosity=0)
    groups = {}
    for size in SIZES:
        start = time.perf_counter()
        call_command(
            "demo_history",
            f"--games={size}",
            "--seed=2026",
            f"--group={size} games",
            stdout=io.StringIO(),
        )
        group = Group.objects.get(name=f"{size} games")
        hands = Hand.objects.filter(game__group=group).count()
        print(f"built {size} games ({hands} hands) in {time.perf_counter() - start:.1f} s")
        groups[size] = group

    client = Client()
    client.force_login(User.objects.get(username="demo"))

    def lengths(group: Group) -> list[tuple[int, int]]:
        games = Game.objects.filter(group=group).annotate(hands_count=Count("hands"))
        return sorted((game.hands_count, game.pk) for game in games)

    # The same game length in both groups, so that only the group's size differs.
    small = lengths(groups[SIZES[0]])
    length, _ = small[len(small) // 2]
    games = {
        size: min(lengths(group), key=lambda item: (abs(item[0] - length), item[1]))[1]
        for size, group in groups.items()
    }
    busiest = {size: _busiest_player(group) for size, group in groups.items()}

    pages = [
        ("history page", "group_history", lambda size: [groups[size].pk], True),
        ("player page", "player", lambda size: [groups[size].pk, busiest[size]], True),
        ("game page", "game", lambda size: [groups[size].pk, games[size]], True),
        ("group page", "group", lambda size: [groups[size].pk], True),
        ("export (JSON)", "group_export", lambda size: [groups[size].pk], False),
        ("export (CSV)", "group_export_csv", lambda size: [groups[size].pk], False),
    ]
    header = " ".join(f"{f'{size} games':>10}" for size in SIZES)
    print(f"\n{'median server time':<20} {header}   ratio (goal ≤ {GOAL:g}×)")
    missed = 0
    for label, name, args, goal in pages:
        try:
            urls = {size: reverse(name, args=args(size)) for size in SIZES}
        except NoReverseMatch:
            print(f"{label:<20} skipped: no URL named {name!r} yet")
            continue
        times = {}
        for size, url in urls.items():
            if _get(client, url) is None:  # the first request also fills any cache
                break
            repeat = REPEAT if goal else 3
            times[size] = statistics.median(_get(client, url) or 0 for _ in range(repeat))
        if len(times) < len(SIZES):
            print(f"{label:<20} skipped: {urls[size]} did not answer 200")
            continue
        ratio = times[SIZES[-1]] / times[SIZES[0]]
        verdict = ""
        if goal:
            verdict = "ok" if ratio <= GOAL else "MISSED"
            missed += ratio > GOAL
        cells = " ".join(f"{times[size] * 1000:7.1f} ms" for size in SIZES)
        print(f"{label:<20} {cells}   {ratio:5.1f}×  {verdict}")
    return 0


def _get(client, url: str) -> float | None:
    """Seconds to answer ``url``, or None unless it answers 200."""
    start = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - start
    return elapsed if response.status_code == 200 else None


def _busiest_player(group) -> int:
    """The player who sat in most of the group's games."""
    seats = Counter()
    for row in group.games.values_list("north", "east", "south", "west"):
        seats.update(row)
    return seats.most_common(1)[0][0]


if __name__ == "__main__":
    sys.exit(main())
