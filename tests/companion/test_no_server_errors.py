"""Bad input gets a page naming the problem, a redirect or a 4xx, never a 500: every URL of the
app, asked by a member, an outsider and an anonymous visitor, with and without htmx, with hostile
query strings and form posts (missing fields, huge, negative and non-numeric numbers, emoji, NUL
bytes, 10,000 characters, repeated keys, wrong actions, other groups' ids).

The test client re-raises a view's exception, so a traceback fails the test with its cause."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.html import escape
from hands import HELD_FORM
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import exchange
from companion.models import (
    Dispute,
    Evening,
    Game,
    Group,
    Hand,
    Membership,
    Player,
    ScoringTable,
)
from scoring import PRESETS
from scoring.cli import judge_request

pytestmark = pytest.mark.django_db

HUGE = str(10**30)
LONG = "x" * 10_000
HOSTILE = (
    "",
    " ",
    "0",
    "-5",
    HUGE,
    "-" + HUGE,
    "4.5",
    "45.0",
    "1e309",
    "NaN",
    "inf",
    "abc",
    "🂡😀",
    "\u202e",
    LONG,
    "9" * 5000,
    "a\x00b",
    "\x00",
    "<script>",
    "table-1",
    "table-" + HUGE,
)

HAND = {
    **HELD_FORM,
    "declarer_cards_taken_back": "0",
    "opponent_cards_taken_back": "0",
}
HAND_FIELDS = (*HAND, "friends", "version", "request_key", "preview")
SETTLE = {
    "rules": "standard",
    "declarers_level": "5",
    "opponents_level": "3",
    "opponent_points": "65",
    "kitty_points": "20",
    "last_trick_winner": "opponents",
    "last_trick_format": "pair",
    "last_trick_cards": "",
}
DISPUTE = {"rules": "standard", "level": "2", "trump": "H", "decks": "2", "play_0": "AH"}
DISPUTE_FIELDS = (
    *DISPUTE,
    "players",
    *(f"{part}_{n}" for part in ("play", "hand") for n in range(10)),
    "action",
)
GAME_DISPUTE = {"rules": "open-ladder", "level": "2", "trump": "H", "leader": "0", "play_0": "AH"}
GAME_DISPUTE_FIELDS = (
    *GAME_DISPUTE,
    "decks",
    *(f"{part}_{seat}" for part in ("play", "hand") for seat in (*range(9), "X")),
    "hand_number",
    "hand",
    "action",
)
TABLE = {
    "name": "House",
    "kitty": "double",
    "game_end": "hold-at-ace",
    "starter": "bid",
    "throw_penalty": "0",
    "tractor_follow": "tractor",
    "band-TOTAL_FORMS": "2",
    "band-INITIAL_FORMS": "0",
    "band-0-low": "0",
    "band-0-high": "75",
    "band-0-winner": "declarers",
    "band-0-levels": "1",
    "band-1-low": "80",
    "band-1-winner": "opponents",
    "band-1-levels": "1",
}
TABLE_FIELDS = (
    *TABLE,
    "throws",
    "band-MIN_NUM_FORMS",
    "band-MAX_NUM_FORMS",
    *(f"band-{n}-{f}" for n in (0, 1, 2) for f in ("low", "high", "winner", "levels", "every")),
    "band-0-DELETE",
    "action",
    "preset",
    "preview",
)
EVENING_FIELDS = (
    "present",
    "players_per_table",
    "teams",
    "seating",
    "leftover",
    "rules",
    "decks",
    "called",
    "trumps",
    "suit_1",
    "hands_per_round",
    "minutes_per_round",
)
NEW_GAME_FIELDS = (
    *(f"seat_{number}" for number in range(1, 10)),
    *(f"level_{number}" for number in range(1, 9)),
    *(f"suit_{number}" for number in range(1, 5)),
    "rules",
    "teams",
    "decks",
    "called",
    "trumps",
    "first_declarer",
    "preview",
    "action",
    "player-name",
)


@pytest.fixture
def world(user, group, players, outsider) -> SimpleNamespace:
    """Thursday Tractor with a scoring table and an open-ladder game of three hands, one with a
    precedent; and Zoe's own group, with a game and a table of its own."""
    game = Game.start(group, players, PRESETS["open-ladder"], first_declarer=0, by=user)
    for declarer, points in ((0, 45), (2, 20), (0, 90)):
        fields = {
            **HAND,
            "declarer": declarer,
            "kitty_points": 0,
            "opponent_points": points,
            "last_trick_cards": 1,
            "declarer_cards_taken_back": 0,
            "opponent_cards_taken_back": 0,
        }
        game.record_hand(fields, version=game.version, request_key="", by=user)
    request = {
        "rules": "open-ladder",
        "level": "4",
        "trump": "H",
        "decks": 2,
        "hands": {},
        "plays": [["Mei", ["AH"]], ["Jun", ["3H"]]],
    }
    game.add_dispute(2, request, judge_request(request), by=user)
    table = ScoringTable.objects.create(
        group=group, rules_json={**PRESETS["kawu"].to_json(), "name": "Ours"}
    )
    theirs = Group.objects.create(name="Zoe's table")
    Membership.objects.create(group=theirs, user=outsider)
    seated = [Player.objects.create(group=theirs, name=player.name) for player in players]
    their_game = Game.start(theirs, seated, PRESETS["standard"])
    their_table = ScoringTable.objects.create(
        group=theirs, rules_json={**PRESETS["standard"].to_json(), "name": "Theirs"}
    )
    everyone = players + [
        Player.objects.create(group=group, name=name) for name in ("Wei", "Yan", "Zhao", "Xiu")
    ]
    # A club night of the eight, its first round proposed.
    evening = Evening.start(
        group, everyone, rules_json=PRESETS["standard"].to_json(), seating="balanced", by=user
    )
    return SimpleNamespace(
        group=group,
        players=everyone,
        evening=evening,
        game=game,
        declarer=str(game.scored().state.next_declarer),
        table=table,
        player=players[0],
        theirs=theirs,
        their_game=their_game,
        their_table=their_table,
        their_player=seated[0],
        user=user,
        outsider=outsider,
    )


