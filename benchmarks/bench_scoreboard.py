"""What the scoreboard costs as a game grows, and how soon a watching phone sees a hand.

Served by the production server (benchmarks/served.py: gunicorn, make serve's workers, DEBUG off,
compressed answers, loopback), with two yardsticks beside the app's pages (benchmarks/
yardsticks.py): a bare Django view and the base template rendered alone. Side by side in one
run, interleaved (A B C … A B C …): those two, the game page at 30 and 300 hands, and a watching
phone's poll with nothing new and after one new hand (at 300 hands). Each is reported as the
medians of the worker's CPU time and of the wall time per request, its CPU against the bare
view's and the bytes it sends.

Goals, in CPU time per request (what a server's throughput is made of; the wall time is shown
beside it): the 300-hand page within 1.5× the 30-hand one, and each within 1.5× the base
template (two thirds of its throughput: its scoreboard is kept per version); a poll with
nothing new within 1.25× the base template (it renders nothing: no more than the page's frame,
with a margin over the noise), a poll with one new hand within the 300-hand page's cost.

Then the watcher's latency over 20 hands: a scorekeeper's phone records hands through the hand
form at random moments while a watcher polls the share link exactly as the watch page does (the
interval and the URL are read from the page); from each save's answer to the poll that shows
the hand. Goal: every hand seen within 2 s.

On SQLite and on a throwaway PostgreSQL, each in a process of its own. Run from the repository
root: ``.venv/bin/python benchmarks/bench_scoreboard.py``; exits 1 if any goal is missed
(PostgreSQL not starting is one).
"""

from __future__ import annotations

import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from served import (
    PASSWORD,
    Goals,
    Phone,
    Server,
    median_ms,
    on_both_databases,
    production_environment,
    production_server,
)

ROUNDS = 25
LENGTHS = (30, 300)
PAGE_GOAL = 1.5  # the 300-hand page at most this many times the 30-hand one
BASE_GOAL = 1.5  # each game page at most this many times the base template
# A poll that finds nothing new renders nothing: at most what the page's frame alone costs (the
# base template; the two are close, hence a margin over the noise).
POLL_GOAL = 1.25
WATCHED_HANDS = 20
LATENCY_GOAL = 2.0  # seconds from a save to a watching phone showing it
HAND = {
    "trump": "H",  # the bid left empty: the weakest that hearts allow
    "opponent_points": "80",  # the opponents take the deal: the game goes on
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
}
"""The hand form's fields as the scorekeeper's phone posts them (declarer, version, key added)."""


def main() -> int:
    if len(sys.argv) > 1:  # one database, in a process of its own: Django reads settings once
        return measure(sys.argv[1])
    return on_both_databases(__file__, "scoreboard", "the scoreboard")


