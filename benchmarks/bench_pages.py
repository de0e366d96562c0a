"""Whether a group's pages and saves cost the same at 2,000 games as at 10 (issue 18's goals).

Groups of 10, 500 and 2,000 games (`manage.py demo_history --variants`: every shape of table),
each with a game of 30 hands started last (the group's newest), served by the production server
(benchmarks/served.py: gunicorn, make serve's workers, DEBUG off, compressed answers, loopback),
on SQLite and on a throwaway PostgreSQL. Per request, the workers' CPU time and the wall time;
medians; the sizes interleaved (10, 500, 2,000, 10, …) in one run.

- Recording the 31st hand of the 30-hand game: the hand form's plain POST, as a phone sends it;
  each try is undone (the game page's undo, not timed) before the next.
- The ladder history page, the group page and the busiest player's page: warm (each opened once
  first), then with Django's cache cleared before each request (from this process, the same
  database's cache table), as after a flush or a restart.

Goals, 2,000 games against 10, in both the CPU and the wall medians: warm pages within 1.5×,
pages with the cache cleared within 2×, the save within 1.5×. The 500-game ratios are shown.

The groups take a minute or two to build: the built database (a SQLite file, a PostgreSQL dump)
is kept in ~/.cache/tractor-companion-bench under the digest of the app's code and of `build`,
and copied for each run. Run from the repository root: ``.venv/bin/python
benchmarks/bench_pages.py``; exits 1 if any goal is missed (PostgreSQL not starting is one).
"""

from __future__ import annotations

import inspect
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from served import (
    Goals,
    Phone,
    code_version,
    kept_builds,
    median_ms,
    newest_postgresql,
    on_both_databases,
    production_environment,
    production_server,
)

SIZES = (10, 500, 2000)
"""The groups' numbers of games."""
HANDS = 30
"""The hands of each group's newest game; the save measured is the next one."""
ROUNDS = {"save": 9, "warm": 9, "cleared": 5}
GOALS = {"save": 1.5, "warm": 1.5, "cleared": 2.0}
PAGES = ("history page", "group page", "player page")
USERNAME, PASSWORD = "demo", "bench-password-not-a-secret"  # a member of each group
HAND = {
    "trump": "H",
    "opponent_points": "80",  # the opponents take the deal without climbing: the game goes on
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
}
"""The hand form's fields as a phone posts them (its declarer, version and key added)."""


def main() -> int:
    if len(sys.argv) > 1:  # one database, in a process of its own: Django reads settings once
        return measure(sys.argv[1])
    return on_both_databases(__file__, "pages", "pages and saves")


