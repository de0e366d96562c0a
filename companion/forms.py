"""Forms read the table's input and return the engine's values; `scoring` says what is valid."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import TypeVar

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from companion import exchange
from companion.models import Group, Hand, Player, ScoringTable
from scoring import (
    PRESETS,
    Band,
    Card,
    CardError,
    Format,
    GameEnd,
    KittyRule,
    LastTrick,
    Levels,
    Play,
    PlayError,
    Rank,
    Rules,
    RulesError,
    ScoringError,
    SettleError,
    Side,
    Starter,
    Suit,
    TakenBack,
    TractorFollow,
    Trump,
    judge,
    parse_cards,
    rules_from_json,
    settle,
)
from scoring import points as card_points
from scoring.cards import check_copies
from scoring.cli import judge_input
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

T = TypeVar("T")

# Which form field shows an engine error about each of the engine's inputs.
ERROR_FIELDS = {
    "opponent_points": "opponent_points",
    "kitty_points": "kitty_points",
    "last_trick": "last_trick_cards",
    "taken_back": "declarer_cards_taken_back",
}


class HandResultForm(forms.Form):
    """What both the calculator and the hand form ask about a hand's end; ``settled`` runs
    `scoring` on it and puts any error beside the field it names."""

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

    def settled(self, data: dict, compute: Callable[[LastTrick], T]) -> T | None:
        try:
            data["last_trick"] = LastTrick.of(
                data["last_trick_winner"], data["last_trick_format"], data.get("last_trick_cards")
            )
            return compute(data["last_trick"])
        except ScoringError as error:
            # A game names the hand it refused; the settlement's own error names the field.
            cause = error.__cause__ if isinstance(error.__cause__, SettleError) else error
            if isinstance(cause, SettleError):
                self.add_error(ERROR_FIELDS.get(cause.field or ""), str(cause))
            else:
                self.add_error(None, str(error))
        return None


class SettleForm(HandResultForm):
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

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        data["settlement"] = self.settled(
            data,
            lambda last_trick: settle(
                data["rules"],
                Levels(declarers=data["declarers_level"], opponents=data["opponents_level"]),
                opponent_points=data["opponent_points"],
                kitty_points=data["kitty_points"],
                last_trick=last_trick,
            ),
        )
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


class HandForm(HandResultForm):
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

    def __init__(self, *args, game: ScoredGame, number: int, players: dict, **kwargs) -> None:
        """``game`` is the scored game before this hand; ``number`` the hand's number."""
        super().__init__(*args, **kwargs)
        self.fields["kitty_points"].required = False  # tapping the kitty's cards gives them
        if not game.setup.rules.throws:
            # Nothing is ever taken back where nothing may be thrown.
            del self.fields["declarer_cards_taken_back"]
            del self.fields["opponent_cards_taken_back"]
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
                )
            ),
        )
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
            "declarer_cards_taken_back": data.get("declarer_cards_taken_back") or 0,
            "opponent_cards_taken_back": data.get("opponent_cards_taken_back") or 0,
        }

    @classmethod
    def initial_from(cls, hand: Hand) -> dict:
        """The form's fields for a saved hand, to edit it."""
        fields = hand.snapshot()
        del fields["number"]
        if fields["kitty_cards"]:
            del fields["kitty_points"]
        return fields


# A disputed trick, judged by `scoring`.

NO_TRUMP = "none"
DISPUTE_TRUMP_CHOICES = [*TRUMP_CHOICES[:4], (NO_TRUMP, _("No trump"))]
DECKS_CHOICES = [(2, _("2 · 4 players")), (3, _("3 · 6 players")), (4, _("4 · 8 players"))]
GAME_RULES = "game"
CARDS_WIDGET = {
    "class": "cards-input",
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
}


class CardsField(forms.CharField):
    """Cards typed or tapped as codes (``5H 5H``, ``10♠``, ``bj``); cleans to `scoring` cards."""

    def to_python(self, value: object) -> tuple[Card, ...]:
        text = super().to_python(value)
        try:
            return parse_cards(text.replace(",", " ").split())
        except CardError as error:
            raise forms.ValidationError(str(error)) from None


