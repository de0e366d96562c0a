"""What the benchmarks share: the app as production serves it, measured request by request, a
throwaway PostgreSQL server, and the goals' verdicts.

The server is `gunicorn companion.wsgi` with as many sync workers as `make serve` starts (two;
WORKERS= sets another count), DEBUG off, a generated SECRET_KEY, on a free loopback port, behind
a pretend HTTPS proxy (X-Forwarded-Proto), its answers compressed as a phone asks
(Accept-Encoding: gzip, br). Requests are sent one at a time, so the CPU time of each can be read
whichever worker serves it: the workers' time on the CPU (/proc/<pid>/schedstat, in nanoseconds:
utime + stime without their 10 ms ticks) before the request and after its answer, once every
worker is back waiting for the next. The wall time is the client's, from connecting to
the answer's last byte. The machine is shared and noisy: what is compared is measured in one
run, interleaved (A B A B …), and reported as medians.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import http.client
import os
import pwd
import re
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the benchmarks import the app
ENCODINGS = "gzip, br"
# As many gunicorn workers as `make serve` starts (the Makefile's WORKERS, which `make bench`
# passes on): the page after a save may be served by another worker than the save.
WORKERS = int(os.environ.get("WORKERS", "2"))
"""What a phone's browser accepts; the app compresses with gzip."""
POSTGRES = ("postgres://", "postgresql://")
PASSWORD = "benchmark-password-not-a-secret"
"""The password of the accounts a benchmark makes to log in with."""


# The verdicts


@dataclass
class Goals:
    """The goals a benchmark checked, each printed as it is checked: what, the measured
    ratio(s) or times, the goal, MET or MISSED. A run with any missed exits non-zero."""

    missed: list[str] = field(default_factory=list)

    def ratio(
        self,
        what: str,
        ratios: dict[str, float],
        goal: float,
        shown: dict[str, float] | None = None,
    ) -> None:
        """``ratios`` (such as {"CPU": 1.2, "wall": 1.4}) each at most ``goal``; ``shown``
        beside them, not judged."""
        both = ratios | (shown or {})
        measured = ", ".join(f"{name} {value:.2f}×" for name, value in both.items())
        self.check(what, measured, f"≤ {goal:g}×", all(v <= goal for v in ratios.values()))

    def check(self, what: str, measured: str, goal: str, met: bool) -> None:
        verdict = "MET" if met else "MISSED"
        print(f"{what:<52} {measured:<28} (goal {goal}) {verdict}", flush=True)
        if not met:
            self.missed.append(what)

    def miss(self, what: str, why: str) -> None:
        """A goal that could not be measured at all: a miss, said in words."""
        print(f"{what:<52} {why} MISSED", flush=True)
        self.missed.append(what)

    def status(self) -> int:
        return 1 if self.missed else 0


def median_ms(values: Iterable[float]) -> float:
    return statistics.median(values) * 1000


# PostgreSQL


DB = "tractor"


def newest_postgresql() -> Path | None:
    found = Path("/usr/lib/postgresql").glob("*/bin/initdb")
    versions = sorted(found, key=lambda path: [int(n) for n in re.findall(r"\d+", path.parts[-3])])
    return versions[-1].parent if versions else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class NoPostgreSQL(Exception):
    """The throwaway PostgreSQL server could not start; the message says why."""


