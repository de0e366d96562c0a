"""The ladder history's filters, and replaying a game under other rules."""

from __future__ import annotations

import dataclasses
from datetime import MAXYEAR, datetime
from typing import NamedTuple

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.forms.choices import GroupRulesField
from companion.forms.layout import Helper
from companion.ladder import months
from companion.models import Group, Player
from scoring import Table, TableError


class Period(NamedTuple):
    """The games started from ``start`` up to ``end`` (None: up to now), and the periods of the
    ladder's tallies they make up (`companion.ladder.periods`)."""

    start: datetime
    end: datetime | None
    tallies: list[str]


class HistoryFilterForm(forms.Form):
    """The ladder history's filters: ``player`` cleans to a player's id (or None for everyone),
    ``period`` to a :class:`Period` (or None for all time). The last 12 months are this month
    and the eleven before it, as the ladder counts by the month."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, empty_value=None, required=False)
    period = forms.ChoiceField(label=_("Period"), required=False)
    helper = Helper("player", "period")

    def __init__(self, *args, players: list[Player], years: list[int], now, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.now = now
        self.fields["player"].choices = [("", _("Everyone"))] + [
            (player.pk, player.name) for player in players
        ]
        self.fields["period"].choices = [
            ("", _("All time")),
            ("12m", _("The last 12 months")),
            *((str(year), str(year)) for year in years),
        ]

    def clean_period(self) -> Period | None:
        period = self.cleaned_data["period"]
        if not period:
            return None
        month = self.now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        if period == "12m":
            first = month.year * 12 + month.month - 1 - 11  # eleven months before this one
            start = month.replace(year=first // 12, month=first % 12 + 1)
            return Period(start, None, months(start, self.now))
        start = month.replace(year=int(period), month=1)
        end = start.replace(year=start.year + 1) if start.year < MAXYEAR else None
        return Period(start, end, [period])


class ReplayRulesForm(forms.Form):
    """The rules to replay a game under: a preset or one of the group's tables (``rules`` cleans
    to the Rules), and the number of decks: ``cleaned_data["table"]`` is the game's ``table``
    with those decks (its own unless another is chosen), as `scoring` accepts it."""

    rules = GroupRulesField(label=_("Replay under"))
    decks = forms.TypedChoiceField(label=_("Decks"), coerce=int, empty_value=None, required=False)
    helper = Helper("rules", "decks")

    def __init__(self, *args, group: Group, table: Table, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.fields["rules"].offer(group)
        self.fields["decks"].choices = [
            ("", _("%(decks)d, as played") % {"decks": table.decks}),
            *((n, str(n)) for n in (2, 3, 4) if n != table.decks),
        ]

    def clean(self) -> dict:
        data = super().clean()
        try:
            data["table"] = dataclasses.replace(
                self.table, decks=data.get("decks") or self.table.decks
            )
        except TableError as error:
            self.add_error("decks", error.in_words(gettext, ngettext))
        return data
