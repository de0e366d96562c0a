"""The group's ladder history: every game with its result, filters, the ratings, and the summaries
that spare the page a replay of every hand (and always agree with one)."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from django.utils import timezone
from history_games import make_games, save_game
from openskill.models import PlackettLuce

import companion.charts
import companion.ratings
from companion.models import Game, GameSummary, Hand, Player
from companion.ratings import replay_ratings
from scoring import Format, LastTrick, Side
from scoring.game import HandResult, Seat, Team
from scoring.stats import GameRecord, player_stats

pytestmark = pytest.mark.django_db

HELD = LastTrick(Side.DECLARERS, Format.SINGLE, 1)


def hand(declarer: str, points: int) -> HandResult:
    return HandResult(Seat(declarer), points, 0, HELD)


@pytest.fixture
def cast(group, players) -> dict[str, Player]:
    """The four of the cast by name, and Ed, who joined later."""
    named = {player.name: player for player in players.values()}
    named["Ed"] = Player.objects.create(group=group, name="Ed")
    return named


@pytest.fixture
def two_games(group, cast) -> tuple[Game, Game]:
    """Last March, Mei and Lin beat Jun and Hao at A; this week Ed sat in for Hao, unfinished."""
    now = timezone.localtime()
    won = save_game(
        group,
        {"north": cast["Mei"], "east": cast["Jun"], "south": cast["Lin"], "west": cast["Hao"]},
        "standard",
        [hand("N", 45), hand("S", 0)],
        levels=("K", "2"),
        created=now.replace(year=now.year - 1, month=3, day=14),
    )
    unfinished = save_game(
        group,
        {"north": cast["Jun"], "east": cast["Mei"], "south": cast["Ed"], "west": cast["Lin"]},
        "kawu",
        [hand("E", 50)],
        created=now - timedelta(days=2),
    )
    return won, unfinished


def url(group) -> str:
    return f"/groups/{group.pk}/history/"


def text(response) -> str:
    """The page's text with its runs of white space made single spaces."""
    return " ".join(response.text.split())


def test_it_lists_every_game_with_its_date_seats_rules_result_and_length(member, group, two_games):
    won, unfinished = two_games

    page = text(member.get(url(group)))

    assert page.index(f"/games/{unfinished.pk}/") < page.index(f"/games/{won.pk}/")
    assert "Mei &amp; Lin" in page and "Jun &amp; Hao" in page and "Jun &amp; Ed" in page
    assert won.created.strftime("14 Mar %Y") in page
    assert "standard" in page and "kawu" in page
    assert "North–South won" in page
    assert "2 hands" in page and "1 hand ·" in page
    assert "unfinished" in page
    assert "2 games · 3 hands" in page


def test_it_filters_by_player(member, group, two_games, cast):
    won, unfinished = two_games

    page = text(member.get(url(group), {"player": cast["Hao"].pk}))

    assert f"/games/{won.pk}/" in page
    assert f"/games/{unfinished.pk}/" not in page
    assert "1 game · 2 hands" in page


def test_it_filters_by_period(member, group, two_games):
    won, unfinished = two_games

    recent = text(member.get(url(group), {"period": "12m"}))
    last_year = text(member.get(url(group), {"period": str(won.created.year)}))

    assert f"/games/{unfinished.pk}/" in recent and f"/games/{won.pk}/" not in recent
    assert f"/games/{won.pk}/" in last_year and f"/games/{unfinished.pk}/" not in last_year


def test_htmx_gets_only_the_filtered_results(member, group, two_games, cast):
    response = member.get(url(group), {"player": cast["Ed"].pk}, headers={"HX-Request": "true"})

    assert response.text.lstrip().startswith('<section id="history-results"')
    assert "1 game · 1 hand" in text(response)
    assert "Ratings" not in response.text


def test_an_unknown_filter_shows_everything_and_says_so(member, group, two_games):
    page = text(member.get(url(group), {"player": "999999"}))

    assert "2 games · 3 hands" in page
    assert "Select a valid choice" in page


def test_it_ranks_the_players_of_finished_games_by_rating(member, group, two_games, cast):
    page = text(member.get(url(group)))

    ratings = page[page.index('id="ratings"') : page.index("</table>")]
    names = [name for name in ("Mei", "Lin", "Jun", "Hao") if name in ratings]
    assert names == ["Mei", "Lin", "Jun", "Hao"]
    assert ratings.index("Mei") < ratings.index("Jun")
    assert "Not rated yet:" in page and f"/players/{cast['Ed'].pk}/" in page


def test_it_draws_the_opponents_totals_against_the_bands(member, group, two_games):
    page = text(member.get(url(group)))

    assert "Opponents' totals · standard" in page
    assert "<svg" in page and 'viewBox="0 0 320' in page
    assert "40–75: declarers +1" in page
    assert "80+: deal changes hands" in page


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
def many_games(group, cast):
    return make_games(group, list(cast.values()), 36, seed=3)


def test_the_history_runs_a_fixed_number_of_queries(
    member, group, cast, many_games, django_assert_max_num_queries
):
    # The first visit makes every game's summary: one query reads the games, one their hands,
    # one saves the summaries; later visits find the ladder kept and ask only whether it holds.
    with django_assert_max_num_queries(8):
        first = member.get(url(group))
    with django_assert_max_num_queries(5):
        again = member.get(url(group), {"player": cast["Mei"].pk, "page": "2"})
    make_games(group, list(cast.values()), 12, seed=4)
    with django_assert_max_num_queries(8):
        more = member.get(url(group))

    assert first.status_code == again.status_code == more.status_code == 200
    assert GameSummary.objects.count() == 48
    assert "48 games" in more.text


