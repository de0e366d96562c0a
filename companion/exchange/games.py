"""A game of the export file: its table and seats, hands, history and precedents, each a model
whose fields are the kinds of value of `companion.exchange.fields`, and whose validators ask
`scoring` what the game means, so that a game `scoring` would not have played is refused with
the reason.

What the models keep is what the file says: players by name at every level. The seats a game's
names stand for come from its table (:meth:`GameEntry.seat`), in the checks and in the import.
"""

from __future__ import annotations

from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from pydantic import (
    PrivateAttr,
    StrictBool,
    StrictInt,
    model_validator,
)

from companion.display import either
from companion.exchange.errors import in_words, problem, show
from companion.exchange.fields import (
    JSON,
    Called,
    Cards,
    FlagNote,
    HandNumber,
    Level,
    Moment,
    OptionalHandNumber,
    OptionalMoment,
    OptionalUsername,
    Part,
    PlainObject,
    RosterName,
    Rules,
    Snapshot,
    stored_trump,
)
from companion.models import Hand, HandChange
from scoring import (
    NO_TRUMP,
    Bid,
    Card,
    CardError,
    Format,
    GameError,
    GameSetup,
    Rank,
    ScoringError,
    Side,
    Table,
    TableError,
    Teams,
    TrumpRule,
    rules_from_json,
    trumps_allowed,
)
from scoring import points as card_points
from scoring.cards import check_copies
from scoring.cli import judge_request
from scoring.game import Game as ScoredGame
from scoring.game import replay

HAND_FIELDS = tuple(name for name in Hand.SNAPSHOT_FIELDS if name != "number")
# The choices the models and `scoring` offer (blank: where the game fixes the trump, nobody bids).
BIDS = ("", *Hand.Bid.values)
SIDES = tuple(side.value for side in Side)
FORMATS = tuple(shape.value for shape in Format)
TEAMS = tuple(teams.value for teams in Teams)
ACTIONS = tuple(HandChange.Action.values)
# The second seat's changes: they leave the hand's contents as they were.
CONFIRMATION_ACTIONS = (
    HandChange.Action.CONFIRMED,
    HandChange.Action.FLAGGED,
    HandChange.Action.UNFLAGGED,
)
# A hand's second seat as `Hand` stores it, but for its accounts: the file names them by username
# and the import links them.
SECOND_SEAT = ("needs_confirmation", "confirmed_at", "flagged_at", "flag_note")
CONFIRMATION_ACCOUNTS = ("entered_by", "confirmed_by", "flagged_by")


class SeatEntry(Part):
    player: RosterName
    level: Level


