"""Club nights: a member starts an evening for the players present, the app seats each round,
its tables are games of the group, a round cut short ends its games as "ended by the evening",
and the room screen follows every save."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from exchange_documents import import_text
from hands import HELD_FIELDS, held_form

from companion import exchange
from companion.models import (
    Evening,
    EveningTable,
    Game,
    GameEnded,
    GameSummary,
    Player,
    PlayerLadder,
    Round,
    Seat,
)
from companion.models.evenings import EveningOver
from scoring import get_rules
from scoring.evenings import repeats, spread
from scoring.table import Teams
from tests.reading import elements, text

NIGHT = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy")


@pytest.fixture
def night(group, cast) -> list[Player]:
    """The cast's eight and Ivy: nine players at a club night."""
    return [*cast.values(), Player.objects.create(group=group, name="Ivy")]


@pytest.fixture
def start_evening(group, user):
    def start(players, **shape) -> Evening:
        shape = {"rules_json": get_rules("standard").to_json(), **shape}
        return Evening.start(group, players, by=user, **shape)

    return start


def form_of(players, **changes) -> dict:
    return {
        "present": [player.pk for player in players],
        "players_per_table": "4",
        "teams": "partners",
        "seating": "new-partners",
        "leftover": "sit-out",
        "rules": "standard",
        "trumps": "bid",
        **changes,
    }


def chosen(page: str, name: str) -> list[str]:
    """The choices of a field the page shows ticked."""
    return [button.attrs["value"] for button in elements(page, f'input[name="{name}"][checked]')]


def evening_url(evening: Evening) -> str:
    return reverse("evening", args=[evening.group_id, evening.pk])


def record(game: Game, user, declarer: int = 0, points: int = 45) -> None:
    game.refresh_from_db()
    fields = {**HELD_FIELDS, "declarer": declarer, "opponent_points": points}
    game.record_hand(fields, version=game.version, request_key="", by=user)


def test_it_starts_an_evening_for_the_players_ticked_and_proposes_the_first_round(
    member, group, night
):
    response = member.post(reverse("evening_new", args=[group.pk]), form_of(night))
    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response.url == evening_url(evening)
    page = text(member.get(response.url))
    assert "Round 1: the seating" in text(page)
    assert "Table 1" in page and "Table 2" in page
    assert "Sitting out:" in text(page)
    assert "Start round 1" in text(page)
    proposed = evening.current_round()
    assert proposed.started is None
    assert sorted([*proposed.seated_ids(), *proposed.sitting_out]) == sorted(p.pk for p in night)
    assert [len(table) for table in proposed.tables] == [4, 4]
    assert not Game.objects.exists()


def test_it_leads_from_the_group_page_to_the_club_night_under_way(
    member, group, night, start_evening
):
    evening = start_evening(night)
    response = member.get(reverse("group", args=[group.pk]))
    assert "The club night under way: its tables and standings" in text(response)
    assert evening_url(evening) in response.text
    evening.end()
    page = text(member.get(reverse("group", args=[group.pk])))
    assert "The club night under way" not in page


def test_it_asks_for_enough_players_for_a_table(member, group, night):
    response = member.post(reverse("evening_new", args=[group.pk]), form_of(night[:3]))
    assert response.status_code == 200
    assert "Tick at least 4 players: a table seats 4." in text(response)
    assert not Evening.objects.exists()


def test_it_seats_no_more_players_than_an_evening_can(member, group, night, start_evening):
    crowd = [Player.objects.create(group=group, name=f"Player {n}") for n in range(60)]
    response = member.post(reverse("evening_new", args=[group.pk]), form_of([*night, *crowd]))
    assert "An evening seats 64 players at most." in text(response)
    assert not Evening.objects.exists()
    evening = start_evening([*night[:4], *crowd])
    response = member.post(evening_url(evening) + "join/", {"player": night[4].pk}, follow=True)
    assert "An evening seats 64 players at most." in text(response)
    assert len(evening.present()) == 64