def routes(w: SimpleNamespace) -> dict[str, tuple[str, tuple[str, ...], dict[str, str]]]:
    """Every URL name: a path of it, the fields its page reads, and a valid submission."""
    g, game = w.group.pk, w.game.pk
    version = str(w.game.version)
    player = str(w.player.pk)
    next_hand = {**HAND, "declarer": w.declarer, "version": version}
    second_hand = {**HAND, "declarer": "2", "opponent_points": "20", "version": version}
    new_game = {
        **{f"seat_{number}": str(player.pk) for number, player in enumerate(w.players[:4], 1)},
        "rules": "standard",
        "teams": "partners",
        "trumps": "bid",
    }
    new_evening = {
        "present": [str(player.pk) for player in w.players],
        "players_per_table": "4",
        "teams": "partners",
        "seating": "new-partners",
        "leftover": "sit-out",
        "rules": "standard",
        "trumps": "bid",
    }
    return {
        "home": ("/", (), {}),
        "service_worker": ("/sw.js", (), {}),
        "settle_hand": ("/settle/", tuple(SETTLE), SETTLE),
        "dispute": ("/dispute/", DISPUTE_FIELDS, DISPUTE),
        "game": (f"/groups/{g}/games/{game}/", ("since", "before", "from"), {}),
        "undo_hand": (f"/groups/{g}/games/{game}/undo/", ("version",), {"version": version}),
        "new_share_link": (f"/groups/{g}/games/{game}/share-link/", (), {}),
        "hand_new": (f"/groups/{g}/games/{game}/hands/new/", HAND_FIELDS, next_hand),
        "hand_edit": (f"/groups/{g}/games/{game}/hands/2/", HAND_FIELDS, second_hand),
        "game_history": (f"/groups/{g}/games/{game}/history/", ("page",), {}),
        "delete_hand": (
            f"/groups/{g}/games/{game}/hands/3/delete/",
            ("version",),
            {"version": version},
        ),
        "confirm_hand": (
            f"/groups/{g}/games/{game}/hands/1/confirm/",
            ("version",),
            {"version": version},
        ),
        "flag_hand": (f"/groups/{g}/games/{game}/hands/1/flag/", ("note",), {"note": "kitty?"}),
        "unflag_hand": (f"/groups/{g}/games/{game}/hands/1/unflag/", (), {}),
        "game_dispute": (f"/groups/{g}/games/{game}/dispute/", GAME_DISPUTE_FIELDS, GAME_DISPUTE),
        "watch": (f"/watch/{w.game.share_token}/", ("since",), {}),
        "table_screen": (f"/watch/{w.game.share_token}/table/", ("since",), {}),
        "declare_trump": (
            f"/groups/{g}/games/{game}/trump/",
            ("hand", "trump"),
            {"hand": "4", "trump": "H"},  # the three hands recorded, then the one being played
        ),
        "group_history": (f"/groups/{g}/history/", ("player", "period", "page"), {}),
        "player": (f"/groups/{g}/players/{w.player.pk}/", (), {}),
        "game_replay": (f"/groups/{g}/games/{game}/replay/", ("rules",), {"rules": "kawu"}),
        "signup": (
            "/accounts/signup/",
            ("username", "email", "password1", "password2", "next"),
            {"username": "lin", "password1": "a long pass phrase", "password2": "a long pass"},
        ),
        "login": ("/accounts/login/", ("username", "password", "next"), {"username": "mei"}),
        "logout": ("/accounts/logout/", ("next",), {}),
        "password_change": (
            "/accounts/password_change/",
            ("old_password", "new_password1", "new_password2"),
            {},
        ),
        "password_change_done": ("/accounts/password_change/done/", (), {}),
        "password_reset": ("/accounts/password_reset/", ("email",), {"email": "mei@example.com"}),
        "password_reset_done": ("/accounts/password_reset/done/", (), {}),
        "password_reset_confirm": (
            "/accounts/reset/MQ/set-password/",
            ("new_password1", "new_password2"),
            {},
        ),
        "password_reset_complete": ("/accounts/reset/done/", (), {}),
        "group_new": ("/groups/new/", ("name",), {"name": "Friday Tractor"}),
        "group": (f"/groups/{g}/", ("name",), {"name": "Zhao"}),
        "rename_group": (f"/groups/{g}/rename/", ("group-name",), {"group-name": "Friday"}),
        "claim_player": (f"/groups/{g}/me/", ("player",), {"player": str(w.player.pk)}),
        "retire_player": (f"/groups/{g}/players/retire/", ("player",), {"player": player}),
        "bring_back_player": (f"/groups/{g}/players/bring-back/", ("player",), {"player": player}),
        "remove_member": (f"/groups/{g}/members/remove/", ("member",), {}),
        "make_admin": (f"/groups/{g}/members/admin/", ("member", "admin"), {"admin": "no"}),
        "leave_group": (f"/groups/{g}/leave/", (), {}),
        "ask_for_confirmations": (
            f"/groups/{g}/confirmations/",
            ("hands_need_confirmation",),
            {"hands_need_confirmation": "on"},
        ),
        "new_invite": (f"/groups/{g}/invite/", (), {}),
        "group_log": (f"/groups/{g}/log/", ("page",), {}),
        "table_new": (f"/groups/{g}/tables/new/", TABLE_FIELDS, TABLE),
        "table_edit": (f"/groups/{g}/tables/{w.table.pk}/", TABLE_FIELDS, TABLE),
        "game_new": (f"/groups/{g}/games/new/", NEW_GAME_FIELDS, new_game),
        "evenings": (f"/groups/{g}/evenings/", (), {}),
        "evening_new": (f"/groups/{g}/evenings/new/", EVENING_FIELDS, new_evening),
        "evening": (f"/groups/{g}/evenings/{w.evening.pk}/", (), {}),
        "swap_players": (f"/groups/{g}/evenings/{w.evening.pk}/swap/", ("first", "second"), {}),
        "start_round": (f"/groups/{g}/evenings/{w.evening.pk}/start/", (), {}),
        "next_round": (f"/groups/{g}/evenings/{w.evening.pk}/next/", (), {}),
        "join_evening": (f"/groups/{g}/evenings/{w.evening.pk}/join/", ("player",), {}),
        "leave_evening": (
            f"/groups/{g}/evenings/{w.evening.pk}/leave/",
            ("player",),
            {"player": player},
        ),
        "end_evening": (f"/groups/{g}/evenings/{w.evening.pk}/end/", (), {}),
        "evening_room": (f"/room/{w.evening.share_token}/", ("since",), {}),
        "group_join": (f"/join/{w.theirs.invite_token}/", (), {}),
        "group_export": (f"/groups/{g}/export.json", (), {}),
        "group_export_csv": (f"/groups/{g}/export.csv", (), {}),
        "group_import": ("/groups/import/", ("name", "file"), {}),
        "dismiss_import": ("/groups/import/dismiss/", ("job",), {}),
        "set_language": ("/i18n/setlang/", ("language", "next"), {"language": "fr", "next": "/"}),
        "admin": ("/admin/", ("username", "password", "next"), {}),
    }


