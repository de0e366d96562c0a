"""One-line adapters from a trick's verdict (docs/engine-json.md's ``judge`` answer) to what a
player reads."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.cards import BIG_JOKER, DISTINCT_CARDS, SMALL_JOKER, Card, Rank, Suit

register = template.Library()

LEAD_FORMATS = {
    "single": _("a single"),
    "pair": _("a pair"),
    "tractor": _("a tractor"),
    "throw": _("a throw"),
}
FOLLOW_SUITS = {
    "S": _("spades"),
    "H": _("hearts"),
    "D": _("diamonds"),
    "C": _("clubs"),
    "trump": _("trumps"),
}


def card_label(card: Card) -> str:
    """A card as players name it: ``10♥``, ``K♠``, ``BJ``."""
    if card.is_joker:
        return str(card)
    return f"{'10' if card.rank is Rank.TEN else card.rank}{card.suit.symbol}"


def is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS) or card == BIG_JOKER


# The card grid: a suit to two rows of seven, A down to 2, black and red suits in turn; then the
# jokers. ``row_start`` begins a new row.
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
CARD_GRID = [
    {
        "code": str(card),
        "label": card_label(card),
        "red": is_red(card),
        "row_start": card == SMALL_JOKER or card.rank is Rank.ACE,
    }
    for card in sorted(
        DISTINCT_CARDS,
        key=lambda card: (
            (len(GRID_SUITS), card == BIG_JOKER)
            if card.is_joker
            else (GRID_SUITS.index(card.suit), -card.rank)
        ),
    )
]


@register.filter
def card(code: str) -> str:
    """A card code of the verdict as a label, red for hearts, diamonds and the big joker."""
    parsed = Card.parse(code)
    return format_html(
        '<span class="card-label{}">{}</span>', " red" if is_red(parsed) else "", card_label(parsed)
    )


@register.filter
def lead_format(value: str) -> str:
    return LEAD_FORMATS.get(value, value)


@register.filter
def follow_suit(value: str) -> str:
    return FOLLOW_SUITS.get(value, value)


@register.filter
def rules_name(rules: str | dict) -> str:
    """A request's rules: a preset's name, or a group's own table by its name."""
    return rules.get("name", "") if isinstance(rules, dict) else rules