class DisputeForm(forms.Form):
    """A disputed trick as the table taps it in, judged by `scoring` in ``clean``.

    ``players`` are ``(key, name)`` around the table in play order. ``seated``: they are a
    game's four seats and the ``leader`` field says who led; otherwise the first leads and the
    table has two players per deck. Each player has a ``play_<key>`` field (the cards put on the
    table) and a ``hand_<key>`` field (optional: the cards held before the trick).
    Once valid, ``cleaned_data`` holds ``judgement``, ``request`` (the trick as a
    ``python -m scoring judge`` request) and ``verdict`` (the judge's answer as JSON).
    """

    rules = forms.ChoiceField(label=_("Rules"))
    level = forms.TypedChoiceField(
        label=_("Level"),
        choices=[("", "—"), *LEVEL_CHOICES],
        coerce=Rank.parse,
        error_messages={"required": _("Choose the level being played.")},
    )
    trump = forms.TypedChoiceField(
        label=_("Trump"),
        choices=DISPUTE_TRUMP_CHOICES,
        coerce=lambda value: None if value == NO_TRUMP else Suit.parse(value),
        widget=forms.RadioSelect,
        error_messages={"required": _("Tap the trump suit, or No trump.")},
    )
    decks = forms.TypedChoiceField(
        label=_("Decks"), choices=DECKS_CHOICES, coerce=int, initial=2, widget=forms.RadioSelect
    )

    def __init__(
        self,
        data=None,
        *,
        players: list[tuple[str, str]],
        seated: bool = False,
        own_rules: Rules | None = None,
        hand_numbers: list[tuple[int, str]] | None = None,
        initial: dict | None = None,
    ) -> None:
        super().__init__(data, initial=initial)
        self.players = players
        self.seated = seated
        self.own_rules = own_rules
        choices = [(name, name) for name in PRESETS]
        if own_rules is not None and PRESETS.get(own_rules.name) != own_rules:
            choices.append((GAME_RULES, own_rules.name))
        self.fields["rules"].choices = choices
        self.fields["rules"].initial = "standard"
        if seated:
            self.fields["leader"] = forms.ChoiceField(
                label=_("Led by"), choices=players, widget=forms.RadioSelect
            )
        for key, name in players:
            self.fields[f"play_{key}"] = CardsField(
                label=_("%(name)s played") % {"name": name},
                required=False,
                widget=forms.TextInput(
                    attrs={**CARDS_WIDGET, "placeholder": _("Cards on the table")}
                ),
            )
            self.fields[f"hand_{key}"] = CardsField(
                label=_("%(name)s's hand before the trick") % {"name": name},
                required=False,
                widget=forms.TextInput(
                    attrs={**CARDS_WIDGET, "placeholder": _("Cards held before the trick")}
                ),
            )
        if hand_numbers:
            self.fields["hand_number"] = forms.TypedChoiceField(
                label=_("Save it as a precedent of"), choices=hand_numbers, coerce=int
            )

    def clean_rules(self) -> Rules:
        key = self.cleaned_data["rules"]
        return self.own_rules if key == GAME_RULES and self.own_rules else PRESETS[key]

    def play_order(self, leader: str | None, decks: int) -> list[tuple[str, str]]:
        """The players at the table, the leader first."""
        table = self.players
        if not self.seated:
            table = table[: 2 * decks]
        keys = [key for key, _name in table]
        start = keys.index(leader) if leader in keys else 0
        return table[start:] + table[:start]

    def seats(self) -> list[dict]:
        """The players as the page lists them: the table in play order, then the empty seats
        of a larger table (standalone), hidden."""
        try:
            decks = int(self["decks"].value())
        except (TypeError, ValueError):
            decks = 2
        leader = self["leader"].value() if self.seated else None
        order = self.play_order(leader, decks)
        rest = [player for player in self.players if player not in order]
        return [
            {
                "key": key,
                "name": name,
                "play": self[f"play_{key}"],
                "hand": self[f"hand_{key}"],
                "leads": index == 0,
                "hidden": index >= len(order),
                "index": self.players.index((key, name)),
            }
            for index, (key, name) in enumerate([*order, *rest])
        ]

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        order = self.play_order(data.get("leader"), data["decks"])
        plays: list[Play] = []
        waiting: tuple[str, str] | None = None
        for key, name in order:
            cards = data[f"play_{key}"]
            if not cards:
                waiting = waiting or (key, name)
            elif waiting is not None:
                self._missing_play(waiting, later=name, leads=waiting == order[0])
                return data
            else:
                plays.append(Play(name, cards))
        if not plays:
            self._missing_play(order[0], later=None, leads=True)
            return data
        hands = {name: data[f"hand_{key}"] for key, name in order if data[f"hand_{key}"]}
        trump = Trump(data["level"], data["trump"], data["decks"])
        try:
            judgement = judge(data["rules"], trump, plays, hands)
        except PlayError as error:
            keys = {name: key for key, name in order}
            field = None
            if error.player in keys and error.part in ("play", "hand"):
                field = f"{error.part}_{keys[error.player]}"
            self.add_error(field, str(error))
        except ScoringError as error:
            self.add_error(None, str(error))
        else:
            data["judgement"] = judgement
            data["request"] = judge_input(data["rules"], trump, plays, hands)
            data["verdict"] = judgement.to_json()
            data["complete"] = len(plays) == len(order)
        return data

    def _missing_play(self, player: tuple[str, str], *, later: str | None, leads: bool) -> None:
        key, name = player
        if leads:
            message = _("Give the cards %(player)s led.") % {"player": name}
        else:
            message = _("%(player)s plays before %(later)s: give %(player)s's cards too.") % {
                "player": name,
                "later": later,
            }
        self.add_error(f"play_{key}", message)

    @property
    def verdict(self) -> dict | None:
        return self.cleaned_data.get("verdict") if self.is_valid() else None


