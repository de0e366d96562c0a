"""Settling a disputed trick: `scoring`'s verdict on a phone, and a group's precedents."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from companion.display import CARD_GRID
from companion.forms.disputes import GAME_RULES, DisputeForm
from companion.models import Dispute, Game
from companion.views.methods import page_and_form
from scoring import PRESETS, trump_text
from scoring.game import Game as ScoredGame

# The page's actions besides judging: "seat" lays the seats out again when the players, the
# decks or the leader change (htmx asks as soon as they do; without it, a button does);
# "save" keeps a game's verdict as a precedent; "read" (htmx, as cards are typed) answers
# the cards each field reads, for the card grid to show.
SEAT = "seat"
SAVE = "save"
READ = "read"


@page_and_form
def dispute(request: HttpRequest) -> HttpResponse:
    """Any table's dispute, without a game or an account: P1 leads, then P2, P3, …"""
    data = request.POST if request.method == "POST" else None
    form = _seated(DisputeForm(data), data)
    return _dispute_page(request, form, game=None)


@page_and_form
@login_required
def game_dispute(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """A game's dispute: its seats, decks and rules, prefilled for the hand it is about, and
    saved to that hand as a precedent."""
    game = get_object_or_404(
        Game.objects.for_member(request.user).with_seats(), pk=pk, group_id=group_id
    )
    if request.method == "POST" and request.POST.get("action") == READ:
        # Reading typed cards, as often as a player types, needs the table's seats, not the
        # game's hands.
        form = DisputeForm(request.POST, table=game.table, own_rules=game.rules)
        return _dispute_page(request, form, game=game)
    hands = list(game.hands.all())
    scored = game.scored(hands)
    numbers = hand_numbers(scored)
    number = _hand_number(request, [n for n, _label in numbers])
    data = None
    if request.method == "POST":
        # The hand to save to is offered with the first verdict; until then, the default.
        data = request.POST.copy()
        data.setdefault("hand_number", str(number))
    form = DisputeForm(
        data,
        table=scored.table,
        own_rules=game.rules,
        hand_numbers=numbers,
        initial=game_initial(game, scored, number),
    )
    form = _seated(form, data)
    saved = None
    if form.is_bound and data.get("action") == SAVE and form.is_valid():
        number = form.cleaned_data["hand_number"]
        saved = game.add_dispute(
            number, form.cleaned_data["request"], form.cleaned_data["verdict"], by=request.user
        )
        if not request.htmx:
            messages.success(
                request, _("The verdict is saved as a precedent of hand %(n)d.") % {"n": number}
            )
            return redirect(f"{game.get_absolute_url()}#precedents-{number}")
    return _dispute_page(request, form, game=game, saved=saved)


def _seated(form: DisputeForm, data: QueryDict | None) -> DisputeForm:
    """The form as posted, or laid out again when the table or the leader changed: when the
    players change, with the decks proposed for them."""
    if data is None or data.get("action") != SEAT:
        return form
    return form.laid_again(propose_decks=data.get("changed") == "players")


def _dispute_page(
    request: HttpRequest, form: DisputeForm, *, game: Game | None, saved: Dispute | None = None
) -> HttpResponse:
    template = "companion/dispute.html"
    if request.htmx:
        template += "#card-codes" if request.POST.get("action") == READ else "#verdict"
    return render(
        request,
        template,
        {"form": form, "game": game, "saved": saved, "card_grid": CARD_GRID},
    )


def hand_numbers(scored: ScoredGame) -> list[tuple[int, str]]:
    """The hands a precedent can be saved to: every recorded hand, and the hand being played."""
    numbers = [(played.number, _("Hand %(n)d") % {"n": played.number}) for played in scored.hands]
    if not scored.state.game_over:
        playing = scored.state.number
        numbers.append((playing, _("Hand %(n)d, being played") % {"n": playing}))
    return numbers


def _hand_number(request: HttpRequest, numbers: list[int]) -> int:
    """The hand the page is about: ``?hand=`` (a hand's own page links with it), else the
    hand being played, or the last one once the game is over."""
    try:
        number = int(request.GET.get("hand", ""))
    except ValueError:
        number = 0
    return number if number in numbers else numbers[-1]


def game_initial(game: Game, scored: ScoredGame, number: int) -> dict:
    """The form as hand ``number`` prefills it: a recorded hand's level, trump and declarer
    (who led its first trick); for the hand being played, the level and the starter the game
    says come next, and the trump where the game fixes it (bid each hand, the table taps it)."""
    rules = game.rules
    initial: dict = {
        "rules": rules.name if PRESETS.get(rules.name) == rules else GAME_RULES,
        "hand_number": number,
    }
    if number <= len(scored.hands):
        played = scored.hands[number - 1]
        initial.update(
            level=played.level.symbol,
            trump=trump_text(played.trump),
            leader=played.result.declarer,
        )
        return initial
    state = scored.state
    if state.level is not None:
        initial["level"] = state.level.symbol
    trumps = scored.table.trumps
    if not trumps.bids:
        initial["trump"] = trump_text(trumps.fixed(state.number))
    # Before a first bid anyone may start: the first seat leads until the table says.
    initial["leader"] = state.next_declarer if state.next_declarer is not None else 0
    return initial
