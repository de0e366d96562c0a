"""What a club night's room screen costs as its tables' games grow, and how soon it shows a save.

Served by the production server (benchmarks/served.py: gunicorn, make serve's workers, DEBUG off,
compressed answers, loopback), as bench_scoreboard.py serves the game page. Side by side in one
run, interleaved (A B A B …): the room screen's poll of an evening of 12 players at 3 tables
whose games have played 3 hands each, and of one whose games have played 30 each (a poll that
finds something new: the whole room, as a screen that last looked at the evening's start
receives it), and a poll with nothing new. Each is reported as the medians of the worker's CPU
time and of the wall time per request, and the bytes it sends.

Goals: the 30-hand room within 1.5× the 3-hand one, in CPU time and in wall time (the room reads
the games' ladder summaries and only each table's last hand); the same number of queries for
both (counted in this process, with Django's test client); a poll with nothing new answered
with nothing (204, no body).

Then the room screen's latency: a scorekeeper's phone records hands through the hand form at
the three tables in turn, at random moments, while a watcher polls the room's share link
exactly as the room page does (the interval and the URL are read from the page); from each
save's answer to the first poll that shows the table's new count of hands. Goal: every save
seen within 2 s.

On SQLite and on a throwaway PostgreSQL, each in a process of its own. Run from the repository
root: ``.venv/bin/python benchmarks/bench_room.py``; exits 1 if any goal is missed (PostgreSQL
not starting is one).
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

from bench_scoreboard import HAND, poller
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
PLAYERS = 12  # three tables of four
LENGTHS = (3, 30)  # hands played at each table
ROOM_GOAL = 1.5  # the 30-hand room at most this many times the 3-hand one
WATCHED_SAVES = 15
LATENCY_GOAL = 2.0  # seconds from a save to the room screen showing it
TABLE_HANDS = re.compile(r'id="table-(\d+)".*?class="[^"]*table-hands">(\d+) hand', re.DOTALL)


def main() -> int:
    if len(sys.argv) > 1:  # one database, in a process of its own: Django reads settings once
        return measure(sys.argv[1])
    return on_both_databases(__file__, "room", "the room screen")


def measure(database: str) -> int:
    environment = production_environment(database)
    os.environ.update(environment)
    print(f"\n== {'SQLite' if database.startswith('sqlite') else 'PostgreSQL'} ==", flush=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    goals = Goals()
    evenings = {length: build_evening(length, f"{length} hands a table") for length in LENGTHS}
    watched = build_evening(1, "Watched")
    count_queries(evenings, goals)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "gunicorn.log"
        try:
            with production_server(environment, log) as server:
                measure_polls(server, evenings, goals)
                measure_latency(server, watched, goals)
        except Exception:
            print("gunicorn's log ends:", *log.read_text().splitlines()[-20:], sep="\n  ")
            raise
    return goals.status()


def build_evening(length: int, name: str):
    """A club night of 12 at three tables of four, its first round under way, each table's game
    ``length`` hands in: the opponents mostly take the deal without climbing, every seventh
    hand the declarers hold and climb. All but each game's last hand are stored at once; the
    last is recorded as a phone records it (which brings the game's ladder summary up)."""
    from django.contrib.auth.models import User

    from companion.models import Evening, Group, Hand, Membership, Player
    from scoring import NO_TRUMP, Rank, get_rules
    from scoring.game import replay

    user = User.objects.filter(username="mei").first()
    user = user or User.objects.create_user("mei", password=PASSWORD)
    group = Group.objects.create(name=name)
    Membership.objects.create(group=group, user=user)
    players = [Player.objects.create(group=group, name=f"Player {n}") for n in range(PLAYERS)]
    evening = Evening.start(group, players, by=user, rules_json=get_rules("standard").to_json())
    evening.start_round(by=user)
    for table in evening.current_round().tables_played.select_related("game"):
        game = table.game
        fields = []
        scored = replay(game.setup, [])
        for number in range(1, length + 1):
            state = scored.state
            declarer = state.next_declarer if state.next_declarer is not None else 0
            climbs = number % 7 == 0 and state.levels[declarer] < Rank.QUEEN
            fields.append(
                {
                    "declarer": declarer,
                    "bid": "none",
                    "trump": NO_TRUMP,
                    "kitty_points": 0,
                    "opponent_points": 45 if climbs else 80,
                    "last_trick_winner": "declarers",
                    "last_trick_format": "single",
                    "last_trick_cards": 1,
                }
            )
            results = [Hand(number=n, **f).result for n, f in enumerate(fields, 1)]
            scored = replay(game.setup, results)
        Hand.objects.bulk_create(
            Hand(game=game, number=number, **hand) for number, hand in enumerate(fields[:-1], 1)
        )
        game.record_hand(fields[-1], version=game.version, request_key="", by=user)
    evening.refresh_from_db()
    return evening


def room_url(evening) -> str:
    from django.urls import reverse

    return reverse("evening_room", args=[evening.share_token])


def count_queries(evenings: dict, goals: Goals) -> None:
    """The queries of one room poll at each length, in this process."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
    counts = {}
    for length, evening in evenings.items():
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(f"{room_url(evening)}?since=0-0", HTTP_HX_REQUEST="true")
        if answer.status_code != 200:
            raise SystemExit(f"the room screen answered {answer.status_code}")
        counts[length] = len(queries)
    short, long = LENGTHS
    goals.check(
        f"room poll queries, {long} / {short} hands a table",
        f"{counts[long]} / {counts[short]}",
        "the same",
        counts[long] == counts[short],
    )


def measure_polls(server: Server, evenings: dict, goals: Goals) -> None:
    from companion.room import stamp

    poll = {"HX-Request": "true"}
    longest = evenings[LENGTHS[-1]]
    pages = {
        **{
            # A screen that last saw the evening's start: everything is new to it.
            f"room poll, {length} hands a table": (f"{room_url(evening)}?since=0-0", poll)
            for length, evening in evenings.items()
        },
        "room poll, nothing new": (f"{room_url(longest)}?since={stamp(longest)}", poll),
    }
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in pages}
    sent: dict[str, int] = {}
    status: dict[str, int] = {}
    for label, (url, headers) in pages.items():  # once each first: warm every cache
        answer = server.request("GET", url, headers=headers)
        if answer.status not in (200, 204):
            raise SystemExit(f"{label}: {url} answered {answer.status}")
    for _ in range(ROUNDS):
        for label, (url, headers) in pages.items():
            answer = server.request("GET", url, headers=headers)
            times[label].append((answer.cpu, answer.wall))
            sent[label] = answer.sent
            status[label] = answer.status

    cpu = {label: median_ms(c for c, _ in found) for label, found in times.items()}
    wall = {label: median_ms(w for _, w in found) for label, found in times.items()}
    print(f"{'median per request':<30} {'CPU ms':>8} {'wall ms':>8} {'sent':>10} status")
    for label in pages:
        print(
            f"{label:<30} {cpu[label]:8.2f} {wall[label]:8.2f} {sent[label]:7d} B  {status[label]}"
        )
    short, long = (f"room poll, {length} hands a table" for length in LENGTHS)
    goals.ratio(
        f"room poll {LENGTHS[-1]} / {LENGTHS[0]} hands a table",
        {"CPU": cpu[long] / cpu[short], "wall": wall[long] / wall[short]},
        ROOM_GOAL,
    )
    nothing = "room poll, nothing new"
    goals.check(
        "room poll, nothing new: empty",
        f"{status[nothing]}, {sent[nothing]} bytes",
        "204, 0 bytes",
        status[nothing] == 204 and sent[nothing] == 0,
    )


def measure_latency(server: Server, evening, goals: Goals) -> None:
    """A scorekeeper records hands at the three tables in turn while a watcher polls the room's
    share link; seconds from each save's answer to the poll that shows it."""
    from companion.models import Game

    saved: dict[tuple[int, int], float] = {}
    seen: dict[tuple[int, int], float] = {}
    done = threading.Event()
    phone = Phone(server)
    phone.log_in("mei", PASSWORD)
    tables = {
        table.number: table.game_id
        for table in evening.current_round().tables_played.order_by("number")
    }

    def record() -> None:
        from django.db import connections

        rng = random.Random(2026)
        try:
            for save in range(WATCHED_SAVES):
                time.sleep(rng.uniform(0.4, 1.6))
                number = save % len(tables) + 1
                now = Game.objects.get(pk=tables[number])
                declarer = now.scored().state.next_declarer
                form = {
                    **HAND,
                    "declarer": str(declarer if declarer is not None else 0),
                    "version": str(now.version),
                    "request_key": uuid.uuid4().hex,
                }
                answer = phone.post(f"{now.get_absolute_url()}hands/new/", form, timed=False)
                if answer.status != 302:
                    raise RuntimeError(f"the hand was not saved: {answer.status}")
                saved[(number, now.hands.count())] = time.perf_counter()
            time.sleep(LATENCY_GOAL + 1)  # the last save's chance to be seen
        finally:
            done.set()
            connections.close_all()

    recorder = threading.Thread(target=record)
    recorder.start()
    watch(server, room_url(evening), seen, done)
    recorder.join()

    latencies = [seen[key] - at for key, at in saved.items() if key in seen]
    unseen = len(saved) - len(latencies)
    if not latencies:
        goals.miss("room screen, save to seen", "saw none of the saves")
        return
    worst = max(latencies)
    goals.check(
        "room screen, save to seen (worst)",
        f"median {statistics.median(latencies) * 1000:.0f} ms, max {worst * 1000:.0f} ms"
        f" of {len(saved)} saves" + (f", {unseen} never seen" if unseen else ""),
        f"≤ {LATENCY_GOAL:g} s",
        worst <= LATENCY_GOAL and not unseen,
    )


def watch(server: Server, url: str, seen: dict, done: threading.Event) -> None:
    """Poll as the room page's htmx does: every interval the page names, asking for news since
    the stamp shown; an answer that changes the room brings the next poll's URL."""
    page = server.request("GET", url, timed=False).text
    poll, interval = poller(page)
    while not done.is_set():
        time.sleep(interval)
        answer = server.request("GET", poll, headers={"HX-Request": "true"}, timed=False)
        if answer.status == 200:
            now = time.perf_counter()
            for table, hands in TABLE_HANDS.findall(answer.text):
                for count in range(1, int(hands) + 1):
                    seen.setdefault((int(table), count), now)
            poll, interval = poller(answer.text, (poll, interval))


if __name__ == "__main__":
    sys.exit(main())
