"""A hand's second-seat confirmation on the game page: one-line adapters to the Hand model."""

from __future__ import annotations

from django import template

from companion.display import either, joined
from companion.forms.confirmations import FlagForm
from companion.models import Game, Hand

register = template.Library()


@register.simple_tag
def may_confirm(hand: Hand, user) -> bool:
    return user.is_authenticated and hand.confirm_refusal(user) is None


@register.simple_tag
def may_flag(hand: Hand, user) -> bool:
    return user.is_authenticated and hand.flag_refusal(user) is None


@register.simple_tag
def waits_at_the_top(hand: Hand, user, can_edit: bool) -> bool:
    """Whether the game page shows the hand in its first screen: it waits for a confirmation
    this phone may give, or it is flagged (for every viewer)."""
    if not hand.asks_confirmation or hand.confirmed_at is not None:
        return False
    return hand.flagged_at is not None or (can_edit and may_confirm(hand, user))


@register.simple_tag
def flag_form(hand: Hand) -> FlagForm:
    return FlagForm(number=hand.number)


@register.filter
def confirmers(hand: Hand) -> str:
    """Who may confirm the hand, as a choice (``Jun or Hao``); "" when any other member may."""
    return either(list(hand.confirmers.values()))


@register.simple_tag
def unconfirmed(game: Game) -> dict:
    """The game's hands still waiting for a confirmation, all of them (the scoreboard shows only
    the latest): how many, and their numbers as a sentence lists them (``5 and 7``)."""
    numbers = game.unconfirmed_hands
    return {"count": len(numbers), "numbers": joined(numbers)}
