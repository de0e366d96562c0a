"""axe-core on every page outside Django's admin, in each of the app's languages, on a 360 × 740
phone: the page in its common state (a group with games of several hands, a club night, a
ladder) and, where it has a form, with that form refused so its errors show. Any serious or
critical violation of the WCAG 2.0 / 2.1 A and AA rules fails, naming the page, the language,
the rule and the elements at fault; so does a page wider than the phone.

The pages are listed by URL name: a page added to companion/urls.py without an entry in
``PAGES`` (or ``NOT_PAGES``, for addresses that are no page) fails
``test_it_visits_every_page``. One test per language visits them all, so the data is made once
a language and the browser is not started again for each page. ``STATES`` adds what the common
state does not show: the error pages, a game waiting for this phone's confirmation with a hand
flagged, and the club night's pages in each of its states."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.cache import cache
from django.core.exceptions import BadRequest, PermissionDenied
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from companion.models import Evening, Game, Group, Membership, Player, ScoringTable
from companion.models.games import FLAG_NOTE_LENGTH
from companion.urls import urlpatterns as app_urls
from scoring import PRESETS, get_rules
from tests.companion.hands import HELD_FIELDS, QUEENS_WIN, QUEENS_WIN_LEVELS
from tests.companion.history_games import save_game
from tests.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAST = ("Mei", "Jun", "Lin", "Hao", "Ed", "Wei", "Yan", "Bo")  # the first four play the games
PASSWORD = "a long table password"

# WCAG 2.0 and 2.1, levels A and AA; what fails the test.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING = {"serious", "critical"}
# What a refused form shows: its fields marked invalid, their messages, or the form's alert.
ERRORS = "[aria-invalid=true], .invalid-feedback, .alert-danger"
AXE_RUN = """(tags) => axe.run(document, {
  runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'], preload: false,
}).then((results) => results.violations.map((v) => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map((node) => {
    const [check] = [...node.any, ...node.all, ...node.none];
    return `${node.target.join(' ')}${check ? ` (${check.message})` : ''}`;
  }),
})))"""


@dataclass
class Club:
    """What the pages show: Thursday Tractor (Mei its admin, Jun a member) with a scoring table
    of its own, a game under way of several hands (one corrected), a finished game, and a club
    night under way; another club night's first round proposed; a third club night ended.
    Then the group asks for confirmations: in one more game Jun recorded two hands, the first
    flagged by Mei, the second waiting for her confirmation. Jun is locked out of logging in
    (too many wrong passwords); Zoe is in no group."""

    group: Group
    mei: User
    zoe: User
    game: Game
    finished: Game
    table: ScoringTable
    evening: Evening
    proposed: Evening
    ended: Evening
    waiting: Game

    def game_url(self, tail: str = "") -> str:
        return f"/groups/{self.group.pk}/games/{self.game.pk}/{tail}"


def record(game: Game, user: User, declarer: int, points: int) -> None:
    game.refresh_from_db()
    fields = {**HELD_FIELDS, "declarer": declarer, "opponent_points": points}
    game.record_hand(fields, version=game.version, request_key="", by=user)


@pytest.fixture
def club(db) -> Club:
    cache.clear()  # the password reset refused in an earlier language still counts an hour
    mei = User.objects.create_user("mei", password=PASSWORD)
    jun = User.objects.create_user("jun", password=PASSWORD)
    zoe = User.objects.create_user("zoe", password=PASSWORD)
    group = Group.objects.create(name="Thursday Tractor")
    group.add_admin(mei)
    Membership.objects.create(group=group, user=jun)
    cast = [Player.objects.create(group=group, name=name) for name in CAST]
    table = group.keep_table(None, PRESETS["kawu"], by=mei)

    start = timezone.now() - timedelta(days=14)
    finished = save_game(
        group, cast[:4], "standard", list(QUEENS_WIN), levels=QUEENS_WIN_LEVELS, created=start
    )
    game = Game.start(group, cast[:4], get_rules("standard"), by=mei)
    for declarer, points in ((0, 45), (0, 85), (1, 20), (1, 60)):
        record(game, mei, declarer, points)
    game.refresh_from_db()
    game.edit_hand(2, {"opponent_points": 90}, version=game.version, by=mei)

    shape = {"rules_json": get_rules("standard").to_json()}
    evening = Evening.start(group, cast, by=mei, **shape)
    first = evening.start_round(by=mei)
    record(first.tables_played.order_by("number").first().game, mei, 0, 40)
    proposed = Evening.start(group, cast, by=mei, **shape)
    ended = Evening.start(group, cast, by=mei, **shape)
    record(ended.start_round(by=mei).tables_played.get(number=1).game, mei, 1, 60)
    ended.end()

    group.ask_for_confirmations(True, by=mei)
    waiting = Game.start(group, cast[:4], get_rules("standard"), by=jun)
    record(waiting, jun, 0, 45)
    record(waiting, jun, 2, 20)
    waiting.flag_hand(1, "Hao took the kitty", by=mei)

    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post("/accounts/login/", {"username": "jun", "password": "a wrong guess"})
    return Club(group, mei, zoe, game, finished, table, evening, proposed, ended, waiting)


# ---- How each page is reached, in its common state, and how its form is refused.


@dataclass(frozen=True)
class Page:
    """A page: who looks at it ("mei", "zoe" or None, nobody logged in), its address, what a
    player does there first (if anything), and how its form is refused (if it has one)."""

    url: Callable[[Club], str]
    account: str | None = "mei"
    refuse: Callable[[object, Club], None] | None = None
    then: Callable[[object], None] | None = None


def submit(button: str) -> Callable[[object, Club], None]:
    """Refuse a form as it is, nothing chosen or typed: its ``button`` pressed."""

    def refuse(phone, club: Club) -> None:
        phone.locator(button).click()

    return refuse


def afresh(refuse: Callable[[object, Club], None]) -> Callable[[object, Club], None]:
    """Refuse the page's form as it comes, whatever was done on it before."""

    def refuse_afresh(phone, club: Club) -> None:
        phone.goto(phone.url)
        refuse(phone, club)

    return refuse_afresh


