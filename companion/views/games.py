"""A game in progress: its scoreboard, recording and correcting hands, and watching by link."""

from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.db.models import Prefetch, prefetch_related_objects
from django.db.models.fields.json import KeyTransform
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from companion.display import CARD_GRID, level, names, suit_symbol
from companion.forms.choices import NO_TRUMP
from companion.forms.hands import HandForm
from companion.models import (
    CONFIRMERS,
    Game,
    GameEnded,
    GameSummary,
    Hand,
    HandChange,
    SavedDifferently,
    Seat,
    StaleGame,
)
from companion.models.evenings import refuse_hand
from companion.views.methods import page_and_form, require_safe
from companion.views.previews import previewing
from scoring import Rules
from scoring.cards import Card, Rank, Suit, full_pack
from scoring.game import Game as ScoredGame
from scoring.game import GameError, GameState, PlayedHand, resume
from scoring.stats import HandLine
from scoring.table import Bid, Table, trumps_allowed

# A game of a club night comes with its table, which says whether the evening ended it.
GAME_FIELDS = ("group", "evening_table__round__evening")
# The seats with their players in one query: every page of a game names them.
SEATED = Prefetch("seats", queryset=Seat.objects.select_related("player"))

# The scoreboard shows the latest hands, and earlier ones as many at a time: a page costs the
# same at hand 30 and at hand 300.
HANDS_SHOWN = 12
# A watching phone further behind than this many changes or rows gets the whole scoreboard.
CHANGES_SENT = 40
# Most calls are a clean sweep or beside a line where the result changes: five buttons and
# the toggle for the rest fit one row of a 360 px phone.
QUICK_TOTALS_SHOWN = 5
# The point cards the opponents may have won; the table's decks say how many of each there are.
# Each with the words of its counter and of its two buttons.
POINT_CARDS = (
    (
        "fives",
        Rank.FIVE,
        gettext_lazy("Fives"),
        gettext_lazy("One five fewer"),
        gettext_lazy("One more five"),
    ),
    (
        "tens",
        Rank.TEN,
        gettext_lazy("Tens"),
        gettext_lazy("One ten fewer"),
        gettext_lazy("One more ten"),
    ),
    (
        "kings",
        Rank.KING,
        gettext_lazy("Kings"),
        gettext_lazy("One king fewer"),
        gettext_lazy("One more king"),
    ),
)
# The kitty's card grid is the dispute's, with each card's points for the running total.
KITTY_GRID = [{**card, "points": Card.parse(card["code"]).points} for card in CARD_GRID]


def member_game(request: HttpRequest, group_id: int, pk: int, *, seated: bool = True) -> Game:
    """The game, if it belongs to a group the user is a member of; 404 for anyone else. Its
    seats come with it unless ``seated`` is False (the scoreboard reads them only if needed)."""
    games = Game.objects.select_related(*GAME_FIELDS)
    return get_object_or_404(
        games.prefetch_related(SEATED) if seated else games,
        pk=pk,
        group_id=group_id,
        group__members=request.user,
    )


def sides(table: Table) -> list[tuple[int, ...]]:
    """The sides whose levels the scoreboard shows: the fixed teams, or every player."""
    return list(table.fixed) or [(seat,) for seat in table.seats]


def board(game: Game, hands: list[Hand]) -> dict:
    """The scoreboard with ``hands`` as its rows: the game's hands from some number to its last,
    in order (its latest, or those a watching phone lacks)."""
    scored = settled(game, hands)
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
            "rungs": [(level(rank), rung(rank, state.levels[side[0]])) for rank in Rank],
        }
        for side in sides(table)
    ]
    precedents = game.precedents(hands)
    rows = hand_rows(table, hands, scored, precedents)
    count = hands[-1].number if hands else 0
    return {
        "scored": scored,
        # The level race of the latest hands: the page's cost does not grow with the game.
        "race": ScoredGame(scored.setup, scored.hands[-HANDS_SHOWN:]),
        "state": state,
        "table": table,
        "ladder": ladder,
        "rows": rows,
        "count": count,
        **hands_shown(hands),
        "winners": names(state.winners, players),
        "trump_now": trump_now(table, state, hands),
        "playing": precedents.get(count + 1),
    }


