"""Reading an export file in bounded memory, however large or hostile: its bytes checked as UTF-8
text, its shape measured by a streaming parser (ijson) that builds nothing, then its head (all
but the games) read and checked, and its games read and checked one at a time by the models of
`companion.exchange.schema` and `companion.exchange.games` (versions 1 to 4 through
`companion.exchange.version1` to `companion.exchange.version4`); each game an evening names is
checked against its table there.
No model of the whole file is ever built: a game is read, checked, written and let go."""

from __future__ import annotations

import codecs
import re
import sys
from array import array
from collections.abc import Iterator
from decimal import Decimal
from io import BytesIO

import ijson
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from pydantic import BaseModel, ConfigDict, ValidationError

from companion.exchange.errors import ExchangeError, message, show
from companion.exchange.evenings import MOST_EVENINGS, MOST_PRESENCES, MOST_ROUNDS, unlike
from companion.exchange.fields import JSON
from companion.exchange.games import GameEntry
from companion.exchange.schema import FORMAT, VERSION, ExportHead
from companion.exchange.version1 import OLD_VERSION, OldHead, old_game_today
from companion.exchange.version2 import SECOND_VERSION, SecondHead, game_today
from companion.exchange.version3 import THIRD_VERSION, ThirdHead
from companion.exchange.version4 import FOURTH_VERSION, FourthHead

# An export holds one object or list per 130 bytes or so; a file packed with empty ones
# (``[{},{},…]``) would take a worker dozens of times its size to read.
MIN_CONTAINERS = 1000
BYTES_PER_CONTAINER = 32
SLICE = 2**20  # checked as UTF-8 a megabyte at a time, never copied whole
JSON_PROBLEM = re.compile(r"(?P<what>.*) at line (?P<line>\d+) column (?P<column>\d+)$")
# The most an export's parts hold, far past any group's: the shape pass refuses a file beyond
# them before anything of it is built, so that reading one part never takes more than a few
# dozen megabytes. A game of 2,000 hands with their history is about 200,000 values.
MOST_DEPTH = 40  # an export nests 10 deep; pydantic's own limit is 255
MOST_KEYS = 1000  # keys of one object: a hand has 22
MOST_TEXT = 100_000  # characters of one text: a flag's note has 200
MOST_GAME_VALUES = 500_000  # keys, numbers, texts, lists and objects of one game
MOST_HEAD_VALUES = 500_000  # the same of everything but the games
# A group's log grows by a few changes a month (a rename, a member, a table, a share link now and
# then): ten thousand is a change a day for 27 years, and about 180,000 values, built with the
# head. Each of its texts is a name recorded (150 characters at most) or a group's, a table's or
# a player's name (80).
MOST_LOG_ENTRIES = 10_000
MOST_LOG_TEXT = 150
# ijson reads this much at a time and lists its events before giving the first (about 20 MB
# of them at most); yajl reads a text cut by a read again from its start (a 40 MB text: 2 s).
BUFFER = 2**20
ITEM_STARTS = ("start_map", "start_array", "string", "number", "boolean", "null")
"""The events that begin an item of a list."""
SHOWN_VALUES = 1000  # of a file that is no object, enough to quote its start
# Beyond this size, a file that is not JSON is named by ijson's words; within it, by the words of
# pydantic's reader, which builds what it reads before it stops.
JITER_BYTES = 2**20
# JSON has no NaN or Infinity; pydantic's reader took them, so they are read as these numbers,
# which no export holds.
NOT_A_NUMBER = re.compile(rb'"(?:[^"\\]|\\.)*"|(NaN|-?Infinity)', re.DOTALL)
SPELLED = {b"NaN": b"0e1234567", b"Infinity": b"1e1234567", b"-Infinity": b"-1e1234567"}
NAN = Decimal("0e1234567")
LONG_NUMBER = re.compile(rb"\d{%d,}" % ((sys.get_int_max_str_digits() or 4300) + 1))
# A \uD800 to \uDFFF escape, which ijson would read as "?" where it is not half of a pair.
SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
HIGH, LOW = range(0xD800, 0xDC00), range(0xDC00, 0xE000)