def fill_and_submit(button: str, **fields: str) -> Callable[[object, Club], None]:
    """Refuse a form filled with ``fields`` (by their ids, less ``id_``): its ``button``
    pressed."""

    def refuse(phone, club: Club) -> None:
        for name, value in fields.items():
            phone.locator(f"#id_{name}").fill(value)
        phone.locator(button).click()

    return refuse


def visit(query: str) -> Callable[[object, Club], None]:
    """Refuse a GET form: its page asked with ``query``, which it cannot take."""

    def refuse(phone, club: Club) -> None:
        phone.goto(f"{phone.url.split('?')[0]}?{query}")

    return refuse


def refuse_swap(phone, club: Club) -> None:
    """The proposed round of the other evening: a player swapped with themself."""
    phone.goto(f"/groups/{club.group.pk}/evenings/{club.proposed.pk}/")
    phone.locator("#proposed details > summary").click()
    first = phone.locator("#id_first option").nth(1).get_attribute("value")
    phone.locator("#id_first").select_option(first)
    phone.locator("#id_second").select_option(first)
    phone.locator("#proposed details [type=submit]").click()


def preview_a_hand(phone) -> None:
    """The hand form with its preview: Mei declares in hearts, the opponents take 45."""
    phone.locator("input[name=declarer] + label").first.click()
    phone.locator("input[name=trump][value=H] + label").click()
    phone.locator("#id_opponent_points").fill("45")
    phone.locator("#preview .card").wait_for()


def judge_a_trick(phone) -> None:
    """A verdict: level 2, hearts are trumps, the first player leads a pair of small jokers,
    and the second, who holds a pair of hearts, does not play it."""
    phone.locator("#id_level").select_option("2")
    phone.locator("input[name=trump][value=H] + label").click()
    plays = {"play_0": "SJ SJ", "play_1": "9H KH", "play_2": "2C 3C", "play_3": "4C 5C"}
    for field, cards in plays.items():
        phone.locator(f"#id_{field}").fill(cards)
    phone.locator("details", has=phone.locator("#id_hand_1")).locator("summary").click()
    phone.locator("#id_hand_1").fill("9H KH 7H 7H 3C")
    phone.locator("button[name=action][value=judge]").click()
    phone.locator("#verdict .verdict-headline").wait_for()