@contextlib.contextmanager
def postgresql() -> Iterator[str]:
    """A throwaway PostgreSQL server on a free loopback port, in a folder of its own, with an
    empty database "tractor" (its URL), as `.ci/run` starts one: run as the `postgres` user
    when root. Raises NoPostgreSQL, saying why, if it cannot start."""
    pgbin = newest_postgresql()
    if pgbin is None:
        raise NoPostgreSQL("no PostgreSQL here (apt-get install postgresql)")
    with tempfile.TemporaryDirectory(prefix="tractor-bench-pg-") as folder:
        root = Path(folder)
        as_postgres: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            postgres = pwd.getpwnam("postgres")
            os.chown(root, postgres.pw_uid, postgres.pw_gid)
            as_postgres = ["runuser", "-u", "postgres", "--"]
        data, port = root / "data", free_port()
        pg_ctl = [*as_postgres, pgbin / "pg_ctl", "-D", data]
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
        try:
            for command in (
                [*as_postgres, pgbin / "initdb", "-D", data, "-A", "trust", "-U", "postgres"],
                [*pg_ctl, "-l", root / "server.log", "-w", "-o", options, "start"],
                [
                    pgbin / "createdb",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "postgres",
                    "tractor",
                ],
            ):
                subprocess.run(command, check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as error:
            said = (getattr(error, "stderr", b"") or b"").decode(errors="replace").strip()
            raise NoPostgreSQL(f"{error} {said}".strip()) from None
        try:
            yield f"postgres://postgres@127.0.0.1:{port}/{DB}"
        finally:
            subprocess.run([*pg_ctl, "-m", "fast", "stop"], capture_output=True)


def code_version(builder: str) -> str:
    """A digest of the app's code (companion/, scoring/) and of ``builder`` (the benchmark's
    code that builds the database): what a database built by them holds, to keep a slow build
    between runs."""
    digest = hashlib.sha256(builder.encode())
    for path in sorted([*ROOT.glob("companion/**/*.py"), *ROOT.glob("scoring/**/*.py")]):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def kept_builds() -> Path:
    """Where benchmarks keep what they built between runs (outside the repository)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = cache / "tractor-companion-bench"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# The production server


def on_both_databases(script: str, name: str, what: str) -> int:
    """Run ``script``'s measures on SQLite, then on a throwaway PostgreSQL, each in a process
    of its own (Django reads its settings once): ``script <database URL>``. A PostgreSQL that
    cannot start is a miss of ``what``, said in words. 1 if any goal was missed."""
    collect_static()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tractor-bench-") as folder:
        failed |= _in_child(script, f"sqlite:///{Path(folder) / f'{name}.sqlite3'}")
    try:
        with postgresql() as database:
            failed |= _in_child(script, database)
    except NoPostgreSQL as error:
        print("\n== PostgreSQL ==")
        goals = Goals()
        goals.miss(f"{what} on PostgreSQL", f"PostgreSQL could not start: {error}")
        failed |= goals.status()
    return failed


def _in_child(script: str, database: str) -> int:
    return subprocess.run([sys.executable, script, database], check=False).returncode


def production_environment(
    database_url: str, settings: str = "companion.settings"
) -> dict[str, str]:
    """The README's production environment, for loopback behind a pretend HTTPS proxy."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": "127.0.0.1",
        "BEHIND_PROXY": "true",
        "DJANGO_SETTINGS_MODULE": settings,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")]),
    }


