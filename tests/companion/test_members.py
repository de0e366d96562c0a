"""Changing who belongs: a new invite link or share link that retires the old one, removing a
member, leaving a group, and retiring a player (and bringing them back) without losing their
games."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from companion.models import Group, Membership, Player
from tests.companion.conftest import PASSWORD
from tests.reading import text, texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def jun(group) -> User:
    """Jun's account, a second member of ``group``."""
    jun = User.objects.create_user("jun", password=PASSWORD)
    Membership.objects.create(group=group, user=jun)
    return jun


# Invite links


def test_it_makes_a_new_invite_link_and_the_old_one_stops_working(member, group, outsider, client):
    old = group.invite_token

    response = member.post(f"/groups/{group.pk}/invite/", follow=True)

    group.refresh_from_db()
    assert group.invite_token != old
    assert "Made a new invite link: the old one no longer works." in text(response.text)
    assert f'value="http://testserver/join/{group.invite_token}/"' in response.text
    assert old not in response.text
    client.force_login(outsider)
    assert client.get(f"/join/{old}/").status_code == 404
    assert client.post(f"/join/{old}/").status_code == 404
    assert not group.members.filter(pk=outsider.pk).exists()
    assert client.get(f"/join/{group.invite_token}/").status_code == 200


def test_it_asks_before_making_a_new_invite_link(member, group):
    page = member.get(f"/groups/{group.pk}/").text

    assert 'data-confirm="Make a new invite link? The old one stops working' in page
    assert f'action="/groups/{group.pk}/invite/"' in page


# Share links


def test_it_makes_a_new_share_link_and_the_old_one_stops_working(member, client, start_game):
    game = start_game()
    old = game.share_token
    assert client.get(f"/watch/{old}/").status_code == 200

    response = member.post(game.get_absolute_url() + "share-link/", follow=True)

    game.refresh_from_db()
    assert game.share_token != old
    assert "Made a new share link: the old one no longer shows the game." in text(response.text)
    assert f'href="/watch/{game.share_token}/"' in response.text
    client.logout()
    assert client.get(f"/watch/{old}/").status_code == 404
    assert client.get(f"/watch/{old}/?since=0", headers={"HX-Request": "true"}).status_code == 404
    assert client.get(f"/watch/{game.share_token}/").status_code == 200


def test_it_asks_before_making_a_new_share_link(member, start_game):
    game = start_game()
    page = member.get(game.get_absolute_url()).text

    assert 'data-confirm="Make a new share link? Anyone watching with the old one' in page
    assert f'action="{game.get_absolute_url()}share-link/"' in page


def test_a_watcher_cannot_make_a_new_share_link(client, start_game):
    game = start_game()

    page = client.get(f"/watch/{game.share_token}/").text
    response = client.post(f"/watch/{game.share_token}/")

    assert "share-link/" not in page
    assert response.status_code == 405  # the watch page only reads
    assert Group.objects.get().games.get().share_token == game.share_token


def test_a_non_member_cannot_make_a_new_share_link(client, outsider, start_game):
    game = start_game()
    client.force_login(outsider)

    response = client.post(game.get_absolute_url() + "share-link/")

    assert response.status_code == 404
    old = game.share_token
    game.refresh_from_db()
    assert game.share_token == old


# Members


def test_it_lists_the_members_with_a_remove_button_for_the_others(member, client, group, jun):
    page = member.get(f"/groups/{group.pk}/").text

    assert "mei (you)" in text(page)
    assert f'name="member" value="{jun.pk}"' in page
    assert 'aria-label="Remove jun"' in page
    assert 'aria-label="Remove mei"' not in page
    assert (
        'data-confirm="Remove jun from Thursday Tractor? They will no longer see its games."'
        in (page)
    )
    client.force_login(jun)
    assert 'data-confirm="Leave Thursday Tractor? You will need an invite link to come back."' in (
        client.get(f"/groups/{group.pk}/").text
    )


