"""A game in progress: its scoreboard, recording and correcting hands, and watching by link."""

from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from companion.forms import SEAT_NAMES, HandForm
from companion.models import Game, Hand, StaleGame
from companion.templatetags.tractor import TEAM_NAMES, level
from companion.templatetags.tricks import CARD_GRID
from scoring import Rules
from scoring.cards import Card, Rank, Suit
from scoring.game import GameError, GameState, Seat, Team

GAME_FIELDS = ("group", "north", "east", "south", "west")

# Most calls are a clean sweep or a line where the result changes; four buttons fit a phone.
QUICK_TOTALS_SHOWN = 4
# The point cards the opponents may have won: two decks hold eight of each.
POINT_CARDS = tuple(
    (kind, label, Card(rank=rank, suit=Suit.SPADES).points)
    for kind, label, rank in (
        ("fives", _lazy("Fives"), Rank.FIVE),
        ("tens", _lazy("Tens"), Rank.TEN),
        ("kings", _lazy("Kings"), Rank.KING),
    )
)
# The kitty's card grid is the dispute's, with each card's points for the running total.
KITTY_GRID = [{**card, "points": Card.parse(card["code"]).points} for card in CARD_GRID]


def member_game(request: HttpRequest, group_id: int, pk: int) -> Game:
    """The game, if it belongs to a group the user is a member of; 404 for anyone else."""
    return get_object_or_404(
        Game.objects.select_related(*GAME_FIELDS),
        pk=pk,
        group_id=group_id,
        group__members=request.user,
    )


def scoreboard_context(game: Game, hands: list[Hand]) -> dict:
    scored = game.scored(hands)
    state = scored.state
    players = {seat: game.player_at(seat) for seat in Seat}
    ladder = [
        {
            "team": team,
            "players": [players[seat] for seat in team.seats],
            "level": state.levels.of(team),
            "declaring": team is state.declarers,
            "won": team is state.winner,
            "rungs": [{"rank": rank, "reached": rank <= state.levels.of(team)} for rank in Rank],
        }
        for team in Team
    ]
    return {
        "game": game,
        "scored": scored,
        "state": state,
        "ladder": ladder,
        "rows": list(zip(hands, scored.hands, strict=True)),
        "players": players,
        "seat_names": SEAT_NAMES,
        "last_trump": hands[-1].trump if hands else None,
        "precedents": game.precedents(hands),
        "playing": len(hands) + 1,
    }


def nothing_new(request: HttpRequest, game: Game) -> bool:
    """A watching phone's poll names the version it shows; if that is current, answer 204."""
    return bool(request.htmx) and request.GET.get("since") == str(game.version)


