"""A group's whole history as one JSON file, and its hands as CSV.

The JSON export names nothing by database id: players appear by their names (unique in a group),
accounts as usernames, and every timestamp is kept. So exporting a group, importing the file and
exporting the new group gives the same text again; only the group's name may differ, the
members, which the importer chooses, the log, whose newest line is the import, and the links
a new group gets (each game's share link, each evening's room screen link). What a hand
means (its settlement, the levels after it) is never stored: `scoring` computes it, on import
to refuse an impossible game and in the CSV for the reader.

    {"format": "tractor-companion-group", "version": 5,
     "group": {"name", "created", "hands_need_confirmation"},
     "members": [{"username", "joined", "role"}],
     "players": [{"name", "user", "retired"}], "scoring_tables": [{"rules", "updated"}],
     "log": [{"action", "at", "by_name", "member_name", "player", "game", "before", "after"}],
     "evenings": [{"created", "created_by", "ended", "seed", "seating", "leftover",
                   "players_per_table", "rules", "decks", "teams", "trumps", "called",
                   "hands_per_round", "minutes_per_round",
                   "presences": [{"player", "present"}],
                   "rounds": [{"number", "tables": [{"players", "game", "ended"}],
                               "sitting_out", "started", "ended"}]}],
     "games": [{"created", "created_by", "rules",
                "seats": [{"player", "level"}], "decks", "teams", "trumps", "called",
                "first_declarer",
                "hands": [{"declarer", "friends", "bid", "trump", "kitty_cards",
                           "kitty_points", "opponent_points", "last_trick_winner",
                           "last_trick_format", "last_trick_cards",
                           "declarer_cards_taken_back", "opponent_cards_taken_back",
                           "created", "updated", "entered_by", "needs_confirmation",
                           "confirmed_by", "confirmed_at", "flagged_by", "flagged_at",
                           "flag_note"}],
                "changes": [{"hand_number", "action", "before", "after", "by", "at",
                             "note"}],
                "disputes": [{"hand_number", "hand", "request", "verdict", "created_by",
                              "created"}]}]}

`companion.exchange.schema` declares it, field by field; `companion.exchange.writing` writes it.
A game's ``seats`` are in play order, each a player's name and the level they start at.
``decks``, ``teams`` and ``trumps`` are the table as `scoring.Table` holds it (``trumps``:
``"bid"``, ``"no-trump"`` or a list of suits in rotation), ``called`` the cards a find-a-friend
declarer calls (null in other games). Who starts hand 1 (``first_declarer``), each hand's
``declarer`` and ``friends``, and the same fields of the hands kept in the history (``before``
and ``after``) name players at the table, never seat numbers: a reader sees who it was, and a
name at a table is one seat. ``bid`` is empty where the game fixes the trump and nobody bids;
``trump`` is a suit's letter, or empty for a hand without trump (which the database writes NT).
A dispute's ``hand`` is the number of the hand it is linked to, or null while it waits for one.

Second-seat confirmation is kept whole: whether the group asks for it, and on every hand who
entered its contents, whether they need a confirmation, who confirmed or flagged them and when
(null where nobody did), and the flag's note ("" without one). The history's ``confirmed``,
``flagged`` and ``unflagged`` changes name a hand already recorded and leave it as it was
(``before`` and ``after`` null); only a ``flagged`` change has a ``note``. A file whose hands
the database could not hold (confirmed and flagged at once, confirmed by the account that
entered it, a confirmation without its time, …) is refused, naming the game and hand.

A member's ``role`` is ``"admin"`` or ``"member"``. The ``log`` is the group's (`GroupChange`),
oldest first, as it was recorded: ``action`` one of its changes (``"renamed"``, ``"made_admin"``,
``"imported"``, …), ``at`` when, ``by_name`` and ``member_name`` who made it and whom it was about
by the names the table knew them by then ("" for nobody known), never an account; ``player`` the
retired or returning player by name on the roster, ``game`` the game whose share link was
replaced by its number in ``games`` from 1 (each null where there is none, or it is gone),
``before`` and ``after`` the names changed (the group's, a scoring table's, a player's). An import
keeps the log as it is, linked to no account (a file's username may be nobody's here, or someone
else's), makes the importer its admin whatever the file says, the file's other members keeping
their roles, and adds its own line ("Mei imported the group … from a file"). The reader refuses
a log of more than 10,000 changes, or with a text longer than 150 characters, before it builds
any of the file's head.

An evening is a club night (`companion.models.evenings`), kept whole: its table shape as its
start chose it (``players_per_table``, ``rules``, ``decks``: null for a deck per two players,
``teams``, ``trumps``, ``called``), its ``seating`` rule (``"random"``, ``"balanced"``,
``"new-partners"``) and the ``seed`` every round's seating follows from, ``leftover``
(``"sit-out"`` or ``"mixed"``), the round's limits (null for none), when it began and ended
(null while it goes on), and who made it. ``presences`` is its list of players by name on the
roster, each ``present`` or gone since. Each round, numbered from 1, is its seating by name:
each table's players in seat order and who sits out; ``started`` is null while the round is
only proposed (only the last round may be), ``ended`` null while it is played. A table's
``game`` is the game played at it by its number in ``games`` from 1, as the log names games
(null before the round starts, or if the game is gone), and its ``ended`` when the evening cut
that game short (null otherwise): such a game counts for levels and hands, not as won, and a
file that has it won is refused. The game's seats are the table's players, in order. The
reader refuses more than 10,000 evenings, an evening of more than 200 rounds or with more than
256 players on its list (an evening seats 64 at once: `scoring.evenings`) in its shape pass,
before it builds any of the file's head; then a round naming a game not in the file, a game at
two tables, a player seated twice or not on the evening's list, a table of a size the evening
does not seat. An import gives each evening a room screen link of its own.

Version 1 files, from when every game had four seats, still import: they are read into this
form exactly as migration ``0005_tables`` converts the database (`companion.exchange.version1`).
Version 2 files, from before second-seat confirmation, read as migration ``0010_confirmations``
reads the hands it finds: none needs a confirmation (`companion.exchange.version2`). Version 3
files, from before roles and the log, read as migration ``0015_group_roles`` reads memberships:
the earliest member is the admin, the others members, and the log is empty
(`companion.exchange.version3`). Version 4 files, from before club nights, read as a group that
played none: no evenings, every game an ordinary one (`companion.exchange.version4`).

The CSV's ``evening``, ``round`` and ``table`` name a club night's game's evening (by id, as
``game`` names the game), round and table; they are empty for the group's other games.
"""

from companion.exchange.errors import ExchangeError
from companion.exchange.exporting import (
    CSV_COLUMNS,
    csv_lines,
    csv_text,
    dumps,
    export_group,
    hands_csv,
    json_chunks,
)
from companion.exchange.importing import Imported, import_group, known_accounts
from companion.exchange.jobs import clean_up_imports, run_import
from companion.exchange.reading import GroupExport, counted, load, read
from companion.exchange.schema import FORMAT, VERSION
from companion.exchange.writing import isoformat

__all__ = [
    "CSV_COLUMNS",
    "FORMAT",
    "VERSION",
    "ExchangeError",
    "GroupExport",
    "Imported",
    "clean_up_imports",
    "counted",
    "csv_lines",
    "csv_text",
    "dumps",
    "export_group",
    "hands_csv",
    "import_group",
    "isoformat",
    "json_chunks",
    "known_accounts",
    "load",
    "read",
    "run_import",
]
