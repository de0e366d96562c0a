"""The export and import pages: downloads, imports through the page, and who may use them."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from exchange_documents import FOUR_SEAT_V1, THURSDAY, _upload, document, forget_the_import

from companion.models import Group, Membership
from tests.reading import text

pytestmark = pytest.mark.django_db


def test_it_downloads_the_export_as_a_json_file(member, group, players):
    response = member.get(f"/groups/{group.pk}/export.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="thursday-tractor-')
    assert response["Content-Disposition"].endswith('.json"')
    assert json.loads(response.getvalue())["players"][0] == {
        "name": "Mei",
        "user": None,
        "retired": False,
    }


def test_the_group_page_links_to_both_exports(member, group):
    page = member.get(f"/groups/{group.pk}/").text

    assert f'href="/groups/{group.pk}/export.json"' in page
    assert f'href="/groups/{group.pk}/export.csv"' in page


def test_it_imports_a_file_as_a_new_group_with_the_importer_as_its_member(member, user, outsider):
    data = document()
    data["members"].append({"username": "zoe", "joined": THURSDAY, "role": "member"})
    data["players"][4]["user"] = "zoe"

    response = member.post("/groups/import/", {"file": _upload(data), "name": ""}, follow=True)

    group = Group.objects.get(name="Thursday Tractor")
    assert list(group.members.all()) == [user]
    # Zoe shares no group with Mei: the file cannot link her account.
    assert group.players.get(name="Zoe").user is None
    assert "Imported Thursday Tractor: 5 players, 1 game, 2 hands." in text(response.text)
    assert "is credited to nobody: zoe." in text(response.text)
    assert response.redirect_chain == [(group.get_absolute_url(), 302)]


def test_it_imports_an_old_file_through_the_page(member, user):
    upload = io.BytesIO(FOUR_SEAT_V1.read_bytes())
    upload.name = "four_seat_v1.json"

    response = member.post("/groups/import/", {"file": upload, "name": "Old"}, follow=True)

    assert "Imported Old: 5 players, 3 games, 8 hands." in text(response.text)
    assert Group.objects.get(name="Old").games.count() == 3


def test_it_links_the_accounts_of_people_the_importer_plays_with(member, group, outsider):
    Membership.objects.create(group=group, user=outsider)
    data = document()
    data["players"][4]["user"] = "zoe"

    member.post("/groups/import/", {"file": _upload(data), "name": "Copy"})

    assert Group.objects.get(name="Copy").players.get(name="Zoe").user == outsider


def test_the_new_group_page_links_to_the_import(member):
    page = member.get("/groups/new/").text

    assert 'href="/groups/import/"' in page
    assert member.get("/groups/import/").status_code == 200


def test_it_round_trips_a_500_game_history_through_the_pages(client, django_user_model):
    """The issue's case: two years of weekly games, exported, imported, exported again."""
    call_command(
        "demo_history", "--games=500", "--seed=11", "--until=2025-06-26", "--group=Ladder club"
    )
    source = Group.objects.get(name="Ladder club")
    client.force_login(django_user_model.objects.get(username="demo"))
    text = client.get(f"/groups/{source.pk}/export.json").getvalue()
    exported = json.loads(text)
    assert len(exported["games"]) == 500
    assert 8_000 <= sum(len(game["hands"]) for game in exported["games"]) <= 12_500

    upload = io.BytesIO(text)
    upload.name = "ladder-club.json"
    response = client.post("/groups/import/", {"file": upload, "name": "Ladder club (copy)"})

    copy_ = Group.objects.get(name="Ladder club (copy)")
    assert response.status_code == 302
    assert response["Location"] == copy_.get_absolute_url()
    forget_the_import(copy_)
    again = client.get(f"/groups/{copy_.pk}/export.json").getvalue()
    assert again == text.replace(b'"name":"Ladder club"', b'"name":"Ladder club (copy)"', 1)


# Access.


@pytest.mark.parametrize("url", ["/groups/{group}/export.json", "/groups/{group}/export.csv"])
def test_it_hides_the_exports_from_a_non_member(client, outsider, group, players, url):
    client.force_login(outsider)

    assert client.get(url.format(group=group.pk)).status_code == 404


@pytest.mark.parametrize(
    "url", ["/groups/{group}/export.json", "/groups/{group}/export.csv", "/groups/import/"]
)
def test_it_sends_an_anonymous_visitor_to_log_in_before_an_export(client, group, url):
    path = url.format(group=group.pk)

    response = client.post(path) if "import" in path else client.get(path)

    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"
    assert Group.objects.count() == 1


def test_it_answers_404_for_the_export_of_a_group_that_does_not_exist(member):
    assert member.get("/groups/999999/export.json").status_code == 404
