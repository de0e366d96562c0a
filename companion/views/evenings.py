"""Club nights: starting an evening, its page (the proposed seating, swaps, the rounds, who is
present, the standings), the group's evenings, and the room screen."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from companion import room
from companion.display import joined, together
from companion.forms.evenings import EveningForm, PresenceForm, SwapForm
from companion.models import Evening, Group, NotProposed
from companion.models.evenings import EveningOver, TooMany, ratings_of
from companion.views.methods import page_and_form, require_POST, require_safe
from scoring.evenings import MAX_EVENING_PLAYERS, EveningError, repeats, spread
from scoring.table import Teams

EVENINGS_PER_PAGE = 20


def member_evening(request: HttpRequest, group_id: int, pk: int) -> Evening:
    """The evening, if its group is one of the user's; 404 for anyone else."""
    return get_object_or_404(Evening.objects.for_member(request.user), pk=pk, group_id=group_id)


@page_and_form
@login_required
def evening_new(request: HttpRequest, pk: int) -> HttpResponse:
    """Start an evening: tick who is here; the table shape comes as the group last played."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=pk)
    if request.method == "POST":
        form = EveningForm(request.POST, group=group)
        if form.is_valid():
            evening = Evening.start(group, **form.start_args(), by=request.user)
            return redirect(evening)
    else:
        form = EveningForm(initial=EveningForm.last_choices(group), group=group)
    return render(request, "companion/evening_new.html", {"group": group, "form": form})


@require_safe
@login_required
def evening(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """An evening's page: the round proposed (two players swapped, then started) or being
    played (the next round ends it and seats the next), who is here (joining, leaving), the
    rounds played, the standings; each change has its own URL (the views below)."""
    return evening_page(request, member_evening(request, group_id, pk))


def evening_change(view: Callable[..., HttpResponse | None]) -> Callable[..., HttpResponse]:
    """A change to a member's evening (404 for anyone else), made by the view, which says what
    it did; then the page again. Nothing changes in an evening that is over."""

    @wraps(view)
    def changed(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
        evening = member_evening(request, group_id, pk)
        try:
            response = view(request, evening)
        except EveningOver:
            messages.error(request, _("The evening is over: nothing more can change in it."))
            return redirect(evening)
        return response or _after(request, evening)

    return changed


@require_POST
@login_required
@evening_change
def swap_players(request: HttpRequest, evening: Evening) -> HttpResponse | None:
    """Swap two players of the proposed round; the form says what is wrong, beside its field."""
    proposed = evening.current_round()
    form = SwapForm(request.POST, players=_round_players(evening, proposed))
    if not form.is_valid():
        return evening_page(request, evening, swap_form=form)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    names = {"first": first, "second": second}
    try:
        evening.swap(first, second)
    except NotProposed:
        messages.error(request, _("The round has started: its seats stay as they are."))
    except EveningError:
        out = set(proposed.sitting_out) if proposed else set()
        if {first.pk, second.pk} <= out:
            messages.error(request, _("%(first)s and %(second)s both sit out.") % names)
        else:
            messages.error(request, _("Choose two players of this round."))
    else:
        messages.success(request, _("%(first)s and %(second)s swapped places.") % names)
    return None


@require_POST
@login_required
@evening_change
def start_round(request: HttpRequest, evening: Evening) -> None:
    """Start the proposed round: its seating stays as it is."""
    try:
        started = evening.start_round(by=request.user)
    except NotProposed:
        messages.error(request, _("That round has already started."))
    else:
        messages.success(request, _("Round %(number)d has started.") % {"number": started.number})


@require_POST
@login_required
@evening_change
def next_round(request: HttpRequest, evening: Evening) -> None:
    """End the round being played and seat the next."""
    if evening.next_round() is None:
        messages.error(request, _("Too few players are here to seat a table."))


@require_POST
@login_required
@evening_change
def join_evening(request: HttpRequest, evening: Evening) -> None:
    """A player arrives: they are seated from the next round."""
    form = PresenceForm(request.POST, group=evening.group)
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            evening.set_present(player, True)
        except TooMany:
            messages.error(
                request,
                _("An evening seats %(count)d players at most.") % {"count": MAX_EVENING_PLAYERS},
            )
        else:
            messages.success(request, _("%(name)s is here.") % {"name": player})


@require_POST
@login_required
@evening_change
def leave_evening(request: HttpRequest, evening: Evening) -> None:
    """A player leaves: the next round is seated without them."""
    form = PresenceForm(request.POST, group=evening.group)
    if form.is_valid():
        player = form.cleaned_data["player"]
        evening.set_present(player, False)
        messages.success(request, _("%(name)s has left.") % {"name": player})


@require_POST
@login_required
@evening_change
def end_evening(request: HttpRequest, evening: Evening) -> None:
    evening.end()
    messages.success(request, _("The evening is over. Thank you for playing!"))


def _after(request: HttpRequest, evening: Evening) -> HttpResponse:
    """After a change: the page again (post/redirect/get), or for htmx its body afresh."""
    if request.htmx:
        evening.refresh_from_db()
        return evening_page(request, evening)
    return redirect(evening)


def _round_players(evening: Evening, current) -> list:
    if current is None:
        return []
    ids = [*current.seated_ids(), *current.sitting_out]
    return list(evening.group.players.filter(pk__in=ids))


def evening_page(request: HttpRequest, evening: Evening, *, swap_form=None) -> HttpResponse:
    context = room.board(evening)
    proposed = context["proposed"]
    if proposed is not None:
        context |= {
            "seating": seating_shown(evening, proposed, context["players"]),
            "swap_form": swap_form or SwapForm(players=_round_players(evening, proposed)),
        }
    here = {player.pk for player in context["here"]}
    context |= {
        "group": evening.group,
        "joining": [p for p in evening.group.players.filter(retired=False) if p.pk not in here],
    }
    template = "companion/evening.html"
    if request.htmx:
        template += "#evening-body"
    return render(request, template, context)


def seating_shown(evening: Evening, proposed, players: dict) -> dict:
    """The proposed round as the page shows it: each table's seats in play order with their
    teams, who sits out, and the rule's own measure of the seating."""
    seating = proposed.seating
    teams = Teams(evening.teams)
    tables = []
    for index, table in enumerate(seating.tables):
        fixed = seating.teams_at(index)
        team_of = {pk: number for number, team in enumerate(fixed, start=1) for pk in team}
        tables.append(
            {
                "number": index + 1,
                "seats": [
                    {"seat": seat, "name": players[pk].name, "team": team_of.get(pk)}
                    for seat, pk in enumerate(table, start=1)
                ],
                "teams": [together(players[pk].name for pk in team) for team in fixed],
            }
        )
    measure = None
    if evening.seating == Evening.SeatingRule.BALANCED:
        ratings = ratings_of(evening.group_id, list(seating.players))
        measure = {"spread": spread(seating, ratings)}
    elif evening.seating == Evening.SeatingRule.NEW_PARTNERS and teams is not Teams.FIND_A_FRIEND:
        measure = {"repeats": repeats(seating, evening.played_so_far())}
    return {
        "tables": tables,
        "out": joined([players[pk].name for pk in seating.out]),
        "measure": measure,
    }


@require_safe
def evening_room(request: HttpRequest, token: str) -> HttpResponse:
    """The room screen: every table of the evening live and its standings, read-only, for
    anyone with its link; a poll with nothing new is answered with nothing."""
    evening = get_object_or_404(
        Evening.objects.select_related(*room.ROOM_FIELDS), share_token=token
    )
    if room.nothing_new(request, evening):
        return HttpResponse(status=204)
    template = "companion/evening_room.html"
    if request.htmx:
        template += "#room"
    return render(request, template, room.board(evening))


@require_safe
@login_required
def evenings(request: HttpRequest, pk: int) -> HttpResponse:
    """The group's evenings, newest first: each a unit of the ladder history."""
    group = get_object_or_404(Group.objects.for_member(request.user), pk=pk)
    found = list(group.evenings.prefetch_related("rounds__tables_played")[:EVENINGS_PER_PAGE])
    return render(request, "companion/evenings.html", {"group": group, "evenings": found})