def reset_link(club: Club) -> str:
    """Mei's password reset link, as the mail gives it (made now: it names her last login)."""
    club.mei.refresh_from_db()
    uid = urlsafe_base64_encode(force_bytes(club.mei.pk))
    return f"/accounts/reset/{uid}/{default_token_generator.make_token(club.mei)}/"


PAGES: dict[str, Page] = {
    "home": Page(lambda club: "/"),
    "settle_hand": Page(
        lambda club: "/settle/", None, visit("rules=standard&opponent_points=999&kitty_points=x")
    ),
    "dispute": Page(
        lambda club: "/dispute/",
        None,
        afresh(submit("#dispute-form [value=judge]")),
        then=judge_a_trick,
    ),
    "game": Page(lambda club: club.game_url()),
    "hand_new": Page(
        lambda club: club.game_url("hands/new/"),
        refuse=afresh(submit("#hand-form .btn-tractor")),
        then=preview_a_hand,
    ),
    "hand_edit": Page(
        lambda club: club.game_url("hands/3/"),
        refuse=fill_and_submit("#hand-form .btn-tractor", opponent_points="999"),
    ),
    "game_history": Page(lambda club: club.game_url("history/")),
    "game_dispute": Page(
        lambda club: club.game_url("dispute/"), refuse=submit("#dispute-form [value=judge]")
    ),
    "watch": Page(lambda club: f"/watch/{club.game.share_token}/", None),
    "table_screen": Page(lambda club: f"/watch/{club.game.share_token}/table/", None),
    "group_history": Page(
        lambda club: f"/groups/{club.group.pk}/history/", refuse=visit("player=x&period=x")
    ),
    "player": Page(
        lambda club: f"/groups/{club.group.pk}/players/{club.game.seated[0].player_id}/"
    ),
    "game_replay": Page(
        lambda club: club.game_url("replay/") + "?rules=kawu",
        refuse=visit("rules=nonsense&decks=x"),
    ),
    "signup": Page(
        lambda club: "/accounts/signup/",
        None,
        fill_and_submit("main [type=submit]", username="mei", password1="short", password2="other"),
    ),
    "password_reset": Page(
        lambda club: "/accounts/password_reset/",
        None,
        fill_and_submit("main [type=submit]", email="mei"),
    ),
    "login": Page(
        lambda club: "/accounts/login/",
        None,
        fill_and_submit("main [type=submit]", username="mei", password="not her password"),
    ),
    "password_change": Page(
        lambda club: "/accounts/password_change/",
        refuse=fill_and_submit(
            "main [type=submit]", old_password="wrong", new_password1="short", new_password2="other"
        ),
    ),
    "password_change_done": Page(lambda club: "/accounts/password_change/done/"),
    "password_reset_done": Page(lambda club: "/accounts/password_reset/done/", None),
    "password_reset_confirm": Page(
        reset_link,
        None,
        fill_and_submit(
            "main [type=submit]", new_password1="a new password", new_password2="another"
        ),
    ),
    "password_reset_complete": Page(lambda club: "/accounts/reset/done/", None),
    "group_new": Page(lambda club: "/groups/new/", refuse=submit("main [type=submit]")),
    "group": Page(
        lambda club: f"/groups/{club.group.pk}/",
        refuse=fill_and_submit('form:has(#id_name)[hx-target="#roster"] [type=submit]', name="mei"),
    ),
    "group_log": Page(lambda club: f"/groups/{club.group.pk}/log/"),
    "table_new": Page(
        lambda club: f"/groups/{club.group.pk}/tables/new/",
        refuse=fill_and_submit("#table-form .btn-tractor", name=""),
    ),
    "table_edit": Page(
        lambda club: f"/groups/{club.group.pk}/tables/{club.table.pk}/",
        refuse=fill_and_submit("#table-form .btn-tractor", name=""),
    ),
    "game_new": Page(
        lambda club: f"/groups/{club.group.pk}/games/new/",
        refuse=submit("#game-form [value=start]"),
    ),
    "group_join": Page(lambda club: f"/join/{club.group.invite_token}/", "zoe"),
    "evenings": Page(lambda club: f"/groups/{club.group.pk}/evenings/"),
    "evening_new": Page(
        lambda club: f"/groups/{club.group.pk}/evenings/new/",
        refuse=submit("#evening-form [type=submit]"),
    ),
    "evening": Page(
        lambda club: f"/groups/{club.group.pk}/evenings/{club.evening.pk}/", refuse=refuse_swap
    ),
    "evening_room": Page(lambda club: f"/room/{club.evening.share_token}/", None),
    "group_import": Page(
        lambda club: "/groups/import/", refuse=submit("main form[enctype] [type=submit]")
    ),
}


