"""Every view says which HTTP methods it answers: a read-only page refuses a POST, a page that
is its own form refuses anything but reading and posting, an action (one URL each) refuses
anything but a POST, and nothing is changed by a refusal."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hands import HELD_FIELDS

from companion.models import Evening, Hand, HandChange
from scoring import PRESETS

pytestmark = pytest.mark.django_db


def test_a_read_only_page_refuses_a_post(member, group):
    assert member.post(f"/groups/{group.pk}/history/").status_code == 405


def test_a_page_with_its_form_refuses_other_methods_and_changes_nothing(member, start_game):
    game = start_game()
    url = f"/groups/{game.group_id}/games/{game.pk}/hands/new/"

    assert member.put(url, {"version": game.version}).status_code == 405
    assert member.delete(game.get_absolute_url()).status_code == 405
    assert not Hand.objects.exists()


def test_a_watch_link_answers_a_head_request(client, start_game):
    game = start_game()

    assert client.head(f"/watch/{game.share_token}/").status_code == 200


# Each action's URL name, and what its URL names: the game, a hand of it, the group, the club
# night, or nothing.
ACTIONS = {
    **dict.fromkeys(("undo_hand", "new_share_link"), "game"),
    **dict.fromkeys(("delete_hand", "confirm_hand", "flag_hand", "unflag_hand"), "hand"),
    **dict.fromkeys(
        (
            *("rename_group", "claim_player", "retire_player", "bring_back_player"),
            *("remove_member", "make_admin", "leave_group", "ask_for_confirmations"),
            "new_invite",
        ),
        "group",
    ),
    **dict.fromkeys(
        (
            *("swap_players", "start_round", "next_round"),
            *("join_evening", "leave_evening", "end_evening"),
        ),
        "evening",
    ),
    "dismiss_import": "nothing",
}


def state(group, evening: Evening) -> tuple:
    """What an action could change: a hand, the group's log, the club night's rounds, presence
    and end."""
    evening.refresh_from_db()
    return (
        HandChange.objects.count(),
        group.changes.count(),
        list(evening.rounds.values_list("pk", "started")),
        list(evening.presences.values_list("player", "present")),
        evening.ended,
    )


@pytest.mark.parametrize("name", ACTIONS)
def test_an_action_refuses_a_get_and_changes_nothing(
    member, group, players, user, start_game, name
):
    game = start_game()
    game.record_hand(HELD_FIELDS, version=game.version, request_key="", by=user)
    evening = Evening.start(group, players, rules_json=PRESETS["standard"].to_json(), by=user)
    args = {
        "game": [group.pk, game.pk],
        "hand": [group.pk, game.pk, 1],
        "group": [group.pk],
        "evening": [group.pk, evening.pk],
        "nothing": [],
    }[ACTIONS[name]]
    before = state(group, evening)

    response = member.get(reverse(name, args=args))

    assert response.status_code == 405
    assert state(group, evening) == before


@pytest.mark.parametrize("page", ["game", "evening"])
def test_an_old_pages_action_posted_to_its_page_is_refused(
    member, group, players, user, start_game, page
):
    game = start_game()
    game.record_hand(HELD_FIELDS, version=game.version, request_key="", by=user)
    evening = Evening.start(group, players, rules_json=PRESETS["standard"].to_json(), by=user)
    url, action = {
        "game": (game.get_absolute_url(), "undo"),
        "evening": (evening.get_absolute_url(), "start"),
    }[page]

    response = member.post(url, {"action": action, "version": game.version})

    assert response.status_code == 405
    assert Hand.objects.count() == 1
    assert not evening.rounds.filter(started__isnull=False).exists()
