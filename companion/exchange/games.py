"""A game of the export file: its table and seats, hands, history and precedents, each a model
whose fields are the kinds of value of `companion.exchange.fields`, and whose validators ask
`scoring` what the game means, so that a game `scoring` would not have played is refused with
the reason.

What the models keep is what the file says: players by name at every level. The seats a game's
names stand for come from its table (:meth:`GameEntry.seat`), in the checks and in the import.
"""

from __future__ import annotations

from typing import Literal

from pydantic import (
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from companion.exchange.errors import problem, show
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
    Rules,
    Snapshot,
)
from companion.models import Hand, HandChange
from scoring import (
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
)
from scoring import points as card_points
from scoring.cards import check_copies
from scoring.cli import judge_request
from scoring.game import Game as ScoredGame
from scoring.game import replay

HAND_FIELDS = tuple(name for name in Hand.SNAPSHOT_FIELDS if name != "number")
JOKER_BIDS = (Hand.Bid.SMALL_JOKERS, Hand.Bid.BIG_JOKERS)
SUIT_BIDS = (Hand.Bid.ONE, Hand.Bid.PAIR)
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
    player: str
    level: Level

    @field_validator("player", mode="plain")
    @classmethod
    def _on_the_roster(cls, name: object, info: ValidationInfo) -> str:
        roster = info.context.get("roster", ())  # none where the roster itself is wrong
        if not isinstance(name, str) or (roster and name not in roster):
            raise problem(f"must be a name on the roster, got {show(name)}", joined=" ")
        return name


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
        if self.confirmed_by is not None and self.confirmed_at is None:
            raise problem(f"it says {self.confirmed_by!r} confirmed it, but not when")
        if self.flagged_by is not None and self.flagged_at is None:
            raise problem(f"it says {self.flagged_by!r} flagged it, but not when")
        if self.flag_note and self.flagged_at is None:
            raise problem(f"it holds a flag's note, {self.flag_note!r}, but nobody flagged it")
        if self.confirmed_at is not None and self.flagged_at is not None:
            raise problem("it is both confirmed and flagged, but a flag takes a confirmation back")
        if not self.needs_confirmation and (self.confirmed_at or self.flagged_at) is not None:
            word = "flagged" if self.confirmed_at is None else "confirmed"
            raise problem(f"it is {word}, but it was entered without needing a confirmation")
        if self.confirmed_by is not None and self.confirmed_by == self.entered_by:
            raise problem(
                f"{self.confirmed_by!r} entered it and confirmed it, but the confirmation "
                "comes from another account"
            )
        return self

    def fields(self, game: GameEntry) -> dict:
        """The `Hand` model's fields: the declarer and friends by seat at ``game``'s table (its
        accounts are :attr:`accounts`)."""
        names = (*HAND_FIELDS, "created", "updated", *SECOND_SEAT)
        fields = {name: getattr(self, name) for name in names}
        fields["declarer"] = game.seat(self.declarer, "declarer")
        fields["friends"] = [game.seat(name, "friends") for name in self.friends]
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
            raise problem(f"only a flag has a note, but a hand {self.action} has {self.note!r}")
        if self.action in CONFIRMATION_ACTIONS and (self.before, self.after) != (None, None):
            raise problem(
                f"a hand {self.action} keeps its contents, so before and after must be null"
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
        except (ScoringError, RecursionError) as error:
            raise problem(f"request: {error}") from None
        if verdict != self.verdict:
            raise problem("the verdict is not what scoring answers for the request")
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
            raise problem(str(error)) from None
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
            raise problem(str(error)) from None
        self._check_history(hands)
        for number, dispute in enumerate(self.disputes, start=1):
            if dispute.hand is not None and not 1 <= dispute.hand <= len(hands):
                raise problem(
                    f"hand must be null or the number of one of the game's {len(hands)} "
                    f"hands, got {show(dispute.hand)}",
                    "disputes",
                    number - 1,
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
    def first_seat(self) -> int | None:
        if self.first_declarer is None:
            return None
        return self.seat(self.first_declarer, "first_declarer")

    def seat(self, name: object, key: str) -> int:
        """The seat of the player ``name`` at the table."""
        players = self._table.players
        if not isinstance(name, str) or name not in players:
            raise problem(
                f"{key} must be one of the players at the table ({', '.join(players)}), "
                f"got {show(name)}"
            )
        return players.index(name)

    def seated(self, snapshot: dict | None, key: str) -> dict | None:
        """A history snapshot with its declarer and friends by seat."""
        if snapshot is None:
            return None
        seated = dict(snapshot)
        if "declarer" in seated:
            seated["declarer"] = self.seat(snapshot["declarer"], f"{key}: declarer")
        if "friends" in seated:
            seated["friends"] = [self.seat(name, f"{key}: friends") for name in seated["friends"]]
        return seated

    def _kitty(self, cards_text: str, points: int) -> str:
        try:
            cards = tuple(Card.parse(card) for card in cards_text.split())
            check_copies(cards, decks=self._table.decks)
        except CardError as error:
            raise problem(f"kitty_cards: {error}") from None
        if len(cards) != self._table.kitty_cards:
            raise problem(
                f"kitty_cards holds {len(cards)} cards, but this table's kitty holds "
                f"{self._table.kitty_cards}"
            )
        if card_points(cards) != points:
            raise problem(
                f"kitty_cards {cards_text!r} hold {card_points(cards)} points, "
                f"but kitty_points is {points}"
            )
        return " ".join(str(card) for card in cards)

    def _check_history(self, hands: list[dict]) -> None:
        """The changes, replayed in order from no hands, must give the hands (as far as each
        snapshot tells: older ones lack later fields). A game kept without a history passes."""
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
                        f"hand {at} cannot be {action}: the history had {len(kept)} hands then"
                    )
        if self.changes and len(kept) != len(hands):
            raise problem(f"the history leads to {len(kept)} hands, but the game has {len(hands)}")
        for number, (snapshot, fields) in enumerate(zip(kept, hands, strict=True), start=1):
            for key, value in as_migrated(snapshot or {}).items():
                if key != "number" and fields.get(key, value) != value:
                    raise problem(
                        f"the history leaves its {key} at {show(value)}, but the hand has "
                        f"{show(fields[key])}",
                        "hands",
                        number - 1,
                    )


def as_migrated(snapshot: dict) -> dict:
    """A snapshot as migration 0005 left its hand: a bid the trump contradicts reads "none"
    (the history kept what was entered)."""
    bid, trump = snapshot.get("bid"), snapshot.get("trump")
    if (bid in JOKER_BIDS and trump) or (bid in SUIT_BIDS and not trump):
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
            raise problem(context["text"], *self.at, *context["at"], joined=context["joined"])
        return False