def pattern_names(patterns, namespace: str | None = None) -> set[str]:
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace:
                names.add(pattern.namespace)
            else:
                names |= pattern_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


# The route names, from a world of stand-ins: the tests below parametrize over them.
ROUTE_NAMES = sorted(
    routes(
        SimpleNamespace(
            group=SimpleNamespace(pk=1),
            game=SimpleNamespace(pk=1, share_token="t", version=0),
            evening=SimpleNamespace(pk=1, share_token="t"),
            declarer="0",
            players=[],
            table=SimpleNamespace(pk=1),
            player=SimpleNamespace(pk=1),
            theirs=SimpleNamespace(invite_token="t"),
        )
    )
)


def test_every_url_of_the_app_is_asked_below():
    assert pattern_names(get_resolver().url_patterns) == set(ROUTE_NAMES)


@pytest.fixture
def clients(world) -> dict[str, Client]:
    member, outsider = Client(), Client()
    member.force_login(world.user)
    outsider.force_login(world.outsider)
    return {"member": member, "outsider": outsider, "anonymous": Client()}


def ask(client: Client, method: str, path: str, data, htmx: str | None = None, kept=False):
    headers = {"Kept-Hand": "true"} if kept else {}
    if htmx is not None:
        headers |= {"HX-Request": "true", **({"HX-Target": htmx} if htmx else {})}
    response = getattr(client, method)(path, data, headers=headers)
    assert response.status_code < 500
    return response


