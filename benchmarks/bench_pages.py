"""How the pages hold up as a group's history grows: the median server time of the history page,
a player's page, a game's page and the group's page for a 10-game group, a 500-game group of
four partners and a 500-game group at every shape of table (`manage.py demo_history` and
`--variants`: find-a-friend, pairs, six and eight players), side by side. Goal: the 500-game
pages within 3× the 10-game ones. The exports are timed too; they grow with the history by
design, so they have no goal.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOAL = 3.0
REPEAT = 9
GROUPS = (
    ("10 games", 10, ()),
    ("500 games", 500, ()),
    ("500 variants", 500, ("--variants",)),
)
"""Each group's name, its games and the options `demo_history` builds it with."""


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        # The database and settings must be chosen before Django reads its settings.
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
        os.environ["DEBUG"] = "false"  # as served: no query log, no debug pages
        os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
        os.environ["ALLOWED_HOSTS"] = "testserver"
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import override_settings

        # Pages name static files as collected (hashed); the admin's are not needed.
        with override_settings(STATIC_ROOT=Path(folder) / "static"):
            call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
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
    for name, size, options in GROUPS:
        start = time.perf_counter()
        call_command(
            "demo_history",
            f"--games={size}",
            "--seed=2026",
            f"--group={name}",
            *options,
            stdout=io.StringIO(),
        )
        group = Group.objects.get(name=name)
        hands = Hand.objects.filter(game__group=group).count()
        print(f"built {name} ({hands} hands) in {time.perf_counter() - start:.1f} s")
        groups[name] = group
    names = [name for name, _size, _options in GROUPS]
    smallest = names[0]

    client = Client()
    client.force_login(User.objects.get(username="demo"))

    def lengths(group: Group) -> list[tuple[int, int]]:
        games = Game.objects.filter(group=group).annotate(hands_count=Count("hands"))
        return sorted((game.hands_count, game.pk) for game in games)

    # The same game length in every group, so that only the group's size differs.
    small = lengths(groups[smallest])
    length, _ = small[len(small) // 2]
    games = {
        name: min(lengths(group), key=lambda item: (abs(item[0] - length), item[1]))[1]
        for name, group in groups.items()
    }
    busiest = {name: _busiest_player(group) for name, group in groups.items()}

    pages = [
        ("history page", "group_history", lambda name: [groups[name].pk], True),
        ("player page", "player", lambda name: [groups[name].pk, busiest[name]], True),
        ("game page", "game", lambda name: [groups[name].pk, games[name]], True),
        ("group page", "group", lambda name: [groups[name].pk], True),
        ("export (JSON)", "group_export", lambda name: [groups[name].pk], False),
        ("export (CSV)", "group_export_csv", lambda name: [groups[name].pk], False),
    ]
    header = " ".join(f"{name:>12}" for name in names)
    ratios = " ".join(f"{name.split()[-1]:>8}" for name in names[1:])
    print(f"\n{'median server time':<20} {header}   ratios {ratios} (goal ≤ {GOAL:g}×)")
    missed = 0
    for label, page, args, goal in pages:
        try:
            urls = {name: reverse(page, args=args(name)) for name in names}
        except NoReverseMatch:
            print(f"{label:<20} skipped: no URL named {page!r} yet")
            continue
        times = {}
        for name, url in urls.items():
            if _get(client, url) is None:  # the first request also fills any cache
                print(f"{label:<20} skipped: {url} did not answer 200")
                break
            repeat = REPEAT if goal else 3
            times[name] = statistics.median(_get(client, url) or 0 for _ in range(repeat))
        if len(times) < len(names):
            continue
        ratios = [times[name] / times[smallest] for name in names[1:]]
        verdict = ""
        if goal:
            verdict = "ok" if max(ratios) <= GOAL else "MISSED"
            missed += max(ratios) > GOAL
        cells = " ".join(f"{times[name] * 1000:9.1f} ms" for name in names)
        shown = " ".join(f"{ratio:7.1f}×" for ratio in ratios)
        print(f"{label:<20} {cells}   {shown}  {verdict}")
    return 0


def _get(client, url: str) -> float | None:
    """Seconds to answer ``url``, or None unless it answers 200."""
    start = time.perf_counter()
    response = client.get(url, secure=True)  # as served: over HTTPS
    elapsed = time.perf_counter() - start
    return elapsed if response.status_code == 200 else None


def _busiest_player(group) -> int:
    """The player who sat in most of the group's games."""
    from django.db.models import Count

    from companion.models import Seat

    seats = Seat.objects.filter(game__group=group).values("player")
    return seats.annotate(games=Count("pk")).order_by("-games", "player")[0]["player"]


if __name__ == "__main__":
    sys.exit(main())
