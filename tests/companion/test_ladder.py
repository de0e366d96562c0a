"""The group's ladder kept as small rows (each player's line, ratings, the history's tallies and
each game's summary), moved by every change to a game in the change's own transaction: always
what a replay of every hand says, read by pages at a cost that does not grow with the years."""

from __future__ import annotations

import functools
import importlib.util
import os
import random
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from history_games import (
    VARIANTS,
    hand_row,
    make_games,
    next_hand,
    random_results,
    replayed_ladder,
    stored_ladder,
)

from companion.models import (
    Game,
    GameSummary,
    Group,
    Hand,
    Player,
    PlayerLadder,
    Rating,
    Seat,
    rebuild_ladder,
)
from scoring import get_rules
from scoring.game import GameSetup, replay
from scoring.stats import GameRecord
from scoring.table import Table
from tests.reading import text

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@pytest.fixture
def stored(group, cast, django_capture_on_commit_callbacks):
    """24 games at every shape of table, three days apart."""
    with django_capture_on_commit_callbacks(execute=True):
        return make_games(group, list(cast.values()), 24, seed=11, tables=VARIANTS)


def fresh(group: Group) -> Group:
    return Group.objects.get(pk=group.pk)


def assert_equal_to_a_replay(group: Group) -> None:
    stored, replayed = stored_ladder(group), replayed_ladder(group)
    assert stored.records == replayed.records
    assert stored.statistics == replayed.statistics
    assert stored.tallies == replayed.tallies
    assert stored.ratings == replayed.ratings
    assert not fresh(group).ratings_pending


def unfinished(games: list[Game]) -> list[Game]:
    return [game for game in games if not game.scored().state.game_over]


def finished(games: list[Game]) -> list[Game]:
    return [game for game in games if game.scored().state.game_over]


def record_hand(game: Game, user) -> None:
    game.refresh_from_db()
    game.record_hand(next_hand(game), version=game.version, request_key="", by=user)


def edit_old_hand(game: Game, user) -> None:
    """The game's last hand with other opponents' points: no later hand must follow it."""
    game.refresh_from_db()
    last = game.hands.last()
    points = {"opponent_points": 0 if last.opponent_points else 5}
    game.edit_hand(last.number, points, version=game.version, by=user)


def finish_differently(game: Game, user) -> None:
    """The game's winning hand was really lost: the game goes on, and nobody won it."""
    game.refresh_from_db()
    last = game.hands.last()
    game.edit_hand(last.number, {"opponent_points": 150}, version=game.version, by=user)


def undo_hand(game: Game, user) -> None:
    game.refresh_from_db()
    game.delete_hand(game.hands.count(), version=game.version, by=user)


def start_game(game: Game, user) -> None:
    Game.start(game.group, game.players[:4], get_rules("standard"), by=user)


def delete_game(game: Game, user) -> None:
    game.delete()


def ask_for_confirmations(game: Game, user) -> None:
    """Confirmation on, a hand entered, then confirmation off: the hand counts again."""
    group = fresh(game.group)
    group.ask_for_confirmations(True)
    record_hand(Game.objects.get(pk=game.pk), user)
    group.ask_for_confirmations(False)


def import_games(game: Game, user) -> None:
    """As an import writes: games and hands in bulk, then one call for their summaries."""
    more = make_games_in_bulk(game.group, game.players, 3)
    GameSummary.bring_up_to_date(more)


def make_games_in_bulk(group: Group, players: list[Player], count: int) -> list[Game]:
    """``count`` games of the first four ``players`` written as an import writes them, with no
    summary."""
    games = Game.objects.bulk_create(
        Game(group=group, rules_json=get_rules("standard").to_json()) for _ in range(count)
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=n, player=player)
        for game in games
        for n, player in enumerate(players[:4])
    )
    rng = random.Random(5)
    for game in games:
        results = random_results(rng, Game.objects.get(pk=game.pk).setup, 8)
        Hand.objects.bulk_create(hand_row(game, n, r) for n, r in enumerate(results, start=1))
        Game.objects.filter(pk=game.pk).update(version=len(results))
        game.version = len(results)
    return games


CHANGES = [
    record_hand,
    edit_old_hand,
    finish_differently,
    undo_hand,
    start_game,
    delete_game,
    ask_for_confirmations,
    import_games,
]