def values_for(field: str) -> st.SearchStrategy[str]:
    """Hostile text, any integer or float, and now and then a value the field takes."""
    valid = {
        "action": ["save", "add", "add_player", "judge", "read", "seat"],
        "member": ["1", "2", "3"],
        "admin": ["yes", "no"],
        "job": ["1", "2"],
        "first": ["1", "2", "5", "8", "9"],
        "second": ["1", "2", "5", "8", "9"],
        "player": ["1", "2", "5", "8", "9"],
        "present": ["1", "2", "5", "8", "9"],
        "players_per_table": ["4", "5", "6", "8", "9"],
        "seating": ["random", "balanced", "new-partners"],
        "leftover": ["sit-out", "mixed"],
        "since": ["0-0", "1-1", "2-5"],
        "version": ["0", "1", "2", "3", "4"],
        "declarer": ["0", "1", "2", "3", "7", "8"],
        "friends": ["0", "1", "2", "nobody"],
        "teams": ["partners", "pairs", "find-a-friend"],
        "trumps": ["bid", "no-trump", "fixed"],
        "called": ["1", "2", "3"],
        "preview": ["1"],
        "last_trick_winner": ["declarers", "opponents"],
        "last_trick_format": ["single", "pair", "tractor", "throw"],
        "rules": ["standard", "kawu", "open-ladder", "simplified", "game", "table-1"],
        "hand": ["1", "2", "3", "4", "5"],
        "hand_number": ["1", "2", "3", "4", "5"],
        "trump": ["S", "H", "D", "C", "NT"],
        "leader": ["0", "1", "2", "3"],
        "players": ["4", "5", "6", "8"],
        "decks": ["2", "3", "4", ""],
        "period": ["12m", "2025"],
    }.get(field, [])
    if field.startswith(("seat_", "first_declarer")):
        valid = ["1", "2", "3", "4", "5", "6"]
    if field.startswith("level_"):
        valid = ["2", "T", "A", ""]
    if field.startswith("suit_"):
        valid = ["S", "H", "D", "C", ""]
    if field.startswith(("play_", "hand_")) or field == "kitty_cards":
        valid = ["AH", "5H 5H", "SJ BJ", "KD KD QD QD", "TS TS 9S"]
    if field.endswith(("points", "levels", "low", "high", "every", "taken_back", "cards")):
        valid = ["0", "5", "40", "80", "200", "205", "25", "26"]
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.text(max_size=12),
        st.integers().map(str),
        st.floats().map(str),
        *([st.sampled_from(valid)] if valid else []),
    )


@st.composite
def requests(draw, fields: tuple[str, ...], valid: dict[str, str]):
    """A request's data: maybe the valid submission, with some fields hostile, missing or
    repeated (a list is sent as repeated keys)."""
    data: dict[str, object] = dict(valid) if draw(st.booleans()) else {}
    chosen = draw(st.lists(st.sampled_from(fields), max_size=5, unique=True)) if fields else []
    for field in chosen:
        shape = draw(st.sampled_from(["one", "one", "many", "missing"]))
        if shape == "missing":
            data.pop(field, None)
        elif shape == "many":
            data[field] = draw(st.lists(values_for(field), min_size=2, max_size=3))
        else:
            data[field] = draw(values_for(field))
    return data


@pytest.mark.parametrize("name", ROUTE_NAMES)
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_it_answers_hostile_input_without_a_server_error(world, clients, name, data):
    path, fields, valid = routes(world)[name]
    who = data.draw(st.sampled_from(["member", "member", "member", "outsider", "anonymous"]))
    method = data.draw(st.sampled_from(["get", "post"]))
    htmx = data.draw(st.sampled_from([None, None, "", "table-preview", "bands", "verdict"]))
    kept = data.draw(st.booleans())  # a hand the phone keeps, sent by kept.js

    ask(clients[who], method, path, data.draw(requests(fields, valid)), htmx, kept)


# Hand-picked: each is (who, method, path, data, status); the path's {names} come from `world`.
# VERSION stands for the game's current version. Where the page refuses a form, it shows what
# was typed again.

