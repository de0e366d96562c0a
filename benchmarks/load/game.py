"""The load test: a table's worth of phones on the production server, on this machine only.

It starts its own PostgreSQL server (the newest in /usr/lib/postgresql/*/bin, as `.ci/run`
does, run as the `postgres` user when started as root) in a temporary folder on a free loopback
port, and prepares and starts the production server as `make serve` does (migrate,
createcachetable, collectstatic; `gunicorn companion.wsgi` with 2 workers, DEBUG off, a
generated SECRET_KEY), behind a pretend HTTPS proxy: every request carries the proxy's
X-Forwarded-Proto and X-Forwarded-For. A few untimed requests warm the workers up.

Then 40 phones watch one game for 60 s the way the game page does: the page once, then its poll
(`?since=<version>`, as htmx sends it) at the interval that templates/companion/game.html
sets; 36 watch by the share link, logged out. The other 4 are scorekeepers: each logs in and, over
and over, opens the hand form, taps a last field (the form's live preview), saves (the form's
plain POST with its CSRF token, version and request key; one record in five sent twice),
follows the redirect to the game page and watches it for one poll. Two saves in three record the
next hand, one corrects a recorded hand. "Someone else saved a change first" is the normal answer
to a save made on a stale page: the scorekeeper opens the form again and retries. A scorekeeper's
second save and every third after is a hand kept on the phone and sent again 0-11 ms after
another phone's correction changed which side declares it (see `resend_after_correction`).

It runs to the end whatever happens (a phone counts an error and goes on) and reports every
error, the same ones counted together. It fails (exit status 1) on any error: an answer of 500
or more, a connection error or timeout, any answer a page would not get (a 403 from CSRF, a form
refused), or a hand lost or doubled: at the end every hand a scorekeeper was told it saved must
be in the database once (known by its request key), holding what its last save sent, and the
game's version and change history must count exactly the saves that succeeded. It prints the
latency (p50, p95, max) of watching (the polls), of saving and of the other requests, and how long
a saved change took to reach the watching phones.

Run from the repository root: ``make load``, or ``.venv/bin/python benchmarks/load/game.py
--seconds 10`` for a short try. Not part of `make test` or `make bench`.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import html
import http.client
import os
import pwd
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PHONES = 40
SCOREKEEPERS = 4
WORKERS = 2
DOUBLE_TAP_EVERY = 5
RESEND_AFTER_CORRECTION_EVERY = 3
"""A scorekeeper's second save and every third after is a kept hand sent again just after a
correction (see `resend_after_correction`)."""
"""A scorekeeper's first record and every fifth after are sent again once answered, as a phone
resends a save whose answer it lost (the same request key)."""
REQUEST_TIMEOUT = 30.0
"""Seconds a phone waits for an answer before counting a timeout (gunicorn's own limit)."""
PASSWORD = "load-test-password-not-a-secret"
STALE = "Someone else saved a change first"
GAME_TEMPLATE = ROOT / "templates" / "companion" / "game.html"
# The opponents' totals that take the deal without climbing (standard rules, two decks): no
# record or correction ever changes a level, so the game never ends and every edit is legal.
TAKE_OVER = range(80, 205, 5)
SUITS = ("S", "H", "D", "C")
CAST = ("Mei", "Jun", "Lin", "Hao")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60, help="how long the phones play")
    parser.add_argument(
        "--poll", type=float, help="seconds between polls (default: what game.html says)"
    )
    options = parser.parse_args()
    poll = options.poll or poll_interval(GAME_TEMPLATE.read_text())
    pgbin = newest_postgresql()
    if pgbin is None:
        print("No PostgreSQL server here: `apt-get install postgresql` (as .ci/run does).")
        return 2

    with tempfile.TemporaryDirectory(prefix="tractor-load-") as folder:
        work = Path(folder)
        with postgresql(pgbin, work) as database_url:
            environment = production_environment(database_url)
            os.environ.update(environment)
            print(f"PostgreSQL {pgbin.parent.name} on {database_url}: migrating", flush=True)
            manage("migrate", "--no-input", environment=environment)
            manage("createcachetable", environment=environment)
            manage("collectstatic", "--no-input", environment=environment)
            target = set_up_game()
            with production_server(environment, work / "gunicorn.log") as server:
                warm_up(server, target)
                print(
                    f"gunicorn ({WORKERS} workers) on {server}: {PHONES} phones for "
                    f"{options.seconds:g} s, polling every {poll:g} s; this machine's load "
                    f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
                    flush=True,
                )
                run = play(server, target, seconds=options.seconds, poll=poll)
                errors = run.errors + check_hands(target, run)
                print_report(run, errors, seconds=options.seconds, poll=poll)
                if errors:
                    log = (work / "gunicorn.log").read_text().splitlines()
                    print("gunicorn's log ends:", *log[-20:], sep="\n  ")
    return 1 if errors else 0