class Envelope(BaseModel):
    """What the file says it is, read before the rest."""

    model_config = ConfigDict(extra="ignore")
    format: JSON = None
    version: JSON = None


class GroupExport:
    """An export file whose text, shape and head (the group, members, players and scoring
    tables) are checked: :meth:`games` reads and checks its games one at a time (ExchangeError
    names the first problem), and :attr:`counts` and :attr:`usernames` are the whole file's
    once they have all been read."""

    def __init__(self, data: bytes, head: ExportHead, version: int, sizes: array) -> None:
        self.data = data
        self.head = head
        self.version = version
        self.sizes = sizes
        self.hand_count = 0
        self.usernames = head.usernames
        self._roster = head.roster
        self._old_roster = ()
        self._played = head.played

    @property
    def name(self) -> str:
        return self.head.name

    @property
    def game_count(self) -> int:
        return len(self.sizes)

    @property
    def joined(self):
        return self.head.joined

    def games(self) -> Iterator[GameEntry]:
        """Each game, read and checked; the file's usernames and hands counted on the way."""
        self.hand_count = 0
        source = ijson.items(BytesIO(self.data), "games.item", buf_size=BUFFER, use_float=False)
        for number, game in enumerate(source):
            game = _numbers(game)
            if self.version == OLD_VERSION:
                game = old_game_today(game, number, self._old_roster)
            elif self.version == SECOND_VERSION:
                game = game_today(game, number)
            try:
                entry = GameEntry.model_validate(game, context={"roster": self._roster})
            except ValidationError as error:
                raise ExchangeError(message(error, at=("games", number))) from None
            del game
            played = self._played.get(number + 1)
            if played is not None:
                won = bool(entry.scored.state.winners)
                wrong = unlike(number + 1, played, entry.table.players, won=won)
                if wrong:
                    raise ExchangeError(wrong)
            self.hand_count += len(entry.hands)
            self.usernames |= entry.usernames
            yield entry

    def batches(self, games: int, values: int = MOST_GAME_VALUES) -> Iterator[list[GameEntry]]:
        """The games in lists of at most ``games`` games and, past the first, ``values``
        values: a batch never holds much more than one large game."""
        batch: list[GameEntry] = []
        held = 0
        for number, entry in enumerate(self.games()):
            size = self.sizes[number]
            if batch and (len(batch) == games or held + size > values):
                yield batch
                batch, held = [], 0
            batch.append(entry)
            held += size
        if batch:
            yield batch

    def check(self) -> GroupExport:
        """Read every game once: the whole file is checked."""
        for _entry in self.games():
            pass
        return self

    @property
    def counts(self) -> dict[str, str]:
        """What the file holds, as counts to fill a sentence in: "5 players", "1 game",
        "2 hands" (read :meth:`games` first)."""
        return counted(len(self.head.players), self.game_count, self.hand_count)


def counted(players: int, games: int, hands: int) -> dict[str, str]:
    return {
        "players": ngettext("%(count)s player", "%(count)s players", players) % {"count": players},
        "games": ngettext("%(count)s game", "%(count)s games", games) % {"count": games},
        "hands": ngettext("%(count)s hand", "%(count)s hands", hands) % {"count": hands},
    }


def load(data: bytes | str) -> GroupExport:
    """Read and check a whole export file; ExchangeError names the first problem and where it
    is: a missing key, a wrong type, a player seated twice, a table, rules or a hand that
    `scoring` refuses (with its reason)."""
    return read(data).check()