def test_it_removes_a_member_who_then_cannot_see_the_group(member, client, group, jun, players):
    players[1].user = jun
    players[1].save()

    response = member.post(f"/groups/{group.pk}/members/remove/", {"member": jun.pk}, follow=True)

    assert "jun is no longer a member of Thursday Tractor." in text(response.text)
    assert list(group.members.all()) == [group.members.get(username="mei")]
    players[1].refresh_from_db()
    assert players[1].user is None, "Jun stays on the roster, no longer linked to the account"
    client.force_login(jun)
    assert client.get(f"/groups/{group.pk}/").status_code == 404
    assert "Thursday Tractor" not in client.get("/").text


def test_a_removed_member_loses_their_games_too(member, client, group, jun, start_game):
    game = start_game()
    member.post(f"/groups/{group.pk}/members/remove/", {"member": jun.pk})
    client.force_login(jun)

    for url in (game.get_absolute_url(), f"/groups/{group.pk}/games/new/"):
        assert client.get(url).status_code == 404
    assert client.post(f"/groups/{group.pk}/members/remove/", {"member": 1}).status_code == 404


@pytest.mark.parametrize("value", ["", "not-a-number", "999999"])
def test_it_names_a_member_it_cannot_remove(member, group, jun, value):
    response = member.post(f"/groups/{group.pk}/members/remove/", {"member": value}, follow=True)

    assert response.status_code == 200
    assert (
        "Choose the member to remove." if not value else "That person is not a member of the group."
    ) in text(response.text)
    assert group.members.count() == 2


def test_it_does_not_remove_someone_from_another_group(member, group, outsider):
    Membership.objects.create(group=Group.objects.create(name="Elsewhere"), user=outsider)

    response = member.post(
        f"/groups/{group.pk}/members/remove/", {"member": outsider.pk}, follow=True
    )

    assert "That person is not a member of the group." in text(response.text)
    assert Membership.objects.filter(user=outsider).count() == 1


def test_removing_yourself_is_leaving_and_asks_differently(member, group, user, jun):
    response = member.post(f"/groups/{group.pk}/members/remove/", {"member": user.pk}, follow=True)

    assert "That person is not a member of the group." in text(response.text)
    assert group.members.filter(pk=user.pk).exists()


