"""The ladder history's pictures and numbers: one-line adapters to `companion.charts`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from django import template
from django.utils.text import get_text_list

from companion import charts
from companion.templatetags.tractor import joined
from scoring.game import Game

register = template.Library()


@register.inclusion_tag("companion/includes/level_race.html")
def level_race(game: Game) -> dict:
    """A game's level race, hand by hand, as an inline SVG: a line for each fixed team, or for
    each player in find-a-friend, named in the legend. A game resumed at a later hand (the
    scoreboard's latest hands) draws the race from there, its hands numbered as in the game."""
    table = game.table
    race = [game.hands[0].before.levels if game.hands else game.setup.levels]
    race += [hand.after.levels for hand in game.hands]
    chart = charts.level_race(
        race,
        table.fixed or [(seat,) for seat in table.seats],
        [hand.result.declarer for hand in game.hands],
    )
    since = game.hands[0].number - 1 if game.hands else 0
    if since:
        ticks = tuple(charts.Tick(tick.at, tick.label + since) for tick in chart.x_ticks)
        chart = dataclasses.replace(chart, x_ticks=ticks)
    return {
        "chart": chart,
        "since": since,
        "legend": [
            (line, together(table.players[seat] for seat in line.seats)) for line in chart.lines
        ],
    }


@register.filter
def together(players: Iterable[object]) -> str:
    """A side's players as one short name: ``Mei``, ``Mei & Lin``, ``Mei, Lin & Wei``."""
    return get_text_list([str(player) for player in players], "&")


@register.filter
def listed(players: Iterable[object]) -> str:
    """Players as a sentence names them: ``Mei and Lin``."""
    return joined(list(players))


@register.filter
def percent(rate: float | None) -> str:
    """A rate as a whole percentage; a rate of nothing (no hands) as a dash."""
    return "–" if rate is None else f"{round(100 * rate)}%"


@register.filter
def average(value: float | None) -> str:
    """An average of points, to one decimal; of nothing, a dash."""
    return "–" if value is None else f"{value:.1f}"
