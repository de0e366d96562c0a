"""The choices several forms offer, in the players' words."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from companion.display import rules_title
from scoring import PRESETS, Format, Rank, Side

LEVEL_CHOICES = [(rank.symbol, "10" if rank is Rank.TEN else rank.symbol) for rank in Rank]
# A preset by its title in the reader's language, chosen when the form is shown.
RULES_CHOICES = [(name, lazy(rules_title, str)(name)) for name in PRESETS]
SIDE_CHOICES = [(Side.DECLARERS.value, _("Declarers")), (Side.OPPONENTS.value, _("Opponents"))]
FORMAT_CHOICES = [
    (Format.SINGLE.value, _("Single")),
    (Format.PAIR.value, _("Pair")),
    (Format.TRACTOR.value, _("Tractor")),
    (Format.THROW.value, _("Throw")),
]
TRUMP_CHOICES = [
    ("S", "♠"),
    ("H", "♥"),
    ("D", "♦"),
    ("C", "♣"),
    ("", _("No trump")),
]
