"""A game's scoreboard as every phone sees it: where every side stands, the ladders, the
latest hands with their sides and explanations, earlier ones a page at a time, what a watching
phone lacks since the version it shows; the table screen's large print (`on_the_table`); and what
a correction or a refused change says; and the game page's scoreboard section and a poll's
answer as rendered, kept per version for every viewer of one kind (`kept_answer`). Made
without the request wherever it can be, so that one rendering serves every viewer; the views
(`companion.views.games`) render it around what depends on who looks."""

from __future__ import annotations

import hashlib
import secrets

from django.core.cache import caches
from django.db.models import prefetch_related_objects
from django.db.models.fields.json import KeyTransform
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from companion.display import (
    either,
    hand_sides,
    level,
    names,
    sentences,
    sides,
    suit_symbol,
    team,
    trump_sign,
)
from companion.models import (
    CONFIRMERS,
    SEATED,
    Game,
    GameSummary,
    Hand,
    HandChange,
    evenings,
)
from scoring.cards import Rank, Suit
from scoring.game import Game as ScoredGame
from scoring.game import GameError, GameState, resume
from scoring.stats import HandLine
from scoring.table import NOT_DECLARED, Table, parse_trump

# The scoreboard shows the latest hands, and earlier ones as many at a time: a page costs the
# same at hand 30 and at hand 300.
HANDS_SHOWN = 12
# A watching phone further behind than this many changes or rows gets the whole scoreboard.
CHANGES_SENT = 40


def board(game: Game, hands: list[Hand], scored: ScoredGame | None = None) -> dict:
    """The scoreboard with ``hands`` as its rows: the game's hands from some number to its last,
    in order (its latest, or those a watching phone lacks); ``scored``, those hands as `scoring`
    settled them where the caller has them, else they are settled here."""
    scored = scored or settled(game, hands)
    state, table = scored.state, scored.table
    players = table.players
    ladder = [
        {
            "key": "-".join(map(str, side)),
            "players": team(side, players),
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
        "winners": team(state.winners, players),
        "trump_now": trump_now(table, state, hands),
        "playing": precedents.get(count + 1),
    }


def _round_played(game: Game, count: int) -> str:
    closed = evenings.closed_for_hands(game, count)
    return closed.in_words() if closed is not None and closed.limit else ""


def latest_board(game: Game) -> dict:
    """The scoreboard of the game's latest hands as the page shows it. Its HTML is the same for
    every viewer at the same game version, scorekeeper or watcher, and costs more than the rest
    of the page: it is kept per version (a new version is a new key, so it is never stale; the
    share token, unlike the id, is never reused), made without the request, so that no viewer's
    token or controls are in it. What depends on who looks (the hands' confirmations, the
    scorekeeper's links and undo form) the page renders around it.

    Each process keeps the boards it made or found in its memory (a GET writes nothing shared);
    one it lacks may have been kept by the save that made the version (`keep_board`), where
    every process finds it."""
    kept = _kept(game, game.version)
    if kept is not None:
        return kept | {"rows": confirming(game, kept["rows"])}
    prefetch_related_objects([game], SEATED)
    hands = _latest(game)
    kept = _made(game, hands, board(game, hands))
    caches["scoreboards"].set(_board_key(game, game.version), kept)
    return kept | {"rows": confirming(game, kept["rows"], hands)}


def keep_board(game: Game, hands: list[Hand], played: ScoredGame, changed: int) -> None:
    """Make the board of the version a save just made from what the save holds: the game's
    ``hands`` and ``played``, the game as the save replayed them (nothing is read again or
    settled twice), and keep it where the page that follows the save finds it, in whichever
    process serves it. The rows before hand ``changed``, the first the save changed, are the
    board's before the save where it is kept: only what changed is rendered."""
    latest = hands[-HANDS_SHOWN:]
    first = latest[0].number if latest else 1
    scored = ScoredGame(played.setup, played.hands[first - 1 :])
    before = _kept(game, game.version - 1) or {"rows": []}
    unchanged = {row["number"]: row for row in before["rows"] if row["number"] < changed}
    kept = _made(game, latest, board(game, latest, scored), unchanged)
    key = _board_key(game, game.version)
    caches["scoreboards"].set(key, kept)
    caches["boards"].set(key, kept)


def _kept(game: Game, version: int) -> dict | None:
    """The board of the game at ``version`` if it is kept: in this process's memory, else where
    every process finds the board a save made (then in this process's memory too)."""
    key = _board_key(game, version)
    kept = caches["scoreboards"].get(key)
    if kept is None:
        kept = caches["boards"].get(key)
        if kept is not None:
            caches["scoreboards"].set(key, kept)
    return kept


def _board_key(game: Game, version: int) -> str:
    confirmations = game.group.hands_need_confirmation
    return f"{game.share_token}:{version}:{confirmations}:{get_language()}"


def _made(game: Game, hands: list[Hand], made: dict, unchanged: dict | None = None) -> dict:
    """The board ``made`` of ``hands`` as it is kept: its HTML, and what the page asks of it.
    ``unchanged``: rows already rendered, by hand number, that are used as they are."""
    context = made | {"game": game}
    return {
        "rules": made["scored"].setup.rules.name,
        "count": made["count"],
        "game_over": made["state"].game_over,
        # A club night's table that has played the round's hands: why it takes no more.
        "round_played": _round_played(game, made["count"]),
        "first_shown": made["first_shown"],
        "earlier_hands": made["earlier_hands"],
        **{
            part: render_to_string(f"companion/game.html#{part}", context)
            for part in ("description", "won", "standings", "ladders")
        },
        "rows": rendered_rows(game, made["rows"], unchanged),
    }


def earlier_board(game: Game, before: int) -> dict:
    """The page of rows before hand ``before`` (as many as the scoreboard shows), made
    afresh."""
    prefetch_related_objects([game], SEATED)
    hands = list(_hands(game).filter(number__lt=before).order_by("-number")[:HANDS_SHOWN])
    hands.reverse()
    return earlier_rows(game, hands)


def rendered_rows(game: Game, rows: list[dict], unchanged: dict | None = None) -> list[dict]:
    """The rows' HTML, made without the request (see `latest_board`): whole, as a watcher and
    as a scorekeeper see it, and in parts around what the page renders for its viewer (a
    confirmation, the swap of a poll). A row in ``unchanged`` (by hand number) is used as it
    is."""
    unchanged = unchanged or {}
    made = []
    for row in rows:
        hand = row["hand"]
        if hand.number in unchanged:
            made.append(unchanged[hand.number])
            continue
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


def trump_now(table: Table, state: GameState, hands: list[Hand]) -> dict | None:
    """The next hand's trump where the game fixes it, else the last hand's where it was bid."""
    if not table.trumps.bids:
        return {"fixed": True, "trump": table.trumps.fixed(state.number)}
    if hands:
        return {"fixed": False, "trump": hands[-1].trump}
    return None


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
        known = declared != NOT_DECLARED
        trump = parse_trump(declared) if known else None
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
                "players": team(side, table.players),
                "level": state.levels[side[0]],
                "declaring": bool(set(side) & set(state.next_declarers))
                and len(state.next_declarers) < table.size,
            }
            for side in sides(table)
        ],
        "kitty": ngettext("Kitty: %(cards)d card", "Kitty: %(cards)d cards", table.kitty_cards)
        % {"cards": table.kitty_cards},
        "last": scored.hands[-1] if scored.hands else None,
        "winners": team(state.winners, table.players),
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


