"""`manage.py demo_history`: a realistic ladder history whose every game `scoring` accepts, at
four partners or at any shape of table."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.management import CommandError, call_command

from companion.management.commands.demo_history import DEMO_USER
from companion.models import Group, Hand, HandChange
from scoring import PRESETS

pytestmark = pytest.mark.django_db

UNTIL = "--until=2025-06-28"  # a Saturday: the last evening is Thursday 26 June


def generate(name: str, *options: str, games: int = 120, seed: int = 7) -> Group:
    call_command(
        "demo_history", f"--games={games}", f"--seed={seed}", UNTIL, f"--group={name}", *options,
        stdout=io.StringIO(),
    )  # fmt: skip
    return Group.objects.get(name=name)


@pytest.fixture(scope="module")
def ladder(django_db_setup, django_db_blocker) -> Iterator[Group]:
    """120 games, made once for the module's tests, which only read them."""
    yield from made_once(django_db_blocker, "Ladder club")


@pytest.fixture(scope="module")
def variants(django_db_setup, django_db_blocker) -> Iterator[Group]:
    """120 games at every shape of table, made once for the module's tests, which only read
    them."""
    yield from made_once(django_db_blocker, "Variants club", "--variants")


def made_once(blocker, name: str, *options: str) -> Iterator[Group]:
    """A group made outside the tests' transactions, and removed after the module with what
    it left behind (its ladder in the cache, the demo account)."""
    with blocker.unblock():
        group = generate(name, *options)
    yield group
    with blocker.unblock():
        group.games.all().delete()  # seats hold their players: the games go first
        group.delete()
        User.objects.filter(username=DEMO_USER).delete()
        cache.clear()


def shapes(group: Group) -> Counter:
    """How many games were played at each shape of table: (teams, players, decks)."""
    return Counter(
        (game.teams, len(game.seated), game.decks) for game in group.games.prefetch_related("seats")
    )


def test_it_makes_a_roster_and_the_games_asked_for(ladder):
    hands = Hand.objects.filter(game__group=ladder).count()

    assert 8 <= ladder.players.count() <= 12
    assert ladder.games.count() == 120
    assert 15 * 120 <= hands <= 28 * 120
    assert [user.username for user in ladder.members.all()] == ["demo"]
    assert ladder.scoring_tables.get().rules.name == "Thursday rules"


def test_every_game_replays_through_scoring(ladder):
    states = []
    for game in ladder.games.prefetch_related("hands", "seats__player"):
        scored = game.scored(list(game.hands.all()))  # raises if scoring refuses a hand
        states.append(scored.state)
        assert [hand.number for hand in game.hands.all()] == list(range(1, len(scored.hands) + 1))

    finished = sum(state.game_over for state in states)
    assert 0.85 * len(states) <= finished < len(states)


def test_by_default_every_table_is_four_partners_with_two_decks(ladder):
    assert set(shapes(ladder)) == {("partners", 4, 2)}


def test_its_points_are_what_a_table_scores(ladder):
    hands = list(Hand.objects.filter(game__group=ladder))
    between = [20 <= hand.opponent_points <= 120 for hand in hands]

    assert all(hand.opponent_points % 5 == 0 and hand.kitty_points % 5 == 0 for hand in hands)
    assert all(0 <= hand.kitty_points <= 40 for hand in hands)
    assert all(hand.opponent_points + hand.kitty_points <= 200 for hand in hands)
    assert sum(between) >= 0.75 * len(hands)
    assert any(hand.kitty_cards for hand in hands)


def test_it_mixes_the_rules(ladder):
    names = Counter(game.rules.name for game in ladder.games.all())

    assert set(names) == {*PRESETS, "Thursday rules"}
    assert names.most_common(1)[0][0] == "standard"


def test_its_games_are_played_on_thursday_evenings_over_two_years(ladder):
    days = sorted({game.created.date() for game in ladder.games.all()})

    assert {day.weekday() for day in days} == {3}
    assert days[-1] == date(2025, 6, 26)
    assert (days[-1] - days[0]).days == 103 * 7


def test_its_history_records_every_hand_and_a_few_corrections(ladder):
    changes = Counter(
        HandChange.objects.filter(game__group=ladder).values_list("action", flat=True)
    )
    hands = Hand.objects.filter(game__group=ladder).count()

    assert changes["recorded"] == hands + changes["deleted"]
    assert 0 < changes["edited"] < 0.1 * hands
    for game in ladder.games.all():
        assert game.version == game.changes.count()


