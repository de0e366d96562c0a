"""What a phone downloads the first time it opens each page, served as in production: the
settings read with DEBUG off, static files collected under hashed names, and a browser that
accepts brotli and gzip. The budget is 80 KB a page: the HTML and every stylesheet, script,
font and image it references, counted as sent (compressed)."""

from __future__ import annotations

import gzip
import importlib.util
import os
import posixpath
import re
from pathlib import Path
from unittest import mock

import brotli
import pytest
from django.conf import settings
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse

from tests.reading import parse

BUDGET = 80 * 1024
ONE_YEAR = 365 * 24 * 60 * 60
# What a phone's browser sends; zstd is not served, so this is brotli or gzip.
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)""")
SERVING = ("DEBUG", "MIDDLEWARE", "STATICFILES_DIRS", "STORAGES")
"""The settings that decide what goes over the wire, with every ``WHITENOISE_`` one."""


def production_settings() -> dict[str, object]:
    """``companion/settings.py`` as a server with DEBUG off reads it."""
    path = Path(settings.BASE_DIR) / "companion" / "settings.py"
    spec = importlib.util.spec_from_file_location("production_settings", path)
    module = importlib.util.module_from_spec(spec)
    environment = {"DEBUG": "false", "SECRET_KEY": "test-only", "ALLOWED_HOSTS": "testserver"}
    with mock.patch.dict(os.environ, environment):
        spec.loader.exec_module(module)
    assert module.DEBUG is False
    return {
        name: getattr(module, name)
        for name in dir(module)
        if name in SERVING or name.startswith("WHITENOISE_")
    }


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    """Production's serving settings over a ``collectstatic`` run into a temporary folder."""
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, **production_settings()):
        # The admin's files, which no page here loads, are most of collectstatic's time.
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
        yield root


# The links whose address the browser loads with the page.
LOADED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "manifest"}


def references(page: str) -> list[str]:
    """The URLs of the stylesheets, scripts, icons and images a page makes the browser load."""
    urls = []
    for element in parse(page).walk():
        if element.tag == "link" and LOADED_LINKS & set(element.attrs.get("rel", "").split()):
            urls.append(element.attrs.get("href", ""))
        elif element.tag in ("script", "img", "source"):
            urls.append(element.attrs.get("src", ""))
    return [url for url in urls if url]


def body(response: HttpResponse) -> bytes:
    """The response's body as it goes over the wire."""
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def decoded(response: HttpResponse, sent: bytes) -> str:
    encoding = response.get("Content-Encoding")
    if encoding == "br":
        sent = brotli.decompress(sent)
    elif encoding == "gzip":
        sent = gzip.decompress(sent)
    return sent.decode()


def first_load(client: Client, url: str) -> dict[str, tuple[HttpResponse, bytes]]:
    """The responses to ``url`` and to every static file it makes the browser load (the CSS's
    own ``url()``s too), fetched as a phone's browser asks for them, with their bodies as sent,
    by URL."""
    loaded = {}
    queue = [url]
    while queue:
        address = queue.pop(0)
        if address in loaded:
            continue
        response = client.get(address, headers={"accept-encoding": ACCEPT_ENCODING})
        loaded[address] = response, body(response)
        if address == url:
            queue += references(decoded(*loaded[address]))
        elif address.endswith(".css"):
            folder = address.rsplit("/", 1)[0]
            queue += [
                posixpath.normpath(posixpath.join(folder, reference))
                for reference in CSS_URL.findall(decoded(*loaded[address]))
                if not reference.startswith(("data:", "#", "http:", "https:"))
            ]
    return loaded


@pytest.fixture
def pages(user, start_game, endless_hands) -> dict[str, tuple[str, bool]]:
    """The pages a phone opens first, each with whether it is opened logged in: a newcomer's
    home and login; a member's group, game, new-hand form and the group's history."""
    game = start_game()
    endless_hands(game, 12)
    group, pk = game.group_id, game.pk
    return {
        "home": (reverse("home"), False),
        "login": (reverse("login"), False),
        "group": (reverse("group", args=[group]), True),
        "game": (reverse("game", args=[group, pk]), True),
        "hand form": (reverse("hand_new", args=[group, pk]), True),
        "history": (reverse("group_history", args=[group]), True),
    }


PAGES = ("home", "login", "group", "game", "hand form", "history")


@pytest.mark.parametrize("name", PAGES)
def test_it_sends_a_first_load_within_the_budget(production, pages, user, name):
    url, logged_in = pages[name]
    client = Client()
    if logged_in:
        client.force_login(user)

    loaded = first_load(client, url)

    weights = {address: len(sent) for address, (_response, sent) in loaded.items()}
    assert sum(weights.values()) <= BUDGET, weights
    for address, (response, _sent) in loaded.items():
        assert response.status_code == 200, address
        assert response.get("Content-Encoding") in ("br", "gzip") or not address.endswith(
            ("/", ".css", ".js", ".svg")
        ), f"{address} is sent uncompressed"


@pytest.mark.parametrize("name", PAGES)
def test_it_names_static_files_by_content_and_caches_them_for_a_year(production, pages, user, name):
    url, logged_in = pages[name]
    client = Client()
    if logged_in:
        client.force_login(user)

    loaded = first_load(client, url)

    static = [address for address in loaded if address != url]
    assert static, f"{url} loads no static files"
    for address in static:
        assert address.startswith(settings.STATIC_URL), f"{url} loads {address} from elsewhere"
        assert HASHED.search(address), f"{address} is not named by its content"
        cache = loaded[address][0]["Cache-Control"]
        assert "immutable" in cache, address
        assert int(re.search(r"max-age=(\d+)", cache)[1]) >= ONE_YEAR, address
