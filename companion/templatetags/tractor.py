"""One-line adapters from `scoring` values to what a player reads."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django import template
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from companion.display import (
    card_label,
    joined,
    level,
    names,
    rules_title,
    sentences,
    suit_symbol,
    team,
)
from companion.forms.choices import FORMAT_CHOICES, SIDE_CHOICES
from companion.models import Hand
from scoring.cards import Card
from scoring.errors import ScoringError
from scoring.game import Game, PlayedHand
from scoring.settle import Settlement, explain
from scoring.table import Teams

register = template.Library()
register.filter(level)
register.filter(rules_title)
register.filter(names)
register.filter(team)
register.filter(suit_symbol)


@register.simple_tag
def one_after_the_other(first: object, second: object, *, aside: bool = False) -> SafeString:
    """Two sentences one after the other as the reader's language sets them (``sentences``: a
    space between them, none after Chinese 。). ``aside``: the second in the page's quieter grey."""
    if aside:
        second = format_html('<span class="text-body-secondary">{}</span>', second)
    # Safe: each sentence is escaped, and the pattern is the catalogue's.
    return mark_safe(sentences([conditional_escape(first), conditional_escape(second)]))


# A range of the opponents' totals, such as 5–35: a line may break after its dash.
TOTALS_RANGE = re.compile(r"\d+–\d+")


@register.filter
def unbroken_ranges(text: str) -> SafeString:
    """``text`` escaped, each range of totals in it kept on one line ("5–" then "35" on the next
    is no range)."""
    # Safe: the text is escaped first, and the spans are ours.
    return mark_safe(TOTALS_RANGE.sub(r'<span class="text-nowrap">\g<0></span>', escape(text)))


@register.filter
def explained(settlement: Settlement) -> str:
    """A settlement in the reader's language."""
    return explain(settlement, gettext, ngettext)


@register.filter
def in_one_sentence(hand: PlayedHand, players: Sequence[str]) -> str:
    """A hand's result in one sentence, in the reader's language (``players`` in play order)."""
    return hand.summary(players).in_words(gettext, ngettext)


@register.filter
def said(error: ScoringError) -> str:
    """A scoring error in the reader's language (its message, ``str(error)``, is English)."""
    return error.in_words(gettext, ngettext)


@register.filter
def next_hand(game: Game) -> str:
    """Who starts the game's next hand, at what level, and why; "" once the game is over."""
    coming = game.next_hand
    return coming.sentence.in_words(gettext, ngettext) if coming is not None else ""


HAND_FIELD_LABELS = {
    "declarer": _("declarer"),
    "friends": _("friends"),
    "bid": _("bid"),
    "trump": pgettext_lazy("what a hand records", "trump"),
    "kitty_cards": _("kitty cards"),
    "kitty_points": _("kitty points"),
    "opponent_points": _("opponents' points"),
    "last_trick_winner": _("last trick won by"),
    "last_trick_format": _("last trick led as"),
    "last_trick_cards": _("cards each played to the last trick"),
    "declarer_cards_taken_back": _("cards the declarers took back"),
    "opponent_cards_taken_back": _("cards the opponents took back"),
}


# What the history shows for a hand's stored values: the words of the hand form's buttons.
BID_WORDS = dict(Hand.Bid.choices)
SIDE_WORDS = dict(SIDE_CHOICES)
FORMAT_WORDS = dict(FORMAT_CHOICES)


@register.filter
def changed_fields(change) -> list[tuple[str, object, object]]:
    """A history entry as (what, before, after) rows: for an edit only what it changed.
    Seats read as their players' names (``change.game`` with its seats)."""
    before, after = change.before or {}, change.after or {}
    game = change.game
    players = [player.name for player in game.players]
    finds_friends = game.teams == Teams.FIND_A_FRIEND.value
    shown = {
        "declarer": lambda seat: players[seat] if seat is not None else None,
        "friends": lambda seats: joined([players[seat] for seat in seats]) or gettext("nobody"),
        "trump": lambda trump: suit_symbol(trump),
        "bid": lambda bid: BID_WORDS.get(bid),
        "kitty_cards": lambda codes: " ".join(map(card_label, map(Card.parse, codes.split()))),
        "last_trick_winner": lambda side: SIDE_WORDS.get(side, side),
        "last_trick_format": lambda led: FORMAT_WORDS.get(led, led),
    }
    rows = []
    for name, label in HAND_FIELD_LABELS.items():
        if (name not in before and name not in after) or (name == "friends" and not finds_friends):
            continue
        old, new = before.get(name), after.get(name)
        if before and after and old == new:
            continue
        show = shown.get(name)
        if show is not None:
            old = show(old) if name in before else None
            new = show(new) if name in after else None
        rows.append((label, old, new))
    return rows