def test_it_says_which_table_sizes_the_teams_refuse(member, group, night):
    data = form_of(night, players_per_table="5")
    response = member.post(reverse("evening_new", args=[group.pk]), data)
    assert "Partners tables don't seat 5 players." in text(response)
    assert not Evening.objects.exists()


def test_it_preselects_the_shape_of_the_groups_last_game(member, group, night, user):
    Game.start(group, night[:6], get_rules("open-ladder"), teams=Teams.PAIRS, by=user)
    page = member.get(reverse("evening_new", args=[group.pk])).text
    assert chosen(page, "players_per_table") == ["6"]
    assert chosen(page, "teams") == ["pairs"]
    assert '<option value="open-ladder" selected>' in page


def test_it_preselects_the_last_evenings_choices(member, group, night, start_evening):
    start_evening(night, seating="balanced", hands_per_round=8)
    page = member.get(reverse("evening_new", args=[group.pk])).text
    assert chosen(page, "seating") == ["balanced"]
    assert 'name="hands_per_round" value="8"' in page


def test_it_swaps_two_players_before_the_round_starts(member, night, start_evening):
    evening = start_evening(night)
    proposed = evening.current_round()
    first, out = proposed.tables[0][0], proposed.sitting_out[0]
    response = member.post(
        evening_url(evening) + "swap/", {"first": first, "second": out}, follow=True
    )
    assert "swapped places" in text(response)
    proposed.refresh_from_db()
    assert proposed.tables[0][0] == out
    assert proposed.sitting_out == [first]


def test_it_says_when_two_players_who_sit_out_are_swapped(member, group, night, start_evening):
    evening = start_evening([*night, Player.objects.create(group=group, name="Jo")])
    first, second = evening.current_round().sitting_out
    response = member.post(
        evening_url(evening) + "swap/", {"first": first, "second": second}, follow=True
    )
    names = {player.pk: player.name for player in Player.objects.filter(pk__in=[first, second])}
    assert f"{names[first]} and {names[second]} both sit out." in text(response)
    response = member.post(
        evening_url(evening) + "swap/", {"first": first, "second": first}, follow=True
    )
    assert "Choose two different players." in text(response)


def test_it_changes_nothing_in_an_evening_that_has_ended(night, start_evening):
    evening = start_evening(night)
    evening.end()
    for change in (evening.next_round, evening.start_round, lambda: evening.end()):
        with pytest.raises(EveningOver):
            change()
    with pytest.raises(EveningOver):
        evening.set_present(night[0], False)
    assert not Game.objects.exists()
    assert not evening.rounds.exists()


def test_it_refuses_a_swap_once_the_round_has_started(member, night, start_evening):
    evening = start_evening(night)
    proposed = evening.current_round()
    evening.start_round()
    first, second = proposed.tables[0][0], proposed.tables[1][0]
    response = member.post(
        evening_url(evening) + "swap/", {"first": first, "second": second}, follow=True
    )
    proposed.refresh_from_db()
    assert proposed.tables[0][0] == first
    assert response.status_code == 200


def test_it_answers_htmx_with_the_evening_and_what_changed(member, night, start_evening):
    evening = start_evening(night)
    response = member.post(evening_url(evening) + "start/", headers={"HX-Request": "true"})
    assert response.text.lstrip().startswith('<div id="evening-body">')
    assert "Round 1 has started." in text(response)
    assert "Next round" in text(response)
    # Said once: the next page does not say it again.
    assert "Round 1 has started." not in text(member.get(evening_url(evening)))


MUS = (40, 35, 30, 25, 20, 15, 10, 5)


