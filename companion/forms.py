"""Forms read the table's input and return the engine's values; `scoring` says what is valid."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.models import Hand
from scoring import (
    PRESETS,
    Card,
    CardError,
    Format,
    LastTrick,
    Levels,
    Rank,
    ScoringError,
    SettleError,
    Side,
    parse_cards,
    settle,
)
from scoring import points as card_points
from scoring.cards import check_copies
from scoring.game import Game as ScoredGame
from scoring.game import HandResult, PlayedHand, Seat
from scoring.settle import KITTY_CARDS, Settlement

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


SEAT_NAMES = {
    Seat.NORTH: _("North"),
    Seat.EAST: _("East"),
    Seat.SOUTH: _("South"),
    Seat.WEST: _("West"),
}
TRUMP_CHOICES = [
    ("S", "♠"),
    ("H", "♥"),
    ("D", "♦"),
    ("C", "♣"),
    ("", _("No trump")),
]


class HandForm(forms.Form):
    """One hand as the table enters it, checked by `scoring` against the game so far.

    ``cleaned_data["game"]`` is the scored game with this hand in it (its last hand for a new
    hand); ``hand_fields()`` gives the model's fields.
    """

    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=Seat, widget=forms.RadioSelect)
    bid = forms.ChoiceField(
        label=_("Bid"), choices=Hand.Bid.choices, initial=Hand.Bid.ONE, widget=forms.RadioSelect
    )
    trump = forms.ChoiceField(
        label=_("Trump"), choices=TRUMP_CHOICES, required=False, widget=forms.RadioSelect
    )
    kitty_cards = forms.CharField(
        label=_("Kitty cards"),
        required=False,
        help_text=_("The 8 buried cards, like 5H KD TS, or leave empty and give the points."),
    )
    kitty_points = forms.IntegerField(
        label=_("Kitty points"),
        required=False,
        widget=forms.NumberInput(attrs={"step": 5, "min": 0, "max": 80, "inputmode": "numeric"}),
    )
    opponent_points = forms.IntegerField(
        label=_("Opponents' points"),
        help_text=_("Card points the opponents won in tricks, kitty not included."),
        widget=forms.NumberInput(attrs={"step": 5, "min": 0, "max": 200, "inputmode": "numeric"}),
    )
    last_trick_winner = forms.TypedChoiceField(
        label=_("Last trick won by"),
        choices=SIDE_CHOICES,
        coerce=Side,
        initial=Side.DECLARERS.value,
        widget=forms.RadioSelect,
    )
    last_trick_format = forms.TypedChoiceField(
        label=_("Last trick led as"),
        choices=FORMAT_CHOICES,
        coerce=Format,
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

    def __init__(self, *args, game: ScoredGame, number: int, players: dict, **kwargs) -> None:
        """``game`` is the scored game before this hand; ``number`` the hand's number."""
        super().__init__(*args, **kwargs)
        self.before = game
        self.number = number
        state = game.state
        seats = list(Seat)
        if state.starter is not None:
            seats = [state.starter]
        elif state.declarers is not None:
            seats = list(state.declarers.seats)
        self.fields["declarer"].choices = [
            (seat.value, f"{SEAT_NAMES[seat]}: {players[seat]}") for seat in seats
        ]
        if len(seats) == 1:
            self.fields["declarer"].initial = seats[0].value

    def clean_kitty_cards(self) -> tuple[Card, ...]:
        text = self.cleaned_data["kitty_cards"].replace(",", " ")
        if not text.strip():
            return ()
        try:
            cards = parse_cards(text.split())
            check_copies(cards, decks=2)
        except CardError as error:
            raise forms.ValidationError(str(error)) from None
        if len(cards) != KITTY_CARDS:
            raise forms.ValidationError(
                _("The kitty holds exactly %(kitty)d cards; %(count)d were given."),
                params={"kitty": KITTY_CARDS, "count": len(cards)},
            )
        return cards

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        if data["kitty_cards"]:
            data["kitty_points"] = card_points(data["kitty_cards"])
        elif data.get("kitty_points") is None:
            self.add_error("kitty_points", _("Give the kitty's points, or tap its cards."))
            return data
        try:
            last_trick = LastTrick.of(
                data["last_trick_winner"], data["last_trick_format"], data.get("last_trick_cards")
            )
            data["last_trick"] = last_trick
            result = HandResult(
                data["declarer"], data["opponent_points"], data["kitty_points"], last_trick
            )
            data["game"] = self.before.play(result)
        except SettleError as error:
            self.add_error(ERROR_FIELDS.get(error.field or ""), str(error))
        except ScoringError as error:
            self.add_error(None, str(error))
        return data

    @property
    def played(self) -> PlayedHand | None:
        """The hand as `scoring` settles it, once the form is valid."""
        return self.cleaned_data["game"].hands[-1] if self.is_valid() else None

    def hand_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "declarer": data["declarer"].value,
            "bid": data["bid"],
            "trump": data["trump"],
            "kitty_cards": " ".join(str(card) for card in data["kitty_cards"]),
            "kitty_points": data["kitty_points"],
            "opponent_points": data["opponent_points"],
            "last_trick_winner": data["last_trick"].winner.value,
            "last_trick_format": data["last_trick"].format.value,
            "last_trick_cards": data["last_trick"].cards,
        }

    @classmethod
    def initial_from(cls, hand: Hand) -> dict:
        """The form's fields for a saved hand, to edit it."""
        fields = hand.snapshot()
        del fields["number"]
        if fields["kitty_cards"]:
            del fields["kitty_points"]
        return fields