VERSION, DECLARER = object(), object()
HAND_NEW = "/groups/{group}/games/{game}/hands/new/"
SAVED_HAND = {**HAND, "declarer": DECLARER, "version": VERSION}
TRICK = {**GAME_DISPUTE, "action": "save"}
CASES = {
    "points too many": ("member", "post", HAND_NEW, {**SAVED_HAND, "opponent_points": HUGE}, 200),
    "points negative": ("member", "post", HAND_NEW, {**SAVED_HAND, "opponent_points": "-5"}, 200),
    "points a float": ("member", "post", HAND_NEW, {**SAVED_HAND, "opponent_points": "4.5"}, 200),
    "points a word": ("member", "post", HAND_NEW, {**SAVED_HAND, "opponent_points": "many"}, 200),
    "points emoji": ("member", "post", HAND_NEW, {**SAVED_HAND, "opponent_points": "🂡😀"}, 200),
    "points of 5000 digits": (
        "member",
        "post",
        HAND_NEW,
        {**SAVED_HAND, "opponent_points": "9" * 5000},
        200,
    ),
    "points twice": (
        "member",
        "post",
        HAND_NEW,
        {**SAVED_HAND, "opponent_points": ["45", "many"]},
        200,
    ),
    "points missing": ("member", "post", HAND_NEW, {**SAVED_HAND, "opponent_points": ""}, 200),
    "kitty too many": ("member", "post", HAND_NEW, {**SAVED_HAND, "kitty_points": HUGE}, 200),
    "kitty cards unknown": ("member", "post", HAND_NEW, {**SAVED_HAND, "kitty_cards": "🂡 XX"}, 200),
    "kitty cards long": ("member", "post", HAND_NEW, {**SAVED_HAND, "kitty_cards": LONG}, 200),
    "kitty cards NUL": ("member", "post", HAND_NEW, {**SAVED_HAND, "kitty_cards": "5H\x00"}, 200),
    "last trick huge": (
        "member",
        "post",
        HAND_NEW,
        {**SAVED_HAND, "last_trick_format": "tractor", "last_trick_cards": HUGE},
        200,
    ),
    "taken back huge": (
        "member",
        "post",
        HAND_NEW,
        {**SAVED_HAND, "declarer_cards_taken_back": HUGE},
        200,
    ),
    "taken back negative": (
        "member",
        "post",
        HAND_NEW,
        {**SAVED_HAND, "opponent_cards_taken_back": "-1"},
        200,
    ),
    "declarer unknown": ("member", "post", HAND_NEW, {**SAVED_HAND, "declarer": "Q"}, 200),
    "declarer off the table": ("member", "post", HAND_NEW, {**SAVED_HAND, "declarer": "9"}, 200),
    # Partners have no friends to name: the field is not asked, and what is posted is ignored.
    "friends at partners": ("member", "post", HAND_NEW, {**SAVED_HAND, "friends": "2"}, 302),
    "game of seven partners": (
        "member",
        "post",
        "/groups/{group}/games/new/",
        {
            **{f"seat_{n}": f"{{player_{n}}}" for n in range(1, 8)},
            "rules": "standard",
            "teams": "partners",
            "trumps": "bid",
        },
        200,
    ),
    "game of a trump repeated": (
        "member",
        "post",
        "/groups/{group}/games/new/",
        {
            **{f"seat_{n}": f"{{player_{n}}}" for n in range(1, 5)},
            "rules": "standard",
            "teams": "partners",
            "trumps": "fixed",
            "suit_1": "H",
            "suit_2": "H",
            "first_declarer": "{player_1}",
        },
        200,
    ),
    "bid long": ("member", "post", HAND_NEW, {**SAVED_HAND, "bid": LONG}, 200),
    "trump NUL": ("member", "post", HAND_NEW, {**SAVED_HAND, "trump": "\x00"}, 200),
    "version garbage": ("member", "post", HAND_NEW, {**SAVED_HAND, "version": "🂡"}, 302),
    "version huge": ("member", "post", HAND_NEW, {**SAVED_HAND, "version": HUGE}, 302),
    "preview garbage": (
        "member",
        "post",
        HAND_NEW,
        {**SAVED_HAND, "preview": "1", "opponent_points": "-" + HUGE},
        200,
    ),
    "nothing posted": ("member", "post", HAND_NEW, {}, 200),
    "hand 0": ("member", "get", "/groups/{group}/games/{game}/hands/0/", {}, 302),
    "hand 99": ("member", "get", "/groups/{group}/games/{game}/hands/99/", {}, 302),
    "hand huge": ("member", "get", "/groups/{group}/games/{game}/hands/" + HUGE + "/", {}, 302),
    "delete stale": (
        "member",
        "post",
        "/groups/{group}/games/{game}/hands/3/delete/",
        {"version": "\x00"},
        302,
    ),
    "delete hand 0": (
        "member",
        "post",
        "/groups/{group}/games/{game}/hands/0/delete/",
        {"version": VERSION},
        302,
    ),
    "undo stale": ("member", "post", "/groups/{group}/games/{game}/undo/", {"version": "-1"}, 302),
    "undo version twice": (
        "member",
        "post",
        "/groups/{group}/games/{game}/undo/",
        {"version": [VERSION, VERSION]},
        302,
    ),
    # Each action has its own URL: an old page's action posted to the game's page is refused.
    "an old action": ("member", "post", "/groups/{group}/games/{game}/", {"action": "undo"}, 405),
    "since long": ("member", "get", "/groups/{group}/games/{game}/", {"since": LONG}, 200),
    "dispute hand word": ("member", "get", "/groups/{group}/games/{game}/dispute/?hand=x", {}, 200),
    "dispute hand negative": (
        "member",
        "get",
        "/groups/{group}/games/{game}/dispute/?hand=-1",
        {},
        200,
    ),
    "dispute hand huge": (
        "member",
        "get",
        "/groups/{group}/games/{game}/dispute/?hand=" + HUGE,
        {},
        200,
    ),
    "dispute hand not UTF-8": (
        "member",
        "get",
        "/groups/{group}/games/{game}/dispute/?hand=%ff%fe",
        {},
        200,
    ),
    "precedent of hand huge": (
        "member",
        "post",
        "/groups/{group}/games/{game}/dispute/",
        {**TRICK, "hand_number": HUGE},
        200,
    ),
    "precedent of hand 99": (
        "member",
        "post",
        "/groups/{group}/games/{game}/dispute/",
        {**TRICK, "hand_number": "99"},
        200,
    ),
    "precedent leader unknown": (
        "member",
        "post",
        "/groups/{group}/games/{game}/dispute/",
        {**TRICK, "leader": "9", "play_9": "AH"},
        200,
    ),
    "dispute decks huge": ("anonymous", "post", "/dispute/", {**DISPUTE, "decks": HUGE}, 200),
    "dispute decks twice": (
        "anonymous",
        "post",
        "/dispute/",
        {**DISPUTE, "decks": ["2", "x"]},
        200,
    ),
    "dispute play long": ("anonymous", "post", "/dispute/", {**DISPUTE, "play_0": LONG}, 200),
    "dispute play NUL": ("anonymous", "post", "/dispute/", {**DISPUTE, "play_0": "AH\x00"}, 200),
    "dispute far player": ("anonymous", "post", "/dispute/", {**DISPUTE, "play_9": "AH"}, 200),
    "settle huge": ("anonymous", "get", "/settle/", {**SETTLE, "opponent_points": HUGE}, 200),
    "settle level": ("anonymous", "get", "/settle/", {**SETTLE, "declarers_level": "1"}, 200),
    "settle rules": ("anonymous", "get", "/settle/", {**SETTLE, "rules": "table-1"}, 200),
    "their game": ("member", "get", "/groups/{group}/games/{their_game}/", {}, 404),
    "their group's game": ("member", "get", "/groups/{theirs}/games/{their_game}/", {}, 404),
    "a hand of their game": (
        "member",
        "post",
        "/groups/{group}/games/{their_game}/hands/new/",
        {},
        404,
    ),
    "their table": ("member", "get", "/groups/{group}/tables/{their_table}/", {}, 404),
    "their player": ("member", "get", "/groups/{group}/players/{their_player}/", {}, 404),
    "their game replayed": ("member", "get", "/groups/{group}/games/{their_game}/replay/", {}, 404),
    "their game disputed": (
        "member",
        "post",
        "/groups/{group}/games/{their_game}/dispute/",
        TRICK,
        404,
    ),
    "replay under their table": (
        "member",
        "get",
        "/groups/{group}/games/{game}/replay/",
        {"rules": "table-{their_table}"},
        200,
    ),
    "replay under a huge table": (
        "member",
        "get",
        "/groups/{group}/games/{game}/replay/",
        {"rules": "table-" + HUGE},
        200,
    ),
    "their players seated": (
        "member",
        "post",
        "/groups/{group}/games/new/",
        {
            "seat_1": "{their_player}",
            "seat_2": HUGE,
            "seat_3": "x",
            "seat_4": "-1",
            "rules": "kawu",
        },
        200,
    ),
    "a game under their table": (
        "member",
        "post",
        "/groups/{group}/games/new/",
        {"rules": "table-{their_table}", "level_1": "1", "first_declarer": "{their_player}"},
        200,
    ),
    "new game prefilled with junk": (
        "member",
        "get",
        "/groups/{group}/games/new/",
        {"seat_1": HUGE, "rules": LONG, "first_declarer": "\x00", "teams": LONG},
        200,
    ),
    "a player with a long name": (
        "member",
        "post",
        "/groups/{group}/games/new/",
        {"action": "add_player", "player-name": LONG, "seat_1": "x"},
        200,
    ),
    "me as their player": (
        "member",
        "post",
        "/groups/{group}/me/",
        {"player": "{their_player}"},
        302,
    ),
    "me as a huge player": (
        "member",
        "post",
        "/groups/{group}/me/",
        {"player": HUGE},
        302,
    ),
    "roster name long": ("member", "post", "/groups/{group}/", {"name": LONG}, 200),
    "roster name NUL": ("member", "post", "/groups/{group}/", {"name": "Zh\x00ao"}, 200),
    "rename long": (
        "member",
        "post",
        "/groups/{group}/rename/",
        {"group-name": LONG},
        200,
    ),
    "bands huge count": (
        "member",
        "post",
        "/groups/{group}/tables/new/",
        {**TABLE, "band-TOTAL_FORMS": HUGE},
        200,
    ),
    "bands count a word": (
        "member",
        "post",
        "/groups/{group}/tables/new/",
        {**TABLE, "band-TOTAL_FORMS": "two", "action": "add"},
        200,
    ),
    "bands count negative": (
        "member",
        "post",
        "/groups/{group}/tables/{table}/",
        {**TABLE, "band-TOTAL_FORMS": "-1"},
        200,
    ),
    "band from huge": (
        "member",
        "post",
        "/groups/{group}/tables/new/",
        {**TABLE, "band-1-low": HUGE},
        200,
    ),
    "band preview from negative": (
        "member",
        "post",
        "/groups/{group}/tables/new/",
        {**TABLE, "band-0-low": "-" + HUGE, "preview": "1", "htmx": ""},
        200,
    ),
    "throw penalty huge": (
        "member",
        "post",
        "/groups/{group}/tables/new/",
        {**TABLE, "throws": "on", "throw_penalty": HUGE + "1"},
        200,
    ),
    "preset unknown": ("member", "get", "/groups/{group}/tables/new/", {"preset": "\x00"}, 200),
    "history page word": ("member", "get", "/groups/{group}/history/", {"page": "x"}, 200),
    "history page huge": ("member", "get", "/groups/{group}/history/", {"page": HUGE}, 200),
    "history page negative": ("member", "get", "/groups/{group}/history/", {"page": "-1"}, 200),
    "history of their player": (
        "member",
        "get",
        "/groups/{group}/history/",
        {"player": "{their_player}", "period": "99999"},
        200,
    ),
    "history player huge": (
        "member",
        "get",
        "/groups/{group}/history/",
        {"player": HUGE, "period": "\x00"},
        200,
    ),
    "watch NUL": ("anonymous", "get", "/watch/%00/", {}, 404),
    "watch long": ("anonymous", "get", "/watch/" + LONG + "/", {}, 404),
    "watch since": ("anonymous", "get", "/watch/{share}/", {"since": "\x00"}, 200),
    "join NUL": ("outsider", "get", "/join/a%00b/", {}, 404),
    "join emoji": ("outsider", "post", "/join/🂡/", {}, 404),
    "group huge": ("member", "get", "/groups/" + HUGE + "/", {}, 404),
    "export of a huge group": ("member", "get", "/groups/" + HUGE + "/export.csv", {}, 404),
    "signup next 0": ("member", "get", "/accounts/signup/", {"next": "0"}, 302),
    "signup next a word": ("anonymous", "post", "/accounts/signup/", {"next": "home"}, 200),
    "login NUL": (
        "anonymous",
        "post",
        "/accounts/login/",
        {"username": "m\x00", "password": "x"},
        200,
    ),
    "login next": ("anonymous", "get", "/accounts/login/", {"next": "0"}, 200),
    "admin login long": (
        "anonymous",
        "post",
        "/admin/login/",
        {"username": LONG, "password": LONG},
        200,
    ),
    "reset NUL": ("anonymous", "post", "/accounts/password_reset/", {"email": "m\x00@x.org"}, 200),
    "reset link junk": ("anonymous", "get", "/accounts/reset/%00/a-b/", {}, 200),
    "outsider records a hand": ("outsider", "post", HAND_NEW, SAVED_HAND, 404),
    "anonymous records a hand": ("anonymous", "post", HAND_NEW, SAVED_HAND, 302),
}
# What the refused form shows again, as typed.
SHOWN = {
    "points too many": HUGE,
    "points negative": "-5",
    "points a float": "4.5",
    "points a word": "many",
    "points emoji": "🂡😀",
    "kitty too many": HUGE,
    "kitty cards unknown": "🂡 XX",
    "last trick huge": HUGE,
    "taken back huge": HUGE,
    "roster name long": LONG,
    "rename long": LONG,
    "band from huge": HUGE,
    "throw penalty huge": HUGE + "1",
}


