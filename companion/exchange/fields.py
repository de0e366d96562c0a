"""The kinds of value an export file holds, each checked as the file is read: the models of
`companion.exchange.schema` are made of these and of plain strict types."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from pydantic import BaseModel, ConfigDict, PlainValidator, ValidationInfo

from companion.exchange.errors import in_words, problem, show
from companion.models import FLAG_NOTE_LENGTH, Group, GroupChange, Player
from scoring import NO_TRUMP, CardError, Rank, RulesError, rules_from_json

MAX_SMALL_INT = 32767  # PositiveSmallIntegerField's ceiling on every database Django supports
# Timestamps every time zone can show, and whose year the history can filter to its end.
EARLIEST = datetime(2, 1, 1, tzinfo=UTC)
LATEST = datetime(9998, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
USERNAME_LENGTH = 150
GROUP_NAME_LENGTH = Group._meta.get_field("name").max_length
PLAYER_NAME_LENGTH = Player._meta.get_field("name").max_length
RECORDED_NAME_LENGTH = GroupChange._meta.get_field("by_name").max_length
LOG_DETAIL_LENGTH = GroupChange._meta.get_field("before").max_length


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def text(longest: int = 0, *, empty: bool = False):
    """Text without NUL characters, at most ``longest`` characters, non-blank unless
    ``empty``."""

    def check(value: object) -> str:
        if not isinstance(value, str) or (not empty and not value.strip()):
            if empty:
                raise problem(_("%(key)s must be text, not %(value)s."), value=show(value))
            raise problem(
                _("%(key)s must be text that is not empty, not %(value)s."), value=show(value)
            )
        if "\x00" in value:
            raise problem(_("%(key)s holds a NUL character."))
        if longest and len(value) > longest:
            raise problem(
                # Translators: %(value)s is the start of the file's text, quoted.
                _("%(key)s is longer than %(longest)s characters: %(value)s."),
                longest=longest,
                value=show(value[:40] + "…"),
            )
        return value

    return check


_username = text(USERNAME_LENGTH)


def _optional_username(value: object) -> str | None:
    return None if value is None else _username(value)


def _name(value: object) -> str:
    name = text(PLAYER_NAME_LENGTH)(value)
    if name != " ".join(name.split()):
        raise problem(
            _("The name %(name)s has spaces at its ends, or two spaces in a row."), name=show(name)
        )
    return name


def _on_the_roster(name: object, info: ValidationInfo) -> str:
    roster = (info.context or {}).get("roster", ())  # none where the roster itself is wrong
    if not isinstance(name, str) or (roster and name not in roster):
        raise problem(_("%(key)s must be a name on the roster, not %(value)s."), value=show(name))
    return name


def _a_game_of_the_file(number: object, info: ValidationInfo) -> int | None:
    games = (info.context or {}).get("games", 0)
    whole = isinstance(number, int) and not isinstance(number, bool)
    if number is not None and not (whole and 1 <= number <= games):
        raise problem(
            # Translators: %(games)s counts the file's games ("3 games").
            _(
                "%(key)s must be null or the number of a game of the file (it has "
                "%(games)s), not %(value)s."
            ),
            games=ngettext("%(count)s game", "%(count)s games", games) % {"count": games},
            value=show(number),
        )
    return number


def _moment(value: object) -> datetime:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise problem(
            # Translators: %(example)s is a date and time as the file writes it.
            _(
                "%(key)s must be a date and time with its UTC offset, like %(example)s, "
                "not %(value)s."
            ),
            example="2025-03-06T19:30:00+00:00",
            value=show(value),
        )
    if not EARLIEST <= moment <= LATEST:
        raise problem(
            _("%(key)s must fall in the years %(first)s to %(last)s, not %(value)s."),
            first=EARLIEST.year,
            last=LATEST.year,
            value=show(value),
        )
    return moment


def _optional_moment(value: object) -> datetime | None:
    return None if value is None else _moment(value)


def _level(value: object) -> str:
    try:
        rank = Rank.parse(value) if isinstance(value, str) else None
    except CardError:
        rank = None
    if rank is None or rank.symbol != value:
        raise problem(
            # Translators: %(levels)s are the levels as the file writes them (T for 10).
            _("%(key)s must be a level, one of %(levels)s, not %(value)s."),
            levels="23456789TJQKA",
            value=show(value),
        )
    return value


def plain(value: object) -> dict:
    """A JSON object that every database stores as given: no NUL character in any string."""
    if not isinstance(value, dict):
        raise problem(_("%(key)s must be a JSON object, not %(value)s."), value=show(value))
    stack: list = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and "\x00" in item:
            raise problem(_("%(key)s holds a NUL character."))
    return value


def _rules(value: object) -> dict:
    try:
        rules_from_json(plain(value))
    except RulesError as error:
        raise problem("%(problem)s", problem=in_words(error)) from None
    return value


def _hand_number(value: object) -> int:
    if not _is_int(value) or not 1 <= value <= MAX_SMALL_INT:
        raise problem(_("%(key)s must be the number of a hand, not %(value)s."), value=show(value))
    return value


def _optional_number(value: object) -> int | None:
    if value is not None and not _is_int(value):
        raise problem(
            _("%(key)s must be null or the number of a hand, not %(value)s."), value=show(value)
        )
    return value


def _called(value: object) -> int | None:
    if value is not None and not _is_int(value):
        raise problem(_("%(key)s must be null, 1 or 2, not %(value)s."), value=show(value))
    return value


def written_trump(stored: str) -> str:
    """A hand's trump as the file writes it: no trump is blank, as every version has written it
    (the database writes NO_TRUMP)."""
    return "" if stored == NO_TRUMP else stored


def stored_trump(written: object) -> object:
    """A hand's trump from the file, as the database writes it (:func:`written_trump` undone)."""
    return NO_TRUMP if written == "" else written