@login_required
def game(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    if request.method == "POST" and request.POST.get("action") == "undo":
        return undo_last_hand(request, game)
    return scoreboard(request, game, can_edit=True)


def scoreboard(request: HttpRequest, game: Game, *, can_edit: bool) -> HttpResponse:
    """The game's page; for htmx only its scoreboard, or 204 when a poll finds nothing new."""
    if nothing_new(request, game):
        return HttpResponse(status=204)
    template = "companion/game.html"
    if request.htmx:
        template += "#scoreboard"
    hands = list(game.hands.all())
    return render(request, template, {**scoreboard_context(game, hands), "can_edit": can_edit})


def undo_last_hand(request: HttpRequest, game: Game) -> HttpResponse:
    number = game.hands.count()
    try:
        if number == 0:
            raise GameError(_("There is no hand to undo."))
        game.delete_hand(number, version=_version(request), by=request.user)
        messages.success(request, _("Hand %(number)d undone.") % {"number": number})
    except StaleGame:
        messages.warning(request, _("Someone else changed the game first: here it is now."))
    except GameError as error:
        messages.error(request, str(error))
    return redirect(game)


def watch(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only scoreboard for anyone with the game's share link."""
    game = get_object_or_404(Game.objects.select_related(*GAME_FIELDS), share_token=token)
    return scoreboard(request, game, can_edit=False)


@login_required
def hand_new(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    hands = list(game.hands.all())
    return _hand_page(request, game, hands, number=len(hands) + 1)


@login_required
def hand_edit(request: HttpRequest, group_id: int, pk: int, number: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    hands = list(game.hands.all())
    if not 1 <= number <= len(hands):
        return redirect(game)
    if request.method == "POST" and request.POST.get("action") == "delete":
        try:
            game.delete_hand(number, version=_version(request), by=request.user)
            messages.success(request, _("Hand %(number)d deleted.") % {"number": number})
        except StaleGame:
            messages.warning(request, _("Someone else changed the game first: here it is now."))
        except GameError as error:
            messages.error(request, str(error))
        return redirect(game)
    return _hand_page(request, game, hands, number=number)


def _hand_page(request: HttpRequest, game: Game, hands: list[Hand], number: int) -> HttpResponse:
    """Record the next hand or correct hand ``number``: the page, its live preview, its save."""
    editing = number <= len(hands)
    before = game.scored(hands[: number - 1])
    players = {seat: game.player_at(seat) for seat in Seat}
    data = request.POST if request.method == "POST" else None
    initial = HandForm.initial_from(hands[number - 1]) if editing else None
    form = HandForm(data, initial=initial, game=before, number=number, players=players)
    if not editing and before.state.game_over:
        messages.info(request, _("The game is over: no more hands to record."))
        return redirect(game)

    if data is not None and not request.POST.get("preview") and form.is_valid():
        try:
            if editing:
                old = game.scored(hands).state
                game.edit_hand(
                    number, form.hand_fields(), version=_version(request), by=request.user
                )
                messages.success(request, correction_message(number, old, game.scored().state))
            else:
                game.record_hand(
                    form.hand_fields(),
                    version=_version(request),
                    request_key=_request_key(request),
                    by=request.user,
                )
        except StaleGame:
            # Shown the game as it now is, the slower scorekeeper sees whether their hand is in.
            messages.warning(
                request, _("Someone else saved a change first. The game is shown as it is now.")
            )
            return redirect(game)
        except GameError as error:
            form.add_error(None, str(error))
        else:
            return redirect(game)

    template = "companion/hand_form.html"
    if request.htmx and request.POST.get("preview"):
        template += "#preview"
    return render(
        request,
        template,
        {
            "game": game,
            "form": form,
            "number": number,
            "editing": editing,
            "before": before.state,
            "players": players,
            "seat_names": SEAT_NAMES,
            "request_key": _request_key(request) or uuid.uuid4().hex,
            "kitty_grid": KITTY_GRID,
            "quick_totals": quick_totals(game.rules),
            "point_cards": POINT_CARDS,
        },
    )


def quick_totals(rules: Rules) -> list[int]:
    """0 and the table's lines from 40 up (where a hand's result changes), as many as fit."""
    lines = [band.low for band in rules.bands if band.low >= 40]
    return [0, *lines][:QUICK_TOTALS_SHOWN]


def correction_message(number: int, old: GameState, new: GameState) -> str:
    """What a correction changed for the game as it stands, in a sentence or three."""
    said = [_("Hand %(number)d corrected.") % {"number": number}]
    for team in Team:
        if old.levels.of(team) != new.levels.of(team):
            said.append(
                _("%(team)s now at %(new)s (was %(old)s).")
                % {
                    "team": TEAM_NAMES[team],
                    "new": level(new.levels.of(team)),
                    "old": level(old.levels.of(team)),
                }
            )
    if old.winner is not new.winner:
        if new.winner is None:
            said.append(_("The game is no longer won."))
        else:
            said.append(_("%(team)s win the game.") % {"team": TEAM_NAMES[new.winner]})
    elif new.declarers is not old.declarers and new.declarers is not None:
        said.append(_("%(team)s declare next.") % {"team": TEAM_NAMES[new.declarers]})
    if len(said) == 1:
        said.append(_("The levels are unchanged."))
    return " ".join(said)


@login_required
def game_history(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    changes = game.changes.select_related("by")
    return render(request, "companion/game_history.html", {"game": game, "changes": changes})


def _request_key(request: HttpRequest) -> str:
    """The key the hand form was given, which a retried save sends again; a key the page
    cannot have made (too long for the database, or not letters, digits and dashes) is none."""
    key = request.POST.get("request_key", "")
    longest = Hand._meta.get_field("request_key").max_length
    return key if len(key) <= longest and re.fullmatch(r"[-\w]*", key, re.ASCII) else ""


def _version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1
