"""Second-seat confirmation: an opponent confirms each hand on their own phone, or anyone at the
table flags it for the table to settle (the group's choice to ask for it is on its page)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from companion.display import either
from companion.forms.confirmations import FlagForm
from companion.models import ConfirmationRefused, Game, Hand, HandChangedSince, Refusal
from companion.views.games import _version, scoreboard


def hand_change(view: Callable[..., str | HttpResponse]) -> Callable[..., HttpResponse]:
    """A change to hand ``number`` of a member's game: the view makes it and says what it did
    (or answers itself). htmx gets the scoreboard again; a plain form goes back to the hand. A
    hand changed since the page showed it, or a refusal, is said on the game page."""

    @wraps(view)
    def changed(request: HttpRequest, group_id: int, pk: int, number: int) -> HttpResponse:
        game = get_object_or_404(
            Game.objects.for_member(request.user).with_seats(), pk=pk, group_id=group_id
        )
        try:
            done = view(request, game, number)
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
        if isinstance(done, HttpResponse):
            return done
        if request.htmx:
            return scoreboard(request, game, can_edit=True)
        messages.success(request, done % {"number": number})
        return _back_to(game, number)

    return changed


@require_POST
@login_required
@hand_change
def confirm_hand(request: HttpRequest, game: Game, number: int) -> str:
    """Confirm the hand, as of the game ``version`` the page showed."""
    game.confirm_hand(number, seen=_version(request), by=request.user)
    return _("Hand %(number)d confirmed.")


@require_POST
@login_required
@hand_change
def flag_hand(request: HttpRequest, game: Game, number: int) -> str | HttpResponse:
    """Flag the hand for the table to settle, with an optional ``note``."""
    form = FlagForm(request.POST)
    if not form.is_valid():
        return _refused(request, game, form.errors["note"][0], status=400)
    game.flag_hand(number, form.cleaned_data["note"], by=request.user)
    return _("Hand %(number)d flagged: settle it at the table, then confirm or correct it.")


@require_POST
@login_required
@hand_change
def unflag_hand(request: HttpRequest, game: Game, number: int) -> str:
    """Take the hand's flag back: it waits for a confirmation again."""
    game.unflag_hand(number, by=request.user)
    return _("Hand %(number)d's flag is taken back: it waits for a confirmation again.")


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