def test_its_hands_and_changes_keep_the_evening_they_were_played(ladder):
    game = ladder.games.order_by("created").first()
    hand = game.hands.first()
    recorded = game.changes.filter(action="recorded").order_by("at").first()

    assert game.created < hand.created < game.created + timedelta(hours=6)
    assert recorded.at.date() == game.created.date()


def test_variants_play_every_shape_of_table(variants):
    played = shapes(variants)

    assert set(played) == {
        ("partners", 4, 2),
        ("find-a-friend", 5, 2),
        ("find-a-friend", 6, 3),
        ("pairs", 6, 3),
        ("partners", 6, 3),
        ("partners", 8, 4),
        ("find-a-friend", 8, 4),
        ("partners", 4, 3),
    }
    assert played.most_common(1)[0][0] == ("partners", 4, 2)


def test_every_variant_game_replays_through_scoring_with_friends_and_fixed_trumps(variants):
    friends = fixed = 0
    for game in variants.games.prefetch_related("hands", "seats__player"):
        hands = list(game.hands.all())
        scored = game.scored(hands)  # raises if scoring refuses a hand
        assert len(scored.hands) == len(hands)
        friends += sum(bool(hand.friends) for hand in hands)
        fixed += not game.table.trumps.bids

    assert friends > 50
    assert fixed > 5


def test_variant_points_scale_with_the_decks(variants):
    hands = Hand.objects.filter(game__group=variants).select_related("game")

    assert all(h.opponent_points + h.kitty_points <= 100 * h.game.decks for h in hands)
    assert any(h.opponent_points > 200 for h in hands)


def test_a_table_option_plays_only_that_shape():
    group = generate("Friends club", "--table=6:find-a-friend", games=20)

    assert set(shapes(group)) == {("find-a-friend", 6, 3)}
    assert all(game.called == 1 for game in group.games.all())


def test_two_table_options_mix_their_shapes():
    group = generate("Mixed club", "--table=5:find-a-friend", "--table=8:pairs:4", games=40)

    assert set(shapes(group)) == {("find-a-friend", 5, 2), ("pairs", 8, 4)}


def test_the_same_seed_makes_the_same_group():
    def played(group: Group) -> list:
        return [
            (
                game.rules.name,
                game.teams,
                game.decks,
                [(seat.player.name, seat.level) for seat in game.seated],
                list(game.hands.values_list(*Hand.SNAPSHOT_FIELDS)),
            )
            for game in group.games.order_by("created").prefetch_related("seats__player")
        ]

    first = played(generate("First", "--variants", games=30, seed=3))
    again = played(generate("Again", "--variants", games=30, seed=3))
    other = played(generate("Other", "--variants", games=30, seed=4))

    assert first == again
    assert first != other


def test_the_history_pages_of_a_variants_group_answer(client, variants):
    client.force_login(variants.members.get())
    game = variants.games.filter(teams="find-a-friend").first()
    player = game.seated[0].player

    assert client.get(f"/groups/{variants.pk}/history/").status_code == 200
    assert client.get(f"/groups/{variants.pk}/players/{player.pk}/").status_code == 200
    replay = client.get(f"/groups/{variants.pk}/games/{game.pk}/replay/", {"rules": "kawu"})
    assert replay.status_code == 200


def test_it_refuses_no_games():
    with pytest.raises(CommandError, match="--games must be at least 1"):
        call_command("demo_history", "--games=0")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("5:partners", "partners need an even number of players"),
        ("4:pairs", "pairs need 6 or 8 players"),
        ("9:find-a-friend", "a table has 4 to 8 players"),
        ("6:friends", "--table is players:teams"),
        ("6:pairs:5", "decks must be 2, 3 or 4"),
    ],
)
def test_it_refuses_a_table_scoring_cannot_play(table, message):
    with pytest.raises(CommandError, match=message):
        call_command("demo_history", "--games=1", f"--table={table}")


def test_it_refuses_a_table_and_variants_together():
    with pytest.raises(CommandError, match="--table or --variants"):
        call_command("demo_history", "--games=1", "--table=5:find-a-friend", "--variants")
