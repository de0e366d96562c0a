"""Each part of the export file as the database writes it: a typed dict a part, the shape that
`companion.exchange.schema` and `companion.exchange.games` read back field by field, and the
function that writes it from the models. Players appear by name and accounts by username,
never by database id."""

from __future__ import annotations

from datetime import UTC, datetime
from operator import attrgetter
from typing import TypedDict

from companion.exchange.fields import written_trump
from companion.models import (
    Dispute,
    Evening,
    Game,
    Group,
    GroupChange,
    Hand,
    HandChange,
    Membership,
    Player,
    Round,
    ScoringTable,
)


class GroupWritten(TypedDict):
    name: str
    created: str
    hands_need_confirmation: bool


class MemberWritten(TypedDict):
    username: str
    joined: str
    role: str


class PlayerWritten(TypedDict):
    name: str
    user: str | None
    retired: bool


class TableWritten(TypedDict):
    rules: dict
    updated: str


class LogWritten(TypedDict):
    action: str
    at: str
    by_name: str
    member_name: str
    player: str | None
    game: int | None
    before: str
    after: str


class SeatWritten(TypedDict):
    player: str
    level: str


class HandWritten(TypedDict):
    """What the table entered (`Hand.SNAPSHOT_FIELDS` but its number, its declarer and friends
    by name), then when and its second seat."""

    declarer: str
    friends: list[str]
    bid: str
    trump: str
    kitty_cards: str
    kitty_points: int
    opponent_points: int
    last_trick_winner: str
    last_trick_format: str
    last_trick_cards: int
    declarer_cards_taken_back: int
    opponent_cards_taken_back: int
    created: str
    updated: str
    entered_by: str | None
    needs_confirmation: bool
    confirmed_by: str | None
    confirmed_at: str | None
    flagged_by: str | None
    flagged_at: str | None
    flag_note: str


class ChangeWritten(TypedDict):
    hand_number: int
    action: str
    before: dict | None
    after: dict | None
    by: str | None
    at: str
    note: str


class DisputeWritten(TypedDict):
    hand_number: int
    hand: int | None
    request: dict
    verdict: dict
    created_by: str | None
    created: str


class GameWritten(TypedDict):
    created: str
    created_by: str | None
    rules: dict
    seats: list[SeatWritten]
    decks: int
    teams: str
    trumps: str | list[str]
    called: int | None
    first_declarer: str | None
    hands: list[HandWritten]
    changes: list[ChangeWritten]
    disputes: list[DisputeWritten]


class PresenceWritten(TypedDict):
    player: str
    present: bool


class TablePlayedWritten(TypedDict):
    players: list[str]
    game: int | None
    ended: str | None


class RoundWritten(TypedDict):
    number: int
    tables: list[TablePlayedWritten]
    sitting_out: list[str]
    started: str | None
    ended: str | None


class EveningWritten(TypedDict):
    created: str
    created_by: str | None
    ended: str | None
    seed: int
    seating: str
    leftover: str
    players_per_table: int
    rules: dict
    decks: int | None
    teams: str
    trumps: str | list[str]
    called: int | None
    hands_per_round: int | None
    minutes_per_round: int | None
    presences: list[PresenceWritten]
    rounds: list[RoundWritten]


def isoformat(moment: datetime) -> str:
    """A timestamp as the export file writes it: ISO 8601 in UTC, to the microsecond it holds."""
    return moment.astimezone(UTC).isoformat()


def _isoformat_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else isoformat(moment)


def _username(user) -> str | None:
    return None if user is None else user.username


def _named(snapshot: dict | None, names: list[str]) -> dict | None:
    """A hand's fields as the export writes them, in the hands and in their history: its
    declarer and friends by name instead of seat, its trump in the file's spelling."""
    if snapshot is None:
        return None
    named = dict(snapshot)
    if "declarer" in named:
        named["declarer"] = names[named["declarer"]]
    if "friends" in named:
        named["friends"] = [names[seat] for seat in named["friends"]]
    if "trump" in named:
        named["trump"] = written_trump(named["trump"])
    return named


def group_written(group: Group) -> GroupWritten:
    """The group's own part of its export file."""
    return {
        "name": group.name,
        "created": isoformat(group.created),
        "hands_need_confirmation": group.hands_need_confirmation,
    }


def member_written(membership: Membership) -> MemberWritten:
    return {
        "username": membership.user.username,
        "joined": isoformat(membership.joined),
        "role": membership.role,
    }


def player_written(player: Player) -> PlayerWritten:
    return {"name": player.name, "user": _username(player.user), "retired": player.retired}


def table_written(table: ScoringTable) -> TableWritten:
    return {"rules": table.rules_json, "updated": isoformat(table.updated)}