def measure(database: str) -> int:
    environment = production_environment(database)
    os.environ.update(environment)
    postgres = not database.startswith("sqlite")
    print(f"\n== {'PostgreSQL' if postgres else 'SQLite'} ==", flush=True)
    restore(database, postgres)
    import django

    django.setup()
    groups = targets()
    goals = Goals()
    sizes = " ".join(f"{f'{size:,} games':>15}" for size in SIZES)
    print(f"  {'medians, ms CPU / wall':<32} {sizes}   {SIZES[1]} / {SIZES[0]}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "gunicorn.log"
        try:
            with production_server(environment, log) as server:
                phone = Phone(server)
                phone.log_in(USERNAME, PASSWORD)
                saves(phone, groups, goals)
                pages(phone, groups, goals, cleared=False)
                pages(phone, groups, goals, cleared=True)
        except Exception:
            print("gunicorn's log ends:", *log.read_text().splitlines()[-20:], sep="\n  ")
            raise
    return goals.status()


# The groups


def analyze(pgbin, database: str) -> None:
    """Give PostgreSQL's planner its statistics, as a database in use has them: a restored or
    just-built one has none until autovacuum comes by, mid-measurement (a player's page then
    took 20 times as long at one moment as at the next)."""
    subprocess.run([pgbin / "psql", "--quiet", "--command", "ANALYZE", database], check=True)


def restore(database: str, postgres: bool) -> None:
    """The groups into ``database``: a copy of the kept build, or built now (and kept)."""
    pgbin = newest_postgresql()
    flavour = f"pg{pgbin.parent.name}" if postgres and pgbin else "sqlite"
    builder = inspect.getsource(build) + repr((SIZES, HANDS, USERNAME))
    kept = kept_builds() / f"pages-{flavour}-{code_version(builder)}.db"
    start = time.perf_counter()
    if kept.exists():
        if postgres:
            assert pgbin is not None
            subprocess.run(
                [pgbin / "pg_restore", "--no-owner", "--dbname", database, kept], check=True
            )
            analyze(pgbin, database)
        else:
            shutil.copyfile(kept, database.removeprefix("sqlite:///"))
        print(f"the groups, as built before: {kept}", flush=True)
        return
    subprocess.run([sys.executable, __file__, database, "--build"], check=True)
    # The newest few builds stay: checkouts of different code may take turns.
    older = sorted(kept.parent.glob(f"pages-{flavour}-*.db"), key=lambda p: p.stat().st_mtime)
    for old in older[:-2]:
        old.unlink()
    if postgres:
        assert pgbin is not None
        subprocess.run([pgbin / "pg_dump", "-Fc", "--file", kept, database], check=True)
        analyze(pgbin, database)
    else:
        shutil.copyfile(database.removeprefix("sqlite:///"), kept)
    print(f"built the groups in {time.perf_counter() - start:.0f} s, kept: {kept}", flush=True)


def build() -> None:
    """The groups of `SIZES` games, each with its newest game of `HANDS` hands recorded as the
    app records them."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from companion.models import Game, Group
    from scoring import get_rules

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    for size in SIZES:
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
        user = User.objects.get(username=USERNAME)
        players = list(group.players.order_by("pk")[:4])
        game = Game.start(group, players, get_rules("standard"), first_declarer=0, by=user)
        for _ in range(HANDS):
            game.refresh_from_db()
            fields = {
                "declarer": game.scored().state.next_declarer,
                "bid": "one",
                "trump": "H",
                "kitty_cards": "",
                "kitty_points": 0,
                "opponent_points": 80,
                "last_trick_winner": "declarers",
                "last_trick_format": "single",
                "last_trick_cards": 1,
            }
            game.record_hand(fields, version=game.version, request_key="", by=user)
    # The demo account has no password of its own (`make run` gives it one at every start).
    user = User.objects.get(username=USERNAME)
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])


def targets() -> dict[int, dict]:
    """For each size, the pages' URLs and the newest game."""
    from django.db.models import Count
    from django.urls import reverse

    from companion.models import Group, Seat

    found = {}
    for size in SIZES:
        group = Group.objects.get(name=f"{size} games")
        game = group.games.order_by("-created", "-pk").first()
        assert game is not None and game.hands.count() == HANDS, "not the groups built"
        seats = Seat.objects.filter(game__group=group).values("player")
        busiest = seats.annotate(games=Count("pk")).order_by("-games", "player")[0]["player"]
        found[size] = {
            "game": game,
            "history page": reverse("group_history", args=[group.pk]),
            "group page": reverse("group", args=[group.pk]),
            "player page": reverse("player", args=[group.pk, busiest]),
        }
    return found


# The measures


def saves(phone: Phone, groups: dict[int, dict], goals: Goals) -> None:
    """The 31st hand recorded, undone, recorded, …, the sizes in turn."""
    from companion.models import Game

    times: dict[int, list[tuple[float, float]]] = {size: [] for size in SIZES}
    for _ in range(ROUNDS["save"] + 1):  # the first round warms up, untimed
        for size in SIZES:
            game = groups[size]["game"]
            url = game.get_absolute_url()
            game = Game.objects.get(pk=game.pk)
            form = {
                **HAND,
                "declarer": str(game.scored().state.next_declarer),
                "version": str(game.version),
                "request_key": uuid.uuid4().hex,
            }
            saved = phone.post(f"{url}hands/new/", form)
            if saved.status != 302 or saved.location != url or game.hands.count() != HANDS + 1:
                raise RuntimeError(f"the hand was not saved: {saved.status} {saved.text[:300]}")
            times[size].append((saved.cpu, saved.wall))
            game.refresh_from_db()
            undone = phone.post(f"{url}undo/", {"version": str(game.version)})
            if undone.status != 302 or game.hands.count() != HANDS:
                raise RuntimeError(f"the hand was not undone: {undone.status}")
            phone.cookies.pop("messages", None)  # "Hand 31 undone.", which the game page shows
    report(
        f"record hand {HANDS + 1} of {HANDS} ({ROUNDS['save']})",
        {size: found[1:] for size, found in times.items()},
        goals,
        GOALS["save"],
    )


def pages(phone: Phone, groups: dict[int, dict], goals: Goals, *, cleared: bool) -> None:
    from django.core.cache import cache

    mode = "cache cleared" if cleared else "warm"
    times = {page: {size: [] for size in SIZES} for page in PAGES}
    if not cleared:
        for page in PAGES:
            for size in SIZES:
                phone.get(groups[size][page])
    for _ in range(ROUNDS["cleared" if cleared else "warm"]):
        for page in PAGES:
            for size in SIZES:
                if cleared:
                    cache.clear()
                answer = phone.get(groups[size][page])
                times[page][size].append((answer.cpu, answer.wall))
    for page in PAGES:
        rounds = ROUNDS["cleared" if cleared else "warm"]
        report(
            f"{page}, {mode} ({rounds})",
            times[page],
            goals,
            GOALS["cleared" if cleared else "warm"],
        )


def report(what: str, times: dict[int, list[tuple[float, float]]], goals: Goals, goal: float):
    """The medians of each size, then the goal: the largest against the smallest."""
    cpu = {size: median_ms(c for c, _ in found) for size, found in times.items()}
    wall = {size: median_ms(w for _, w in found) for size, found in times.items()}
    small, middle, large = sorted(SIZES)
    cells = " ".join(f"{cpu[size]:7.1f} /{wall[size]:7.1f}" for size in SIZES)
    ratios = f"{cpu[middle] / cpu[small]:5.2f}× /{wall[middle] / wall[small]:5.2f}×"
    print(f"  {what:<32} {cells}   {ratios}", flush=True)
    goals.ratio(
        f"{what}: {large:,} / {small} games",
        {"CPU": cpu[large] / cpu[small], "wall": wall[large] / wall[small]},
        goal,
    )


if __name__ == "__main__":
    if sys.argv[2:] == ["--build"]:
        os.environ.update(production_environment(sys.argv[1]))
        build()
        sys.exit(0)
    sys.exit(main())
