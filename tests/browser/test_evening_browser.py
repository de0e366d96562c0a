"""A club night with thumbs: eight players at two tables for two rounds, each table recording
from its own phone, the room screen on a laptop following every save, the second round seated
with new partners, and the standings as the hands make them; and the taps it takes to seat
twelve players at three tables."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Evening, EveningTable, Group, Membership, Player
from scoring.evenings import repeats

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 720}
EIGHT = ("Mei", "Jun", "Lin", "Hao", "Ed", "Wei", "Yan", "Bo")
# The standard rules: the declarers holding the opponents to 0 climb 3 levels, to 40 one.
CLIMBED = {0: 3, 40: 1}


@pytest.fixture
def club(db):
    """Thursday Tractor with Mei's and Jun's accounts and twelve players on its roster."""
    group = Group.objects.create(name="Thursday Tractor")
    accounts = {}
    for name in ("mei", "jun"):
        accounts[name] = User.objects.create_user(name, password="a long table password")
        Membership.objects.create(group=group, user=accounts[name])
    for name in (*EIGHT, "Ann", "Cy", "Di", "Fay"):
        Player.objects.create(group=group, name=name)
    return group, accounts


def log_in(page, live_server, user: User) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def played(evening: Evening, number: int) -> list:
    """Round ``number``'s games, by table."""
    tables = EveningTable.objects.filter(round__evening=evening, round__number=number)
    return [table.game for table in tables.order_by("number")]


def test_a_club_night_of_two_tables_and_two_rounds(
    browser, phone, second_phone, live_server, club, screenshot, record_hand
):
    group, accounts = club
    log_in(phone, live_server, accounts["mei"])
    log_in(second_phone, live_server, accounts["jun"])
    phone.on("dialog", lambda dialog: dialog.accept())

    phone.goto(f"{live_server.url}/groups/{group.pk}/")
    phone.get_by_role("link", name="Start a club night").click()
    for name in EIGHT:
        phone.locator("#id_present label", has_text=re.compile(f"^{name}$")).click()
    screenshot(phone, "new-evening")
    phone.get_by_role("button", name="Seat the first round").click()
    phone.get_by_role("heading", name="Round 1: the seating").wait_for()
    screenshot(phone, "proposed")
    phone.get_by_role("button", name="Start round 1").click()
    phone.get_by_role("heading", name="Round 1", exact=True).wait_for()
    evening = Evening.objects.get()

    laptop_context = browser.new_context(viewport=LAPTOP)
    room = laptop_context.new_page()
    room.goto(f"{live_server.url}/room/{evening.share_token}/")
    room.get_by_role("heading", name="Thursday Tractor's club night").wait_for()

    climbed: dict[str, list[int]] = {name: [0, 0, 0] for name in EIGHT}  # levels, declaring, hands

    def play_round(number: int, points: tuple[int, int]) -> None:
        games = played(evening, number)
        for table, (game, at, by) in enumerate(
            zip(games, points, (phone, second_phone), strict=True), 1
        ):
            by.goto(f"{live_server.url}/groups/{group.pk}/evenings/{evening.pk}/")
            by.get_by_role("link", name=f"Table {table}", exact=True).click()
            declarer = game.players[0].name
            record_hand(by, declarer, opponent_points=at)
            room.locator(f"#table-{table} .table-hands", has_text="1 hand").wait_for()
            declarers = {game.players[0].name, game.players[2].name}
            for player in game.players:
                line = climbed[player.name]
                line[2] += 1
                if player.name in declarers:
                    line[0] += CLIMBED[at]
                    line[1] += CLIMBED[at]

    play_round(1, (0, 40))
    screenshot(room, "room-round-1")

    phone.goto(f"{live_server.url}/groups/{group.pk}/evenings/{evening.pk}/")
    screenshot(phone, "round-1")
    phone.get_by_role("button", name="Next round").click()
    phone.get_by_role("heading", name="Round 2: the seating").wait_for()
    assert phone.get_by_text(
        "New partners: nobody plays with a partner they had earlier this evening."
    ).is_visible()
    first, second = evening.rounds.order_by("number")
    assert repeats(second.seating, [first.seating]) == 0
    # Round 1's games are ended by the evening: they say so and take no more hands.
    phone.get_by_role("link", name=re.compile("^Table 1: ")).click()
    phone.get_by_text("The club night ended this game with round 1").wait_for()
    assert phone.get_by_role("link", name="Record a hand").count() == 0
    screenshot(phone, "ended-game")
    phone.get_by_role("link", name="Club night: table 1 of round 1").click()
    phone.get_by_role("button", name="Start round 2").click()
    phone.get_by_role("heading", name="Round 2", exact=True).wait_for()
    room.get_by_text("Round 2", exact=True).wait_for()

    play_round(2, (40, 0))
    screenshot(room, "room-round-2")

    rows = room.locator("#evening-standings tbody tr")
    shown = {
        rows.nth(index).get_attribute("data-player"): [
            int(rows.nth(index).locator(f"[data-{part}]").inner_text())
            for part in ("levels", "declaring", "hands", "won")
        ]
        for index in range(rows.count())
    }
    assert shown == {name: [*line, 0] for name, line in climbed.items()}
    laptop_context.close()


def test_twelve_players_sit_at_three_tables_in_a_few_taps(
    browser, phone, live_server, club, screenshot
):
    group, accounts = club
    log_in(phone, live_server, accounts["mei"])
    phone.goto(f"{live_server.url}/groups/{group.pk}/evenings/new/")
    for label in phone.locator("#id_present label").all():
        label.click()  # ticking the players: not counted
    taps = 0
    phone.get_by_role("button", name="Seat the first round").click()
    taps += 1
    phone.get_by_role("button", name="Start round 1").click()
    taps += 1
    phone.locator("#evening-tables .evening-table").nth(2).wait_for()
    assert taps <= 6
    assert phone.locator("#evening-tables .evening-table").count() == 3
    assert EveningTable.objects.count() == 3

    # The room screen holds the three tables and the twelve players' standings on a laptop's
    # first screen.
    context = browser.new_context(viewport=LAPTOP)
    room = context.new_page()
    room.goto(f"{live_server.url}/room/{Evening.objects.get().share_token}/")
    for number in (1, 2, 3):
        box = room.locator(f"#table-{number}").bounding_box()
        assert box["y"] + box["height"] <= LAPTOP["height"]
    rows = room.locator("#evening-standings tbody tr")
    assert rows.count() == 12
    last = rows.nth(11).bounding_box()
    assert last["y"] + last["height"] <= LAPTOP["height"]
    screenshot(room, "room-three-tables")
    context.close()