def latest_board(game: Game) -> dict:
    """The scoreboard of the game's latest hands as the page shows it. Its HTML is the same for
    every viewer at the same game version, scorekeeper or watcher, and costs more than the rest
    of the page: it is kept per version (a new version is a new key, so it is never stale; the
    share token, unlike the id, is never reused), made without the request, so that no viewer's
    token or controls are in it. What depends on who looks (the hands' confirmations, the
    scorekeeper's links and undo form) the page renders around it."""
    confirmations = game.group.hands_need_confirmation
    key = f"{game.share_token}:{game.version}:{confirmations}:{get_language()}"
    scoreboards = caches["scoreboards"]
    kept = scoreboards.get(key)
    if kept is not None:
        return kept | {"rows": confirming(game, kept["rows"])}
    prefetch_related_objects([game], SEATED)
    hands = _latest(game)
    made = board(game, hands)
    context = made | {"game": game}
    kept = {
        "rules": made["scored"].setup.rules.name,
        "count": made["count"],
        "game_over": made["state"].game_over,
        "first_shown": made["first_shown"],
        "earlier_hands": made["earlier_hands"],
        **{
            part: render_to_string(f"companion/game.html#{part}", context)
            for part in ("description", "won", "standings", "ladders")
        },
        "rows": rendered_rows(game, made["rows"]),
    }
    scoreboards.set(key, kept)
    return kept | {"rows": confirming(game, kept["rows"], hands)}


def rendered_rows(game: Game, rows: list[dict]) -> list[dict]:
    """The rows' HTML, made without the request (see `latest_board`): whole, as a watcher and
    as a scorekeeper see it, and in parts around what the page renders for its viewer (a
    confirmation, the swap of a poll)."""
    made = []
    for row in rows:
        hand = row["hand"]
        context = {"game": game, "row": row}
        parts = {
            "number": hand.number,
            "title": row["title"],
            "held": row["played"].winner.value == "declarers",
            **{
                part: render_to_string(f"companion/includes/hand_row.html#{part}", context)
                for part in ("body", "standing", "edit", "precedents")
            },
            "confirms": hand.asks_confirmation or hand.confirmed_at is not None,
            "hand": None,
        }
        for whole, can_edit in (("html", False), ("editable", True)):
            parts[whole] = render_to_string(
                "companion/includes/hand_row.html", {"row": parts, "can_edit": can_edit}
            )
        made.append(parts)
    return made


def confirming(game: Game, rows: list[dict], hands: list[Hand] | None = None) -> list[dict]:
    """``rows`` with the hand of each that shows a confirmation, for the page to render it for
    the viewer: from ``hands``, else read (with the seats, which name who may confirm). The
    others have none."""
    wanted = [row["number"] for row in rows if row["confirms"]]
    if not wanted:
        return rows
    if hands is None:
        prefetch_related_objects([game], SEATED)
        hands = list(_hands(game).filter(number__in=wanted))
    found = {hand.number: hand for hand in hands}
    return [row | {"hand": found.get(row["number"])} if row["confirms"] else row for row in rows]


def hands_shown(hands: list[Hand]) -> dict:
    """The first hand a list of ``hands`` shows, and the page of hands before it, if any."""
    first = hands[0].number if hands else 1
    earlier = {"first": max(1, first - HANDS_SHOWN), "last": first - 1} if first > 1 else None
    return {"first_shown": first, "earlier_hands": earlier}


def rung(rank: Rank, reached: Rank) -> str:
    """A rung of a side's ladder as its classes: reached, and where the side is now."""
    return "reached current" if rank == reached else "reached" if rank < reached else ""


