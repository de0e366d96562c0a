"""Only a group's members see or change it: a non-member gets 404 on every group URL, an
anonymous visitor is asked to log in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from companion.models import Game, Group, Membership, Player, ScoringTable
from scoring import PRESETS

pytestmark = pytest.mark.django_db

GROUP_URLS = [
    "/groups/{group}/",
    "/groups/{group}/tables/new/",
    "/groups/{group}/tables/{table}/",
    "/groups/{group}/games/new/",
]


@pytest.fixture
def urls(group):
    table = ScoringTable.objects.create(group=group, rules_json=PRESETS["kawu"].to_json())
    return {"group": group.pk, "table": table.pk}


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url", GROUP_URLS)
def test_it_hides_a_group_from_a_non_member(client, outsider, urls, url, method):
    client.force_login(outsider)

    response = getattr(client, method)(url.format(**urls), {"name": "Zoe"})

    assert response.status_code == 404


@pytest.mark.parametrize("url", GROUP_URLS)
def test_it_hides_a_group_from_htmx_requests_of_a_non_member(client, outsider, urls, url):
    client.force_login(outsider)

    response = client.post(url.format(**urls), {"name": "Zoe"}, headers={"HX-Request": "true"})

    assert response.status_code == 404


@pytest.mark.parametrize("url", [*GROUP_URLS, "/groups/new/", "/join/{token}/"])
def test_it_sends_an_anonymous_visitor_to_log_in(client, group, urls, url):
    path = url.format(**urls, token=group.invite_token)

    response = client.get(path)

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"


def test_it_changes_nothing_for_a_non_member(client, outsider, group, players, urls):
    client.force_login(outsider)

    client.post(f"/groups/{group.pk}/", {"name": "Zoe"})
    client.post(f"/groups/{group.pk}/rename/", {"group-name": "Zoe's"})
    client.post(
        f"/groups/{group.pk}/games/new/",
        {
            **{f"seat_{number}": str(player.pk) for number, player in enumerate(players, 1)},
            "rules": "standard",
            "teams": "partners",
            "trumps": "bid",
        },
    )

    assert not Player.objects.filter(name="Zoe").exists()
    assert not Game.objects.exists()
    group.refresh_from_db()
    assert group.name == "Thursday Tractor"


@pytest.mark.parametrize("url", GROUP_URLS)
def test_a_removed_member_is_a_stranger_again(client, outsider, group, user, urls, url):
    Membership.objects.create(group=group, user=outsider)
    group.remove_member(outsider)
    client.force_login(outsider)

    assert client.get(url.format(**urls)).status_code == 404
    assert client.post(url.format(**urls), {"name": "Zoe"}).status_code == 404
    assert client.post(f"/groups/{group.pk}/leave/").status_code == 404


def test_a_non_member_cannot_remove_retire_or_renew_anything(client, outsider, group, players):
    client.force_login(outsider)
    token = group.invite_token

    for path, data in (
        ("members/remove/", {"member": group.members.get().pk}),
        ("leave/", {}),
        ("players/retire/", {"player": players[0].pk}),
        ("invite/", {}),
    ):
        assert client.post(f"/groups/{group.pk}/{path}", data).status_code == 404

    group.refresh_from_db()
    assert group.invite_token == token
    assert group.members.count() == 1
    assert not group.players.filter(retired=True).exists()


def test_it_hides_another_groups_table_behind_a_members_group(member, group):
    other = Group.objects.create(name="Elsewhere")
    table = ScoringTable.objects.create(group=other, rules_json=PRESETS["kawu"].to_json())

    assert member.get(f"/groups/{group.pk}/tables/{table.pk}/").status_code == 404
    assert member.get(f"/groups/{other.pk}/tables/{table.pk}/").status_code == 404


def test_it_answers_404_for_a_group_that_does_not_exist(member):
    assert member.get("/groups/999999/").status_code == 404


def test_it_finds_a_members_group_and_nobody_elses(group, user, outsider):
    assert Group.objects.for_member(user).get(pk=group.pk) == group
    for stranger in (outsider, AnonymousUser()):
        with pytest.raises(Group.DoesNotExist):
            Group.objects.for_member(stranger).get(pk=group.pk)


def test_it_finds_a_members_game_with_its_seats_and_nobody_elses(
    start_game, user, outsider, django_assert_num_queries
):
    game = start_game()

    with django_assert_num_queries(2):  # the game with its group, then its seats and players
        found = Game.objects.for_member(user).with_seats().get(pk=game.pk)
        assert [player.name for player in found.players] == ["Mei", "Jun", "Lin", "Hao"]
        assert found.group.name == "Thursday Tractor"
    for stranger in (outsider, AnonymousUser()):
        with pytest.raises(Game.DoesNotExist):
            Game.objects.for_member(stranger).get(pk=game.pk)
