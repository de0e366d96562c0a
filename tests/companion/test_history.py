"""The group's ladder history: every game with its result, filters, the ratings, and the summaries
that spare the page a replay of every hand (and always agree with one), at every shape of table."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone, translation
from django.utils.formats import date_format
from hands import result
from history_games import (
    VARIANTS,
    make_games,
    next_hand,
    replayed_ladder,
    save_game,
    seated,
    stored_ladder,
)
from openskill.models import PlackettLuce

import companion.charts
import companion.ratings
from companion.models import Game, GameSummary
from companion.ratings import replay_ratings
from companion.templatetags.ladder import together
from scoring.stats import GameRecord, player_stats
from scoring.table import Teams
from tests.reading import elements, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_games(group, cast) -> tuple[Game, Game]:
    """Last March, Mei and Lin beat Jun and Hao at A; this week Ed sat in for Hao, unfinished."""
    now = timezone.localtime()
    won = save_game(
        group,
        seated(cast, "Mei Jun Lin Hao"),
        "standard",
        [result(0, 45), result(2, 0)],
        levels=("K", "2", "K", "2"),
        created=now.replace(year=now.year - 1, month=3, day=14),
    )
    unfinished = save_game(
        group,
        seated(cast, "Jun Mei Ed Lin"),
        "kawu",
        [result(1, 50)],
        created=now - timedelta(days=2),
        first_declarer=1,
    )
    return won, unfinished


@pytest.fixture
def friendly(group, cast) -> Game:
    """Yesterday five played find-a-friend: Hao and Mei lost the deal to Wei, who from A found
    no friend and won alone."""
    return save_game(
        group,
        seated(cast, "Wei Mei Jun Lin Hao"),
        "standard",
        [result(4, 80, friends=(1,)), result(0, 40)],
        levels=("A", "2", "2", "2", "2"),
        created=timezone.now() - timedelta(days=1),
        teams=Teams.FIND_A_FRIEND,
    )


def url(group) -> str:
    return f"/groups/{group.pk}/history/"


def game_rows(page) -> dict[str, str]:
    """Each game's row as a player reads it, by the game's address, top to bottom."""
    return {row.attrs["href"]: text(row) for row in elements(page, "a.list-group-item")}


def test_it_lists_every_game_with_its_date_teams_rules_result_and_length(member, group, two_games):
    won, unfinished = two_games

    page = member.get(url(group)).text

    assert page.index(f"/games/{unfinished.pk}/") < page.index(f"/games/{won.pk}/")
    said = text(page)
    assert "Mei & Lin" in said and "Jun & Hao" in said and "Jun & Ed" in said
    assert date_format(won.created, "SHORT_DATE_FORMAT") in said
    assert "Standard" in said and "Kawu" in said
    assert "Mei & Lin won" in said
    assert "2 hands" in said and "1 hand ·" in said
    assert "in progress" in said
    assert "2 games · 3 hands" in said


def test_a_row_shows_where_each_team_stands_in_an_unfinished_game(member, group, two_games):
    rows = game_rows(member.get(url(group)))

    # Mei (seat 1) and Lin (seat 3) held once under kawu: they climbed to 3, and lead.
    assert "Mei & Lin 3 · Jun & Ed 2" in rows[two_games[1].get_absolute_url()]


def test_a_find_a_friend_row_names_every_player_and_the_lone_winner(
    member, group, two_games, friendly
):
    row = game_rows(member.get(url(group)))[friendly.get_absolute_url()]

    assert "Wei · Mei · Jun" in row
    assert "Find a friend · 2 hands" in row
    assert "Wei won" in row


def test_a_row_says_when_a_table_plays_with_other_decks_or_in_pairs(member, group, cast):
    pairs = save_game(
        group, seated(cast, "Mei Jun Lin Hao Ed Wei"), "standard", [], teams=Teams.PAIRS
    )
    four_with_three = save_game(group, seated(cast, "Mei Jun Lin Hao"), "standard", [], decks=3)

    rows = game_rows(member.get(url(group)))

    pairs_row = rows[pairs.get_absolute_url()]
    assert "Mei & Hao" in pairs_row and "Jun & Ed" in pairs_row
    assert "Pairs · 0 hands" in pairs_row
    assert "3 decks · 0 hands" in rows[four_with_three.get_absolute_url()]


def test_it_filters_by_player(member, group, two_games, cast):
    won = two_games[0]

    page = member.get(url(group), {"player": cast["Hao"].pk}).text

    assert list(game_rows(page)) == [won.get_absolute_url()]
    assert "1 game · 2 hands" in text(page)


def test_it_filters_by_period(member, group, two_games):
    won, unfinished = two_games

    recent = game_rows(member.get(url(group), {"period": "12m"}))
    last_year = game_rows(member.get(url(group), {"period": str(won.created.year)}))

    assert list(recent) == [unfinished.get_absolute_url()]
    assert list(last_year) == [won.get_absolute_url()]


def test_htmx_gets_only_the_filtered_results(member, group, two_games, cast):
    response = member.get(url(group), {"player": cast["Ed"].pk}, headers={"HX-Request": "true"})

    assert response.text.lstrip().startswith('<section id="history-results"')
    assert "1 game · 1 hand" in text(response)
    assert "Ratings" not in response.text


def test_an_unknown_filter_shows_everything_and_says_so(member, group, two_games):
    page = text(member.get(url(group), {"player": "999999"}))

    assert "2 games · 3 hands" in text(page)
    assert "Select a valid choice" in text(page)


def test_it_ranks_the_players_of_finished_games_by_rating(member, group, two_games, cast):
    page = member.get(url(group)).text

    ratings = text(page, "#ratings")
    names = [name for name in ("Mei", "Lin", "Jun", "Hao") if name in ratings]
    assert names == ["Mei", "Lin", "Jun", "Hao"]
    assert ratings.index("Mei") < ratings.index("Jun")
    assert "Not rated yet:" in text(page) and f"/players/{cast['Ed'].pk}/" in page


def test_a_lone_winner_of_find_a_friend_rises_above_the_four_she_beat(
    member, group, friendly, cast
):
    ratings = text(member.get(url(group)), "#ratings")

    assert ratings.index("Wei") < min(ratings.index(name) for name in ("Mei", "Jun", "Lin"))


def test_it_draws_the_opponents_totals_against_the_bands(member, group, two_games):
    page = member.get(url(group)).text

    assert "Opponents' totals · Standard" in text(page)
    assert "<svg" in page and 'viewBox="0 0 320' in page
    assert "40–75: declarers +1" in text(page)
    assert "80+: deal changes hands" in text(page)


def test_three_decks_draw_their_totals_against_bands_of_three_decks(member, group, cast):
    save_game(group, seated(cast, "Mei Jun Lin Hao Ed Wei"), "standard", [result(0, 150)])

    page = text(member.get(url(group)))

    assert "Opponents' totals · Standard, 3 decks" in text(page)
    assert "60–115: declarers +1" in page and "120+: deal changes hands" in page
    assert "Opponents' totals in 1 hand under Standard with 3 decks" in text(page)


def test_the_group_page_links_to_the_history(member, group):
    assert url(group) in member.get(f"/groups/{group.pk}/").text


@pytest.mark.parametrize("path", ["history/", "players/{player}/", "games/{game}/replay/"])
def test_it_hides_the_history_from_a_non_member(client, outsider, group, two_games, cast, path):
    client.force_login(outsider)
    path = path.format(player=cast["Mei"].pk, game=two_games[0].pk)

    assert client.get(f"/groups/{group.pk}/{path}").status_code == 404


@pytest.mark.parametrize("path", ["history/", "players/{player}/", "games/{game}/replay/"])
def test_it_sends_an_anonymous_visitor_to_log_in(client, group, two_games, cast, path):
    path = f"/groups/{group.pk}/" + path.format(player=cast["Mei"].pk, game=two_games[0].pk)

    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"


@pytest.fixture
def many_games(group, cast, django_capture_on_commit_callbacks):
    """36 games at every shape of table, from four partners to eight finding friends, saved
    (their ladder is kept as the transaction that made them commits)."""
    with django_capture_on_commit_callbacks(execute=True):
        return make_games(group, list(cast.values()), 36, seed=3, tables=VARIANTS)


def test_the_variant_games_are_every_shape_of_table(many_games):
    shapes = {(game.teams, len(game.players), game.decks) for game in many_games}

    assert shapes == {
        ("partners", 4, 2),
        ("find-a-friend", 5, 2),
        ("pairs", 6, 3),
        ("partners", 6, 3),
        ("find-a-friend", 8, 4),
        ("partners", 4, 3),
    }


def test_the_history_runs_a_fixed_number_of_queries(
    member,
    group,
    cast,
    many_games,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    cache.clear()
    # The session, the account, the group, the roster, the players' lines, the years, the
    # tallies, the page's games, their summaries and their seats.
    with django_assert_max_num_queries(10):
        first = member.get(url(group))
    with django_capture_on_commit_callbacks(execute=True):
        make_games(group, list(cast.values()), 12, seed=4, tables=VARIANTS)
    with django_assert_max_num_queries(10):
        again = member.get(url(group), {"player": cast["Mei"].pk, "page": "2"})
    with django_assert_max_num_queries(10):
        more = member.get(url(group))

    assert first.status_code == again.status_code == more.status_code == 200
    assert GameSummary.objects.count() == 48
    assert "48 games" in text(more.text)


def test_the_ladder_follows_every_change_of_a_game(
    group, cast, user, many_games, django_capture_on_commit_callbacks
):
    game = many_games[-1]
    with django_capture_on_commit_callbacks(execute=True):
        game.delete_hand(game.hands.count(), version=game.version, by=user)

    assert stored_ladder(group) == replayed_ladder(group)
    with django_capture_on_commit_callbacks(execute=True):
        Game.objects.get(pk=many_games[0].pk).delete()
    assert len(stored_ladder(group).records) == len(many_games) - 1
    assert stored_ladder(group) == replayed_ladder(group)


def records_by_replay(group) -> list[GameRecord]:
    """Every game's record made afresh from its hands, with no summary."""
    return [
        GameRecord.of(game.pk, game.scored(), [player.pk for player in game.players], game.created)
        for game in Game.objects.filter(group=group).order_by("created", "pk")
    ]


