"""Who steers a group: its admins (Mei, who made it) rename it, choose confirmations, keep its
tables and invite link, retire players, remove members and make admins; every member plays,
records and invites. Every such change is in the group's log."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from companion import exchange
from companion.models import Group, Membership, ScoringTable
from scoring.rules import STANDARD
from tests.companion.conftest import PASSWORD
from tests.companion.test_tables import table_data
from tests.reading import text

pytestmark = pytest.mark.django_db

REFUSED = "Only the group&#x27;s admins can do that: ask mei."


@pytest.fixture
def jun(group) -> User:
    """Jun's account, a member of ``group`` but not one of its admins."""
    jun = User.objects.create_user("jun", password=PASSWORD)
    Membership.objects.create(group=group, user=jun)
    return jun


@pytest.fixture
def juns_phone(jun) -> Client:
    client = Client()
    client.force_login(jun)
    return client


@pytest.fixture
def house_table(group) -> ScoringTable:
    return ScoringTable.objects.create(
        group=group, rules_json={**STANDARD.to_json(), "name": "House"}
    )


def state(group: Group) -> tuple:
    """Everything an admin-only action could change, to compare before and after."""
    group.refresh_from_db()
    return (
        group.name,
        group.hands_need_confirmation,
        group.invite_token,
        sorted(group.membership_set.values_list("user__username", "role")),
        sorted(group.players.values_list("name", "retired")),
        sorted(
            json.dumps(table.rules_json, sort_keys=True) for table in group.scoring_tables.all()
        ),
        group.changes.count(),
    )


def test_whoever_makes_a_group_is_its_admin(member, user):
    response = member.post("/groups/new/", {"name": "Friday Tractor"}, follow=True)

    group = Group.objects.get(name="Friday Tractor")
    assert group.membership_set.get().role == "admin"
    assert "Admin: mei" in text(response.text)
    assert "mei made the group Friday Tractor." in text(member.get(f"/groups/{group.pk}/log/").text)


# What a non-admin might post, and where.
ADMIN_ONLY = {
    "rename": ("rename/", {"group-name": "Jun's Tractor"}),
    "confirmations on": ("confirmations/", {"hands_need_confirmation": "on"}),
    "new invite": ("invite/", {}),
    "remove": ("members/remove/", {"member": "MEI"}),
    "retire": ("players/retire/", {"player": "HAO"}),
    "bring back": ("players/bring-back/", {"player": "LIN"}),
    "make admin": ("members/admin/", {"member": "JUN", "admin": "yes"}),
    "take back admin": ("members/admin/", {"member": "MEI", "admin": "no"}),
}


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("name", list(ADMIN_ONLY))
def test_a_member_who_is_not_an_admin_cannot_steer_the_group(
    juns_phone, group, user, jun, players, name, htmx
):
    players[2].retire()
    ids = {"MEI": user.pk, "JUN": jun.pk, "HAO": players[3].pk, "LIN": players[2].pk}
    path, sent = ADMIN_ONLY[name]
    data = {key: ids.get(value, value) for key, value in sent.items()}
    before = state(group)

    headers = {"HX-Request": "true"} if htmx else {}
    response = juns_phone.post(f"/groups/{group.pk}/{path}", data, headers=headers)

    assert state(group) == before
    assert response.status_code == 403
    if htmx:
        assert response.headers["HX-Refresh"] == "true"
        response = juns_phone.get(f"/groups/{group.pk}/")
    assert REFUSED in response.text


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_member_who_is_not_an_admin_cannot_add_or_change_a_scoring_table(
    juns_phone, group, jun, house_table, method
):
    before = state(group)

    for url in (f"/groups/{group.pk}/tables/new/", f"/groups/{group.pk}/tables/{house_table.pk}/"):
        response = getattr(juns_phone, method)(url, table_data(), follow=True)
        assert response.status_code == 403
        assert REFUSED in response.text
        assert "Thursday rules" not in response.text

    assert state(group) == before


def test_a_member_who_is_not_an_admin_sees_who_the_admins_are_and_no_admin_controls(
    juns_phone, group, jun, players, house_table
):
    players[3].retire()

    page = juns_phone.get(f"/groups/{group.pk}/").text

    assert "Admin: mei" in text(page)
    assert '<span class="badge text-bg-secondary">admin</span>' in page
    for control in (
        f'action="/groups/{group.pk}/rename/"',
        f'action="/groups/{group.pk}/invite/"',
        f'action="/groups/{group.pk}/confirmations/"',
        f'action="/groups/{group.pk}/players/retire/"',
        f'action="/groups/{group.pk}/players/bring-back/"',
        f'action="/groups/{group.pk}/members/remove/"',
        f'action="/groups/{group.pk}/members/admin/"',
        f"/groups/{group.pk}/tables/new/",
        f"/groups/{group.pk}/tables/{house_table.pk}/",
    ):
        assert control not in page, control
    assert "The group does not ask for hands to be confirmed; its admins choose." in text(page)
    assert 'id="invite-url"' in page, "every member passes the invite on"
    assert f'action="/groups/{group.pk}/leave/"' in page
    assert "House" in page


