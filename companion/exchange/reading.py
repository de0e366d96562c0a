"""Reading an export file: its bytes checked as UTF-8 text of a plausible shape, then parsed
once, straight into the models of `companion.exchange.schema` (versions 1 and 2 through
`companion.exchange.version1` and `companion.exchange.version2`)."""

from __future__ import annotations

import codecs
import re
import sys

from django.utils.translation import gettext as _
from pydantic import BaseModel, ConfigDict, ValidationError

from companion.exchange.errors import ExchangeError, message, show
from companion.exchange.fields import JSON
from companion.exchange.schema import FORMAT, VERSION, GroupExport
from companion.exchange.version1 import OLD_VERSION, OldExport
from companion.exchange.version2 import SECOND_VERSION, SecondExport

# An export holds one object or list per 130 bytes or so; a file packed with empty ones
# (``[{},{},…]``) would take a worker dozens of times its size to read.
MIN_CONTAINERS = 1000
BYTES_PER_CONTAINER = 32
SLICE = 2**20  # checked as UTF-8 a megabyte at a time, never copied whole
JSON_PROBLEM = re.compile(r"(?P<what>.*) at line (?P<line>\d+) column (?P<column>\d+)$")


class Envelope(BaseModel):
    """What the file says it is, read before the rest."""

    model_config = ConfigDict(extra="ignore")
    format: JSON = None
    version: JSON = None


def load(data: bytes | str) -> GroupExport:
    """Read and check an export file; ExchangeError names the first problem and where it is:
    a missing key, a wrong type, a player seated twice, a table, rules or a hand that `scoring`
    refuses (with its reason)."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    _check_text(data)
    version = _version(data)
    try:
        if version == OLD_VERSION:
            old = OldExport.model_validate_json(data, context={})
            return GroupExport.model_validate(old.today(), context={})
        if version == SECOND_VERSION:
            second = SecondExport.model_validate_json(data)
            return GroupExport.model_validate(second.today(), context={})
        return GroupExport.model_validate_json(data, context={})
    except ValidationError as error:
        raise ExchangeError(message(error)) from None


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


def _version(data: bytes) -> int:
    try:
        head = Envelope.model_validate_json(data)
    except ValidationError as error:
        raise ExchangeError(_unreadable(error, data)) from None
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
    if isinstance(version, bool) or version not in (OLD_VERSION, SECOND_VERSION, VERSION):
        raise ExchangeError(
            _(
                "The file is version %(version)s of the export format, and this server reads "
                "versions %(first)s to %(last)s."
            )
            % {"version": show(version), "first": OLD_VERSION, "last": VERSION}
        )
    return version


def _unreadable(error: ValidationError, data: bytes) -> str:
    """Why the file is no JSON object, in words."""
    first = error.errors(include_url=False)[0]
    if first["type"] != "json_invalid":
        return _("The file must be a JSON object, not %(value)s.") % {"value": show(first["input"])}
    found = JSON_PROBLEM.match(first["ctx"]["error"])
    if found is None:
        # Translators: %(problem)s is the JSON reader's own description, in English.
        return _("The file is not JSON: %(problem)s.") % {"problem": first["ctx"]["error"]}
    what, line, column = found["what"], int(found["line"]), int(found["column"])
    if what == "recursion limit exceeded":
        return _("The file is not a group export: it is nested too deeply.")
    if what == "number out of range":
        return _("The file holds a number of more than %(digits)s digits.") % {
            "digits": sys.get_int_max_str_digits()
        }
    if "surrogate" in what or "hex escape" in what:
        escape = _escape_before(data, line, column)
        if escape is not None:
            # Translators: %(escape)s is what the file holds, quoted.
            return _("The file holds %(escape)s, which is not a character.") % {
                "escape": repr(escape)
            }
    # Translators: %(problem)s is the JSON reader's own description, in English.
    return _("The file is not JSON: %(problem)s at line %(line)s, column %(column)s.") % {
        "problem": what,
        "line": line,
        "column": column,
    }


def _escape_before(data: bytes, line: int, column: int) -> str | None:
    """The ``\\uXXXX`` escape that ends at or just before ``line``, ``column``."""
    start = 0
    for _line in range(line - 1):
        start = data.index(b"\n", start) + 1
    end = start + column
    found = re.findall(rb"\\u([0-9a-fA-F]{4})", data[max(start, end - 16) : end + 1])
    return chr(int(found[-1], 16)) if found else None