def hand_rows(
    table: Table, hands: list[Hand], scored: ScoredGame, precedents: dict[int, list]
) -> list[dict]:
    """The scoreboard's rows with their precedents, their sentences made here: the rows cost
    more than the rest of the page."""
    rows = []
    for hand, played in zip(hands, scored.hands, strict=True):
        said = hand_sides(table, played)
        if table.fixed:
            sides = _("%(declarers)s against %(opponents)s")
        elif said["friends"]:
            sides = _("%(declarer)s with %(friends)s against %(opponents)s")
        else:
            sides = _("%(declarer)s alone against %(opponents)s")
        title = _("#%(number)s · %(declarer)s at %(level)s · %(trump)s") % {
            "number": hand.number,
            "declarer": said["declarer"],
            "level": level(played.level),
            "trump": suit_symbol(played.trump),
        }
        rows.append(
            {
                "hand": hand,
                "played": played,
                "title": title,
                "sides": sides % said,
                "precedents": precedents.get(hand.number),
                **said,
            }
        )
    return rows


def settled(game: Game, hands: list[Hand]) -> ScoredGame:
    """``hands`` (a run of the game's, in order) as `scoring` settles them, with the game's
    state after the last. The game's summary, written by every change, holds every player's
    levels after each hand: when it is of the game's version the earlier hands are neither read
    nor played again, so the cost does not grow with the game."""
    first = hands[0].number if hands else 1
    if first == 1:
        return game.scored(hands)
    summary = GameSummary.objects.filter(game=game, version=game.version)
    # Only the hand before ``first`` is read out of the summary, not the whole game's.
    stored = summary.values_list(KeyTransform(str(first - 2), "hands"), flat=True).first()
    if stored is not None:
        levels = HandLine.from_json(stored).levels
        return resume(game.setup, first, levels, (hand.result for hand in hands))
    whole = game.scored()
    return ScoredGame(whole.setup, whole.hands[first - 1 : hands[-1].number])


