"""Guessing passwords: after a few wrong ones in a row the login (and the admin's) stops
trying, even the right password, for a while, and says so."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tests.companion.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = 5  # AXES_FAILURE_LIMIT's default


def log_in(client, password: str, url: str = "/accounts/login/"):
    return client.post(url, {"username": "mei", "password": password})


def test_it_refuses_even_the_right_password_after_too_many_wrong_ones(client, user):
    for _ in range(LIMIT - 1):
        assert log_in(client, "wrong guess").status_code == 200
    assert log_in(client, "wrong guess").status_code == 429

    response = log_in(client, PASSWORD)

    assert response.status_code == 429
    assert (
        "After 5 wrong passwords in a row, this account cannot log in from here for a while,"
        " even with the right password. Try again in 15 minutes." in " ".join(response.text.split())
    )
    assert "_auth_user_id" not in client.session


def test_it_lets_the_right_password_in_after_the_pause(client, user):
    from axes.models import AccessAttempt

    for _ in range(LIMIT):
        log_in(client, "wrong guess")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))

    response = log_in(client, PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_it_forgets_wrong_passwords_after_a_right_one(client, user):
    for _ in range(LIMIT - 1):
        log_in(client, "wrong guess")
    assert log_in(client, PASSWORD).status_code == 302
    client.logout()

    for _ in range(LIMIT - 1):
        log_in(client, "wrong guess")

    assert log_in(client, PASSWORD).status_code == 302


def test_it_does_not_lock_out_the_account_from_another_address(client, user):
    for _ in range(LIMIT):
        log_in(client, "wrong guess")

    response = client.post(
        "/accounts/login/",
        {"username": "mei", "password": PASSWORD},
        REMOTE_ADDR="192.0.2.7",
    )

    assert response.status_code == 302


def test_it_throttles_the_admin_login_too(client, db):
    User.objects.create_superuser("mei", "mei@example.com", PASSWORD)
    for _ in range(LIMIT):
        log_in(client, "wrong guess", url="/admin/login/")

    response = log_in(client, PASSWORD, url="/admin/login/")

    assert response.status_code == 429
    assert "Too many wrong passwords" in response.text


def sign_up(client, number: int, **address):
    return client.post(
        "/accounts/signup/",
        {
            "username": f"player{number}",
            "email": f"player{number}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        **address,
    )


def test_it_stops_making_accounts_from_one_address_after_a_few_an_hour(client, db):
    for number in range(10):
        assert sign_up(client, number).status_code == 302
        client.logout()

    response = sign_up(client, 10)

    assert response.status_code == 429
    assert "Too many accounts were made from here in the last hour: try again later." in (
        response.text
    )
    assert not User.objects.filter(username="player10").exists()
    assert sign_up(client, 11, REMOTE_ADDR="192.0.2.7").status_code == 302