def filled(value: object, world: SimpleNamespace) -> object:
    if value is VERSION:
        return str(world.game.version)
    if value is DECLARER:
        return world.declarer
    if isinstance(value, list):
        return [filled(item, world) for item in value]
    names = {
        "group": world.group.pk,
        "game": world.game.pk,
        "table": world.table.pk,
        "share": world.game.share_token,
        "theirs": world.theirs.pk,
        "their_game": world.their_game.pk,
        "their_table": world.their_table.pk,
        "their_player": world.their_player.pk,
        **{f"player_{n}": player.pk for n, player in enumerate(world.players, 1)},
    }
    for name, known in names.items():
        value = value.replace(f"{{{name}}}", str(known))
    return value


@pytest.mark.parametrize("case", CASES)
def test_it_answers_a_hand_picked_bad_request_without_a_server_error(world, clients, case):
    who, method, path, data, status = CASES[case]
    data = {key: filled(value, world) for key, value in data.items()}
    htmx = data.pop("htmx", None)
    hands = list(Hand.objects.values_list("pk", flat=True))

    response = ask(clients[who], method, filled(path, world), data, htmx)

    assert response.status_code == status
    if case in SHOWN:
        assert escape(SHOWN[case]) in response.text
    if case.startswith(("points", "kitty", "last trick", "taken back", "declarer", "version")):
        assert list(Hand.objects.values_list("pk", flat=True)) == hands