def test_it_balances_the_tables_by_the_players_ratings(member, group, night, start_evening):
    eight = night[:8]
    for mu, player in zip(MUS, eight, strict=True):
        PlayerLadder.objects.create(player=player, group=group, stats={}, mu=mu, sigma=2, rated=3)
    evening = start_evening(eight, seating="balanced")
    seating = evening.current_round().seating
    ratings = {player.pk: mu - 6 for mu, player in zip(MUS, eight, strict=True)}
    # The ordinals (mu - 3 sigma) of eight players: 34 29 24 19 14 9 4 -1; four teams of two
    # whose sums differ by nothing at each table are possible.
    assert spread(seating, ratings) == 0
    page = text(member.get(evening_url(evening)))
    assert "Balanced by rating: a table's teams differ by at most 0.0 rating points." in text(page)


def test_it_starts_a_round_with_a_game_at_each_table(member, night, start_evening):
    evening = start_evening(night)
    proposed = evening.current_round()
    response = member.post(evening_url(evening) + "start/", follow=True)
    page = text(response)
    assert "Round 1 has started." in text(page)
    games = [table.game for table in EveningTable.objects.order_by("number")]
    assert [[p.pk for p in game.players] for game in games] == proposed.tables
    for game in games:
        assert reverse("game", args=[game.group_id, game.pk]) in response.text
        assert GameSummary.objects.filter(game=game).exists()


def test_it_ends_the_games_a_round_cuts_short_and_seats_new_partners(
    member, night, start_evening, user
):
    evening = start_evening(night, seating="new-partners")
    first = evening.start_round()
    games = [table.game for table in first.tables_played.all()]
    record(games[0], user)
    response = member.post(evening_url(evening) + "next/", follow=True)
    assert "Round 2: the seating" in text(response)
    assert EveningTable.objects.filter(ended__isnull=False).count() == 2
    first.refresh_from_db()
    assert first.ended is not None
    second = evening.current_round()
    assert repeats(second.seating, [first.seating]) == 0
    assert "nobody plays with a partner they had earlier" in text(response)
    # The one who sat out plays this round.
    assert first.sitting_out[0] in second.seated_ids()


def test_it_takes_no_more_hands_in_a_game_the_evening_ended(member, night, start_evening, user):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    record(game, user)
    evening.next_round()
    with pytest.raises(GameEnded):
        record(game, user)
    url = reverse("hand_new", args=[game.group_id, game.pk])
    response = member.post(url, held_form(version=game.version), follow=True)
    page = text(response)
    assert "The club night ended this game with round 1: no more hands to record." in text(page)
    assert "Record a hand" not in page
    assert game.hands.count() == 1


def test_it_keeps_a_hand_sent_for_an_ended_game_and_says_why(member, night, start_evening, user):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    evening.next_round()
    game.refresh_from_db()
    url = reverse("hand_new", args=[game.group_id, game.pk])
    response = member.post(url, held_form(version=game.version))
    assert response.status_code == 200
    assert "no more hands to record" in text(response)
    assert 'name="opponent_points" value="45"' in response.text
    sent = member.post(url, held_form(version=game.version), headers={"Kept-Hand": "true"})
    assert sent.status_code == 409
    assert sent["Hand-Unstorable"] == "true"
    assert "The club night ended this game with round 1" in text(sent.content.decode())
    assert not game.hands.exists()


def test_it_refuses_a_correction_that_would_win_a_game_the_evening_ended(
    member, night, start_evening, user
):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    Seat.objects.filter(game=game).update(level="A")
    record(game, user, points=80)  # the opponents take the deal at A: nobody wins
    evening.next_round()
    url = reverse("hand_edit", args=[game.group_id, game.pk, 1])
    game.refresh_from_db()
    response = member.post(url, held_form(version=game.version))
    assert "a game the evening ended is not won" in text(response)
    assert game.hands.get().opponent_points == 80
    assert GameSummary.objects.get(game=game).winners == ""


def test_it_stops_a_table_at_the_rounds_hands(member, night, start_evening, user):
    evening = start_evening(night, hands_per_round=2)
    game = evening.start_round().tables_played.first().game
    record(game, user)
    record(game, user, declarer=2)
    response = member.get(reverse("hand_new", args=[game.group_id, game.pk]), follow=True)
    assert "This table has played the round's 2 hands" in text(response)


