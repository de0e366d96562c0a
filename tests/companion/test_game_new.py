"""Starting a game: four to eight players of the roster in play order, the rules, the decks,
the teams, the trump, the starting levels and who starts hand 1."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from companion.models import Game, Group, Player, ScoringTable
from scoring import PRESETS, TrumpRule
from tests.reading import text, texts

pytestmark = pytest.mark.django_db

MORE = ("Wei", "Yan", "Zhao", "Xiu")


@pytest.fixture
def url(group):
    return f"/groups/{group.pk}/games/new/"


@pytest.fixture
def everyone(group, players) -> list[Player]:
    """The cast and four more, in play order: Mei, Jun, Lin, Hao, Wei, Yan, Zhao, Xiu."""
    return players + [Player.objects.create(group=group, name=name) for name in MORE]


def seats(players, **changes) -> dict:
    """A new game of ``players`` in play order, under standard rules, as the form posts it."""
    data = {
        **{f"seat_{number}": str(player.pk) for number, player in enumerate(players, start=1)},
        "rules": "standard",
        "teams": "partners",
        "decks": "",
        "trumps": "bid",
        "first_declarer": "",
    }
    return data | changes


def started(game: Game) -> list[str]:
    return [player.name for player in game.players]


def test_it_offers_the_roster_the_presets_and_the_groups_tables(member, url, group, players):
    table = ScoringTable.objects.create(
        group=group, rules_json={**PRESETS["kawu"].to_json(), "name": "house"}
    )

    page = member.get(url).text

    for name in ("Mei", "Jun", "Lin", "Hao"):
        assert name in texts(page, "option")
    for name in PRESETS:
        assert f'<option value="{name}"' in page
    assert f'<option value="table-{table.pk}">house</option>' in page
    assert '<option value="T">10</option>' in page
    assert "Partners are every other player" in text(page)
    assert page.count('name="seat_') == 8
    for teams in ("Partners", "Pairs", "Find a friend"):
        assert teams in texts(page, "label")


def test_it_starts_a_game_and_goes_to_its_scoreboard(member, url, group, players, user):
    response = member.post(url, seats(players))

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[group.pk, game.pk])
    assert started(game) == ["Mei", "Jun", "Lin", "Hao"]
    assert game.rules_json == PRESETS["standard"].to_json()
    assert (game.decks, game.teams, game.trumps, game.called) == (2, "partners", "bid", None)
    assert [seat.level for seat in game.seated] == ["2", "2", "2", "2"]
    assert game.first_declarer is None
    assert game.created_by == user
    assert game.group == group


def test_a_team_starts_at_the_level_given_for_either_of_its_players(member, url, players):
    member.post(url, seats(players, level_3="T", level_2="A", first_declarer=str(players[1].pk)))

    game = Game.objects.get()
    assert [seat.level for seat in game.seated] == ["T", "A", "T", "A"]
    assert game.first_declarer == 1


def test_team_mates_given_two_levels_are_asked_for_one(member, url, players):
    response = member.post(url, seats(players, level_1="5", level_3="7"))

    assert response.status_code == 200
    assert "Mei and Lin are a team and start at one level." in text(response.text)
    assert not Game.objects.exists()


def test_it_proposes_the_decks_from_the_table_size(member, url, everyone):
    for count, decks in ((4, 2), (6, 3), (8, 4)):
        member.post(url, seats(everyone[:count]))
        assert Game.objects.latest("pk").decks == decks

    member.post(url, seats(everyone[:6], decks="2"))
    assert Game.objects.latest("pk").decks == 2


def test_it_shows_the_table_the_choices_make_as_they_change(member, url, everyone):
    response = member.post(
        url, {**seats(everyone[:6]), "preview": "1"}, headers={"HX-Request": "true"}
    )

    assert response.text.lstrip().startswith('<section id="table-summary" class="mb-3">')
    assert "6 players with 3 decks: 26 cards each, a kitty of 6." in text(response.text)
    assert "Mei, Lin & Wei" in text(response)
    assert "Jun, Hao & Yan" in text(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize("htmx", [True, False])
def test_it_previews_the_table_without_starting_a_game_with_or_without_htmx(
    member, url, everyone, htmx
):
    headers = {"HX-Request": "true"} if htmx else {}

    response = member.post(url, {**seats(everyone[:6]), "preview": "1"}, headers=headers)

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="table-summary"') is htmx
    # A screen reader hears the new summary: htmx swaps it inside a live region that stays.
    if not htmx:
        assert re.search(r'<div aria-live="polite">\s*<section id="table-summary"', response.text)
    assert "6 players with 3 decks: 26 cards each, a kitty of 6." in text(response.text)
    assert not Game.objects.exists()


def test_it_starts_a_six_player_find_a_friend_game_with_each_player_s_level(member, url, everyone):
    member.post(url, seats(everyone[:6], teams="find-a-friend", level_2="5", level_6="Q"))

    game = Game.objects.get()
    assert started(game) == ["Mei", "Jun", "Lin", "Hao", "Wei", "Yan"]
    assert (game.decks, game.teams, game.called) == (3, "find-a-friend", 1)
    assert [seat.level for seat in game.seated] == ["2", "5", "2", "2", "2", "Q"]


def test_eight_players_finding_friends_call_two_cards_unless_told(member, url, everyone):
    member.post(url, seats(everyone, teams="find-a-friend"))
    member.post(url, seats(everyone, teams="find-a-friend", called="1"))

    assert list(Game.objects.order_by("pk").values_list("called", flat=True)) == [2, 1]


def test_it_starts_a_pairs_game_of_eight(member, url, everyone):
    member.post(url, seats(everyone, teams="pairs", level_5="4"))

    game = Game.objects.get()
    assert (game.decks, game.teams) == (4, "pairs")
    # Mei and Wei sit opposite: a pair.
    assert [seat.level for seat in game.seated] == ["4", "2", "2", "2", "4", "2", "2", "2"]
    assert game.table.fixed == ((0, 4), (1, 5), (2, 6), (3, 7))


def test_partners_who_ask_no_cards_called_call_none(member, url, players):
    member.post(url, seats(players, called="2"))

    assert Game.objects.get().called is None


@pytest.mark.parametrize(
    ("count", "teams", "field", "message"),
    [
        (5, "partners", "teams", "partners need an even number of players (4, 6 or 8), got 5"),
        (4, "pairs", "teams", "pairs need 6 or 8 players, got 4"),
        (7, "pairs", "teams", "pairs need 6 or 8 players, got 7"),
    ],
)
def test_the_engine_says_which_sizes_the_teams_fit_beside_the_teams(
    member, url, everyone, count, teams, field, message
):
    response = member.post(url, seats(everyone[:count], teams=teams))

    assert response.status_code == 200
    beside = response.text.split(">Teams</legend>")[1].split("</fieldset>")[0]
    assert message in beside
    assert not Game.objects.exists()


def test_a_fixed_trump_rotation_is_kept_in_the_order_given(member, url, players):
    member.post(
        url,
        seats(
            players,
            trumps="fixed",
            suit_1="H",
            suit_2="",
            suit_3="S",
            first_declarer=str(players[2].pk),
        ),
    )

    game = Game.objects.get()
    assert game.trumps == ["H", "S"]
    assert TrumpRule.from_json(game.trumps).fixed(3) is not None
    assert game.first_declarer == 2


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"trumps": "fixed"},
            "trumps",
            "Choose the trump suits, in the order the hands take them.",
        ),
        (
            {"trumps": "fixed", "suit_1": "H", "suit_2": "H", "first_declarer": "{lin}"},
            "trumps",
            "a trump rotation is 1 to 4 different suits, got &#x27;H H&#x27;",
        ),
        (
            {"trumps": "no-trump"},
            "first_declarer",
            "Nobody bids for hand 1 at this table: choose who starts it.",
        ),
        (
            {"rules": "kawu"},
            "first_declarer",
            "Nobody bids for hand 1 at this table: choose who starts it.",
        ),
        ({"first_declarer": "{zoe}"}, "first_declarer", "Select a valid choice."),
    ],
)
def test_it_names_what_a_table_lacks_beside_its_field(
    member, url, group, players, changes, field, message
):
    zoe = Player.objects.create(group=Group.objects.create(name="Elsewhere"), name="Zoe")
    names = {"{lin}": str(players[2].pk), "{zoe}": str(zoe.pk)}
    changes = {key: names.get(value, value) for key, value in changes.items()}

    response = member.post(url, seats(players, **changes))

    assert response.status_code == 200
    assert message in response.text
    assert not Game.objects.exists()


def test_who_starts_hand_1_must_sit_at_the_table(member, url, everyone):
    response = member.post(url, seats(everyone[:4], first_declarer=str(everyone[5].pk)))

    assert "Yan is not at this table." in text(response.text)
    assert not Game.objects.exists()


def test_a_kawu_game_starts_with_the_player_chosen(member, url, players):
    member.post(url, seats(players, rules="kawu", first_declarer=str(players[3].pk)))

    game = Game.objects.get()
    assert game.first_declarer == 3
    assert "Hao starts hand 1 at level 2." in text(member.get(game.get_absolute_url()).text)


def test_it_copies_a_groups_table_into_the_game(member, url, group, players):
    rules = {**PRESETS["kawu"].to_json(), "name": "house"}
    table = ScoringTable.objects.create(group=group, rules_json=rules)

    member.post(url, seats(players, rules=f"table-{table.pk}", first_declarer=str(players[0].pk)))
    table.rules_json = {**PRESETS["simplified"].to_json(), "name": "house"}
    table.save()

    game = Game.objects.get()
    assert game.rules.name == "house"
    assert game.rules.bands == PRESETS["kawu"].bands


def test_a_groups_table_works_at_a_find_a_friend_table_of_six(member, url, group, everyone):
    rules = {**PRESETS["simplified"].to_json(), "name": "house"}
    table = ScoringTable.objects.create(group=group, rules_json=rules)

    member.post(url, seats(everyone[:6], rules=f"table-{table.pk}", teams="find-a-friend"))

    game = Game.objects.get()
    assert (game.rules.name, game.teams, game.decks) == ("house", "find-a-friend", 3)


def test_it_refuses_the_same_player_in_two_seats(member, url, players):
    data = seats(players, seat_3=str(players[0].pk))

    response = member.post(url, data)

    assert response.status_code == 200
    assert "Mei already has a seat: choose each player once." in text(response.text)
    assert not Game.objects.exists()
    assert f'<option value="{players[0].pk}" selected>Mei</option>' in response.text


def test_an_empty_seat_between_players_closes_up(member, url, everyone):
    member.post(url, seats(everyone[:4], seat_6=str(everyone[5].pk), seat_7=str(everyone[4].pk)))

    assert started(Game.objects.get()) == ["Mei", "Jun", "Lin", "Hao", "Yan", "Wei"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seat_4": ""}, "This field is required."),
        ({"seat_4": "999999"}, "Select a valid choice."),
        ({"rules": "nonsense"}, "Select a valid choice. nonsense is not one of the"),
        ({"level_1": "1"}, "Select a valid choice. 1 is not one of the"),
        ({"teams": "everyone"}, "Select a valid choice. everyone is not one of the"),
        ({"decks": "9"}, "Select a valid choice. 9 is not one of the"),
        ({"trumps": "X"}, "Select a valid choice. X is not one of the"),
        ({"first_declarer": "X"}, "Select a valid choice."),
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

    response = member.post(url, seats(players, seat_4=str(stranger.pk), rules=f"table-{table.pk}"))

    assert response.status_code == 200
    assert response.text.count("Select a valid choice.") == 2
    assert not Game.objects.exists()


def test_it_adds_a_missing_player_into_the_first_empty_seat(member, url, group, players):
    players[3].delete()
    data = seats(players[:3], rules="kawu")

    response = member.post(url, {**data, "action": "add_player", "player-name": "Zoe"})

    zoe = group.players.get(name="Zoe")
    assert response.status_code == 302
    location = urlsplit(response["Location"])
    assert location.path == url
    chosen = parse_qs(location.query)
    assert chosen["seat_4"] == [str(zoe.pk)]
    assert chosen["seat_1"] == [str(players[0].pk)]
    assert chosen["rules"] == ["kawu"]
    page = member.get(response["Location"]).text
    assert f'<option value="{zoe.pk}" selected>Zoe</option>' in page
    assert '<option value="kawu" selected>' in page
    assert not Game.objects.exists()


def test_it_adds_a_player_in_place_for_htmx(member, url, group, players):
    data = seats(players, seat_2="")

    response = member.post(
        url, {**data, "action": "add_player", "player-name": "Zoe"}, headers={"HX-Request": "true"}
    )

    zoe = group.players.get(name="Zoe")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<form method="post"')
    assert f'<option value="{zoe.pk}" selected>Zoe</option>' in response.text
    assert "<html" not in response.text


def test_a_fifth_player_added_makes_five_players(member, url, group, players):
    data = {**seats(players), "players": "4", "action": "add_player", "player-name": "Wei"}

    response = member.post(url, data)

    page = member.get(response["Location"]).text
    wei = group.players.get(name="Wei")
    assert re.search(r'name="players" id="[^"]+"\s+value="5" autocomplete="off" checked', page)
    assert f'<option value="{wei.pk}" selected>Wei</option>' in page


def test_it_shows_a_seat_for_each_player_it_may_seat(member, url):
    page = member.get(url).text

    # Seats past the players chosen are hidden by the stylesheet (four at first).
    assert re.search(r'name="players" id="[^"]+"\s+value="4" autocomplete="off" checked', page)
    assert '<div class="seat-row past-4 past-5 past-6 past-7" id="seat-8">' in page
    assert '<div class="seat-row " id="seat-4">' in page


def test_it_seats_only_as_many_as_the_players_chosen(member, url, everyone):
    member.post(url, {**seats(everyone[:6], teams="find-a-friend"), "players": "5"})

    assert started(Game.objects.get()) == ["Mei", "Jun", "Lin", "Hao", "Wei"]


def test_it_names_a_seat_left_empty_among_the_players_chosen(member, url, everyone):
    response = member.post(url, {**seats(everyone[:5], teams="find-a-friend"), "players": "6"})

    assert response.status_code == 200
    assert "Choose who sits in seat 6, or choose fewer players." in text(response.text)
    assert not Game.objects.exists()


def test_it_refuses_a_player_already_on_the_roster_and_keeps_the_seats(member, url, players):
    data = seats(players, seat_4="")

    response = member.post(url, {**data, "action": "add_player", "player-name": "Hao"})

    assert response.status_code == 200
    assert "Hao is already on the roster." in text(response.text)
    assert 'value="Hao"' in response.text
    assert f'<option value="{players[0].pk}" selected>Mei</option>' in response.text
    assert Player.objects.count() == 4


def test_it_opens_the_add_player_box_while_the_roster_is_short(member, url, group):
    page = member.get(url).text

    assert '<details class="mb-3" id="add-player" open>' in page
