"""Guessing passwords: after a few wrong ones for a username, from any addresses, the login (and
the admin's) stops trying, even the right password, for a while that grows, and says so; except
on the player's own phone. An address trying many usernames is stopped too; signing up and
password resets are limited; and a client's address is only what a named proxy says."""

from __future__ import annotations

from datetime import timedelta
from unittest.mock import patch

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client, RequestFactory, override_settings
from django.utils import timezone

from companion import throttling
from tests.companion.conftest import PASSWORD
from tests.reading import text

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
        "After 5 wrong passwords, this account cannot log in for a while, even with the right"
        " password, except on a phone or computer it logged in on before. Try again in 15"
        " minutes." in text(response)
    )
    assert "_auth_user_id" not in client.session


def test_it_lets_the_right_password_in_after_the_pause(client, user):
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


def test_it_locks_the_account_out_from_another_address_too(client, user):
    for _ in range(LIMIT):
        log_in(client, "wrong guess")

    response = client.post(
        "/accounts/login/",
        {"username": "mei", "password": PASSWORD},
        REMOTE_ADDR="192.0.2.7",
    )

    assert response.status_code == 429


def test_it_throttles_the_admin_login_too(client, db):
    User.objects.create_superuser("mei", "mei@example.com", PASSWORD)
    for _ in range(LIMIT):
        log_in(client, "wrong guess", url="/admin/login/")

    response = log_in(client, PASSWORD, url="/admin/login/")

    assert response.status_code == 429
    assert "Too many wrong passwords" in text(response.text)


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
    assert "Too many accounts were made in the last hour: try again in 60 minutes." in (
        text(response.text)
    )
    assert not User.objects.filter(username="player10").exists()
    assert sign_up(client, 11, REMOTE_ADDR="192.0.2.7").status_code == 302


def test_it_refuses_more_accounts_overall_past_a_ceiling_and_logs_it(client, db, caplog):
    with patch.object(throttling, "SIGNUPS_PER_HOUR_OVERALL", 3):
        for number in range(3):
            assert sign_up(client, number, REMOTE_ADDR=f"192.0.2.{number}").status_code == 302
            client.logout()

        response = sign_up(client, 3, REMOTE_ADDR="192.0.2.99")

    assert response.status_code == 429
    assert not User.objects.filter(username="player3").exists()
    assert "Sign-ups reached 3 in an hour" in caplog.text


# One username from many addresses, and the player's own phone


def later(minutes: int) -> None:
    """Move every failure the database keeps ``minutes`` into the past."""
    past = timedelta(minutes=minutes)
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - past)
    AccessAttemptExpiration.objects.update(expires_at=F("expires_at") - past)
    AccessFailureLog.objects.update(attempt_time=F("attempt_time") - past)


def test_one_username_from_fifty_addresses_is_refused(client, user):
    answers = [
        client.post(
            "/accounts/login/",
            {"username": "mei", "password": f"guess {number}"},
            REMOTE_ADDR=f"198.51.100.{number}",
        ).status_code
        for number in range(50)
    ]

    assert answers == [200] * (LIMIT - 1) + [429] * (50 - LIMIT + 1)
    right = client.post(
        "/accounts/login/", {"username": "mei", "password": PASSWORD}, REMOTE_ADDR="192.0.2.200"
    )
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_players_own_phone_still_logs_in_during_the_attack(client, user):
    phone = Client()
    assert log_in(phone, PASSWORD).status_code == 302
    phone.post("/accounts/logout/")  # the test client's own logout() forgets every cookie
    for number in range(50):
        client.post(
            "/accounts/login/",
            {"username": "mei", "password": f"guess {number}"},
            REMOTE_ADDR=f"198.51.100.{number}",
        )
    assert log_in(client, PASSWORD).status_code == 429

    assert log_in(phone, "a typo on the phone").status_code == 200
    response = log_in(phone, PASSWORD)

    assert response.status_code == 302
    assert phone.session["_auth_user_id"] == str(user.pk)


def test_a_known_phone_is_known_for_its_own_account_only(client, user, outsider):
    phone = Client()
    assert log_in(phone, PASSWORD).status_code == 302
    phone.post("/accounts/logout/")  # the test client's own logout() forgets every cookie
    for number in range(LIMIT):
        client.post("/accounts/login/", {"username": "zoe", "password": f"guess {number}"})

    response = phone.post("/accounts/login/", {"username": "zoe", "password": PASSWORD})

    assert response.status_code == 429


def test_a_forged_known_phone_cookie_is_no_key(client, user):
    for number in range(LIMIT):
        log_in(client, f"guess {number}")
    client.cookies[throttling.KNOWN_BROWSER_COOKIE] = '["mei"]'

    assert log_in(client, PASSWORD).status_code == 429


def test_the_pause_grows_with_each_round_of_wrong_passwords(client, user):
    for number in range(LIMIT):
        log_in(client, f"guess {number}")
    later(16)
    for number in range(LIMIT - 1):
        assert log_in(client, f"again {number}").status_code == 200

    response = log_in(client, "once more")

    assert response.status_code == 429
    assert "Try again in 30 minutes." in text(response.text)
    later(16)
    assert log_in(client, PASSWORD).status_code == 429, "30 minutes, not 15"
    later(15)
    assert log_in(client, PASSWORD).status_code == 302