def test_it_shows_a_table_that_played_the_rounds_hands_why_instead_of_record_a_hand(
    member, night, start_evening, user
):
    evening = start_evening(night, hands_per_round=2)
    game = evening.start_round().tables_played.first().game
    record(game, user)
    page = text(member.get(game.get_absolute_url()))
    assert "Record a hand" in text(page)
    record(game, user, declarer=2)
    page = text(member.get(game.get_absolute_url()))
    assert "This table has played the round's 2 hands" in text(page)
    assert "Record a hand" not in page


def test_it_counts_a_cut_short_game_for_levels_and_hands_not_as_won_nor_rated(
    night, start_evening, user, group
):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    record(game, user, points=0)  # the declarers climb 3
    evening.next_round()
    summary = GameSummary.objects.get(game=game)
    assert summary.winners == ""
    assert summary.hand_count == 1
    assert not PlayerLadder.objects.filter(rated__gt=0).exists()
    from companion.room import board

    lines = {row["name"]: row["line"] for row in board(evening)["standings"]}
    declarer = game.players[0].name
    assert (lines[declarer].won, lines[declarer].levels, lines[declarer].hands) == (0, 3, 1)
    assert lines[declarer].levels_declaring == 3


def test_it_says_when_the_rounds_time_is_up(member, client, night, start_evening):
    evening = start_evening(night, minutes_per_round=30)
    started = evening.start_round()
    page = text(member.get(evening_url(evening)))
    assert "The round lasts 30 minutes, until" in text(page)
    assert "time is up" not in page.lower()
    Round.objects.filter(pk=started.pk).update(started=started.started - timedelta(minutes=31))
    page = text(member.get(evening_url(evening)))
    assert "The round's time is up: finish the hand being played" in text(page)
    room = text(client.get(reverse("evening_room", args=[evening.share_token])))
    assert "Round 1 · time is up" in room


def test_it_lets_players_join_and_leave_between_rounds(member, night, start_evening):
    evening = start_evening(night[:8])
    member.post(evening_url(evening) + "leave/", {"player": night[0].pk})
    proposed = evening.current_round()
    assert night[0].pk in proposed.sitting_out or night[0].pk not in proposed.seated_ids()
    assert night[0].pk not in [*proposed.seated_ids(), *proposed.sitting_out]
    assert [len(table) for table in proposed.tables] == [4]
    member.post(evening_url(evening) + "join/", {"player": night[0].pk})
    member.post(evening_url(evening) + "join/", {"player": night[8].pk})
    proposed = evening.current_round()
    assert [len(table) for table in proposed.tables] == [4, 4]
    assert len(proposed.sitting_out) == 1
    assert Round.objects.filter(evening=evening).count() == 1


def test_it_seats_the_next_round_when_enough_players_are_back(member, night, start_evening):
    evening = start_evening(night[:4])
    evening.start_round()
    member.post(evening_url(evening) + "leave/", {"player": night[0].pk})
    response = member.post(evening_url(evening) + "next/", follow=True)
    assert "Too few players are here to seat a table" in text(response)
    assert evening.current_round().number == 1
    member.post(evening_url(evening) + "join/", {"player": night[4].pk})
    proposed = evening.current_round()
    assert (proposed.number, proposed.started) == (2, None)
    assert night[4].pk in proposed.seated_ids()
    assert night[0].pk not in proposed.seated_ids()


def test_it_seats_mixed_sizes_where_the_shape_allows(start_evening, night):
    evening = start_evening(night[:6] + night[7:8] + night[8:], leftover="mixed")
    proposed = evening.current_round()
    assert sorted(len(table) for table in proposed.tables) == [4, 4]
    evening = start_evening(night[:6], leftover="mixed")
    assert [len(table) for table in evening.current_round().tables] == [6]


