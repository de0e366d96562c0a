"""The ladder history's filters, and replaying a game under other rules."""

from __future__ import annotations

import dataclasses
from datetime import MAXYEAR, timedelta

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.forms.choices import GroupRulesField
from companion.models import Group, Player
from scoring import Table, TableError


class HistoryFilterForm(forms.Form):
    """The ladder history's filters: ``player`` cleans to a player's id (or None for everyone),
    ``period`` to the (start, end) datetimes a game must start within (or None for all time)."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int, empty_value=None, required=False)
    period = forms.ChoiceField(label=_("Period"), required=False)

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

    def clean_period(self):
        period = self.cleaned_data["period"]
        if not period:
            return None
        if period == "12m":
            return (self.now - timedelta(days=365), self.now)
        start = self.now.replace(
            year=int(period), month=1, day=1, hour=0, minute=0, second=0, microsecond=0
        )
        if start.year == MAXYEAR:  # no year follows it: the period ends with the calendar
            return (start, start.replace(month=12, day=31, hour=23, minute=59, second=59))
        return (start, start.replace(year=start.year + 1))


class ReplayRulesForm(forms.Form):
    """The rules to replay a game under: a preset or one of the group's tables (``rules`` cleans
    to the Rules), and the number of decks: ``cleaned_data["table"]`` is the game's ``table``
    with those decks (its own unless another is chosen), as `scoring` accepts it."""

    rules = GroupRulesField(label=_("Replay under"))
    decks = forms.TypedChoiceField(label=_("Decks"), coerce=int, empty_value=None, required=False)

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
