"""A group's ladder history: every game, each player's record and rating, and a game replayed
under other rules or with another number of decks."""

from __future__ import annotations

import dataclasses

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from companion import charts
from companion.forms.history import HistoryFilterForm, ReplayRulesForm
from companion.game_lists import RECENT_GAMES, rows_of
from companion.ladder import ALL_TIME
from companion.models import (
    Game,
    GameSummary,
    Group,
    LadderTally,
    Player,
    PlayerLadder,
    Rating,
)
from companion.views.methods import require_safe
from scoring.cards import Rank
from scoring.stats import Matchup, PlayerStats, partial_replay

GAMES_PER_PAGE = 20  # a few screens of a phone


def roster(group: Group) -> dict[int, Player]:
    return {player.pk: player for player in group.players.all()}


def by_rating(lines: list[PlayerLadder]) -> list[PlayerLadder]:
    """The rated players' lines, the highest rating first."""
    return sorted((line for line in lines if line.rated), key=lambda line: -line.rating.ordinal)


@require_safe
@login_required
def group_history(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every game of the group with its result, a page at a time; filtered by player and
    period, the opponents' totals against the rules' bands; the ratings of everyone who has
    finished a game. It reads the ladder's rows, never every game."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=group_id)
    players = roster(group)
    lines = PlayerLadder.of(group)
    played = {line.player_id for line in lines}
    form = HistoryFilterForm(
        request.GET or None,
        players=[player for pk, player in players.items() if pk in played],
        years=GameSummary.years(group),
        now=timezone.localtime(),
    )
    player = period = None
    if form.is_bound and form.is_valid():
        player, period = form.cleaned_data["player"], form.cleaned_data["period"]
    tallies = LadderTally.read(group, player, period.tallies if period else [ALL_TIME])
    if player is None:
        games = GameSummary.newest_first(group)
    else:
        games = GameSummary.played_by(group, player)
    if period is not None:
        games = games.filter(played__gte=period.start)
        if period.end is not None:
            games = games.filter(played__lt=period.end)
    paginator = Paginator(games.values_list("game_id", flat=True), GAMES_PER_PAGE)
    # The tallies count the games already: no count of the games themselves.
    paginator.count = sum(tally.games for _rules, _decks, tally in tallies)
    page = paginator.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "group": group,
        "form": form,
        "page": page,
        "rows": rows_of(list(page), players),
        "query": query.urlencode(),
        "hands": sum(tally.hands for _rules, _decks, tally in tallies),
        "all_totals": request.GET.get("totals") == "all",
        # The most played rules' chart; the others' on demand (a long history holds many).
        "distributions": [
            {
                "rules": rules,
                "decks": decks,
                "hands": tally.hands,
                "chart": (
                    charts.totals_chart(rules, tally.totals, decks)
                    if n == 0 or request.GET.get("totals") == "all"
                    else None
                ),
            }
            for n, (rules, decks, tally) in enumerate(tallies)
        ],
    }
    template = "companion/group_history.html"
    if request.htmx:
        return render(request, template + "#history-results", context)
    context["ratings"] = [
        {"player": players[line.player_id], "rating": line.rating, "standing": line.statistics}
        for line in by_rating(lines)
    ]
    context["unrated"] = [
        players[line.player_id]
        for line in sorted(lines, key=lambda line: players[line.player_id].name.lower())
        if not line.rated
    ]
    context["ratings_pending"] = group.ratings_pending
    return render(request, template, context)


@require_safe
@login_required
def player(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """A player's games and win rate, their hands as declarers and as opponents (and in
    find-a-friend, as the one who started and as a friend), kitty scoops, big wins and near
    misses, partners and opponents, and their rating over time."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=group_id)
    players = roster(group)
    if pk not in players:
        raise Http404("no such player in this group")
    person = players[pk]
    lines = {line.player_id: line for line in PlayerLadder.of(group)}
    line = lines.get(pk)
    stats = line.statistics if line is not None else PlayerStats(pk)
    board = [line.player_id for line in by_rating(lines.values())]
    points = Rating.monthly(person)
    latest = GameSummary.played_by(group, person.pk)
    context = {
        "group": group,
        "person": person,
        "stats": stats,
        "rating": line.rating if line is not None else None,
        "ratings_pending": group.ratings_pending,
        "place": board.index(pk) + 1 if pk in board else None,
        "rated": len(board),
        "chart": (
            charts.rating_chart(
                [point.point.ordinal for point in points],
                [point.won for point in points],
                [point.played for point in points],
            )
            if points
            else None
        ),
        "best_partner": _named(stats.best_partner, players),
        "worst_partner": _named(stats.worst_partner, players),
        "toughest_opponent": _named(stats.toughest_opponent, players),
        "others": _others(stats, players),
        "recent": rows_of(list(latest.values_list("game_id", flat=True)[:RECENT_GAMES]), players),
    }
    return render(request, "companion/player.html", context)


def _named(matchup: Matchup | None, players: dict[int, Player]) -> dict | None:
    return None if matchup is None else {"player": players[matchup.player], "matchup": matchup}


def _others(stats: PlayerStats, players: dict[int, Player]) -> list[dict]:
    """Everyone the player has finished a game with or against, by name."""
    partners = {matchup.player: matchup for matchup in stats.partners}
    opponents = {matchup.player: matchup for matchup in stats.opponents}
    return [
        {"player": player, "partner": partners.get(pk), "opponent": opponents.get(pk)}
        for pk, player in sorted(players.items(), key=lambda item: item[1].name.lower())
        if pk in partners or pk in opponents
    ]


@require_safe
@login_required
def game_replay(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """The game's hands replayed under another preset or one of the group's tables, and with
    another number of decks, as far as they can be: the replay stops, and says why, at the
    first hand those rules or decks cannot take. When the other rules rotate who starts, a hand
    is taken as started by the declarer's partner."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=group_id)
    game = get_object_or_404(Game.objects.with_seats(), pk=pk, group=group)
    hands = list(game.hands.all())
    played = game.scored(hands)
    table = played.table
    sides = table.fixed or tuple((seat,) for seat in table.seats)

    def named(seats) -> list[Player]:
        return [game.player_at(seat) for seat in seats]

    def levels(ranks: tuple[Rank, ...]) -> list[dict]:
        """Each side (a fixed team, or every player) with its level of ``ranks``."""
        return [{"players": named(side), "level": ranks[side[0]]} for side in sides]

    form = ReplayRulesForm(request.GET or None, group=group, table=table)
    replay = None
    rows = []
    if form.is_valid():
        setup = dataclasses.replace(
            played.setup, rules=form.cleaned_data["rules"], table=form.cleaned_data["table"]
        )
        replay = partial_replay(setup, (hand.result for hand in hands), swap_partners=True)
        rows = [
            {
                "hand": hand,
                "replayed": after,
                "declarers": named(after.declarers),
                "starter": game.player_at(after.result.declarer),
                "friends": named(after.friends),
                "levels": levels(after.after.levels),
                "played": levels(before.after.levels),
                "changed": before.after.levels != after.after.levels,
            }
            for hand, before, after in zip(hands, played.hands, replay.game.hands, strict=False)
        ]
    context = {
        "group": group,
        "game": game,
        "sides": levels(played.state.levels),
        "winners": named(played.state.winners),
        "form": form,
        "played": played,
        "replay": replay,
        "replay_sides": levels(replay.game.state.levels) if replay else [],
        "replay_winners": named(replay.game.state.winners) if replay else [],
        "rows": rows,
        "unplayed": len(hands) - len(rows) if replay else 0,
    }
    return render(request, "companion/game_replay.html", context)