# The 500s these tests found, each fixed where it came from.


def test_a_next_that_is_not_a_path_sends_a_member_home(member):
    response = member.get("/accounts/signup/", {"next": "0"})

    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.parametrize("path", ["/watch/%00/", "/join/a%00b/"])
def test_a_link_with_a_nul_byte_is_not_found(member, path):
    # PostgreSQL refuses a NUL in a query: a token is letters, digits, - and _ only.
    assert member.get(path).status_code == 404


@pytest.mark.parametrize("key", ["k" * 41, "a\x00b", "🂡", LONG])
def test_a_hand_is_saved_without_a_request_key_the_page_cannot_have_made(world, member, key):
    # The database holds 40 characters and no NUL; the page makes a uuid4's 32 hex digits.
    data = {**HAND, "declarer": world.declarer, "version": world.game.version, "request_key": key}

    response = member.post(f"/groups/{world.group.pk}/games/{world.game.pk}/hands/new/", data)

    assert response.status_code == 302
    assert Hand.objects.filter(game=world.game).last().request_key == ""


def test_a_refused_hand_keeps_its_key_only_if_the_page_could_have_made_it(world, member):
    url = f"/groups/{world.group.pk}/games/{world.game.pk}/hands/new/"
    data = {**HAND, "version": world.game.version, "opponent_points": "many"}

    kept = member.post(url, {**data, "request_key": "tap-1"})
    replaced = member.post(url, {**data, "request_key": "k" * 41})

    assert 'name="request_key" value="tap-1"' in kept.text
    assert "k" * 41 not in replaced.text


