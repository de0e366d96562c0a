"""The hand form and the new-game form on a 360 × 740 phone at every table size: one error,
once, in view; nothing under the sticky Save bar; quick totals on both sides of each of the
rules' lines; long names whole in the friend picker; as many seats as players."""

from __future__ import annotations

import contextlib

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from companion.models import Game, Group, Hand, Membership, Player
from scoring import Teams, get_rules
from tests.browser.conftest import settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEIGHT = 740
BARS = ("nav.navbar", ".save-bar")  # what a hand form's fields must stay clear of
CAST = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Zhao", "Xiu")


def long_name(name: str) -> str:
    """``name`` padded to the longest name the roster takes (Player.name's max_length)."""
    longest = Player._meta.get_field("name").max_length
    return (
        f"{name} "
        + "Wanderley-Castellanos de la Fuente Montenegro Ribeiro"[: longest - len(name) - 1]
    )


@pytest.fixture
def mei(live_server, phone) -> User:
    """Mei's account, a member of Thursday Tractor, logged in on the phone."""
    user = User.objects.create_user("mei", password="a long table password")
    client = Client()
    client.force_login(user)
    phone.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return user


@pytest.fixture
def table(mei):
    """``table(players, teams=…, names=…)``: a game started at that many of the cast (or of
    ``names``), its hand form's address returned."""

    def start(count: int, teams: Teams = Teams.FIND_A_FRIEND, names=CAST, rules="standard"):
        group = Group.objects.create(name="Thursday Tractor")
        Membership.objects.create(group=group, user=mei)
        players = [Player.objects.create(group=group, name=name) for name in names[:count]]
        game = Game.start(group, players, get_rules(rules), teams=teams, by=mei)
        return f"/groups/{group.pk}/games/{game.pk}/hands/new/"

    return start


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, locator
    return found


def uncovered(phone, locator) -> None:
    """``locator`` is whole on the screen, below the navbar and above the Save bar, once the
    scroll that brings it there (the page's script's, or a smooth one) has come to it."""
    with contextlib.suppress(PlaywrightTimeoutError):  # the assertions below say what is wrong
        phone.wait_for_function(
            """([shown, top, bar]) => {
              const [s, t, b] = [shown, top, bar].map((e) => e.getBoundingClientRect());
              return s.top >= t.bottom - 0.5 && s.bottom <= b.top + 0.5;
            }""",
            arg=[locator.element_handle(), *(phone.locator(s).element_handle() for s in BARS)],
        )
    shown, top = box(locator), box(phone.locator("nav.navbar"))
    bar = box(phone.locator(".save-bar"))
    assert shown["y"] >= top["y"] + top["height"] - 0.5, (locator, shown, top)
    assert shown["y"] + shown["height"] <= bar["y"] + 0.5, (locator, shown, bar)


def fill_in(phone, *, trump: str | None = "♥") -> None:
    """Mei declares, Lin played the called card, the opponents took 40."""
    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_friends label", has_text="Lin").click()
    if trump:
        phone.locator("#id_trump label", has_text=trump).click()
    phone.get_by_role("button", name="+20").click()
    phone.get_by_role("button", name="+20").click()


@pytest.mark.parametrize("count", [6, 8])
def test_a_refused_hand_says_its_error_once_beside_its_field_in_view(
    phone, live_server, table, count, screenshot
):
    phone.goto(live_server.url + table(count, names=[long_name(name) for name in CAST]))
    fill_in(phone, trump=None)
    phone.get_by_role("button", name="Save hand").click()

    error = phone.locator("#id_trump_error")
    error.get_by_text("Tap the trump suit, or No trump.").wait_for()
    screenshot(phone, f"refused-{count}")
    assert phone.locator("#hand-page").inner_text().count("Tap the trump suit") == 1
    uncovered(phone, error)
    uncovered(phone, phone.locator("#id_trump legend"))
    assert phone.evaluate("document.activeElement.name") == "trump"

    # Tapped, the trump's error goes: from then on the preview says what the hand does.
    phone.locator("#id_trump label", has_text="♥").click()
    expect(error).to_have_count(0)
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()
    assert "Tap the trump suit" not in phone.locator("#hand-page").inner_text()