def measure(database: str) -> int:
    environment = production_environment(database, settings="yardsticks")
    os.environ.update(environment)
    print(f"\n== {'SQLite' if database.startswith('sqlite') else 'PostgreSQL'} ==", flush=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    goals = Goals()
    games = {length: build_game(length, f"{length} hands") for length in LENGTHS}
    watched = build_game(1, "Watched")
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "gunicorn.log"
        try:
            with production_server(environment, log) as server:
                measure_pages(server, games, goals)
                measure_latency(server, watched, goals)
        except Exception:
            print("gunicorn's log ends:", *log.read_text().splitlines()[-20:], sep="\n  ")
            raise
    return goals.status()


def build_game(length: int, name: str):
    """A game of ``length`` hands that goes on: the opponents mostly take the deal without
    climbing, and every seventh hand the declarers hold and climb, so the levels race. All but
    the last hand are stored at once; the last is recorded as a phone records it."""
    from django.contrib.auth.models import User

    from companion.models import Game, Group, Hand, Membership, Player
    from scoring import NO_TRUMP, Rank, get_rules
    from scoring.game import replay

    user = User.objects.filter(username="mei").first()
    user = user or User.objects.create_user("mei", password=PASSWORD)
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
            "trump": NO_TRUMP,
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
    return game


def measure_pages(server: Server, games: dict, goals: Goals) -> None:
    phone = Phone(server)
    phone.log_in("mei", PASSWORD)
    longest = games[LENGTHS[-1]]
    poll = {"HX-Request": "true"}
    pages = {
        "bare view": ("/bench/bare/", {}),
        "base template": ("/bench/base/", {}),
        **{
            f"game page, {length} hands": (game.get_absolute_url(), {})
            for length, game in games.items()
        },
        "poll, nothing new": (f"{longest.get_absolute_url()}?since={longest.version}", poll),
        "poll, one new hand": (f"{longest.get_absolute_url()}?since={longest.version - 1}", poll),
    }
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in pages}
    sent: dict[str, int] = {}
    for label, (url, headers) in pages.items():  # once each first: warm every cache
        answer = phone.get(url, headers)
        if answer.status not in (200, 204):
            raise SystemExit(f"{label}: {url} answered {answer.status}")
    for _ in range(ROUNDS):
        for label, (url, headers) in pages.items():
            answer = phone.get(url, headers)
            times[label].append((answer.cpu, answer.wall))
            sent[label] = answer.sent

    cpu = {label: median_ms(c for c, _ in found) for label, found in times.items()}
    wall = {label: median_ms(w for _, w in found) for label, found in times.items()}
    print(f"{'median per request':<26} {'CPU ms':>8} {'× bare':>7} {'wall ms':>8} {'sent':>9}")
    for label in pages:
        print(
            f"{label:<26} {cpu[label]:8.2f} {cpu[label] / cpu['bare view']:6.1f}× "
            f"{wall[label]:8.2f} {sent[label] / 1000:6.1f} KB"
        )
    short, long = (f"game page, {length} hands" for length in LENGTHS)
    for what, measured, against, goal in (
        (f"game page {LENGTHS[-1]} / {LENGTHS[0]} hands", long, short, PAGE_GOAL),
        (f"game page {LENGTHS[0]} hands / base template", short, "base template", BASE_GOAL),
        (f"game page {LENGTHS[-1]} hands / base template", long, "base template", BASE_GOAL),
        ("poll, nothing new / base template", "poll, nothing new", "base template", POLL_GOAL),
        (f"poll, one new hand / game page {LENGTHS[-1]}", "poll, one new hand", long, 1.0),
    ):
        goals.ratio(
            what,
            {"CPU": cpu[measured] / cpu[against]},
            goal,
            shown={"wall": wall[measured] / wall[against]},
        )


def measure_latency(server: Server, game, goals: Goals) -> None:
    """A scorekeeper records hands while a watcher polls the share link; seconds from each
    save's answer to the poll that shows the hand."""
    from companion.models import Game

    saved: dict[int, float] = {}
    seen: dict[int, float] = {}
    done = threading.Event()
    phone = Phone(server)
    phone.log_in("mei", PASSWORD)
    url = game.get_absolute_url()

    def record() -> None:
        from django.db import connections

        rng = random.Random(2026)
        try:
            for _ in range(WATCHED_HANDS):
                time.sleep(rng.uniform(0.4, 1.6))
                now = Game.objects.get(pk=game.pk)
                form = {
                    **HAND,
                    "declarer": str(now.scored().state.next_declarer),
                    "version": str(now.version),
                    "request_key": uuid.uuid4().hex,
                }
                answer = phone.post(f"{url}hands/new/", form, timed=False)
                if answer.status != 302:
                    raise RuntimeError(f"the hand was not saved: {answer.status}")
                saved[now.hands.count()] = time.perf_counter()
            time.sleep(LATENCY_GOAL + 1)  # the last hand's chance to be seen
        finally:
            done.set()
            connections.close_all()

    recorder = threading.Thread(target=record)
    recorder.start()
    watch(server, f"/watch/{game.share_token}/", seen, done)
    recorder.join()

    latencies = [seen[number] - at for number, at in saved.items() if number in seen]
    unseen = len(saved) - len(latencies)
    if not latencies:
        goals.miss("watcher, save to seen", "saw none of the hands")
        return
    worst = max(latencies)
    goals.check(
        "watcher, save to seen (worst)",
        f"median {statistics.median(latencies) * 1000:.0f} ms, max {worst * 1000:.0f} ms"
        f" of {len(saved)} hands" + (f", {unseen} never seen" if unseen else ""),
        f"≤ {LATENCY_GOAL:g} s",
        worst <= LATENCY_GOAL and not unseen,
    )


def watch(server: Server, url: str, seen: dict[int, float], done: threading.Event) -> None:
    """Poll as the watch page's htmx does: every interval the page names, asking for news since
    the version shown; a response that changes the page restarts the interval."""
    page = server.request("GET", url, timed=False).text
    poll, interval = poller(page)
    while not done.is_set():
        time.sleep(interval)
        answer = server.request("GET", poll, headers={"HX-Request": "true"}, timed=False)
        if answer.status == 200:
            now = time.perf_counter()
            for number in map(int, re.findall(r'id="hand-(\d+)"', answer.text)):
                seen.setdefault(number, now)
            poll, interval = poller(answer.text, (poll, interval))


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


if __name__ == "__main__":
    sys.exit(main())
