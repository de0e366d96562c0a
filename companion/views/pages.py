from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from companion.forms import SettleForm


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "companion/home.html")


def settle_hand(request: HttpRequest) -> HttpResponse:
    """Score one hand: a calculator over `scoring.settle`, updated live as fields change."""
    form = SettleForm(request.GET or None)
    template = "companion/settle_hand.html"
    if request.htmx:
        template += "#settlement"
    return render(request, template, {"form": form})
