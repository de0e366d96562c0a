"""A group's export and import at scale: a 500-game and a 2,000-game group (`manage.py
demo_history`) exported, and the 2,000-game export and hostile files imported as the app
imports them: by the task worker (`manage.py worker`, a process of its own), while this process
keeps saving hands into another group.

Reported, each line with its goal, MET or MISSED (the command exits 1 if any is missed): the
streamed export's peak memory (tracemalloc, Python's own allocations) against the whole file's
text built in memory; the worker's peak resident memory (RSS, from /proc) above its idle size
while it imports, for the 2,000-game file and for each hostile one (goal: 400 MB at most); that
the 2,000-game file imports completely and the hostile ones are refused with a sentence; and the
longest a hand save waited for the database during the import (goal: under a second, none
refused).

A throwaway SQLite database unless ``DATABASE_URL`` names another (PostgreSQL): the benchmark
writes its groups there. Run from the repository root:
``.venv/bin/python benchmarks/bench_exchange.py``.
"""

from __future__ import annotations

import io
import os
import subprocess
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
RSS_GOAL = 400  # MB the importing process may grow by, above its idle size
EXPORT_GOAL = 1.0  # the streamed export's peak, below the whole text's in memory
SIZES = (500, 2000)
MB = 2**20


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        # The database and settings must be chosen before Django reads its settings.
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
        os.environ["DEBUG"] = "false"  # as served: no query log, no debug pages
        os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
        import django

        django.setup()
        return run(Path(folder))


def _verdict(met: bool) -> str:
    return "MET" if met else "MISSED"


def run(folder: Path) -> int:
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
    missed = 0

    print("\nexport                   time      peak memory   file")
    for size, group in groups.items():
        streamed, (seconds, peak) = _measured(lambda g=group: _length(exchange.json_chunks(g)))
        whole, (_, whole_peak) = _measured(lambda g=group: len(exchange.dumps(g)))
        assert streamed == whole
        met = peak < EXPORT_GOAL * whole_peak
        missed += not met
        print(f"{size:>5} games, streamed {seconds:6.1f} s {peak / MB:9.1f} MB "
              f"{streamed / MB:7.1f} MB   (whole text in memory: {whole_peak / MB:.1f} MB, "
              f"{peak / whole_peak:.0%} of it; goal < {EXPORT_GOAL:.0%})  "
              f"{_verdict(met)}")  # fmt: skip
        csv_size, (seconds, peak) = _measured(lambda g=group: _length(exchange.csv_lines(g)))
        print(f"{size:>5} games, CSV      {seconds:6.1f} s {peak / MB:9.1f} MB "
              f"{csv_size / MB:7.1f} MB   (no goal)")  # fmt: skip

    source = groups[2000]
    files = {"the 2,000-game export": folder / "2000.json", **_hostile(folder)}
    with open(files["the 2,000-game export"], "wb") as file:
        for chunk in exchange.json_chunks(source):
            file.write(chunk.encode())
    worker = _Worker()
    try:
        print("\nimport, by the task worker              time   peak RSS above idle")
        for what, path in files.items():
            writer = _HandWriter(user) if what == "the 2,000-game export" else None
            job, seconds, grown = worker.imports(user, path, writer)
            met = grown <= RSS_GOAL
            if writer is None:
                said = f"refused: {job.refusal[:70]!r}" if job.state == "failed" else "NOT REFUSED"
                met = met and job.state == "failed"
            else:
                games = job.group.games.count() if job.group else 0
                said = f"{games} of {source.games.count()} games"
                met = met and job.state == "succeeded" and games == source.games.count()
            missed += not met
            print(f"{what:<38} {seconds:6.1f} s {grown:7.0f} MB (goal ≤ {RSS_GOAL} MB) "
                  f"{said}  {_verdict(met)}")  # fmt: skip
            if writer is not None:
                longest, refused = max(writer.waits, default=0.0), writer.refused
                met = longest < WAIT_GOAL and not refused
                missed += not met
                print(f"a hand saved during the import: {len(writer.waits)} saved, {refused} "
                      f"refused, longest {longest:.2f} s (goal < {WAIT_GOAL:g} s)  "
                      f"{_verdict(met)}")  # fmt: skip
    finally:
        worker.stop()
    return 1 if missed else 0


def _hostile(folder: Path) -> dict[str, Path]:
    """Files up to the import's 40 MB that would take gigabytes read whole."""
    head = '{"format":"tractor-companion-group","version":4,'
    change = (
        '{"action":"renamed","at":"2025-02-01T20:00:00+00:00","by_name":"' + "M" * 40 + '",'
        '"member_name":"","player":null,"game":null,"before":"'
        + "T" * 40
        + '","after":"'
        + "F" * 40
        + '"}'
    )
    texts = {
        "a log of 160,000 changes": head + '"log":[' + ",".join([change] * 160_000) + "]}",
        "3 million keys in an object": "{"
        + ",".join(f'"k{number}":0' for number in range(3_000_000))
        + "}",
        "3 million 1e400 in games": head + '"games":[' + ",".join(["1e400"] * 3_000_000) + "]}",
        "one game of 6 million numbers": head
        + '"games":[{"hands":['
        + ",".join(["0.5"] * 6_000_000)
        + "]}]}",
        "a text of 39 million characters": head + '"group":{"name":"' + "x" * 39_000_000 + '"}}',
        "nested 10,000 deep in a game": head + '"games":[' + "[" * 10_000 + "]" * 10_000 + "]}",
    }
    paths = {}
    for number, (what, text) in enumerate(texts.items()):
        paths[what] = folder / f"hostile-{number}.json"
        paths[what].write_text(text)
    return paths


class _Worker:
    """`manage.py worker` in a process of its own, as `make serve` starts it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--worker-id=bench", "--interval=0.2"],
            cwd=ROOT,
            env=os.environ,
            stdout=subprocess.DEVNULL,
        )
        time.sleep(5)  # started, and waiting for work

    def _status(self, key: str) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(status.split(f"{key}:")[1].split()[0]) / 1024  # kB → MB

    def imports(self, user, path: Path, writer: _HandWriter | None):
        """The job importing ``path``, its seconds, and how far the worker's resident memory
        rose above its size before the job."""
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.db import transaction

        from companion.models import ImportJob
        from companion.tasks import run_import

        # The peak so far forgotten: the next is this import's.
        Path(f"/proc/{self.process.pid}/clear_refs").write_text("5")
        idle = self._status("VmRSS")
        upload = SimpleUploadedFile(path.name, path.read_bytes())
        with transaction.atomic():
            job, _made = ImportJob.start(user, upload)
            run_import.enqueue(job.pk)
        del upload
        if writer is not None:
            writer.start()
        start = time.perf_counter()
        try:
            while job.active:
                time.sleep(0.2)
                job.refresh_from_db()
        finally:
            if writer is not None:
                writer.stop()
        return job, time.perf_counter() - start, self._status("VmHWM") - idle

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


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
