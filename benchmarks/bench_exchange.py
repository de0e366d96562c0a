"""A group's export and import at scale: a 500-game group (`manage.py demo_history`) exported,
read and imported while another thread keeps saving hands into another group, and a 2,000-game
group exported. Reported: times; peak memory (tracemalloc, Python's own allocations); and the
longest a hand save waited for the database during the import. Goals: no save refused and
none waiting more than a second; the streamed export's peak a small fraction of the file it
writes (compared, in the same run, with the whole file's text built in memory).

A throwaway SQLite database unless ``DATABASE_URL`` names another (PostgreSQL): the benchmark
writes its groups there. Run from the repository root:
``.venv/bin/python benchmarks/bench_exchange.py``.
"""

from __future__ import annotations

import io
import os
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WAIT_GOAL = 1.0  # seconds a hand save may wait for an import
SIZES = (500, 2000)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        # The database and settings must be chosen before Django reads its settings.
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
        os.environ["DEBUG"] = "false"  # as served: no query log, no debug pages
        os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
        import django

        django.setup()
        return run()


def run() -> int:
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from companion import exchange
    from companion.models import Group

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    print(f"database: {connection.vendor}")
    groups = {}
    for size in SIZES:
        start = time.perf_counter()
        name = f"bench {size} ({time.time_ns()})"
        call_command("demo_history", f"--games={size}", "--seed=2026", f"--group={name}",
                     stdout=io.StringIO())  # fmt: skip
        groups[size] = Group.objects.get(name=name)
        print(f"built {size} games in {time.perf_counter() - start:.1f} s")
    user = User.objects.get(username="demo")
    failed = 0

    print("\nexport                   time      peak memory   file")
    for size, group in groups.items():
        streamed, (seconds, peak) = _measured(lambda g=group: _length(exchange.json_chunks(g)))
        whole, (_, whole_peak) = _measured(lambda g=group: len(exchange.dumps(g)))
        assert streamed == whole
        print(f"{size:>5} games, streamed {seconds:6.1f} s {peak / 2**20:9.1f} MB "
              f"{streamed / 2**20:7.1f} MB   (whole text in memory: {whole_peak / 2**20:.1f} MB, "
              f"{peak / whole_peak:.0%} of it)")  # fmt: skip
        csv_size, (seconds, peak) = _measured(lambda g=group: _length(exchange.csv_lines(g)))
        print(f"{size:>5} games, CSV      {seconds:6.1f} s {peak / 2**20:9.1f} MB "
              f"{csv_size / 2**20:7.1f} MB")  # fmt: skip

    text = exchange.dumps(groups[500]).encode()
    export, (seconds, peak) = _measured(lambda: exchange.load(text))
    print(f"\nread 500 games          {seconds:6.1f} s {peak / 2**20:9.1f} MB "
          f"({len(text) / 2**20:.1f} MB file, {peak / len(text):.1f}× its size)")  # fmt: skip
    writer = _HandWriter(user)
    writer.start()
    try:
        start = time.perf_counter()
        imported = exchange.import_group(export, name="bench import", members=[user])
        seconds = time.perf_counter() - start
    finally:
        writer.stop()
    _, (_, peak) = _measured(
        lambda: exchange.import_group(export, name="bench import (traced)", members=[user]),
        again=False,
    )
    print(f"import 500 games        {seconds:6.1f} s {peak / 2**20:9.1f} MB (the file read)")
    longest, refused = max(writer.waits, default=0.0), writer.refused
    verdict = "ok" if longest <= WAIT_GOAL and not refused else "MISSED"
    failed += verdict != "ok"
    print(f"a hand save meanwhile: {len(writer.waits)} saved, {refused} refused, "
          f"longest {longest:.2f} s (goal ≤ {WAIT_GOAL:g} s)  {verdict}")  # fmt: skip
    again = exchange.dumps(imported.group).encode()
    source = b'"name":"' + groups[500].name.encode()
    assert again == text.replace(source, b'"name":"bench import', 1), "not the same export"
    return 1 if failed else 0


def _length(chunks) -> int:
    """The characters of a streamed export, read as a server sends it: a chunk at a time."""
    return sum(len(chunk) for chunk in chunks)


def _measured(action: Callable[[], object], *, again: bool = True) -> tuple[object, tuple]:
    """``action``'s result, its seconds, and its peak traced memory in a second run (tracing
    slows Python down several times), or in the same run unless it can run ``again``."""
    start = time.perf_counter()
    result = action() if again else None
    seconds = time.perf_counter() - start
    tracemalloc.start()
    try:
        start = time.perf_counter()
        result = action()
        seconds = seconds if again else time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, (seconds, peak)


class _HandWriter(threading.Thread):
    """Another table at work: records a hand and takes it back, again and again, in a group of
    its own, timing each save (its wait for the database included)."""

    def __init__(self, user) -> None:
        super().__init__(daemon=True)
        from companion.models import Game, Group, Player
        from scoring import get_rules

        group = Group.objects.create(name="another table")
        players = [Player.objects.create(group=group, name=name) for name in "ABCD"]
        self.game = Game.start(group, players, get_rules("standard"))
        self.user = user
        self.waits: list[float] = []
        self.refused = 0
        self.done = threading.Event()

    def run(self) -> None:
        from django.db import OperationalError, connection

        hand = {
            "declarer": 0, "friends": [], "bid": "one", "trump": "H", "kitty_cards": "",
            "kitty_points": 0, "opponent_points": 40, "last_trick_winner": "declarers",
            "last_trick_format": "single", "last_trick_cards": 1,
        }  # fmt: skip
        game = self.game
        try:
            while not self.done.is_set():
                start = time.perf_counter()
                try:
                    if game.hands.exists():
                        game.delete_hand(1, version=game.version, by=self.user)
                    else:
                        game.record_hand(hand, version=game.version, request_key="", by=self.user)
                except OperationalError:  # "database is locked": the save was refused
                    self.refused += 1
                else:
                    self.waits.append(time.perf_counter() - start)
                time.sleep(0.02)
        finally:
            connection.close()

    def stop(self) -> None:
        self.done.set()
        self.join()


if __name__ == "__main__":
    sys.exit(main())