# One address across many usernames

ADDRESS_LIMIT = 20  # AXES_ADDRESS_USERNAME_LIMIT's default


def test_one_address_across_fifty_usernames_is_refused(client, user):
    phone = Client()
    assert log_in(phone, PASSWORD).status_code == 302
    phone.post("/accounts/logout/")  # the test client's own logout() forgets every cookie

    answers = [
        client.post(
            "/accounts/login/", {"username": f"player{number}", "password": "guess"}
        ).status_code
        for number in range(50)
    ]

    assert answers == [200] * ADDRESS_LIMIT + [429] * (50 - ADDRESS_LIMIT)
    response = log_in(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many accounts were tried with wrong passwords from here" in text(response.text)
    assert "Try again in 60 minutes." in text(response.text)
    assert log_in(phone, PASSWORD).status_code == 302, "Mei's own phone, at the same address"


def test_the_address_pause_ends_after_an_hour(client, user):
    for number in range(ADDRESS_LIMIT + 1):
        client.post("/accounts/login/", {"username": f"player{number}", "password": "guess"})
    assert log_in(client, PASSWORD).status_code == 429

    later(61)

    assert log_in(client, PASSWORD).status_code == 302


def test_an_ipv6_64_counts_as_one_address(client, user):
    for number in range(ADDRESS_LIMIT + 1):
        client.post(
            "/accounts/login/",
            {"username": f"player{number}", "password": "guess"},
            REMOTE_ADDR=f"2001:db8:1:2::{number + 1:x}",
        )

    same_64 = client.post(
        "/accounts/login/",
        {"username": "mei", "password": PASSWORD},
        REMOTE_ADDR="2001:db8:1:2:ffff::9",
    )
    next_64 = client.post(
        "/accounts/login/",
        {"username": "mei", "password": PASSWORD},
        REMOTE_ADDR="2001:db8:1:3::9",
    )

    assert same_64.status_code == 429
    assert next_64.status_code == 302


# Password resets


def ask_reset(client, **address):
    return client.post("/accounts/password_reset/", {"email": "mei@example.com"}, **address)


def test_it_limits_password_resets_from_one_address(client, user, mailoutbox):
    for _ in range(5):
        assert ask_reset(client).status_code == 302

    response = ask_reset(client)

    assert response.status_code == 429
    assert (
        "Too many password resets were asked for in the last hour: try again in 60 minutes."
        in text(response.text)
    )
    assert len(mailoutbox) == 5
    assert ask_reset(client, REMOTE_ADDR="192.0.2.7").status_code == 302
    assert len(mailoutbox) == 6


def test_it_limits_password_resets_overall_and_logs_it(client, user, mailoutbox, caplog):
    with patch.object(throttling, "RESETS_PER_HOUR_OVERALL", 3):
        for number in range(3):
            assert ask_reset(client, REMOTE_ADDR=f"192.0.2.{number}").status_code == 302

        response = ask_reset(client, REMOTE_ADDR="192.0.2.99")

    assert response.status_code == 429
    assert len(mailoutbox) == 3
    assert "Password resets reached 3 in an hour" in caplog.text


# Client addresses through named proxies only


def address_of(remote: str, forwarded: str | None = None) -> str:
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return throttling.client_address(RequestFactory().get("/", **meta))


@override_settings(TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/24"])
def test_it_reads_the_address_a_named_proxy_forwarded_for():
    assert address_of("127.0.0.1", "198.51.100.4") == "198.51.100.4"
    # The client wrote the first address itself; the proxy appended the one it saw.
    assert address_of("127.0.0.1", "203.0.113.66, 198.51.100.4") == "198.51.100.4"
    # A chain of named proxies, each appending whom it heard.
    assert address_of("10.0.0.3", "198.51.100.4, 127.0.0.1") == "198.51.100.4"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_a_forged_forwarded_for_from_an_address_that_is_no_named_proxy_is_ignored(client, user):
    assert address_of("192.0.2.50", "198.51.100.4") == "192.0.2.50"
    for number in range(ADDRESS_LIMIT + 1):
        client.post(
            "/accounts/login/",
            {"username": f"player{number}", "password": "guess"},
            REMOTE_ADDR="192.0.2.50",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{number}",
        )

    response = client.post(
        "/accounts/login/",
        {"username": "mei", "password": PASSWORD},
        REMOTE_ADDR="192.0.2.50",
        HTTP_X_FORWARDED_FOR="198.51.100.200",
    )

    assert response.status_code == 429


@override_settings(TRUSTED_PROXIES=[])
def test_without_a_proxy_the_forwarded_for_header_means_nothing():
    assert address_of("192.0.2.50", "198.51.100.4") == "192.0.2.50"
    assert address_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::"
    assert address_of("::ffff:192.0.2.8") == "192.0.2.8"