def test_the_summaries_agree_with_a_replay_after_edits_deletes_and_new_hands(
    member, group, cast, user, many_games
):
    oldest, second, third = many_games[:3]

    # The last hand, so that no later hand must follow another declarer.
    last = oldest.hands.last()
    fields = {"opponent_points": 0 if last.opponent_points else 5}
    oldest.edit_hand(last.number, fields, version=oldest.version, by=user)
    second.delete_hand(second.hands.count(), version=second.version, by=user)
    if not third.scored().state.game_over:
        third.record_hand(
            next_hand(third),
            version=third.version,
            request_key="",
            by=user,
        )

    stored = stored_ladder(group).records
    fresh = records_by_replay(group)

    assert stored == fresh
    for player in cast.values():
        assert player_stats(stored, player.pk) == player_stats(fresh, player.pk)
    assert replay_ratings(stored) == replay_ratings(fresh)
    assert GameSummary.objects.get(game=oldest).version == oldest.version


def test_ratings_replay_every_finished_game_in_order_with_openskill(group, two_games, cast):
    won, _unfinished = two_games
    model = PlackettLuce()
    mei, lin, jun, hao = (model.rating() for _ in range(4))
    [[mei, lin], [jun, hao]] = model.rate([[mei, lin], [jun, hao]], ranks=[0, 1])

    ratings = stored_ladder(group).ratings

    assert ratings[cast["Mei"].pk][-1].mu == pytest.approx(mei.mu)
    assert ratings[cast["Hao"].pk][-1].sigma == pytest.approx(hao.sigma)
    assert ratings[cast["Mei"].pk][-1].ordinal == pytest.approx(mei.ordinal())
    assert [point.game for point in ratings[cast["Lin"].pk]] == [won.pk]
    assert cast["Ed"].pk not in ratings  # only an unfinished game


