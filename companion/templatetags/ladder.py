"""The ladder history's pictures and numbers: one-line adapters to `companion.charts`."""

from __future__ import annotations

from django import template

from companion import charts
from scoring.game import Game

register = template.Library()


@register.inclusion_tag("companion/includes/level_race.html")
def level_race(game: Game) -> dict:
    """A game's level race, hand by hand, as an inline SVG."""
    return {
        "chart": charts.level_race(
            [game.setup.levels, *(hand.after.levels for hand in game.hands)],
            [hand.declarers for hand in game.hands],
        ),
        "winner": game.state.winner,
    }


@register.filter
def percent(rate: float | None) -> str:
    """A rate as a whole percentage; a rate of nothing (no hands) as a dash."""
    return "–" if rate is None else f"{round(100 * rate)}%"


@register.filter
def average(value: float | None) -> str:
    """An average of points, to one decimal; of nothing, a dash."""
    return "–" if value is None else f"{value:.1f}"
