"""The table's own screen: a game read-only in large print, to lie on the table or stand on a
tablet; and the "Trump declared" tap on the game page that it shows as soon as it is made."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from companion.display import trump_taps
from companion.forms.trump_declared import TrumpDeclaredForm
from companion.models import Game, TrumpNotDeclarable
from companion.scoreboard import nothing_new, on_the_table
from companion.views.methods import require_POST, require_safe


@require_safe
def table_screen(request: HttpRequest, token: str) -> HttpResponse:
    """The table screen, for anyone with the game's share link. Its poll (``since``, the
    version it shows) gets 204 when nothing is new, else the whole screen: it is small."""
    game = get_object_or_404(Game.objects.select_related("group"), share_token=token)
    if nothing_new(request, game):
        return HttpResponse(status=204)
    template = "companion/table_screen.html"
    if request.htmx:
        template += "#screen"
    return render(request, template, {"game": game, **on_the_table(game)})


@require_POST
@login_required
def declare_trump(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """The trump the table declared for the hand being played; the game page's buttons again
    for htmx, the game page for a plain post."""
    game = get_object_or_404(Game.objects.for_member(request.user), pk=pk, group_id=group_id)
    form = TrumpDeclaredForm(request.POST)
    refused = ""
    if not form.is_valid():
        refused = _("Tap the trump suit, or No trump.")
    else:
        try:
            declared = form.cleaned_data
            game.declare_trump(declared["hand"], declared["trump"])
        except TrumpNotDeclarable as error:
            refused = declare_refusal(error)
    if not request.htmx:
        if refused:
            messages.error(request, refused)
        return redirect(game)
    number = game.hands.count() + 1 if refused else game.trump_declared_for
    context = {
        "game": game,
        "number": number,
        "taps": trump_taps(game.declared_trump(number)),
        "refused": refused,
    }
    return render(request, "companion/includes/trump_declared.html", context)


def declare_refusal(error: TrumpNotDeclarable) -> str:
    """Why a declared trump was not kept, in the players' words."""
    if error.reason is TrumpNotDeclarable.Reason.FIXED:
        return _("This game fixes each hand's trump: nobody declares one.")
    return _("That hand was recorded meanwhile: tap the trump again for the hand being played.")