def test_a_hand_refused_as_a_whole_says_so_once_below_the_navbar(
    phone, live_server, table, mei, screenshot
):
    phone.goto(live_server.url + table(8, names=[long_name(name) for name in CAST]))
    fill_in(phone)
    # The preview's answers are in before the test writes: the server's thread shares the test's
    # in-memory database, whose tables a read under way locks (a write then fails at once).
    settled(phone)
    # Another phone saves hand 1 first.
    game = Game.objects.get()
    held = {"declarer": 0, "friends": [2], "bid": "one", "trump": "H", "kitty_cards": ""}
    held |= {"kitty_points": 0, "opponent_points": 45, "last_trick_winner": "declarers"}
    held |= {"last_trick_format": "single", "last_trick_cards": 1}
    game.record_hand(held, version=game.version, request_key="another phone", by=mei)
    phone.get_by_role("button", name="Save hand").click()

    said = "Someone else saved a change first, so this hand was not saved."
    phone.locator("#hand-errors").get_by_text(said).wait_for()
    uncovered(phone, phone.locator("#hand-errors"))
    screenshot(phone, "overtaken")
    assert phone.locator("#hand-page").inner_text().count(said) == 1
    assert phone.evaluate("document.activeElement.id") == "hand-errors"


@pytest.mark.parametrize("count", [6, 8])
def test_nothing_of_a_find_a_friend_hand_is_under_the_save_bar(
    phone, live_server, table, count, screenshot
):
    phone.goto(live_server.url + table(count))
    fill_in(phone)
    phone.locator("#preview").get_by_text("Opponents 40").wait_for()
    screenshot(phone, f"find-a-friend-{count}")
    if count == 6:  # in the first screen, above the bar
        assert phone.evaluate("window.scrollY") == 0
    else:  # below the first screen: clear of the bar once scrolled to, as far as the page goes
        phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    uncovered(phone, phone.locator("#preview"))
    uncovered(phone, phone.locator("#kitty-more > summary"))
    phone.locator("#kitty-more > summary").click()
    expect(phone.locator("#kitty-more")).to_have_attribute("open", "")
    uncovered(phone, phone.locator("#kitty-grid"))
    screenshot(phone, f"kitty-open-{count}")


def row_of(phone, selector: str) -> list[str]:
    """The texts of the buttons ``selector`` finds, asserting they share one row that fits."""
    buttons = phone.locator(selector)
    boxes = [box(buttons.nth(i)) for i in range(buttons.count())]
    assert len({round(found["y"]) for found in boxes}) == 1, boxes
    assert max(found["x"] + found["width"] for found in boxes) <= 348.5, boxes
    return buttons.all_inner_texts()


def test_the_quick_totals_stand_on_both_sides_of_each_line(phone, live_server, table):
    phone.goto(live_server.url + table(4, teams=Teams.PARTNERS))
    assert row_of(phone, "#quick-totals > button") == ["0", "35", "40", "75", "80", "Count cards"]


def test_the_totals_past_the_row_are_a_tap_away(phone, live_server, table, screenshot):
    phone.goto(live_server.url + table(4, teams=Teams.PARTNERS, rules="kawu"))
    # kawu's lines: 5, 40, 80, 120, 160, then one level more every 40 (200).
    assert row_of(phone, "#quick-totals > button") == ["0", "35", "40", "75", "80", "More"]
    phone.get_by_role("button", name="More").click()
    more = phone.locator("#more-totals button")
    assert more.all_inner_texts() == ["115", "120", "155", "160", "195", "200"]
    screenshot(phone, "more-totals")

    phone.locator("#id_declarer label", has_text="Mei").click()
    phone.locator("#id_trump label", has_text="♥").click()
    more.get_by_text("195").click()
    expect(phone.locator("#id_opponent_points")).to_have_value("195")
    phone.locator("#preview").get_by_text("Opponents 195").wait_for()


@pytest.mark.parametrize("count", [6, 8])
def test_the_friend_picker_shows_long_names_whole(phone, live_server, table, count, screenshot):
    names = [long_name(name) for name in CAST[:count]]
    phone.goto(live_server.url + table(count, names=names))
    screenshot(phone, f"long-names-{count}")

    labels = phone.locator("#id_friends label")
    assert labels.all_inner_texts()[:count] == names
    for i in range(labels.count()):
        label = labels.nth(i)
        shown = box(label)
        assert shown["x"] >= 0 and shown["x"] + shown["width"] <= 360, (label, shown)
        # Nothing of the name is cut off or spills out of its button.
        assert label.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    labels.nth(count - 1).click()
    expect(phone.locator(f"#id_friends input[value='{count - 1}']")).to_be_checked()


