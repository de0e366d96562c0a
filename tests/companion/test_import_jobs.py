"""Imports as jobs: a hostile file refused before it is read whole, the job's progress on the
import page, one job per double submit, one import at a time per account, and an import whose
worker is killed midway leaving nothing anyone sees, taken away when the worker starts again."""

from __future__ import annotations

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from exchange_documents import DOCUMENT, games_of

from companion import exchange
from companion.models import Group, ImportChunk, ImportJob
from tests.reading import text

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _upload(data: object, name: str = "thursday.json") -> io.BytesIO:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = name
    return upload


def _file(data: object) -> SimpleUploadedFile:
    return SimpleUploadedFile("thursday.json", json.dumps(data).encode())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "{" + ",".join(f'"k{number}":0' for number in range(1_000_000)) + "}",
            "an object in it has more than 1000 keys",
        ),
        (
            '{"format":"tractor-companion-group","version":3,"games":[{"hands":['
            + ",".join(["1e400"] * 1_500_000)
            + "]}]}",
            "Game 1 holds more than 500000 values, far more than a game ever holds.",
        ),
        (
            '{"format":"tractor-companion-group","version":3,"group":{"name":"'
            + "x" * 3_000_000
            + '"}}',
            "it holds a text of 3000000 characters",
        ),
        ('{"games":' + "[" * 50 + "]" * 50 + "}", "it is nested too deeply"),
    ],
    ids=["keys", "numbers in a game", "a huge text", "deep"],
)
def test_a_hostile_file_is_refused_before_it_is_read_whole(text, message):
    data = text.encode()
    tracemalloc.start()
    try:
        with pytest.raises(exchange.ExchangeError) as raised:
            exchange.load(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert message in str(raised.value)
    # Built whole, the keys take 120 MB and the numbers 200 MB; refused on the way, no more
    # than the events of the reader's megabyte.
    assert peak < 40 * 2**20


def test_the_streaming_reader_stops_at_the_first_key_too_many(monkeypatch):
    read = []
    events = exchange.reading._events

    def counted(data):
        for event in events(data):
            read.append(event)
            yield event

    monkeypatch.setattr(exchange.reading, "_events", counted)
    text = "{" + ",".join(f'"k{number}":0' for number in range(100_000)) + "}"

    with pytest.raises(exchange.ExchangeError):
        exchange.load(text)

    assert len(read) < 2_100  # of 200,002 events


def test_it_imports_through_a_job_and_links_the_new_group(member, user):
    response = member.post(
        "/groups/import/", {"file": _upload(DOCUMENT), "name": "", "request_key": "k1"}
    )

    group = Group.objects.get(name="Thursday Tractor")
    assert response["Location"] == group.get_absolute_url()
    job = ImportJob.objects.get()
    assert (job.state, job.group, job.games, job.games_done) == ("succeeded", group, 1, 1)
    assert not ImportChunk.objects.exists()  # the file is gone with its import
    page = member.get("/groups/import/").text
    assert "Imported Thursday Tractor: 5 players, 1 game, 2 hands." in text(page)
    assert f'href="{group.get_absolute_url()}"' in page


def test_a_double_submitted_upload_makes_one_job(member, user):
    for _ in range(2):
        member.post("/groups/import/", {"file": _upload(DOCUMENT), "name": "", "request_key": "k"})

    assert ImportJob.objects.count() == 1
    assert Group.objects.filter(name="Thursday Tractor").count() == 1


def test_the_same_file_imported_again_on_purpose_makes_another_group(member, user):
    member.post("/groups/import/", {"file": _upload(DOCUMENT), "name": "", "request_key": "a"})
    member.post("/groups/import/", {"file": _upload(DOCUMENT), "name": "", "request_key": "b"})

    assert Group.objects.filter(name="Thursday Tractor").count() == 2


def test_one_import_at_a_time_per_account(member, user, outsider):
    ImportJob.objects.create(user=user, file_name="big.json", state="running", games=2000)

    response = member.post("/groups/import/", {"file": _upload(DOCUMENT), "name": ""})

    assert "Your import of big.json is still running: one import at a time." in text(response.text)
    assert ImportJob.objects.count() == 1
    assert not Group.objects.filter(name="Thursday Tractor").exists()
    with pytest.raises(IntegrityError):
        ImportJob.objects.create(user=user, file_name="again.json", state="waiting")


def test_another_account_imports_meanwhile(client, user, outsider):
    ImportJob.objects.create(user=user, file_name="big.json", state="running", games=2000)
    client.force_login(outsider)

    client.post("/groups/import/", {"file": _upload(DOCUMENT), "name": "Zoe's"})

    assert Group.objects.get(name="Zoe's").members.get() == outsider


def test_the_page_shows_a_running_import_and_watches_it(member, user):
    ImportJob.objects.create(
        user=user, file_name="ladder.json", state="running", games=2000, games_done=340
    )

    page = member.get("/groups/import/").text
    polled = member.get("/groups/import/", headers={"HX-Request": "true"}).text

    assert '<progress class="w-100" value="340" max="2000"' in page
    assert "Importing: 340 of 2000 games written." in text(page)
    assert "You may leave this page" in text(page)
    assert '<meta http-equiv="refresh" content="5">' in page  # without JavaScript
    assert 'hx-trigger="every 2s"' in polled
    assert "Importing: 340 of 2000 games written." in text(polled)
    assert "<h1" not in polled


def test_a_refused_import_says_why_until_dismissed(member, user):
    data = json.loads(json.dumps(DOCUMENT))
    data["games"][0]["hands"][1]["declarer"] = "Jun"

    page = member.post("/groups/import/", {"file": _upload(data), "name": ""}, follow=True).text

    assert "Refused, and nothing was made: Game 1, hand 2: Jun cannot start this hand" in text(page)
    assert 'hx-trigger="every 2s"' not in page
    job = ImportJob.objects.get()
    assert not ImportChunk.objects.exists()
    member.post("/groups/import/dismiss/", {"job": job.pk})
    assert not ImportJob.objects.exists()
    assert not Group.objects.filter(name="Thursday Tractor").exists()


def test_nobody_dismisses_a_running_import_or_another_accounts(member, user, outsider):
    running = ImportJob.objects.create(user=user, file_name="a.json", state="running")
    theirs = ImportJob.objects.create(user=outsider, file_name="b.json", state="failed")

    for job in (running, theirs):
        member.post("/groups/import/dismiss/", {"job": job.pk})

    assert ImportJob.objects.count() == 2


def test_a_job_run_again_makes_no_second_group(user):
    job, made = ImportJob.start(user, _file(DOCUMENT))
    exchange.run_import(job)
    job.state = ImportJob.State.WAITING  # as if its task were taken again after a crash
    exchange.run_import(job)

    assert made
    assert Group.objects.filter(name="Thursday Tractor").count() == 1


def test_a_refusal_is_in_the_importers_language(user):
    job, _made = ImportJob.start(user, _file([DOCUMENT]), language="fr")

    exchange.run_import(job)

    job.refresh_from_db()
    assert job.state == "failed"
    assert job.refusal.startswith("Le fichier")


# A worker killed midway: a real `manage.py worker` on a SQLite file of its own.
SUBMIT = """
import sys, django
django.setup()
from django.core.files.uploadedfile import SimpleUploadedFile
from django.contrib.auth.models import User
from django.db import transaction
from companion.models import ImportJob
from companion.tasks import run_import
user = User.objects.create(username="mei")
with open(sys.argv[1], "rb") as file:
    upload = SimpleUploadedFile("many.json", file.read())
with transaction.atomic():
    job, _made = ImportJob.start(user, upload)
    run_import.enqueue(job.pk)
"""


def _job(database: Path) -> dict:
    with sqlite3.connect(database) as connection:
        connection.row_factory = sqlite3.Row
        row = connection.execute("SELECT * FROM companion_importjob").fetchone()
        counts = {
            table: connection.execute(f"SELECT COUNT(*) FROM companion_{table}").fetchone()[0]
            for table in ("group", "membership", "game", "hand", "importchunk")
        }
    return {**dict(row), **counts}


def _until(database: Path, done, seconds: float = 60) -> dict:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        job = _job(database)
        if done(job):
            return job
        time.sleep(0.05)
    raise AssertionError(f"still {_job(database)}")


def test_an_import_killed_midway_leaves_nothing_and_is_taken_away_when_the_worker_starts(
    tmp_path,
):
    database = tmp_path / "db.sqlite3"
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "companion.settings",
        "DEBUG": "true",
    }
    (tmp_path / "many.json").write_text(json.dumps(games_of(200)))

    def manage(*arguments: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *arguments], env=environment, cwd=ROOT, check=True
        )

    def worker() -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "manage.py", "worker", "--worker-id=one", "--interval=0.1"],
            env=environment,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    manage("migrate", "--verbosity=0")
    subprocess.run(
        [sys.executable, "-c", SUBMIT, str(tmp_path / "many.json")],
        env=environment,
        cwd=ROOT,
        check=True,
    )
    first = worker()
    try:
        midway = _until(database, lambda job: 0 < job["games_done"] < 150)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()

    cut_off = _job(database)
    assert cut_off["state"] == "running"
    assert cut_off["group"] == 1 and cut_off["game"] >= midway["games_done"]
    assert cut_off["membership"] == 0  # nobody can open the half-made group

    second = worker()
    try:
        cleaned = _until(database, lambda job: job["state"] == "failed", seconds=30)
    finally:
        second.terminate()
        _out, errors = second.communicate(timeout=30)

    assert (cleaned["group"], cleaned["game"], cleaned["hand"], cleaned["importchunk"]) == (
        0,
        0,
        0,
        0,
    )
    assert cleaned["refusal"].startswith("The import was cut off (the server stopped)")
    assert "Took away 1 import(s) cut off before they were done." in errors
