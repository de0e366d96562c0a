"""The hand forms: a hand's end as the table enters it, settled by `scoring`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.forms.choices import (
    FORMAT_CHOICES,
    LEVEL_CHOICES,
    RULES_CHOICES,
    SIDE_CHOICES,
    TRUMP_CHOICES,
)
from companion.models import Hand
from scoring import (
    PRESETS,
    Bid,
    Card,
    CardError,
    Format,
    LastTrick,
    Levels,
    Rank,
    ScoringError,
    Side,
    Suit,
    TakenBack,
    parse_cards,
    settle,
)
from scoring import points as card_points
from scoring.cards import check_copies
from scoring.game import Game as ScoredGame
from scoring.game import HandResult, PlayedHand
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
# The friends field's answer when the called card never turned up (or the declarer played it).
NOBODY = "nobody"


def number_input(top: int, step: int = 5) -> forms.NumberInput:
    return forms.NumberInput(attrs={"step": step, "min": 0, "max": top, "inputmode": "numeric"})


class HandResultForm(forms.Form):
    """What both the calculator and the hand form ask about a hand's end; ``settled`` runs
    `scoring` on it and puts any error beside the field it names."""

    opponent_points = forms.IntegerField(
        label=_("Opponents' points"),
        help_text=_("Card points the opponents won in tricks, kitty not included."),
        widget=number_input(200),
    )
    kitty_points = forms.IntegerField(label=_("Kitty points"), initial=0, widget=number_input(80))
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

    def settled(self, data: dict, compute: Callable[[LastTrick], T]) -> T | None:
        try:
            data["last_trick"] = LastTrick.of(
                data["last_trick_winner"], data["last_trick_format"], data.get("last_trick_cards")
            )
            return compute(data["last_trick"])
        except ScoringError as error:
            # A game names the hand it refused; the error it met there names the field.
            cause = error.__cause__ if isinstance(error.__cause__, ScoringError) else error
            field = ERROR_FIELDS.get(getattr(cause, "field", None) or "")
            if field in self.fields:
                self.add_error(field, str(cause))
            else:
                self.add_error(None, str(error))
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


class HandForm(HandResultForm):
    """One hand as the table enters it, checked by `scoring` against the game so far.

    The game's table shapes it: the declarer is one of those who may start the hand; a
    find-a-friend hand asks who played the called cards; a fixed trump asks no bid and no
    trump; the kitty and the points are bounded by the decks.

    ``cleaned_data["game"]`` is the scored game with this hand in it (its last hand for a new
    hand); ``hand_fields()`` gives the model's fields.
    """

    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=int, widget=forms.RadioSelect)
    friends = forms.MultipleChoiceField(
        label=_("Who played the called card?"),
        help_text=_("The declarer too, if they played it themselves."),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    bid = forms.TypedChoiceField(
        label=_("Bid"),
        choices=Hand.Bid.choices,
        coerce=Bid,
        initial=Hand.Bid.ONE,
        widget=forms.RadioSelect,
    )
    trump = forms.TypedChoiceField(
        label=_("Trump"),
        choices=TRUMP_CHOICES,
        coerce=Suit,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
    )
    kitty_cards = forms.CharField(label=_("Kitty cards"), required=False)
    declarer_cards_taken_back = forms.IntegerField(
        label=_("Cards the declarers took back"),
        help_text=_("From their failed throws."),
        required=False,
        min_value=0,
        initial=0,
        widget=forms.NumberInput(attrs={"min": 0, "max": 100, "inputmode": "numeric"}),
    )
    opponent_cards_taken_back = forms.IntegerField(
        label=_("Cards the opponents took back"),
        help_text=_("From their failed throws."),
        required=False,
        min_value=0,
        initial=0,
        widget=forms.NumberInput(attrs={"min": 0, "max": 100, "inputmode": "numeric"}),
    )

    def __init__(self, *args, game: ScoredGame, number: int, **kwargs) -> None:
        """``game`` is the scored game before this hand; ``number`` the hand's number."""
        super().__init__(*args, **kwargs)
        self.before = game
        self.number = number
        self.table = table = game.table
        state = game.state
        fields = self.fields
        fields["kitty_points"].required = False  # tapping the kitty's cards gives them
        if not game.setup.rules.throws:
            # Nothing is ever taken back where nothing may be thrown.
            del fields["declarer_cards_taken_back"]
            del fields["opponent_cards_taken_back"]
        fields["declarer"].choices = [(seat, table.players[seat]) for seat in state.next_declarers]
        if state.next_declarer is not None:
            fields["declarer"].initial = state.next_declarer
        if table.fixed_teams:
            del fields["friends"]
        else:
            fields["friends"].choices = [
                *((str(seat), name) for seat, name in enumerate(table.players)),
                (NOBODY, _("Nobody")),
            ]
            if (table.called or 1) > 1:
                fields["friends"].label = _("Who played the called cards?")
        if not table.trumps.bids:
            del fields["bid"]
            del fields["trump"]
        fields["kitty_cards"].help_text = _(
            "The %(kitty)d buried cards, like 5H KD TS, or leave empty and give the points."
        ) % {"kitty": table.kitty_cards}
        fields["opponent_points"].widget = number_input(table.deck_points)
        fields["kitty_points"].widget = number_input(table.max_kitty_points)
        fields["last_trick_cards"].widget.attrs["max"] = table.cards_per_player

    def clean_friends(self) -> tuple[int, ...]:
        chosen = self.cleaned_data["friends"]
        if not chosen:
            raise forms.ValidationError(_("Tap who played the called card, or Nobody."))
        if NOBODY in chosen:
            if len(chosen) > 1:
                raise forms.ValidationError(_("Nobody, or the friends who were found: not both."))
            return ()
        return tuple(sorted(int(seat) for seat in chosen))

    def clean_kitty_cards(self) -> tuple[Card, ...]:
        text = self.cleaned_data["kitty_cards"].replace(",", " ")
        if not text.strip():
            return ()
        try:
            cards = parse_cards(text.split())
            check_copies(cards, decks=self.table.decks)
        except CardError as error:
            raise forms.ValidationError(str(error)) from None
        if len(cards) != self.table.kitty_cards:
            raise forms.ValidationError(
                _("The kitty holds exactly %(kitty)d cards; %(count)d were given."),
                params={"kitty": self.table.kitty_cards, "count": len(cards)},
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
        if self.table.trumps.bids:
            trump, bid = data["trump"], data["bid"]
        else:
            trump, bid = self.table.trumps.fixed(self.number), None
        data["trump"], data["bid"] = trump, bid
        data["game"] = self.settled(
            data,
            lambda last_trick: self.before.play(
                HandResult(
                    data["declarer"],
                    data["opponent_points"],
                    data["kitty_points"],
                    last_trick,
                    TakenBack(
                        data.get("declarer_cards_taken_back") or 0,
                        data.get("opponent_cards_taken_back") or 0,
                    ),
                    friends=data.get("friends", ()),
                    trump=trump,
                    bid=bid,
                )
            ),
        )
        return data

    @property
    def scored(self) -> ScoredGame | None:
        """The game with this hand as its last, once the form is valid."""
        return self.cleaned_data["game"] if self.is_valid() else None

    @property
    def played(self) -> PlayedHand | None:
        """The hand as `scoring` settles it, once the form is valid."""
        return self.cleaned_data["game"].hands[-1] if self.is_valid() else None

    def hand_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "declarer": data["declarer"],
            "friends": list(data.get("friends", ())),
            "bid": data["bid"].value if data["bid"] else "",
            "trump": data["trump"].value if data["trump"] else "",
            "kitty_cards": " ".join(str(card) for card in data["kitty_cards"]),
            "kitty_points": data["kitty_points"],
            "opponent_points": data["opponent_points"],
            "last_trick_winner": data["last_trick"].winner.value,
            "last_trick_format": data["last_trick"].format.value,
            "last_trick_cards": data["last_trick"].cards,
            "declarer_cards_taken_back": data.get("declarer_cards_taken_back") or 0,
            "opponent_cards_taken_back": data.get("opponent_cards_taken_back") or 0,
        }

    @classmethod
    def initial_from(cls, hand: Hand) -> dict:
        """The form's fields for a saved hand, to edit it."""
        fields = hand.snapshot()
        del fields["number"]
        fields["friends"] = [str(seat) for seat in hand.friends] or [NOBODY]
        if fields["kitty_cards"]:
            del fields["kitty_points"]
        return fields
