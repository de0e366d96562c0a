"""Groups: the home page's list, a new group, its page (roster, games, tables, invite) and
joining by the invite link."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.formats import date_format

from companion.models import Group, Membership, Player
from scoring import PRESETS, Teams
from tests.reading import text, texts

pytestmark = pytest.mark.django_db


def test_it_lists_the_members_groups_on_the_home_page(member, group, outsider):
    Group.objects.create(name="Someone else's group")

    page = member.get("/").text

    assert f'href="/groups/{group.pk}/"' in page
    assert "Thursday Tractor" in text(page)
    assert "Someone else's group" not in text(page)
    assert 'href="/groups/new/"' in page
    assert 'href="/settle/"' in page


def test_it_creates_a_group_with_its_creator_as_member(member, user):
    response = member.post("/groups/new/", {"name": "Sunday Sheng Ji"})

    group = Group.objects.get(name="Sunday Sheng Ji")
    assert response.status_code == 302
    assert response["Location"] == f"/groups/{group.pk}/"
    assert list(group.members.all()) == [user]


def test_it_asks_for_the_group_name(member):
    response = member.post("/groups/new/", {"name": ""})

    assert response.status_code == 200
    assert "This field is required." in text(response.text)
    assert not Group.objects.exists()


def test_it_shows_the_roster_and_the_invite_link_with_its_qr_code(member, group, players):
    page = member.get(f"/groups/{group.pk}/").text

    assert sorted(texts(page, "li", within="#players")) == ["Hao", "Jun", "Lin", "Mei"]
    assert f'value="http://testserver/join/{group.invite_token}/"' in page
    assert '<svg viewBox="0 0' in page
    assert 'class="invite-qr"' in page
    assert f'href="/groups/{group.pk}/games/new/"' in page
    assert f'href="/groups/{group.pk}/tables/new/"' in page


def test_it_adds_a_player_and_redirects(member, group):
    response = member.post(f"/groups/{group.pk}/", {"name": "  Mei  "})

    assert response.status_code == 302
    assert response["Location"] == f"/groups/{group.pk}/"
    assert list(group.players.values_list("name", flat=True)) == ["Mei"]
    assert "Mei is on the roster." in text(member.get(response["Location"]).text)


def test_it_adds_a_player_in_place_for_htmx(member, group, players):
    response = member.post(f"/groups/{group.pk}/", {"name": "Zoe"}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="mb-4" id="roster"')
    assert "Zoe" in texts(response, "li", within="#players")
    assert "<html" not in response.text
    assert group.players.filter(name="Zoe").exists()


@pytest.mark.parametrize("name", ["Mei", "mei", " MEI "])
def test_it_refuses_a_name_already_on_the_roster(member, group, players, name):
    response = member.post(f"/groups/{group.pk}/", {"name": name})

    assert response.status_code == 200
    assert f"{name.strip()} is already on the roster." in text(response.text)
    assert 'class="form-control is-invalid"' in response.text
    assert f'value="{name}"' in response.text
    assert group.players.count() == 4


def test_it_refuses_a_duplicate_in_place_for_htmx(member, group, players):
    response = member.post(f"/groups/{group.pk}/", {"name": "Jun"}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "Jun is already on the roster." in text(response.text)
    assert group.players.count() == 4


def test_it_asks_for_a_name(member, group):
    response = member.post(f"/groups/{group.pk}/", {"name": "   "})

    assert response.status_code == 200
    assert "This field is required." in text(response.text)
    assert not Player.objects.exists()


def test_it_lets_two_groups_have_a_player_of_the_same_name(member, group, players):
    other = Group.objects.create(name="Elsewhere")
    Player.objects.create(group=other, name="Zoe")

    response = member.post(f"/groups/{group.pk}/", {"name": "Zoe"})

    assert response.status_code == 302
    assert Player.objects.filter(name="Zoe").count() == 2


def test_it_lists_the_games_with_their_rules_seats_and_date(member, group, players, start_game):
    game = start_game("kawu", first_declarer=0)

    page = member.get(f"/groups/{group.pk}/").text

    assert f'href="{reverse("game", args=[group.pk, game.pk])}"' in page
    said = text(page)
    assert "Mei & Lin" in said
    assert "Jun & Hao" in said
    assert texts(page, "span.badge", within="#games") == ["Kawu"]
    started = date_format(game.created, "SHORT_DATE_FORMAT")
    assert f"Started {started} · 0 hands · in progress" in said


def test_it_lists_a_find_a_friend_game_with_all_its_players(member, group, players, start_game):
    more = [Player.objects.create(group=group, name=name) for name in ("Wei", "Yan")]
    start_game(seated=players + more, teams=Teams.FIND_A_FRIEND)

    page = text(member.get(f"/groups/{group.pk}/"))

    assert "Mei · Jun · Lin · Hao · Wei · Yan" in text(page)
    assert "Find a friend · 0 hands" in text(page)


def test_the_group_page_reads_its_games_in_a_few_queries(
    member, group, players, start_game, django_assert_max_num_queries
):
    for _ in range(10):
        start_game()

    # The ladder is made afresh (nothing cached yet): its queries do not grow with the games.
    with django_assert_max_num_queries(17):
        assert member.get(f"/groups/{group.pk}/").status_code == 200


def test_it_lists_the_groups_tables(member, group):
    table = group.scoring_tables.create(rules_json={**PRESETS["kawu"].to_json(), "name": "ours"})

    page = member.get(f"/groups/{group.pk}/").text

    assert f'href="/groups/{group.pk}/tables/{table.pk}/">ours</a>' in page


def test_it_asks_before_joining_by_the_invite_link(client, group, outsider):
    client.force_login(outsider)

    response = client.get(f"/join/{group.invite_token}/")

    assert response.status_code == 200
    assert "Join Thursday Tractor?" in text(response.text)
    assert not group.members.filter(pk=outsider.pk).exists()


def test_it_joins_by_the_invite_link(client, group, outsider):
    client.force_login(outsider)

    response = client.post(f"/join/{group.invite_token}/")

    assert response.status_code == 302
    assert response["Location"] == f"/groups/{group.pk}/"
    assert group.members.filter(pk=outsider.pk).exists()
    assert "Welcome to Thursday Tractor." in text(client.get(response["Location"]).text)


def test_it_sends_a_member_on_to_the_group(member, group, user):
    for response in (
        member.get(f"/join/{group.invite_token}/"),
        member.post(f"/join/{group.invite_token}/"),
    ):
        assert response.status_code == 302
        assert response["Location"] == f"/groups/{group.pk}/"
    assert Membership.objects.filter(group=group, user=user).count() == 1


def test_it_sends_an_anonymous_invitee_to_log_in_first(client, group):
    response = client.get(f"/join/{group.invite_token}/")

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/join/{group.invite_token}/"


def test_it_knows_no_other_invite_token(member, group):
    assert member.get("/join/not-a-token/").status_code == 404


def test_it_renames_the_group(member, group):
    response = member.post(f"/groups/{group.pk}/rename/", {"group-name": "Friday Tractor"})

    assert response.status_code == 302
    group.refresh_from_db()
    assert group.name == "Friday Tractor"
    assert "Renamed the group Friday Tractor." in text(member.get(response["Location"]).text)


def test_it_keeps_the_name_when_the_new_one_is_blank(member, group):
    response = member.post(f"/groups/{group.pk}/rename/", {"group-name": ""})

    assert response.status_code == 200
    assert "This field is required." in text(response.text)
    assert texts(response, "h1") == ["Thursday Tractor"]
    group.refresh_from_db()
    assert group.name == "Thursday Tractor"
    assert not group.players.exists()


def test_the_group_page_lists_the_latest_games_and_counts_them_all(member, group, start_game):
    for _ in range(12):
        start_game()

    page = member.get(f"/groups/{group.pk}/").text

    assert page.count('class="list-group-item list-group-item-action"') == 10
    assert "The latest 10 of 12 games." in text(page)


def test_a_member_says_which_player_they_are_and_can_take_it_back(member, user, group, players):
    mei = players[0]

    response = member.post(f"/groups/{group.pk}/me/", {"player": mei.pk})

    assert response.status_code == 302
    mei.refresh_from_db()
    assert mei.user == user
    page = member.get(f"/groups/{group.pk}/").text
    assert "You are Mei on the roster." in text(page)
    assert "Mei · mei" in texts(page, "li", within="#players")

    member.post(f"/groups/{group.pk}/me/", {"player": ""})
    mei.refresh_from_db()
    assert mei.user is None


def test_a_member_cannot_claim_a_player_another_account_claimed(
    member, user, outsider, group, players
):
    jun = players[1]
    jun.user = outsider
    jun.save()

    response = member.post(f"/groups/{group.pk}/me/", {"player": jun.pk}, follow=True)

    jun.refresh_from_db()
    assert jun.user == outsider
    assert "That player is someone else's." in text(response)
