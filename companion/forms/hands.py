"""The hand form: one hand as the table enters it, checked by `scoring` against the game."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from companion.display import CARD_GRID, hand_sides
from companion.forms.choices import TRUMP_CHOICES
from companion.forms.layout import Field, Helper
from companion.forms.results import WHOLE_NUMBER, HandResultForm, number_input
from companion.models import Game, Hand
from scoring import (
    Bid,
    Card,
    CardError,
    HandResult,
    PlayedHand,
    Rank,
    Rules,
    Side,
    TableError,
    TakenBack,
    parse_cards,
)
from scoring import points as card_points
from scoring.cards import check_copies, point_cards
from scoring.game import Game as ScoredGame
from scoring.table import NO_TRUMP, NOT_DECLARED, parse_trump, trump_text, trumps_allowed

# The friends field's answer when the called card never turned up (or the declarer played it).
NOBODY = "nobody"
# Most calls are a clean sweep or beside a line where the result changes: five buttons and
# the toggle for the rest fit one row of a 360 px phone.
QUICK_TOTALS_SHOWN = 5
# The words of each scoring rank's counter and of its two buttons (`scoring` says which ranks
# score, what each card is worth and how many the decks hold).
POINT_CARD_WORDS = {
    Rank.FIVE: ("fives", _("Fives"), _("One five fewer"), _("One more five")),
    Rank.TEN: ("tens", _("Tens"), _("One ten fewer"), _("One more ten")),
    Rank.KING: ("kings", _("Kings"), _("One king fewer"), _("One more king")),
}
# The kitty's card grid is the dispute's, with each card's points for the running total.
KITTY_GRID = [{**card, "points": Card.parse(card["code"]).points} for card in CARD_GRID]


class HandForm(HandResultForm):
    """One hand as the table enters it, checked by `scoring` against the game so far.

    The game's table shapes it: the declarer is one of those who may start the hand; a
    find-a-friend hand asks who played the called cards; a fixed trump asks no bid and no
    trump; the kitty and the points are bounded by the decks, the cards taken back by a hand.
    The bid and trump are as `scoring` works them out from what the table tapped
    (`TrumpRule.bid_and_trump`: a bid of jokers says no trump; without a bid, the weakest its
    trump allows); the kitty's cards give its points, and without either the kitty counts 0
    unless the opponents took the last trick.
    """

    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=int, widget=forms.RadioSelect)
    friends = forms.MultipleChoiceField(
        label=_("Who played the called card?"),
        help_text=_("The declarer too, if they played it themselves."),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    # Never preselected: a hand records only the trump the table named. Left empty, a bid of
    # jokers names it (no trump); anything else is refused (see `clean`).
    trump = forms.TypedChoiceField(
        label=_("Trump"),
        choices=TRUMP_CHOICES,
        coerce=parse_trump,
        empty_value=NOT_DECLARED,
        required=False,
        widget=forms.RadioSelect,
    )
    bid = forms.TypedChoiceField(
        label=_("Bid"),
        choices=Hand.Bid.choices,
        coerce=Bid,
        empty_value=None,
        required=False,
        widget=forms.RadioSelect,
    )
    kitty_cards = forms.CharField(label=_("Kitty cards"), required=False)
    declarer_cards_taken_back = forms.IntegerField(
        label=_("Cards the declarers took back"),
        required=False,
        min_value=0,
        initial=0,
        error_messages={"invalid": WHOLE_NUMBER},
    )
    opponent_cards_taken_back = forms.IntegerField(
        label=_("Cards the opponents took back"),
        required=False,
        min_value=0,
        initial=0,
        error_messages={"invalid": WHOLE_NUMBER},
    )
    helper = Helper(
        "declarer",
        "friends",
        "trump",
        # Drawn between the stepper's buttons: its fieldset's legend is the label.
        Field("opponent_points", hide_label=True, messages_apart=True),
        "last_trick_winner",
        "last_trick_format",
        "last_trick_cards",
        "kitty_cards",
        "kitty_points",
        "bid",
        "declarer_cards_taken_back",
        "opponent_cards_taken_back",
    )

    def __init__(self, *args, game: ScoredGame, number: int, **kwargs) -> None:
        """``game`` is the scored game before this hand; ``number`` the hand's number."""
        super().__init__(*args, **kwargs)
        self.before, self.number, self.table = game, number, game.table
        table, state, fields = game.table, game.state, self.fields
        # Any seat is taken, and only those who may start the hand are offered: a seat the
        # game no longer allows (another phone's change) is refused by `scoring`, in words.
        fields["declarer"].choices = list(enumerate(table.players))
        fields["declarer"].widget.choices = [
            (seat, table.players[seat]) for seat in state.next_declarers
        ]
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
            del fields["bid"], fields["trump"]
        fields["kitty_points"].required = False
        fields["kitty_points"].initial = None
        fields["kitty_cards"].help_text = _(
            "The %(kitty)d buried cards, like 5H KD TS, or leave empty and give the points."
        ) % {"kitty": table.kitty_cards}
        fields["opponent_points"].widget = number_input(table.deck_points)
        fields["kitty_points"].widget = number_input(table.max_kitty_points)
        fields["last_trick_cards"].widget.attrs["max"] = table.cards_per_player
        if game.setup.rules.throws:
            for name in ("declarer_cards_taken_back", "opponent_cards_taken_back"):
                fields[name].widget = number_input(table.cards_per_player, step=1)
        else:  # nothing is ever taken back where nothing may be thrown
            del fields["declarer_cards_taken_back"], fields["opponent_cards_taken_back"]

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
        codes = self.cleaned_data["kitty_cards"].replace(",", " ").split()
        try:
            cards = parse_cards(codes)
            check_copies(cards, decks=self.table.decks)
        except CardError as error:
            raise forms.ValidationError(error.in_words(gettext, ngettext)) from None
        if cards and len(cards) != self.table.kitty_cards:
            raise forms.ValidationError(
                ngettext(
                    "The kitty holds exactly %(kitty)d cards, but %(count)d card was given.",
                    "The kitty holds exactly %(kitty)d cards, but %(count)d cards were given.",
                    len(cards),
                ),
                params={"kitty": self.table.kitty_cards, "count": len(cards)},
            )
        return cards

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        if not self._kitty_points(data):
            return data
        said = data.get("trump")
        try:
            bid, trump = self.table.trumps.bid_and_trump(
                self.number, data.get("bid"), said or None, named=said != NOT_DECLARED
            )
        except TableError:
            self.add_error("trump", _("Tap the trump suit, or No trump."))
            return data
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

    def _kitty_points(self, data: dict) -> bool:
        """The kitty's points from its cards where they are given; refuse typed points that
        disagree, rather than choosing between them."""
        typed, cards = data.get("kitty_points"), data["kitty_cards"]
        if cards:
            data["kitty_points"] = card_points(cards)
            if typed is not None and typed != data["kitty_points"]:
                self.add_error(
                    "kitty_points",
                    ngettext(
                        "The kitty's cards hold %(points)d point, not %(typed)d: clear the "
                        "points or check the cards.",
                        "The kitty's cards hold %(points)d points, not %(typed)d: clear the "
                        "points or check the cards.",
                        data["kitty_points"],
                    )
                    % {"points": data["kitty_points"], "typed": typed},
                )
                return False
        elif typed is None:
            if data["last_trick_winner"] is Side.OPPONENTS:
                self.add_error(
                    "kitty_points",
                    _("The opponents took the last trick, so the kitty counts: give its points."),
                )
                return False
            data["kitty_points"] = 0  # the declarers keep the kitty: its points change nothing
        return True

    @property
    def scored(self) -> ScoredGame | None:
        """The game with this hand as its last, once the form is valid."""
        return self.cleaned_data["game"] if self.is_valid() else None

    @property
    def played(self) -> PlayedHand | None:
        """The hand as `scoring` settles it, once the form is valid."""
        return self.cleaned_data["game"].hands[-1] if self.is_valid() else None

    def page(self) -> dict:
        """What the hand's page shows around the fields: the game before the hand and its
        table, the fixed trump, the sides as the hand settles, the quick totals and the card
        counter of the stepper, the kitty's card grid, the trumps each bid allows and the word
        for no trump, and the field that takes the focus."""
        table = self.table
        totals = quick_totals(self.before.setup.rules, table.decks, table.deck_points)
        return {
            "before": self.before,
            "table": table,
            "trump": None if table.trumps.bids else table.trumps.fixed(self.number),
            "sides": hand_sides(table, self.played) if self.played else None,
            "kitty_grid": KITTY_GRID,
            "quick_totals": totals[:QUICK_TOTALS_SHOWN],
            "more_totals": totals[QUICK_TOTALS_SHOWN:],
            "point_cards": counted_cards(table.decks),
            "bid_trumps": bid_trumps() if table.trumps.bids else {},
            "no_trump": NO_TRUMP,
            "first_error": self.first_error(),
        }

    def first_error(self) -> str | None:
        """The first field at fault (its name), which takes the focus so that a failed save
        opens with it in view; the field template ties each error to its field for screen
        readers. A hand refused as a whole (someone else saved first) says so first: the box
        above the form takes it."""
        if self.non_field_errors():
            return None
        wrong = [name for name in self.fields if name in self.errors]
        if wrong:
            self.fields[wrong[0]].widget.attrs["autofocus"] = True
        return wrong[0] if wrong else None

    def hand_fields(self) -> dict:
        played = self.cleaned_data["game"].hands[-1]
        return Hand.fields_of(played.result, self.cleaned_data["kitty_cards"])

    @staticmethod
    def initial_declared(declared: str) -> dict | None:
        """The form's fields for the hand being played, with the trump the table declared for it
        (Game.declared_trump): tapped, and only the bids that allow it offered."""
        if not declared:
            return None
        return {"trump": declared}

    @classmethod
    def for_hand(
        cls, game: Game, hands: list[Hand], number: int, data=None, *, editing: bool
    ) -> HandForm:
        """The form of hand ``number`` of ``game``, whose ``hands`` are given: the next hand, or
        (``editing``) a correction filled in with the hand as saved. The game before the hand
        is replayed here, once for the page, its preview and its save. The next hand opens with
        the trump the table declared for it, if any."""
        if editing:
            initial = cls.initial_from(hands[number - 1])
        else:
            initial = cls.initial_declared(game.declared_trump(number))
        return cls(data, initial=initial, game=game.scored(hands[: number - 1]), number=number)

    @classmethod
    def initial_from(cls, hand: Hand) -> dict:
        """The form's fields for a saved hand, to edit it."""
        fields = hand.snapshot()
        del fields["number"]
        fields["friends"] = [str(seat) for seat in hand.friends] or [NOBODY]
        if fields["kitty_cards"]:
            del fields["kitty_points"]
        return fields


def quick_totals(rules: Rules, decks: int, top: int) -> list[int]:
    """0 and both sides of each line where a hand's result changes (as `scoring` draws them
    for the decks) up to the decks' ``top`` points; the line at 5 gives 0 alone, the other
    side being a step of the stepper away."""
    sides = {0}
    for line in rules.for_decks(decks).lines(top):
        sides.update((line - 5, line) if line > 5 else ())
    return sorted(sides)


def counted_cards(decks: int) -> list[dict]:
    """The card counter's rows: each scoring rank with its words, what a card of it is worth
    and how many the decks hold, as `scoring` says."""
    rows = []
    for cards in point_cards(decks):
        kind, label, fewer, more = POINT_CARD_WORDS[cards.rank]
        rows.append(
            {
                "kind": kind,
                "label": label,
                "fewer": fewer,
                "more": more,
                "worth": cards.worth,
                "most": cards.copies,
            }
        )
    return rows


def bid_trumps() -> dict[str, str]:
    """For the page's script: the trumps each bid allows, as `scoring` says."""
    return {bid.value: " ".join(trump_text(trump) for trump in trumps_allowed(bid)) for bid in Bid}
