"""The app as an operator runs it: production unless DEBUG is asked for, the README's production
environment passing `check --deploy`, HTTPS behind a proxy, and its security headers."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

from companion.settings import local_secret_key
from tests.companion.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
# What the tests' own environment sets that an operator's would not.
OURS = (
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "ALLOWED_HOSTS",
    "BEHIND_PROXY",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def production_environment() -> dict[str, str]:
    """The README's "production environment" block, with a real secret key."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```sh\n# production environment\n(.*?)```", readme, re.S)
    assert block, "README.md has no production environment block"
    lines = dict(line.split("=", 1) for line in block[1].splitlines())
    return lines | {"SECRET_KEY": secrets.token_urlsafe(50)}


def manage(*args: str, **environment: str) -> subprocess.CompletedProcess:
    base = {key: value for key, value in os.environ.items() if key not in OURS}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base | environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def setting(name: str, **environment: str) -> str:
    shell = f"from django.conf import settings; print(repr(settings.{name}))"
    result = manage("shell", "--no-imports", "-c", shell, **environment)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_it_passes_the_deploy_check_with_the_documented_environment():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **production_environment())

    assert result.returncode == 0, result.stderr
    # Only axes' warning about lockouts without the address, which counts a username's failures
    # from every address (companion/settings.py says why).
    assert "System check identified no issues (1 silenced)." in result.stdout
    assert setting("SILENCED_SYSTEM_CHECKS", **production_environment()) == "['axes.W006']"


def test_it_is_in_production_unless_debug_is_asked_for():
    assert setting("DEBUG", SECRET_KEY=secrets.token_urlsafe(50)) == "False"


def test_it_refuses_to_start_in_production_without_a_secret_key():
    result = manage("check")

    assert result.returncode == 1
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_the_production_server_refuses_to_start_without_a_secret_key():
    base = {key: value for key, value in os.environ.items() if key not in OURS}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    result = subprocess.run(
        [gunicorn, "companion.wsgi", "--workers", "1", "--bind", "127.0.0.1:0"],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_a_local_start_makes_a_secret_key_once_and_keeps_it(tmp_path):
    path = tmp_path / ".secret_key"

    key = local_secret_key(path)

    assert len(key) >= 50
    assert local_secret_key(path) == key
    assert path.stat().st_mode & 0o777 == 0o600


def test_it_trusts_the_proxy_only_when_told():
    production = production_environment()

    assert setting("SECURE_PROXY_SSL_HEADER", **production) == "('HTTP_X_FORWARDED_PROTO', 'https')"
    assert setting("CSRF_TRUSTED_ORIGINS", **production) == "['https://tractor.example.org']"
    assert setting("SESSION_COOKIE_SECURE", **production) == "True"
    assert setting("SECURE_PROXY_SSL_HEADER", SECRET_KEY=production["SECRET_KEY"]) == "None"


def test_it_reads_client_addresses_only_from_the_proxies_it_is_told_of():
    production = production_environment()
    key = production["SECRET_KEY"]

    assert setting("TRUSTED_PROXIES", **production) == "['127.0.0.1', '::1']"
    named = setting("TRUSTED_PROXIES", **production, TRUSTED_PROXIES="10.0.0.1, 10.0.1.0/24")
    assert named == "['10.0.0.1', '10.0.1.0/24']"
    assert setting("TRUSTED_PROXIES", SECRET_KEY=key, TRUSTED_PROXIES="10.0.0.1") == "[]"
    refused = manage("check", **production, TRUSTED_PROXIES="the-proxy")
    assert refused.returncode == 1
    assert "TRUSTED_PROXIES lists addresses or networks" in refused.stderr


@pytest.mark.django_db
@override_settings(
    ALLOWED_HOSTS=["tractor.example.org"],
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_a_browser_can_log_in_through_an_https_proxy(user):
    browser = Client(enforce_csrf_checks=True, HTTP_HOST="tractor.example.org")
    browser.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")

    response = browser.post(
        "/accounts/login/",
        {
            "username": "mei",
            "password": PASSWORD,
            "csrfmiddlewaretoken": browser.cookies["csrftoken"].value,
        },
        HTTP_X_FORWARDED_PROTO="https",
        HTTP_ORIGIN="https://tractor.example.org",
    )

    assert response.status_code == 302


@pytest.mark.django_db
def test_it_sends_a_content_security_policy_and_a_permissions_policy(client):
    response = client.get("/")

    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "object-src 'none'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "camera=()" in response["Permissions-Policy"]
    assert "geolocation=()" in response["Permissions-Policy"]