class HandEntry(Part):
    """A hand as the table entered it, its declarer and friends by name."""

    # Players at the table, checked with the game's table (:meth:`GameEntry.seat`).
    declarer: JSON
    friends: list[JSON]
    bid: Literal[BIDS]
    trump: Literal["", "S", "H", "D", "C"]
    kitty_cards: Cards
    kitty_points: StrictInt
    opponent_points: StrictInt
    last_trick_winner: Literal[SIDES]
    last_trick_format: Literal[FORMATS]
    last_trick_cards: StrictInt
    declarer_cards_taken_back: StrictInt
    opponent_cards_taken_back: StrictInt
    created: Moment
    updated: Moment
    entered_by: OptionalUsername
    needs_confirmation: StrictBool
    confirmed_by: OptionalUsername
    confirmed_at: OptionalMoment
    flagged_by: OptionalUsername
    flagged_at: OptionalMoment
    flag_note: FlagNote

    @model_validator(mode="after")
    def _second_seat(self) -> HandEntry:
        """The confirmation as the database keeps one (`Hand`'s constraints), in words."""
        # Translators: %(user)s is an account's username, quoted from the file.
        if self.confirmed_by is not None and self.confirmed_at is None:
            raise problem(
                _("The hand says %(user)s confirmed it, but not when."),
                user=show(self.confirmed_by),
            )
        if self.flagged_by is not None and self.flagged_at is None:
            raise problem(
                _("The hand says %(user)s flagged it, but not when."), user=show(self.flagged_by)
            )
        if self.flag_note and self.flagged_at is None:
            raise problem(
                # Translators: %(note)s is what the flag said, quoted from the file.
                _("The hand holds a flag's note, %(note)s, but nobody flagged it."),
                note=show(self.flag_note),
            )
        if self.confirmed_at is not None and self.flagged_at is not None:
            raise problem(
                _("The hand is both confirmed and flagged, but a flag takes a confirmation back.")
            )
        if not self.needs_confirmation and self.confirmed_at is not None:
            raise problem(
                _("The hand is confirmed, but it was entered without needing a confirmation.")
            )
        if not self.needs_confirmation and self.flagged_at is not None:
            raise problem(
                _("The hand is flagged, but it was entered without needing a confirmation.")
            )
        if self.confirmed_by is not None and self.confirmed_by == self.entered_by:
            raise problem(
                _(
                    "%(user)s entered the hand and confirmed it, but a confirmation comes from "
                    "another account."
                ),
                user=show(self.confirmed_by),
            )
        return self

    def fields(self, game: GameEntry) -> dict:
        """The `Hand` model's fields: the declarer and friends by seat at ``game``'s table (its
        accounts are :attr:`accounts`)."""
        names = (*HAND_FIELDS, "created", "updated", *SECOND_SEAT)
        fields = {name: getattr(self, name) for name in names}
        fields["declarer"] = game.seat(self.declarer, "declarer")
        fields["friends"] = [game.seat(name, "friends") for name in self.friends]
        fields["trump"] = stored_trump(self.trump)
        return fields

    @property
    def accounts(self) -> dict[str, str | None]:
        """Who entered, confirmed and flagged the hand, by username."""
        return {name: getattr(self, name) for name in CONFIRMATION_ACCOUNTS}


class ChangeEntry(Part):
    """A change in a game's history: the hand before and after, declarer and friends by name."""

    hand_number: HandNumber
    action: Literal[ACTIONS]
    before: Snapshot
    after: Snapshot
    by: OptionalUsername
    at: Moment
    note: FlagNote

    @model_validator(mode="after")
    def _as_kept(self) -> ChangeEntry:
        if self.note and self.action != HandChange.Action.FLAGGED:
            raise problem(
                # Translators: %(action)s is the change's action as the file writes it
                # (recorded, edited); %(note)s its note, quoted from the file.
                _("Only a flag has a note, but this change, %(action)s, has %(note)s."),
                action=show(self.action),
                note=show(self.note),
            )
        if self.action in CONFIRMATION_ACTIONS and (self.before, self.after) != (None, None):
            raise problem(
                # Translators: %(action)s is confirmed, flagged or unflagged, quoted from the
                # file; before and after are keys of the file.
                _(
                    "A change %(action)s leaves the hand as it was, so its before and after "
                    "must be null."
                ),
                action=show(self.action),
            )
        return self

    def fields(self, game: GameEntry) -> dict:
        """The `HandChange` model's fields, the snapshots' players by seat; ``by`` is a
        username."""
        return {
            **dict(self),
            "before": game.seated(self.before, "before"),
            "after": game.seated(self.after, "after"),
        }


class DisputeEntry(Part):
    """A precedent: a judged trick, which `scoring` must judge the same way today."""

    hand_number: HandNumber
    hand: OptionalHandNumber
    request: PlainObject
    verdict: PlainObject
    created_by: OptionalUsername
    created: Moment

    @model_validator(mode="after")
    def _judged_alike(self) -> DisputeEntry:
        try:
            verdict = judge_request(self.request)
        except ScoringError as error:
            raise problem("%(problem)s", "request", problem=in_words(error)) from None
        except RecursionError:
            raise problem(_("%(key)s is nested too deeply."), "request") from None
        if verdict != self.verdict:
            raise problem(_("The verdict is not the one this server gives for the trick."))
        return self


