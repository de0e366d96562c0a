"""Settling a disputed trick: `scoring`'s verdict on a phone, and a group's precedents."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from companion.forms import GAME_RULES, NO_TRUMP, DisputeForm
from companion.models import Dispute, Game, Hand
from companion.templatetags.tricks import CARD_GRID
from companion.views.games import member_game
from scoring import PRESETS
from scoring.game import Game as ScoredGame
from scoring.game import Seat

# Standalone, the players are named by their place in the trick: P1 leads.
STANDALONE_PLAYERS = [(str(number), f"P{number}") for number in range(1, 9)]


def dispute(request: HttpRequest) -> HttpResponse:
    """Any table's dispute, without a game or an account: P1 leads, then P2, P3, …"""
    data = request.POST if request.method == "POST" else None
    form = DisputeForm(data, players=STANDALONE_PLAYERS)
    return _dispute_page(request, form, game=None)


@login_required
def game_dispute(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """A game's dispute: its seats and rules, prefilled for the hand it is about, and saved to
    that hand as a precedent."""
    game = member_game(request, group_id, pk)
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
        players=game_players(game),
        seated=True,
        own_rules=game.rules,
        hand_numbers=numbers,
        initial=game_initial(game, hands, scored, number),
    )
    saved = None
    if data is not None and data.get("action") == "save" and form.is_valid():
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


def _dispute_page(
    request: HttpRequest, form: DisputeForm, *, game: Game | None, saved: Dispute | None = None
) -> HttpResponse:
    template = "companion/dispute.html"
    if request.htmx:
        template += "#verdict"
    return render(
        request,
        template,
        {"form": form, "game": game, "saved": saved, "card_grid": CARD_GRID},
    )


def game_players(game: Game) -> list[tuple[str, str]]:
    """The game's seats in play order (counter-clockwise from North), named by their players."""
    seats = [Seat.NORTH]
    while len(seats) < len(Seat):
        seats.append(seats[-1].right)
    return [(seat.value, str(game.player_at(seat))) for seat in seats]


def hand_numbers(scored: ScoredGame) -> list[tuple[int, str]]:
    """The hands a precedent can be saved to: every recorded hand, and the hand being played."""
    numbers = [(played.number, _("Hand %(n)d") % {"n": played.number}) for played in scored.hands]
    if not scored.state.game_over:
        playing = len(scored.hands) + 1
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


def game_initial(game: Game, hands: list[Hand], scored: ScoredGame, number: int) -> dict:
    """The form as the hand ``number`` prefills it: a recorded hand's level, trump and declarer
    (who led its first trick); for the hand being played, the level the game says it is played
    at, and the trump left for the table to tap, since it is bid afresh every hand."""
    rules = game.rules
    initial: dict = {
        "rules": rules.name if PRESETS.get(rules.name) == rules else GAME_RULES,
        "hand_number": number,
    }
    if number <= len(hands):
        hand, played = hands[number - 1], scored.hands[number - 1]
        initial.update(level=played.level.symbol, trump=hand.trump or NO_TRUMP)
        initial["leader"] = hand.declarer
        return initial
    state = scored.state
    level = state.level
    if level is None and len(set(state.levels)) == 1:
        level = state.levels.north_south
    if level is not None:
        initial["level"] = level.symbol
    if state.starter is not None:
        initial["leader"] = state.starter.value
    elif state.declarers is not None:
        initial["leader"] = state.declarers.seats[0].value
    else:
        initial["leader"] = Seat.NORTH.value
    return initial