# The servers


def newest_postgresql() -> Path | None:
    found = Path("/usr/lib/postgresql").glob("*/bin/initdb")
    versions = sorted(found, key=lambda path: [int(n) for n in re.findall(r"\d+", path.parts[-3])])
    return versions[-1].parent if versions else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def postgresql(pgbin: Path, work: Path) -> Iterator[str]:
    """A throwaway PostgreSQL server with an empty database "tractor"; its URL."""
    root = work / "postgresql"
    root.mkdir()
    as_postgres: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        postgres = pwd.getpwnam("postgres")
        os.chown(work, postgres.pw_uid, postgres.pw_gid)
        os.chown(root, postgres.pw_uid, postgres.pw_gid)
        as_postgres = ["runuser", "-u", "postgres", "--"]
    data, port = root / "data", free_port()
    quiet = {"check": True, "stdout": subprocess.DEVNULL}
    subprocess.run(
        [*as_postgres, pgbin / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"],
        **quiet,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1"
    pg_ctl = [*as_postgres, pgbin / "pg_ctl", "-D", data]
    subprocess.run([*pg_ctl, "-l", root / "server.log", "-w", "-o", options, "start"], **quiet)
    try:
        subprocess.run(
            [pgbin / "createdb", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "tractor"],
            check=True,
        )
        yield f"postgres://postgres@127.0.0.1:{port}/tractor"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL)


def production_environment(database_url: str) -> dict[str, str]:
    """The README's production environment, for loopback behind a pretend HTTPS proxy."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": "127.0.0.1",
        "BEHIND_PROXY": "true",
        "DJANGO_SETTINGS_MODULE": "companion.settings",
    }


def manage(*args: str, environment: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *args, "--verbosity", "0"],
        cwd=ROOT,
        env=os.environ | environment,
        check=True,
    )


@contextlib.contextmanager
def production_server(environment: dict[str, str], log: Path) -> Iterator[str]:
    """`gunicorn companion.wsgi` on a free loopback port, as `make serve` starts it."""
    address = f"127.0.0.1:{free_port()}"
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [gunicorn, "companion.wsgi", "--workers", str(WORKERS), "--bind", address]
    with log.open("w") as output:
        server = subprocess.Popen(
            command, cwd=ROOT, env=os.environ | environment, stdout=output, stderr=output
        )
    try:
        host, port = address.split(":")
        deadline = time.monotonic() + 30
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"gunicorn stopped: {log.read_text()[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection((host, int(port)), 1):
                break
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not start listening within 30 s")
            time.sleep(0.2)
        yield address
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# The game


@dataclass(frozen=True)
class Target:
    game_id: int
    game_url: str
    watch_url: str
    usernames: tuple[str, ...]


def set_up_game() -> Target:
    """A group with four scorekeepers' accounts and a new standard game of four."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection

    from companion.models import Game, Group, Membership, Player
    from scoring import get_rules

    group = Group.objects.create(name="Load test")
    usernames = tuple(f"scorekeeper{number}" for number in range(1, SCOREKEEPERS + 1))
    for username in usernames:
        user = User.objects.create_user(username, password=PASSWORD)
        Membership.objects.create(group=group, user=user)
    players = [
        Player.objects.create(group=group, name=name) for name in ("Mei", "Jun", "Lin", "Hao")
    ]
    game = Game.start(group, players, get_rules("standard"))
    connection.close()  # the servers' connections only, while the phones play
    return Target(game.pk, game.get_absolute_url(), f"/watch/{game.share_token}/", usernames)


def poll_interval(template: str) -> float:
    """The seconds between polls of the game page's scoreboard, as its template says."""
    found = re.search(r'hx-trigger="every (\d+(?:\.\d+)?)(ms|s)"', template)
    if not found:
        raise SystemExit(f"No `every …` poll trigger in {GAME_TEMPLATE}: pass --poll.")
    number, unit = float(found[1]), found[2]
    return number / 1000 if unit == "ms" else number


# The phones


@dataclass
class Answer:
    status: int
    location: str
    text: str


class Failed(Exception):
    """A request that a page would not have met: the run's errors."""


@dataclass
class Run:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    saves: list[dict] = field(default_factory=list)
    """Every save a scorekeeper was told succeeded: action, the hand's number (a correction's
    only), request key, the version its form showed, what it sent."""
    stale: int = 0
    double_taps: int = 0
    resends: int = 0
    """Hands sent again just after a correction changed who declares them."""
    resends_stored: int = 0
    kept_corrections: int = 0
    """Corrections refused because a hand recorded meanwhile could not follow them."""
    seen: list[tuple[int, int, float]] = field(default_factory=list)
    """(phone, version, when) each time a watching phone's poll brought a newer version."""
    reached: list[float] = field(default_factory=list)
    """For each change and each watching phone, the seconds until the phone showed it."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def timed(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies.setdefault(kind, []).append(seconds)


class Phone:
    """One browser: its cookies, and its address as the proxy reports it."""

    def __init__(self, server: str, number: int, run: Run) -> None:
        self.server, self.number, self.run = server, number, run
        self.address = f"10.0.{number // 250}.{number % 250 + 1}"
        self.cookies: dict[str, str] = {}
        self.records = 0

    def request(self, kind: str, method: str, path: str, data=None, htmx: bool = False) -> Answer:
        headers = {
            "Host": self.server,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": self.address,
            "Accept-Encoding": "gzip",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers |= {"HX-Request": "true", "HX-Current-URL": f"https://{self.server}{path}"}
        body = None
        if method == "POST":
            body = urlencode(data).encode()
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"https://{self.server}",
                "Referer": f"https://{self.server}{path}",
            }
        host, port = self.server.split(":")
        # gunicorn's sync workers close every connection after its answer: a new one each time.
        connection = http.client.HTTPConnection(host, int(port), timeout=REQUEST_TIMEOUT)
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as error:
            raise Failed(f"{method} {path}: {type(error).__name__}: {error}") from None
        finally:
            connection.close()
        self.run.timed(kind, time.perf_counter() - started)
        for header in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.getheader("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        answer = Answer(response.status, response.getheader("Location", ""), raw.decode())
        if answer.status >= 500:
            raise Failed(f"{method} {path}: {answer.status}")
        return answer

    def expect(self, status: int, answer: Answer, what: str) -> Answer:
        if answer.status != status:
            raise Failed(f"{what}: {answer.status}, not {status}: {said(answer.text)!r}")
        return answer

    def get(self, kind: str, path: str, **options) -> Answer:
        return self.expect(200, self.request(kind, "GET", path, **options), f"GET {path}")

    def follow(self, answer: Answer, what: str) -> Answer:
        self.expect(302, answer, what)
        return self.get("page", urlsplit(answer.location).path)


def said(page: str) -> str:
    """What a page tells the player went wrong (its alerts and field errors), else its start."""
    errors = re.search(r'id="hand-errors".*?</ul>', page, re.S)
    if errors:
        return " ".join(re.sub(r"<[^>]+>", " ", errors[0].split(">", 1)[1]).split())
    found = re.findall(r'class="(?:alert|invalid-feedback)[^"]*"[^>]*>(.*?)</', page, re.S)
    return " / ".join(" ".join(text.split()) for text in found if text.strip()) or page[:300]


def attribute(tag: str, name: str) -> str | None:
    found = re.search(rf'\s{name}="([^"]*)"', tag)
    return html.unescape(found[1]) if found else None


@dataclass
class Board:
    """A game page as a phone holds it: what its poll asks next (the element htmx polls
    `every …`, with the field its hx-include names) and the last hand it shows; each answer
    updates it, as htmx swaps the answer in."""

    url: str = ""
    include: str = ""
    fields: dict[str, str] = field(default_factory=dict)
    version: int = 0
    latest: int = 0

    def read(self, text: str) -> None:
        poller = re.search(r'<[^>]*\shx-trigger="every [^"]*"[^>]*>', text)
        if poller:
            self.url = attribute(poller[0], "hx-get") or ""
            self.version = int(re.search(r"[?&]since=(\d+)", self.url)[1])
            self.include = (attribute(poller[0], "hx-include") or "").removeprefix("#")
        included = self.include and re.search(rf'<input[^>]*\sid="{self.include}"[^>]*>', text)
        if included:
            self.fields = {attribute(included[0], "name"): attribute(included[0], "value") or ""}
        self.latest = max([self.latest, *map(int, re.findall(r'id="hand-(\d+)"', text))])

    def poll(self, phone: Phone) -> Answer:
        """The poll's answer, read in: 204 when nothing is new."""
        query = "&" + urlencode(self.fields) if self.fields else ""
        answer = phone.request("poll", "GET", self.url + query, htmx=True)
        if answer.status == 200:
            self.read(answer.text)
        else:
            phone.expect(204, answer, f"poll of {self.url}")
        return answer


def watcher(phone: Phone, url: str, poll: float, stop: float) -> None:
    """A phone on the share link: the page, then a poll every `poll` seconds (a new interval
    starts when a newer poll is swapped in, as htmx starts the new element's timer)."""
    time.sleep(random.uniform(0, poll))  # the phones open the link at different moments
    board = Board()
    board.read(phone.get("page", url).text)
    due = time.monotonic() + poll
    while due < stop:
        time.sleep(max(0.0, due - time.monotonic()))
        due += poll
        try:
            if board.poll(phone).status == 200:
                with phone.run.lock:
                    phone.run.seen.append((phone.number, board.version, time.time()))
                due = time.monotonic() + poll
        except Failed as error:  # counted, and the phone polls on: every error is reported
            with phone.run.lock:
                phone.run.errors.append(f"phone {phone.number + 1}: {error}")


class FormFields(HTMLParser):
    """The fields a browser would send from the form with id ``form_id``, in page order, and
    each radio button's choices."""

    def __init__(self, page: str, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside = form_id, False
        self.fields: list[tuple[str, str]] = []
        self.choices: dict[str, list[str]] = {}
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "form":
            self.inside = attributes.get("id") == self.form_id
        elif tag == "input" and self.inside and "name" in attributes:
            kind = attributes.get("type", "text")
            if kind == "radio":
                self.choices.setdefault(attributes["name"], []).append(attributes["value"])
            if kind not in ("radio", "checkbox") or "checked" in attributes:
                self.fields.append((attributes["name"], attributes.get("value") or ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def with_values(fields: list[tuple[str, str]], **values: str) -> list[tuple[str, str]]:
    return [(name, value) for name, value in fields if name not in values] + list(values.items())


def scorekeeper(phone: Phone, username: str, target: Target, poll: float, stop: float) -> None:
    """Logs in, then saves hands until ``stop``: an error is counted and the phone goes on from
    the game page, as a player would, so that the run reports every error, not the first."""
    run = phone.run
    login = phone.get("page", "/accounts/login/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login)[1]
    credentials = {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token}
    phone.follow(phone.request("login", "POST", "/accounts/login/", credentials), "log in")
    board = Board()
    board.read(phone.get("page", target.game_url).text)
    turn = 0
    while time.monotonic() < stop:
        turn += 1
        try:
            if turn % RESEND_AFTER_CORRECTION_EVERY == 2:
                resend_after_correction(phone, target, board, stop)
            else:
                save_a_hand(phone, target, board, stop)
            # On the game page until the next hand: one poll.
            time.sleep(poll)
            board.poll(phone)
        except Failed as error:
            with run.lock:
                run.errors.append(f"phone {phone.number + 1}: {error}")
            with contextlib.suppress(Failed):
                board = Board()
                board.read(phone.get("page", target.game_url).text)


def save_a_hand(phone: Phone, target: Target, board: Board, stop: float) -> None:
    """Records the next hand (two saves in three) or corrects one, from the hand form: a
    stale page's save is made again on the form opened anew."""
    run = phone.run
    hands = board.latest
    number = random.randint(1, hands) if hands and random.random() < 1 / 3 else hands + 1
    while time.monotonic() < stop:  # a stale save is retried with the form opened anew
        editing = number <= hands
        path = f"{target.game_url}hands/{number if editing else 'new'}/"
        form = FormFields(phone.get("form", path).text, "hand-form")
        sent = {"opponent_points": str(random.choice(TAKE_OVER)), "kitty_points": "0"}
        if not editing:
            sent["trump"] = random.choice(SUITS)
        if "declarer" not in dict(form.fields):  # the first hand: anyone may declare
            sent["declarer"] = random.choice(form.choices["declarer"])
        fields = with_values(form.fields, **sent)
        # Its warning, when someone else's save has moved the game on, is a normal answer.
        preview = phone.request("preview", "POST", path, [*fields, ("preview", "1")], htmx=True)
        phone.expect(200, preview, f"preview of hand {number}")
        double = not editing and phone.records % DOUBLE_TAP_EVERY == 0
        answer = phone.request("save", "POST", path, fields)
        if double:
            answer = phone.request("save", "POST", path, fields)
        if editing and no_longer_fits(answer, run):
            break
        page = phone.follow(answer, f"save of hand {number}").text
        board.read(page)
        if STALE in page:
            with run.lock:
                run.stale += 1
            hands = board.latest
            number = number if editing else hands + 1
            continue
        if "already saved" in page:
            raise Failed(f"hand {number} was saved differently: {page[:500]!r}")
        # A record's number is the database's: someone may have saved first.
        action, saved = ("edited", number) if editing else ("recorded", None)
        with run.lock:
            run.saves.append(save_of(action, saved, fields, {"declarer", *sent}))
            run.double_taps += double
        phone.records += not editing
        break


def resend_after_correction(phone: Phone, target: Target, board: Board, stop: float) -> None:
    """A hand kept on the phone (its form opened before) sent again 0-11 ms after another
    phone's correction of the hand before it changed which side declares it: the last hand
    corrected to held (75: its declarers climb one level and declare next). The resend must be
    stored, or told that someone else saved first; never checked against hands its form was not
    made for (refused with "Select a valid choice"). The correction is then taken back, so that
    the levels stay where the game never ends (unless a hand recorded meanwhile needs it)."""
    run = phone.run
    new = f"{target.game_url}hands/new/"
    page = phone.get("form", new).text
    number = int(re.search(r'id="hand-form" data-number="(\d+)"', page)[1])
    if number == 1:
        return save_a_hand(phone, target, board, stop)
    form = FormFields(page, "hand-form")
    sent = {"opponent_points": str(random.choice(TAKE_OVER)), "kitty_points": "0"}
    kept = with_values(form.fields, **sent, trump=random.choice(SUITS))
    edit = f"{target.game_url}hands/{number - 1}/"
    held = {"opponent_points": "75", "kitty_points": "0"}
    correction = with_values(FormFields(phone.get("form", edit).text, "hand-form").fields, **held)
    other = Phone(phone.server, phone.number, run)  # the other phone, the same account
    other.cookies = dict(phone.cookies)
    corrected: list[Answer] = []
    correcting = threading.Thread(
        target=lambda: corrected.append(other.request("save", "POST", edit, correction))
    )
    correcting.start()
    time.sleep(random.uniform(0, 0.011))
    resent = phone.follow(phone.request("save", "POST", new, kept), "a resend").text
    correcting.join()
    board.read(resent)
    if not corrected:
        raise Failed(f"the correction of hand {number - 1} had no answer")
    stored_correction = not no_longer_fits(corrected[0], run) and (
        STALE not in other.follow(corrected[0], "a correction").text
    )
    with run.lock:
        run.resends += 1
        if STALE in resent:
            run.stale += 1
        else:
            run.saves.append(save_of("recorded", None, kept, {"declarer", *sent}))
            run.resends_stored += 1
        if stored_correction:
            run.saves.append(save_of("edited", number - 1, correction, {"declarer", *held}))
    if stored_correction:
        take_back(phone, target, number - 1, stop)


def take_back(phone: Phone, target: Target, number: int, stop: float) -> None:
    """Hand ``number`` corrected back to a take-over, from its form opened anew; refused when a
    hand recorded meanwhile was declared by the side that held (then the level stays)."""
    run = phone.run
    path = f"{target.game_url}hands/{number}/"
    while time.monotonic() < stop:
        sent = {"opponent_points": str(random.choice(TAKE_OVER)), "kitty_points": "0"}
        fields = with_values(FormFields(phone.get("form", path).text, "hand-form").fields, **sent)
        answer = phone.request("save", "POST", path, fields)
        if no_longer_fits(answer, run):
            return
        page = phone.follow(answer, f"taking back the correction of hand {number}").text
        if STALE in page:
            with run.lock:
                run.stale += 1
            continue
        with run.lock:
            run.saves.append(save_of("edited", number, fields, {"declarer", *sent}))
        return


def no_longer_fits(answer: Answer, run: Run) -> bool:
    """A correction refused because a later hand, recorded meanwhile, could not follow it (a
    correction to held kept by the hand its holders then declared): the game's normal answer,
    counted."""
    if answer.status == 200 and "no longer fits" in answer.text:
        with run.lock:
            run.kept_corrections += 1
        return True
    return False


def save_of(action: str, number: int | None, fields: list, names: set[str]) -> dict:
    """A save a scorekeeper was told succeeded, as `check_hands` reads it."""
    values = dict(fields)
    return {
        "action": action,
        "number": number,
        "request_key": values.get("request_key", ""),
        "version": int(values["version"]),
        "fields": {name: values[name] for name in names},
    }


def warm_up(server: str, target: Target) -> None:
    """A few requests first, untimed: a server in use has its code loaded in every worker."""
    phone = Phone(server, PHONES, Run())
    for _ in range(2 * WORKERS):
        phone.get("page", target.watch_url)
        phone.get("page", "/accounts/login/")


def play(server: str, target: Target, *, seconds: float, poll: float) -> Run:
    run = Run()
    stop = time.monotonic() + seconds

    def phone(number: int) -> None:
        device = Phone(server, number, run)
        try:
            if number < SCOREKEEPERS:
                scorekeeper(device, target.usernames[number], target, poll, stop)
            else:
                watcher(device, target.watch_url, poll, stop)
        except Failed as error:
            with run.lock:
                run.errors.append(f"phone {number + 1}: {error}")

    threads = [threading.Thread(target=phone, args=(n,), daemon=True) for n in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, stop - time.monotonic()) + REQUEST_TIMEOUT * 3)
        if thread.is_alive():
            run.errors.append("a phone was still waiting at the end")
    return run


# The checks and the report


def check_hands(target: Target, run: Run) -> list[str]:
    """What the scorekeepers were told against what the database holds: every hand recorded
    is there once (known by its request key), each as its last save sent it."""
    from companion.models import Game, HandChange

    game = Game.objects.get(pk=target.game_id)
    hands = sorted(game.hands.all(), key=lambda hand: hand.number)
    by_key = {hand.request_key: hand for hand in hands}
    keys = [save["request_key"] for save in run.saves if save["action"] == "recorded"]
    errors = []
    if [hand.number for hand in hands] != list(range(1, len(hands) + 1)):
        errors.append(f"the hands are numbered {[hand.number for hand in hands]}")
    lost = [key for key in keys if key not in by_key]
    if lost:
        errors.append(f"{len(lost)} hands that their scorekeepers saw saved are not in the game")
    if len(set(keys)) != len(keys) or len(hands) != len(keys):
        errors.append(f"{len(keys)} hands were recorded and the game has {len(hands)}")
    last: dict[int, dict] = {}
    for save in sorted(run.saves, key=lambda save: save["version"]):
        hand = by_key.get(save["request_key"]) if save["number"] is None else None
        last[save["number"] or (hand.number if hand else 0)] = save
    for hand in hands:
        wanted = last.get(hand.number, {}).get("fields", {})
        held = {name: str(getattr(hand, name)) for name in wanted}
        if held != wanted:
            errors.append(f"hand {hand.number} holds {held}, its last save sent {wanted}")
    changes = HandChange.objects.filter(game=game).count()
    if not game.version == changes == len(run.saves):
        errors.append(
            f"{len(run.saves)} saves succeeded; the game's version is {game.version} "
            f"and its history has {changes} changes"
        )
    run.reached = reach(game, run)
    return errors


def reach(game, run: Run) -> list[float]:
    """For each change and each watching phone that showed it (or a later one) before the
    end: how long after the change was saved."""
    made = {change.version: change.at.timestamp() for change in game.changes.all()}
    first: dict[tuple[int, int], float] = {}
    for phone, version, when in sorted(run.seen, key=lambda seen: seen[2]):
        for change in made:
            if change <= version:
                first.setdefault((phone, change), when)
    return [when - made[change] for (_phone, change), when in first.items()]


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    return f"{len(ordered):8,} {at(0.5):7.0f} {at(0.95):7.0f} {ordered[-1] * 1000:7.0f}"


def print_report(run: Run, errors: list[str], *, seconds: float, poll: float) -> None:
    titles = {
        "poll": "watching: a poll",
        "page": "a page (game, login)",
        "form": "the hand form",
        "preview": "its live preview",
        "save": "saving a hand",
        "login": "logging in",
    }
    print(f"\n{'':28} {'requests':>8} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    for kind, title in titles.items():
        if run.latencies.get(kind):
            print(f"{title:28} {percentiles(run.latencies[kind])}")
    if run.reached:
        print(f"{'a change reaching a phone':28} {percentiles(run.reached)}")
    recorded = sum(save["action"] == "recorded" for save in run.saves)
    print(
        f"\nhands recorded: {recorded} ({run.double_taps} sent twice); "
        f"corrected: {len(run.saves) - recorded}; stale saves retried: {run.stale}; "
        f"in {seconds:g} s with polls every {poll:g} s."
    )
    print(
        f"resends after a correction: {run.resends} ({run.resends_stored} stored, the others "
        f"told someone saved first); corrections refused as a later hand no longer fits: "
        f"{run.kept_corrections}."
    )
    if errors:
        # Every error, the same ones counted together.
        counted: dict[str, int] = {}
        for error in errors:
            counted[error] = counted.get(error, 0) + 1
        print(f"{len(errors)} errors:")
        for error, count in counted.items():
            print(f"  {count} × {error}" if count > 1 else f"  {error}")
    else:
        print("0 errors; every saved hand is in the database once, as last saved.")


if __name__ == "__main__":
    sys.exit(main())
