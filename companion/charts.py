"""The geometry of the history's pictures, for templates that draw them as inline SVG.

Each function returns plain numbers in a 320-unit-wide viewBox (about one unit per CSS pixel in a
360 px phone's column); the templates add the words, so that they can be translated. No Django
here: these are pure functions of `scoring` values.

>>> two, four = Rank.TWO, Rank.FOUR
>>> race = level_race([(two, two, two, two), (four, two, four, two)], [(0, 2), (1, 3)], [0])
>>> race.lines[0].path, race.lines[0].color
('M30.0,114.5H298.0V97.5', '#0072b2')
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from scoring.cards import Rank
from scoring.rules import Rules, Side
from scoring.stats import take_over_total

WIDTH = 320
LEFT = 30
RIGHT = 304
LINE_STYLES = (
    ("#0072b2", ""),
    ("#d55e00", ""),
    ("#009e73", ""),
    ("#cc79a7", ""),
    ("#56b4e9", "6 3"),
    ("#e69f00", "6 3"),
    ("#000000", "2 2"),
    ("#a08c00", "2 2"),
)
"""A colour and a dash for each line of a race, up to eight players: Okabe and Ito's palette,
told apart with every common colour blindness (its yellow darkened to show on white). The
lighter blue and orange are dashed, so that they never pass for the first two even where colours
blur; neither is the red and blue that the hand list uses for "held" and "taken"."""
LABEL_GAP = 11
"""The least room between two end labels, so that 12-unit text never overlaps."""


@dataclass(frozen=True, slots=True)
class Tick:
    at: float
    label: object


@dataclass(frozen=True, slots=True)
class Line:
    """One side's levels as a step line (a fixed team's seats, who share a level, or one player
    in find-a-friend), ending in a dot."""

    seats: tuple[int, ...]
    path: str
    end_x: float
    end_y: float
    level: Rank
    color: str
    dash: str


@dataclass(frozen=True, slots=True)
class EndLabel:
    """The last level beside the lines' ends: one label for all the lines that end on it."""

    y: float
    level: Rank
    color: str


@dataclass(frozen=True, slots=True)
class Strip:
    """The strip under the race: a cell for each hand a line's player started, as one path."""

    path: str
    color: str


@dataclass(frozen=True, slots=True)
class LevelRace:
    height: int
    top: float
    bottom: float
    lines: tuple[Line, ...]
    labels: tuple[EndLabel, ...]
    label_x: float
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    strip: tuple[Strip, ...]
    hands: int
    stroke: float


def level_race(
    race: Sequence[Sequence[Rank]],
    lines: Sequence[Sequence[int]],
    declarers: Sequence[int],
) -> LevelRace:
    """Every player's levels from the start (``race[0]``) through each hand, as a step line for
    each of ``lines`` (the seats of a fixed team, who share a level, or a single seat).

    ``declarers`` names the seat that started each hand, drawn as a strip under the lines in
    the colour of that seat's line.
    """
    if not 1 <= len(lines) <= len(LINE_STYLES):
        raise ValueError(f"a race draws 1 to {len(LINE_STYLES)} lines, got {len(lines)}")
    # More lines need more room between levels to be told apart: 8.5 units for two, 12.5
    # for eight.
    top, right = 14.0, RIGHT - 6  # room for the end labels
    bottom = 116.0 + 8 * max(0, len(lines) - 2)
    height = int(bottom) + 34
    hands = len(race) - 1
    step = (right - LEFT) / max(hands, 1)
    rung = (bottom - top) / (Rank.ACE - Rank.TWO)

    def y(rank: Rank) -> float:
        return bottom - (rank - Rank.TWO) * rung

    # Lines on one level would hide each other: part them, within 0.6 of a level's height.
    spacing = min(3.0, 0.6 * rung / max(len(lines) - 1, 1))
    drawn = []
    for number, (seats, (color, dash)) in enumerate(zip(lines, LINE_STYLES, strict=False)):
        nudge = (number - (len(lines) - 1) / 2) * spacing
        levels = [levels[seats[0]] for levels in race]
        path = f"M{LEFT:.1f},{y(levels[0]) + nudge:.1f}"
        if hands == 0:
            path += f"H{right:.1f}"
        for hand, level in enumerate(levels[1:], start=1):
            path += f"H{LEFT + hand * step:.1f}V{y(level) + nudge:.1f}"
        end = LEFT + hands * step
        drawn.append(Line(tuple(seats), path, end, y(levels[-1]) + nudge, levels[-1], color, dash))
    line_of = {seat: line for line in drawn for seat in line.seats}
    strip_y = bottom + 6
    cell = max(step - 0.5, 0.5)
    strip = tuple(
        Strip(
            "".join(
                f"M{LEFT + number * step:.2f},{strip_y:.1f}h{cell:.2f}v5h{-cell:.2f}z"
                for number, seat in enumerate(declarers)
                if line_of[seat] is line
            ),
            line.color,
        )
        for line in drawn
    )
    return LevelRace(
        height=height,
        top=top,
        bottom=bottom,
        lines=tuple(drawn),
        labels=_end_labels(drawn, y),
        label_x=LEFT + hands * step + 7,
        y_ticks=tuple(Tick(y(rank), rank) for rank in Rank if rank % 2 == 0 or rank is Rank.ACE),
        x_ticks=tuple(Tick(LEFT + n * step, n) for n in _steps(hands)),
        strip=tuple(cell for cell in strip if cell.path),
        hands=hands,
        stroke=2.5 if len(lines) <= 4 else 2.0,
    )


def _end_labels(lines: Sequence[Line], y) -> tuple[EndLabel, ...]:
    """A label per level the lines end on, in the line's colour (grey where several share it),
    each at least :data:`LABEL_GAP` below the one above."""
    ends: dict[Rank, list[Line]] = {}
    for line in lines:
        ends.setdefault(line.level, []).append(line)
    labels = []
    low = -math.inf
    for level in sorted(ends, reverse=True):
        at = max(y(level) + 4, low + LABEL_GAP)
        shared = ends[level]
        labels.append(EndLabel(at, level, shared[0].color if len(shared) == 1 else "#333"))
        low = at
    return tuple(labels)


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


def totals_chart(rules: Rules, totals: Counter, decks: int = 2) -> TotalsChart:
    """How often each opponents' total was scored (a bar per 5 points up to 200 with two decks,
    300 with three, …, totals above it in one last bar), over the rules' bands for ``decks``,
    with a line where each band starts.

    >>> from scoring.rules import get_rules
    >>> chart = totals_chart(get_rules("standard"), Counter({60: 2, 125: 1}), decks=3)
    >>> [line.label for line in chart.lines], chart.threshold, chart.x_ticks[1].label
    ([5, 60, 120], 120, 60)
    """
    top, bottom, height = 8.0, 150.0, 172
    top_total = 100 * decks
    rules = rules.for_decks(decks)
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
        x_ticks=tuple(
            Tick(x(total) + width / 2, total) for total in range(0, top_total + 1, 20 * decks)
        ),
        y_ticks=tuple(Tick(y(count), count) for count in range(0, y_top + 1, y_step)),
        hands=sum(totals.values()),
        threshold=take_over_total(rules),
    )
