"""What the scoreboard costs as a game grows, and how soon a watching phone sees a hand.

Side by side in one run, interleaved (A B C … A B C …), as production serves them (DEBUG off,
the production settings, over HTTPS, a phone accepting gzip and brotli): a bare Django view, the
base template rendered alone, the game page at 30 and 300 hands, and the watching phone's poll
with nothing new and after one new hand (at 300 hands). Each is reported as its median server
time, its ratio to the bare view and the bytes it sends. Goals: the 300-hand page within 1.5× the
30-hand one, and at least half the throughput of the base template alone.

Then the watcher's latency over 20 hands: a thread records hands through the app at random
moments while a watcher polls a real server on loopback exactly as the watch page does (the
interval and the URL are read from the page); from each save to the poll that shows the hand.
Goal: every hand seen within 2 s.

Everything runs in a throwaway SQLite database, and again on PostgreSQL when ``DATABASE_URL``
names one (in a database of its own, made and dropped for the run). Run from the repository
root: ``.venv/bin/python benchmarks/bench_scoreboard.py``.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROUNDS = 25
LENGTHS = (30, 300)
PAGE_GOAL = 1.5  # the 300-hand page at most this many times the 30-hand one
BASE_GOAL = 2.0  # the 300-hand page at most this many times the base template (half its speed)
WATCHED_HANDS = 20
LATENCY_GOAL = 2.0  # seconds from a save to a watching phone showing it
ENCODINGS = "gzip, deflate, br"
POSTGRES = ("postgres://", "postgresql://")

# The benchmark's own URLs: its two yardsticks, then the app's.
urlpatterns: list = []


def bare(request):
    """The least a Django view can answer: the yardstick the pages are measured against."""
    from django.http import HttpResponse

    return HttpResponse("ok")


def base(request):
    """The site's base template alone, with nothing in its content block."""
    from django.shortcuts import render

    return render(request, "base.html")


