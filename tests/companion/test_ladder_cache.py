"""The group's ladder kept in Django's cache for every process and server: kept for the group's
version, which every change to its games raises; stored by that change once it commits; never
served stale; never written by a page; and always what a replay of every hand says."""

from __future__ import annotations

import importlib.util
import os
import pickle
import random
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext
from history_games import VARIANTS, hand_row, make_games, next_hand, random_results

from companion.ladder import Ladder, PlayerPages
from companion.models import (
    Game,
    GameSummary,
    Group,
    Hand,
    Player,
    Seat,
    _ladder_key,
    _player_pages_key,
)
from companion.ratings import replay_ratings
from companion.views import RECENT_GAMES
from scoring import get_rules
from scoring.stats import GameRecord, player_stats

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@pytest.fixture
def stored(group, cast, django_capture_on_commit_callbacks):
    """24 games at every shape of table, their ladder stored as their last change commits."""
    with django_capture_on_commit_callbacks(execute=True):
        games = make_games(group, list(cast.values()), 24, seed=11, tables=VARIANTS)
    return games


def fresh(group: Group) -> Group:
    return Group.objects.get(pk=group.pk)


def kept(group: Group) -> Ladder | None:
    return cache.get(_ladder_key(fresh(group)))


def kept_pages(group: Group) -> PlayerPages | None:
    return cache.get(_player_pages_key(fresh(group)))


def records_by_replay(group: Group) -> list[GameRecord]:
    """Every game's record made afresh from its hands, with no summary and no cache."""
    return [
        GameRecord.of(game.pk, game.scored(), [player.pk for player in game.players], game.created)
        for game in Game.objects.filter(group=group).order_by("created", "pk")
    ]


def assert_equal_to_a_replay(ladder: Ladder, group: Group) -> None:
    replayed = records_by_replay(group)
    assert ladder.records == replayed
    assert ladder.ratings == replay_ratings(replayed)
    assert_pages_equal_to_a_replay(ladder.player_pages, replayed)


def assert_pages_equal_to_a_replay(pages: PlayerPages, replayed: list[GameRecord]) -> None:
    """Every player's numbers, ratings and latest games as a count over every game says."""
    players = {pk for record in replayed for pk in record.seats}
    assert set(pages.statistics) == players
    assert pages.ratings == replay_ratings(replayed)
    for player in players:
        assert pages.stats(player) == player_stats(replayed, player)
        theirs = [record for record in replayed if player in record.seats]
        assert pages.recent(player) == theirs[::-1][:RECENT_GAMES]


def unfinished(games: list[Game]) -> list[Game]:
    return [game for game in games if not game.scored().state.game_over]


def record_hand(game: Game, user) -> None:
    game.refresh_from_db()
    game.record_hand(next_hand(game), version=game.version, request_key="", by=user)


def edit_old_hand(game: Game, user) -> None:
    """The game's last hand with other opponents' points: no later hand must follow it."""
    game.refresh_from_db()
    last = game.hands.last()
    points = {"opponent_points": 0 if last.opponent_points else 5}
    game.edit_hand(last.number, points, version=game.version, by=user)


def undo_hand(game: Game, user) -> None:
    game.refresh_from_db()
    game.delete_hand(game.hands.count(), version=game.version, by=user)


def start_game(game: Game, user) -> None:
    Game.start(game.group, game.players[:4], get_rules("standard"), by=user)


def delete_game(game: Game, user) -> None:
    game.delete()


def import_games(game: Game, user) -> None:
    """As an import writes: games and hands in bulk, then one call for their summaries."""
    group = game.group
    more = make_games_in_bulk(group, game.players, 3)
    GameSummary.bring_up_to_date(more)


def make_games_in_bulk(group: Group, players: list[Player], count: int) -> list[Game]:
    """``count`` games of the first four ``players`` written as an import writes them, with no
    summary and without raising the group's version."""
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


CHANGES = [record_hand, edit_old_hand, undo_hand, start_game, delete_game, import_games]


def changed_game(games: list[Game], change) -> Game:
    """The game a change is made to: the newest unfinished one for a new hand, the oldest
    otherwise (an old game's change moves every rating after it)."""
    if change is record_hand:
        return unfinished(games)[-1]
    return games[0]


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_a_ladder_of_an_older_version_is_never_served(group, user, stored, change):
    before = kept(group)
    assert before is not None and before.version == fresh(group).version

    change(changed_game(stored, change), user)  # not committed yet: nothing stored

    assert kept(group).version == before.version < fresh(group).version
    assert_equal_to_a_replay(GameSummary.ladder(fresh(group)), group)


