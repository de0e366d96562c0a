"""Numbers at and past their bounds: the table form takes the first and names the second; a
game played under the most extreme rules that are accepted shows every page of it; hostile
files, uploads and double claims are refused with a message, never a 500."""

from __future__ import annotations

import csv
import importlib
import io
import json
import tracemalloc
import zoneinfo
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from hands import HELD_FIELDS, HELD_FORM

from companion import exchange
from companion.forms.groups import PlayerAccountForm
from companion.models import Game, Hand, HandChange, Player, ScoringTable
from scoring import rules_from_json
from scoring.rules import MAX_BAND_POINTS, MAX_LEVELS, MAX_THROW_PENALTY, STANDARD
from tests.reading import text

pytestmark = pytest.mark.django_db

# The most a table may ask of the game: every number at its bound.
EXTREME = {
    "name": "Extreme",
    "bands": [
        {"from": 0, "to": 0, "winner": "declarers", "levels": MAX_LEVELS},
        {"from": 5, "to": MAX_BAND_POINTS - 5, "winner": "declarers", "levels": 1},
        {"from": MAX_BAND_POINTS, "to": None, "winner": "opponents", "levels": MAX_LEVELS,
         "every": 5},
    ],
    "kitty": "per-card",
    "game_end": "past-ace",
    "starter": "rotate",
    "throws": True,
    "throw_penalty": MAX_THROW_PENALTY,
}  # fmt: skip


def table_post(**changes: str) -> dict:
    """The table form's fields for EXTREME, with ``changes`` to single fields."""
    data = {
        "name": "Extreme",
        "kitty": "per-card",
        "game_end": "past-ace",
        "starter": "rotate",
        "throws": "on",
        "throw_penalty": str(MAX_THROW_PENALTY),
        "tractor_follow": "tractor",
        "no_trump_level_cards": "on",
        "band-TOTAL_FORMS": "3",
        "band-INITIAL_FORMS": "0",
        "band-MIN_NUM_FORMS": "1",
        "band-MAX_NUM_FORMS": "1000",
    }
    for number, band in enumerate(EXTREME["bands"]):
        data |= {
            f"band-{number}-low": str(band["from"]),
            f"band-{number}-high": "" if band["to"] is None else str(band["to"]),
            f"band-{number}-winner": band["winner"],
            f"band-{number}-levels": str(band["levels"]),
            f"band-{number}-every": str(band.get("every", "")),
        }
    return data | changes


def test_a_table_with_every_number_at_its_bound_is_saved(member, group):
    response = member.post(f"/groups/{group.pk}/tables/new/", table_post())

    assert response.status_code == 302
    assert ScoringTable.objects.get().rules == rules_from_json(EXTREME)


PAST_BOUNDS = {
    "throw_penalty": str(MAX_THROW_PENALTY + 5),
    "band-0-levels": str(MAX_LEVELS + 1),
    "band-1-high": str(MAX_BAND_POINTS),
    "band-2-low": str(MAX_BAND_POINTS + 5),
    "band-2-every": str(MAX_BAND_POINTS + 5),
}


