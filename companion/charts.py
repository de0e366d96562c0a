"""The geometry of the history's pictures, for templates that draw them as inline SVG.

Each function returns plain numbers in a 320-unit-wide viewBox (about one unit per CSS pixel in a
360 px phone's column); the templates add the words, so that they can be translated. No Django
here: these are pure functions of `scoring` values.

>>> race = level_race([TeamLevels(), TeamLevels(Rank.FOUR, Rank.TWO)], [Team.NORTH_SOUTH])
>>> race.lines[0].path
'M30.0,114.5H298.0V97.5'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from scoring.cards import Rank
from scoring.game import Team, TeamLevels
from scoring.rules import Rules, Side
from scoring.stats import take_over_total

WIDTH = 320
LEFT = 30
RIGHT = 304
TEAM_COLORS = {Team.NORTH_SOUTH: "#1f5fbf", Team.EAST_WEST: "#c45a00"}
"""Blue and orange: told apart with every common colour blindness, and neither is the red and
blue that the hand list uses for "held" and "taken"."""


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: object


@dataclass(frozen=True, slots=True)
class Line:
    """One team's levels as a step line, ending in a dot labelled with its last level."""

    team: Team
    path: str
    end_x: float
    end_y: float
    level: Rank

    @property
    def color(self) -> str:
        return TEAM_COLORS[self.team]


@dataclass(frozen=True, slots=True)
class Strip:
    """The strip under the race: a cell for each hand ``team`` declared, as one SVG path."""

    team: Team
    path: str

    @property
    def color(self) -> str:
        return TEAM_COLORS[self.team]


