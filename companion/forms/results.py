"""A hand's end as any table enters it, and the calculator's form that settles it alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.forms.choices import FORMAT_CHOICES, LEVEL_CHOICES, RULES_CHOICES, SIDE_CHOICES
from companion.forms.layout import Helper
from scoring import PRESETS, Format, LastTrick, Levels, Rank, ScoringError, Side, settle
from scoring.settle import Settlement
from scoring.table import MAX_PLAYERS, MIN_PLAYERS, deal, default_decks

T = TypeVar("T")

# Which form field shows an engine error about each of the engine's inputs.
ERROR_FIELDS = {
    "opponent_points": "opponent_points",
    "kitty_points": "kitty_points",
    "last_trick": "last_trick_cards",
    "taken_back": "declarer_cards_taken_back",
    "declarer": "declarer",
    "friends": "friends",
    "trump": "trump",
    "bid": "bid",
}
PLAYERS_CHOICES = [(count, str(count)) for count in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
DECKS_CHOICES = [
    (decks, str(decks)) for decks in sorted({default_decks(count) for count, _ in PLAYERS_CHOICES})
]
WHOLE_NUMBER = _("Write a whole number, like 45.")


def number_input(top: int, step: int = 5) -> forms.NumberInput:
    return forms.NumberInput(attrs={"step": step, "min": 0, "max": top, "inputmode": "numeric"})


class HandResultForm(forms.Form):
    """What both the calculator and the hand form ask about a hand's end; ``settled`` runs
    `scoring` on it and puts any error, in the players' words, beside the field it names."""

    opponent_points = forms.IntegerField(
        label=_("Opponents' points"),
        help_text=_("Card points the opponents won in tricks, kitty not included."),
        error_messages={"required": _("Give the opponents' points."), "invalid": WHOLE_NUMBER},
        widget=number_input(200),
    )
    kitty_points = forms.IntegerField(
        label=_("Kitty points"),
        initial=0,
        error_messages={"invalid": WHOLE_NUMBER},
        widget=number_input(80),
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
        error_messages={"invalid": WHOLE_NUMBER},
        widget=forms.NumberInput(attrs={"min": 1, "max": 25, "inputmode": "numeric"}),
    )

    def settled(self, data: dict, compute: Callable[[LastTrick], T]) -> T | None:
        try:
            data["last_trick"] = LastTrick.of(
                data["last_trick_winner"], data["last_trick_format"], data.get("last_trick_cards")
            )
            return compute(data["last_trick"])
        except ScoringError as error:
            field = ERROR_FIELDS.get(getattr(error, "field", None) or "")
            self.add_error(
                field if field in self.fields else None, error.in_words(gettext, ngettext)
            )
        return None


class SettleForm(HandResultForm):
    """A hand's result at any table, settled by `scoring` in ``clean``:
    ``cleaned_data["settlement"]``."""

    rules = forms.TypedChoiceField(
        label=_("Rules"), choices=RULES_CHOICES, coerce=PRESETS.__getitem__, initial="standard"
    )
    # Four players and two decks unless told: the table the calculator was first made for.
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=PLAYERS_CHOICES,
        coerce=int,
        initial=MIN_PLAYERS,
        required=False,
        empty_value=MIN_PLAYERS,
    )
    decks = forms.TypedChoiceField(
        label=_("Decks"),
        choices=DECKS_CHOICES,
        coerce=int,
        initial=2,
        required=False,
        empty_value=2,
    )
    declarers_level = forms.TypedChoiceField(
        label=_("Declarers' level"), choices=LEVEL_CHOICES, coerce=Rank.parse
    )
    opponents_level = forms.TypedChoiceField(
        label=_("Opponents' level"), choices=LEVEL_CHOICES, coerce=Rank.parse
    )
    short_handed = forms.BooleanField(
        label=_("Short-handed: fewer friends found than cards called"),
        help_text=_("Find a friend: a short-handed side that holds climbs one level more."),
        required=False,
    )
    helper = Helper(
        "rules",
        "players",
        "decks",
        "declarers_level",
        "opponents_level",
        "opponent_points",
        "kitty_points",
        "last_trick_winner",
        "last_trick_format",
        "last_trick_cards",
        "short_handed",
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The most points any table holds: the engine says which are too many for this one.
        most = max(decks for decks, _label in DECKS_CHOICES)
        self.fields["opponent_points"].widget = number_input(100 * most)
        self.fields["kitty_points"].widget = number_input(10 * deal(MIN_PLAYERS, most)[1])

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        players, decks = data["players"], data["decks"]
        data["settlement"] = self.settled(
            data,
            lambda last_trick: settle(
                data["rules"],
                Levels(declarers=data["declarers_level"], opponents=data["opponents_level"]),
                opponent_points=data["opponent_points"],
                kitty_points=data["kitty_points"],
                last_trick=last_trick,
                decks=decks,
                kitty_cards=deal(players, decks)[1],
                players=players,
                short_handed=data["short_handed"],
            ),
        )
        return data

    @property
    def settlement(self) -> Settlement | None:
        return self.cleaned_data.get("settlement") if self.is_valid() else None
