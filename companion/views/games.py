"""A game in progress: its scoreboard, recording and correcting hands, and watching by link.
The scoreboard's rows, boards and words are `companion.scoreboard`'s; the hand page's data is
the hand form's."""

from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from companion.forms.hands import HandForm
from companion.models import Game, GameEnded, Hand, SavedDifferently, StaleGame
from companion.models.evenings import refuse_hand
from companion.scoreboard import (
    changes_since,
    correction_message,
    earlier_board,
    keep_board,
    kept_answer,
    latest_board,
    nothing_new,
    refused_delete,
    refused_edit,
    scoreboard_section,
)
from companion.views.methods import page_and_form, require_POST, require_safe
from companion.views.previews import previewing
from scoring.game import GameError

# A game of a club night comes with its table, which says whether the evening ended it.
GAME_FIELDS = ("group", "evening_table__round__evening")


@require_safe
@login_required
def game(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.for_member(request.user), pk=pk, group_id=group_id)
    return scoreboard(request, game, can_edit=True)


@require_POST
@login_required
def new_share_link(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """Replace the game's share link: the old one no longer shows the game."""
    game = get_object_or_404(Game.objects.for_member(request.user), pk=pk, group_id=group_id)
    game.new_share_link(by=request.user)
    messages.success(request, _("Made a new share link: the old one no longer shows the game."))
    return redirect(game)


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
        context |= {"paged": True, **earlier_board(game, before)}
        if request.htmx:
            return render(request, template + "#earlier", context)
        # The page's heading is the scoreboard's.
        latest = latest_board(game)
        context |= {part: latest[part] for part in ("rules", "description")}
        return render(request, template, context)
    if request.htmx and "since" in request.GET:
        since, shown_from = request.GET["since"], _hand_number(request.GET.get("from")) or 1

        def news(latest: dict) -> dict | None:
            return changes_since(game, latest, since, shown_from)

        answer = kept_answer(request, context, "changes", news, since, shown_from)
        if answer is not None:
            return HttpResponse(answer["section"])
        # The phone's version is unknown, too old, or past a precedent: the whole scoreboard.
        response = HttpResponse(scoreboard_section(request, context)["section"])
        return reswap(retarget(response, "#scoreboard"), "outerHTML")
    section = scoreboard_section(request, context)
    if request.htmx:
        return HttpResponse(section["section"])
    return render(request, template, context | section)


def _hand_number(value: str | None) -> int | None:
    """A hand number from a query string; anything else is none."""
    if value is None or not value.isdigit() or len(value) > 6:
        return None
    return int(value) or None


@require_POST
@login_required
def undo_hand(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    """Delete the last hand, as of the game ``version`` the page showed."""
    game = get_object_or_404(Game.objects.for_member(request.user), pk=pk, group_id=group_id)
    number = game.hands.count()
    if number == 0:
        messages.error(request, _("There is no hand to undo."))
        return redirect(game)
    return _delete(request, game, number, _("Hand %(number)d undone.") % {"number": number})


@require_safe
def watch(request: HttpRequest, token: str) -> HttpResponse:
    """The read-only scoreboard for anyone with the game's share link."""
    game = get_object_or_404(Game.objects.select_related(*GAME_FIELDS), share_token=token)
    return scoreboard(request, game, can_edit=False)


@page_and_form
@login_required
def hand_new(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    try:
        game = get_object_or_404(
            Game.objects.for_member(request.user).with_seats(), pk=pk, group_id=group_id
        )
    except Http404:
        if _sent_by_script(request):
            return _not_storable(request, group_id, pk)
        raise
    hands = game.hands_and_version()
    try:
        refuse_hand(game, len(hands))
    except GameEnded as ended:
        # A plain post comes back filled in with why beside it (the hand form's refusal).
        why = ended.in_words()
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
        game = get_object_or_404(
            Game.objects.for_member(request.user).with_seats(), pk=pk, group_id=group_id
        )
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
    return _hand_page(request, game, hands, number=number)


@require_POST
@login_required
def delete_hand(request: HttpRequest, group_id: int, pk: int, number: int) -> HttpResponse:
    """Delete hand ``number``, as of the game ``version`` its page showed."""
    game = get_object_or_404(Game.objects.for_member(request.user), pk=pk, group_id=group_id)
    if not 1 <= number <= game.hands.count():
        return redirect(game)
    return _delete(request, game, number, _("Hand %(number)d deleted.") % {"number": number})


def _delete(request: HttpRequest, game: Game, number: int, done: str) -> HttpResponse:
    """Delete hand ``number`` as of the version the page showed, saying ``done`` or why not."""
    try:
        game.delete_hand(number, version=_version(request), by=request.user)
        messages.success(request, done)
    except StaleGame:
        messages.warning(request, _("Someone else changed the game first: here it is now."))
    except GameError as error:
        messages.error(request, refused_delete(error, number))
    return redirect(game)


def _overtaken(request: HttpRequest, game: Game, editing: int | None) -> HttpResponse:
    """A save that someone else's change overtook: a plain post is shown the game as it now
    is (the slower scorekeeper sees whether their hand is in); a hand sent late by the page's
    script comes back filled in, to be checked against the game now. ``editing``: the hand
    number being corrected, or None for a new hand."""
    if not _sent_by_script(request):
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
    A save sent by the page's script (kept.js) is answered with where to go, or with the page
    and its errors; one that someone else's change overtook (``stale``) comes back filled in
    as sent, so that a hand kept on the phone while offline is never silently lost."""
    editing = number <= len(hands)
    preview = previewing(request)
    saving = request.method == "POST" and not preview and not stale
    resent = _resent(request, hands) if saving and not editing else None
    if resent is not None:
        number = resent.number
    elif saving and 0 <= _version(request) != game.version:
        # Overtaken: said before the form is checked against a game it was not made for (a
        # post without a version is no page's: its form errors say what is missing).
        return _overtaken(request, game, number if editing else None)
    data = request.POST if request.method == "POST" else None
    form = HandForm.for_hand(game, hands, number, data, editing=editing)
    if not editing and form.before.state.game_over:
        over = _("The game is over: no more hands to record.")
        if saving and _sent_by_script(request):
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
        stored = _save(request, game, hands, form, editing=editing)
        if stored is not None:
            return stored

    template = "companion/hand_form.html"
    if request.htmx and preview:
        template += "#preview"
    context = {
        "game": game,
        "form": form,
        "number": number,
        "editing": editing,
        "request_key": _request_key(request) or uuid.uuid4().hex,
        "previewing": preview,
        **form.page(),
    }
    status = 422 if _sent_by_script(request) else 200
    return render(request, template, context, status=status)


def _resent(request: HttpRequest, hands: list[Hand]) -> Hand | None:
    """The hand a resent save (a double tap, an answer lost on the way) already stored: it is
    checked as the hand it saved, the game having moved on since and perhaps no longer
    allowing what that hand says."""
    key = _request_key(request)
    return next((hand for hand in hands if key and hand.request_key == key), None)


def _save(
    request: HttpRequest, game: Game, hands: list[Hand], form: HandForm, *, editing: bool
) -> HttpResponse | None:
    """Store the valid ``form``'s hand, new or (``editing``) a correction, from the game the
    form replayed: where to go next, or None once the form says why it was refused."""
    number, seen = form.number, game.version
    try:
        if editing:
            # The hands after it are played on from the form's game, and the old ones from
            # before it, for what the correction changed: no hand twice in a game. The old ones
            # first: the save changes the hand in ``hands``.
            after = form.scored.then(later.result for later in hands[number:])
            old = form.before.then(was.result for was in hands[number - 1 :])
            hand = game.edit_hand(
                number,
                form.hand_fields(),
                version=_version(request),
                by=request.user,
                hands=hands,
                played=after,
            )
            messages.success(request, correction_message(old, after, number))
            made = (hands, after, number)
        else:
            hand = game.record_hand(
                form.hand_fields(),
                version=_version(request),
                request_key=_request_key(request),
                by=request.user,
                hands=hands,
                played=form.scored,
            )
            made = ([*hands, hand], form.scored, hand.number)
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
        return None
    if game.version == seen + 1:
        # The save made the next version from the game the form replayed, nothing else came
        # between: the page that follows is drawn from that replay.
        keep_board(game, *made)
    return _stored(request, game, hand)


def _stored(request: HttpRequest, game: Game, hand: Hand) -> HttpResponse:
    """To the game after a save: a redirect, or for the page's script, where to go. Its header
    says which hand is stored: only that answer lets the phone drop the copy it keeps."""
    if _sent_by_script(request):
        response = HttpResponseClientRedirect(game.get_absolute_url())
    else:
        response = redirect(game)
    response["Hand-Saved"] = str(hand.number)
    return response


def _sent_by_script(request: HttpRequest) -> bool:
    """A save sent by the page's script (kept.js), which keeps the hand until it hears what
    became of it, and says so in its own header: it is no htmx request."""
    return request.method == "POST" and request.headers.get("Kept-Hand") == "true"


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


@require_safe
@login_required
def game_history(request: HttpRequest, group_id: int, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.for_member(request.user).with_seats(), pk=pk, group_id=group_id
    )
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
