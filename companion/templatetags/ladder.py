"""The ladder history's pictures and numbers: one-line adapters to `companion.charts`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from companion import charts
from companion.display import joined, level, team
from scoring.game import Game

register = template.Library()


@register.inclusion_tag("companion/includes/level_race.html")
def level_race(game: Game) -> dict:
    """A game's level race, hand by hand, as an inline SVG: a line for each fixed team, or for
    each player in find-a-friend, named in the legend. A game resumed at a later hand (the
    scoreboard's latest hands) draws the race from there, its hands numbered as in the game."""
    table = game.table
    race = [game.hands[0].before.levels if game.hands else game.setup.levels]
    race += [hand.after.levels for hand in game.hands]
    chart = charts.level_race(
        race,
        table.fixed or [(seat,) for seat in table.seats],
        [hand.result.declarer for hand in game.hands],
    )
    since = game.hands[0].number - 1 if game.hands else 0
    if since:
        ticks = tuple(charts.Tick(tick.at, tick.label + since) for tick in chart.x_ticks)
        chart = dataclasses.replace(chart, x_ticks=ticks)
    return {
        "chart": chart,
        "since": since,
        "legend": [
            (line, together(table.players[seat] for seat in line.seats)) for line in chart.lines
        ],
    }


@register.filter
def together(players: Iterable[object]) -> str:
    """A side's players as one short name: ``Mei & Lin`` (:func:`companion.display.team`)."""
    return team(list(players))


@register.filter
def listed(players: Iterable[object]) -> str:
    """Players as a sentence names them: ``Mei and Lin``."""
    return joined(list(players))


@register.filter
def teams_listed(sides: Iterable[dict]) -> str:
    """Sides (``{"players": …}``) as a sentence names them: ``Mei & Lin and Jun & Hao``."""
    return joined([together(side["players"]) for side in sides])


@register.filter
def players_of(sides: Iterable[dict]) -> list:
    """The players of sides (``{"players": …}``), for a sentence's plural: a team is several."""
    return [player for side in sides for player in side["players"]]


@register.filter
def versus(sides: Iterable[dict]) -> SafeString:
    """Teams facing each other, a side that won (``{"won": True}``) in bold:
    ``Mei & Lin v Jun & Hao``; pairs as ``Mei & Lin v Jun & Hao v Wei & Yan``."""
    shown = [
        format_html(
            '<span class="text-nowrap{}">{}</span>',
            " fw-bold" if side.get("won") else "",
            together(side["players"]),
        )
        for side in sides
    ]
    line = shown[0] if shown else ""
    for side in shown[1:]:
        # The names are escaped above; the pattern is the catalogue's.
        # Translators: two teams facing each other in a game, such as "Mei & Lin v Jun & Hao";
        # with three teams or more it repeats: "Mei & Hao v Jun & Wei v Lin & Yan".
        pattern = gettext("%(first)s v %(second)s")
        line = mark_safe(pattern % {"first": line, "second": side})
    return line


@register.filter
def side_levels(sides: Iterable[dict]) -> SafeString:
    """Sides with their levels, one after the other: ``Mei & Lin 7 · Jun & Hao 5``."""
    return format_html_join(
        " · ",
        '<span class="text-nowrap">{} {}</span>',
        ((together(side["players"]), level(side["level"])) for side in sides),
    )


@register.filter
def player_links(people: Iterable, group) -> SafeString:
    """The group's players as a sentence lists them, each a link to their page."""
    links = [
        format_html(
            '<a class="d-inline-block py-2" href="{}">{}</a>',
            reverse("player", args=[group.pk, person.pk]),
            person.name,
        )
        for person in people
    ]
    # The links are escaped above; the separators are the catalogue's.
    return mark_safe(joined(links))


@register.filter
def percent(rate: float | None) -> str:
    """A rate as a whole percentage, written as the reader's language writes one (45 %,
    45%); a rate of nothing (no hands) as a dash."""
    if rate is None:
        return "–"
    # Translators: a whole percentage, such as a hold rate; French writes "45 %" (a narrow
    # no-break space before %).
    return gettext("%(percent)d%%") % {"percent": round(100 * rate)}


@register.filter
def average(value: float | None) -> str:
    """An average of points, to one decimal with the reader's decimal mark; of nothing, a dash."""
    return "–" if value is None else floatformat(value, 1)