# ---- What the common state does not show: the error pages, and pages in their other states.


def forbidden(request):
    raise PermissionDenied


def unreadable(request):
    raise BadRequest


def broken(request):
    raise RuntimeError("a bug in a view")


# The walk's urlconf: the app's pages and three that fail, for the 403, 400 and 500 pages, which
# no page shows on purpose (and a browser cannot send the unknown Host that gets the 400).
urlpatterns = [
    path("forbidden/", forbidden),
    path("unreadable/", unreadable),
    path("broken/", broken),
    *app_urls,
]


def send_login(phone, username: str) -> None:
    """The login form sent for ``username``, then the page it is answered with."""
    phone.locator("#id_username").fill(username)
    phone.locator("#id_password").fill(PASSWORD)
    phone.locator("main [type=submit]").click()
    phone.locator("#id_username").wait_for(state="detached")


def log_in_locked_out(phone) -> None:
    """Jun logging in after too many wrong passwords: the cool-off page."""
    send_login(phone, "jun")


def log_in_without_cookie(phone) -> None:
    """Mei logging in from a browser that lost its cookies: the form is refused (403)."""
    phone.context.clear_cookies(name="csrftoken")
    send_login(phone, "mei")


def open_flag(phone) -> None:
    """The waiting hand's "Something is wrong: flag it", opened to its note."""
    phone.locator(".hand-flag > summary").click()
    phone.locator(".hand-flag input[name=note]").wait_for()


def refuse_flag(phone, club: Club) -> None:
    """A flag whose note is longer than a note may be (the field's own limit taken off)."""
    open_flag(phone)
    note = phone.locator(".hand-flag input[name=note]")
    note.evaluate("(input) => input.removeAttribute('maxlength')")
    note.fill("x" * (FLAG_NOTE_LENGTH + 1))
    phone.locator(".hand-flag [type=submit]").click()
    phone.locator("main > .alert-danger").wait_for()


STATES: dict[str, Page] = {
    "404": Page(lambda club: "/no-such-page/"),
    "403": Page(lambda club: "/forbidden/"),
    "403, a form sent without its cookie": Page(
        lambda club: "/accounts/login/", None, then=log_in_without_cookie
    ),
    "400": Page(lambda club: "/unreadable/", None),
    "500": Page(lambda club: "/broken/", None),
    "login, locked out": Page(lambda club: "/accounts/login/", None, then=log_in_locked_out),
    "game, a hand waiting for this phone and a hand flagged": Page(
        lambda club: club.waiting.get_absolute_url(),
        refuse=afresh(refuse_flag),
        then=open_flag,
    ),
    "watch, a hand flagged": Page(lambda club: f"/watch/{club.waiting.share_token}/", None),
    "evening, a round proposed": Page(
        lambda club: f"/groups/{club.group.pk}/evenings/{club.proposed.pk}/"
    ),
    "evening_room, a round proposed": Page(
        lambda club: f"/room/{club.proposed.share_token}/", None
    ),
    "evening, ended": Page(lambda club: f"/groups/{club.group.pk}/evenings/{club.ended.pk}/"),
    "evening_room, ended": Page(lambda club: f"/room/{club.ended.share_token}/", None),
    "game, ended by its club night": Page(
        lambda club: club.ended.rounds.get().tables_played.get(number=1).game.get_absolute_url()
    ),
}