@dataclass(frozen=True, slots=True)
class LevelRace:
    height: int
    top: float
    bottom: float
    lines: tuple[Line, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    strip: tuple[Strip, ...]
    hands: int


def level_race(race: Sequence[TeamLevels], declarers: Sequence[Team]) -> LevelRace:
    """Both teams' levels from the start (``race[0]``) through each hand, as step lines.

    ``declarers`` names the team that declared each hand, drawn as a strip under the lines.
    """
    top, bottom, height, right = 14.0, 116.0, 150, RIGHT - 6  # room for the end labels
    hands = len(race) - 1
    step = (right - LEFT) / max(hands, 1)

    def y(rank: Rank) -> float:
        return bottom - (rank - Rank.TWO) * (bottom - top) / (Rank.ACE - Rank.TWO)

    lines = []
    # When both teams stand on one level, their lines would hide each other: part them a little.
    for team, nudge in ((Team.NORTH_SOUTH, -1.5), (Team.EAST_WEST, 1.5)):
        levels = [levels.of(team) for levels in race]
        path = f"M{LEFT:.1f},{y(levels[0]) + nudge:.1f}"
        if hands == 0:
            path += f"H{right:.1f}"
        for number, level in enumerate(levels[1:], start=1):
            path += f"H{LEFT + number * step:.1f}V{y(level) + nudge:.1f}"
        lines.append(Line(team, path, LEFT + hands * step, y(levels[-1]) + nudge, levels[-1]))
    strip_y = bottom + 6
    cell = max(step - 0.5, 0.5)
    strip = tuple(
        Strip(
            team,
            "".join(
                f"M{LEFT + number * step:.2f},{strip_y:.1f}h{cell:.2f}v5h{-cell:.2f}z"
                for number, declaring in enumerate(declarers)
                if declaring is team
            ),
        )
        for team in Team
    )
    return LevelRace(
        height=height,
        top=top,
        bottom=bottom,
        lines=tuple(lines),
        y_ticks=tuple(Tick(y(rank), rank) for rank in Rank if rank % 2 == 0 or rank is Rank.ACE),
        x_ticks=tuple(Tick(LEFT + n * step, n) for n in _steps(hands)),
        strip=strip,
        hands=hands,
    )


def _nice(span: float, ticks: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks over ``span``."""
    raw = max(span, 1e-9) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


def _steps(count: int, ticks: int = 6) -> list[int]:
    """Whole numbers from 0 to ``count`` at a round step, for an axis of counts."""
    step = max(1, int(_nice(count, ticks)))
    return list(range(0, count + 1, step))


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    won: bool


@dataclass(frozen=True, slots=True)
class RatingChart:
    height: int
    top: float
    bottom: float
    path: str
    dots: tuple[Dot, ...]
    y_ticks: tuple[Tick, ...]
    first: datetime | None
    last: datetime | None
    zero: float | None


def rating_chart(
    ordinals: Sequence[float], wins: Sequence[bool], dates: Sequence[datetime | None]
) -> RatingChart:
    """A player's rating (ordinal) from 0 before their first game through each game after it."""
    top, bottom, height = 10.0, 150.0, 178
    values = [0.0, *ordinals]
    low, high = min(values), max(values)
    step = _nice(high - low or 1, 4)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    x_step = (RIGHT - LEFT) / max(len(ordinals), 1)

    def y(value: float) -> float:
        return bottom - (value - low) * (bottom - top) / (high - low)

    points = [(LEFT + n * x_step, y(value)) for n, value in enumerate(values)]
    ticks = []
    value = low
    while value <= high + step / 2:
        ticks.append(Tick(y(value), _round(value)))
        value += step
    return RatingChart(
        height=height,
        top=top,
        bottom=bottom,
        path="M" + "L".join(f"{x:.1f},{y_:.1f}" for x, y_ in points),
        dots=tuple(Dot(x, y_, won) for (x, y_), won in zip(points[1:], wins, strict=True)),
        y_ticks=tuple(ticks),
        first=dates[0] if dates else None,
        last=dates[-1] if dates else None,
        zero=y(0) if low < 0 < high else None,
    )


def _round(value: float) -> float | int:
    return round(value) if abs(value - round(value)) < 1e-9 else round(value, 1)


@dataclass(frozen=True, slots=True)
class BandArea:
    """A band of the rules behind the bars: its range, winner and the levels it gives."""

    x: float
    width: float
    label: str
    declarers: bool
    levels: int
    every: bool
    shade: str


@dataclass(frozen=True, slots=True)
class TotalsChart:
    height: int
    top: float
    bottom: float
    bars: str
    """Every bar, one per total scored, as one SVG path."""
    bands: tuple[BandArea, ...]
    lines: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    hands: int
    threshold: int
    """The take-over total, whose line is drawn heavier."""

    @property
    def plot_height(self) -> float:
        return self.bottom - self.top


def totals_chart(rules: Rules, totals: Counter, top_total: int = 200) -> TotalsChart:
    """How often each opponents' total was scored (a bar per 5 points, totals above
    ``top_total`` in one last bar), over the rules' bands, with a line where each band starts."""
    top, bottom, height = 8.0, 150.0, 172
    slots = top_total // 5 + 2  # 0, 5, …, top_total, and the bar of everything above it
    width = (RIGHT - LEFT) / slots
    counts = [totals.get(5 * slot, 0) for slot in range(slots - 1)]
    counts.append(sum(count for total, count in totals.items() if total > top_total))
    peak = max(counts, default=0)
    y_step = max(1, int(_nice(peak or 1, 3)))
    y_top = max(y_step, math.ceil(peak / y_step) * y_step)

    def x(total: int) -> float:
        return LEFT + min(total, top_total + 5) / 5 * width

    def y(count: float) -> float:
        return bottom - count * (bottom - top) / y_top

    bars = "".join(
        f"M{LEFT + slot * width + 0.6:.2f},{bottom:.1f}V{y(count):.2f}h{width - 1.2:.2f}"
        f"V{bottom:.1f}z"
        for slot, count in enumerate(counts)
        if count
    )
    bands = []
    for band in rules.bands:
        if band.low > top_total:
            break
        end = band.high + 5 if band.high is not None else top_total + 10
        declarers = band.winner is Side.DECLARERS
        lightness = max(78, 95 - 5 * band.levels)
        bands.append(
            BandArea(
                x=x(band.low),
                width=x(end) - x(band.low) if band.high is not None else RIGHT - x(band.low),
                label=band.label,
                declarers=declarers,
                levels=band.levels,
                every=bool(band.every),
                shade=f"hsl({215 if declarers else 0} 70% {lightness}%)",
            )
        )
    return TotalsChart(
        height=height,
        top=top,
        bottom=bottom,
        bars=bars,
        bands=tuple(bands),
        lines=tuple(
            Tick(x(band.low), band.low) for band in rules.bands[1:] if band.low <= top_total
        ),
        x_ticks=tuple(Tick(x(total) + width / 2, total) for total in range(0, top_total + 1, 40)),
        y_ticks=tuple(Tick(y(count), count) for count in range(0, y_top + 1, y_step)),
        hands=sum(totals.values()),
        threshold=take_over_total(rules),
    )
