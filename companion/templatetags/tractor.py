"""One-line adapters from `scoring` values to what a player reads."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.cards import Rank, Suit
from scoring.game import Team
from scoring.settle import Settlement, explain

register = template.Library()

TEAM_NAMES = {Team.NORTH_SOUTH: _("North–South"), Team.EAST_WEST: _("East–West")}


@register.filter
def level(rank: Rank | str) -> str:
    """A level as players say it: 10 rather than T."""
    rank = Rank.parse(rank) if isinstance(rank, str) else rank
    return "10" if rank is Rank.TEN else rank.symbol


@register.filter
def explained(settlement: Settlement) -> str:
    """A settlement in the reader's language."""
    return explain(settlement, gettext)


@register.filter
def team_name(team: Team) -> str:
    return TEAM_NAMES[team]


@register.filter
def suit_symbol(trump: str) -> str:
    """A trump suit as its symbol; blank is a hand without trump."""
    return Suit.parse(trump).symbol if trump else _("No trump")


@register.filter
def get_item(mapping: dict, key: object) -> object:
    return mapping.get(key)


HAND_FIELD_LABELS = {
    "declarer": _("declarer"),
    "bid": _("bid"),
    "trump": _("trump"),
    "kitty_cards": _("kitty cards"),
    "kitty_points": _("kitty points"),
    "opponent_points": _("opponents' points"),
    "last_trick_winner": _("last trick won by"),
    "last_trick_format": _("last trick led as"),
    "last_trick_cards": _("cards each played to the last trick"),
    "declarer_cards_taken_back": _("cards the declarers took back"),
    "opponent_cards_taken_back": _("cards the opponents took back"),
}


@register.filter
def changed_fields(change) -> list[tuple[str, object, object]]:
    """A history entry as (what, before, after) rows: for an edit only what it changed."""
    before, after = change.before or {}, change.after or {}
    rows = []
    for name, label in HAND_FIELD_LABELS.items():
        old, new = before.get(name), after.get(name)
        if before and after and old == new:
            continue
        rows.append((label, old, new))
    return rows
