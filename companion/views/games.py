"""A game in progress: its scoreboard, recording and correcting hands, and watching by link."""

from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from companion.forms.hands import HandForm
from companion.models import Game, Hand, SavedDifferently, Seat, StaleGame
from companion.templatetags.tractor import level, names
from companion.templatetags.tricks import CARD_GRID
from scoring import Rules
from scoring.cards import Card, Rank, Suit, full_pack
from scoring.game import GameError, GameState, PlayedHand
from scoring.table import Table

GAME_FIELDS = ("group",)
# The seats with their players in one query: every page of a game names them.
SEATED = Prefetch("seats", queryset=Seat.objects.select_related("player"))

# Most calls are a clean sweep or a line where the result changes; four buttons fit a phone.
QUICK_TOTALS_SHOWN = 4
# The point cards the opponents may have won; the table's decks say how many of each there are.
POINT_CARDS = tuple(
    (kind, label, rank)
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
        Game.objects.select_related(*GAME_FIELDS).prefetch_related(SEATED),
        pk=pk,
        group_id=group_id,
        group__members=request.user,
    )


def sides(table: Table) -> list[tuple[int, ...]]:
    """The sides whose levels the scoreboard shows: the fixed teams, or every player."""
    return list(table.fixed) or [(seat,) for seat in table.seats]


def scoreboard_context(game: Game, hands: list[Hand]) -> dict:
    scored = game.scored(hands)
    state, table = scored.state, scored.table
    players = table.players
    ladder = [
        {
            "key": "-".join(map(str, side)),
            "players": names(side, players),
            "level": state.levels[side[0]],
            "declaring": state.next_declarer in side
            or (state.next_declarer is None and set(state.next_declarers) == set(side)),
            "won": set(side) <= set(state.winners),
            "rungs": [{"rank": rank, "reached": rank <= state.levels[side[0]]} for rank in Rank],
        }
        for side in sides(table)
    ]
    rows = [
        {"hand": hand, "played": played, **hand_sides(table, played)}
        for hand, played in zip(hands, scored.hands, strict=True)
    ]
    return {
        "game": game,
        "scored": scored,
        "state": state,
        "table": table,
        "ladder": ladder,
        "rows": rows,
        "winners": names(state.winners, players),
        "trump_now": trump_now(table, state, hands),
        "precedents": game.precedents(hands),
        "playing": len(hands) + 1,
    }


def hand_sides(table: Table, played: PlayedHand) -> dict:
    """A hand's sides in players' words, and whose levels it changed."""
    players = table.players
    climbed = [
        (
            names(side, players),
            played.before.levels[side[0]],
            played.after.levels[side[0]],
        )
        for side in sides(table)
        if played.after.levels[side[0]] != played.before.levels[side[0]]
    ]
    return {
        "declarer": players[played.result.declarer],
        "friends": names(played.friends, players),
        "declarers": names(played.declarers, players),
        "opponents": names(played.opponents, players),
        "climbed": climbed,
    }


def trump_now(table: Table, state: GameState, hands: list[Hand]) -> dict | None:
    """The next hand's trump where the game fixes it, else the last hand's where it was bid."""
    if not table.trumps.bids:
        return {"fixed": True, "trump": table.trumps.fixed(state.number)}
    if hands:
        return {"fixed": False, "trump": hands[-1].trump}
    return None


def nothing_new(request: HttpRequest, game: Game) -> bool:
    """A watching phone's poll names the version it shows; if that is current, answer 204."""
    return bool(request.htmx) and request.GET.get("since") == str(game.version)


@login_required
def game(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    if request.method == "POST" and request.POST.get("action") == "undo":
        return undo_last_hand(request, game)
    if request.method == "POST" and request.POST.get("action") == "new_share_link":
        game.new_share_link()
        messages.success(request, _("Made a new share link: the old one no longer shows the game."))
        return redirect(game)
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
    if not nothing_new(request, game):
        # A poll that finds nothing new costs one query; the seats are read only for a page.
        prefetch_related_objects([game], SEATED)
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
    data = request.POST if request.method == "POST" else None
    initial = HandForm.initial_from(hands[number - 1]) if editing else None
    form = HandForm(data, initial=initial, game=before, number=number)
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
                new = game.scored().state
                messages.success(request, correction_message(before.table, number, old, new))
            else:
                game.record_hand(
                    form.hand_fields(),
                    version=_version(request),
                    request_key=_request_key(request),
                    by=request.user,
                )
        except SavedDifferently as error:
            messages.warning(
                request,
                _(
                    "Hand %(number)d was already saved from this page with other numbers: "
                    "check it below and correct it if needed."
                )
                % {"number": error.hand.number},
            )
            return redirect(game)
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
    table = before.table
    return render(
        request,
        template,
        {
            "game": game,
            "form": form,
            "number": number,
            "editing": editing,
            "before": before,
            "table": table,
            "trump": table.trumps.fixed(number) if not table.trumps.bids else None,
            "sides": hand_sides(table, form.played) if form.played else None,
            "request_key": _request_key(request) or uuid.uuid4().hex,
            "kitty_grid": KITTY_GRID,
            "quick_totals": quick_totals(game.rules, table.decks),
            "point_cards": point_cards(table.decks),
        },
    )


def quick_totals(rules: Rules, decks: int) -> list[int]:
    """0 and the table's lines past 5 (where a hand's result changes), as many as fit."""
    lines = [band.low for band in rules.for_decks(decks).bands if band.low > 5]
    return [0, *lines][:QUICK_TOTALS_SHOWN]


def point_cards(decks: int) -> list[dict]:
    """The point cards to count, each with its worth and how many the decks hold."""
    pack = full_pack(decks)
    return [
        {
            "kind": kind,
            "label": label,
            "worth": Card(rank=rank, suit=Suit.SPADES).points,
            "most": sum(card.rank is rank for card in pack),
        }
        for kind, label, rank in POINT_CARDS
    ]


def correction_message(table: Table, number: int, old: GameState, new: GameState) -> str:
    """What a correction changed for the game as it stands, in a sentence or three."""
    players = table.players
    said = [_("Hand %(number)d corrected.") % {"number": number}]
    for side in sides(table):
        was, now = old.levels[side[0]], new.levels[side[0]]
        if was != now:
            said.append(
                _("%(players)s now at %(new)s (was %(old)s).")
                % {
                    "players": names(side, players),
                    "new": level(now),
                    "old": level(was),
                }
            )
    if old.winners != new.winners:
        if not new.winners:
            said.append(_("The game is no longer won."))
        else:
            said.append(_("%(players)s win the game.") % {"players": names(new.winners, players)})
    elif new.next_declarers != old.next_declarers and new.next_declarers:
        said.append(
            _("%(players)s declare next.") % {"players": names(new.next_declarers, players)}
        )
    if len(said) == 1:
        said.append(_("The levels are unchanged."))
    return " ".join(said)


@login_required
def game_history(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    changes = list(game.changes.select_related("by"))
    for change in changes:
        change.game = game  # its seats name the players the changes are about
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
