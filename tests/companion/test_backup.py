"""Backups: `manage.py backup FILE` copies the whole database while the app writes to it, and
`manage.py restore FILE` puts it back into a new database, refusing to overwrite one that holds
anything unless told to. Run as the operator runs them, in their own processes."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = (
    os.environ.get("DATABASE_URL", "") if "postgres" in os.environ.get("DATABASE_URL", "") else ""
)


def manage(database_url: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=os.environ | {"DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        check=check,
        timeout=120,
    )


def demo_export(database_url: str) -> str:
    """The demo group's export file, as `export_group` writes it."""
    shell = "from companion.models import Group; print(Group.objects.get().pk)"
    group_id = manage(database_url, "shell", "--no-imports", "-c", shell).stdout.strip()
    return manage(database_url, "export_group", group_id).stdout


@pytest.fixture(scope="module")
def demo_sqlite(tmp_path_factory) -> Path:
    """A SQLite database file holding the demo group (copy it before changing it)."""
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite3"
    manage(f"sqlite:///{path}", "migrate", "--verbosity", "0")
    manage(f"sqlite:///{path}", "demo")
    return path


@pytest.fixture
def live(demo_sqlite, tmp_path) -> str:
    """The ``DATABASE_URL`` of a running app's SQLite database, with the demo group in it."""
    shutil.copy(demo_sqlite, tmp_path / "live.sqlite3")
    return f"sqlite:///{tmp_path / 'live.sqlite3'}"


def back_up_and_restore(source: str, target: str, backup: Path, writing) -> None:
    """The demo in ``source``, backed up to ``backup`` while ``writing`` holds an uncommitted
    rename of the group, restored into ``target``: ``target`` holds the demo as it was."""
    before = demo_export(source)

    with writing(source):
        made = manage(source, "backup", str(backup))
    assert made.returncode == 0
    assert "Half-written" in demo_export(source)  # the write went through, after the backup

    restored = manage(target, "restore", str(backup))

    assert restored.returncode == 0
    assert f"Restored the database from {backup}." in restored.stderr
    assert demo_export(target) == before
    assert '"name":"Demo table"' in before


def test_it_backs_up_sqlite_while_a_write_is_under_way_and_restores_it(live, tmp_path):
    target = f"sqlite:///{tmp_path / 'new.sqlite3'}"

    @contextmanager
    def writing(url: str) -> Iterator[None]:
        writer = sqlite3.connect(urlsplit(url).path, isolation_level=None)
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE companion_group SET name = 'Half-written'")
        yield
        writer.execute("COMMIT")
        writer.close()

    back_up_and_restore(live, target, tmp_path / "tractor.backup", writing)


def test_it_refuses_to_restore_over_a_database_that_holds_data(live, tmp_path):
    manage(live, "backup", str(tmp_path / "tractor.backup"))

    refused = manage(live, "restore", str(tmp_path / "tractor.backup"), check=False)

    assert refused.returncode == 1
    assert "the database holds data already" in refused.stderr
    assert "Traceback" not in refused.stderr
    forced = manage(live, "restore", "--force", str(tmp_path / "tractor.backup"))
    assert forced.returncode == 0


def test_it_never_overwrites_a_backup(live, tmp_path):
    (tmp_path / "tractor.backup").write_text("last week's")

    refused = manage(live, "backup", str(tmp_path / "tractor.backup"), check=False)

    assert refused.returncode == 1
    assert "exists already" in refused.stderr
    assert (tmp_path / "tractor.backup").read_text() == "last week's"


def test_it_names_a_file_that_is_no_backup(tmp_path):
    (tmp_path / "notes.txt").write_text("not a database")

    refused = manage(
        f"sqlite:///{tmp_path / 'new.sqlite3'}", "restore", str(tmp_path / "notes.txt"), check=False
    )

    assert refused.returncode == 1
    assert "is not a backup of this app's database" in refused.stderr


@pytest.mark.skipif(not POSTGRES, reason="DATABASE_URL names no PostgreSQL server")
def test_it_backs_up_postgresql_while_a_write_is_under_way_and_restores_it(tmp_path):
    if not shutil.which("pg_dump") and not os.environ.get("CI"):
        pytest.skip("no pg_dump here: apt-get install postgresql-client")
    import psycopg

    server = urlsplit(POSTGRES)
    names = ("tractor_backup_live", "tractor_backup_new")
    urls = [server._replace(path=f"/{name}").geturl() for name in names]
    with psycopg.connect(server._replace(path="/postgres").geturl(), autocommit=True) as admin:
        for name in names:
            admin.execute(f"DROP DATABASE IF EXISTS {name}")
            admin.execute(f"CREATE DATABASE {name}")

    @contextmanager
    def writing(url: str) -> Iterator[None]:
        with psycopg.connect(url) as writer:
            writer.execute("UPDATE companion_group SET name = 'Half-written'")
            yield
            writer.commit()

    manage(urls[0], "migrate", "--verbosity", "0")
    manage(urls[0], "demo")
    try:
        back_up_and_restore(*urls, tmp_path / "tractor.backup", writing)
    finally:
        with psycopg.connect(server._replace(path="/postgres").geturl(), autocommit=True) as admin:
            for name in names:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