def changed_game(games: list[Game], change) -> Game:
    """The game a change is made to: the newest unfinished one for a new hand or a hand that
    needs confirming, the oldest finished one to finish differently, the oldest otherwise (an
    old game's change moves every rating after it)."""
    if change in (record_hand, ask_for_confirmations):
        return unfinished(games)[-1]
    if change is finish_differently:
        return finished(games)[0]
    return games[0]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_every_kind_of_change_keeps_the_ladder_equal_to_a_replay(
    group, user, stored, change, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        change(changed_game(stored, change), user)

    assert_equal_to_a_replay(group)


def test_undo_and_edits_of_old_games_and_new_hands_stay_equal_to_a_replay(
    group, user, stored, django_capture_on_commit_callbacks
):
    newest_finished = finished(stored)[-1]
    for change, game in [
        (edit_old_hand, stored[0]),
        (undo_hand, stored[1]),
        (record_hand, unfinished(stored)[-1]),
        (undo_hand, unfinished(stored)[-1]),
        (delete_game, stored[2]),
        (finish_differently, newest_finished),
        (record_hand, newest_finished),
        (edit_old_hand, stored[5]),
        (delete_game, newest_finished),
    ]:
        with django_capture_on_commit_callbacks(execute=True):
            change(game, user)
        assert_equal_to_a_replay(group)


def test_a_change_to_the_last_finished_game_rates_it_in_the_same_transaction(
    group, user, stored, django_capture_on_commit_callbacks
):
    game = finished(stored)[-1]
    with django_capture_on_commit_callbacks() as waiting:
        finish_differently(game, user)

    assert waiting == []  # no task to wait for
    assert_equal_to_a_replay(group)


def test_until_an_earlier_game_is_rated_again_the_ratings_of_before_are_shown_and_said(
    member, group, cast, user, stored, django_capture_on_commit_callbacks
):
    mei = cast["Mei"]
    before = PlayerLadder.objects.get(player=mei)
    with django_capture_on_commit_callbacks() as waiting:  # the task is not run yet
        finish_differently(finished(stored)[0], user)

    history = member.get(f"/groups/{group.pk}/history/")
    page = member.get(f"/groups/{group.pk}/players/{mei.pk}/")

    assert len(waiting) == 1
    assert fresh(group).ratings_pending
    for response in (history, page):
        assert "the ratings are being brought up to date" in text(response.text)
        assert f"{before.rating.ordinal:.1f}" in response.text
    assert PlayerLadder.objects.get(player=mei).mu == before.mu
    # Another change while it waits: its ratings wait for the same task, not half of them.
    with django_capture_on_commit_callbacks() as more:
        record_hand(unfinished(stored)[-1], user)
    assert PlayerLadder.objects.get(player=mei).mu == before.mu
    assert len(more) <= 1

    waiting[0]()

    assert_equal_to_a_replay(group)
    assert "being brought up to date" not in member.get(f"/groups/{group.pk}/history/").text


def test_a_rebuild_counts_the_whole_ladder_afresh(group, cast, stored):
    make_games_in_bulk(group, list(cast.values()), 3)
    games = list(Game.objects.filter(group=group, summary=None))
    GameSummary.bring_up_to_date(games, ladder=False)

    rebuild_ladder(group.pk)

    assert_equal_to_a_replay(group)


PAGES = [
    "history/",
    "history/?player={player}&page=2",
    "history/?period=12m",
    "players/{player}/",
    "",
]


@pytest.mark.parametrize("page", PAGES)
def test_a_page_reads_as_many_rows_however_long_the_history(
    member, group, cast, user, page, django_capture_on_commit_callbacks
):
    path = f"/groups/{group.pk}/" + page.format(player=cast["Mei"].pk)
    counts = []
    for games in (8, 32):  # 8 games, then 40
        with django_capture_on_commit_callbacks(execute=True):
            make_games(group, list(cast.values()), games, seed=games)
        with CaptureQueriesContext(connection) as queries:
            response = member.get(path)
        assert response.status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]


def test_recording_a_hand_costs_as_many_queries_however_long_the_history(
    group, cast, user, django_capture_on_commit_callbacks
):
    counts = []
    for games in (6, 30):  # 6 games, then 36
        with django_capture_on_commit_callbacks(execute=True):
            make_games(group, list(cast.values()), games, seed=games)
        newest = Game.start(group, list(cast.values())[:4], get_rules("standard"), by=user)
        with CaptureQueriesContext(connection) as queries:
            record_hand(newest, user)
        counts.append(len(queries))

    assert counts[0] == counts[1]
    assert_equal_to_a_replay(group)


