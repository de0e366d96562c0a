"""Rules as data: the scoring tables, kitty multipliers and game ends of the named presets,
and the group's own tables, with a lossless JSON form.

>>> get_rules("standard").band_for(85).winner
<Side.OPPONENTS: 'opponents'>
>>> get_rules("kawu").kitty_multiplier(Format.TRACTOR, 6)
16
"""

from __future__ import annotations

import copy
import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from scoring.errors import RulesError
from scoring.words import gettext_noop

E = TypeVar("E", bound=enum.Enum)

MAX_LEVELS = 12
"""The most levels a band awards: A is 12 levels above 2, so no climb needs more."""
MAX_BAND_POINTS = 1000
"""The highest band bound and the longest ``every`` of a table written for two decks. Their
200 points and a doubled kitty make at most 320; a table that rewards a bigger kitty bonus can
still place bands well above, and nothing in play could tell a band at 1000 from one higher."""
MAX_THROW_PENALTY = 50
"""The most points a failed throw costs per card taken back: five times the richest card."""


class Side(enum.Enum):
    """The two teams of a hand."""

    DECLARERS = "declarers"
    OPPONENTS = "opponents"

    @property
    def other(self) -> Side:
        return Side.OPPONENTS if self is Side.DECLARERS else Side.DECLARERS

    def __str__(self) -> str:
        return self.value


class Format(enum.Enum):
    """The shape of a lead: what the kitty multiplier and the following rules read."""

    SINGLE = "single"
    PAIR = "pair"
    TRACTOR = "tractor"
    THROW = "throw"

    def __str__(self) -> str:
        return self.value


class KittyRule(enum.Enum):
    """How the last trick multiplies the kitty's points when the opponents win it."""

    DOUBLE = "double"
    """×2 whatever the last trick was (the main rule text)."""
    PER_CARD = "per-card"
    """×2 for a single, else ×2 for each card each player played: a 5-card throw gives ×10."""
    PER_PAIR = "per-pair"
    """×2 for a single, ×4 for a pair, ×8 for a tractor of two pairs, doubling per pair."""


class GameEnd(enum.Enum):
    """When a team has won the game."""

    HOLD_AT_ACE = "hold-at-ace"
    """Levels stop at A; the declarers win the game by winning a hand they declare at A."""
    PAST_ACE = "past-ace"
    """The first team to climb past A wins the game."""


class Starter(enum.Enum):
    """Who leads (or deals) the next hand."""

    BID = "bid"
    """The declarers' player who wins the bid (the main rule text)."""
    ROTATE = "rotate"
    """If the declarers hold, the last starter's partner; if not, the player to their right."""


class TractorFollow(enum.Enum):
    """What a tractor lead obliges a player who holds pairs in the led suit to play."""

    TRACTOR = "tractor"
    """A tractor of the same length if held, else as many pairs as possible (the main rule text
    and the kawu rules)."""
    PAIRS = "pairs"
    """As many pairs as possible, consecutive or not (the open-ladder rules)."""


