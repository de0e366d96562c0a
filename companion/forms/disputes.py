"""A disputed trick as the table taps it in, judged by `scoring`."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from companion.forms.choices import LEVEL_CHOICES, RULES_CHOICES, TRUMP_CHOICES
from companion.forms.layout import Field, Helper
from scoring import (
    PRESETS,
    Card,
    CardError,
    Play,
    PlayError,
    Rank,
    Rules,
    ScoringError,
    Table,
    Trump,
    default_decks,
    judge,
    parse_cards,
    parse_trump,
)
from scoring.cli import judge_input
from scoring.table import MAX_PLAYERS, MIN_PLAYERS

PLAYERS_CHOICES = [(count, str(count)) for count in range(MIN_PLAYERS, MAX_PLAYERS + 1)]
# The decks a table can take are those `scoring` proposes for some number of players.
DECKS_CHOICES = [
    (decks, str(decks))
    for decks in sorted({default_decks(count) for count, _label in PLAYERS_CHOICES})
]
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
            raise forms.ValidationError(error.in_words(gettext, ngettext)) from None


#: Each seat's ``play_<seat>`` and ``hand_<seat>`` fields, at the largest table.
CARDS_FIELDS = tuple(f"{kind}_{seat}" for seat in range(MAX_PLAYERS) for kind in ("play", "hand"))


class DisputeForm(forms.Form):
    """A disputed trick as the table taps it in, judged by `scoring` in ``clean``.

    At a game's ``table`` (a `scoring.Table`) the seats are its players, the decks its decks,
    and the ``leader`` field (a seat) says who led; play goes on in the table's order from
    there. Standalone, the ``players`` and ``decks`` fields lay out any table, its seats named
    P1, P2, … in play order, P1 leading. Each seat has a ``play_<seat>`` field (the cards put on
    the table) and a ``hand_<seat>`` field (optional: the cards held before the trick).
    Once valid, ``cleaned_data`` holds ``judgement``, ``request`` (the trick as a
    ``python -m scoring judge`` request), ``verdict`` (the judge's answer as JSON) and
    ``complete`` (whether everyone at the table played).
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
        choices=TRUMP_CHOICES,
        coerce=parse_trump,
        widget=forms.RadioSelect,
        error_messages={"required": _("Tap the trump suit, or No trump.")},
    )
    helper = Helper(
        "rules",
        "level",
        "trump",
        "leader",
        "players",
        "decks",
        # Each seat's cards, under the seat's name as heading.
        Field(*CARDS_FIELDS, cards=True, hide_label=True),
        "hand_number",
    )

    def __init__(
        self,
        data=None,
        *,
        table: Table | None = None,
        own_rules: Rules | None = None,
        hand_numbers: list[tuple[int, str]] | None = None,
        initial: dict | None = None,
    ) -> None:
        super().__init__(data, initial=initial)
        self.table = table
        self.own_rules = own_rules
        self.hand_numbers = hand_numbers
        choices = list(RULES_CHOICES)
        if own_rules is not None and PRESETS.get(own_rules.name) != own_rules:
            choices.append((GAME_RULES, own_rules.name))
        self.fields["rules"].choices = choices
        self.fields["rules"].initial = "standard"
        if table is None:
            self.fields["players"] = forms.TypedChoiceField(
                label=_("Players"),
                choices=PLAYERS_CHOICES,
                coerce=int,
                initial=MIN_PLAYERS,
                widget=forms.RadioSelect,
            )
            self.fields["decks"] = forms.TypedChoiceField(
                label=_("Decks"),
                choices=DECKS_CHOICES,
                coerce=int,
                initial=default_decks(MIN_PLAYERS),
                widget=forms.RadioSelect,
            )
            count = self._shown("players", MIN_PLAYERS)
            # Translators: a seat at a table with no names, as "P1" (the player in seat 1).
            seat = pgettext("seat at a table", "P%(number)s")
            self.seat_names = tuple(seat % {"number": number} for number in range(1, count + 1))
            self.deck_count = self._shown("decks", default_decks(count))
        else:
            self.fields["leader"] = forms.TypedChoiceField(
                label=_("Led by"),
                choices=list(enumerate(table.players)),
                coerce=int,
                widget=forms.RadioSelect,
                error_messages={"required": _("Tap who led the trick.")},
            )
            self.seat_names = table.players
            self.deck_count = table.decks
        for seat, name in enumerate(self.seat_names):
            self.fields[f"play_{seat}"] = CardsField(
                label=_("%(name)s played") % {"name": name},
                required=False,
                widget=forms.TextInput(
                    attrs={**CARDS_WIDGET, "placeholder": _("Cards on the table")}
                ),
            )
            self.fields[f"hand_{seat}"] = CardsField(
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

    def _shown(self, name: str, default: int) -> int:
        """A field that lays out the table, as the page shows it: ``default`` until valid."""
        try:
            return self.fields[name].clean(self[name].value())
        except forms.ValidationError:
            return default

    def order(self, leader: int) -> list[int]:
        """The seats in play order from ``leader``: the game table's order, or P1, P2, …"""
        if self.table is None:
            return list(range(len(self.seat_names)))
        return [leader, *self.table.after(leader)]

    def seats(self) -> list[dict]:
        """The seats as the page lists them, in play order from the leader."""
        leader = self._shown("leader", 0) if self.table is not None else 0
        return [
            {
                "seat": seat,
                "name": self.seat_names[seat],
                "play": self[f"play_{seat}"],
                "hand": self[f"hand_{seat}"],
                "leads": seat == leader,
            }
            for seat in self.order(leader)
        ]

    def laid_again(self, *, propose_decks: bool = False) -> DisputeForm:
        """This form unbound, its values kept: the seats laid out again for another leader or
        table before anything is judged (no errors yet). ``propose_decks``: the players
        changed, so the decks become those `scoring` proposes for them."""
        initial = {name: self[name].value() for name in self.fields}
        if propose_decks and self.table is None:
            initial["decks"] = default_decks(len(self.seat_names))
        return DisputeForm(
            None,
            table=self.table,
            own_rules=self.own_rules,
            hand_numbers=self.hand_numbers,
            initial=initial,
        )

    def clean_rules(self) -> Rules:
        key = self.cleaned_data["rules"]
        return self.own_rules if key == GAME_RULES and self.own_rules else PRESETS[key]

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        order = self.order(data.get("leader", 0))
        plays: list[Play] = []
        waiting: int | None = None
        for seat in order:
            cards = data[f"play_{seat}"]
            if not cards:
                waiting = seat if waiting is None else waiting
            elif waiting is not None:
                self._missing_play(waiting, later=seat, leads=waiting == order[0])
                return data
            else:
                plays.append(Play(self.seat_names[seat], cards))
        if not plays:
            self._missing_play(order[0], later=None, leads=True)
            return data
        hands = {
            self.seat_names[seat]: data[f"hand_{seat}"] for seat in order if data[f"hand_{seat}"]
        }
        trump = Trump(data["level"], data["trump"], self.deck_count)
        try:
            judgement = judge(data["rules"], trump, plays, hands)
        except PlayError as error:
            seats = {self.seat_names[seat]: seat for seat in order}
            field = None
            if error.player in seats and error.part in ("play", "hand"):
                field = f"{error.part}_{seats[error.player]}"
            self.add_error(field, error.in_words(gettext, ngettext))
        except ScoringError as error:
            self.add_error(None, error.in_words(gettext, ngettext))
        else:
            data["judgement"] = judgement
            data["request"] = judge_input(data["rules"], trump, plays, hands)
            data["verdict"] = judgement.to_json()
            data["complete"] = len(plays) == len(order)
        return data

    def _missing_play(self, seat: int, *, later: int | None, leads: bool) -> None:
        name = self.seat_names[seat]
        if leads:
            message = _("Give the cards %(player)s led.") % {"player": name}
        else:
            message = _("%(player)s plays before %(later)s: give %(player)s's cards too.") % {
                "player": name,
                "later": self.seat_names[later],
            }
        self.add_error(f"play_{seat}", message)

    @property
    def verdict(self) -> dict | None:
        return self.cleaned_data.get("verdict") if self.is_valid() else None