# Accounts, groups, rosters, scoring tables, new games.


class SignupForm(UserCreationForm):
    """Django's sign-up form, with the e-mail address that a password reset needs."""

    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional: only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class GroupForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ["name"]
        labels = {"name": _("Group name")}
        widgets = {"name": forms.TextInput(attrs={"placeholder": _("Thursday Tractor")})}


class PlayerForm(forms.ModelForm):
    """A name for the group's roster; the same name twice (in any case) is refused."""

    class Meta:
        model = Player
        fields = ["name"]
        labels = {"name": _("Player's name")}
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off"})}

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.instance.group = group

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if self.instance.group.players.filter(name__iexact=name).exists():
            raise forms.ValidationError(
                _("%(name)s is already on the roster."), params={"name": name}, code="unique"
            )
        return name


class PlayerAccountForm(forms.Form):
    """Which player on the roster is the signed-in member: one each, and never someone
    another account already claimed."""

    player = forms.ModelChoiceField(
        label=_("You on the roster"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("Nobody yet"),
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def __init__(self, *args, group: Group, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.group, self.user = group, user
        field = self.fields["player"]
        field.queryset = group.players.filter(Q(user=None) | Q(user=user))
        field.initial = group.players.filter(user=user).first()

    def save(self) -> Player | None:
        with transaction.atomic():
            self.group.players.filter(user=self.user).update(user=None)
            player = self.cleaned_data["player"]
            if player is not None:
                player.user = self.user
                player.save(update_fields=["user"])
        return player


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
POINTS_WIDGET = {"step": 5, "min": 0, "inputmode": "numeric"}


class BandForm(forms.Form):
    """One row of a scoring table; `scoring` judges the rows together."""

    low = forms.IntegerField(label=_("From"), widget=forms.NumberInput(attrs=POINTS_WIDGET))
    high = forms.IntegerField(
        label=_("To"),
        required=False,
        widget=forms.NumberInput(attrs={**POINTS_WIDGET, "placeholder": _("more")}),
    )
    winner = forms.TypedChoiceField(
        label=_("Winner"), choices=SIDE_CHOICES, coerce=Side, widget=forms.RadioSelect
    )
    levels = forms.IntegerField(
        label=_("Levels"), widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric"})
    )
    every = forms.IntegerField(
        label=_("Every"),
        required=False,
        help_text=_("One more level per this many points more."),
        widget=forms.NumberInput(attrs={**POINTS_WIDGET, "min": 5}),
    )

    def band(self) -> Band | None:
        """The row as far as it reads (for the preview), or None if it is not a band yet."""
        data = getattr(self, "cleaned_data", {})
        if data.get("DELETE") or any(data.get(key) is None for key in ("low", "winner", "levels")):
            return None
        return Band(
            data["low"], data.get("high"), data["winner"], data["levels"], data.get("every")
        )


# Every preset needs at most 7 bands; 40 leaves room for any house table a phone can show.
MAX_BANDS = 40
BandFormSet = forms.formset_factory(
    BandForm,
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
        widget=forms.NumberInput(attrs=POINTS_WIDGET),
    )
    tractor_follow = forms.TypedChoiceField(
        label=_("A tractor led obliges"),
        choices=TRACTOR_FOLLOW_CHOICES,
        coerce=TractorFollow,
        initial=TractorFollow.TRACTOR.value,
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
                }
            )
        except RulesError as error:
            band = re.match(r"band (\d+)\b", str(error))
            if band and 0 < int(band[1]) <= len(rows):
                rows[int(band[1]) - 1].add_error(None, str(error))
            else:
                self.add_error(None, str(error))
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


SEATS = ("north", "east", "south", "west")


class GroupRulesField(forms.ChoiceField):
    """A preset or one of the group's own tables (after :meth:`offer`), cleaned to its Rules."""

    def offer(self, group: Group) -> None:
        self.tables = {f"table-{table.pk}": table for table in group.scoring_tables.all()}
        choices: list = [(_("Presets"), [(name, name) for name in PRESETS])]
        if self.tables:
            choices.append(
                (_("Our tables"), [(key, str(table)) for key, table in self.tables.items()])
            )
        self.choices = choices

    def clean(self, value: object) -> Rules:
        key = super().clean(value)
        return PRESETS[key] if key in PRESETS else self.tables[key].rules


class GameForm(forms.Form):
    """Four players of the roster in four seats, the rules and the starting levels;
    ``game_fields()`` gives the new Game's fields, with the rules copied in."""

    north = forms.ModelChoiceField(
        label=SEAT_NAMES[Seat.NORTH], queryset=Player.objects.none(), empty_label="—"
    )
    east = forms.ModelChoiceField(
        label=SEAT_NAMES[Seat.EAST], queryset=Player.objects.none(), empty_label="—"
    )
    south = forms.ModelChoiceField(
        label=SEAT_NAMES[Seat.SOUTH], queryset=Player.objects.none(), empty_label="—"
    )
    west = forms.ModelChoiceField(
        label=SEAT_NAMES[Seat.WEST], queryset=Player.objects.none(), empty_label="—"
    )
    rules = GroupRulesField(label=_("Rules"), initial="standard")
    north_south_level = forms.TypedChoiceField(
        label=_("North–South start at"), choices=LEVEL_CHOICES, coerce=Rank.parse, initial="2"
    )
    east_west_level = forms.TypedChoiceField(
        label=_("East–West start at"), choices=LEVEL_CHOICES, coerce=Rank.parse, initial="2"
    )
    first_starter = forms.TypedChoiceField(
        label=_("Who starts the first hand"),
        choices=[("", _("Whoever wins the bid"))] + [(s.value, SEAT_NAMES[s]) for s in Seat],
        coerce=Seat,
        empty_value=None,
        required=False,
    )

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            self.fields[seat].queryset = group.players.all()
        self.fields["rules"].offer(group)

    def clean(self) -> dict:
        data = super().clean()
        seated: dict[Player, str] = {}
        for seat in SEATS:
            player = data.get(seat)
            if player is None:
                continue
            if player in seated:
                self.add_error(
                    seat,
                    _("%(player)s already sits %(seat)s: seat four different players.")
                    % {"player": player, "seat": seated[player]},
                )
            else:
                seated[player] = self.fields[seat].label
        return data

    def game_fields(self) -> dict:
        data = self.cleaned_data
        return {
            **{seat: data[seat] for seat in SEATS},
            "rules_json": data["rules"].to_json(),
            "north_south_level": data["north_south_level"].symbol,
            "east_west_level": data["east_west_level"].symbol,
            "first_starter": data["first_starter"].value if data["first_starter"] else "",
        }


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
        return (start, start.replace(year=start.year + 1))


class ReplayRulesForm(forms.Form):
    """The rules to replay a game under: a preset or one of the group's tables (``rules`` cleans
    to the Rules)."""

    rules = GroupRulesField(label=_("Replay under"))

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules"].offer(group)


# A group's export file, imported as a new group.

MAX_IMPORT_BYTES = 64 * 1024 * 1024


class GroupImportForm(forms.Form):
    """An export file and the new group's name; ``cleaned_data["file"]`` is the checked
    `companion.exchange.GroupExport`, ready to import."""

    file = forms.FileField(
        label=_("Export file"),
        help_text=_("A .json file from a group's “Export everything” link."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    name = forms.CharField(
        label=_("New group's name"),
        max_length=80,
        required=False,
        help_text=_("Leave empty to keep the name in the file."),
    )

    def clean_file(self) -> exchange.GroupExport:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)d MB; an export up to %(most)d MB can be imported."),
                params={"size": upload.size // 2**20, "most": MAX_IMPORT_BYTES // 2**20},
            )
        try:
            return exchange.load(upload.read())
        except exchange.ExchangeError as error:
            raise forms.ValidationError(str(error)) from None

    def clean_name(self) -> str:
        return " ".join(self.cleaned_data["name"].split())
