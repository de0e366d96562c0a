"""A group's own scoring tables: the form, scoring's verdict on it, the live preview."""

from __future__ import annotations

import re

import pytest

from companion.models import Game, ScoringTable
from scoring import PRESETS, get_rules
from tests.reading import text

pytestmark = pytest.mark.django_db

# Rows as the form posts them: (from, to, winner, levels, every).
STANDARD_ROWS = [
    ("0", "0", "declarers", "3", ""),
    ("5", "35", "declarers", "2", ""),
    ("40", "75", "declarers", "1", ""),
    ("80", "", "opponents", "0", ""),
]
OURS_ROWS = [
    ("0", "35", "declarers", "2", ""),
    ("40", "75", "declarers", "1", ""),
    ("80", "115", "opponents", "0", ""),
    ("120", "", "opponents", "1", "40"),
]


def table_data(rows=OURS_ROWS, *, initial: int = 0, **changes) -> dict:
    data = {
        "name": "Thursday rules",
        "kitty": "per-card",
        "game_end": "past-ace",
        "starter": "rotate",
        "throw_penalty": "0",
        "tractor_follow": "tractor",
        "band-TOTAL_FORMS": str(len(rows)),
        "band-INITIAL_FORMS": str(initial),
        "band-MIN_NUM_FORMS": "1",
        "band-MAX_NUM_FORMS": "1000",
    }
    for number, (low, high, winner, levels, every) in enumerate(rows):
        data |= {
            f"band-{number}-low": low,
            f"band-{number}-high": high,
            f"band-{number}-winner": winner,
            f"band-{number}-levels": levels,
            f"band-{number}-every": every,
        }
    return data | changes


@pytest.fixture
def url(group):
    return f"/groups/{group.pk}/tables/new/"


@pytest.fixture
def table(group):
    rules = {**PRESETS["standard"].to_json(), "name": "house"}
    return ScoringTable.objects.create(group=group, rules_json=rules)


def test_it_starts_a_new_table_from_the_standard_preset(member, url):
    page = member.get(url).text

    assert page.count('class="band-row') == 4
    assert 'name="band-3-low" value="80"' in page
    assert 'name="name"' in page
    assert 'value="Thursday rules"' not in page


def test_it_fills_the_rows_from_a_preset(member, url):
    page = member.get(url, {"preset": "open-ladder"}).text

    assert page.count('class="band-row') == 7
    assert 'name="band-6-low" value="200"' in page
    assert 'name="band-6-every" value="40"' in page
    assert 'value="per-card" autocomplete="off" checked' in page


def test_it_saves_the_table_as_scoring_json(member, group, url):
    response = member.post(url, table_data())

    assert response.status_code == 302
    assert response["Location"] == f"/groups/{group.pk}/"
    table = ScoringTable.objects.get(group=group)
    rules = get_rules(table.rules_json)
    assert rules.name == "Thursday rules"
    assert [band.label for band in rules.bands] == ["0–35", "40–75", "80–115", "120+"]
    assert rules.bands[-1].every == 40
    assert rules.kitty.value == "per-card"
    assert rules.game_end.value == "past-ace"
    assert rules.starter.value == "rotate"
    assert table.rules_json == rules.to_json()
    assert "Saved the table Thursday rules." in text(member.get(response["Location"]).text)


def test_it_names_the_band_with_a_gap_on_its_row(member, url):
    rows = [*STANDARD_ROWS]
    rows[1] = ("5", "30", "declarers", "2", "")

    response = member.post(url, table_data(rows))

    assert response.status_code == 200
    assert "Band 3 leaves a gap: no band holds 35." in text(response.text)
    assert 'name="band-1-high" value="30"' in response.text
    assert not ScoringTable.objects.exists()


def test_it_shows_a_table_wide_problem_above_the_form(member, url):
    rows = [*STANDARD_ROWS]
    rows[3] = ("80", "195", "opponents", "0", "")

    response = member.post(url, table_data(rows))

    assert response.status_code == 200
    assert "The last band must have no upper end: no band holds 200 or more." in text(response.text)
    assert not ScoringTable.objects.exists()


def test_it_explains_a_kitty_rule_that_cannot_score_throws(member, url):
    response = member.post(url, table_data(kitty="per-pair", throws="on"))

    assert response.status_code == 200
    assert "The kitty rule that doubles per pair has no multiplier for a throw" in text(
        response.text
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"band-1-low": "lots"}, "Enter a whole number."),
        (
            {"band-1-low": "42"},
            "Band 2 must start at a multiple of 5 from 0 to 1000, not 42.",
        ),
        ({"band-2-levels": ""}, "This field is required."),
        ({"band-0-winner": "nobody"}, "Select a valid choice."),
        ({"name": ""}, "This field is required."),
        ({"name": "Standard"}, "Standard is a preset&#x27;s name: choose another."),
        ({"kitty": "triple"}, "Select a valid choice."),
    ],
)
def test_it_never_fails_on_bad_input_and_keeps_it(member, url, change, message):
    response = member.post(url, table_data(**change))

    assert response.status_code == 200
    assert message in response.text
    assert not ScoringTable.objects.exists()
    for value in change.values():
        if value and value not in ("nobody", "triple"):
            assert f'value="{value}"' in response.text


