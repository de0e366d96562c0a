from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from companion.forms.hands import SettleForm


def home(request: HttpRequest) -> HttpResponse:
    """The front door: a member's groups, or what the app is for and how to sign up."""
    groups = request.user.tractor_groups.all() if request.user.is_authenticated else []
    return render(request, "companion/home.html", {"groups": groups})


def settle_hand(request: HttpRequest) -> HttpResponse:
    """Score one hand: a calculator over `scoring.settle`, updated live as fields change."""
    form = SettleForm(request.GET or None)
    template = "companion/settle_hand.html"
    if request.htmx:
        template += "#settlement"
    return render(request, template, {"form": form})
