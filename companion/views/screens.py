"""The table's own screen: a game read-only in large print, to lie on the table or stand on a
tablet; and the "Trump declared" tap on the game page that it shows as soon as it is made."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.display import either, level, names, trump_sign, trump_taps
from companion.forms.trump_declared import TrumpDeclaredForm
from companion.models import NO_TRUMP_DECLARED, Game, TrumpNotDeclarable
from companion.views.games import SEATED, member_game, nothing_new, settled, sides
from companion.views.methods import require_POST, require_safe
from scoring.cards import Suit
from scoring.game import GameState
from scoring.table import Table


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


def on_the_table(game: Game) -> dict:
    """What the table screen shows of ``game``: the hand being played, its level and trump
    where they are known, who declares it, every side's level, the kitty's size and the last
    hand's result. In three queries however long the game (its seats, its last hand, the levels
    before that hand from the game's summary), the game itself read."""
    prefetch_related_objects([game], SEATED)
    scored = settled(game, list(game.hands.order_by("-number")[:1]))
    state, table = scored.state, scored.table
    number = state.number
    if table.trumps.bids:
        declared = game.declared_trump(number)
        trump = None if declared in ("", NO_TRUMP_DECLARED) else Suit(declared)
        known = bool(declared)
    else:
        trump, known = table.trumps.fixed(number), True
    return {
        "number": number,
        "count": number - 1,
        "state": state,
        "table": table,
        "level": level_played(state),
        "trump_known": known,
        "trump": trump_sign(trump) if known else "",
        "trump_red": trump in (Suit.HEARTS, Suit.DIAMONDS),
        "declares": who_declares(table, state),
        "sides": [
            {
                "players": names(side, table.players),
                "level": state.levels[side[0]],
                "declaring": bool(set(side) & set(state.next_declarers))
                and len(state.next_declarers) < table.size,
            }
            for side in sides(table)
        ],
        "kitty": ngettext("Kitty: %(cards)d card", "Kitty: %(cards)d cards", table.kitty_cards)
        % {"cards": table.kitty_cards},
        "last": scored.hands[-1] if scored.hands else None,
        "winners": names(state.winners, table.players),
    }


def level_played(state: GameState) -> str:
    """The level of the hand being played; before a first bid between sides at different
    levels, each of theirs."""
    if state.level is not None:
        return level(state.level)
    return "/".join(level(rank) for rank in sorted({state.levels[s] for s in state.next_declarers}))


def who_declares(table: Table, state: GameState) -> str:
    """Who declares the hand being played, or who may, in one short sentence."""
    players = table.players
    if state.game_over:
        return ""
    if state.next_declarer is None and len(state.next_declarers) == table.size:
        if table.trumps.bids:
            return _("Whoever wins the bid declares.")
        return _("Any player may declare.")
    if len(state.next_declarers) == 1:
        return _("%(player)s declares.") % {"player": players[state.next_declarers[0]]}
    may = either([players[seat] for seat in state.next_declarers])
    if state.next_declarer is None:
        return _("%(players)s may declare.") % {"players": may}
    return _("%(players)s may declare: %(player)s by turn.") % {
        "players": may,
        "player": players[state.next_declarer],
    }


@require_POST
@login_required
def declare_trump(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """The trump the table declared for the hand being played; the game page's buttons again
    for htmx, the game page for a plain post."""
    game = member_game(request, group_id, pk, seated=False)
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
