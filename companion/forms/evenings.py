"""Starting a club night: who is present, the table shape (as a game's start offers it), how
each round is seated, and its limits; swapping two players of a proposed round."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.forms.games import BID, FIXED, ROTATION, GameForm
from companion.forms.layout import Field, Helper
from companion.forms.results import PLAYERS_CHOICES
from companion.models import Evening, Game, Group, Player
from companion.models.evenings import (
    MAX_ROUND_HANDS,
    MAX_ROUND_MINUTES,
    MIN_ROUND_HANDS,
    MIN_ROUND_MINUTES,
)
from scoring import PRESETS, Suit, TableError, Teams, TrumpRule, default_decks
from scoring.evenings import MAX_EVENING_PLAYERS, table_sizes
from scoring.table import MIN_PLAYERS


class RosterTicks(forms.ModelMultipleChoiceField):
    """Players ticked on the group's roster. A value that is none of its players is refused
    before it reaches the database (a number past the database's integers would break the
    query)."""

    def _check_values(self, value):
        roster = {str(pk) for pk in self.queryset.values_list("pk", flat=True)}
        for ticked in value:
            if str(ticked) not in roster:
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": ticked},
                )
        return super()._check_values(value)


class EveningForm(forms.Form):
    """The players present (ticked on the roster) and the shape of every table: players per
    table, the teams, the rules, decks and trump; the seating rule, what happens to players
    who don't fill a table, and a round's limits. ``start_args()`` is what
    :meth:`Evening.start` takes."""

    present = RosterTicks(
        label=_("Who is here"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick the players who are here.")},
    )
    players_per_table = forms.TypedChoiceField(
        label=_("Players at a table"),
        choices=PLAYERS_CHOICES,
        coerce=int,
        initial=MIN_PLAYERS,
        widget=forms.RadioSelect,
    )
    teams = GameForm.base_fields["teams"]
    seating = forms.ChoiceField(
        label=_("Seat each round"),
        choices=Evening.SeatingRule.choices,
        initial=Evening.SeatingRule.NEW_PARTNERS,
        widget=forms.RadioSelect,
    )
    leftover = forms.ChoiceField(
        label=_("Players who don't fill a table"),
        choices=Evening.Leftover.choices,
        initial=Evening.Leftover.SIT_OUT,
        widget=forms.RadioSelect,
    )
    rules = GameForm.base_fields["rules"]
    decks = GameForm.base_fields["decks"]
    called = GameForm.base_fields["called"]
    trumps = GameForm.base_fields["trumps"]
    hands_per_round = forms.IntegerField(
        label=_("Hands a round"),
        help_text=_("Blank: a round ends when its games end, or when someone starts the next."),
        min_value=MIN_ROUND_HANDS,
        max_value=MAX_ROUND_HANDS,
        required=False,
    )
    minutes_per_round = forms.IntegerField(
        label=_("Minutes a round"),
        help_text=_("Blank: no time limit."),
        min_value=MIN_ROUND_MINUTES,
        max_value=MAX_ROUND_MINUTES,
        required=False,
    )

    helper = Helper(
        "present",
        "players_per_table",
        Field("teams", list=True),
        Field("seating", list=True),
        Field("leftover", list=True),
        "rules",
        "decks",
        "called",
        Field("trumps", list=True),
        Field(*ROTATION, hide_label=True),
        "hands_per_round",
        "minutes_per_round",
    )

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["present"].queryset = group.players.filter(retired=False)
        for number, suit in enumerate(ROTATION, start=1):
            self.fields[suit] = forms.TypedChoiceField(
                label=_("Hand %(number)d") % {"number": number},
                choices=[("", "—"), *((s.value, s.symbol) for s in Suit)],
                coerce=Suit,
                empty_value=None,
                required=False,
            )
        self.fields["rules"].offer(group)
        self.fields["hands_per_round"].widget.attrs["placeholder"] = "—"
        self.fields["minutes_per_round"].widget.attrs["placeholder"] = "—"

    def rotation(self) -> list[forms.BoundField]:
        return [self[suit] for suit in ROTATION]

    @staticmethod
    def last_choices(group: Group) -> dict:
        """The shape the group played last: its last evening's, else its last game's."""
        evening = group.evenings.order_by("-created").first()
        game = group.games.prefetch_related("seats").order_by("-created").first()
        if evening is not None and (game is None or evening.created >= game.created):
            shape = {
                "players_per_table": evening.players_per_table,
                "teams": evening.teams,
                "seating": evening.seating,
                "leftover": evening.leftover,
                "decks": evening.decks,
                "called": evening.called,
                "hands_per_round": evening.hands_per_round,
                "minutes_per_round": evening.minutes_per_round,
            }
            rules_json, trumps = evening.rules_json, evening.trumps
        elif game is not None:
            size = game.seats.count()
            shape = {
                "players_per_table": size,
                "teams": game.teams,
                "decks": None if game.decks == default_decks(size) else game.decks,
                "called": game.called,
            }
            rules_json, trumps = game.rules_json, game.trumps
        else:
            return {}
        rule = TrumpRule.from_json(trumps)
        if rule.bids or not rule.suits:
            shape["trumps"] = trumps
        else:
            shape["trumps"] = FIXED
            shape |= {field: suit.value for field, suit in zip(ROTATION, rule.suits, strict=False)}
        tables = {f"table-{t.pk}": t.rules_json for t in group.scoring_tables.all()}
        known = {name: rules.to_json() for name, rules in PRESETS.items()} | tables
        shape["rules"] = next((key for key, json in known.items() if json == rules_json), None)
        return {name: value for name, value in shape.items() if value is not None}

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        teams = Teams(data["teams"])
        if data.get("trumps") == FIXED:
            suits = tuple(data[suit] for suit in ROTATION if data.get(suit) is not None)
            if not suits:
                self.add_error(
                    "trumps", _("Choose the trump suits, in the order the hands take them.")
                )
                return data
            data["trump_rule"] = TrumpRule(suits=suits)
        else:
            data["trump_rule"] = TrumpRule.from_json(data.get("trumps") or BID)
        size = data["players_per_table"]
        if size not in table_sizes(teams):
            self.add_error(
                "players_per_table",
                _("%(teams)s tables don't seat %(size)d players.")
                % {"teams": Game.TeamsChoice(teams.value).label, "size": size},
            )
            return data
        mixed = data["leftover"] == Evening.Leftover.MIXED
        evening = Evening(
            players_per_table=size,
            teams=teams.value,
            decks=data.get("decks"),
            trumps=data["trump_rule"].to_json(),
            called=data.get("called") if teams is Teams.FIND_A_FRIEND else None,
            leftover=data["leftover"],
        )
        for each in evening.sizes():
            try:
                evening.table_of(each)
            except TableError as error:
                field = {"decks": "decks", "called": "called", "trumps": "trumps"}.get(
                    error.field or "", "players_per_table"
                )
                said = error.in_words(gettext, ngettext)
                if mixed and each != size:
                    said = _("Tables of %(size)d players, which mixed sizes may seat: %(said)s") % {
                        "size": each,
                        "said": said,
                    }
                self.add_error(field, said)
                return data
        smallest = min(evening.sizes())
        if len(data["present"]) > MAX_EVENING_PLAYERS:
            self.add_error(
                "present",
                _("An evening seats %(count)d players at most.") % {"count": MAX_EVENING_PLAYERS},
            )
        elif len(data["present"]) < smallest:
            self.add_error(
                "present",
                ngettext(
                    "Tick at least %(count)d player: a table seats %(count)d.",
                    "Tick at least %(count)d players: a table seats %(count)d.",
                    smallest,
                )
                % {"count": smallest},
            )
        return data

    def start_args(self) -> dict:
        """What :meth:`Evening.start` takes, besides the group and who starts it."""
        data = self.cleaned_data
        teams = Teams(data["teams"])
        return {
            "players": list(data["present"]),
            "players_per_table": data["players_per_table"],
            "teams": teams.value,
            "seating": data["seating"],
            "leftover": data["leftover"],
            "rules_json": data["rules"].to_json(),
            "decks": data.get("decks"),
            "trumps": data["trump_rule"].to_json(),
            "called": data.get("called") if teams is Teams.FIND_A_FRIEND else None,
            "hands_per_round": data.get("hands_per_round"),
            "minutes_per_round": data.get("minutes_per_round"),
        }


class SwapForm(forms.Form):
    """Two players of a proposed round to swap: their seats, or a seat and a sit-out."""

    first = forms.ModelChoiceField(
        label=_("Player to swap"), queryset=Player.objects.none(), empty_label="—"
    )
    second = forms.ModelChoiceField(
        label=_("Swap with"), queryset=Player.objects.none(), empty_label="—"
    )

    helper = Helper("first", "second")

    def __init__(self, *args, players: list[Player], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        chosen = Player.objects.filter(pk__in=[player.pk for player in players])
        self.fields["first"].queryset = chosen
        self.fields["second"].queryset = chosen

    def clean(self) -> dict:
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Choose two different players."))
        return data


class PresenceForm(forms.Form):
    """A player joining or leaving the evening, between rounds."""

    player = forms.ModelChoiceField(queryset=Player.objects.none())

    helper = Helper("player")

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = group.players.filter(retired=False)
