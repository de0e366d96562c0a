"""Second-seat confirmation: an opponent confirms each hand on their own phone, or anyone at the
table flags it for the table to settle; and the group's choice to ask for it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from companion.display import either
from companion.forms.confirmations import ConfirmationsForm, FlagForm
from companion.models import ConfirmationRefused, Game, Group, Hand, HandChangedSince, Refusal
from companion.views.games import _version, scoreboard


@login_required
@require_POST
def hand_confirmation(request: HttpRequest, group_id: int, pk: int, number: int) -> HttpResponse:
    """Confirm hand ``number`` (``action=confirm``, with the game ``version`` the page showed),
    flag it (``action=flag``, with an optional ``note``) or take its flag back
    (``action=unflag``). htmx gets the scoreboard again; a plain form goes back to the hand."""
    game = get_object_or_404(
        Game.objects.for_member(request.user).with_seats(), pk=pk, group_id=group_id
    )
    action = request.POST.get("action")
    try:
        if action == "confirm":
            game.confirm_hand(number, seen=_version(request), by=request.user)
            done = _("Hand %(number)d confirmed.")
        elif action == "flag":
            form = FlagForm(request.POST)
            if not form.is_valid():
                return _refused(request, game, form.errors["note"][0], status=400)
            game.flag_hand(number, form.cleaned_data["note"], by=request.user)
            done = _("Hand %(number)d flagged: settle it at the table, then confirm or correct it.")
        elif action == "unflag":
            game.unflag_hand(number, by=request.user)
            done = _("Hand %(number)d's flag is taken back: it waits for a confirmation again.")
        else:
            message = _("Confirm or flag a hand with the buttons under it.")
            return _refused(request, game, message, status=400)
    except Hand.DoesNotExist:
        raise Http404("no such hand") from None
    except HandChangedSince:
        messages.warning(
            request,
            _("Hand %(number)d changed since your page showed it: check it, then confirm it.")
            % {"number": number},
        )
        return HttpResponseClientRefresh() if request.htmx else _back_to(game, number)
    except ConfirmationRefused as refused:
        return _refused(request, game, refusal_message(refused), status=403)
    if request.htmx:
        return scoreboard(request, game, can_edit=True)
    messages.success(request, done % {"number": number})
    return _back_to(game, number)


def refusal_message(refused: ConfirmationRefused) -> str:
    """Why the table's phone was refused, and what to do instead."""
    hand, number = refused.hand, refused.hand.number
    confirmers = list(hand.confirmers.values())
    said = {
        Refusal.NOT_ASKED: _(
            "Hand %(number)d needs no confirmation: it was entered while the group did not ask "
            "for them."
        ),
        Refusal.CONFIRMED: _("Hand %(number)d is already confirmed by %(name)s."),
        Refusal.ENTERED_IT: _(
            "You entered hand %(number)d: someone else confirms it on their own phone, or you "
            "correct it."
        ),
        Refusal.NOT_AN_OPPONENT: ngettext(
            "Only %(names)s, who played against the declarers, may confirm hand %(number)d.",
            "Only %(names)s, who played against the declarers, may confirm hand %(number)d.",
            len(confirmers),
        ),
        Refusal.FLAGGED: _("Hand %(number)d is already flagged by %(name)s."),
        Refusal.NOT_FLAGGED: _("Hand %(number)d is not flagged."),
    }[refused.reason]
    name = hand.flagged_by_name if refused.reason is Refusal.FLAGGED else hand.confirmed_by_name
    return said % {"number": number, "name": name or _("someone"), "names": either(confirmers)}


def _refused(request: HttpRequest, game: Game, message: str, *, status: int) -> HttpResponse:
    """The game page with ``message``; htmx reloads the page to show it."""
    messages.error(request, message)
    if request.htmx:
        return HttpResponseClientRefresh()  # htmx does not swap an error, but reloads
    response = scoreboard(request, game, can_edit=True)
    response.status_code = status
    return response


def _back_to(game: Game, number: int) -> HttpResponse:
    return redirect(f"{game.get_absolute_url()}#hand-{number}")


def ask_for_confirmations(request: HttpRequest, group: Group) -> HttpResponse:
    """The group page's ``action=confirmations``: turn second-seat confirmation on or off."""
    form = ConfirmationsForm(request.POST)
    form.is_valid()  # a checkbox: ticked or not, never invalid
    asked = form.cleaned_data["hands_need_confirmation"]
    if asked != group.hands_need_confirmation:
        group.ask_for_confirmations(asked, by=request.user)
        if asked:
            said = _(
                "From now on each hand waits for an opponent's confirmation on their own phone."
            )
        else:
            said = _("Hands no longer wait for a confirmation: each counts as it is entered.")
        messages.success(request, said)
    return redirect(f"{group.get_absolute_url()}#confirmations")