# Addresses that are no page a player reads.
NOT_PAGES = {
    "service_worker",  # a script
    # POST only: each action of a page, answered on that page (companion/urls.py)
    *("undo_hand", "new_share_link", "delete_hand", "confirm_hand", "flag_hand", "unflag_hand"),
    *("rename_group", "claim_player", "retire_player", "bring_back_player", "remove_member"),
    *("make_admin", "leave_group", "ask_for_confirmations", "new_invite", "dismiss_import"),
    *("swap_players", "start_round", "next_round", "join_evening", "leave_evening", "end_evening"),
    "declare_trump",  # POST only: the table's "Trump declared" tap
    "group_export",  # a JSON file to download
    "group_export_csv",  # a CSV file to download
    "set_language",  # POST only: the language switch, answered with the page it was on
    "logout",  # POST only: the navbar's "Log out", answered with the home page
}


def url_names(patterns=None) -> set[str]:
    """Every URL name outside Django's admin."""
    names = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name != "admin":
                names |= url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


def test_it_visits_every_page():
    names = url_names()
    assert not set(PAGES) & NOT_PAGES
    assert names - set(PAGES) - NOT_PAGES == set(), "pages with no entry in PAGES or NOT_PAGES"
    assert set(PAGES) | NOT_PAGES <= names, "entries for pages that are gone"


# ---- The browser: a phone for each account, in the language under test, axe-core in every page.


@pytest.fixture(params=[code for code, _name in settings.LANGUAGES])
def language(request) -> str:
    return request.param


@pytest.fixture
def phones(browser, live_server, club, language) -> Iterator[dict[str | None, object]]:
    """A 360 × 740 phone in ``language`` for each account (None: nobody logged in), with
    axe-core in every page it opens (the CSP would refuse it: bypassed here only)."""
    contexts = []
    phones = {}
    for account in (None, "mei", "zoe"):
        context = browser.new_context(
            viewport=PHONE,
            has_touch=True,
            base_url=live_server.url,
            bypass_csp=True,
            # No transitions: a button just tapped is checked in its colours, not half-way there.
            reduced_motion="reduce",
        )
        contexts.append(context)
        context.add_init_script(path=AXE_FILE_PATH)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language}]
        if account is not None:
            client = Client()
            client.force_login(User.objects.get(username=account))
            cookies.append({"name": "sessionid", "value": client.cookies["sessionid"].value})
        context.add_cookies([cookie | {"url": live_server.url} for cookie in cookies])
        page = context.new_page()
        # Generous: the machines that run the suite are shared.
        page.set_default_navigation_timeout(30_000)
        phones[account] = page
    yield phones
    for context in contexts:
        context.close()


def violations(phone, name: str, language: str) -> list[str]:
    phone.wait_for_load_state()
    # The pointer off whatever was tapped last: a control is checked in its colours at rest.
    phone.mouse.move(0, 0)
    found = phone.evaluate(AXE_RUN, TAGS)
    return [
        f"{name} [{language}]: {v['id']} ({v['impact']}): {v['help']}: " + "; ".join(v["nodes"])
        for v in found
        if v["impact"] in FAILING
    ]


def too_wide(phone, name: str, language: str) -> list[str]:
    """The page scrolling sideways on the phone, if it does: nothing may be wider than it."""
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    return [f"{name} [{language}]: {width} px wide on a 360 px phone"] if width > 360 else []


@pytest.mark.urls(__name__)
def test_it_has_no_serious_violation_on_any_page(phones, club, language):
    began = time.monotonic()
    faults = []
    walk = {**PAGES, **STATES}
    for name, page in walk.items():
        phone = phones[page.account]
        phone.goto(page.url(club))
        if page.then is not None:
            page.then(phone)
        assert phone.locator("html").get_attribute("lang") == language, f"{name} [{language}]"
        faults += violations(phone, name, language) + too_wide(phone, name, language)
        if page.refuse is not None:
            page.refuse(phone, club)
            phone.locator(ERRORS).first.wait_for()
            refused = f"{name}, refused"
            faults += violations(phone, refused, language) + too_wide(phone, refused, language)
    print(f"axe-core, {len(walk)} pages [{language}]: {time.monotonic() - began:.1f}s")
    assert not faults, "\n".join(faults)
