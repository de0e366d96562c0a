"""The game page's "Trump declared" buttons (companion.views.screens.declare_trump answers them)."""

from __future__ import annotations

from django import template

from companion.display import trump_taps
from companion.models import Game

register = template.Library()


@register.inclusion_tag("companion/includes/trump_declared.html", takes_context=True)
def trump_declared(context: template.Context, game: Game, count: int) -> dict:
    """The buttons for the hand after the ``count`` recorded, the trump declared for it pressed."""
    number = count + 1
    return {
        "game": game,
        "number": number,
        "taps": trump_taps(game.declared_trump(number)),
        "csrf_token": context.get("csrf_token"),
    }