def test_a_find_a_friend_game_rates_its_winner_against_everyone_else(group, friendly, cast):
    model = PlackettLuce()
    wei, *others = (model.rating() for _ in range(5))
    [[wei], others] = model.rate([[wei], others], ranks=[0, 1])

    ratings = stored_ladder(group).ratings

    assert ratings[cast["Wei"].pk][-1].mu == pytest.approx(wei.mu)
    assert ratings[cast["Hao"].pk][-1].mu == pytest.approx(others[-1].mu)


def test_an_edit_to_an_old_game_changes_the_ratings_after_it(
    group, two_games, cast, user, django_capture_on_commit_callbacks
):
    won, _unfinished = two_games
    later = save_game(
        group, seated(cast, "Jun Mei Hao Lin"), "standard", [result(0, 0)], levels=("A",) * 4
    )
    before = stored_ladder(group).ratings

    # The old game's last hand was really 80: Jun and Hao took the deal, and it is unfinished.
    # The ratings after it are replayed by a task once the change commits.
    with django_capture_on_commit_callbacks(execute=True):
        won.edit_hand(2, {"opponent_points": 80}, version=won.version, by=user)
    after = stored_ladder(group).ratings

    assert [point.game for point in before[cast["Mei"].pk]] == [won.pk, later.pk]
    assert [point.game for point in after[cast["Mei"].pk]] == [later.pk]
    assert after[cast["Mei"].pk][-1] != before[cast["Mei"].pk][-1]
    assert after[cast["Jun"].pk][-1].ordinal > before[cast["Jun"].pk][-1].ordinal


@pytest.mark.parametrize("module", [companion.charts, companion.ratings])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_a_record_of_the_summaries_names_the_winners_seats(group, two_games, friendly):
    records = stored_ladder(group).records

    assert [record.winners for record in records] == [(0, 2), (), (0,)]


def test_a_group_without_games_has_an_empty_history(member, group, cast):
    page = text(member.get(url(group)))
    player = text(member.get(f"/groups/{group.pk}/players/{cast['Ed'].pk}/"))

    assert "0 games · 0 hands" in text(page)
    assert "Ratings appear once a game is finished." in text(page)
    assert "No games here." in text(page)
    assert "No finished game yet: no rating." in player and "No games yet." in player


def test_the_other_rules_charts_are_drawn_when_asked(member, group, two_games):
    page = member.get(url(group)).text
    asked = member.get(url(group), {"totals": "all"}).text

    # The most played rules' chart is drawn; the other rules are named with their hands.
    assert page.count("<figure") == 1 and "Show their charts" in page
    assert "Kawu (1 hand)" in text(page)
    assert asked.count("<figure") == 2 and "Show their charts" not in asked


@pytest.mark.parametrize(
    ("language", "team"), [("en", "Xiu, Chloé & Mei"), ("zh-hans", "Xiu、Chloé & Mei")]
)
def test_a_team_of_three_is_listed_with_the_readers_comma(language, team) -> None:
    with translation.override(language):
        assert together(["Xiu", "Chloé", "Mei"]) == team
    assert together(["Mei", "Lin"]) == "Mei & Lin"
    assert together(["Mei"]) == "Mei"