def test_it_ends_the_evening(member, night, start_evening):
    evening = start_evening(night)
    evening.start_round()
    response = member.post(evening_url(evening) + "end/", follow=True)
    page = text(response)
    assert "The evening is over." in text(page)
    assert "Next round" not in page
    evening.refresh_from_db()
    assert evening.ended is not None
    assert EveningTable.objects.filter(ended__isnull=True).count() == 0
    response = member.post(evening_url(evening) + "next/", follow=True)
    assert "The evening is over: nothing more can change in it." in text(response)


def test_it_shows_an_evening_to_members_only(client, outsider, night, start_evening):
    evening = start_evening(night)
    client.force_login(outsider)
    assert client.get(evening_url(evening)).status_code == 404
    assert client.get(reverse("evening_new", args=[evening.group_id])).status_code == 404


def test_it_shows_the_room_screen_without_an_account(client, night, start_evening, user):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    record(game, user)
    response = client.get(reverse("evening_room", args=[evening.share_token]))
    page = text(response)
    assert "Thursday Tractor's club night" in text(page)
    assert "Table 1" in page and "Table 2" in page
    assert "1 hand" in text(page)
    assert "Standings" in page
    assert "Ranked by games won" in text(page)
    assert "<form" not in response.text.split("<footer")[0].split("</nav>")[1]


def test_it_answers_a_room_poll_with_nothing_until_a_save(client, night, start_evening, user):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    url = reverse("evening_room", args=[evening.share_token])
    page = client.get(url).text
    assert text(page).count("The first bid decides who declares.") == 2
    since = page.split("?since=")[1].split('"')[0]
    polled = client.get(url, {"since": since}, headers={"HX-Request": "true"})
    assert polled.status_code == 204
    record(game, user)
    polled = client.get(url, {"since": since}, headers={"HX-Request": "true"})
    assert polled.status_code == 200
    assert "1 hand" in text(polled)
    # Mei's side held: her partner starts the next hand.
    assert f"{game.players[2].name} to declare." in text(polled)
    assert 'id="room"' in polled.text
    assert "<html" not in polled.text


@pytest.mark.parametrize("hands", [3, 30])
def test_it_polls_the_room_screen_in_a_fixed_number_of_queries(
    client, group, cast, start_evening, endless_hands, django_assert_num_queries, hands
):
    twelve = [*cast.values(), *(Player.objects.create(group=group, name=n) for n in "WXYZ")]
    evening = start_evening(twelve)
    evening.start_round()
    for table in EveningTable.objects.all():
        endless_hands(table.game, hands)
        GameSummary.bring_up_to_date([table.game])
    url = reverse("evening_room", args=[evening.share_token])
    with django_assert_num_queries(9):
        response = client.get(url, {"since": "0-0"}, headers={"HX-Request": "true"})
    assert f"{hands} hands" in text(response)
    with django_assert_num_queries(1):
        client.get(
            url,
            {"since": response.text.split("?since=")[1].split('"')[0]},
            headers={"HX-Request": "true"},
        )


def test_it_lists_the_groups_evenings_as_units_of_its_history(member, night, start_evening):
    evening = start_evening(night)
    evening.start_round()
    evening.next_round()
    page = member.get(reverse("evenings", args=[evening.group_id])).text
    assert evening_url(evening) in page
    assert "Club night of" in text(page)
    history = text(member.get(reverse("group_history", args=[evening.group_id])))
    assert "2 games" in history or "2 game" in history


def test_it_exports_an_evening_with_its_games_in_version_5(night, start_evening, user, group):
    evening = start_evening(night)
    game = evening.start_round().tables_played.first().game
    record(game, user, points=0)
    evening.next_round()
    exported = json.loads(exchange.dumps(group))
    assert exported["version"] == 5
    assert len(exported["games"]) == 2
    assert [table["game"] for table in exported["evenings"][0]["rounds"][0]["tables"]] == [1, 2]
    copy_ = import_text(exchange.dumps(group), name="Copy", members=[user])
    assert copy_.games.count() == 2
    assert copy_.evenings.get().rounds.count() == 2
    assert sum(game.hands.count() for game in copy_.games.all()) == 1
