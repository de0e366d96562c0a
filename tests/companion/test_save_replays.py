"""What a save costs in settled hands: saving one hand replays the game once, however long it
is, and a correction replays no more than its message needs; the page that follows a save is
drawn from the save's replay, in whichever process serves it."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from hands import HELD_FIELDS, held_form

import scoring.game
from companion.models import Game, GameSummary, Hand

pytestmark = pytest.mark.django_db

# Thirty hands in which the opponents always take the deal at 80: hand 31 is Mei's to declare.
COUNT = 30


@pytest.fixture
def settled(monkeypatch) -> list[int]:
    """Grows by one for every hand `scoring` settles while replaying a game."""
    calls: list[int] = []
    settle = scoring.game.settle

    def counted(*args, **kwargs):
        calls.append(1)
        return settle(*args, **kwargs)

    monkeypatch.setattr(scoring.game, "settle", counted)
    return calls


@pytest.fixture
def game(member, start_game, endless_hands):
    """Mei and Lin against Jun and Hao, thirty hands in, its summary up to date."""
    game = start_game()
    endless_hands(game, COUNT)
    GameSummary.bring_up_to_date([game])
    game.refresh_from_db()
    return game


def post(client, game, url: str, **changes):
    data = {"version": game.version, "request_key": "the-tap", **held_form(**changes)}
    return client.post(f"/groups/{game.group_id}/games/{game.pk}/hands/{url}/", data)


def test_it_replays_the_game_once_to_record_a_hand(client, game, settled):
    response = post(client, game, "new")

    assert response.status_code == 302
    assert len(settled) == COUNT + 1  # the thirty hands before it, then the new one
    assert GameSummary.objects.get(game=game).hand_count == COUNT + 1


def test_it_replays_the_game_once_when_hands_wait_for_confirmation(client, group, game, settled):
    group.ask_for_confirmations(True)
    Hand.objects.filter(game=game, number=20).update(needs_confirmation=True)
    game.refresh_from_db()

    response = post(client, game, "new")

    assert response.status_code == 302
    assert len(settled) == COUNT + 1
    # The ladder counts the game up to hand 20, which waits for its confirmation.
    assert GameSummary.objects.get(game=game).hand_count == 19


@pytest.mark.parametrize("asking", [False, True], ids=["", "confirmations"])
def test_it_replays_a_correction_no_more_than_its_message_needs(
    client, group, game, settled, asking
):
    group.ask_for_confirmations(asking)
    game.refresh_from_db()

    response = post(client, game, "10", declarer="1", opponent_points="80")

    assert response.status_code == 302
    assert Hand.objects.get(game=game, number=10).trump == "H"
    # The hands before it once, the corrected game from it on, and the old one from it on
    # (what the correction changed is said against it).
    assert len(settled) == 9 + (COUNT - 9) + (COUNT - 9)
    # Corrected while the group asks, hand 10 waits for its confirmation: the game counts
    # up to it.
    assert GameSummary.objects.get(game=game).hand_count == (9 if asking else COUNT)


def test_the_page_after_a_save_is_drawn_from_the_saves_replay(
    client, game, settled, django_assert_num_queries
):
    client.get(game.get_absolute_url())  # the scoreboard the scorekeeper saw before the save
    settled.clear()

    # The game read with its seats, hands and version; locked; the hand, the precedents it
    # takes, the version, the history, the ladder's summary and rows; the board's precedents
    # (and the member's session and account, the savepoints).
    with django_assert_num_queries(24):
        response = post(client, game, "new")
    # The member's session and account, and the game: the board is the save's.
    with django_assert_num_queries(3):
        page = client.get(response["Location"]).text

    assert response.status_code == 302
    assert len(settled) == COUNT + 1  # nothing settled twice, nor for the page
    assert "#31 · " in page
    assert "Undo hand 31?" in page


def test_another_process_finds_the_board_the_save_kept(
    client, game, settled, django_assert_num_queries
):
    response = post(client, game, "new")
    caches["scoreboards"].clear()  # as in another process, which has seen none

    # The member's session and account, and the game: the board is the one the save kept.
    with django_assert_num_queries(3):
        page = client.get(response["Location"]).text

    assert len(settled) == COUNT + 1
    assert "#31 · " in page


def test_a_replay_of_a_version_changed_since_is_not_reused(client, game, user, settled):
    hands = game.hands_and_version()
    played = game.scored([*hands, Hand(number=COUNT + 1, **HELD_FIELDS)])
    # Meanwhile another phone records hand 31: Mei's side held, so she declares hand 32 too.
    Game.objects.get(pk=game.pk).record_hand(
        HELD_FIELDS, version=game.version, request_key="", by=user
    )
    settled.clear()

    hand = game.record_hand(
        HELD_FIELDS, version=game.version + 1, request_key="", by=user, hands=hands, played=played
    )

    assert hand.number == COUNT + 2
    assert len(settled) == COUNT + 2  # replayed from the hands as they are now
    assert GameSummary.objects.get(game=game).hand_count == COUNT + 2
    assert "#32 · " in client.get(game.get_absolute_url()).text
