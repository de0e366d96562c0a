"""Limits by an attacker's real reach. Wrong passwords are django-axes' (settings.py names these
callables and the handler): a username that fails too often is refused from everywhere, for a
cool-off that grows with each round, except on a browser that has logged in as it before (a
signed cookie), so that nobody can lock a player out of their own phone; an address that fails
across too many usernames in an hour is refused too. Signing up and password resets are limited
per address, and overall by a ceiling far above any real group's use, which is logged when
reached. Addresses come only through the proxies the operator names (TRUSTED_PROXIES), and an
IPv6 address counts as its /64, which one home or phone holds whole."""

from __future__ import annotations

import json
import logging
import math
from datetime import UTC, datetime, timedelta
from ipaddress import IPv6Address, ip_address, ip_network

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_client_username
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.core import signing
from django.core.cache import cache
from django.db.models import Max
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

log = logging.getLogger(__name__)

HOUR = timedelta(hours=1)
# A whole table signing up on one phone or one home network fits; a script making accounts does
# not. Overall, a few hundred new accounts an hour is far beyond the groups one server holds.
SIGNUPS_PER_HOUR = 10
SIGNUPS_PER_HOUR_OVERALL = 300
# A player who forgot their password asks once or twice; a table of them a few times.
RESETS_PER_HOUR = 5
RESETS_PER_HOUR_OVERALL = 100
# Each further round of failures for one username doubles its cool-off, up to a day.
LONGEST_COOL_OFF = timedelta(days=1)
KNOWN_BROWSER_COOKIE = "tractor_known"
KNOWN_BROWSER_SALT = "companion.throttling.known-browser"
KNOWN_BROWSER_AGE = 365 * 24 * 60 * 60
KNOWN_ACCOUNTS = 5  # accounts a shared phone or computer remembers


def attempted_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The username a login tried, as axes keeps it: a username is at most 150 characters, and
    a longer one (which no account has) must not break the attempt's 255-character column."""
    data = credentials if credentials else getattr(request, "data", request.POST)
    username = data.get("username")
    return username[: User._meta.get_field("username").max_length] if username else username


# Client addresses


def client_address(request: HttpRequest) -> str:
    """The address the request came from: REMOTE_ADDR, or, while that is one of the proxies the
    operator named, the address it says it forwarded for (X-Forwarded-For, from the right: each
    named proxy appends whom it heard). An IPv6 address stands for its /64."""
    address = request.META.get("REMOTE_ADDR", "")
    forwarded = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [hop for hop in forwarded if hop]
    while forwarded and _trusted(address):
        address = forwarded.pop()
    return _network_of(address)


def _trusted(address: str) -> bool:
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in ip_network(proxy, strict=False) for proxy in settings.TRUSTED_PROXIES)


def _network_of(address: str) -> str:
    try:
        parsed = ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ip_network(f"{parsed}/64", strict=False).network_address)
    return str(parsed)


# Wrong passwords (django-axes)


