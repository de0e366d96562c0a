"""One-line adapters from a trick's verdict (docs/engine-json.md's ``judge`` answer) to what a
player reads."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, gettext, ngettext, pgettext

from companion.display import card_codes, card_label, is_red, rules_title
from scoring.cards import Card
from scoring.cli import judge_request
from scoring.errors import ScoringError

register = template.Library()
register.filter(card_codes)


@register.filter
def card(code: str) -> str:
    """A card code of the verdict as a label, red for hearts, diamonds and the big joker."""
    parsed = Card.parse(code)
    return format_html(
        '<span class="card-label{}">{}</span>', " red" if is_red(parsed) else "", card_label(parsed)
    )


@register.filter
def cards(codes: list[str]) -> str:
    """The cards of a verdict as labels, for a sentence that names them: a space apart, so a
    screen reader and the page's text say "9♥ K♥", not "9♥K♥"."""
    return format_html_join(" ", "{}", ((card(code),) for code in codes))


@register.filter
def led(lead: dict) -> str:
    """The verdict's lead as a sentence: who led what, in which suit (the reader's words)."""
    words = {"leader": lead["player"], "suit": led_suit(lead["suit"])}
    if lead["format"] == "single":
        # Translators: %(suit)s is a suit's name as in "in hearts", "in trumps".
        return gettext("%(leader)s led a single in %(suit)s.") % words
    if lead["format"] == "pair":
        # Translators: %(suit)s is a suit's name as in "in hearts", "in trumps".
        return gettext("%(leader)s led a pair in %(suit)s.") % words
    if lead["format"] == "tractor":
        # Translators: %(suit)s is a suit's name as in "in hearts", "in trumps".
        return gettext("%(leader)s led a tractor in %(suit)s.") % words
    # Translators: %(suit)s is a suit's name as in "in hearts", "in trumps".
    return gettext("%(leader)s led a throw in %(suit)s.") % words


def led_suit(suit: str) -> str:
    """The lead's suit as the sentences of `led` take it: "hearts" in English, and in each
    language the words its sentence needs around the suit (French « de cœur », « d'atout »),
    which the suit's name alone cannot give."""
    if suit == "S":
        # Translators: the suit of a lead, as "%(leader)s led a pair in %(suit)s." takes it;
        # write what your sentence needs with the suit (French « de pique »).
        return pgettext("the suit of a lead", "spades")
    if suit == "H":
        # Translators: the suit of a lead, as "%(leader)s led a pair in %(suit)s." takes it.
        return pgettext("the suit of a lead", "hearts")
    if suit == "D":
        # Translators: the suit of a lead, as "%(leader)s led a pair in %(suit)s." takes it.
        return pgettext("the suit of a lead", "diamonds")
    if suit == "C":
        # Translators: the suit of a lead, as "%(leader)s led a pair in %(suit)s." takes it.
        return pgettext("the suit of a lead", "clubs")
    # Translators: the trumps as a lead's suit, as "%(leader)s led a pair in %(suit)s." takes it.
    return pgettext("the suit of a lead", "trumps")


@register.filter
def in_words(verdict: dict, trick: dict | None) -> dict:
    """The verdict with its reasons in the reader's language: the trick (``trick``, the
    request it answers) judged again, since a saved verdict keeps its reasons in English. A
    trick the engine can no longer judge keeps the saved verdict."""
    reasons = any("reason" in play for play in verdict.get("plays", ()))
    if not reasons or not trick or (get_language() or "en").startswith("en"):
        return verdict
    try:
        return judge_request(trick, gettext, ngettext)
    except ScoringError:
        return verdict


@register.filter
def rules_name(rules: str | dict) -> str:
    """A request's rules: a preset by its title in the reader's language, or a group's own
    table by its name."""
    return rules_title(rules.get("name", "") if isinstance(rules, dict) else rules)