def main() -> int:
    database = os.environ.get("DATABASE_URL", "")
    if len(sys.argv) > 1:
        return run_on(sys.argv[1])
    with tempfile.TemporaryDirectory() as folder:
        failed = run_in_child(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
    if database.startswith(POSTGRES):
        failed |= run_in_child(database)
    return failed


def run_in_child(database: str) -> int:
    """Each database in a process of its own: Django reads its settings once."""
    return subprocess.run([sys.executable, __file__, database], check=False).returncode


def run_on(database: str) -> int:
    os.environ["DATABASE_URL"] = database
    os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
    os.environ["DEBUG"] = "false"  # as served: no query log, no debug pages
    os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
    os.environ["ALLOWED_HOSTS"] = "testserver,127.0.0.1"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import override_settings
    from django.urls import include, path

    global urlpatterns
    urlpatterns = [
        path("bench/bare/", bare),
        path("bench/base/", base),
        path("", include("companion.urls")),
    ]
    kind = "PostgreSQL" if database.startswith(POSTGRES) else "SQLite"
    print(f"\n== {kind} ==")
    postgres = connection.vendor == "postgresql"
    named = connection.settings_dict["NAME"]
    if postgres:
        # A database of the benchmark's own, never the one DATABASE_URL names.
        connection.settings_dict["TEST"]["NAME"] = f"bench_scoreboard_{os.getpid()}"
        connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        # Pages name static files as collected (hashed); the admin's are not needed.
        with (
            tempfile.TemporaryDirectory() as folder,
            override_settings(STATIC_ROOT=Path(folder) / "static", ROOT_URLCONF=__name__),
        ):
            call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
            if not postgres:
                call_command("migrate", verbosity=0)
                call_command("createcachetable", verbosity=0)
            measure_pages()
            measure_latency()
    finally:
        if postgres:
            connection.creation.destroy_test_db(named, verbosity=0)
    # A missed goal is reported, as bench_pages.py reports its own; `make bench` goes on.
    return 0


def build_game(length: int, name: str):
    """A game of ``length`` hands that goes on: the opponents mostly take the deal without
    climbing, and every seventh hand the declarers hold and climb, so the levels race. All but
    the last hand are stored at once; the last is recorded as a phone records it."""
    from django.contrib.auth.models import User

    from companion.models import Game, Group, Hand, Membership, Player
    from scoring import Rank, get_rules
    from scoring.game import replay

    user, _ = User.objects.get_or_create(username="mei")
    group = Group.objects.create(name=name)
    Membership.objects.create(group=group, user=user)
    players = [Player.objects.create(group=group, name=n) for n in ("Mei", "Jun", "Lin", "Hao")]
    game = Game.start(group, players, get_rules("standard"), first_declarer=0, by=user)
    fields = []
    scored = replay(game.setup, [])
    for number in range(1, length + 1):
        state = scored.state
        declarer = state.next_declarer
        climbs = number % 7 == 0 and state.levels[declarer] < Rank.QUEEN
        hand = {
            "declarer": declarer,
            "bid": "none",
            "trump": "",
            "kitty_points": 0,
            "opponent_points": 45 if climbs else 80,
            "last_trick_winner": "declarers",
            "last_trick_format": "single",
            "last_trick_cards": 1,
        }
        fields.append(hand)
        scored = replay(game.setup, [Hand(number=n, **f).result for n, f in enumerate(fields, 1)])
    Hand.objects.bulk_create(
        Hand(game=game, number=number, **hand) for number, hand in enumerate(fields[:-1], 1)
    )
    game.record_hand(fields[-1], version=game.version, request_key="", by=user)
    return game, user


def measure_pages() -> None:
    from django.test import Client

    games = {length: build_game(length, f"{length} hands") for length in LENGTHS}
    client = Client()
    client.force_login(games[LENGTHS[0]][1])
    longest, _ = games[LENGTHS[-1]]
    poll = {"HX-Request": "true"}
    pages = {
        "bare view": ("/bench/bare/", {}),
        "base template": ("/bench/base/", {}),
        **{
            f"game page, {length} hands": (game.get_absolute_url(), {})
            for length, (game, _user) in games.items()
        },
        "poll, nothing new": (f"{longest.get_absolute_url()}?since={longest.version}", poll),
        "poll, one new hand": (f"{longest.get_absolute_url()}?since={longest.version - 1}", poll),
    }
    times: dict[str, list[float]] = {label: [] for label in pages}
    sizes: dict[str, tuple[int, int]] = {}
    for label, (url, headers) in pages.items():  # once each first: warm every cache
        response = client.get(url, secure=True, headers=headers)
        if response.status_code not in (200, 204):
            raise SystemExit(f"{label}: {url} answered {response.status_code}")
        plain = client.get(url, secure=True, headers=headers)
        sizes[label] = (len(plain.content), 0)
    for _ in range(ROUNDS):
        for label, (url, headers) in pages.items():
            start = time.perf_counter()
            response = client.get(
                url, secure=True, headers={**headers, "Accept-Encoding": ENCODINGS}
            )
            times[label].append(time.perf_counter() - start)
            sizes[label] = (sizes[label][0], len(response.content))

    medians = {label: statistics.median(found) for label, found in times.items()}
    yardstick = medians["bare view"]
    print(f"{'median server time':<26} {'ms':>8} {'× bare':>8} {'sent':>9} {'unzipped':>9}")
    for label, median in medians.items():
        plain, sent = sizes[label]
        print(
            f"{label:<26} {median * 1000:8.2f} {median / yardstick:7.1f}× "
            f"{sent / 1000:7.1f} KB {plain / 1000:7.1f} KB"
        )
    short, long = (medians[f"game page, {length} hands"] for length in LENGTHS)
    against_short = long / short
    against_base = long / medians["base template"]
    for what, ratio, goal in (
        (f"game page {LENGTHS[-1]} / {LENGTHS[0]} hands", against_short, PAGE_GOAL),
        (f"game page {LENGTHS[-1]} hands / base template", against_base, BASE_GOAL),
    ):
        verdict = "ok" if ratio <= goal else "MISSED"
        print(f"{what:<40} {ratio:5.2f}× (goal ≤ {goal:g}×) {verdict}")


def measure_latency() -> None:
    """A watcher polls a real server while hands are recorded; seconds from save to seen."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application
    from django.db import connections
    from django.test import override_settings

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args) -> None:
            pass

    game, user = build_game(1, "Watched")
    # Plain HTTP on loopback: the HTTPS redirect is the proxy's business in production.
    with override_settings(SECURE_SSL_REDIRECT=False):
        server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
        server.set_app(get_wsgi_application())
        serving = threading.Thread(target=server.serve_forever, daemon=True)
        serving.start()
        address = f"http://127.0.0.1:{server.server_port}"
        saved: dict[int, float] = {}
        seen: dict[int, float] = {}
        done = threading.Event()

        def record() -> None:
            rng = random.Random(2026)
            try:
                for _ in range(WATCHED_HANDS):
                    time.sleep(rng.uniform(0.4, 1.6))
                    game.refresh_from_db()
                    scored = game.scored()
                    hand = game.record_hand(
                        {
                            "declarer": scored.state.next_declarer,
                            "bid": "none",
                            "trump": "",
                            "kitty_points": 0,
                            "opponent_points": 80,
                            "last_trick_winner": "declarers",
                            "last_trick_format": "single",
                            "last_trick_cards": 1,
                        },
                        version=game.version,
                        request_key="",
                        by=user,
                    )
                    saved[hand.number] = time.perf_counter()
                time.sleep(LATENCY_GOAL + 1)  # the last hand's chance to be seen
            finally:
                done.set()
                connections.close_all()

        recorder = threading.Thread(target=record)
        recorder.start()
        watch(f"{address}/watch/{game.share_token}/", seen, done)
        recorder.join()
        server.shutdown()
        server.server_close()

    latencies = [seen[number] - at for number, at in saved.items() if number in seen]
    unseen = len(saved) - len(latencies)
    if not latencies:
        raise SystemExit("watcher: saw none of the hands")
    worst = max(latencies)
    verdict = "ok" if worst <= LATENCY_GOAL and not unseen else "MISSED"
    print(
        f"{'watcher, save to seen':<26} median {statistics.median(latencies) * 1000:.0f} ms, "
        f"max {worst * 1000:.0f} ms over {len(latencies)} hands"
        + (f", {unseen} never seen" if unseen else "")
        + f" (goal ≤ {LATENCY_GOAL:g} s) {verdict}"
    )


def watch(url: str, seen: dict[int, float], done: threading.Event) -> None:
    """Poll as the watch page's htmx does: every interval the page names, asking for news since
    the version shown; a response that changes the page restarts the interval."""
    page = fetch(url)[1]
    poll, interval = poller(page)
    while not done.is_set():
        time.sleep(interval)
        status, text = fetch(url.split("/watch/")[0] + poll, htmx=True)
        if status == 200:
            now = time.perf_counter()
            for number in map(int, re.findall(r'id="hand-(\d+)"', text)):
                seen.setdefault(number, now)
            poll, interval = poller(text, (poll, interval))


def poller(text: str, last: tuple[str, float] | None = None) -> tuple[str, float]:
    """The URL the page polls and how often, from the element that polls."""
    for tag in re.findall(r"<[^>]*hx-trigger=\"every [^\"]*\"[^>]*>", text):
        url = re.search(r'hx-get="([^"]*)"', tag)
        every = re.search(r'hx-trigger="every ([\d.]+)(m?s)"', tag)
        if url and every:
            seconds = float(every.group(1)) / (1000 if every.group(2) == "ms" else 1)
            return url.group(1).replace("&amp;", "&"), seconds
    if last:
        return last
    raise SystemExit("the watch page polls nothing")


def fetch(url: str, htmx: bool = False) -> tuple[int, str]:
    headers = {"HX-Request": "true"} if htmx else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
        return response.status, response.read().decode()


if __name__ == "__main__":
    sys.exit(main())
