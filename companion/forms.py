"""Forms read the table's input and return the engine's values; `scoring` says what is valid."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import PRESETS, Format, LastTrick, Levels, Rank, SettleError, Side, settle
from scoring.settle import Settlement

LEVEL_CHOICES = [(rank.symbol, "10" if rank is Rank.TEN else rank.symbol) for rank in Rank]
RULES_CHOICES = [(name, name) for name in PRESETS]
SIDE_CHOICES = [(Side.DECLARERS.value, _("Declarers")), (Side.OPPONENTS.value, _("Opponents"))]
FORMAT_CHOICES = [
    (Format.SINGLE.value, _("Single")),
    (Format.PAIR.value, _("Pair")),
    (Format.TRACTOR.value, _("Tractor")),
    (Format.THROW.value, _("Throw")),
]

# Which form field shows an engine error about each of the engine's inputs.
ERROR_FIELDS = {
    "opponent_points": "opponent_points",
    "kitty_points": "kitty_points",
    "last_trick": "last_trick_cards",
}


class SettleForm(forms.Form):
    """A hand's result, settled by `scoring` in ``clean``: ``cleaned_data["settlement"]``."""

    rules = forms.TypedChoiceField(
        label=_("Rules"), choices=RULES_CHOICES, coerce=PRESETS.__getitem__, initial="standard"
    )
    declarers_level = forms.TypedChoiceField(
        label=_("Declarers' level"), choices=LEVEL_CHOICES, coerce=Rank.parse
    )
    opponents_level = forms.TypedChoiceField(
        label=_("Opponents' level"), choices=LEVEL_CHOICES, coerce=Rank.parse
    )
    opponent_points = forms.IntegerField(
        label=_("Opponents' points"),
        help_text=_("Card points the opponents won in tricks, kitty not included."),
        widget=forms.NumberInput(attrs={"step": 5, "min": 0, "max": 200, "inputmode": "numeric"}),
    )
    kitty_points = forms.IntegerField(
        label=_("Kitty points"),
        initial=0,
        widget=forms.NumberInput(attrs={"step": 5, "min": 0, "max": 80, "inputmode": "numeric"}),
    )
    last_trick_winner = forms.TypedChoiceField(
        label=_("Last trick won by"),
        coerce=Side,
        choices=SIDE_CHOICES,
        initial=Side.DECLARERS.value,
        widget=forms.RadioSelect,
    )
    last_trick_format = forms.TypedChoiceField(
        label=_("Last trick led as"),
        coerce=Format,
        choices=FORMAT_CHOICES,
        initial=Format.SINGLE.value,
        widget=forms.RadioSelect,
    )
    last_trick_cards = forms.IntegerField(
        label=_("Cards each player played to it"),
        required=False,
        min_value=1,
        help_text=_("Needed for a tractor or a throw."),
        widget=forms.NumberInput(attrs={"min": 1, "max": 25, "inputmode": "numeric"}),
    )

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        try:
            last_trick = LastTrick.of(
                data["last_trick_winner"],
                data["last_trick_format"],
                data.get("last_trick_cards"),
            )
            data["settlement"] = settle(
                data["rules"],
                Levels(declarers=data["declarers_level"], opponents=data["opponents_level"]),
                opponent_points=data["opponent_points"],
                kitty_points=data["kitty_points"],
                last_trick=last_trick,
            )
        except SettleError as error:
            self.add_error(ERROR_FIELDS.get(error.field or ""), str(error))
        return data

    @property
    def settlement(self) -> Settlement | None:
        return self.cleaned_data.get("settlement") if self.is_valid() else None