def test_the_ladder_is_kept_until_a_game_changes(group, cast, user, many_games):
    kept = GameSummary.ladder(group)

    assert GameSummary.ladder(group) is kept
    game = many_games[-1]
    game.delete_hand(game.hands.count(), version=game.version, by=user)
    changed = GameSummary.ladder(group)
    assert changed is not kept
    assert changed.records == records_by_replay(group)
    Game.objects.filter(pk=many_games[0].pk).delete()
    assert len(GameSummary.ladder(group).records) == len(many_games) - 1


def records_by_replay(group) -> list[GameRecord]:
    """Every game's record made afresh from its hands, with no summary."""
    return [
        GameRecord.of(
            game.pk,
            game.scored(),
            {seat: game.player_at(seat).pk for seat in Seat},
            game.created,
        )
        for game in Game.objects.filter(group=group).order_by("created", "pk")
    ]


def test_the_summaries_agree_with_a_replay_after_edits_deletes_and_new_hands(
    member, group, cast, user, many_games
):
    member.get(url(group))  # every summary made
    oldest, second, third = many_games[:3]

    first_hand = oldest.hands.get(number=1)
    fields = {"opponent_points": 0 if first_hand.opponent_points else 5}
    oldest.edit_hand(1, fields, version=oldest.version, by=user)
    second.delete_hand(second.hands.count(), version=second.version, by=user)
    scored = third.scored()
    if not scored.state.game_over:
        declarer = scored.state.starter or scored.state.declarers.seats[0]
        third.record_hand(
            {
                "declarer": declarer.value,
                "kitty_points": 0,
                "opponent_points": 40,
                "last_trick_winner": "declarers",
                "last_trick_format": "single",
                "last_trick_cards": 1,
            },
            version=third.version,
            request_key="",
            by=user,
        )

    stored = list(GameSummary.ladder(group).records)
    fresh = records_by_replay(group)

    assert stored == fresh
    for player in cast.values():
        assert player_stats(stored, player.pk) == player_stats(fresh, player.pk)
    assert replay_ratings(stored) == replay_ratings(fresh)
    assert GameSummary.objects.get(game=oldest).version == oldest.version


def test_a_summary_of_hands_changed_behind_its_back_is_made_again_when_the_version_moves(
    group, cast, many_games
):
    GameSummary.ladder(group)
    game = many_games[0]
    Hand.objects.filter(game=game).order_by("-number").first().delete()
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)

    stored = list(GameSummary.ladder(group).records)

    assert stored == records_by_replay(group)


def test_ratings_replay_every_finished_game_in_order_with_openskill(group, two_games, cast):
    won, _unfinished = two_games
    model = PlackettLuce()
    mei, lin, jun, hao = (model.rating() for _ in range(4))
    [[mei, lin], [jun, hao]] = model.rate([[mei, lin], [jun, hao]], ranks=[0, 1])

    ratings = GameSummary.ladder(group).ratings

    assert ratings[cast["Mei"].pk][-1].mu == pytest.approx(mei.mu)
    assert ratings[cast["Hao"].pk][-1].sigma == pytest.approx(hao.sigma)
    assert ratings[cast["Mei"].pk][-1].ordinal == pytest.approx(mei.ordinal())
    assert [point.game for point in ratings[cast["Lin"].pk]] == [won.pk]
    assert cast["Ed"].pk not in ratings  # only an unfinished game


def test_an_edit_to_an_old_game_changes_the_ratings_after_it(group, two_games, cast, user):
    won, _unfinished = two_games
    later = save_game(
        group,
        {"north": cast["Jun"], "east": cast["Mei"], "south": cast["Hao"], "west": cast["Lin"]},
        "standard",
        [hand("N", 0)],
        levels=("A", "2"),
    )
    before = GameSummary.ladder(group).ratings

    # The old game's last hand was really 80: Jun and Hao took the deal, and it is unfinished.
    won.edit_hand(2, {"opponent_points": 80}, version=won.version, by=user)
    after = GameSummary.ladder(group).ratings

    assert [point.game for point in before[cast["Mei"].pk]] == [won.pk, later.pk]
    assert [point.game for point in after[cast["Mei"].pk]] == [later.pk]
    assert after[cast["Mei"].pk][-1] != before[cast["Mei"].pk][-1]
    assert after[cast["Jun"].pk][-1].ordinal > before[cast["Jun"].pk][-1].ordinal


@pytest.mark.parametrize("module", [companion.charts, companion.ratings])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_a_team_of_the_record_is_the_winner_of_the_first_game(group, two_games):
    records = list(GameSummary.ladder(group).records)

    assert [record.winner for record in records] == [Team.NORTH_SOUTH, None]


def test_a_group_without_games_has_an_empty_history(member, group, cast):
    page = text(member.get(url(group)))
    player = text(member.get(f"/groups/{group.pk}/players/{cast['Ed'].pk}/"))

    assert "0 games · 0 hands" in page
    assert "Ratings appear once a game is finished." in page
    assert "No games here." in page
    assert "No finished game yet: no rating." in player and "No games yet." in player
