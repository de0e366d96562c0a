"""Signing up, throttled: a few accounts an hour from one address. Wrong passwords are
django-axes' (settings.py); its access log, which records every login with the client's address,
is also what counts the accounts made from here, since signing up logs in."""

from __future__ import annotations

from datetime import timedelta

from axes.helpers import get_client_ip_address
from axes.models import AccessLog
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils import timezone

# A whole table signing up on one phone or one home network fits; a script making accounts does not.
SIGNUPS_PER_HOUR = 10


def attempted_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The username a login tried, as axes keeps it: a username is at most 150 characters, and
    a longer one (which no account has) must not break the attempt's 255-character column."""
    data = credentials if credentials else getattr(request, "data", request.POST)
    username = data.get("username")
    return username[: User._meta.get_field("username").max_length] if username else username


def too_many_signups(request: HttpRequest) -> bool:
    since = timezone.now() - timedelta(hours=1)
    logged_in_here = AccessLog.objects.filter(
        ip_address=get_client_ip_address(request), attempt_time__gte=since
    ).values("username")
    made_here = User.objects.filter(date_joined__gte=since, username__in=logged_in_here)
    return made_here.count() >= SIGNUPS_PER_HOUR