@pytest.mark.parametrize("page", ["history/", "players/{player}/", ""])
def test_a_page_writes_nothing_and_needs_no_cache(member, group, cast, stored, page):
    path = f"/groups/{group.pk}/" + page.format(player=cast["Mei"].pk)
    member.get(path)
    cache.clear()

    with CaptureQueriesContext(connection) as queries:
        response = member.get(path)

    assert response.status_code == 200
    assert not [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_the_rating_chart_draws_a_point_a_month(member, group, cast, user):
    start = timezone.now() - timedelta(days=80)
    make_games(group, list(cast.values())[:4], 30, seed=7, start=start, most=60)
    mei = cast["Mei"]
    months = set(Rating.objects.filter(player=mei).values_list("month", flat=True))

    points = Rating.monthly(mei)

    assert Rating.objects.filter(player=mei).count() > len(points) == len(months)
    assert points[-1] == Rating.objects.filter(player=mei).order_by("number").last()


def test_the_test_database_has_the_cache_table():
    assert "companion_cache" in connection.introspection.table_names()


@pytest.mark.django_db(transaction=True)
def test_migrate_alone_makes_the_cache_table():
    executor = MigrationExecutor(connection)
    executor.migrate([("companion", "0014_ladder_rows_required")])
    with connection.schema_editor() as editor:
        editor.execute(f"DROP TABLE {connection.ops.quote_name('companion_cache')}")

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert "companion_cache" in connection.introspection.table_names()


def caches_read_from(**environment: str) -> dict:
    """The caches as ``companion/settings.py`` reads them from ``environment``."""
    path = Path(settings.BASE_DIR) / "companion" / "settings.py"
    spec = importlib.util.spec_from_file_location("settings_under_test", path)
    module = importlib.util.module_from_spec(spec)
    outside = {
        name: value for name, value in os.environ.items() if name not in ("CACHE_URL", "REDIS_URL")
    }
    with mock.patch.dict(os.environ, {**outside, "DEBUG": "true", **environment}, clear=True):
        spec.loader.exec_module(module)
    return module.CACHES["default"]


def test_the_cache_is_a_database_table_by_default():
    default = caches_read_from()

    assert default["BACKEND"] == "django.core.cache.backends.db.DatabaseCache"
    assert default["LOCATION"] == "companion_cache"


@pytest.mark.parametrize("name", ["REDIS_URL", "CACHE_URL"])
def test_a_redis_url_picks_the_redis_cache(name):
    default = caches_read_from(**{name: "redis://cache.example:6379/1"})

    assert default["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert default["LOCATION"] == "redis://cache.example:6379/1"


def test_cache_url_wins_over_redis_url():
    default = caches_read_from(
        CACHE_URL="redis://chosen.example:6379/0", REDIS_URL="redis://platform.example:6379/0"
    )

    assert default["LOCATION"] == "redis://chosen.example:6379/0"


def test_a_cache_url_of_another_kind_is_refused_without_showing_it():
    with pytest.raises(ImproperlyConfigured) as refused:
        caches_read_from(CACHE_URL="memcached://user:secret@cache.example:11211")

    assert "'memcached' URL" in str(refused.value) and "secret" not in str(refused.value)


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_each_groups_ladder_from_its_summaries():
    executor = MigrationExecutor(connection)
    before = [("companion", "0012_account_language")]
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    model = functools.partial(apps.get_model, "companion")
    group = model("Group").objects.create(name="Thursday", invite_token="a" * 32)
    players = [model("Player").objects.create(group=group, name=name) for name in "MJLH"]
    rules = get_rules("standard")
    setup = GameSetup(rules, Table(tuple("MJLH")))
    rng = random.Random(2)
    for days in (40, 20, 10):
        results = random_results(rng, setup, 40)
        game = model("Game").objects.create(
            group=group,
            rules_json=rules.to_json(),
            version=len(results),
            created=timezone.now() - timedelta(days=days),
        )
        for position, player in enumerate(players):
            model("Seat").objects.create(game=game, position=position, player=player)
        for number, hand in enumerate(results, start=1):
            model("Hand").objects.create(game=game, number=number, **Hand.fields_of(hand))
        record = GameRecord.of(game.pk, replay(setup, results), [p.pk for p in players])
        model("GameSummary").objects.create(
            game=game,
            version=game.version,
            hands=record.hands_json(),
            winners=GameRecord.winners_json(record.winners),
        )
    # A game started and never played has no summary.
    unplayed = model("Game").objects.create(group=group, rules_json=rules.to_json())
    for position, player in enumerate(players):
        model("Seat").objects.create(game=unplayed, position=position, player=player)

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    group = Group.objects.get(pk=group.pk)
    assert GameSummary.objects.filter(group=group).count() == 4
    assert stored_ladder(group) == replayed_ladder(group)
    assert PlayerLadder.objects.filter(group=group).count() == 4