def read(data: bytes | str) -> GroupExport:
    """An export file with its text, shape and head checked, its games still to be read
    (:meth:`GroupExport.games`)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    _check_text(data)
    if b"NaN" in data or b"Infinity" in data:
        data = NOT_A_NUMBER.sub(lambda found: SPELLED.get(found[1], found[0]), data)
    try:
        document, sizes = _shape(data)
    except (SystemError, ValueError) as error:
        # ijson's C reader lets Python's refusal of a long number out late, from any frame.
        if isinstance(error, ExchangeError) or not _too_long(error):
            raise
        raise _too_many_digits() from None
    version = _version(document)
    context: dict = {"games": len(sizes)}
    try:
        if version == OLD_VERSION:
            old = OldHead.model_validate(document, context=context)
            head = ExportHead.model_validate(old.today(), context=context)
        elif version == SECOND_VERSION:
            second = SecondHead.model_validate(document, context=context)
            head = ExportHead.model_validate(second.today(), context=context)
        elif version == THIRD_VERSION:
            third = ThirdHead.model_validate(document, context=context)
            head = ExportHead.model_validate(third.today(), context=context)
        elif version == FOURTH_VERSION:
            fourth = FourthHead.model_validate(document, context=context)
            head = ExportHead.model_validate(fourth.today(), context=context)
        else:
            head = ExportHead.model_validate(document, context=context)
    except ValidationError as error:
        raise ExchangeError(message(error)) from None
    export = GroupExport(data, head, version, sizes)
    if version == OLD_VERSION:
        export._old_roster = old.roster
    return export


def _check_text(data: bytes) -> None:
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    for start in range(0, len(data), SLICE):
        try:
            decoder.decode(view[start : start + SLICE], final=start + SLICE >= len(data))
        except UnicodeDecodeError as error:
            raise ExchangeError(
                # Translators: %(byte)s is where in the file, counted in bytes from 0.
                _("The file is not UTF-8 text (byte %(byte)s).") % {"byte": start + error.start}
            ) from None
    containers = data.count(b"{") + data.count(b"[")
    if containers > max(MIN_CONTAINERS, len(data) // BYTES_PER_CONTAINER):
        raise ExchangeError(
            _(
                "The file is not a group export: %(containers)s lists and objects in "
                "%(bytes)s bytes are far more than an export holds."
            )
            % {"containers": containers, "bytes": len(data)}
        )
    # Python refuses to read a whole number this long, and ijson's C reader, asked to, may crash
    # the process: such a number is refused before ijson sees it.
    if LONG_NUMBER.search(data):
        raise _too_many_digits()
    paired = -1  # where the low half of the last pair starts
    for found in SURROGATE.finditer(data):
        start = found.start()
        before = data[max(0, start - 64) : start]
        if (len(before) - len(before.rstrip(b"\\"))) % 2:
            continue  # an escaped backslash, then text
        code = int(found[0][2:], 16)
        follows = SURROGATE.match(data, found.end())
        if code in HIGH and follows and int(follows[0][2:], 16) in LOW:
            paired = found.end()
            continue
        if code in LOW and start == paired:
            continue
        # Translators: %(escape)s is what the file holds, quoted.
        raise ExchangeError(
            _("The file holds %(escape)s, which is not a character.") % {"escape": repr(chr(code))}
        )


def _shape(data: bytes) -> tuple[object, array]:
    """Walk the file once, building only its head, and refuse a shape no export has before
    anything large is built: the document without its games (``games`` an empty list, if it
    is a list), and the number of values in each game. (The games' events, most of the file's,
    take the loop's first branch: it is kept short.)"""
    sizes = array("Q")
    depth = 0
    keys = [0] * (MOST_DEPTH + 2)  # keys of the object open at each depth
    top = ijson.ObjectBuilder()
    key = None  # the outermost object's key being read
    log_entries = 0
    evenings = 0
    part = None  # the key of the evening being read (its rounds, its list of players)
    items = 0  # rounds or players of that key so far
    in_games = False
    game = 0  # values of the game being read
    built = 0
    for event, value in _events(data):
        if in_games and depth > 2:
            game += 1
            if event == "map_key":
                keys[depth] += 1
                if keys[depth] > MOST_KEYS:
                    raise _too_many_keys()
            elif event == "string":
                if len(value) > MOST_TEXT:
                    raise _too_long_text(value)
            elif event == "start_map" or event == "start_array":
                depth += 1
                if depth > MOST_DEPTH:
                    raise _too_deep()
                keys[depth] = 0
            elif event == "end_map" or event == "end_array":
                depth -= 1
                game -= 1
                if depth == 2:
                    sizes.append(game)
            if game > MOST_GAME_VALUES:
                raise ExchangeError(
                    _(
                        "Game %(number)s holds more than %(most)s values, far more than "
                        "a game ever holds."
                    )
                    % {"number": len(sizes) + 1, "most": MOST_GAME_VALUES}
                )
            continue
        if in_games and depth == 2 and not event.startswith("end"):
            # A game begins: an object (or, in a file that is wrong, anything else).
            if event == "start_map" or event == "start_array":
                depth += 1
                keys[depth] = 0
                game = 1
            else:
                sizes.append(1)
            continue
        if key == "log" and depth >= 2:
            if depth == 2 and event in ITEM_STARTS:
                log_entries += 1
                if log_entries > MOST_LOG_ENTRIES:
                    raise _too_long_a_log()
            if event == "string" and len(value) > MOST_LOG_TEXT:
                raise _too_long_log_text(value, log_entries)
        if key == "evenings" and depth >= 2:
            # An evening's list of players and its rounds are counted as they come.
            if depth == 2 and event in ITEM_STARTS:
                evenings += 1
                if evenings > MOST_EVENINGS:
                    raise _too_many_evenings()
            elif depth == 3 and event == "map_key":
                part, items = value, 0
            elif depth == 4 and event in ITEM_STARTS and part in ("rounds", "presences"):
                items += 1
                if part == "rounds" and items > MOST_ROUNDS:
                    raise _too_many_in_an_evening(evenings, rounds=True)
                if part == "presences" and items > MOST_PRESENCES:
                    raise _too_many_in_an_evening(evenings, rounds=False)
        if event == "start_map" or event == "start_array":
            depth += 1
            if depth > MOST_DEPTH:
                raise _too_deep()
            keys[depth] = 0
            if depth == 2 and key == "games" and event == "start_array":
                in_games = True
        elif event == "end_map" or event == "end_array":
            depth -= 1
            in_games = False
        elif event == "map_key":
            keys[depth] += 1
            if keys[depth] > MOST_KEYS:
                raise _too_many_keys()
            if depth == 1:
                key = value
        elif event == "string" and len(value) > MOST_TEXT:
            raise _too_long_text(value)
        elif event == "number" and isinstance(value, Decimal):
            value = _number(value)
        top.event(event, value)
        built += 1
        if not isinstance(top.value, dict) and (depth == 0 or built > SHOWN_VALUES):
            # The file is no object: enough of it to say what it is.
            raise ExchangeError(
                _("The file must be a JSON object, not %(value)s.") % {"value": show(top.value)}
            )
        if built > MOST_HEAD_VALUES:
            raise ExchangeError(
                _(
                    "The file is not a group export: its group, members, players, scoring tables, "
                    "log and evenings hold more than %(most)s values, far more than an export "
                    "holds."
                )
                % {"most": MOST_HEAD_VALUES}
            )
    return top.value, sizes


def _too_long_a_log() -> ExchangeError:
    return ExchangeError(
        _(
            "The file is not a group export: the group's log in it holds more than %(most)s "
            "changes, far more than a group makes."
        )
        % {"most": MOST_LOG_ENTRIES}
    )


def _too_long_log_text(text: str, entry: int) -> ExchangeError:
    return ExchangeError(
        ngettext(
            "Entry %(number)s of the group's log holds a text of %(count)s character, where "
            "the log's are at most %(most)s.",
            "Entry %(number)s of the group's log holds a text of %(count)s characters, where "
            "the log's are at most %(most)s.",
            len(text),
        )
        % {"number": entry, "count": len(text), "most": MOST_LOG_TEXT}
    )


def _too_many_evenings() -> ExchangeError:
    return ExchangeError(
        _(
            "The file is not a group export: it holds more than %(most)s evenings, far more "
            "than a group plays."
        )
        % {"most": MOST_EVENINGS}
    )


def _too_many_in_an_evening(number: int, *, rounds: bool) -> ExchangeError:
    if rounds:
        text = _(
            "Evening %(number)s holds more than %(most)s rounds, far more than a club night plays."
        )
        most = MOST_ROUNDS
    else:
        text = _(
            "Evening %(number)s lists more than %(most)s players, far more than a club night seats."
        )
        most = MOST_PRESENCES
    return ExchangeError(text % {"number": number, "most": most})


def _too_deep() -> ExchangeError:
    return ExchangeError(_("The file is not a group export: it is nested too deeply."))


def _too_many_keys() -> ExchangeError:
    return ExchangeError(
        _(
            "The file is not a group export: an object in it has more than %(most)s keys, "
            "where an export's have a few dozen."
        )
        % {"most": MOST_KEYS}
    )


def _too_long_text(text: str) -> ExchangeError:
    return ExchangeError(
        ngettext(
            "The file is not a group export: it holds a text of %(count)s character, where "
            "an export's are at most %(most)s.",
            "The file is not a group export: it holds a text of %(count)s characters, where "
            "an export's are at most %(most)s.",
            len(text),
        )
        % {"count": len(text), "most": MOST_TEXT}
    )


def _events(data: bytes) -> Iterator[tuple[str, object]]:
    """The file's parsing events (numbers that are not whole as ``Decimal``: see
    :func:`_number`); ExchangeError where it is not JSON."""
    try:
        yield from ijson.basic_parse(BytesIO(data), buf_size=BUFFER, use_float=False)
    except ijson.JSONError as error:
        raise ExchangeError(_not_json(error, data)) from None


def _too_many_digits() -> ExchangeError:
    return ExchangeError(
        _("The file holds a number of more than %(digits)s digits.")
        % {"digits": sys.get_int_max_str_digits()}
    )


def _too_long(error: BaseException | None) -> bool:
    while error is not None:
        if isinstance(error, ValueError) and "digits" in str(error):
            return True
        error = error.__cause__ or error.__context__
    return False


def _number(value: Decimal) -> float:
    """A number as pydantic's reader gave it: ``float`` unless whole."""
    return float("nan") if value == NAN and value.as_tuple().exponent == 1234567 else float(value)


def _numbers(value: object) -> object:
    """A game as ijson built it, with its numbers as :func:`_events` gives them."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list | Decimal):
                value[key] = _numbers(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list | Decimal):
                value[index] = _numbers(item)
    elif isinstance(value, Decimal):
        return _number(value)
    return value


def _version(document: dict) -> int:
    head = Envelope.model_validate(document)
    if head.format != FORMAT:
        raise ExchangeError(
            # Translators: format is a key of the file; %(value)s and %(format)s are quoted.
            _("The file is not a group export: its format is %(value)s, not %(format)s.")
            % {"value": show(head.format), "format": show(FORMAT)}
        )
    if "version" not in head.model_fields_set:
        # Translators: version is a key of the file.
        raise ExchangeError(_("The file is not a group export: it has no version."))
    version = head.version
    known = (OLD_VERSION, SECOND_VERSION, THIRD_VERSION, FOURTH_VERSION, VERSION)
    if isinstance(version, bool) or version not in known:
        raise ExchangeError(
            _(
                "The file is version %(version)s of the export format, and this server reads "
                "versions %(first)s to %(last)s."
            )
            % {"version": show(version), "first": OLD_VERSION, "last": VERSION}
        )
    return version


def _not_json(error: ijson.JSONError, data: bytes) -> str:
    """Why the file is not JSON, in words: pydantic's reader's, as the import always said, for
    a file small enough for it to read whole; else ijson's."""
    if len(data) <= JITER_BYTES:
        try:
            Envelope.model_validate_json(data)
        except ValidationError as jiter_error:
            first = jiter_error.errors(include_url=False)[0]
            if first["type"] == "json_invalid":
                return _unreadable(first["ctx"]["error"], data)
    words = str(error).split("\n", 1)[0].strip().rstrip(".")
    # Translators: %(problem)s is the JSON reader's own description, in English.
    return _("The file is not JSON: %(problem)s.") % {"problem": words}


def _unreadable(problem: str, data: bytes) -> str:
    """Why the file is no JSON, in pydantic's reader's words."""
    found = JSON_PROBLEM.match(problem)
    if found is None:
        # Translators: %(problem)s is the JSON reader's own description, in English.
        return _("The file is not JSON: %(problem)s.") % {"problem": problem}
    what, line, column = found["what"], int(found["line"]), int(found["column"])
    if what == "recursion limit exceeded":
        return _("The file is not a group export: it is nested too deeply.")
    if what == "number out of range":
        return str(_too_many_digits())
    # Translators: %(problem)s is the JSON reader's own description, in English.
    return _("The file is not JSON: %(problem)s at line %(line)s, column %(column)s.") % {
        "problem": what,
        "line": line,
        "column": column,
    }