def test_the_admin_sees_the_admin_controls(member, group, jun, players, house_table):
    players[3].retire()

    page = member.get(f"/groups/{group.pk}/").text

    for control in (
        f'action="/groups/{group.pk}/rename/"',
        f'action="/groups/{group.pk}/invite/"',
        f'action="/groups/{group.pk}/confirmations/"',
        f'action="/groups/{group.pk}/players/retire/"',
        f'action="/groups/{group.pk}/players/bring-back/"',
        'aria-label="Remove jun"',
        "Make jun an admin",
        f"/groups/{group.pk}/tables/new/",
        f"/groups/{group.pk}/tables/{house_table.pk}/",
    ):
        assert control in page, control


def test_a_member_who_is_not_an_admin_still_plays_and_invites(juns_phone, group, jun, start_game):
    game = start_game()

    juns_phone.post(f"/groups/{group.pk}/", {"name": "Wei"})
    juns_phone.post(f"/groups/{group.pk}/me/", {"player": game.players[1].pk})
    juns_phone.post(game.get_absolute_url() + "share-link/")
    old_share = game.share_token
    game.refresh_from_db()

    assert group.players.filter(name="Wei").exists()
    assert group.players.get(user=jun).name == "Jun"
    assert game.share_token != old_share
    assert juns_phone.get(f"/groups/{group.pk}/games/new/").status_code == 200
    response = juns_phone.post(f"/groups/{group.pk}/leave/")
    assert response["Location"] == "/"
    assert not group.members.filter(pk=jun.pk).exists()


def test_an_admin_makes_another_admin_who_can_then_steer(member, juns_phone, group, jun):
    response = member.post(
        f"/groups/{group.pk}/members/admin/", {"member": jun.pk, "admin": "yes"}, follow=True
    )

    assert "jun is an admin of Thursday Tractor." in text(response.text)
    assert "Admins: mei and jun" in text(response.text)
    juns_phone.post(f"/groups/{group.pk}/rename/", {"group-name": "Jun's Tractor"})
    group.refresh_from_db()
    assert group.name == "Jun's Tractor"


def test_an_admin_may_demote_or_remove_another_admin(member, group, user, jun, outsider):
    group.make_admin(jun, by=user)
    group.add_admin(outsider)

    member.post(f"/groups/{group.pk}/members/admin/", {"member": jun.pk, "admin": "no"})
    response = member.post(
        f"/groups/{group.pk}/members/remove/", {"member": outsider.pk}, follow=True
    )

    assert "zoe is no longer a member of Thursday Tractor." in text(response.text)
    assert dict(group.membership_set.values_list("user__username", "role")) == {
        "mei": "admin",
        "jun": "member",
    }


def test_the_last_admin_cannot_step_down(member, group, user, jun):
    page = member.get(f"/groups/{group.pk}/").text
    assert "Step down as admin" not in page
    assert (
        "You are the only admin: make another member an admin before you can step down or leave"
        " the group." in page
    )

    response = member.post(
        f"/groups/{group.pk}/members/admin/", {"member": user.pk, "admin": "no"}, follow=True
    )

    assert "You are the only admin: make another member an admin before you step down." in (
        text(response.text)
    )
    assert group.is_admin(user)
    assert not group.changes.exists()


def test_the_last_admin_cannot_leave_while_others_remain(member, group, user, jun):
    page = member.get(f"/groups/{group.pk}/").text
    assert f'action="/groups/{group.pk}/leave/"' not in page

    response = member.post(f"/groups/{group.pk}/leave/", follow=True)

    assert (
        "You are the only admin of Thursday Tractor: make another member an admin before you"
        " leave it." in text(response.text)
    )
    assert group.members.filter(pk=user.pk).exists()
    assert group.is_admin(user)


def test_an_admin_steps_down_when_another_admin_remains(member, group, user, jun):
    group.make_admin(jun, by=user)
    assert "Step down as admin" in text(member.get(f"/groups/{group.pk}/").text)

    response = member.post(
        f"/groups/{group.pk}/members/admin/", {"member": user.pk, "admin": "no"}, follow=True
    )

    assert "You are no longer an admin of Thursday Tractor." in text(response.text)
    assert "Admin: jun" in text(response.text)
    assert not group.is_admin(user)
    assert f'action="/groups/{group.pk}/rename/"' not in response.text


def test_the_last_admin_cannot_step_down_even_by_the_model(group, user, jun):
    from companion.models import LastAdmin

    with pytest.raises(LastAdmin):
        group.make_admin(user, False, by=user)
    with pytest.raises(LastAdmin):
        group.remove_member(user, by=user)

    assert group.is_admin(user)


def test_the_database_holds_only_known_roles(group, jun):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(user=jun).update(role="owner")

    assert Membership.objects.get(user=jun).role == "member"