@pytest.mark.parametrize("change", CHANGES, ids=lambda change: change.__name__)
def test_the_change_stores_the_new_ladder_once_it_commits(
    group, user, stored, change, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        change(changed_game(stored, change), user)

    assert len(callbacks) == 1  # one update, however many games changed
    ladder, pages = kept(group), kept_pages(group)
    assert ladder.version == pages.version == fresh(group).version
    assert_equal_to_a_replay(ladder, group)
    assert_pages_equal_to_a_replay(pages, records_by_replay(group))


def test_undo_and_edits_of_old_games_and_new_hands_stay_equal_to_a_replay(
    group, user, stored, django_capture_on_commit_callbacks
):
    for change, game in [
        (edit_old_hand, stored[0]),
        (undo_hand, stored[1]),
        (record_hand, unfinished(stored)[-1]),
        (undo_hand, unfinished(stored)[-1]),
        (delete_game, stored[2]),
        (edit_old_hand, stored[5]),
    ]:
        with django_capture_on_commit_callbacks(execute=True):
            change(game, user)
        assert_equal_to_a_replay(kept(group), group)
        assert_pages_equal_to_a_replay(kept_pages(group), records_by_replay(group))


def test_a_page_served_from_the_cache_asks_only_for_the_ladder(
    member, group, cast, stored, django_assert_max_num_queries
):
    # The session, the account, the group, the ladder (one cache read), the roster.
    with django_assert_max_num_queries(6):
        history = member.get(f"/groups/{group.pk}/history/")
    with django_assert_max_num_queries(6):
        player = member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/")

    assert history.status_code == player.status_code == 200
    assert f"{len(stored)} games" in history.text


@pytest.mark.parametrize("games", [4, 24])
def test_a_miss_costs_the_same_queries_however_long_the_history(group, cast, games):
    make_games(group, list(cast.values()), games, seed=games, tables=VARIANTS)
    cache.clear()
    group = fresh(group)

    with CaptureQueriesContext(connection) as queries:
        GameSummary.ladder(group)

    # The cache read, the games' versions, their summaries, their seats.
    assert len(queries) == 4


def test_a_miss_with_stale_summaries_reads_their_hands_and_writes_nothing(group, cast):
    games = make_games_in_bulk(group, list(cast.values()), 5)  # an import that wrote no summary
    Group.objects.filter(pk=group.pk).update(version=1)
    group = fresh(group)

    with CaptureQueriesContext(connection) as queries:
        ladder = GameSummary.ladder(group)

    # Besides the four of a miss: the stale games, their seats and players, their hands.
    assert len(queries) == 8
    assert not [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert not GameSummary.objects.filter(game__in=games).exists()
    assert_equal_to_a_replay(ladder, group)


@pytest.mark.parametrize("page", ["history/", "players/{player}/"])
@pytest.mark.parametrize("when", ["stored", "stale", "missing", "imported"])
def test_a_page_writes_nothing_to_the_database(member, group, cast, user, stored, page, when):
    if when == "stale":
        record_hand(unfinished(stored)[-1], user)
    elif when == "missing":
        cache.clear()
    elif when == "imported":
        make_games_in_bulk(group, list(cast.values()), 3)
        Group.objects.filter(pk=group.pk).update(version=fresh(group).version + 1)

    with CaptureQueriesContext(connection) as queries:
        response = member.get(f"/groups/{group.pk}/" + page.format(player=cast["Mei"].pk))

    assert response.status_code == 200
    assert not [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_the_kept_ladder_pickles_small_as_plain_values(group, stored):
    ladder = kept(group)
    data = pickle.dumps(ladder, pickle.HIGHEST_PROTOCOL)

    assert b"HandLine" not in data and b"GameRecord" not in data
    assert ladder.records  # made on demand, and not kept with the ladder
    assert len(pickle.dumps(ladder, pickle.HIGHEST_PROTOCOL)) == len(data)
    assert pickle.loads(data).records == ladder.records


def test_an_update_reuses_the_games_before_the_change(group, user, stored):
    before = GameSummary.ladder(fresh(group))
    game = unfinished(stored)[-1]
    record_hand(game, user)

    after = GameSummary._ladder_from(fresh(group), before)

    changed = [n for n, row in enumerate(after.games) if row is not before.games[n]]
    assert [after.games[n].key for n in changed] == [game.pk]
    assert_equal_to_a_replay(after, group)


def test_the_test_database_has_the_cache_table():
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


def test_a_cache_out_of_reach_loses_no_change_and_serves_no_stale_ladder(
    group, user, stored, django_capture_on_commit_callbacks, caplog
):
    game = unfinished(stored)[-1]
    hands = game.hands.count()
    with (
        mock.patch.object(cache, "set", side_effect=ConnectionError("cache down")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        record_hand(game, user)

    assert "cache down" in caplog.text
    assert game.hands.count() == hands + 1
    assert kept(group).version < fresh(group).version
    assert_equal_to_a_replay(GameSummary.ladder(fresh(group)), group)


def test_a_player_page_reads_only_the_players_entry_never_the_games(member, group, cast, stored):
    with mock.patch.object(GameSummary, "ladder", side_effect=AssertionError("every game read")):
        response = member.get(f"/groups/{group.pk}/players/{cast['Mei'].pk}/")

    assert response.status_code == 200


def test_the_players_entry_is_a_fraction_of_the_ladder(group, stored):
    ladder = len(pickle.dumps(kept(group), pickle.HIGHEST_PROTOCOL))
    pages = len(pickle.dumps(kept_pages(group), pickle.HIGHEST_PROTOCOL))

    assert b"HandLine" not in pickle.dumps(kept_pages(group), pickle.HIGHEST_PROTOCOL)
    assert pages < ladder


@pytest.mark.parametrize("when", ["stale", "missing"])
def test_a_player_page_without_its_entry_shows_the_numbers_of_now(
    member, group, cast, user, stored, when
):
    game = unfinished(stored)[-1]
    if when == "stale":
        record_hand(game, user)  # not committed: the entries are of the version before
    else:
        cache.delete(_player_pages_key(fresh(group)))
    mei = cast["Mei"]

    pages = GameSummary.player_pages(fresh(group))

    assert pages.version == fresh(group).version
    assert_pages_equal_to_a_replay(pages, records_by_replay(group))
    assert member.get(f"/groups/{group.pk}/players/{mei.pk}/").status_code == 200
