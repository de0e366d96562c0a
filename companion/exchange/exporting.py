"""A group's export, written a game at a time: the JSON file (see `companion.exchange`) and
its hands as CSV. Games are read from the database in batches, so an export of any length
holds one batch in memory."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator

from django.db.models import Prefetch
from django.utils import timezone

from companion.exchange.games import CONFIRMATION_ACCOUNTS, HAND_FIELDS
from companion.exchange.schema import FORMAT, VERSION
from companion.exchange.writing import (
    evening_written,
    game_written,
    group_written,
    log_written,
    member_written,
    player_written,
    table_written,
)
from companion.models import Dispute, EveningTable, Game, Group, Hand, HandChange
from scoring import Table
from scoring.table import MAX_PLAYERS

GAMES_PER_BATCH = 20  # a few hundred hands and changes in memory at once

# What the table entered for a hand, after who played: the CSV's columns follow the model's.
ENTERED_FIELDS = tuple(name for name in HAND_FIELDS if name not in ("declarer", "friends"))
SEAT_COLUMNS = tuple(f"seat_{seat}" for seat in range(1, MAX_PLAYERS + 1))
LEVEL_COLUMNS = tuple(f"level_{seat}" for seat in range(1, MAX_PLAYERS + 1))
# A game played at a club night names its evening (by id, as ``game`` names the game), its round
# and its table; the columns are empty for the group's other games.
EVENING_COLUMNS = ("evening", "round", "table")
CSV_COLUMNS = (
    "game",
    "date",
    *EVENING_COLUMNS,
    "rules",
    "teams",
    "decks",
    *SEAT_COLUMNS,
    "hand",
    "declarer",
    "friends",
    *ENTERED_FIELDS,
    "declarers",
    "opponents",
    "opponent_total",
    "winner",
    *LEVEL_COLUMNS,
)
# What a spreadsheet may run as a formula: the signs, the control characters it skips, and the
# invisible and full-width look-alikes some spreadsheets fold into them.
FORMULA_STARTS = (
    *("=", "+", "-", "@", "\t", "\r", "\n"),
    *("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"),
    *("\uff1d", "\uff0b", "\uff0d", "\uff20"),
)


def _games(group: Group, *, history: bool) -> Iterator[Game]:
    """The group's games oldest first, with their seats and hands (and ``history``: their
    changes and precedents), fetched a batch at a time."""
    hands = Hand.objects.order_by("number")
    if history:
        hands = hands.select_related(*CONFIRMATION_ACCOUNTS)
    related = ["seats__player", Prefetch("hands", hands)]
    if history:
        related += [
            Prefetch("changes", HandChange.objects.select_related("by").order_by("pk")),
            Prefetch("disputes", Dispute.objects.select_related("created_by").order_by("pk")),
        ]
    games = (
        group.games.order_by("pk")
        .select_related("created_by", "evening_table__round")
        .prefetch_related(*related)
    )
    return games.iterator(chunk_size=GAMES_PER_BATCH)


def _head(group: Group) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "group": group_written(group),
        "members": [
            member_written(member)
            for member in group.membership_set.select_related("user").order_by("pk")
        ],
        "players": [
            player_written(player) for player in group.players.select_related("user").order_by("pk")
        ],
        "scoring_tables": [table_written(table) for table in group.scoring_tables.order_by("pk")],
        "log": _log(group),
        "evenings": _evenings(group),
    }


def _evenings(group: Group) -> list[dict]:
    """The group's evenings, oldest first: players by name, games by number in the file."""
    evenings = list(
        group.evenings.order_by("pk")
        .select_related("created_by")
        .prefetch_related("presences", "rounds__tables_played")
    )
    if not evenings:
        return []
    names = dict(group.players.values_list("pk", "name"))
    games = {
        pk: number
        for number, pk in enumerate(group.games.order_by("pk").values_list("pk", flat=True), 1)
    }
    return [evening_written(evening, names, games) for evening in evenings]


def _log(group: Group) -> list[dict]:
    """The group's log, oldest first, each change's game by its number in the file."""
    changes = list(group.changes.select_related("player").order_by("at", "pk"))
    named = {change.game_id for change in changes} - {None}
    games = {}
    if named:
        for number, pk in enumerate(group.games.order_by("pk").values_list("pk", flat=True), 1):
            if pk in named:
                games[pk] = number
    return [log_written(change, games) for change in changes]


def _json(value: object) -> str:
    """Compact JSON, names written as they are (UTF-8)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def export_group(group: Group) -> dict:
    """The group as one JSON-ready document (see `companion.exchange`)."""
    return {**_head(group), "games": [game_written(game) for game in _games(group, history=True)]}


def json_chunks(group: Group) -> Iterator[str]:
    """The export file's text, a game at a time: joined, :func:`dumps`."""
    head = _json({**_head(group), "games": []})
    yield head[: -len("]}")]
    for number, game in enumerate(_games(group, history=True)):
        yield ("," if number else "") + _json(game_written(game))
    yield "]}"


def dumps(group: Group) -> str:
    """The export as the text of a file."""
    return "".join(json_chunks(group))


def hands_csv(group: Group) -> Iterator[list]:
    """One row per hand, after a header of CSV_COLUMNS: the game, its club night if it was
    played at one (``evening``, ``round``, ``table``), the table (its players in play order in
    ``seat_1`` on), what the table entered, and what `scoring` makes of it: the sides by name,
    the opponents' total, the winning side, and every seat's level after the hand."""
    yield list(CSV_COLUMNS)
    for game in _games(group, history=False):
        hands = list(game.hands.all())
        scored = game.scored(hands)
        table = scored.table
        empty = [""] * (MAX_PLAYERS - table.size)
        start = [
            game.pk,
            timezone.localtime(game.created).date().isoformat(),
            *_at_evening(game),
            game.rules.name,
            game.teams,
            game.decks,
            *table.players,
            *empty,
        ]
        for hand, played in zip(hands, scored.hands, strict=True):
            yield [
                *start,
                hand.number,
                table.players[hand.declarer],
                _listed(table, hand.friends),
                *(getattr(hand, name) for name in ENTERED_FIELDS),
                _listed(table, played.declarers),
                _listed(table, played.opponents),
                played.settlement.opponent_total,
                played.winner.value,
                *(level.symbol for level in played.after.levels),
                *empty,
            ]


def _at_evening(game: Game) -> tuple:
    """The game's evening, round and table, or empty cells for a game of no evening."""
    try:
        table = game.evening_table
    except EveningTable.DoesNotExist:
        return ("",) * len(EVENING_COLUMNS)
    return (table.round.evening_id, table.round.number, table.number)


def _listed(table: Table, seats: Iterable[int]) -> str:
    return ", ".join(table.players[seat] for seat in seats)


class _Line:
    """Where `csv.writer` writes a row: it hands the row's text back."""

    def write(self, text: str) -> str:
        return text


def csv_lines(group: Group) -> Iterator[str]:
    """The CSV file's text, a row at a time: joined, :func:`csv_text`."""
    writer = csv.writer(_Line())
    for row in hands_csv(group):
        yield writer.writerow([_inert(cell) for cell in row])


def csv_text(group: Group) -> str:
    return "".join(csv_lines(group))


def _inert(cell: object) -> object:
    """A text cell a spreadsheet would run as a formula (a player named ``=HYPERLINK(…)``)
    gets a leading ``'``, as OWASP advises; numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell
