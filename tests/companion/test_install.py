"""Installable where the browser allows it: every page links the web manifest and registers the
service worker, which is served from the site's root and keeps only the static shell."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin

import pytest
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import override_settings

from tests.companion.test_page_weight import production_settings

pytestmark = pytest.mark.django_db

MANIFEST = "companion/manifest.webmanifest"


def test_every_page_links_the_manifest_and_registers_the_service_worker(client):
    page = client.get("/").text

    assert f'<link rel="manifest" href="{static(MANIFEST)}">' in page
    assert 'data-service-worker="/sw.js"' in page
    assert '<meta name="theme-color" content="#7a1f1f">' in page


def test_the_manifest_is_served_as_a_manifest_and_names_icons_that_exist(client):
    response = client.get(static(MANIFEST))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(b"".join(response.streaming_content))
    assert (manifest["name"], manifest["short_name"]) == ("Tractor Companion", "Tractor")
    assert (manifest["start_url"], manifest["display"]) == ("/", "standalone")
    css = (Path(settings.BASE_DIR) / "static" / "companion" / "app.css").read_text()
    assert f"--tractor: {manifest['theme_color']};" in css
    sizes = set()
    for icon in manifest["icons"]:
        served = client.get(urljoin(static(MANIFEST), icon["src"]))
        assert served.status_code == 200, icon
        assert served["Content-Type"] == icon["type"], icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512", "any"} <= sizes


def test_production_names_the_manifests_icons_by_their_content(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path, **production_settings()):
        call_command(
            "collectstatic",
            interactive=False,
            verbosity=0,
            ignore_patterns=["admin", "bootstrap", "django_htmx", "*.js", "*.css"],
        )
        manifest_url = static(MANIFEST)

    manifest = json.loads((tmp_path / manifest_url.removeprefix(settings.STATIC_URL)).read_text())
    for icon in manifest["icons"]:
        assert re.fullmatch(r"icon(-\d+)?\.[0-9a-f]{12}\.(png|svg)", icon["src"]), icon
        assert (tmp_path / "companion" / icon["src"]).is_file(), icon


def test_the_service_worker_is_served_from_the_root_with_its_headers(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    first_line, script = response.text.split("\n", 1)
    assert script == (Path(settings.BASE_DIR) / "static" / "companion" / "sw.js").read_text()
    shell = json.loads(first_line.removeprefix("const SHELL = ").removesuffix(";"))
    assert static("companion/app.css") in shell
    for url in shell:  # the worker's install fails if one of them is missing
        assert client.get(url).status_code == 200, url


def test_the_shell_is_what_every_page_loads(client):
    page = client.get("/").text
    first_line = client.get("/sw.js").text.split("\n", 1)[0]
    shell = json.loads(first_line.removeprefix("const SHELL = ").removesuffix(";"))

    loaded = set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page))
    assert loaded <= set(shell)


def test_the_policy_allows_this_sites_manifest_and_worker_only(client):
    policy = client.get("/")["Content-Security-Policy"]

    assert "manifest-src 'self'" in policy
    assert "worker-src 'self'" in policy
