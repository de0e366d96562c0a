"""Every view says which HTTP methods it answers: a read-only page refuses a POST, a page that
is its own form refuses anything but reading and posting, and nothing is changed by a refusal."""

from __future__ import annotations

import pytest

from companion.models import Hand

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