def shown_seats(phone) -> list[int]:
    seats = phone.locator(".seat-row[id^=seat-]")
    return [i + 1 for i in range(seats.count()) if seats.nth(i).is_visible()]


@pytest.fixture
def roster(mei) -> Group:
    """Thursday Tractor with the eight of the cast on its roster."""
    group = Group.objects.create(name="Thursday Tractor")
    Membership.objects.create(group=group, user=mei)
    for name in CAST:
        Player.objects.create(group=group, name=name)
    return group


def test_a_new_game_shows_as_many_seats_as_players(phone, live_server, roster, screenshot):
    phone.goto(f"{live_server.url}/groups/{roster.pk}/games/new/")
    assert shown_seats(phone) == [1, 2, 3, 4]
    for count in (6, 8, 5):
        phone.locator("#id_players label", has_text=str(count)).click()
        assert shown_seats(phone) == list(range(1, count + 1))
    screenshot(phone, "five-seats")

    for number, name in enumerate(CAST[:5], start=1):
        phone.locator(f"#id_seat_{number}").select_option(label=name)
    phone.get_by_text("Find a friend", exact=True).click()
    phone.locator("#table-summary").get_by_text("5 players with").wait_for()
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/games/*/")
    assert [player.name for player in Game.objects.get().players] == list(CAST[:5])


def test_a_new_game_seats_as_many_without_a_script(browser, live_server, roster, mei):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    client = Client()
    client.force_login(mei)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    phone = context.new_page()
    try:
        phone.goto(f"{live_server.url}/groups/{roster.pk}/games/new/")
        phone.locator("#id_players label", has_text="6").click()
        assert shown_seats(phone) == [1, 2, 3, 4, 5, 6]
        for number, name in enumerate(CAST[:6], start=1):
            phone.locator(f"#id_seat_{number}").select_option(label=name)
        phone.get_by_role("button", name="Start the game").click()
        phone.wait_for_url("**/games/*/")
        assert [player.name for player in Game.objects.get().players] == list(CAST[:6])
    finally:
        context.close()


KITTY = ("5H", "KD", "2C", "3C", "4C", "6C", "7C", "8C")  # 15 points
HANDS = {
    # name: (players, teams, taps as (field or button, label))
    "plain, a suit": (4, Teams.PARTNERS, [("declarer", "Mei"), ("trump", "♥"), ("", "75")]),
    "plain, no trump": (
        4,
        Teams.PARTNERS,
        [("declarer", "Mei"), ("trump", "No trump"), ("", "35")],
    ),
    "kitty scoop": (
        4,
        Teams.PARTNERS,
        [
            ("declarer", "Jun"),
            ("trump", "♠"),
            ("last_trick_winner", "Opponents"),
            ("last_trick_format", "Pair"),
            *(("kitty", card) for card in KITTY),
            ("", "40"),
        ],
    ),
    "find-a-friend, a suit": (
        6,
        Teams.FIND_A_FRIEND,
        [("declarer", "Mei"), ("friends", "Lin"), ("trump", "♥"), ("", "60")],
    ),
    "find-a-friend, no trump": (
        6,
        Teams.FIND_A_FRIEND,
        [("declarer", "Mei"), ("friends", "Nobody"), ("trump", "No trump"), ("", "55")],
    ),
}


@pytest.mark.parametrize(
    ("hand", "most"),
    [
        ("plain, a suit", 4),
        ("plain, no trump", 4),
        ("kitty scoop", 14),
        ("find-a-friend, a suit", 5),
        ("find-a-friend, no trump", 5),
    ],
)
def test_the_taps_per_hand(phone, live_server, table, hand, most):
    """The report's measurement: each tap from the empty form to the saved hand, Save included."""
    count, teams, taps = HANDS[hand]
    phone.goto(live_server.url + table(count, teams=teams))
    for field, label in taps:
        if field == "kitty":
            phone.locator(f'.kitty-card[data-card="{label}"]').click()
        elif field:
            phone.locator(f"#id_{field} label", has_text=label).click()
        else:
            phone.locator("#quick-totals").get_by_role("button", name=label, exact=True).click()
    phone.locator("#preview").get_by_text(f"Opponents {taps[-1][1]}").wait_for()
    phone.get_by_role("button", name="Save hand").click()
    phone.wait_for_url("**/games/*/")

    print(f"taps per hand, {hand}: {len(taps) + 1}")
    assert len(taps) + 1 <= most
    assert Hand.objects.get().opponent_points == int(taps[-1][1])