def test_the_importer_is_the_admin_of_the_group_it_imports(group, user, start_game):
    start_game()
    text = exchange.dumps(group)

    imported = exchange.import_group(exchange.load(text.encode()), name="Copy", members=[user])

    assert imported.group.is_admin(user)


# The group's log


def test_every_change_an_admin_makes_is_in_the_log_in_the_players_names(
    member, juns_phone, group, user, jun, players, start_game
):
    players[0].claim(user)
    players[1].claim(jun)
    game = start_game()
    url = f"/groups/{group.pk}/"
    for path, data in (
        ("rename/", {"group-name": "Friday Tractor"}),
        ("confirmations/", {"hands_need_confirmation": "on"}),
        ("confirmations/", {}),
        ("invite/", {}),
        ("players/retire/", {"player": players[3].pk}),
        ("players/bring-back/", {"player": players[3].pk}),
        ("members/admin/", {"member": jun.pk, "admin": "yes"}),
        ("members/admin/", {"member": jun.pk, "admin": "no"}),
    ):
        assert member.post(url + path, data).status_code == 302
    member.post(f"/groups/{group.pk}/tables/new/", table_data())
    table = group.scoring_tables.get()
    member.post(f"/groups/{group.pk}/tables/{table.pk}/", table_data(name="House", initial=4))
    member.post(game.get_absolute_url() + "share-link/")
    member.post(url + "members/remove/", {"member": jun.pk})
    zoe = User.objects.create_user("zoe")
    zoes_phone = Client()
    zoes_phone.force_login(zoe)
    group.refresh_from_db()
    zoes_phone.post(f"/join/{group.invite_token}/")
    zoes_phone.post(url + "leave/")

    page = member.get(f"/groups/{group.pk}/log/").text

    said = [
        "zoe left the group.",
        "zoe joined the group.",
        "Mei removed Jun from the group.",
        "Mei made a new share link for the game of Mei, Jun, Lin and Hao.",
        "Mei changed the scoring table Thursday rules, now named House.",
        "Mei added the scoring table Thursday rules.",
        "Mei made Jun no longer an admin.",
        "Mei made Jun an admin.",
        "Mei brought Hao back to the roster.",
        "Mei retired Hao.",
        "Mei made a new invite link: the old one no longer works.",
        "Mei stopped asking for hands to be confirmed: each counts as it is entered.",
        "Mei asked for each hand to be confirmed by an opponent.",
        "Mei renamed the group Thursday Tractor to Friday Tractor.",
    ]
    text = " ".join(page.split())
    positions = [text.find(sentence) for sentence in said]
    assert -1 not in positions, [s for s, at in zip(said, positions, strict=True) if at == -1]
    assert positions == sorted(positions), "newest first"
    assert group.changes.count() == len(said)
    assert f'href="/groups/{group.pk}/log/"' in member.get(url).text


def test_the_group_log_is_paged(member, group, user):
    for number in range(60):
        group.rename(f"Tractor {number}", by=user)

    first = member.get(f"/groups/{group.pk}/log/").text
    second = member.get(f"/groups/{group.pk}/log/?page=2").text

    assert first.count('<li class="border-bottom py-2">') == 50
    assert "mei renamed the group Tractor 58 to Tractor 59." in text(first)
    assert "Page 1 of 2" in text(first)
    assert 'href="?page=2"' in first
    assert second.count('<li class="border-bottom py-2">') == 10
    assert "mei renamed the group Thursday Tractor to Tractor 0." in text(second)


def test_only_members_read_the_group_log(client, group, outsider):
    client.force_login(outsider)

    assert client.get(f"/groups/{group.pk}/log/").status_code == 404


# The migration


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_each_groups_earliest_member_its_admin():
    executor = MigrationExecutor(connection)
    before = [("companion", "0012_account_language")]
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    old_group = apps.get_model("companion", "Group")
    old_membership = apps.get_model("companion", "Membership")
    old_user = apps.get_model("auth", "User")
    mei, jun, lin = (old_user.objects.create(username=name) for name in ("mei", "jun", "lin"))
    thursday = old_group.objects.create(name="Thursday", invite_token="a" * 32)
    friday = old_group.objects.create(name="Friday", invite_token="b" * 32)
    joined = thursday.created
    from datetime import timedelta

    # Jun joined Thursday after Mei made it, though his row came first.
    old_membership.objects.create(group=thursday, user=jun, joined=joined + timedelta(days=3))
    old_membership.objects.create(group=thursday, user=mei, joined=joined)
    old_membership.objects.create(group=thursday, user=lin, joined=joined + timedelta(days=9))
    old_membership.objects.create(group=friday, user=lin, joined=joined)

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    roles = dict(
        Membership.objects.filter(group_id=thursday.pk).values_list("user__username", "role")
    )
    assert roles == {"mei": "admin", "jun": "member", "lin": "member"}
    assert Membership.objects.get(group_id=friday.pk).role == "admin"
