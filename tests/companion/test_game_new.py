"""Starting a game: four seats from the roster, the rules, the starting levels."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from companion.models import Game, Group, Player, ScoringTable
from scoring import PRESETS

pytestmark = pytest.mark.django_db


@pytest.fixture
def url(group):
    return f"/groups/{group.pk}/games/new/"


def seats(players, **changes) -> dict:
    data = {
        **{seat: str(player.pk) for seat, player in players.items()},
        "rules": "standard",
        "north_south_level": "2",
        "east_west_level": "2",
        "first_starter": "",
    }
    return data | changes


def test_it_offers_the_roster_the_presets_and_the_groups_tables(member, url, group, players):
    table = ScoringTable.objects.create(
        group=group, rules_json={**PRESETS["kawu"].to_json(), "name": "house"}
    )

    page = member.get(url).text

    for name in ("Mei", "Jun", "Lin", "Hao"):
        assert f">{name}</option>" in page
    for name in PRESETS:
        assert f'<option value="{name}"' in page
    assert f'<option value="table-{table.pk}">house</option>' in page
    assert '<option value="T">10</option>' in page
    assert "Partners sit opposite each other" in page


def test_it_starts_a_game_and_goes_to_its_scoreboard(member, url, group, players, user):
    response = member.post(url, seats(players))

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[group.pk, game.pk])
    assert [game.north, game.east, game.south, game.west] == list(players.values())
    assert game.rules_json == PRESETS["standard"].to_json()
    assert (game.north_south_level, game.east_west_level, game.first_starter) == ("2", "2", "")
    assert game.created_by == user
    assert game.group == group


def test_it_keeps_the_starting_levels_and_first_starter(member, url, players):
    member.post(
        url,
        seats(players, north_south_level="T", east_west_level="A", first_starter="E"),
    )

    game = Game.objects.get()
    assert (game.north_south_level, game.east_west_level, game.first_starter) == ("T", "A", "E")


def test_it_copies_a_groups_table_into_the_game(member, url, group, players):
    rules = {**PRESETS["kawu"].to_json(), "name": "house"}
    table = ScoringTable.objects.create(group=group, rules_json=rules)

    member.post(url, seats(players, rules=f"table-{table.pk}"))
    table.rules_json = {**PRESETS["simplified"].to_json(), "name": "house"}
    table.save()

    game = Game.objects.get()
    assert game.rules.name == "house"
    assert game.rules.bands == PRESETS["kawu"].bands


def test_it_refuses_the_same_player_in_two_seats(member, url, players):
    data = seats(players, south=str(players["north"].pk))

    response = member.post(url, data)

    assert response.status_code == 200
    assert "Mei already sits North: seat four different players." in response.text
    assert not Game.objects.exists()
    assert f'<option value="{players["north"].pk}" selected>Mei</option>' in response.text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"west": ""}, "This field is required."),
        ({"west": "999999"}, "Select a valid choice."),
        ({"rules": "nonsense"}, "Select a valid choice. nonsense is not one of the"),
        ({"north_south_level": "1"}, "Select a valid choice. 1 is not one of the"),
        ({"first_starter": "X"}, "Select a valid choice. X is not one of the"),
    ],
)
def test_it_never_fails_on_bad_input(member, url, players, change, message):
    response = member.post(url, seats(players, **change))

    assert response.status_code == 200
    assert message in response.text
    assert not Game.objects.exists()


def test_it_refuses_players_and_tables_of_another_group(member, url, players):
    other = Group.objects.create(name="Elsewhere")
    stranger = Player.objects.create(group=other, name="Zoe")
    table = ScoringTable.objects.create(group=other, rules_json=PRESETS["kawu"].to_json())

    response = member.post(url, seats(players, west=str(stranger.pk), rules=f"table-{table.pk}"))

    assert response.status_code == 200
    assert response.text.count("Select a valid choice.") == 2
    assert not Game.objects.exists()


def test_it_adds_a_missing_player_into_the_first_empty_seat(member, url, group, players):
    players["west"].delete()
    data = seats({k: v for k, v in players.items() if k != "west"}, west="", rules="kawu")

    response = member.post(url, {**data, "action": "add_player", "player-name": "Zoe"})

    zoe = group.players.get(name="Zoe")
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert location.path == url
    chosen = parse_qs(location.query)
    assert chosen["west"] == [str(zoe.pk)]
    assert chosen["north"] == [str(players["north"].pk)]
    assert chosen["rules"] == ["kawu"]
    page = member.get(response["Location"]).text
    assert f'<option value="{zoe.pk}" selected>Zoe</option>' in page
    assert '<option value="kawu" selected>' in page
    assert not Game.objects.exists()


def test_it_adds_a_player_in_place_for_htmx(member, url, group, players):
    data = seats(players, east="")

    response = member.post(
        url, {**data, "action": "add_player", "player-name": "Zoe"}, headers={"HX-Request": "true"}
    )

    zoe = group.players.get(name="Zoe")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<form method="post"')
    assert f'<option value="{zoe.pk}" selected>Zoe</option>' in response.text
    assert "<html" not in response.text


def test_it_refuses_a_player_already_on_the_roster_and_keeps_the_seats(member, url, players):
    data = seats(players, west="")

    response = member.post(url, {**data, "action": "add_player", "player-name": "Hao"})

    assert response.status_code == 200
    assert "Hao is already on the roster." in response.text
    assert 'value="Hao"' in response.text
    assert f'<option value="{players["north"].pk}" selected>Mei</option>' in response.text
    assert Player.objects.count() == 4


def test_it_opens_the_add_player_box_while_the_roster_is_short(member, url, group):
    page = member.get(url).text

    assert '<details class="mb-3" id="add-player" open>' in page