def test_it_refuses_a_broken_formset_without_failing(member, url):
    data = table_data()
    del data["band-TOTAL_FORMS"]

    response = member.post(url, data)

    assert response.status_code == 200
    assert not ScoringTable.objects.exists()


def test_it_refuses_a_second_table_of_the_same_name(member, url, table):
    response = member.post(url, table_data(name="House"))

    assert response.status_code == 200
    assert "The group already has a table called House." in text(response.text)
    assert ScoringTable.objects.count() == 1


def test_it_drops_a_removed_band(member, url):
    rows = [*STANDARD_ROWS[:3], ("60", "70", "declarers", "1", ""), STANDARD_ROWS[3]]
    data = table_data(rows, **{"band-3-DELETE": "on"})

    response = member.post(url, data)

    assert response.status_code == 302
    rules = ScoringTable.objects.get().rules
    assert [band.label for band in rules.bands] == ["0", "5–35", "40–75", "80+"]


def test_it_adds_a_blank_band_without_checking_or_saving(member, url):
    response = member.post(url, table_data(action="add", name=""))

    assert response.status_code == 200
    assert response.text.count('class="band-row') == 5
    assert 'name="band-TOTAL_FORMS" value="5"' in response.text
    assert 'name="band-3-every" value="40"' in response.text
    assert "This field is required." not in response.text
    assert not ScoringTable.objects.exists()


def test_it_adds_a_band_in_place_for_htmx(member, url):
    response = member.post(url, table_data(action="add"), headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<fieldset id="bands"')
    assert response.text.count('class="band-row') == 5


def test_it_saves_a_table_with_the_added_band_filled_in(member, url):
    added = member.post(url, table_data(STANDARD_ROWS[:3], action="add")).text
    assert 'name="band-INITIAL_FORMS" value="3"' in added

    data = table_data([*STANDARD_ROWS[:3], ("80", "", "opponents", "0", "")], initial=3)
    response = member.post(url, data)

    assert response.status_code == 302
    assert ScoringTable.objects.get().rules.bands == PRESETS["standard"].bands


def test_it_previews_the_table_as_a_bar_of_bands(member, url):
    response = member.post(
        url, {**table_data(STANDARD_ROWS), "preview": "1"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    text = response.text
    assert text.lstrip().startswith('<section id="table-preview"')
    # Widths follow the points each band holds; the open band runs on to 215.
    for weight in ("flex-grow: 5;", "flex-grow: 35;", "flex-grow: 40;", "flex-grow: 140;"):
        assert weight in text
    assert '<span class="range">5–35</span><span class="climb">+2</span>' in text
    assert '<span class="range">80+</span><span class="climb">+0</span>' in text
    assert "hsl(215 70% " in text  # declarers in blue
    assert "hsl(0 70% " in text  # opponents in red
    assert "the declarers climb 2 levels" in text
    assert "the opponents take the deal" in text
    assert not ScoringTable.objects.exists()


@pytest.mark.parametrize("htmx", [True, False])
def test_it_previews_the_table_without_saving_it_with_or_without_htmx(member, url, htmx):
    headers = {"HX-Request": "true"} if htmx else {}

    response = member.post(url, {**table_data(STANDARD_ROWS), "preview": "1"}, headers=headers)

    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="table-preview"') is htmx
    assert '<span class="range">5–35</span><span class="climb">+2</span>' in response.text
    assert not ScoringTable.objects.exists()
    # A screen reader hears the new preview: htmx swaps it inside a live region that stays.
    if not htmx:
        assert re.search(r'<div aria-live="polite">\s*<section id="table-preview"', response.text)


def test_it_previews_a_band_that_climbs_every_40(member, url):
    response = member.post(url, {**table_data(), "preview": "1"}, headers={"HX-Request": "true"})

    assert '<span class="range">120+</span><span class="climb">+1…</span>' in response.text
    assert "and one more for every 40 more" in text(response.text)


def test_it_previews_what_is_wrong_while_typing(member, url):
    rows = [*STANDARD_ROWS]
    rows[1] = ("5", "30", "declarers", "2", "")

    response = member.post(
        url, {**table_data(rows), "preview": "1"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert "Band 3 leaves a gap: no band holds 35." in text(response.text)
    assert '<span class="range">5–30</span>' in response.text


def test_it_edits_a_table_and_keeps_started_games_as_they_were(member, group, players, table, user):
    game = Game.start(group, players, table.rules, by=user)
    url = f"/groups/{group.pk}/tables/{table.pk}/"

    page = member.get(url).text
    assert 'value="house"' in page
    assert page.count('class="band-row') == 4

    response = member.post(url, table_data(name="house", initial=4))

    assert response.status_code == 302
    table.refresh_from_db()
    assert table.rules.bands[-1].every == 40
    game.refresh_from_db()
    assert game.rules.bands == PRESETS["standard"].bands


def test_it_refills_an_existing_table_from_a_preset_keeping_its_name(member, group, table):
    page = member.get(f"/groups/{group.pk}/tables/{table.pk}/", {"preset": "kawu"}).text

    assert 'value="house"' in page
    assert page.count('class="band-row') == 6