def log_written(change: GroupChange, games: dict[int, int]) -> LogWritten:
    """The change as the export file keeps it: the names recorded, never an account; its player
    by name and its game by its number in the file, from ``games`` (the group's game ids to
    their numbers)."""
    return {
        "action": change.action,
        "at": isoformat(change.at),
        "by_name": change.by_name,
        "member_name": change.member_name,
        "player": change.player.name if change.player is not None else None,
        "game": games.get(change.game_id),
        "before": change.before,
        "after": change.after,
    }


def evening_written(
    evening: Evening, names: dict[int, str], games: dict[int, int]
) -> EveningWritten:
    """The evening as the export file keeps it: players by name (``names``: the roster's, by
    id) and each table's game by its number in the file (``games``: the group's game ids to
    their numbers); prefetch its presences and its rounds' tables when exporting many."""
    return {
        "created": isoformat(evening.created),
        "created_by": _username(evening.created_by),
        "ended": _isoformat_or_none(evening.ended),
        "seed": evening.seed,
        "seating": evening.seating,
        "leftover": evening.leftover,
        "players_per_table": evening.players_per_table,
        "rules": evening.rules_json,
        "decks": evening.decks,
        "teams": evening.teams,
        "trumps": evening.trumps,
        "called": evening.called,
        "hands_per_round": evening.hands_per_round,
        "minutes_per_round": evening.minutes_per_round,
        "presences": [
            {"player": names[presence.player_id], "present": presence.present}
            for presence in sorted(evening.presences.all(), key=attrgetter("pk"))
        ],
        "rounds": [
            round_written(played, names, games)
            for played in sorted(evening.rounds.all(), key=attrgetter("number"))
        ],
    }


def round_written(played: Round, names: dict[int, str], games: dict[int, int]) -> RoundWritten:
    """A round of an evening: its seating by name, each table's game by number in the file."""
    at = {table.number: table for table in played.tables_played.all()}
    tables: list[TablePlayedWritten] = []
    for number, seated in enumerate(played.tables, start=1):
        table = at.get(number)
        tables.append(
            {
                "players": [names[pk] for pk in seated],
                "game": None if table is None else games[table.game_id],
                "ended": None if table is None else _isoformat_or_none(table.ended),
            }
        )
    return {
        "number": played.number,
        "tables": tables,
        "sitting_out": [names[pk] for pk in played.sitting_out],
        "started": _isoformat_or_none(played.started),
        "ended": _isoformat_or_none(played.ended),
    }


def game_written(game: Game) -> GameWritten:
    """The game as the export file writes it: players by name, its hands, their history and its
    precedents (prefetch them when exporting many games)."""
    names = [player.name for player in game.players]
    hands = sorted(game.hands.all(), key=attrgetter("number"))
    numbers = {hand.pk: hand.number for hand in hands}
    return {
        "created": isoformat(game.created),
        "created_by": _username(game.created_by),
        "rules": game.rules_json,
        "seats": [{"player": seat.player.name, "level": seat.level} for seat in game.seated],
        "decks": game.decks,
        "teams": game.teams,
        "trumps": game.trumps,
        "called": game.called,
        "first_declarer": None if game.first_declarer is None else names[game.first_declarer],
        "hands": [hand_written(hand, names) for hand in hands],
        "changes": [
            change_written(change, names)
            for change in sorted(game.changes.all(), key=attrgetter("pk"))
        ],
        "disputes": [
            dispute_written(dispute, numbers)
            for dispute in sorted(game.disputes.all(), key=attrgetter("pk"))
        ],
    }


def hand_written(hand: Hand, names: list[str]) -> HandWritten:
    """The hand in its game's export, ``names`` the players in seat order."""
    entered = _named(hand.snapshot(), names)
    del entered["number"]  # the hand's place in the list
    return {
        **entered,
        "created": isoformat(hand.created),
        "updated": isoformat(hand.updated),
        # Its second seat (`Game.confirm_hand`): accounts by username, as the whole file has them.
        "entered_by": _username(hand.entered_by),
        "needs_confirmation": hand.needs_confirmation,
        "confirmed_by": _username(hand.confirmed_by),
        "confirmed_at": _isoformat_or_none(hand.confirmed_at),
        "flagged_by": _username(hand.flagged_by),
        "flagged_at": _isoformat_or_none(hand.flagged_at),
        "flag_note": hand.flag_note,
    }


def change_written(change: HandChange, names: list[str]) -> ChangeWritten:
    return {
        "hand_number": change.hand_number,
        "action": change.action,
        "before": _named(change.before, names),
        "after": _named(change.after, names),
        "by": _username(change.by),
        "at": isoformat(change.at),
        "note": change.note,
    }


def dispute_written(dispute: Dispute, numbers: dict[int, int]) -> DisputeWritten:
    """The precedent in its game's export, ``numbers`` the game's hand numbers by id."""
    return {
        "hand_number": dispute.hand_number,
        "hand": numbers.get(dispute.hand_id),
        "request": dispute.request,
        "verdict": dispute.verdict,
        "created_by": _username(dispute.created_by),
        "created": isoformat(dispute.created),
    }
