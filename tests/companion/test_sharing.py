"""Sharing that people understand: the game's share link says what it shows, is copied with one
tap or read by a camera from its QR code, and can be replaced; the group's invite link too."""

from __future__ import annotations

import pytest

from tests.reading import text

pytestmark = pytest.mark.django_db


def test_the_game_page_says_what_its_share_link_shows(member, start_game):
    game = start_game()

    page = member.get(game.get_absolute_url()).text

    assert "Anyone with this link sees the live scoreboard, read-only, without an account." in text(
        page
    )
    assert (
        f'id="share-url" type="text" readonly value="http://testserver/watch/{game.share_token}/"'
        in page
    )
    assert 'data-copy="share-url"' in page
    assert 'class="qr-code"' in page
    assert f'action="{game.get_absolute_url()}share-link/"' in page


def test_the_share_qr_code_follows_a_new_share_link(member, start_game):
    game = start_game()
    before = member.get(game.get_absolute_url()).text

    member.post(game.get_absolute_url() + "share-link/")

    game.refresh_from_db()
    after = member.get(game.get_absolute_url()).text
    assert f"/watch/{game.share_token}/" in after
    qr = after[after.index('class="qr-code"') :]
    assert qr[: qr.index("</svg>")] not in before


def test_a_watcher_gets_no_share_controls(client, start_game):
    game = start_game()

    page = client.get(f"/watch/{game.share_token}/").text

    assert 'data-copy="share-url"' not in page
    assert "Anyone with this link" not in page


def test_the_group_page_copies_its_invite_link(member, group):
    page = member.get(f"/groups/{group.pk}/").text

    assert (
        f'id="invite-url" type="text" readonly value="http://testserver/join/{group.invite_token}/"'
        in page
    )
    assert 'data-copy="invite-url" aria-describedby="invite-url-status"' in page
    assert 'id="invite-url-status" role="status"' in page
