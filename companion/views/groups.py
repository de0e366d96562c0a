"""Accounts, groups and their rosters, the groups' own scoring tables, and starting a game."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from companion.models import Group


def member_group(request: HttpRequest, group_id: int) -> Group:
    """The group ``group_id`` if the request's user is one of its members, else Http404.

    A non-member learns nothing, not even that the group exists. Views that call this are
    wrapped in ``login_required``, so anonymous visitors are sent to log in first; called
    without it, an anonymous visitor gets the 404 too.
    """
    if not request.user.is_authenticated:
        raise Http404("no such group")
    return get_object_or_404(Group, pk=group_id, members=request.user)