@pytest.mark.parametrize("field", PAST_BOUNDS)
@pytest.mark.parametrize("value", ["past", "9" * 4300, "-" + "9" * 4300])
def test_a_number_past_its_bound_is_named_and_nothing_saved(member, group, field, value):
    data = table_post(**{field: PAST_BOUNDS[field] if value == "past" else value})

    response = member.post(f"/groups/{group.pk}/tables/new/", data)
    preview = member.post(
        f"/groups/{group.pk}/tables/new/", {**data, "preview": "1"}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert any(words in response.text for words in ("Ensure this value", "must be", "overlaps"))
    assert preview.status_code == 200
    assert not ScoringTable.objects.exists()


@pytest.fixture
def extreme_game(group, players, user) -> Game:
    """A game under EXTREME in which each side has had a hand at the far ends: the opponents
    total all they can (a 25-card throw doubling the kitty 50 times, 25 cards taken back at 50
    points each), then the declarers hold them to 0."""
    game = Game.start(group, players, rules_from_json(EXTREME), first_declarer=0, by=user)
    hands = [
        {
            "declarer": 0,
            "bid": "one",
            "trump": "H",
            "kitty_cards": "",
            "kitty_points": 80,
            "opponent_points": 120,
            "last_trick_winner": "opponents",
            "last_trick_format": "throw",
            "last_trick_cards": 25,
            "declarer_cards_taken_back": 25,
            "opponent_cards_taken_back": 0,
        },
    ]
    for fields in hands:
        game.record_hand(fields, version=game.version, request_key="", by=user)
    return game


def test_every_page_of_a_game_under_the_most_extreme_rules_answers(
    member, client, group, players, extreme_game
):
    played = extreme_game.scored().hands[0]
    assert played.settlement.opponent_total == 120 + 80 * 50 + 25 * MAX_THROW_PENALTY
    g, pk = group.pk, extreme_game.pk
    pages = [
        f"/groups/{g}/games/{pk}/",
        f"/groups/{g}/games/{pk}/?since=0",
        f"/groups/{g}/games/{pk}/history/",
        f"/groups/{g}/games/{pk}/replay/",
        f"/groups/{g}/games/{pk}/dispute/",
        f"/groups/{g}/history/",
        *(f"/groups/{g}/players/{player.pk}/" for player in players),
        f"/groups/{g}/export.json",
        f"/groups/{g}/export.csv",
        f"/groups/{g}/",
        f"/watch/{extreme_game.share_token}/",
    ]
    for page in pages:
        assert member.get(page).status_code == 200, page
    assert "5370" in member.get(f"/groups/{g}/games/{pk}/").text


def test_an_extreme_game_exports_and_imports_back(member, group, extreme_game, user):
    text = exchange.dumps(group)

    again = exchange.import_group(exchange.load(text), name="Again", members=[user]).group

    assert again.games.get().scored().state == extreme_game.scored().state


def _migration():
    return importlib.import_module("companion.migrations.0007_bounds")


DECLARERS, BOUNDED, OPPONENTS = EXTREME["bands"]


@pytest.mark.parametrize(
    ("change", "mended"),
    [
        ({"throw_penalty": 10**3000}, {"throw_penalty": MAX_THROW_PENALTY}),
        (
            {"bands": [DECLARERS, {**BOUNDED, "levels": 10**3000}, OPPONENTS]},
            {"bands": [DECLARERS, {**BOUNDED, "levels": MAX_LEVELS}, OPPONENTS]},
        ),
        (
            {"bands": [DECLARERS, {**OPPONENTS, "from": 5, "to": 10**3000},
                       {**OPPONENTS, "from": 10**3000 + 5}]},
            {"bands": [DECLARERS, {**OPPONENTS, "from": 5, "to": None}]},
        ),
        # Cut at the bound, the declarers' band would be left last: the standard bands serve.
        (
            {"bands": [DECLARERS, {**BOUNDED, "to": 10**3000},
                       {**OPPONENTS, "from": 10**3000 + 5}]},
            {"bands": STANDARD.to_json()["bands"]},
        ),
    ],
    ids=["throw penalty", "levels", "band bounds", "band bounds past mending"],
)  # fmt: skip
def test_the_migration_brings_poisoned_rules_within_bounds(change, mended):
    assert _migration().within_bounds({**EXTREME, **change}) == {**EXTREME, **mended}


def test_the_migration_leaves_rules_within_bounds_alone():
    assert _migration().within_bounds(EXTREME) is EXTREME


def record_a_held_hand(game, user) -> None:
    """Mei declares hearts and holds the opponents to 45."""
    game.record_hand(
        HELD_FIELDS,
        version=game.version,
        request_key="",
        by=user,
    )


def test_a_player_named_as_a_formula_is_written_as_text(member, group, players, start_game, user):
    players[0].name = '=HYPERLINK("http://x","y")'
    players[0].save()
    players[1].name = "+cmd|' /C calc'!A0"
    players[1].save()
    game = start_game()
    record_a_held_hand(game, user)

    exported = member.get(f"/groups/{group.pk}/export.csv").getvalue().decode()
    rows = list(csv.DictReader(io.StringIO(exported)))

    assert rows[0]["seat_1"] == '\'=HYPERLINK("http://x","y")'
    assert rows[0]["seat_2"] == "'+cmd|' /C calc'!A0"
    assert rows[0]["declarer"] == '\'=HYPERLINK("http://x","y")'
    assert rows[0]["opponent_points"] == "45"


@pytest.mark.parametrize(
    "start",
    [
        "\n",
        "\u200b",
        "\u200c",
        "\u200d",
        "\u2060",
        "\ufeff",
        "\uff1d",
        "\uff0b",
        "\uff0d",
        "\uff20",
    ],
)
def test_a_name_starting_with_a_hidden_or_full_width_sign_is_written_as_text(
    member, group, players, start_game, user, start
):
    players[0].name = f"{start}SUM(A1:A9)"
    players[0].save()
    record_a_held_hand(start_game(), user)

    exported = member.get(f"/groups/{group.pk}/export.csv").getvalue().decode()
    rows = list(csv.DictReader(io.StringIO(exported)))

    assert rows[0]["seat_1"] == f"'{start}SUM(A1:A9)"
    assert rows[0]["seat_2"] == "Jun"


def test_a_file_packed_with_empty_objects_is_refused_before_it_takes_memory():
    text = "[" + ",".join(["{}"] * 2_000_000) + "]"

    tracemalloc.start()
    try:
        with pytest.raises(exchange.ExchangeError) as raised:
            exchange.load(text.encode())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()

    assert "far more than an export holds" in str(raised.value)
    assert peak < 3 * len(text)


def test_the_import_page_refuses_a_file_past_its_size(member, monkeypatch):
    monkeypatch.setattr("companion.forms.exchange.MAX_IMPORT_BYTES", 1000)
    upload = SimpleUploadedFile("group.json", b" " * 1001, content_type="application/json")

    response = member.post("/groups/import/", {"file": upload, "name": ""})

    assert response.status_code == 200
    assert "can be imported" in text(response.text)


def test_a_huge_post_to_the_public_dispute_page_is_refused(client):
    body = "play_0=AH&junk=" + "x" * (3 * 2**20)

    response = client.post("/dispute/", body, content_type="application/x-www-form-urlencoded")

    assert response.status_code == 413


def test_a_retried_save_with_other_numbers_is_named_not_dropped(member, group, start_game):
    game = start_game()
    url = f"/groups/{group.pk}/games/{game.pk}/hands/new/"
    hand = {
        **HELD_FORM,
        "version": str(game.version),
        "request_key": "k" * 32,
    }
    member.post(url, hand)

    again = member.post(url, {**hand, "opponent_points": "85"}, follow=True)

    assert Hand.objects.get(game=game).opponent_points == 45
    assert "Hand 1 was already saved from this page with other numbers" in text(again.text)
    same = member.post(url, hand, follow=True)
    assert "already saved" not in same.text
    assert HandChange.objects.filter(game=game).count() == 1


def test_two_accounts_claiming_one_player_at_once_leave_one_of_them_told_no(
    group, players, user, outsider
):
    group.members.add(outsider)
    mine = PlayerAccountForm({"player": players[1].pk}, group=group, user=user)
    theirs = PlayerAccountForm({"player": players[1].pk}, group=group, user=outsider)
    assert mine.is_valid() and theirs.is_valid()  # both pages showed Jun as free

    assert mine.save() is True
    assert theirs.save() is False
    assert Player.objects.get(pk=players[1].pk).user == user


def test_the_database_holds_one_player_per_account_in_a_group(group, players, user):
    Player.objects.filter(pk=players[0].pk).update(user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=players[1].pk).update(user=user)


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "America/Los_Angeles", "UTC"])
def test_the_history_filters_the_last_year_a_calendar_holds(member, group, start_game, zone):
    game = start_game()
    Game.objects.filter(pk=game.pk).update(created=datetime(9999, 6, 1, tzinfo=UTC))

    with timezone.override(zoneinfo.ZoneInfo(zone)):
        response = member.get(f"/groups/{group.pk}/history/", {"period": "9999"})

    assert response.status_code == 200


def test_an_import_whose_history_does_not_lead_to_its_hands_is_refused(group, start_game, user):
    game = start_game()
    record_a_held_hand(game, user)
    data = json.loads(exchange.dumps(group))
    data["games"][0]["changes"][0]["after"]["opponent_points"] = 35

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(json.dumps(data))

    assert "history leaves its opponent_points at 35, but the hand has 45" in str(raised.value)


def test_a_file_posted_to_the_public_dispute_page_is_refused_unread(client):
    upload = SimpleUploadedFile("a.bin", b"x" * (2 * 2**20))

    response = client.post("/dispute/", {"play_0": "AH", "junk": upload})

    assert response.status_code == 413
    assert "more than this page takes" in text(response.text)
