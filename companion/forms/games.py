"""Starting a game: the players in play order, the rules and the table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.display import joined
from companion.forms.choices import LEVEL_CHOICES, GroupRulesField
from companion.forms.layout import Field, Helper
from companion.forms.results import PLAYERS_CHOICES
from companion.models import Game, Group, Player
from scoring import (
    GameError,
    GameSetup,
    Rank,
    Suit,
    Table,
    TableError,
    Teams,
    TrumpRule,
    default_decks,
)
from scoring.table import ALWAYS_NO_TRUMP, BY_BID, MAX_PLAYERS, MIN_PLAYERS

SEATS = tuple(f"seat_{number}" for number in range(1, MAX_PLAYERS + 1))
LEVELS = tuple(f"level_{number}" for number in range(1, MAX_PLAYERS + 1))
ROTATION = tuple(f"suit_{number}" for number in range(1, len(Suit) + 1))
# How the trump is chosen: bid each hand, a game always without trump (a rule of the game, not a
# hand's NO_TRUMP), both as `scoring.TrumpRule`'s JSON writes them, or fixed suits in turn
# (ROTATION's fields).
BID, NO_TRUMP_GAME, FIXED = BY_BID.to_json(), ALWAYS_NO_TRUMP.to_json(), "fixed"
# The form field that shows `scoring`'s complaint about each input of a table.
TABLE_FIELDS = {"decks": "decks", "teams": "teams", "called": "called", "trumps": "trumps"}


class GameForm(forms.Form):
    """Four to eight players of the roster in play order, the rules and the table: the decks,
    the teams, how trump is chosen, how many cards a find-a-friend declarer calls, the starting
    levels and who starts hand 1.

    ``clean`` asks `scoring` whether the table can be played (its complaint stands beside the
    field at fault); ``cleaned_data["table"]`` is the table, and ``start_args()`` what
    :meth:`Game.start` takes.
    """

    # How many play: the page shows as many seats (the others, hidden, are not read). A post
    # without it seats everyone chosen.
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=PLAYERS_CHOICES,
        coerce=int,
        initial=MIN_PLAYERS,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
    )
    rules = GroupRulesField(label=_("Rules"), initial="standard")
    teams = forms.ChoiceField(
        label=_("Teams"),
        choices=Game.TeamsChoice.choices,
        initial=Teams.PARTNERS.value,
        widget=forms.RadioSelect,
    )
    decks = forms.TypedChoiceField(
        label=_("Decks"),
        choices=[("", _("One for every two players")), *((n, str(n)) for n in (2, 3, 4))],
        coerce=int,
        empty_value=None,
        required=False,
    )
    called = forms.TypedChoiceField(
        label=_("Cards a declarer calls"),
        choices=[("", _("1, or 2 from seven players")), (1, "1"), (2, "2")],
        help_text=_("Find a friend: the cards the declarer names after taking the kitty."),
        coerce=int,
        empty_value=None,
        required=False,
    )
    trumps = forms.ChoiceField(
        label=_("Trump"),
        choices=[
            (BID, _("Bid for each hand")),
            (NO_TRUMP_GAME, _("Always no trump")),
            (FIXED, _("Fixed suits, in turn")),
        ],
        initial=BID,
        widget=forms.RadioSelect,
    )
    first_declarer = forms.ModelChoiceField(
        label=_("Who starts hand 1"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("Whoever wins the bid"),
    )

    helper = Helper(
        "players",
        # Seats are rows of a grid whose headings name their columns.
        Field(*SEATS, *LEVELS, hide_label=True),
        "rules",
        Field("teams", list=True),
        "decks",
        "called",
        Field("trumps", list=True),
        Field(*ROTATION, hide_label=True),
        "first_declarer",
    )

    def __init__(self, *args, group: Group, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        roster = group.players.filter(retired=False)
        for number, (seat, level) in enumerate(zip(SEATS, LEVELS, strict=True), start=1):
            self.fields[seat] = forms.ModelChoiceField(
                label=_("Player %(number)d") % {"number": number},
                queryset=roster,
                empty_label="—",
                required=number <= MIN_PLAYERS,
            )
            self.fields[level] = forms.TypedChoiceField(
                label=_("Level of player %(number)d") % {"number": number},
                choices=[("", "2"), *LEVEL_CHOICES[1:]],
                coerce=Rank.parse,
                empty_value=None,
                required=False,
            )
        for number, suit in enumerate(ROTATION, start=1):
            self.fields[suit] = forms.TypedChoiceField(
                label=_("Hand %(number)d") % {"number": number},
                choices=[("", "—"), *((s.value, s.symbol) for s in Suit)],
                coerce=Suit,
                empty_value=None,
                required=False,
            )
        self.fields["first_declarer"].queryset = roster
        self.fields["rules"].offer(group)

    def seat_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField, str]]:
        """The seats as the page lays them out: number, player, starting level, and the
        classes that hide the seat when fewer play (``past-5``: hidden at five players)."""
        return [
            (
                number,
                self[seat],
                self[level],
                " ".join(f"past-{count}" for count in range(MIN_PLAYERS, number)),
            )
            for number, (seat, level) in enumerate(zip(SEATS, LEVELS, strict=True), start=1)
        ]

    def rotation(self) -> list[forms.BoundField]:
        return [self[suit] for suit in ROTATION]

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("players")
        seated: list[tuple[str, Player, Rank | None]] = []
        for number, (seat, level) in enumerate(zip(SEATS, LEVELS, strict=True), start=1):
            if count is not None and number > count:
                break  # a seat the page hides: fewer play
            player = data.get(seat)
            if player is None:
                if count is not None and number > MIN_PLAYERS and seat not in self.errors:
                    self.add_error(
                        seat,
                        _("Choose who sits in seat %(seat)d, or choose fewer players.")
                        % {"seat": number},
                    )
                continue
            if any(player == other for _seat, other, _level in seated):
                self.add_error(
                    seat,
                    _("%(player)s already has a seat: choose each player once.")
                    % {"player": player},
                )
            seated.append((seat, player, data.get(level)))
        if self.errors:
            return data
        players = [player for _seat, player, _level in seated]
        table = self._table(data, players)
        if table is None:
            return data
        data["table"], data["players"] = table, players
        data["levels"] = self._levels(table, seated)
        first = data.get("first_declarer")
        data["first_seat"] = None
        if first is not None:
            if first not in players:
                self.add_error(
                    "first_declarer",
                    _("%(player)s is not at this table.") % {"player": first},
                )
                return data
            data["first_seat"] = players.index(first)
        if data["levels"] is None or "rules" not in data:
            return data
        try:
            setup = GameSetup(data["rules"], table, data["levels"], data["first_seat"])
        except GameError as error:
            self.add_error(None, error.in_words(gettext, ngettext))
            return data
        if setup.needs_first_declarer and data["first_seat"] is None:
            self.add_error(
                "first_declarer",
                _("Nobody bids for hand 1 at this table: choose who starts it."),
            )
        return data

    def _table(self, data: dict, players: list[Player]) -> Table | None:
        """The table these choices make, or None (with the error beside its field)."""
        if data.get("trumps") == FIXED:
            suits = tuple(data[suit] for suit in ROTATION if data.get(suit) is not None)
            if not suits:
                self.add_error(
                    "trumps", _("Choose the trump suits, in the order the hands take them.")
                )
                return None
        teams = Teams(data.get("teams") or Teams.PARTNERS.value)
        try:
            return Table(
                players=tuple(player.name for player in players),
                decks=data.get("decks") or default_decks(len(players)),
                teams=teams,
                trumps=(
                    TrumpRule(suits=suits)
                    if data.get("trumps") == FIXED
                    else TrumpRule.from_json(data.get("trumps") or BID)
                ),
                called=data.get("called") if teams is Teams.FIND_A_FRIEND else None,
            )
        except TableError as error:
            self.add_error(TABLE_FIELDS.get(error.field or ""), error.in_words(gettext, ngettext))
            return None

    def _levels(self, table: Table, seated: list) -> list[Rank] | None:
        """Every seat's starting level: team-mates share the one given for any of them (2 if
        none); in find-a-friend each player has their own."""
        levels = [level for _seat, _player, level in seated]
        shared = list(levels)
        for team in table.fixed:
            given = {levels[seat] for seat in team} - {None}
            if len(given) > 1:
                later = next(seat for seat in team[1:] if levels[seat] is not None)
                self.add_error(
                    LEVELS[later],
                    _("%(team)s are a team and start at one level.")
                    % {"team": joined([table.players[seat] for seat in team])},
                )
                return None
            for seat in team:
                shared[seat] = next(iter(given), None)
        return [level or Rank.TWO for level in shared]

    def table_problems(self) -> list[str]:
        """What keeps the choices from making a table, as the fields about the table say."""
        return [error for field in TABLE_FIELDS.values() for error in self.errors.get(field, [])]

    def add_scoring_error(self, error: TableError | GameError) -> None:
        """Show a complaint :meth:`Game.start` raised beside the field it names."""
        self.add_error(
            TABLE_FIELDS.get(getattr(error, "field", None) or ""), error.in_words(gettext, ngettext)
        )

    def start_args(self) -> dict:
        """What :meth:`Game.start` takes, besides the group and who starts it."""
        data = self.cleaned_data
        table = data["table"]
        return {
            "players": data["players"],
            "rules": data["rules"],
            "decks": table.decks,
            "teams": table.teams,
            "trumps": table.trumps,
            "called": table.called,
            "levels": data["levels"],
            "first_declarer": data["first_seat"],
        }
