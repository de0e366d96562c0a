"""A group's ladder history: every game, each player's record and rating, and a game replayed
under other rules."""

from __future__ import annotations

import dataclasses

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from companion import charts
from companion.forms import HistoryFilterForm, ReplayRulesForm
from companion.models import Game, GameSummary, Player
from companion.ratings import leaderboard, replay_ratings
from companion.views.games import GAME_FIELDS
from companion.views.groups import member_group
from scoring.game import Team
from scoring.stats import GameRecord, opponent_totals, partial_replay, player_stats, standings

GAMES_PER_PAGE = 25
RECENT_GAMES = 10


def seated(history: list[tuple[Game, GameRecord]]) -> dict[int, Player]:
    """Everyone who played in ``history``, by id, in the order of their names."""
    found = {
        player.pk: player
        for game, _record in history
        for player in (game.north, game.east, game.south, game.west)
    }
    return dict(sorted(found.items(), key=lambda item: item[1].name.lower()))


def game_row(game: Game, record: GameRecord) -> dict:
    """A game as a line of the history: who played, and how it stands or ended."""
    teams = {team: [game.player_at(seat) for seat in team.seats] for team in Team}
    return {
        "game": game,
        "record": record,
        "teams": [(team, teams[team], team is record.winner) for team in Team],
        "levels": record.levels,
    }


@login_required
def group_history(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every game of the group with its result; filtered by player and period, the opponents'
    totals against the rules' bands; the ratings of everyone who has finished a game."""
    group = member_group(request, group_id)
    history = GameSummary.history(group)
    players = seated(history)
    now = timezone.localtime()
    years = sorted({timezone.localtime(game.created).year for game, _ in history}, reverse=True)
    form = HistoryFilterForm(
        request.GET or None, players=list(players.values()), years=years, now=now
    )
    chosen = history
    if form.is_bound and form.is_valid():
        player, period = form.cleaned_data["player"], form.cleaned_data["period"]
        if player is not None:
            chosen = [(g, r) for g, r in chosen if r.seat_of(player) is not None]
        if period is not None:
            start, end = period
            chosen = [(g, r) for g, r in chosen if start <= g.created < end]
    records = [record for _game, record in chosen]
    page = Paginator(chosen[::-1], GAMES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "group": group,
        "form": form,
        "page": page,
        "rows": [game_row(game, record) for game, record in page],
        "query": query.urlencode(),
        "hands": sum(len(record.hands) for record in records),
        "distributions": [
            {"rules": rules, "chart": charts.totals_chart(rules, totals)}
            for rules, totals in opponent_totals(records)
        ],
    }
    template = "companion/group_history.html"
    if request.htmx:
        return render(request, template + "#history-results", context)
    all_records = [record for _game, record in history]
    table = standings(all_records)
    context["ratings"] = [
        {"player": players[pk], "rating": rating, "standing": table[pk]}
        for pk, rating in leaderboard(replay_ratings(all_records))
    ]
    rated = {row["player"].pk for row in context["ratings"]}
    context["unrated"] = [player for pk, player in players.items() if pk not in rated]
    return render(request, template, context)


@login_required
def player(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """A player's games and win rate, their hands as declarers and as opponents, kitty scoops,
    big wins and near misses, partners and opponents, and their rating over time."""
    group = member_group(request, group_id)
    person = get_object_or_404(Player, pk=pk, group=group)
    history = GameSummary.history(group)
    records = [record for _game, record in history]
    players = seated(history)
    stats = player_stats(records, person.pk)
    ratings = replay_ratings(records)
    points = ratings.get(person.pk, [])
    board = [player_id for player_id, _rating in leaderboard(ratings)]
    mine = [(game, record) for game, record in history if record.seat_of(person.pk)]
    context = {
        "group": group,
        "person": person,
        "stats": stats,
        "rating": points[-1] if points else None,
        "place": board.index(person.pk) + 1 if person.pk in board else None,
        "rated": len(board),
        "chart": (
            charts.rating_chart(
                [point.ordinal for point in points],
                [point.won for point in points],
                [point.played for point in points],
            )
            if points
            else None
        ),
        "others": _others(stats, players),
        "best_partner": _named(stats.best_partner, players),
        "worst_partner": _named(stats.worst_partner, players),
        "toughest_opponent": _named(stats.toughest_opponent, players),
        "recent": [game_row(game, record) for game, record in mine[::-1][:RECENT_GAMES]],
    }
    return render(request, "companion/player.html", context)


def _named(matchup, players: dict[int, Player]) -> dict | None:
    return None if matchup is None else {"player": players[matchup.player], "matchup": matchup}


def _others(stats, players: dict[int, Player]) -> list[dict]:
    """Everyone the player has finished a game with or against, by name."""
    partners = {matchup.player: matchup for matchup in stats.partners}
    opponents = {matchup.player: matchup for matchup in stats.opponents}
    return [
        {"player": player, "partner": partners.get(pk), "opponent": opponents.get(pk)}
        for pk, player in players.items()
        if pk in partners or pk in opponents
    ]


@login_required
def game_replay(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """The game's hands replayed under another preset or one of the group's tables, as far as
    they can be: the replay stops, and says why, at the first hand those rules cannot take."""
    group = member_group(request, group_id)
    game = get_object_or_404(Game.objects.select_related(*GAME_FIELDS), pk=pk, group=group)
    hands = list(game.hands.all())
    played = game.scored(hands)
    form = ReplayRulesForm(request.GET or None, group=group)
    replay = None
    rows = []
    if form.is_valid():
        setup = dataclasses.replace(game.setup, rules=form.cleaned_data["rules"])
        replay = partial_replay(setup, (hand.result for hand in hands), swap_partners=True)
        rows = [
            {"hand": hand, "played": before, "replayed": after}
            for hand, before, after in zip(hands, played.hands, replay.game.hands, strict=False)
        ]
    context = {
        "group": group,
        "game": game,
        "form": form,
        "played": played,
        "replay": replay,
        "rows": rows,
        "unplayed": len(hands) - len(rows) if replay else 0,
    }
    return render(request, "companion/game_replay.html", context)
