"""Every refused field tells a screen reader so: its control is ``aria-invalid`` and its message
is linked by ``aria-describedby``, whichever page and kind of control (entry, select, buttons)."""

from __future__ import annotations

import pytest
from hands import held_form

from tests.reading import Element, elements, parse

pytestmark = pytest.mark.django_db

CONTROLS = {"input", "select", "textarea"}


def assert_refusals_are_announced(html: str, expected: set[str]) -> None:
    """Each error message ``<id>_error`` names the field ``<id>``: its control (or its fieldset
    and every button in it) is aria-invalid and described by the message; nothing else is
    marked invalid, and every id an aria-describedby names is on the page."""
    page = list(parse(html).walk())
    ids = {element.attrs["id"] for element in page if "id" in element.attrs}
    refused = {i.removesuffix("_error") for i in ids if i.endswith("_error")}
    assert refused == expected

    def described(attrs: dict) -> set[str]:
        return set(attrs.get("aria-describedby", "").split())

    def fieldsets_around(element: Element) -> set[str]:
        around = set()
        while element := element.parent:
            if element.tag == "fieldset":
                around.add(element.attrs.get("id", ""))
        return around

    for field in refused:
        owner = [element for element in page if element.attrs.get("id") == field]
        assert len(owner) == 1, field
        tag, attrs = owner[0].tag, owner[0].attrs
        assert f"{field}_error" in described(attrs), (field, attrs)
        if tag == "fieldset":
            buttons = [button.attrs for button in elements(owner[0], "input")]
            assert buttons and all(a.get("aria-invalid") == "true" for a in buttons), field
        else:
            assert tag in CONTROLS and attrs.get("aria-invalid") == "true", (field, attrs)
    for element in page:
        if element.attrs.get("aria-invalid") == "true":
            around = fieldsets_around(element)
            assert element.attrs.get("id") in refused or around & refused, element.attrs


def test_a_refused_hand_marks_its_buttons_and_its_entries(member, start_game):
    game = start_game()
    data = held_form(declarer="9", opponent_points="lots", last_trick_cards="x")
    data |= {"version": game.version, "request_key": "key"}

    response = member.post(f"/groups/{game.group_id}/games/{game.pk}/hands/new/", data)

    assert response.status_code == 200
    expected = {"id_declarer", "id_opponent_points", "id_last_trick_cards"}
    assert_refusals_are_announced(response.text, expected)


def test_a_refused_new_game_marks_its_selects_and_its_buttons(member, group, players):
    data = {
        **{f"seat_{number}": str(player.pk) for number, player in enumerate(players[:3], 1)},
        "seat_4": "",
        "rules": "standard",
        "teams": "everyone",
        "decks": "9",
        "trumps": "bid",
        "first_declarer": "",
    }

    response = member.post(f"/groups/{group.pk}/games/new/", data)

    assert response.status_code == 200
    assert_refusals_are_announced(response.text, {"id_seat_4", "id_teams", "id_decks"})


def test_a_refused_table_marks_its_bands_and_its_rules(member, group):
    data = {
        "name": "",
        "kitty": "triple",
        "game_end": "past-ace",
        "starter": "rotate",
        "throw_penalty": "0",
        "tractor_follow": "tractor",
        "band-TOTAL_FORMS": "1",
        "band-INITIAL_FORMS": "0",
        "band-MIN_NUM_FORMS": "1",
        "band-MAX_NUM_FORMS": "1000",
        "band-0-low": "lots",
        "band-0-high": "",
        "band-0-winner": "nobody",
        "band-0-levels": "1",
        "band-0-every": "",
    }

    response = member.post(f"/groups/{group.pk}/tables/new/", data)

    assert response.status_code == 200
    expected = {"id_name", "id_kitty", "id_band-0-low", "id_band-0-winner"}
    assert_refusals_are_announced(response.text, expected)


def test_a_refused_roster_name_is_announced(member, group, players):
    response = member.post(f"/groups/{group.pk}/", {"name": "Mei"})

    assert response.status_code == 200
    assert_refusals_are_announced(response.text, {"id_name"})


def test_a_refused_sign_up_is_announced(client):
    data = {"username": "mei", "password1": "a long passphrase", "password2": "another one"}

    response = client.post("/accounts/signup/", data)

    assert response.status_code == 200
    assert_refusals_are_announced(response.text, {"id_password2"})