def _snapshot(value: object) -> dict | None:
    """A hand as the history kept it: null, or an object of plain values (its declarer and
    friends by name, checked against the table with the game)."""
    if value is None:
        return None
    snapshot = plain(value)
    for key, item in snapshot.items():
        if key == "friends":
            if not isinstance(item, list):
                raise problem(_("%(key)s must be a list, not %(value)s."), key, value=show(item))
        elif not (item is None or isinstance(item, int | str)) or isinstance(item, bool):
            raise problem(
                _("%(key)s must be a number or text, not %(value)s."), key, value=show(item)
            )
    return snapshot


Cards = Annotated[str, PlainValidator(text(empty=True))]
"""Cards as the table typed them (a kitty), checked against the table with the game."""
Username = Annotated[str, PlainValidator(_username)]
OptionalUsername = Annotated[str | None, PlainValidator(_optional_username)]
GroupName = Annotated[str, PlainValidator(text(GROUP_NAME_LENGTH))]
PlayerName = Annotated[str, PlainValidator(_name)]
# A player of the file's roster, by name (the roster comes as the validation's context).
RosterName = Annotated[str, PlainValidator(_on_the_roster)]
# A game of the file by its number in ``games`` from 1, or null (the count comes as context).
FileGame = Annotated[int | None, PlainValidator(_a_game_of_the_file)]
Moment = Annotated[datetime, PlainValidator(_moment)]
OptionalMoment = Annotated[datetime | None, PlainValidator(_optional_moment)]
FlagNote = Annotated[str, PlainValidator(text(FLAG_NOTE_LENGTH, empty=True))]
"""What a flag said was wrong ("" where nothing was flagged)."""
RecordedName = Annotated[str, PlainValidator(text(RECORDED_NAME_LENGTH, empty=True))]
"""Who made a change to the group, or whom it was about, as the log recorded them ("" for
nobody known): never an account."""
LogDetail = Annotated[str, PlainValidator(text(LOG_DETAIL_LENGTH, empty=True))]
"""A name before or after a change to the group (its own, a scoring table's, a player's)."""
Level = Annotated[str, PlainValidator(_level)]
Rules = Annotated[dict, PlainValidator(_rules)]
"""A rule set as `scoring` reads it (kept as the file wrote it)."""
PlainObject = Annotated[dict, PlainValidator(plain)]
HandNumber = Annotated[int, PlainValidator(_hand_number)]
OptionalHandNumber = Annotated[int | None, PlainValidator(_optional_number)]
Called = Annotated[int | None, PlainValidator(_called)]
Snapshot = Annotated[dict | None, PlainValidator(_snapshot)]
JSON = Annotated[Any, PlainValidator(lambda value: value)]
"""Any JSON value, checked by `scoring` with the rest of its game."""


class Part(BaseModel):
    """A part of the file: exactly these keys (one this reader does not know would be lost),
    values of exactly these types (no "45" for 45, no true for 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)
