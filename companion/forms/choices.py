"""The choices several forms offer, in the players' words, and the rules a group may play."""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from companion.display import rules_title
from companion.models import Group
from scoring import NO_TRUMP, PRESETS, Format, Rank, Rules, Side

LEVEL_CHOICES = [(rank.symbol, rank.spoken) for rank in Rank]
# A preset by its title in the reader's language, chosen when the form is shown.
RULES_CHOICES = [(name, lazy(rules_title, str)(name)) for name in PRESETS]
SIDE_CHOICES = [(Side.DECLARERS.value, _("Declarers")), (Side.OPPONENTS.value, _("Opponents"))]
FORMAT_CHOICES = [
    (Format.SINGLE.value, _("Single")),
    (Format.PAIR.value, _("Pair")),
    (Format.TRACTOR.value, _("Tractor")),
    (Format.THROW.value, _("Throw")),
]
# A hand's trump as the hand and dispute forms offer it: no trump is an answer of its own, told
# apart from none tapped (NOT_DECLARED).
TRUMP_CHOICES = [
    ("S", "♠"),
    ("H", "♥"),
    ("D", "♦"),
    ("C", "♣"),
    (NO_TRUMP, _("No trump")),
]


class GroupRulesField(forms.ChoiceField):
    """A preset or one of the group's own tables (after :meth:`offer`), cleaned to its Rules."""

    def offer(self, group: Group) -> None:
        self.tables = {f"table-{table.pk}": table for table in group.scoring_tables.all()}
        choices: list = [(_("Presets"), RULES_CHOICES)]
        if self.tables:
            choices.append(
                (_("Our tables"), [(key, str(table)) for key, table in self.tables.items()])
            )
        self.choices = choices

    def clean(self, value: object) -> Rules:
        key = super().clean(value)
        return PRESETS[key] if key in PRESETS else self.tables[key].rules