def collect_static() -> None:
    """Production's static files, as `make serve` collects them (pages name their hashed
    copies); skipped when none of static/ is newer than the last collection (a collection
    takes half a minute)."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    sources = [path.stat().st_mtime for path in (ROOT / "static").rglob("*") if path.is_file()]
    if manifest.exists() and manifest.stat().st_mtime > max(sources):
        return
    environment = production_environment("sqlite://")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "--verbosity", "0"],
        cwd=ROOT,
        env=os.environ | environment,
        check=True,
    )


@dataclass
class Answer:
    status: int
    location: str
    text: str
    sent: int
    """The bytes of the body as sent (compressed)."""
    cpu: float
    """Seconds the worker spent on the CPU for this request."""
    wall: float
    cookies: dict[str, str]


class Server:
    """The production server: gunicorn with as many workers as `make serve` starts, measured
    request by request (the CPU time of every worker, whichever serves the request)."""

    def __init__(self, address: str, master: subprocess.Popen) -> None:
        self.address = address
        self.master = master
        self.workers = self._workers()
        self.idle = self._idle_wchan()

    def request(
        self,
        method: str,
        path: str,
        *,
        data: dict | None = None,
        cookies: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        timed: bool = True,
    ) -> Answer:
        """The answer to one request; unless ``timed`` is False (requests made at once from
        several threads), its CPU time is the workers', from idle to idle again."""
        sent = {
            "Host": self.address,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "10.0.0.1",
            "Accept-Encoding": ENCODINGS,
            **(headers or {}),
        }
        if cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        body = None
        if method == "POST":
            body = urlencode(data or {}, doseq=True).encode()
            sent |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"https://{self.address}",
                "Referer": f"https://{self.address}{path}",
            }
        host, port = self.address.split(":")
        if timed:
            self._wait_idle()
        before = self._cpu() if timed else 0.0
        start = time.perf_counter()
        connection = http.client.HTTPConnection(host, int(port), timeout=120)
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        wall = time.perf_counter() - start
        if timed:
            self._wait_idle()
        cpu = self._cpu() - before if timed else 0.0
        text = gzip.decompress(raw) if response.getheader("Content-Encoding") == "gzip" else raw
        set_cookies = {}
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                set_cookies[name] = rest.split(";", 1)[0]
        return Answer(
            response.status,
            response.getheader("Location", ""),
            text.decode(errors="replace"),
            len(raw),
            cpu,
            wall,
            set_cookies,
        )

    def _workers(self) -> list[int]:
        """The master's worker processes, once it has started them all."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            found = []
            for stat in Path("/proc").glob("[0-9]*/stat"):
                with contextlib.suppress(OSError):
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                    if int(fields[1]) == self.master.pid:
                        found.append(int(stat.parent.name))
            if len(found) == WORKERS:
                return sorted(found)
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not start {WORKERS} workers within 30 s")

    def _wchans(self) -> tuple[str, ...]:
        try:
            return tuple(Path(f"/proc/{pid}/wchan").read_text() for pid in self.workers)
        except OSError:
            raise RuntimeError("a gunicorn worker is gone (killed for taking too long?)") from None

    def _idle_wchan(self) -> tuple[str, ...]:
        """Where the workers sleep between requests (their select()), once one has answered a
        first request and all have booted and settled: the same for a tenth of a second."""
        connection = http.client.HTTPConnection(*self.address.split(":"), timeout=60)
        try:
            connection.request("GET", "/", headers={"Host": self.address})
            connection.getresponse().read()
        finally:
            connection.close()
        deadline = time.monotonic() + 30
        seen: list[tuple[str, ...]] = []
        while time.monotonic() < deadline:
            seen = [*seen[-19:], self._wchans() if self._sleeping() else ()]
            if len(seen) == 20 and len(set(seen)) == 1 and not {"", "0"} & set(seen[0]):
                return seen[0]
            time.sleep(0.005)
        raise RuntimeError(f"the gunicorn workers do not settle: {set(seen)}")

    def _wait_idle(self) -> None:
        """Until every worker is back waiting for a request: the answer's last byte can arrive
        before its worker has finished with it (closing the request, its signals)."""
        deadline = time.monotonic() + 10
        while self._wchans() != self.idle or not self._sleeping():
            if time.monotonic() > deadline:
                raise RuntimeError("a gunicorn worker stays busy after its answer")
            time.sleep(0.0005)

    def _sleeping(self) -> bool:
        return all(
            Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "S"
            for pid in self.workers
        )

    def _cpu(self) -> float:
        """The workers' seconds on the CPU so far, all their threads."""
        total = 0
        for pid in self.workers:
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError):
                    total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9


@contextlib.contextmanager
def production_server(environment: dict[str, str], log: Path) -> Iterator[Server]:
    """`gunicorn companion.wsgi` with `make serve`'s workers on a free loopback port."""
    host_port = ("127.0.0.1", free_port())
    address = f"{host_port[0]}:{host_port[1]}"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [gunicorn, "companion.wsgi", "--workers", str(WORKERS), "--bind", address]
    with log.open("w") as output:
        master = subprocess.Popen(
            command, cwd=ROOT, env=os.environ | environment, stdout=output, stderr=output
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            if master.poll() is not None:
                raise RuntimeError(f"gunicorn stopped: {log.read_text()[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection(host_port, 1):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start listening within 30 s")
            time.sleep(0.2)
        yield Server(address, master)
    finally:
        master.terminate()
        try:
            master.wait(timeout=15)
        except subprocess.TimeoutExpired:
            master.kill()
            master.wait()


class Phone:
    """A logged-in browser: its cookies, and the form tokens of the pages it opened."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.cookies: dict[str, str] = {}

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self._kept(self.server.request("GET", path, cookies=self.cookies, headers=headers))

    def post(self, path: str, data: dict, *, timed: bool = True) -> Answer:
        data = {"csrfmiddlewaretoken": self.token(), **data}
        answer = self.server.request("POST", path, data=data, cookies=self.cookies, timed=timed)
        return self._kept(answer)

    def log_in(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        answer = self.post("/accounts/login/", {"username": username, "password": password})
        if answer.status != 302:
            raise RuntimeError(f"{username} could not log in: {answer.status}")

    def token(self) -> str:
        """The CSRF token a page's form would carry (its unmasked secret is the cookie's)."""
        return self.cookies["csrftoken"]

    def _kept(self, answer: Answer) -> Answer:
        self.cookies |= answer.cookies
        if answer.status >= 400 and answer.status != 422:
            raise RuntimeError(f"{answer.status}: {answer.text[:500]}")
        return answer