def hand_sides(table: Table, played: PlayedHand) -> dict:
    """A hand's sides in players' words, where every side stands after it (its level before
    and after), and whose levels it changed."""
    players = table.players
    standing = [
        (
            names(side, players),
            played.before.levels[side[0]],
            played.after.levels[side[0]],
        )
        for side in sides(table)
    ]
    return {
        "declarer": players[played.result.declarer],
        "friends": names(played.friends, players),
        "declarers": names(played.declarers, players),
        "opponents": names(played.opponents, players),
        "standing": standing,
        "climbed": [(side, was, now) for side, was, now in standing if now != was],
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


@page_and_form
@login_required
def game(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk, seated=False)
    if request.method == "POST" and request.POST.get("action") == "undo":
        return undo_last_hand(request, game)
    if request.method == "POST" and request.POST.get("action") == "new_share_link":
        game.new_share_link(by=request.user)
        messages.success(request, _("Made a new share link: the old one no longer shows the game."))
        return redirect(game)
    return scoreboard(request, game, can_edit=True)


def scoreboard(request: HttpRequest, game: Game, *, can_edit: bool) -> HttpResponse:
    """The game's page with its latest hands, or a page of earlier ones (``before``, the hand
    they come before); for htmx the scoreboard alone, or those rows alone. A watching phone's
    poll (``since``, the version it shows; ``from``, the first hand it shows) gets 204 when
    nothing is new, else what changed; the whole scoreboard when that cannot be told."""
    if nothing_new(request, game):
        return HttpResponse(status=204)
    url = game.get_absolute_url() if can_edit else reverse("watch", args=[game.share_token])
    context = {"game": game, "can_edit": can_edit, "board_url": url}
    template = "companion/game.html"
    before = _hand_number(request.GET.get("before"))
    if before is not None:
        prefetch_related_objects([game], SEATED)
        hands = list(_hands(game).filter(number__lt=before).order_by("-number")[:HANDS_SHOWN])
        hands.reverse()
        context |= {"paged": True, **earlier_rows(game, hands)}
        if request.htmx:
            return render(request, template + "#earlier", context)
        # The page's heading is the scoreboard's.
        latest = latest_board(game)
        context |= {part: latest[part] for part in ("rules", "description")}
        return render(request, template, context)
    latest = latest_board(game)
    if request.htmx and "since" in request.GET:
        shown_from = _hand_number(request.GET.get("from")) or 1
        news = changes_since(game, latest, request.GET["since"], shown_from)
        if news is not None:
            return render(request, template + "#changes", context | latest | news)
        # The phone's version is unknown, too old, or past a precedent: the whole scoreboard.
        response = render(request, template + "#scoreboard", context | latest)
        return reswap(retarget(response, "#scoreboard"), "outerHTML")
    if request.htmx:
        template += "#scoreboard"
    return render(request, template, context | latest)


def earlier_rows(game: Game, hands: list[Hand]) -> dict:
    """The rows of ``hands``, a run of the game's before its latest, made afresh."""
    scored = settled(game, hands)
    rows = hand_rows(scored.table, hands, scored, game.precedents(hands))
    made = rendered_rows(game, rows)
    return {"rows": confirming(game, made, hands), **hands_shown(hands)}


def changes_since(game: Game, latest: dict, since: str, shown_from: int) -> dict | None:
    """What a phone showing the game at version ``since``, from hand ``shown_from`` on, lacks:
    the rows from the lowest hand changed since (each change names its hand and the version it
    made), the new ones, those gone, and the levels (``latest``, the scoreboard now). None when
    that cannot be told: a version the game never had, changes from before versions were kept,
    a precedent (it names no change), or more than a phone should be sent."""
    try:
        version = int(since)
    except ValueError:
        return None
    if not 0 < game.version - version <= CHANGES_SENT:
        return None
    changes = list(
        game.changes.filter(version__gt=version).order_by().values_list("hand_number", "action")
    )
    if len(changes) != game.version - version:
        return None
    start = max(shown_from, min(number for number, _action in changes))
    count, rows = latest["count"], latest["rows"]
    if count and start < latest["first_shown"]:
        if latest["first_shown"] - start + len(rows) > CHANGES_SENT:
            return None
        prefetch_related_objects([game], SEATED)
        before = _hands(game).filter(number__gte=start, number__lt=latest["first_shown"])
        rows = earlier_rows(game, list(before))["rows"] + rows
    if count < shown_from:
        return None  # every row the phone shows is gone
    recorded = sum(action == HandChange.Action.RECORDED for _number, action in changes)
    deleted = sum(action == HandChange.Action.DELETED for _number, action in changes)
    shown = count - recorded + deleted
    rows = [row for row in rows if row["number"] >= start]
    return {
        "changed": [row for row in rows if row["number"] <= shown],
        "added": [row for row in rows if row["number"] > shown],
        "removed": range(count + 1, shown + 1),
    }


def _latest(game: Game) -> list[Hand]:
    hands = list(_hands(game).order_by("-number")[:HANDS_SHOWN])
    hands.reverse()
    return hands


def _hands(game: Game):
    # Who confirmed or flagged each hand comes with it (companion/includes/hand_confirmation).
    return game.hands.select_related(*CONFIRMERS)


def _hand_number(value: str | None) -> int | None:
    """A hand number from a query string; anything else is none."""
    if value is None or not value.isdigit() or len(value) > 6:
        return None
    return int(value) or None


def undo_last_hand(request: HttpRequest, game: Game) -> HttpResponse:
    number = game.hands.count()
    if number == 0:
        messages.error(request, _("There is no hand to undo."))
        return redirect(game)
    try:
        game.delete_hand(number, version=_version(request), by=request.user)
        messages.success(request, _("Hand %(number)d undone.") % {"number": number})
    except StaleGame:
        messages.warning(request, _("Someone else changed the game first: here it is now."))
    except GameError as error:
        messages.error(request, refused_delete(error, number))
    return redirect(game)


@require_safe
def watch(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only scoreboard for anyone with the game's share link."""
    game = get_object_or_404(Game.objects.select_related(*GAME_FIELDS), share_token=token)
    return scoreboard(request, game, can_edit=False)


@page_and_form
@login_required
def hand_new(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    try:
        game = member_game(request, group_id, pk)
    except Http404:
        if _sent_by_script(request):
            return _not_storable(request, group_id, pk)
        raise
    hands = game.hands_and_version()
    try:
        refuse_hand(game, len(hands))
    except GameEnded as ended:
        # A plain post comes back filled in with why beside it (the hand form's refusal).
        why = ended.in_words(_, ngettext)
        if _sent_by_script(request):
            return _unstorable(why, status=409)
        if request.method != "POST":
            messages.info(request, why)
            return redirect(game)
    return _hand_page(request, game, hands, number=len(hands) + 1)


@page_and_form
@login_required
def hand_edit(request: HttpRequest, group_id: int, pk: int, number: int) -> HttpResponse:
    try:
        game = member_game(request, group_id, pk)
    except Http404:
        if _sent_by_script(request):
            return _not_storable(request, group_id, pk)
        raise
    hands = game.hands_and_version()
    if not 1 <= number <= len(hands):
        if _sent_by_script(request):
            why = _("Hand %(number)d was deleted since.") % {"number": number}
            return _unstorable(why, status=409)
        return redirect(game)
    if request.method == "POST" and request.POST.get("action") == "delete":
        try:
            game.delete_hand(number, version=_version(request), by=request.user)
            messages.success(request, _("Hand %(number)d deleted.") % {"number": number})
        except StaleGame:
            messages.warning(request, _("Someone else changed the game first: here it is now."))
        except GameError as error:
            messages.error(request, refused_delete(error, number))
        return redirect(game)
    return _hand_page(request, game, hands, number=number)


def _overtaken(request: HttpRequest, game: Game, editing: int | None) -> HttpResponse:
    """A save that someone else's change overtook: a plain post is shown the game as it now
    is (the slower scorekeeper sees whether their hand is in); a hand sent late by the page's
    script comes back filled in, to be checked against the game now. ``editing``: the hand
    number being corrected, or None for a new hand."""
    if not request.htmx:
        messages.warning(
            request, _("Someone else saved a change first. The game is shown as it is now.")
        )
        return redirect(game)
    game.refresh_from_db()
    hands = game.hands_and_version()
    return _hand_page(request, game, hands, editing or len(hands) + 1, stale=True)


def _hand_page(
    request: HttpRequest, game: Game, hands: list[Hand], number: int, *, stale: bool = False
) -> HttpResponse:
    """Record the next hand or correct hand ``number``: the page, its live preview, its save.
    A save sent by the page's script (htmx) is answered with where to go, or with the page
    and its errors; one that someone else's change overtook (``stale``) comes back filled in
    as sent, so that a hand kept on the phone while offline is never silently lost."""
    editing = number <= len(hands)
    preview = previewing(request)
    saving = request.method == "POST" and not preview and not stale
    resent = None
    if saving and not editing:
        # A resent save (a double tap, an answer lost on the way) is checked as the hand it
        # saved: the game has moved on since, and may no longer allow what that hand says.
        key = _request_key(request)
        resent = next((hand for hand in hands if key and hand.request_key == key), None)
        if resent is not None:
            number = resent.number
    if saving and resent is None and 0 <= _version(request) != game.version:
        # Overtaken: said before the form is checked against a game it was not made for (a
        # post without a version is no page's: its form errors say what is missing).
        return _overtaken(request, game, number if editing else None)
    before = game.scored(hands[: number - 1])
    data = request.POST if request.method == "POST" else None
    initial = HandForm.initial_from(hands[number - 1]) if editing else None
    form = HandForm(data, initial=initial, game=before, number=number)
    if not editing and before.state.game_over:
        over = _("The game is over: no more hands to record.")
        if saving and request.htmx:
            return _unstorable(over, status=409)
        messages.info(request, over)
        return redirect(game)

    if stale:
        form.add_error(
            None,
            _(
                "Someone else saved a change first, so this hand was not saved. Check it "
                "against the game as it is now, and save it again."
            ),
        )
    elif saving and form.is_valid():
        try:
            if editing:
                hand = game.edit_hand(
                    number, form.hand_fields(), version=_version(request), by=request.user
                )
                message = correction_message(game.scored(hands), game.scored(), number)
                messages.success(request, message)
            else:
                hand = game.record_hand(
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
            return _stored(request, game, error.hand)
        except StaleGame:
            return _overtaken(request, game, number if editing else None)
        except GameError as error:
            form.add_error(None, refused_edit(error, number, len(hands)))
        else:
            return _stored(request, game, hand)

    template = "companion/hand_form.html"
    if request.htmx and preview:
        template += "#preview"
    table = before.table
    first_error = _mark_errors(form)
    totals = quick_totals(game.rules, table.decks, table.deck_points)
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
            "quick_totals": totals[:QUICK_TOTALS_SHOWN],
            "more_totals": totals[QUICK_TOTALS_SHOWN:],
            "previewing": preview,
            "point_cards": point_cards(table.decks),
            "bid_trumps": bid_trumps() if table.trumps.bids else {},
            "first_error": first_error,
        },
        status=422 if request.htmx and not preview else 200,
    )


def _mark_errors(form: HandForm) -> str | None:
    """The first field at fault (its name) takes the focus, so that a failed save opens with it
    in view; the field template ties each error to its field for screen readers. A hand refused
    as a whole (someone else saved first) says so first: the box above the form takes it."""
    if form.non_field_errors():
        return None
    wrong = [name for name in form.fields if name in form.errors]
    if wrong:
        form.fields[wrong[0]].widget.attrs["autofocus"] = True
    return wrong[0] if wrong else None


def _stored(request: HttpRequest, game: Game, hand: Hand) -> HttpResponse:
    """To the game after a save: a redirect, or for the page's script, where to go. Its header
    says which hand is stored: only that answer lets the phone drop the copy it keeps."""
    if request.htmx:
        response = HttpResponseClientRedirect(game.get_absolute_url())
    else:
        response = redirect(game)
    response["Hand-Saved"] = str(hand.number)
    return response


def _sent_by_script(request: HttpRequest) -> bool:
    """A save sent by the page's script, which keeps the hand until it hears what became of it."""
    return request.method == "POST" and bool(request.htmx) and not previewing(request)


def _unstorable(why: str, *, status: int) -> HttpResponse:
    """For the page's script: a hand that can no longer be stored, and why, in words. The phone
    shows it and keeps the hand until the player drops it."""
    response = HttpResponse(why, status=status, content_type="text/plain; charset=utf-8")
    response["Hand-Unstorable"] = "true"
    return response


def _not_storable(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """A hand sent for a game this account no longer sees: deleted, or its group left."""
    if Game.objects.filter(pk=pk, group_id=group_id).exists():
        why = _("This account is no longer a member of the game's group.")
        return _unstorable(why, status=403)
    return _unstorable(_("The game was deleted."), status=404)


def bid_trumps() -> dict[str, str]:
    """For the page's script: the trumps each bid allows, as `scoring` says."""
    return {
        bid.value: " ".join(trump.value if trump else NO_TRUMP for trump in trumps_allowed(bid))
        for bid in Bid
    }


def refused_edit(error: GameError, number: int, count: int) -> str:
    """Why a save was refused, in the players' words; for a correction that a later hand
    cannot follow, also what to do about it."""
    said = error.in_words(_, ngettext)
    if error.hand is None or error.hand <= number:
        return said
    later = range(error.hand, count + 1)
    words = {"hand": error.hand, "said": said, "later": hand_numbers(later), "number": number}
    if error.field is None:  # the only check without a field: the game was already over
        return (
            ngettext(
                "With this correction the game is won before hand %(hand)d, so hand %(later)s "
                "could not have been played. Delete hand %(later)s first, or check the numbers "
                "of hand %(number)d.",
                "With this correction the game is won before hand %(hand)d, so hands %(later)s "
                "could not have been played. Delete hands %(later)s first, or check the numbers "
                "of hand %(number)d.",
                len(later),
            )
            % words
        )
    return (
        ngettext(
            "With this correction hand %(hand)d no longer fits: %(said)s Delete hand %(later)s "
            "first and record it again after the correction, or check the numbers of "
            "hand %(number)d.",
            "With this correction hand %(hand)d no longer fits: %(said)s Delete hands %(later)s "
            "first and record them again after the correction, or check the numbers of "
            "hand %(number)d.",
            len(later),
        )
        % words
    )


def refused_delete(error: GameError, number: int) -> str:
    """Why deleting hand ``number`` was refused, in the players' words: a later hand (numbered
    as the page shows it) could not have been played without it."""
    said = error.in_words(_, ngettext)
    if error.hand is None or error.hand < number:
        return said
    # Translators: %(said)s is a sentence saying what is wrong with the later hand.
    return _("Without hand %(number)d, hand %(later)d could not have been played: %(said)s") % {
        "number": number,
        "later": error.hand + 1,
        "said": said,
    }


def hand_numbers(numbers) -> str:
    """Hand numbers as runs: ``2–4, 7, 9``."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    text = ""
    for run in runs:
        numbers = f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0])
        # Translators: a list of hand numbers (or runs such as 4–6) and the next one after it.
        listed = pgettext("a list of hand numbers", "%(numbers)s, %(next)s")
        text = listed % {"numbers": text, "next": numbers} if text else numbers
    return text


def quick_totals(rules: Rules, decks: int, top: int) -> list[int]:
    """0 and both sides of each line where a hand's result changes (as `scoring` draws them
    for the decks) up to the decks' ``top`` points; the line at 5 gives 0 alone, the other
    side being a step of the stepper away."""
    sides = {0}
    for line in rules.for_decks(decks).lines(top):
        sides.update((line - 5, line) if line > 5 else ())
    return sorted(sides)


def point_cards(decks: int) -> list[dict]:
    """The point cards to count, each with its worth and how many the decks hold."""
    pack = full_pack(decks)
    return [
        {
            "kind": kind,
            "label": label,
            "fewer": fewer,
            "more": more,
            "worth": Card(rank=rank, suit=Suit.SPADES).points,
            "most": sum(card.rank is rank for card in pack),
        }
        for kind, rank, label, fewer, more in POINT_CARDS
    ]


def correction_message(old: ScoredGame, new: ScoredGame, number: int) -> str:
    """What a correction changed, in a few sentences: the levels as they stand, the later
    hands whose levels moved, who has won or declares next."""
    players = new.table.players
    said = [_("Hand %(number)d corrected.") % {"number": number}]
    for side in sides(new.table):
        was, now = old.state.levels[side[0]], new.state.levels[side[0]]
        if was != now:
            said.append(
                ngettext(
                    "%(players)s is now at %(new)s instead of %(old)s.",
                    "%(players)s are now at %(new)s instead of %(old)s.",
                    len(side),
                )
                % {"players": names(side, players), "new": level(now), "old": level(was)}
            )
    moved = [
        then.number
        for then, now in zip(old.hands[number:], new.hands[number:], strict=True)
        if then.after.levels != now.after.levels
    ]
    if moved:
        said.append(
            # Translators: %(hands)s are hand numbers, as "4–6, 9".
            ngettext(
                "The levels after hand %(hands)s changed.",
                "The levels after hands %(hands)s changed.",
                len(moved),
            )
            % {"hands": hand_numbers(moved)}
        )
    old_state, new_state = old.state, new.state
    if old_state.winners != new_state.winners:
        if not new_state.winners:
            said.append(_("The game is no longer won."))
        else:
            said.append(
                ngettext(
                    "%(players)s wins the game.",
                    "%(players)s win the game.",
                    len(new_state.winners),
                )
                % {"players": names(new_state.winners, players)}
            )
    elif new_state.next_declarers != old_state.next_declarers and new_state.next_declarers:
        said.append(
            ngettext(
                "%(players)s declares next.",
                "%(players)s declare next.",
                len(new_state.next_declarers),
            )
            % {"players": names(new_state.next_declarers, players)}
        )
    if len(said) == 1 and old.hands[number - 1].after.levels == new.hands[number - 1].after.levels:
        said.append(_("No levels changed."))
    return sentences(said)


def sentences(said: list[str]) -> str:
    """Sentences one after the other, as the language writes them (Chinese: with no space)."""
    text = said[0]
    for sentence in said[1:]:
        # Translators: two sentences of one message, one after the other. Chinese writes them
        # with no space between.
        text = _("%(sentence)s %(next)s") % {"sentence": text, "next": sentence}
    return text


@require_safe
@login_required
def game_history(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = member_game(request, group_id, pk)
    changes = list(game.changes.select_related("by"))
    # Who made each change, by their name on the group's roster where their account has one.
    roster = dict(game.group.players.exclude(user=None).values_list("user_id", "name"))
    for change in changes:
        change.game = game  # its seats name the players the changes are about
        change.by_name = roster.get(change.by_id) or (change.by and change.by.get_username())
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