def nothing_new(request: HttpRequest, game: Game) -> bool:
    """A watching phone's poll names the version it shows; if that is current, answer 204."""
    return bool(request.htmx) and request.GET.get("since") == str(game.version)


def _latest(game: Game) -> list[Hand]:
    hands = list(_hands(game).order_by("-number")[:HANDS_SHOWN])
    hands.reverse()
    return hands


def _hands(game: Game):
    # Who confirmed or flagged each hand comes with it (companion/includes/hand_confirmation).
    return game.hands.select_related(*CONFIRMERS)


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


def scoreboard_section(request: HttpRequest, context: dict) -> dict:
    """The game page's scoreboard section (``section``), with what the rest of the page needs:
    the rules' name and the request's CSRF token (never None: it adds nothing to the board)."""
    return kept_answer(request, context, "scoreboard", lambda latest: {})


# What a kept answer holds in place of the CSRF token each request is given: made afresh by
# each process, whose memory keeps the answers, so that no text on a page can be it.
CSRF_STAND_IN = secrets.token_hex(16)


def kept_answer(request: HttpRequest, context: dict, part: str, make, *asked) -> dict | None:
    """Partial ``part`` of the game page, from its latest board and what ``make(latest)``
    adds to it (None: nothing to answer), as ``section``, with the rules' name and the
    request's CSRF token. Without a hand's confirmation (which depends on who looks) it is the
    same for every viewer of one kind, scorekeeper or watcher, asking the same (``asked``) of
    a game version in a language at an address: it is kept in the process's memory with a
    stand-in for its forms' CSRF token, which each request's own replaces, and costs next to
    nothing until the game changes."""
    template = f"companion/game.html#{part}"
    game = context["game"]
    token = get_token(request)
    # The group's name heads the section, and renaming the group leaves the game's version.
    seen_as = [
        part,
        *asked,
        get_language(),
        context["can_edit"],
        request.build_absolute_uri("/"),
        game.group.name,
    ]
    digest = hashlib.sha256(repr(seen_as).encode()).hexdigest()
    key = f"answer:{game.share_token}:{game.version}:{digest}"
    answers = caches["scoreboards"]
    confirmations = game.group.hands_need_confirmation
    kept = None if confirmations else answers.get(key)
    if kept is None:
        latest = latest_board(game)
        made = make(latest)
        if made is None:
            return None
        everything = context | latest | made
        rows = [*latest["rows"], *made.get("changed", ()), *made.get("added", ())]
        if confirmations or any(row["confirms"] for row in rows):
            html = render_to_string(template, everything, request)
            return {"section": html, "rules": latest["rules"], "csrf_token": token}
        stood_in = everything | {"csrf_token": CSRF_STAND_IN}
        kept = {"html": render_to_string(template, stood_in, request), "rules": latest["rules"]}
        answers.set(key, kept)
    section = mark_safe(kept["html"].replace(CSRF_STAND_IN, token))
    return {"section": section, "rules": kept["rules"], "csrf_token": token}
