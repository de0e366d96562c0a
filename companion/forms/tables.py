"""A group's own scoring tables."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from companion.forms.choices import (
    SIDE_CHOICES,
)
from companion.forms.layout import Field, Helper
from companion.models import Group, ScoringTable
from scoring import (
    PRESETS,
    Band,
    GameEnd,
    KittyRule,
    Rules,
    RulesError,
    Side,
    Starter,
    TractorFollow,
    rules_from_json,
)
from scoring.rules import MAX_BAND_POINTS, MAX_LEVELS, MAX_THROW_PENALTY

KITTY_CHOICES = [
    (KittyRule.DOUBLE.value, _("×2, whatever the last trick")),
    (KittyRule.PER_CARD.value, _("×2 per card each player played to the last trick")),
    (KittyRule.PER_PAIR.value, _("×2 single, ×4 pair, ×8 tractor: doubling per pair")),
]
GAME_END_CHOICES = [
    (GameEnd.HOLD_AT_ACE.value, _("Levels stop at A: win a hand declaring at A")),
    (GameEnd.PAST_ACE.value, _("The first team to climb past A wins")),
]
STARTER_CHOICES = [
    (Starter.BID.value, _("The bid decides")),
    (Starter.ROTATE.value, _("Rotate: the partner if the declarers hold, else to the right")),
]
TRACTOR_FOLLOW_CHOICES = [
    (TractorFollow.TRACTOR.value, _("A tractor of the same length, if held")),
    (TractorFollow.PAIRS.value, _("As many pairs as possible")),
]
POINTS_WIDGET = {"step": 5, "min": 0, "max": MAX_BAND_POINTS, "inputmode": "numeric"}
POINTS = {"min_value": 0, "max_value": MAX_BAND_POINTS}


class BandForm(forms.Form):
    """One row of a scoring table; `scoring` judges the rows together."""

    low = forms.IntegerField(
        label=_("From"), **POINTS, widget=forms.NumberInput(attrs=POINTS_WIDGET)
    )
    high = forms.IntegerField(
        label=_("To"),
        **POINTS,
        required=False,
        widget=forms.NumberInput(
            attrs={
                **POINTS_WIDGET,
                "placeholder": pgettext_lazy("a band with no upper end", "more"),
            }
        ),
    )
    winner = forms.TypedChoiceField(
        label=_("Winner"), choices=SIDE_CHOICES, coerce=Side, widget=forms.RadioSelect
    )
    levels = forms.IntegerField(
        label=_("Levels"),
        min_value=0,
        max_value=MAX_LEVELS,
        widget=forms.NumberInput(attrs={"min": 0, "max": MAX_LEVELS, "inputmode": "numeric"}),
    )
    every = forms.IntegerField(
        label=_("Every"),
        min_value=5,
        max_value=MAX_BAND_POINTS,
        required=False,
        help_text=_("One more level per this many points more."),
        widget=forms.NumberInput(attrs={**POINTS_WIDGET, "min": 5}),
    )

    helper = Helper(
        # A band is a row under the page's column headings: its labels are for screen readers.
        Field("low", "high", "levels", "every", hide_label=True),
        Field("winner", hide_label=True, sides=True),
        Field("DELETE", remove=True),
    )

    def band(self) -> Band | None:
        """The row as far as it reads (for the preview), or None if it is not a band yet."""
        data = getattr(self, "cleaned_data", {})
        if data.get("DELETE") or any(data.get(key) is None for key in ("low", "winner", "levels")):
            return None
        return Band(
            data["low"], data.get("high"), data["winner"], data["levels"], data.get("every")
        )


BAND_LABELS = {
    "low": _("Band %(n)s: from"),
    "high": _("Band %(n)s: to"),
    "levels": _("Band %(n)s: levels"),
    "every": _("Band %(n)s: every"),
    "winner": _("Band %(n)s: winner"),
    "DELETE": _("Remove band %(n)s"),
}


class BaseBandFormSet(forms.BaseFormSet):
    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        form.fields["DELETE"].help_text = _("Remove this band")
        if index is not None:
            for name, label in BAND_LABELS.items():
                form.fields[name].label = label % {"n": index + 1}


# Every preset needs at most 7 bands; 40 leaves room for any house table a phone can show.
MAX_BANDS = 40
BandFormSet = forms.formset_factory(
    BandForm,
    BaseBandFormSet,
    extra=0,
    min_num=1,
    max_num=MAX_BANDS,
    absolute_max=MAX_BANDS,
    validate_max=True,
    can_delete=True,
)


class ScoringTableForm(forms.Form):
    """A group's scoring table and its ``bands`` formset; ``cleaned_data["rules"]`` is the
    `scoring.Rules` they describe. `scoring` judges the table: an error naming "band N" is
    shown on that row, any other beside the whole form."""

    name = forms.CharField(label=_("Table name"), max_length=40)
    kitty = forms.TypedChoiceField(
        label=_("Kitty bonus when the opponents win the last trick"),
        choices=KITTY_CHOICES,
        coerce=KittyRule,
        initial=KittyRule.DOUBLE.value,
        widget=forms.RadioSelect,
    )
    game_end = forms.TypedChoiceField(
        label=_("Game end"),
        choices=GAME_END_CHOICES,
        coerce=GameEnd,
        initial=GameEnd.HOLD_AT_ACE.value,
        widget=forms.RadioSelect,
    )
    starter = forms.TypedChoiceField(
        label=_("Who starts the next hand"),
        choices=STARTER_CHOICES,
        coerce=Starter,
        initial=Starter.BID.value,
    )
    throws = forms.BooleanField(label=_("Throws allowed"), required=False)
    throw_penalty = forms.IntegerField(
        label=_("Penalty per card taken back from a failed throw"),
        initial=0,
        min_value=0,
        max_value=MAX_THROW_PENALTY,
        widget=forms.NumberInput(attrs={**POINTS_WIDGET, "max": MAX_THROW_PENALTY}),
    )
    tractor_follow = forms.TypedChoiceField(
        label=_("A tractor led obliges"),
        choices=TRACTOR_FOLLOW_CHOICES,
        coerce=TractorFollow,
        initial=TractorFollow.TRACTOR.value,
    )
    no_trump_level_cards = forms.BooleanField(
        label=_("In a hand without trump, the level cards are trumps too (not in open-ladder)"),
        required=False,
        initial=True,
    )

    helper = Helper(
        "name",
        Field("kitty", "game_end", list=True),
        "starter",
        "no_trump_level_cards",
        "throws",
        "throw_penalty",
        "tractor_follow",
    )

    def __init__(
        self,
        data=None,
        *,
        group: Group,
        table: ScoringTable | None = None,
        start: Rules | None = None,
    ) -> None:
        """``start`` prefills the form from a preset; else it shows ``table``'s rules."""
        rules = start or (table.rules if table else None)
        initial: dict = {}
        bands: list[dict] = []
        if rules is not None:
            initial = {
                "name": str(table) if table else "",
                "kitty": rules.kitty.value,
                "game_end": rules.game_end.value,
                "starter": rules.starter.value,
                "throws": rules.throws,
                "throw_penalty": rules.throw_penalty,
                "tractor_follow": rules.tractor_follow.value,
                "no_trump_level_cards": rules.no_trump_level_cards,
            }
            bands = [
                {
                    "low": band.low,
                    "high": band.high,
                    "winner": band.winner.value,
                    "levels": band.levels,
                    "every": band.every,
                }
                for band in rules.bands
            ]
        super().__init__(data, initial=initial)
        self.group = group
        self.table = table
        self.rules = rules
        self.bands = BandFormSet(data, initial=bands, prefix="band")

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if name.lower() in PRESETS:
            raise forms.ValidationError(
                _("%(name)s is a preset's name: choose another."), params={"name": name}
            )
        tables = self.group.scoring_tables.filter(rules_json__name__iexact=name)
        if self.table is not None:
            tables = tables.exclude(pk=self.table.pk)
        if tables.exists():
            raise forms.ValidationError(
                _("The group already has a table called %(name)s."), params={"name": name}
            )
        return name

    def clean(self) -> dict:
        data = super().clean()
        if not self.bands.is_valid() or self.errors:
            return data
        rows = [form for form in self.bands.forms if form.band() is not None]
        try:
            data["rules"] = rules_from_json(
                {
                    "name": data["name"],
                    "bands": [
                        {
                            "from": form.cleaned_data["low"],
                            "to": form.cleaned_data["high"],
                            "winner": form.cleaned_data["winner"].value,
                            "levels": form.cleaned_data["levels"],
                            "every": form.cleaned_data["every"],
                        }
                        for form in rows
                    ],
                    "kitty": data["kitty"].value,
                    "game_end": data["game_end"].value,
                    "starter": data["starter"].value,
                    "throws": data["throws"],
                    "throw_penalty": data["throw_penalty"],
                    "tractor_follow": data["tractor_follow"].value,
                    "no_trump_level_cards": data["no_trump_level_cards"],
                }
            )
        except RulesError as error:
            said = error.in_words(gettext, ngettext)
            if error.band is not None and 0 < error.band <= len(rows):
                rows[error.band - 1].add_error(None, said)
            else:
                self.add_error(None, said)
        return data

    def is_valid(self) -> bool:
        return super().is_valid() and self.bands.is_valid()

    def preview_bands(self) -> list[Band]:
        """The rows as far as they read, for the live preview even while they are wrong."""
        if not self.is_bound:
            return list(self.rules.bands) if self.rules else []
        self.is_valid()
        return [band for form in self.bands.forms if (band := form.band()) is not None]

    def with_new_band(self) -> ScoringTableForm:
        """The submitted form again, unchecked, with one blank row more ("Add a band")."""
        rows = [
            {name: form[name].value() for name in BandForm.base_fields}
            for form in self.bands.forms
            if not form["DELETE"].value()
        ]
        again = ScoringTableForm(group=self.group, table=self.table)
        again.initial = {name: self[name].value() for name in self.fields}
        again.bands = BandFormSet(
            initial=[row for row in rows if any(v not in (None, "") for v in row.values())],
            prefix="band",
        )
        again.bands.extra = 1
        return again
