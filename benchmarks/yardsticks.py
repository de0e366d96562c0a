"""The settings of bench_scoreboard.py's server: production's (companion.settings), serving two
yardsticks beside the app's pages, `bench/bare/` (the least a Django view can answer) and
`bench/base/` (the site's base template alone). DJANGO_SETTINGS_MODULE=yardsticks, with
benchmarks/ on the path."""

from __future__ import annotations

from companion.settings import *  # noqa: F403

ROOT_URLCONF = "yardsticks"


def bare(request):
    from django.http import HttpResponse

    return HttpResponse("ok")


def base(request):
    from django.shortcuts import render

    return render(request, "base.html")


def __getattr__(name: str) -> list:
    """The URLs, made when Django first asks for them: this module is the settings too, read
    before the app's views can be imported."""
    if name != "urlpatterns":
        raise AttributeError(name)
    from django.urls import include, path

    return [
        path("bench/bare/", bare),
        path("bench/base/", base),
        path("", include("companion.urls")),
    ]