class GameEntry(Part):
    """A game: its rules and table, the seats in play order, its hands, their history and its
    precedents. Valid when `scoring` plays its hands from its setup, and its history, replayed
    from no hands, leads to them."""

    created: Moment
    created_by: OptionalUsername
    rules: Rules
    seats: list[SeatEntry]
    decks: JSON
    teams: Literal[TEAMS]
    trumps: JSON
    called: Called
    first_declarer: JSON
    hands: list[HandEntry]
    changes: list[ChangeEntry]
    disputes: list[DisputeEntry]

    _table: Table = PrivateAttr()
    _scored: ScoredGame = PrivateAttr()

    @model_validator(mode="after")
    def _played(self) -> GameEntry:
        try:
            self._table = Table(
                players=tuple(seat.player for seat in self.seats),
                decks=self.decks,
                teams=Teams(self.teams),
                trumps=TrumpRule.from_json(self.trumps),
                called=self.called,
            )
        except TableError as error:
            raise problem("%(problem)s", problem=in_words(error)) from None
        first = self.first_seat
        hands = []
        for number, hand in enumerate(self.hands, start=1):
            with _at("hands", number - 1):
                hands.append(hand.fields(self))
                if hand.kitty_cards:
                    hand.kitty_cards = self._kitty(hand.kitty_cards, hand.kitty_points)
        try:
            setup = GameSetup(
                rules=rules_from_json(self.rules),
                table=self._table,
                levels=tuple(Rank.parse(seat.level) for seat in self.seats),
                first_declarer=first,
            )
            self._scored = replay(setup, (Hand(**fields).result for fields in hands))
        except GameError as error:
            at = ("hands", error.hand - 1) if error.hand is not None else ()
            raise problem("%(problem)s", *at, problem=in_words(error)) from None
        self._check_history(hands)
        for number, dispute in enumerate(self.disputes, start=1):
            if dispute.hand is not None and not 1 <= dispute.hand <= len(hands):
                raise problem(
                    ngettext(
                        "%(key)s must be null or the number of the game's one hand, not %(value)s.",
                        "%(key)s must be null or the number of one of the game's %(count)s "
                        "hands, not %(value)s.",
                        len(hands),
                    ),
                    "disputes",
                    number - 1,
                    "hand",
                    count=len(hands),
                    value=show(dispute.hand),
                )
        return self

    @property
    def table(self) -> Table:
        return self._table

    @property
    def scored(self) -> ScoredGame:
        """The game as `scoring` replayed it to check it."""
        return self._scored

    @property
    def usernames(self) -> set[str]:
        """The accounts the game names: who started it, changed and confirmed its hands,
        saved its precedents."""
        names = {self.created_by}
        names.update(change.by for change in self.changes)
        names.update(name for hand in self.hands for name in hand.accounts.values())
        names.update(dispute.created_by for dispute in self.disputes)
        names.discard(None)
        return names

    @property
    def first_seat(self) -> int | None:
        if self.first_declarer is None:
            return None
        return self.seat(self.first_declarer, "first_declarer")

    def seat(self, name: object, *key: str) -> int:
        """The seat of the player ``name`` at the table (``key``: where the file names them)."""
        players = self._table.players
        if not isinstance(name, str) or name not in players:
            raise problem(
                # Translators: %(players)s are the players at the table, as "Mei, Jun or Lin".
                _("%(key)s must be one of the players at the table, %(players)s, not %(value)s."),
                *key,
                players=either(players),
                value=show(name),
            )
        return players.index(name)

    def seated(self, snapshot: dict | None, key: str) -> dict | None:
        """A history snapshot with its declarer and friends by seat, its trump as the database
        writes it."""
        if snapshot is None:
            return None
        seated = dict(snapshot)
        if "declarer" in seated:
            seated["declarer"] = self.seat(snapshot["declarer"], key, "declarer")
        if "friends" in seated:
            seated["friends"] = [self.seat(name, key, "friends") for name in seated["friends"]]
        if "trump" in seated:
            seated["trump"] = stored_trump(seated["trump"])
        return seated

    def _kitty(self, cards_text: str, points: int) -> str:
        try:
            cards = tuple(Card.parse(card) for card in cards_text.split())
            check_copies(cards, decks=self._table.decks)
        except CardError as error:
            raise problem("%(problem)s", "kitty_cards", problem=in_words(error)) from None
        if len(cards) != self._table.kitty_cards:
            raise problem(
                # Translators: kitty_cards is a key of the file; the kitty is this table's.
                ngettext(
                    "kitty_cards holds %(count)s card, but this table's kitty holds %(kitty)s.",
                    "kitty_cards holds %(count)s cards, but this table's kitty holds %(kitty)s.",
                    len(cards),
                ),
                count=len(cards),
                kitty=self._table.kitty_cards,
            )
        if card_points(cards) != points:
            raise problem(
                # Translators: %(cards)s are the kitty's cards quoted from the file;
                # kitty_cards and kitty_points are keys of the file.
                ngettext(
                    "kitty_cards %(cards)s hold %(count)s point, but kitty_points is %(points)s.",
                    "kitty_cards %(cards)s hold %(count)s points, but kitty_points is %(points)s.",
                    card_points(cards),
                ),
                cards=show(cards_text),
                count=card_points(cards),
                points=points,
            )
        return " ".join(str(card) for card in cards)

    def _check_history(self, hands: list[dict]) -> None:
        """The changes, replayed in order from no hands, must give the hands (as far as each
        snapshot tells: older ones lack later fields). A game kept without a history passes."""
        if not self.changes:
            return
        kept: list[dict | None] = []
        for number, change in enumerate(self.changes, start=1):
            with _at("changes", number - 1):
                fields = change.fields(self)
                at, action = change.hand_number, change.action
                if action == HandChange.Action.RECORDED and at == len(kept) + 1:
                    kept.append(fields["after"])
                elif action == HandChange.Action.EDITED and at <= len(kept):
                    kept[at - 1] = fields["after"]
                elif action == HandChange.Action.DELETED and at <= len(kept):
                    kept.pop(at - 1)
                elif action in CONFIRMATION_ACTIONS and at <= len(kept):
                    pass  # the hand's contents stay as they were
                else:
                    raise problem(
                        # Translators: %(action)s is the change's action quoted from the file
                        # ("recorded", "edited", "deleted", "confirmed", "flagged").
                        ngettext(
                            "This change, %(action)s, is about hand %(number)s, but the history "
                            "had %(count)s hand then.",
                            "This change, %(action)s, is about hand %(number)s, but the history "
                            "had %(count)s hands then.",
                            len(kept),
                        ),
                        number=at,
                        action=show(action),
                        count=len(kept),
                    )
        if len(kept) != len(hands):
            raise problem(
                ngettext(
                    "The history leads to %(count)s hand, but the game has %(hands)s.",
                    "The history leads to %(count)s hands, but the game has %(hands)s.",
                    len(kept),
                ),
                count=len(kept),
                hands=len(hands),
            )
        for number, (snapshot, fields) in enumerate(zip(kept, hands, strict=True), start=1):
            for key, value in as_migrated(snapshot or {}).items():
                if key != "number" and fields.get(key, value) != value:
                    raise problem(
                        # Translators: %(key)s is a key of the file (opponent_points);
                        # %(history)s and %(value)s are values quoted from the file.
                        _(
                            "The history leaves its %(key)s at %(history)s, but the hand has "
                            "%(value)s."
                        ),
                        "hands",
                        number - 1,
                        key,
                        history=show(value),
                        value=show(fields[key]),
                    )


def contradicts(bid: object, trump: object) -> bool:
    """Whether a hand's bid and its trump (as the database writes it: any suit, or NO_TRUMP)
    contradict each other as `scoring.trumps_allowed` says: jokers with a suit, level cards
    without one. What is no bid contradicts nothing: the file's check names it."""
    try:
        allowed = trumps_allowed(Bid(bid))
    except ValueError:
        return False
    if trump != NO_TRUMP:
        return all(suit is None for suit in allowed)
    return None not in allowed


def as_migrated(snapshot: dict) -> dict:
    """A snapshot as migration 0005 left its hand: a bid the trump contradicts reads "none"
    (the history kept what was entered)."""
    if contradicts(snapshot.get("bid"), snapshot.get("trump")):
        return {**snapshot, "bid": Hand.Bid.NONE.value}
    return snapshot


class _at:
    """Place the problems raised inside within a part of the game (``"hands", 0``: hand 1)."""

    def __init__(self, *at: str | int) -> None:
        self.at = at

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, traceback) -> bool:
        if error is not None and getattr(error, "type", None) == "exchange":
            context = error.context
            raise problem(context["text"], *self.at, *context["at"], **context["values"])
        return False