def export_with(**changes) -> bytes:
    """A small group's export, as text with some of its parts replaced."""
    text = json.dumps(
        {
            "format": "tractor-companion-group",
            "version": 1,
            "group": {"name": "Imported", "created": "2025-03-06T19:30:00+00:00"},
            "members": [],
            "players": [{"name": "Mei", "user": None}],
            "scoring_tables": [],
            "games": [],
        }
    )
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text.encode("utf-8", "surrogatepass")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            export_with(**{'"version": 1': '"version": ' + "1" * 5000}),
            "The file holds a number of more than 4300 digits.",
        ),
        (
            export_with(**{'"Mei"': '"\\ud800"'}),
            "The file holds &#x27;\\ud800&#x27;, which is not a character.",
        ),
        (
            export_with(**{"2025-03-06T19:30:00+00:00": "9999-12-31T23:00:00+00:00"}),
            "group.created must fall in the years 2 to 9998",
        ),
        (
            export_with(**{"2025-03-06T19:30:00+00:00": "0001-01-01T00:00:00+14:00"}),
            "group.created must fall in the years 2 to 9998",
        ),
        (b"[" * 100_000 + b"]" * 100_000, "far more than an export holds"),
        (
            export_with(**{'"Imported"': "NaN"}),
            "group.name must be text that is not empty, not NaN.",
        ),
        (b"", "The submitted file is empty."),
    ],
    ids=[
        "5000 digits",
        "lone surrogate",
        "year 9999",
        "year 1 ahead of UTC",
        "deep",
        "NaN",
        "empty",
    ],
)
def test_the_import_page_names_a_hostile_file_and_makes_nothing(member, group, content, message):
    upload = SimpleUploadedFile("group.json", content, content_type="application/json")

    response = member.post("/groups/import/", {"file": upload, "name": ""}, follow=True)

    assert response.status_code == 200
    assert message in response.text
    assert list(Group.objects.all()) == [group]


def test_nothing_here_saves_a_precedent_from_a_hostile_post(world, member):
    before = Dispute.objects.count()

    for case in ("precedent of hand huge", "precedent of hand 99", "precedent leader unknown"):
        _who, method, path, data, _status = CASES[case]
        ask(member, method, filled(path, world), data)

    assert Dispute.objects.count() == before


def test_cards_taken_back_past_the_decks_are_named_not_raised(world, member):
    # open-ladder allows throws: the engine's limit on cards taken back is a field error.
    data = {
        **HAND,
        "declarer": world.declarer,
        "version": world.game.version,
        "declarer_cards_taken_back": HUGE,
    }

    response = member.post(f"/groups/{world.group.pk}/games/{world.game.pk}/hands/new/", data)

    assert response.status_code == 200
    assert (
        "The declarers&#x27; failed throws take back from 0 to 25 cards, a hand at most; "
        f"{HUGE} is not possible."
    ) in response.text


@pytest.mark.parametrize("path", ["/groups/{group}/export.json", "/groups/{group}/export.csv"])
def test_the_exports_read_back(world, member, path):
    exported = member.get(filled(path, world))

    assert exported.status_code == 200
    if path.endswith(".json"):
        assert exchange.load(exported.getvalue()).name == "Thursday Tractor"