def test_a_member_leaves_the_group(member, group, user, jun, players):
    players[0].user = user
    players[0].save()
    group.make_admin(jun, by=user)  # Mei is no longer the only admin

    response = member.post(f"/groups/{group.pk}/leave/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    page = member.get("/").text
    assert "You left Thursday Tractor." in text(page)
    assert f'href="/groups/{group.pk}/"' not in page
    assert list(group.members.all()) == [jun]
    assert member.get(f"/groups/{group.pk}/").status_code == 404
    players[0].refresh_from_db()
    assert players[0].user is None
    assert group.players.count() == 4


def test_the_last_member_cannot_leave(member, group, user):
    page = member.get(f"/groups/{group.pk}/").text
    assert "You are the only member: invite someone before you can leave the group." in text(page)
    assert 'value="leave"' not in page

    response = member.post(f"/groups/{group.pk}/leave/", follow=True)

    assert "You are the only member of Thursday Tractor: invite someone before you leave it." in (
        text(response.text)
    )
    assert list(group.members.all()) == [user]


def test_a_member_who_left_comes_back_by_the_invite_link(member, group, user, jun):
    group.make_admin(jun, by=user)
    member.post(f"/groups/{group.pk}/leave/")
    assert not group.members.filter(pk=user.pk).exists()

    member.post(f"/join/{group.invite_token}/")

    assert group.members.filter(pk=user.pk).exists()


# Retired players


def test_it_retires_a_player_keeping_their_games(member, group, players, start_game):
    game = start_game()

    response = member.post(
        f"/groups/{group.pk}/players/retire/", {"player": players[3].pk}, follow=True
    )

    assert "Hao is retired: their games stay in the history." in text(response.text)
    assert "Hao" not in texts(response, "li", within="#players"), "not among those playing"
    assert '<span class="text-body-secondary">Hao</span>' in response.text
    assert 'aria-label="Bring Hao back"' in response.text
    players[3].refresh_from_db()
    assert players[3].retired
    assert game.players == players
    assert "Hao" in member.get(game.get_absolute_url()).text
    assert "Hao" in member.get(f"/groups/{group.pk}/history/").text


def test_a_retired_player_is_not_offered_for_a_new_game(member, group, players):
    players[3].retire()

    page = member.get(f"/groups/{group.pk}/games/new/").text
    response = member.post(
        f"/groups/{group.pk}/games/new/",
        {
            "rules": "standard",
            "teams": "partners",
            **{f"seat_{n}": player.pk for n, player in enumerate(players, start=1)},
        },
    )

    assert f'<option value="{players[3].pk}">Hao</option>' not in page
    assert "Hao" not in text(page)
    assert f'<option value="{players[2].pk}">Lin</option>' in page
    assert response.status_code == 200
    assert "Select a valid choice." in text(response.text)
    assert not group.games.exists()


def test_it_brings_a_retired_player_back(member, group, players):
    players[3].retire()

    response = member.post(
        f"/groups/{group.pk}/players/bring-back/", {"player": players[3].pk}, follow=True
    )

    assert "Hao is back on the roster." in text(response.text)
    assert "Hao" in texts(response, "li", within="#players")
    players[3].refresh_from_db()
    assert not players[3].retired
    page = member.get(f"/groups/{group.pk}/games/new/").text
    assert f'<option value="{players[3].pk}">Hao</option>' in page


def test_it_retires_a_player_in_place_for_htmx(member, group, players):
    response = member.post(
        f"/groups/{group.pk}/players/retire/",
        {"player": players[1].pk},
        headers={"HX-Request": "true"},
    )

    assert response.text.lstrip().startswith('<section class="mb-4" id="roster"')
    assert "<html" not in response.text
    assert 'aria-label="Bring Jun back"' in response.text
    assert "Jun" not in texts(response, "li", within="#players")
    assert Player.objects.get(name="Jun").retired
    assert "is retired" not in member.get(f"/groups/{group.pk}/").text, "no stale message later"


@pytest.mark.parametrize("value", ["", "nobody", "999999"])
def test_it_names_a_player_it_cannot_retire(member, group, players, value):
    response = member.post(f"/groups/{group.pk}/players/retire/", {"player": value}, follow=True)

    assert "Choose a player on the roster to retire." in text(response.text)
    assert not group.players.filter(retired=True).exists()


def test_it_shows_why_it_cannot_retire_in_place_for_htmx(member, group, players):
    response = member.post(
        f"/groups/{group.pk}/players/retire/", {"player": ""}, headers={"HX-Request": "true"}
    )

    assert "Choose a player on the roster to retire." in text(response.text)
    assert 'class="form-select is-invalid"' in response.text
    assert '<details class="mt-2" open>' in response.text


def test_it_does_not_retire_a_player_of_another_group(member, group, players):
    stranger = Player.objects.create(group=Group.objects.create(name="Elsewhere"), name="Zoe")

    member.post(f"/groups/{group.pk}/players/retire/", {"player": stranger.pk})

    stranger.refresh_from_db()
    assert not stranger.retired


def test_bringing_back_a_player_who_is_not_retired_says_so(member, group, players):
    response = member.post(
        f"/groups/{group.pk}/players/bring-back/", {"player": players[0].pk}, follow=True
    )

    assert "Choose a retired player to bring back." in text(response.text)
    assert not group.players.filter(retired=True).exists()


def test_adding_a_retired_players_name_suggests_bringing_them_back(member, group, players):
    players[3].retire()

    response = member.post(f"/groups/{group.pk}/", {"name": "hao"})

    assert "Hao is retired: bring them back instead." in text(response.text)
    assert group.players.count() == 4


def test_the_roster_says_so_when_everyone_is_retired(member, group, players):
    for player in players:
        player.retire()

    page = member.get(f"/groups/{group.pk}/").text

    assert "Everyone on the roster is retired: bring someone back or add a player." in text(page)
    assert "Retire a player" not in page