@dataclass(frozen=True, slots=True)
class Band:
    """A range of opponents' totals, the side that wins the hand there and the levels it climbs.

    ``high`` is None for the open-ended last band; with ``every``, the winner climbs one more
    level for each further ``every`` points above ``low``.
    """

    low: int
    high: int | None
    winner: Side
    levels: int
    every: int | None = None

    def levels_for(self, opponent_total: int) -> int:
        extra = (opponent_total - self.low) // self.every if self.every else 0
        return self.levels + extra

    def contains(self, opponent_total: int) -> bool:
        return self.low <= opponent_total and (self.high is None or opponent_total <= self.high)

    @property
    def label(self) -> str:
        """The band as players write it: ``0``, ``5–35``, ``200+``."""
        if self.high is None:
            return f"{self.low}+"
        if self.high == self.low:
            return str(self.low)
        return f"{self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides how a hand scores and how a trick is judged."""

    name: str
    bands: tuple[Band, ...]
    kitty: KittyRule = KittyRule.DOUBLE
    game_end: GameEnd = GameEnd.HOLD_AT_ACE
    starter: Starter = Starter.BID
    throws: bool = False
    throw_penalty: int = 0
    tractor_follow: TractorFollow = TractorFollow.TRACTOR
    no_trump_level_cards: bool = True
    """Whether a hand without a trump suit trumps the level cards too (False: only the jokers)."""
    description: str = field(default="", compare=False)
    """The rules in a line, as stored and exported with them (docs/engine-json.md)."""
    title: str = field(default="", compare=False)
    """A preset's name as a page shows it, marked for translation (a group's table: none)."""
    summary: str = field(default="", compare=False)
    """A preset's rules in a line for players, marked for translation; kept apart from
    ``description``, which is stored and exported with the rules and so never changes."""

    def __post_init__(self) -> None:
        _check_name(self.name)
        _check_bands(self.bands)
        if self.kitty is KittyRule.PER_PAIR and self.throws:
            raise RulesError(
                "the per-pair kitty rule has no multiplier for a throw: "
                "choose another kitty rule or forbid throws",
                said=gettext_noop(
                    "The kitty rule that doubles per pair has no multiplier for a throw: "
                    "choose another kitty rule or forbid throws."
                ),
            )
        if isinstance(self.throw_penalty, bool) or not isinstance(self.throw_penalty, int):
            raise RulesError(
                f"throw_penalty must be a whole number, got {shown(self.throw_penalty)}"
            )
        if not 0 <= self.throw_penalty <= MAX_THROW_PENALTY or self.throw_penalty % 5:
            raise RulesError(
                f"throw_penalty must be a multiple of 5 from 0 to {MAX_THROW_PENALTY}, "
                f"got {shown(self.throw_penalty)}",
                said=gettext_noop(
                    "The penalty per card taken back from a failed throw must be a multiple "
                    "of 5 from 0 to {top} points, not {value}."
                ),
                values={"top": MAX_THROW_PENALTY, "value": _plain(self.throw_penalty)},
            )
        if self.throw_penalty and not self.throws:
            raise RulesError(
                "a throw penalty needs rules that allow throws",
                said=gettext_noop("A penalty for failed throws needs rules that allow throws."),
            )
        if not isinstance(self.no_trump_level_cards, bool):
            raise RulesError(
                f"no_trump_level_cards must be true or false, got {self.no_trump_level_cards!r}"
            )

    def band_for(self, opponent_total: int) -> Band:
        """The band holding an opponents' total (their points plus the kitty bonus)."""
        for band in self.bands:
            if band.contains(opponent_total):
                return band
        raise RulesError(f"no band holds an opponents' total of {opponent_total}")

    def lines(self, top: int) -> tuple[int, ...]:
        """The opponents' totals up to ``top`` from which a hand's result changes: each band's
        start but the first, and each further ``every`` within a band.

        >>> get_rules("standard").lines(200)
        (5, 40, 80)
        >>> get_rules("kawu").lines(200)
        (5, 40, 80, 120, 160, 200)
        >>> get_rules("simplified").for_decks(3).lines(300)
        (120,)
        """
        found: list[int] = []
        for band in self.bands:
            if band.low:
                found.append(band.low)
            if band.every:
                end = top if band.high is None else min(band.high, top)
                found.extend(range(band.low + band.every, end + 1, band.every))
        return tuple(line for line in found if line <= top)

    def kitty_multiplier(self, last_trick: Format, cards: int) -> int:
        """What the kitty's points are multiplied by, for a last trick of ``cards`` per player."""
        if last_trick is Format.SINGLE or self.kitty is KittyRule.DOUBLE:
            return 2
        if self.kitty is KittyRule.PER_CARD:
            return 2 * cards
        return 2 ** (1 + cards // 2)

    def for_decks(self, decks: int) -> Rules:
        """The table as it reads with ``decks`` decks: written for two, each band's start (but
        0 and 5) and its ``every`` scale by ``decks / 2``, rounded down to a multiple of 5.

        >>> [band.label for band in get_rules("standard").for_decks(3).bands]
        ['0', '5–55', '60–115', '120+']
        """
        return self if decks == 2 else _for_decks(self, decks)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict that :func:`rules_from_json` reads back to an equal object."""
        data: dict[str, object] = {
            "name": self.name,
            "bands": [_band_to_json(band) for band in self.bands],
            "kitty": self.kitty.value,
            "game_end": self.game_end.value,
            "starter": self.starter.value,
            "throws": self.throws,
            "throw_penalty": self.throw_penalty,
            "tractor_follow": self.tractor_follow.value,
            "no_trump_level_cards": self.no_trump_level_cards,
        }
        if self.description:
            data["description"] = self.description
        return data


@functools.lru_cache(maxsize=64)
def _for_decks(rules: Rules, decks: int) -> Rules:
    """Kept per rules and decks: every hand of a long game settles under the same table."""
    starts = [_scaled(band.low, decks) if band.low > 5 else band.low for band in rules.bands]
    ends = [start - 5 for start in starts[1:]]
    bands = tuple(
        Band(
            start,
            end if band.high is not None else None,
            band.winner,
            band.levels,
            _scaled(band.every, decks) if band.every else None,
        )
        for band, start, end in zip(rules.bands, starts, [*ends, None], strict=True)
    )
    # Checked again for order (rounding down can break it), but against the bounds scaled too.
    _check_bands(bands, top=_scaled(MAX_BAND_POINTS, decks))
    scaled = copy.copy(rules)
    object.__setattr__(scaled, "bands", bands)
    return scaled


def _scaled(points: int, decks: int) -> int:
    return max(5, points * decks // 2 // 5 * 5)


def _band_to_json(band: Band) -> dict[str, object]:
    data: dict[str, object] = {
        "from": band.low,
        "to": band.high,
        "winner": band.winner.value,
        "levels": band.levels,
    }
    if band.every:
        data["every"] = band.every
    return data


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise RulesError(
            f"a rules object needs a name, got {name!r}",
            said=gettext_noop("A scoring table needs a name."),
        )


def shown(value: object) -> str:
    """``repr(value)``, but a number too long to read (or to print at all) shows as its size.

    >>> shown(10**100)
    'a number of more than 100 digits'
    """
    if isinstance(value, int) and abs(value) >= 10**100:
        return "a number of more than 100 digits"
    return repr(value)


def _check_points(
    what: str, value: object, top: int, said: str, *, least: int = 0, band: int | None = None
) -> None:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not least <= value <= top
        or value % 5
    ):
        raise RulesError(
            f"{what} must be a multiple of 5 from {least} to {top}, got {shown(value)}",
            band=band,
            said=said,
            values={"band": band, "least": least, "top": top, "value": _plain(value)},
        )


def _plain(value: object) -> str:
    """A bad value as a player wrote it (a huge number by its size)."""
    return (
        str(value)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**100
        else shown(value)
    )


def _check_bands(bands: tuple[Band, ...], top: int = MAX_BAND_POINTS) -> None:
    """Bands cover every total from 0 up, in order, with no overlap or gap, start and climb
    within ``top`` points, and never favour the declarers more as the opponents score more.

    Each error names its band in ``band`` and in its sentence (``said``), which a form shows
    beside that band; the message, for ``python -m scoring``, starts with it."""
    if not bands:
        raise RulesError(
            "a scoring table needs at least one band",
            said=gettext_noop("A scoring table needs at least one band."),
        )
    expected_low = 0
    for number, band in enumerate(bands, start=1):
        readable = all(shown(bound) == repr(bound) for bound in (band.low, band.high))
        where = f"band {number} ({band.label})" if readable else f"band {number}"
        _check_points(
            f"{where}: from",
            band.low,
            top,
            gettext_noop("Band {band} must start at a multiple of 5 from 0 to {top}, not {value}."),
            band=number,
        )
        if band.high is not None:
            _check_points(
                f"{where}: to",
                band.high,
                top,
                gettext_noop(
                    "Band {band} must end at a multiple of 5 from 0 to {top}, not {value}."
                ),
                band=number,
            )
        if not isinstance(band.winner, Side):
            raise RulesError(
                f"{where}: winner must be declarers or opponents",
                band=number,
                said=gettext_noop("Band {band} must be won by the declarers or the opponents."),
                values={"band": number},
            )
        if (
            isinstance(band.levels, bool)
            or not isinstance(band.levels, int)
            or not 0 <= band.levels <= MAX_LEVELS
        ):
            raise RulesError(
                f"{where}: levels must be a whole number from 0 to {MAX_LEVELS}, "
                f"got {shown(band.levels)}",
                band=number,
                said=gettext_noop(
                    "Band {band} must give a whole number of levels from 0 to {most}, not {value}."
                ),
                values={"band": number, "most": MAX_LEVELS, "value": _plain(band.levels)},
            )
        if band.every is not None:
            _check_points(
                f"{where}: every",
                band.every,
                top,
                gettext_noop(
                    # Translators: a band where the opponents climb one level more for every so
                    # many points above its start; {value} is that number of points.
                    "Band {band} gives one more level every so many points: a multiple of 5 "
                    "from {least} to {top}, not {value}."
                ),
                least=5,
                band=number,
            )
        if band.every is not None and band.winner is Side.DECLARERS:
            raise RulesError(
                f"{where}: only the opponents can climb more with more points",
                band=number,
                said=gettext_noop(
                    "Band {band} is the declarers': only the opponents can climb more with "
                    "more points."
                ),
                values={"band": number},
            )
        if band.low < expected_low:
            raise RulesError(
                f"{where} overlaps the band before it, which ends at {expected_low - 5}",
                band=number,
                said=gettext_noop("Band {band} overlaps the band before it, which ends at {end}."),
                values={"band": number, "end": expected_low - 5},
            )
        if band.low > expected_low:
            gap_high = band.low - 5
            missing = str(gap_high) if gap_high == expected_low else f"{expected_low}–{gap_high}"
            raise RulesError(
                f"{where} leaves a gap: no band holds {missing}",
                band=number,
                # Translators: {missing} is a total or a range of totals, such as "40–55".
                said=gettext_noop("Band {band} leaves a gap: no band holds {missing}."),
                values={"band": number, "missing": missing},
            )
        if band.high is not None and band.high < band.low:
            raise RulesError(
                f"{where} ends before it starts",
                band=number,
                said=gettext_noop("Band {band} ends before it starts."),
                values={"band": number},
            )
        if band.high is None and number != len(bands):
            raise RulesError(
                f"{where} is open-ended, so it must be the last band",
                band=number,
                said=gettext_noop("Band {band} has no upper end, so it must be the last band."),
                values={"band": number},
            )
        if number > 1:
            _check_order(bands[number - 2], band, where, number)
        expected_low = band.high + 5 if band.high is not None else expected_low
    if bands[-1].high is not None:
        raise RulesError(
            f"the last band must have no upper end: no band holds {bands[-1].high + 5} or more",
            band=len(bands),
            said=gettext_noop(
                "The last band must have no upper end: no band holds {total} or more."
            ),
            values={"total": bands[-1].high + 5},
        )
    if bands[0].winner is not Side.DECLARERS or bands[-1].winner is not Side.OPPONENTS:
        raise RulesError(
            "a table must start with a declarers' band and end with an opponents' one",
            said=gettext_noop(
                "A scoring table must start with a band the declarers win and end with one "
                "the opponents win."
            ),
        )


def _check_order(before: Band, band: Band, where: str, number: int) -> None:
    """More opponents' points never help the declarers."""
    if before.winner is Side.OPPONENTS and band.winner is Side.DECLARERS:
        raise RulesError(
            f"{where}: the declarers cannot win above a band the opponents win",
            band=number,
            said=gettext_noop(
                "The declarers cannot win band {band}: the opponents win the band before it."
            ),
            values={"band": number},
        )
    if before.winner is band.winner is Side.DECLARERS and band.levels > before.levels:
        raise RulesError(
            f"{where}: the declarers cannot climb more ({band.levels}) than in the band before "
            f"({before.levels}) when the opponents score more",
            band=number,
            said=gettext_noop(
                # Translators: {levels} and {before} are numbers of levels.
                "In band {band} the declarers cannot climb more ({levels}) than in the band "
                "before ({before}): the opponents score more there."
            ),
            values={"band": number, "levels": band.levels, "before": before.levels},
        )
    if before.winner is band.winner is Side.OPPONENTS:
        before_top = before.levels_for(before.high if before.high is not None else before.low)
        if band.levels < before_top:
            raise RulesError(
                f"{where}: the opponents cannot climb less ({band.levels}) than in the band "
                f"before ({before_top}) when they score more",
                band=number,
                said=gettext_noop(
                    # Translators: {levels} and {before} are numbers of levels.
                    "In band {band} the opponents cannot climb less ({levels}) than in the band "
                    "before ({before}): they score more there."
                ),
                values={"band": number, "levels": band.levels, "before": before_top},
            )


def _bands(*rows: tuple[int, int | None, str, int] | tuple[int, int | None, str, int, int]):
    return tuple(
        Band(low, high, Side(winner), levels, *extra) for low, high, winner, levels, *extra in rows
    )


STANDARD = Rules(
    name="standard",
    description="Kitty ×2; 80 or more takes the deal without climbing; "
    "the declarers win by holding at A.",
    # Translators: the name of the preset rules of the main rule text.
    title=gettext_noop("Standard"),
    summary=gettext_noop(
        "The main rule text: the kitty counts twice; with 80 points or more the opponents "
        "take the deal without climbing; the declarers win the game by holding at A."
    ),
    bands=_bands(
        (0, 0, "declarers", 3),
        (5, 35, "declarers", 2),
        (40, 75, "declarers", 1),
        (80, None, "opponents", 0),
    ),
)
"""The main rule text: the opponents take the deal at 80 without climbing; hold at A to win."""

OPEN_LADDER = Rules(
    name="open-ladder",
    description="Kitty ×2 per card in the last trick; throws with a 10-point penalty per card "
    "taken back; the first team past A wins; without a trump suit only the jokers are trumps.",
    # Translators: the name of preset rules where the opponents keep climbing with more points.
    title=gettext_noop("Open ladder"),
    summary=gettext_noop(
        "The opponents climb from 120 points; the kitty counts twice for each card each player "
        "played to the last trick; throws are allowed, at 10 points per card taken back from "
        "a failed one; the first team past A wins; without a trump suit only the jokers are "
        "trumps."
    ),
    bands=_bands(
        (0, 0, "declarers", 3),
        (5, 35, "declarers", 2),
        (40, 75, "declarers", 1),
        (80, 115, "opponents", 0),
        (120, 155, "opponents", 1),
        (160, 195, "opponents", 2),
        (200, None, "opponents", 3, 40),
    ),
    kitty=KittyRule.PER_CARD,
    game_end=GameEnd.PAST_ACE,
    starter=Starter.ROTATE,
    throws=True,
    throw_penalty=10,
    tractor_follow=TractorFollow.PAIRS,
    no_trump_level_cards=False,
)
"""The open-ladder rule set: the opponents climb from 120; kitty ×2 per card; throws; the first
team past A wins; a hand without a trump suit trumps only the jokers."""

KAWU = Rules(
    name="kawu",
    description="Kitty ×2 single, ×4 pair, ×8 tractor of two pairs, doubling per pair; "
    "no throws; the declarers win by holding at A.",
    # Translators: the name of the preset rules published with the kawu card game.
    title=gettext_noop("Kawu"),
    summary=gettext_noop(
        "The opponents climb from 120 points; the kitty counts 2 times after a single, 4 times "
        "after a pair, 8 times after a tractor of two pairs, doubling for each pair more; no "
        "throws; the declarers win the game by holding at A."
    ),
    bands=_bands(
        (0, 0, "declarers", 3),
        (5, 35, "declarers", 2),
        (40, 75, "declarers", 1),
        (80, 115, "opponents", 0),
        (120, 155, "opponents", 1),
        (160, None, "opponents", 2, 40),
    ),
    kitty=KittyRule.PER_PAIR,
    starter=Starter.ROTATE,
)
"""The kawu rule set: the open-ladder table, the kitty doubling per pair, no throws, win by
holding at A."""

SIMPLIFIED = Rules(
    name="simplified",
    description="The side that wins the hand climbs exactly 1 level.",
    # Translators: the name of preset rules with a one-level climb for every hand.
    title=gettext_noop("Simplified"),
    summary=gettext_noop(
        "The side that wins the hand climbs exactly 1 level; with 80 points or more the "
        "opponents take the deal."
    ),
    bands=_bands(
        (0, 75, "declarers", 1),
        (80, None, "opponents", 1),
    ),
)
"""A variant in the main rule text: whichever side wins the hand climbs exactly one level."""

PRESETS: dict[str, Rules] = {
    rules.name: rules for rules in (STANDARD, OPEN_LADDER, KAWU, SIMPLIFIED)
}
"""The named presets of docs/rules.md, by their stable names."""

_RULES_KEYS = {
    "name",
    "bands",
    "kitty",
    "game_end",
    "starter",
    "throws",
    "throw_penalty",
    "tractor_follow",
    "no_trump_level_cards",
    "description",
}
_BAND_KEYS = {"from", "to", "winner", "levels", "every"}


def get_rules(value: object) -> Rules:
    """The rules a request names: a preset's name, a rules object's JSON form, or Rules."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        try:
            return PRESETS[value.strip().lower()]
        except KeyError:
            names = ", ".join(PRESETS)
            raise RulesError(f"unknown rules {value!r}: the presets are {names}") from None
    if isinstance(value, Mapping):
        return rules_from_json(value)
    raise RulesError(f"rules must be a preset's name or a rules object, got {value!r}")


def rules_from_json(data: Mapping[str, object]) -> Rules:
    """Read a rules object written by :meth:`Rules.to_json` (or by hand), validating it."""
    unknown = set(data) - _RULES_KEYS
    if unknown:
        raise RulesError(f"unknown key {sorted(unknown)[0]!r} in the rules object")
    if "bands" not in data:
        raise RulesError("a rules object needs its bands")
    raw_bands = data["bands"]
    if not isinstance(raw_bands, list):
        raise RulesError(f"bands must be a list, got {raw_bands!r}")
    throws = data.get("throws", False)
    if not isinstance(throws, bool):
        raise RulesError(f"throws must be true or false, got {throws!r}")
    # Rules written before the key existed trumped the level cards in every hand.
    no_trump_level_cards = data.get("no_trump_level_cards", True)
    return Rules(
        name=data.get("name", "custom"),  # type: ignore[arg-type]
        bands=tuple(_band_from_json(number, raw) for number, raw in enumerate(raw_bands, 1)),
        kitty=_enum(KittyRule, "kitty", data.get("kitty", KittyRule.DOUBLE.value)),
        game_end=_enum(GameEnd, "game_end", data.get("game_end", GameEnd.HOLD_AT_ACE.value)),
        starter=_enum(Starter, "starter", data.get("starter", Starter.BID.value)),
        throws=throws,
        throw_penalty=data.get("throw_penalty", 0),  # type: ignore[arg-type]
        tractor_follow=_enum(
            TractorFollow, "tractor_follow", data.get("tractor_follow", TractorFollow.TRACTOR.value)
        ),
        no_trump_level_cards=no_trump_level_cards,  # type: ignore[arg-type]
        description=str(data.get("description", "")),
    )


def _band_from_json(number: int, raw: object) -> Band:
    if not isinstance(raw, Mapping):
        raise RulesError(f"band {number} must be an object, got {raw!r}", band=number)
    unknown = set(raw) - _BAND_KEYS
    if unknown:
        raise RulesError(f"band {number}: unknown key {sorted(unknown)[0]!r}", band=number)
    for key in ("from", "winner", "levels"):
        if key not in raw:
            raise RulesError(f"band {number} needs {key!r}", band=number)
    return Band(
        low=raw["from"],  # type: ignore[arg-type]
        high=raw.get("to"),  # type: ignore[arg-type]
        winner=_enum(Side, f"band {number}: winner", raw["winner"], band=number),
        levels=raw["levels"],  # type: ignore[arg-type]
        every=raw.get("every"),  # type: ignore[arg-type]
    )


def _enum(kind: type[E], what: str, value: object, *, band: int | None = None) -> E:
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(member.value for member in kind)
        raise RulesError(f"{what} must be one of {choices}, got {value!r}", band=band) from None
