"""Shared fixtures: a fast password hasher, a folder of its own for the boards saves keep, and a
phone-sized headless Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test's thread; the ORM calls made by the
# tests around it are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Without these Chromium tries to reach Google's services, which this network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="session", autouse=True)
def quick_passwords() -> Iterator[None]:
    """The tests make accounts by the hundred: a fast hasher, where production hashes slowly
    on purpose."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def boards_of_this_run(tmp_path_factory) -> Iterator[None]:
    """The boards saves keep for the pages that follow them (companion.scoreboard.keep_board)
    go to files of this test process's own: no other run's or worker's, nor their culling."""
    from django.conf import settings
    from django.test import override_settings

    boards = settings.CACHES["boards"]
    if not boards["BACKEND"].endswith(".FileBasedCache"):  # Redis: keys name their games
        yield
        return
    folder = tmp_path_factory.mktemp("boards")
    with override_settings(CACHES=settings.CACHES | {"boards": boards | {"LOCATION": folder}}):
        yield


@pytest.fixture(scope="session", autouse=True)
def immediate_tasks() -> Iterator[None]:
    """Tasks run as they are enqueued, in the test's own process (a test that needs a real
    worker starts one)."""
    from django.test import override_settings

    tasks = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    with override_settings(TASKS=tasks):
        yield


@pytest.fixture(autouse=True)
def language_of_the_site() -> Iterator[None]:
    """Each test starts in the site's language: a request's language stays active in its
    thread after the answer (LocaleMiddleware sets it and nothing unsets it), so a test that
    read a page in Chinese would otherwise make the next test in the same worker speak it."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).is_file():
        message = (
            f"no Chromium at {CHROMIUM}: `apt-get install chromium` (or set CHROMIUM) "
            "to run the browser tests"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    # A state is waited for as long as Playwright waits for an action (30 s), not its 5 s: a
    # machine busy with other work (`make stress`) is slow, and a state that comes sooner is
    # never waited out.
    expect.set_options(timeout=30_000)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server) -> Iterator[object]:
    """A page in a 360 × 740 touch screen, with the live server's URL as ``phone.url_of``."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def second_phone(browser, live_server) -> Iterator[object]:
    """Another phone at the table, closed after the test: a page left open would go on polling
    the live server through later tests."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot(tmp_path: Path, request: pytest.FixtureRequest):
    """Save a full-page screenshot under the test's temporary folder (and SCREENSHOT_DIR if set)."""

    def save(page, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        page.screenshot(path=path, full_page=True)
        if folder := os.environ.get("SCREENSHOT_DIR"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(folder) / f"{request.node.name}-{name}.png")
        return path

    return save


@pytest.fixture
def before_hands_are_read(monkeypatch):
    """``arm(change)``: runs ``change`` once, just before the next query that reads hands,
    whichever thread makes it (the test's or a live server's): a change that lands between two
    reads of one request, every time."""
    from django.db.backends.utils import CursorWrapper

    armed: list = []
    execute = CursorWrapper.execute

    def execute_after_change(self, sql, params=None):
        if armed and sql.startswith("SELECT") and 'FROM "companion_hand"' in sql:
            armed.pop()()
        return execute(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", execute_after_change)
    return armed.append
