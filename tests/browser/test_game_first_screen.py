"""The game page's first screen at a big table: with six or eight players whose names are as long
as the roster allows, the scorekeeper still finds "Record a hand" and where everyone stands
without scrolling; a hand waiting for this phone's confirmation shows Confirm and Flag there, and
the scorekeeper sees a flag's note there; each hand's row fits a 360 px screen."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.display import level
from companion.display import sides as game_sides
from companion.models import Game, Group, Hand, Membership, Player
from scoring import Teams, get_rules
from scoring.game import HandResult
from tests.companion.hands import HELD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = 740
# As long as the roster allows (Player.name's max_length), each different from its first word.
NAME_LENGTH = Player._meta.get_field("name").max_length
FIRST_NAMES = ("Meilin", "Junhao", "Linfeng", "Haoran", "Weiming", "Yanting", "Zhaoyun", "Xiulan")


def long_name(first: str) -> str:
    return f"{first} Alexandrina Konstantinopoulou-Vasquez de la Fuente"[:NAME_LENGTH].ljust(
        NAME_LENGTH, "e"
    )


JUNHAO = long_name("Junhao")
FLAG = f"Flagged by {JUNHAO}: Haoran won the last trick"


def table_of(size: int, teams: Teams, *, confirmations: bool = False) -> Game:
    """A game of ``size`` players with long names in Thursday Tractor: Meilin (seat 0, the
    scorekeeper, account "mei") and Junhao (seat 1, account "jun") have accounts."""
    group = Group.objects.create(name="Thursday Tractor", hands_need_confirmation=confirmations)
    players = []
    for seat, first in enumerate(FIRST_NAMES[:size]):
        user = None
        if seat < 2:
            user = User.objects.create_user(first[:3].lower(), password="a long table password")
            Membership.objects.create(
                group=group, user=user, role="admin" if seat == 0 else "member"
            )
        players.append(Player.objects.create(group=group, name=long_name(first), user=user))
    return Game.start(group, players, get_rules("standard"), teams=teams, by=players[0].user)


def play(game: Game, points: int) -> Hand:
    """Meilin's phone records the next hand: the opponents took ``points``; in find-a-friend
    the declarer's friend sat opposite."""
    game.refresh_from_db()
    state, table = game.scored().state, game.table
    declarer = state.next_declarers[0] if state.next_declarer is None else state.next_declarer
    friends = () if table.fixed else ((declarer + table.size // 2) % table.size,)
    result = HandResult(declarer, points, 0, HELD, friends=friends)
    fields = Hand.fields_of(result) | {"bid": "one", "trump": "H"}
    user = User.objects.get(username="mei")
    return game.record_hand(fields, version=game.version, request_key=str(uuid.uuid4()), by=user)


def log_in(page, live_server, username: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=username))
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


@pytest.fixture
def first_screen(tmp_path: Path, request: pytest.FixtureRequest):
    """Save what the phone shows before any scrolling (the ``screenshot`` fixture saves the
    whole page), under the test's temporary folder and SCREENSHOT_DIR if set."""

    def save(page, name: str) -> Path:
        path = tmp_path / f"{name}-first-screen.png"
        page.screenshot(path=path)
        if folder := os.environ.get("SCREENSHOT_DIR"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(folder) / f"{request.node.name}-{path.name}")
        return path

    return save


def bottom(locator) -> float:
    """Where ``locator`` ends, from the top of the page (the page not scrolled)."""
    box = locator.bounding_box()
    assert box is not None, locator
    return box["y"] + box["height"]


def assert_in_first_screen(locator) -> None:
    locator.first.wait_for()
    for index in range(locator.count()):
        assert bottom(locator.nth(index)) <= SCREEN, locator.nth(index).inner_text()


# Each table, with how many sides climb the ladder: the teams, or every player.
TABLES = [
    pytest.param(4, Teams.PARTNERS, 2, id="4-partners"),
    pytest.param(5, Teams.FIND_A_FRIEND, 5, id="5-find-a-friend"),
    pytest.param(6, Teams.FIND_A_FRIEND, 6, id="6-find-a-friend"),
    pytest.param(7, Teams.FIND_A_FRIEND, 7, id="7-find-a-friend"),
    pytest.param(8, Teams.FIND_A_FRIEND, 8, id="8-find-a-friend"),
    pytest.param(6, Teams.PARTNERS, 2, id="6-partners"),
    pytest.param(8, Teams.PARTNERS, 2, id="8-partners"),
    pytest.param(8, Teams.PAIRS, 4, id="8-pairs"),
]


@pytest.mark.parametrize(("size", "teams", "sides"), TABLES)
def test_record_a_hand_and_the_standings_fit_the_first_screen(
    phone, live_server, screenshot, first_screen, size, teams, sides
):
    game = table_of(size, teams)
    play(game, 40)
    play(game, 90)
    log_in(phone, live_server, "mei")

    phone.goto(live_server.url + game.get_absolute_url())

    screenshot(phone, f"{size}-players")
    first_screen(phone, f"{size}-players")
    assert_in_first_screen(phone.get_by_role("link", name="Record a hand"))
    standings = phone.locator("#standings [data-level]")
    assert standings.count() == sides
    assert_in_first_screen(standings)


def one_line(locator) -> bool:
    """Whether ``locator``'s text keeps to a single line."""
    return locator.evaluate(
        "element => element.getBoundingClientRect().height"
        " < 1.5 * parseFloat(getComputedStyle(element).lineHeight)"
    )


@pytest.mark.parametrize(("size", "teams", "sides"), TABLES)
def test_each_hand_s_row_fits_the_screen_with_where_everyone_stands_after_it(
    phone, live_server, screenshot, size, teams, sides
):
    game = table_of(size, teams)
    play(game, 40)
    play(game, 90)
    log_in(phone, live_server, "mei")

    phone.goto(live_server.url + game.get_absolute_url())

    phone.locator("#hand-2").scroll_into_view_if_needed()
    screenshot(phone, f"{size}-players-rows")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    for number in (1, 2):
        row = phone.locator(f"#hand-{number}")
        assert row.bounding_box()["x"] + row.bounding_box()["width"] <= 360
        assert one_line(row.locator(".hand-sides"))
        standing = row.get_by_role("list", name=f"Levels after hand {number}").get_by_role(
            "listitem"
        )
        assert standing.count() == sides
        for index in range(sides):
            assert one_line(standing.nth(index))
    # A tap shows the sides whole.
    phone.locator("#hand-1 .hand-sides").click()
    assert not one_line(phone.locator("#hand-1 .hand-sides"))
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    # Where each side stands after hand 2 is its level as `scoring` replays the game.
    after = game.scored().hands[1].after.levels
    standing = phone.locator("#hand-2 .hand-standing li")
    shown = [standing.nth(index).inner_text().split()[-1] for index in range(sides)]
    assert shown == [level(after[side[0]]) for side in game_sides(game.table)]


def confirming_table(teams: Teams = Teams.FIND_A_FRIEND) -> Game:
    """Eight players with long names, confirmations asked: Meilin recorded hands 1 and 2, Junhao
    (an opponent both times) confirmed hand 1; hand 2 waits for him."""
    game = table_of(8, teams, confirmations=True)
    play(game, 40)
    play(game, 90)
    game.refresh_from_db()
    game.confirm_hand(1, seen=game.version, by=User.objects.get(username="jun"))
    return game


@pytest.mark.parametrize("teams", [Teams.FIND_A_FRIEND, Teams.PARTNERS])
def test_a_hand_waiting_for_this_phone_shows_confirm_and_flag_in_the_first_screen(
    phone, live_server, screenshot, first_screen, teams
):
    game = confirming_table(teams)
    log_in(phone, live_server, "jun")

    phone.goto(live_server.url + game.get_absolute_url())

    screenshot(phone, "confirmer")
    first_screen(phone, "confirmer")
    assert_in_first_screen(phone.get_by_role("button", name="Confirm hand 2"))
    assert_in_first_screen(phone.get_by_text("Something is wrong: flag it"))
    assert_in_first_screen(phone.locator("#standings [data-level]"))
    assert_in_first_screen(phone.get_by_role("link", name="Record a hand"))
    # One place to confirm: the row points to it.
    assert phone.get_by_role("button", name="Confirm hand 2").count() == 1
    phone.get_by_role("button", name="Confirm hand 2").click()
    phone.locator("#hand-2").get_by_text(f"✓ Confirmed by {JUNHAO}").wait_for()
    assert phone.get_by_role("button", name="Confirm hand 2").count() == 0


@pytest.mark.parametrize("teams", [Teams.FIND_A_FRIEND, Teams.PARTNERS])
def test_the_scorekeeper_sees_a_flag_and_its_note_in_the_first_screen(
    phone, live_server, screenshot, first_screen, teams
):
    game = confirming_table(teams)
    game.flag_hand(2, "Haoran won the last trick", by=User.objects.get(username="jun"))
    log_in(phone, live_server, "mei")

    phone.goto(live_server.url + game.get_absolute_url())

    screenshot(phone, "flagged")
    first_screen(phone, "flagged")
    assert_in_first_screen(phone.get_by_text(FLAG).first)
    assert_in_first_screen(phone.get_by_role("link", name="Settle a trick on the Dispute page"))
    assert_in_first_screen(phone.get_by_role("link", name="Record a hand"))


def test_a_flag_note_being_typed_survives_the_polls(phone, live_server, screenshot):
    game = confirming_table()
    log_in(phone, live_server, "jun")
    phone.goto(live_server.url + game.get_absolute_url())
    phone.get_by_text("Something is wrong: flag it").click()
    note = phone.locator("#hand-2-confirmation").get_by_label("What is wrong? (optional)")
    note.fill("Haoran won the last tr")

    # Meilin records hand 3, then corrects hand 1: each change reaches this phone by a poll.
    play(game, 120)
    phone.locator("#hand-3").wait_for()
    game.refresh_from_db()
    mei = User.objects.get(username="mei")
    game.edit_hand(1, {"opponent_points": 45}, version=game.version, by=mei)
    phone.locator("#hand-1").get_by_text("Opponents 45 points").wait_for()

    screenshot(phone, "note-after-polls")
    assert note.input_value() == "Haoran won the last tr"
    assert note.is_visible()
    assert phone.evaluate("document.activeElement.name") == "note"
    note.press("End")
    note.type("ick")
    phone.get_by_role("button", name="Flag hand 2").click()
    phone.get_by_text(FLAG).first.wait_for()
    assert Hand.objects.get(game=game, number=2).flag_note == "Haoran won the last trick"
