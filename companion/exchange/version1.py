"""Version 1 of the export file, from when every game had four seats by compass point and two
team levels: read, then written in the form of version 2 exactly as migration ``0005_tables``
converts the database, and on in today's (`companion.exchange.version2`), for
`companion.exchange.schema` to check as any other file.

What today's form checks as well is only passed on here (``JSON``): the file is read once for
the shape only version 1 has, and once more as today's."""

from __future__ import annotations

from typing import Annotated, Literal

from django.utils.translation import gettext as _
from pydantic import (
    PlainValidator,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from companion.exchange.errors import ExchangeError, message, problem, show
from companion.exchange.fields import (
    JSON,
    Level,
    OptionalUsername,
    Part,
    PlayerName,
    Rules,
    stored_trump,
)
from companion.exchange.games import contradicts
from companion.exchange.schema import FORMAT
from companion.exchange.version2 import SECOND_VERSION, SecondHead
from companion.exchange.version2 import game_today as version2_game_today
from companion.models import Hand
from scoring import ScoringError, Starter, Teams, TrumpRule, rules_from_json
from scoring.cli import judge_request

OLD_VERSION = 1
OLD_SEATS = ("north", "east", "south", "west")
COMPASS = ("N", "E", "S", "W")
PLAY_ORDER = ("N", "W", "S", "E")
"""The compass seats in play order (counter-clockwise): seats 0 to 3, as migration 0005 has it."""


def _position(value: object, info: ValidationInfo) -> int:
    roster = info.context["roster"]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(roster):
        raise problem(
            _("%(key)s must be a player's place on the roster, from 0 to %(last)s, not %(value)s."),
            last=len(roster) - 1,
            value=show(value),
        )
    return value


Position = Annotated[int, PlainValidator(_position)]
"""A player by their place on the roster, from 0."""


class OldPlayer(Part):
    name: PlayerName
    user: OptionalUsername


class CompassSeats(Part):
    north: Position
    east: Position
    south: Position
    west: Position


class OldHand(Part):
    declarer: Literal[COMPASS]
    bid: JSON
    trump: JSON
    kitty_cards: JSON
    kitty_points: JSON
    opponent_points: JSON
    last_trick_winner: JSON
    last_trick_format: JSON
    last_trick_cards: JSON
    declarer_cards_taken_back: JSON
    opponent_cards_taken_back: JSON
    created: JSON
    updated: JSON

    def today(self, names: dict[str, str]) -> dict:
        """The hand played as entered: a bid that contradicts its trump (jokers with a suit,
        level cards without one) becomes "nobody bid", since the trump is what it was played
        with."""
        hand = {**dict(self), "declarer": names[self.declarer], "friends": []}
        if contradicts(self.bid, stored_trump(self.trump)):
            hand["bid"] = Hand.Bid.NONE.value
        return hand


class OldGame(Part):
    created: JSON
    created_by: JSON
    rules: Rules
    seats: CompassSeats
    north_south_level: Level
    east_west_level: Level
    first_starter: Literal[("", *COMPASS)]
    hands: list[OldHand]
    changes: list[JSON]
    disputes: list[JSON]

    @model_validator(mode="after")
    def _declarers_on_the_compass(self) -> OldGame:
        for number, change in enumerate(self.changes, start=1):
            for key, snapshot in _snapshots(change):
                if snapshot["declarer"] not in COMPASS:
                    raise problem(
                        # Translators: %(seats)s are the compass seats as the file writes them.
                        _("%(key)s must be one of %(seats)s, not %(value)s."),
                        "changes",
                        number - 1,
                        key,
                        "declarer",
                        seats="'N', 'E', 'S', 'W'",
                        value=show(snapshot["declarer"]),
                    )
        return self

    def today(self, roster: tuple[str, ...]) -> dict:
        """North, West, South and East become seats 0 to 3 (the play order; partners 0+2
        against 1+3) with their team's level; a first starter is kept only where the rules
        rotate the start (elsewhere it never bound anyone); declarers, in the hands and in
        their history, become players. As migration 0006 does, open-ladder rules get their
        jokers-only no-trump hands and every precedent is judged again by today's judge."""
        names = {
            letter: roster[getattr(self.seats, seat)]
            for seat, letter in zip(OLD_SEATS, COMPASS, strict=True)
        }
        levels = {"N": self.north_south_level, "E": self.east_west_level}
        levels["S"], levels["W"] = levels["N"], levels["E"]
        starter = self.first_starter
        rotates = rules_from_json(self.rules).starter is Starter.ROTATE
        return {
            "created": self.created,
            "created_by": self.created_by,
            "rules": _open_ladder(self.rules),
            "seats": [{"player": names[seat], "level": levels[seat]} for seat in PLAY_ORDER],
            "decks": 2,
            "teams": Teams.PARTNERS.value,
            "trumps": TrumpRule().to_json(),
            "called": None,
            "first_declarer": names[starter] if starter and rotates else None,
            "hands": [hand.today(names) for hand in self.hands],
            "changes": [_change_today(change, names) for change in self.changes],
            "disputes": [_dispute_today(dispute) for dispute in self.disputes],
        }


def _snapshots(change: object):
    """The change's snapshots that name a declarer, as (key, snapshot)."""
    if isinstance(change, dict):
        for key in ("before", "after"):
            snapshot = change.get(key)
            if isinstance(snapshot, dict) and isinstance(snapshot.get("declarer"), str):
                yield key, snapshot


def _change_today(change: object, names: dict[str, str]) -> object:
    if not isinstance(change, dict):
        return change  # today's check names the problem
    today = dict(change)
    for key, snapshot in _snapshots(change):
        today[key] = {**snapshot, "declarer": names[snapshot["declarer"]]}
        today[key].setdefault("friends", [])
    return today


def _open_ladder(rules: object) -> object:
    if isinstance(rules, dict) and rules.get("name") == "open-ladder":
        return {**rules, "no_trump_level_cards": rules.get("no_trump_level_cards", False)}
    return rules


def _dispute_today(dispute: object) -> object:
    if not (isinstance(dispute, dict) and isinstance(dispute.get("request"), dict)):
        return dispute  # today's check names the problem
    request = {**dispute["request"], "rules": _open_ladder(dispute["request"].get("rules"))}
    try:
        return {**dispute, "request": request, "verdict": judge_request(request)}
    except (ScoringError, RecursionError):
        return dispute


class OldHead(Part):
    """A version 1 file but for its games; :meth:`today` is its text as version 5 writes it
    (:func:`old_game_today` reads each game)."""

    format: Literal[FORMAT]
    version: Literal[OLD_VERSION]
    group: JSON
    members: JSON
    players: list[OldPlayer]
    scoring_tables: JSON
    games: JSON

    @property
    def roster(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    def today(self) -> dict:
        return SecondHead.model_validate(
            {
                "format": FORMAT,
                "version": SECOND_VERSION,
                "group": self.group,
                "members": self.members,
                # Version 1 knew no retired players.
                "players": [{**dict(player), "retired": False} for player in self.players],
                "scoring_tables": self.scoring_tables,
                "games": self.games,
            }
        ).today()


def old_game_today(game: object, number: int, roster: tuple[str, ...]) -> object:
    """Game ``number`` (from 0) of a version 1 file, as versions 3 and 4 write it."""
    try:
        old = OldGame.model_validate(game, context={"roster": roster})
    except ValidationError as error:
        raise ExchangeError(message(error, at=("games", number))) from None
    return version2_game_today(old.today(roster), number)