def cool_off(request: HttpRequest | None) -> timedelta:
    """How long a username that failed AXES_FAILURE_LIMIT times is refused: AXES_COOLOFF_MINUTES
    for the first round of failures in a day, twice as long for each round after it."""
    base = timedelta(minutes=settings.AXES_COOLOFF_MINUTES)
    username = get_client_username(request) if request is not None else None
    if not username:
        return base
    failures = AccessFailureLog.objects.filter(
        username=username, attempt_time__gte=timezone.now() - LONGEST_COOL_OFF
    ).count()
    rounds = max(failures // settings.AXES_FAILURE_LIMIT, 1)
    return min(base * 2 ** min(rounds - 1, 10), LONGEST_COOL_OFF)


def known_browser(request: HttpRequest, credentials: dict | None) -> bool:
    """Whether this browser has logged in as the username it tries (its signed cookie says so):
    the player's own phone is never locked out by someone else's guesses."""
    username = get_client_username(request, credentials)
    return bool(username) and username in _known_accounts(request)


def _known_accounts(request: HttpRequest) -> list[str]:
    """The usernames this browser has logged in as, as its signed cookie lists them."""
    try:
        accounts = json.loads(
            request.get_signed_cookie(
                KNOWN_BROWSER_COOKIE, salt=KNOWN_BROWSER_SALT, max_age=KNOWN_BROWSER_AGE
            )
        )
    except (KeyError, signing.BadSignature, ValueError):
        return []
    if not isinstance(accounts, list):
        return []
    return [name for name in accounts if isinstance(name, str)]


@receiver(user_logged_in, dispatch_uid="companion.throttling.remember_browser")
def remember_browser(sender, request: HttpRequest | None, user, **kwargs) -> None:
    if request is not None:
        known = [name for name in _known_accounts(request) if name != user.get_username()]
        request.known_accounts = [user.get_username(), *known][:KNOWN_ACCOUNTS]


def known_browser_cookie(get_response):
    """Middleware: a login's response tells its browser that it is known for that account."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if accounts := getattr(request, "known_accounts", None):
            response.set_signed_cookie(
                KNOWN_BROWSER_COOKIE,
                json.dumps(accounts),
                salt=KNOWN_BROWSER_SALT,
                max_age=KNOWN_BROWSER_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response

    return middleware


def address_refused_until(request: HttpRequest) -> datetime | None:
    """When the request's address may try again, if it failed across more than
    AXES_ADDRESS_USERNAME_LIMIT usernames in the last hour (else None)."""
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    latest = (
        AccessFailureLog.objects.filter(ip_address=address, attempt_time__gte=timezone.now() - HOUR)
        .values("username")
        .annotate(latest=Max("attempt_time"))
        .order_by("-latest")
        .values_list("latest", flat=True)
    )
    limit = settings.AXES_ADDRESS_USERNAME_LIMIT
    over = list(latest[limit : limit + 1])
    return over[0] + HOUR if over else None


def username_refused_until(request: HttpRequest, credentials: dict | None) -> datetime | None:
    """When the username may log in again, if it failed AXES_FAILURE_LIMIT times (else None)."""
    username = get_client_username(request, credentials)
    if not username:
        return None
    length = cool_off(request)
    attempts = AccessAttempt.objects.filter(
        username=username, attempt_time__gte=timezone.now() - length
    )
    failures = sum(attempts.values_list("failures_since_start", flat=True))
    if failures < settings.AXES_FAILURE_LIMIT:
        return None
    return attempts.aggregate(latest=Max("attempt_time"))["latest"] + length


class Handler(AxesDatabaseHandler):
    """Axes' own database handler, refusing besides an address that sprays usernames."""

    def is_locked(self, request, credentials: dict | None = None) -> bool:
        return super().is_locked(request, credentials) or bool(address_refused_until(request))

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or self.is_whitelisted(request, credentials):
            return
        # Axes set the attempts' expiry before logging this failure, which may begin a longer
        # round: the username's attempts are kept for the whole of it.
        if username := get_client_username(request, credentials):
            until = request.axes_attempt_time + cool_off(request)
            AccessAttemptExpiration.objects.filter(
                access_attempt__username=username, expires_at__lt=until
            ).update(expires_at=until)
        if address_refused_until(request):
            request.axes_locked_out = True
            request.axes_credentials = credentials


def lockout(request: HttpRequest, original_response, credentials: dict | None) -> HttpResponse:
    """The page a refused login gets: why, and in how many minutes to try again."""
    now = timezone.now()
    by_address = address_refused_until(request)
    by_username = username_refused_until(request, credentials)
    until = max((moment for moment in (by_address, by_username) if moment), default=None)
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address": by_address is not None and by_address == until,
        "minutes": minutes_until(until or now + cool_off(request), now),
    }
    return render(request, "registration/locked_out.html", context, status=429)


def minutes_until(moment: datetime, now: datetime | None = None) -> int:
    """Whole minutes from now to ``moment``, at least one: what a refused person is told."""
    seconds = (moment - (now or timezone.now())).total_seconds()
    return max(math.ceil(seconds / 60), 1)


# Signing up and password resets


def signup_refused_until(request: HttpRequest) -> datetime | None:
    """When an account may be made from here again, if this address made SIGNUPS_PER_HOUR in
    the last hour or everyone SIGNUPS_PER_HOUR_OVERALL (logged: a flood, or a busy day)."""
    since = timezone.now() - HOUR
    made = User.objects.filter(date_joined__gte=since).order_by("-date_joined")
    overall = list(made.values_list("date_joined", flat=True)[SIGNUPS_PER_HOUR_OVERALL - 1 :][:1])
    if overall:
        log.warning("Sign-ups reached %d in an hour: refusing more", SIGNUPS_PER_HOUR_OVERALL)
        return overall[0] + HOUR
    # Signing up logs in, and axes' access log keeps every login's address.
    logged_in_here = AccessLog.objects.filter(
        ip_address=get_client_ip_address(request), attempt_time__gte=since
    ).values("username")
    here = made.filter(username__in=logged_in_here).values_list("date_joined", flat=True)
    over = list(here[SIGNUPS_PER_HOUR - 1 :][:1])
    return over[0] + HOUR if over else None


def reset_refused_until(request: HttpRequest) -> datetime | None:
    """Count a password reset asked from here; when one may be asked again if this address
    asked RESETS_PER_HOUR in the last hour or everyone RESETS_PER_HOUR_OVERALL (logged)."""
    address = get_client_ip_address(request)
    overall = _in_the_last_hour("throttle:resets", RESETS_PER_HOUR_OVERALL)
    if overall:
        log.warning("Password resets reached %d in an hour: refusing more", RESETS_PER_HOUR_OVERALL)
        return overall
    refused = _in_the_last_hour(f"throttle:resets:{address}", RESETS_PER_HOUR)
    if refused:
        return refused
    for key in ("throttle:resets", f"throttle:resets:{address}"):
        _count(key)
    return None


def _in_the_last_hour(key: str, limit: int) -> datetime | None:
    """When the count under ``key`` falls below ``limit`` again, if it has reached it."""
    times = _times(key)
    if len(times) < limit:
        return None
    return datetime.fromtimestamp(times[len(times) - limit], tz=UTC) + HOUR


def _times(key: str) -> list[float]:
    since = (timezone.now() - HOUR).timestamp()
    return [moment for moment in cache.get(key, []) if moment >= since]


def _count(key: str) -> None:
    # The shared cache: every app process and server counts together.
    cache.set(key, [*_times(key), timezone.now().timestamp()], timeout=int(HOUR.total_seconds()))
