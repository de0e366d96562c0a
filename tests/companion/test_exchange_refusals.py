"""Bad files are refused with their problem named and nothing made, by `exchange.load` and on the
import page."""

from __future__ import annotations

import io
import json

import pytest
from exchange_documents import (
    CONFIRMED_AT,
    FIRST,
    FOUR_SEAT_V1,
    _both,
    _confirming,
    _set,
    _upload,
    document,
    version_2,
)

from companion import exchange
from companion.models import Game, Group, Player
from tests.reading import text

pytestmark = pytest.mark.django_db


# Bad files: (what is wrong, how to break the file, what the message says).


def _confirmed(change):
    return _both(_confirming, change)


def _seat_zoe(data: dict) -> dict:
    data["games"][0]["seats"].append({"player": "Zoe", "level": "2"})
    return data


BAD = [
    ("a list", lambda data: [data], "The file must be a JSON object, not [{"),
    (
        "another format",
        _set("format", "something-else"),
        'The file is not a group export: its format is "something-else", '
        'not "tractor-companion-group".',
    ),
    (
        "a later version",
        _set("version", 6),
        "The file is version 6 of the export format, and this server reads versions 1 to 5.",
    ),
    ("no version", _set("version", KeyError), "The file is not a group export: it has no version."),
    ("no games", _set("games", KeyError), "The key games is missing."),
    (
        "a hand without its declarer",
        _set("games.0.hands.1.declarer", KeyError),
        "Game 1, hand 2: The key declarer is missing.",
    ),
    (
        "an unknown key",
        _set("games.0.winner", "NS"),
        "Game 1: winner is not a key this server knows.",
    ),
    (
        "a declarer scoring refuses",
        _set("games.0.hands.1.declarer", "Jun"),
        "Game 1, hand 2: Jun cannot start this hand: Mei or Lin may start it",
    ),
    (
        "a declarer away from the table",
        _set("games.0.hands.0.declarer", "Zoe"),
        "Game 1, hand 1: declarer must be one of the players at the table, "
        'Mei, Jun, Lin or Hao, not "Zoe".',
    ),
    (
        "a declarer by seat number",
        _set("games.0.hands.0.declarer", 0),
        "Game 1, hand 1: declarer must be one of the players at the table",
    ),
    (
        "a friend under partners",
        _set("games.0.hands.0.friends", ["Lin"]),
        "Game 1, hand 1: Only find-a-friend hands have friends.",
    ),
    (
        "five players as partners",
        _seat_zoe,
        "Game 1: partners need an even number of players (4, 6 or 8), got 5",
    ),
    ("four players in pairs", _set("games.0.teams", "pairs"), "Game 1: pairs need 6 or 8 players"),
    (
        "teams nobody plays",
        _set("games.0.teams", "three-handed"),
        "Game 1: teams must be one of 'partners', 'pairs', 'find-a-friend', not \"three-handed\".",
    ),
    ("five decks", _set("games.0.decks", 5), "Game 1: decks must be 2, 3 or 4, got 5"),
    (
        "a trump rule nobody plays",
        _set("games.0.trumps", ["S", "S"]),
        'Game 1: trumps must be "bid", "no-trump" or a list of 1 to 4 different suits, '
        "got ['S', 'S']",
    ),
    (
        "cards called by partners",
        _set("games.0.called", 1),
        "Game 1: only find-a-friend declarers call cards",
    ),
    (
        "partners at two levels",
        _set("games.0.seats.2.level", "3"),
        "Game 1: Mei and Lin are a team and share one level",
    ),
    (
        "a first declarer away from the table",
        _set("games.0.first_declarer", "Zoe"),
        "Game 1: first_declarer must be one of the players at the table",
    ),
    (
        "a bid that contradicts the trump",
        _set("games.0.hands.0.bid", "big-jokers"),
        "Game 1, hand 1: Big jokers won the bid, so the hand has no trump, not ♥",
    ),
    (
        "more points than the deck holds",
        _set("games.0.hands.0.opponent_points", 195),
        "Game 1, hand 1: The opponents' 195 points and the kitty's 10 make 205, more than the 200 "
        "in 2 decks.",
    ),
    (
        "a throw under rules without throws",
        _set("games.0.hands.0.last_trick_format", "throw"),
        "Game 1, hand 1: These rules allow no throws, so the last trick was not a throw.",
    ),
    (
        "points as text",
        _set("games.0.hands.0.opponent_points", "45"),
        'Game 1, hand 1: opponent_points must be a whole number, not "45".',
    ),
    (
        "a kitty that holds other points",
        _set("games.0.hands.1.kitty_points", 25),
        'Game 1, hand 2: kitty_cards "5H 5S TD KC 2C 3C 4C 6C" hold 30 points, '
        "but kitty_points is 25.",
    ),
    (
        "a kitty of another table",
        _both(
            _set("games.0.hands.1.kitty_cards", "5H 5S TD KC 2C 3C"),
            _set("games.0.hands.1.kitty_points", 30),
        ),
        "Game 1, hand 2: kitty_cards holds 6 cards, but this table's kitty holds 8.",
    ),
    (
        "a bid nobody makes",
        _set("games.0.hands.0.bid", "three"),
        "Game 1, hand 1: bid must be one of '', 'one', 'pair', 'small-jokers', 'big-jokers', "
        "'none', not \"three\".",
    ),
    (
        "rules scoring refuses",
        _set("scoring_tables.0.rules.bands.1.from", 85),
        "Scoring table 1: rules: Band 2 leaves a gap: no band holds 80.",
    ),
    (
        "a seat for nobody",
        _set("games.0.seats.3.player", "Xi"),
        'Game 1, seat 4: player must be a name on the roster, not "Xi".',
    ),
    (
        "a player in two seats",
        _set("games.0.seats.3.player", "Mei"),
        "Game 1: Mei sits at the table twice",
    ),
    (
        "a player twice",
        _set("players.4.name", "Mei"),
        'Player 5: "Mei" is on the roster twice.',
    ),
    (
        "a player twice in another case",
        _set("players.4.name", "mEI"),
        'Player 5: "mEI" is on the roster twice.',
    ),
    (
        "a table twice in another case",
        lambda data: {
            **data,
            "scoring_tables": [
                *data["scoring_tables"],
                {
                    **data["scoring_tables"][0],
                    "rules": {**data["scoring_tables"][0]["rules"], "name": "HOUSE"},
                },
            ],
        },
        'Scoring table 2: Two of the group\'s scoring tables are called "HOUSE".',
    ),
    (
        "a level of 10",
        _set("games.0.seats.0.level", "10"),
        'Game 1, seat 1: level must be a level, one of 23456789TJQKA, not "10".',
    ),
    (
        "a time without its zone",
        _set("games.0.created", "2025-03-06T19:30:00"),
        "Game 1: created must be a date and time with its UTC offset",
    ),
    (
        "a history naming someone away from the table",
        _set("games.0.changes.2.before.declarer", "Zoe"),
        "Game 1, change 3: before.declarer must be one of the players at the table",
    ),
    (
        "a history holding a list",
        _set("games.0.changes.2.before.trump", ["H"]),
        'Game 1, change 3: before.trump must be a number or text, not ["H"].',
    ),
    (
        "a dispute on a hand the game lacks",
        _set("games.0.disputes.0.hand", 3),
        "Game 1, dispute 1: hand must be null or the number of one of the game's 2 hands, not 3.",
    ),
    (
        "a NUL in a name",
        _set("players.1.name", "J\x00un"),
        "Player 2: name holds a NUL character.",
    ),
    (
        "a forged verdict",
        _set("games.0.disputes.0.verdict.winner", "Mei"),
        "Game 1, dispute 1: The verdict is not the one this server gives for the trick.",
    ),
    (
        "a dispute scoring cannot judge",
        _set("games.0.disputes.0.request.plays", []),
        "Game 1, dispute 1: request: plays is empty: a trick needs at least its lead",
    ),
    (
        "one account for two players",
        _both(_set("players.0.user", "mei"), _set("players.1.user", "mei")),
        'Player 2: The account "mei" is another player already.',
    ),
    (
        "a band climbing past the bound",
        _set("games.0.rules.bands.0.levels", 13),
        "Game 1: rules: Band 1 must give a whole number of levels from 0 to 12, not 13.",
    ),
    (
        "a band starting past the bound",
        _set("scoring_tables.0.rules.bands.1.from", 10**3000),
        "Scoring table 1: rules: Band 2 must start at a multiple of 5 from 0 to 1000, "
        "not a number of more than 100 digits.",
    ),
    (
        "a history that edits a hand into another",
        _set("games.0.changes.2.after.opponent_points", 65),
        "Game 1, hand 2: The history leaves its opponent_points at 65, but the hand has 60.",
    ),
    (
        "a history that forgets a hand",
        lambda data: _set("games.0.changes", data["games"][0]["changes"][:1])(data),
        "Game 1: The history leads to 1 hand, but the game has 2.",
    ),
    (
        "a history that edits a hand never recorded",
        _set("games.0.changes.0.action", "edited"),
        'Game 1, change 1: This change, "edited", is about hand 1, but the history had 0 hands '
        "then.",
    ),
    (
        "a group without its confirmation setting",
        _set("group.hands_need_confirmation", KeyError),
        "The key group.hands_need_confirmation is missing.",
    ),
    (
        "a hand without its confirmation",
        _set("games.0.hands.0.needs_confirmation", KeyError),
        "Game 1, hand 1: The key needs_confirmation is missing.",
    ),
    (
        "a confirmation as text",
        _set("games.0.hands.0.needs_confirmation", "yes"),
        'Game 1, hand 1: needs_confirmation must be true or false, not "yes".',
    ),
    (
        "a confirmation at no time",
        _confirmed(_set("games.0.hands.0.confirmed_at", "yesterday")),
        "Game 1, hand 1: confirmed_at must be a date and time with its UTC offset",
    ),
    (
        "a confirmation without its time",
        _confirmed(_set("games.0.hands.0.confirmed_at", None)),
        'Game 1, hand 1: The hand says "jun" confirmed it, but not when.',
    ),
    (
        "a flag without its time",
        _confirmed(_set("games.0.hands.1.flagged_by", "jun")),
        'Game 1, hand 2: The hand says "jun" flagged it, but not when.',
    ),
    (
        "a flag's note without a flag",
        _confirmed(_set("games.0.hands.0.flag_note", "the kitty held 25")),
        'Game 1, hand 1: The hand holds a flag\'s note, "the kitty held 25", but nobody '
        "flagged it.",
    ),
    (
        "a flag's note of a page",
        _set("games.0.hands.1.flag_note", "wrong " * 40),
        "Game 1, hand 2: flag_note is longer than 200 characters",
    ),
    (
        "a hand confirmed and flagged",
        _confirmed(_set("games.0.hands.0.flagged_at", CONFIRMED_AT)),
        "Game 1, hand 1: The hand is both confirmed and flagged, but a flag takes a confirmation "
        "back.",
    ),
    (
        "a confirmation nobody asked for",
        _confirmed(_set("games.0.hands.0.needs_confirmation", False)),
        "Game 1, hand 1: The hand is confirmed, but it was entered without needing a confirmation.",
    ),
    (
        "a flag nobody asked for",
        _both(
            _set("games.0.hands.1.flagged_by", "jun"),
            _set("games.0.hands.1.flagged_at", CONFIRMED_AT),
        ),
        "Game 1, hand 2: The hand is flagged, but it was entered without needing a confirmation.",
    ),
    (
        "a confirmation by the account that entered the hand",
        _confirmed(_set("games.0.hands.0.confirmed_by", "mei")),
        'Game 1, hand 1: "mei" entered the hand and confirmed it, but a confirmation comes from '
        "another account.",
    ),
    (
        "a confirmation of a hand not recorded yet",
        _confirmed(_set("games.0.changes.1.hand_number", 2)),
        'Game 1, change 2: This change, "confirmed", is about hand 2, but the history had 1 hand '
        "then.",
    ),
    (
        "a flag in place of a hand",
        _confirmed(
            _both(
                _set("games.0.changes.2.action", "flagged"), _set("games.0.changes.2.after", None)
            )
        ),
        'Game 1, change 3: This change, "flagged", is about hand 2, but the history had 1 hand '
        "then.",
    ),
    (
        "a confirmation that changes the hand",
        _confirmed(_set("games.0.changes.1.after", {"number": 1, **FIRST})),
        'Game 1, change 2: A change "confirmed" leaves the hand as it was, so its before and after '
        "must be null.",
    ),
    (
        "a note on an edit",
        _set("games.0.changes.2.note", "typo"),
        'Game 1, change 3: Only a flag has a note, but this change, "edited", has "typo".',
    ),
    (
        "a version 2 file with a confirmation",
        _both(version_2, _set("games.0.hands.0.flag_note", "")),
        "Game 1, hand 1: flag_note is not a key this server knows.",
    ),
    (
        "a version 2 file with a note",
        _both(version_2, _set("games.0.changes.0.note", "")),
        "Game 1, change 1: note is not a key this server knows.",
    ),
]


@pytest.mark.parametrize(("problem", "change", "message"), BAD, ids=[case[0] for case in BAD])
def test_it_names_the_problem_of_a_bad_file(problem, change, message):
    text = json.dumps(change(document()))

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(text)

    assert message in str(raised.value)


def old_document() -> dict:
    return json.loads(FOUR_SEAT_V1.read_text())


OLD_BAD = [
    (
        "a declarer off the compass",
        _set("games.0.hands.0.declarer", "X"),
        "Game 1, hand 1: declarer must be one of 'N', 'E', 'S', 'W', not \"X\".",
    ),
    (
        "a declarer scoring refuses",
        _set("games.2.hands.1.declarer", "E"),
        "Game 3, hand 2: Hao cannot start this hand: Lin or Zoe may start it",
    ),
    (
        "a seat for nobody",
        _set("games.0.seats.west", 7),
        "Game 1: seats.west must be a player's place on the roster, from 0 to 4, not 7.",
    ),
    ("a player in two seats", _set("games.0.seats.west", 0), "Game 1: Mei sits at the table twice"),
    (
        "a level of 10",
        _set("games.0.north_south_level", "10"),
        'Game 1: north_south_level must be a level, one of 23456789TJQKA, not "10".',
    ),
    (
        "a first starter off the compass",
        _set("games.1.first_starter", "X"),
        "Game 2: first_starter must be one of '', 'N', 'E', 'S', 'W', not \"X\".",
    ),
    (
        "a history's declarer off the compass",
        _set("games.0.changes.0.after.declarer", "X"),
        "Game 1, change 1: after.declarer must be one of 'N', 'E', 'S', 'W', not \"X\".",
    ),
    (
        "a key of today's files",
        _set("games.0.decks", 2),
        "Game 1: decks is not a key this server knows.",
    ),
    (
        "a hand without its bid",
        _set("games.0.hands.0.bid", KeyError),
        "Game 1, hand 1: The key bid is missing.",
    ),
]


@pytest.mark.parametrize(
    ("problem", "change", "message"), OLD_BAD, ids=[case[0] for case in OLD_BAD]
)
def test_it_names_the_problem_of_a_bad_old_file(problem, change, message):
    text = json.dumps(change(old_document()))

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(text)

    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("problem", "change", "message"),
    [
        (
            "a declarer the rules do not allow",
            _set("games.0.hands.1.declarer", "Jun"),
            "Game 1, hand 2: Jun cannot start this hand: Lin starts it",
        ),
        (
            "two friends for one called card",
            _set("games.0.hands.0.friends", ["Lin", "Hao"]),
            "Game 1, hand 1: The declarer calls one card, so one friend at most is found, not 2.",
        ),
        (
            "a friend away from the table",
            _set("games.0.hands.0.friends", ["Kai"]),
            "Game 1, hand 1: friends must be one of the players at the table, "
            'Mei, Jun, Lin, Hao, Wei or Yan, not "Kai".',
        ),
        (
            "a kitty of two decks",
            _both(
                _set("games.0.hands.1.kitty_cards", "5H 5S TD KC 2C 3C 4C 6C"),
                _set("games.0.hands.1.kitty_points", 30),
            ),
            "Game 1, hand 2: kitty_cards holds 8 cards, but this table's kitty holds 6.",
        ),
        ("three cards called", _set("games.0.called", 3), "Game 1: a declarer calls 1 or 2 cards"),
    ],
    ids=["declarer", "friends", "friend away", "kitty", "called"],
)
def test_the_import_page_names_what_the_find_a_friend_game_refuses(
    member, group, friends_game, problem, change, message
):
    data = change(exchange.export_group(group))

    response = member.post("/groups/import/", {"file": _upload(data), "name": "Copy"}, follow=True)

    assert response.status_code == 200
    assert _html(message) in response.text
    assert list(Group.objects.all()) == [group]
    assert list(Game.objects.all()) == [friends_game]
    assert Player.objects.count() == 8


def _case(problem: str) -> tuple:
    return next(case for case in BAD if case[0] == problem)


@pytest.mark.parametrize(
    ("problem", "change", "message"),
    [
        _case("a later version"),
        _case("a hand without its declarer"),
        _case("a declarer scoring refuses"),
        _case("a friend under partners"),
        _case("five players as partners"),
        _case("a confirmation by the account that entered the hand"),
        _case("a hand confirmed and flagged"),
        (*_case("a list")[:2], "The file must be a JSON object"),
    ],
    ids=[
        "version",
        "missing key",
        "refused hand",
        "friend",
        "five partners",
        "confirmed by its enterer",
        "confirmed and flagged",
        "list",
    ],
)
def test_the_import_page_shows_the_problem_and_makes_nothing(
    member, group, problem, change, message
):
    response = member.post(
        "/groups/import/", {"file": _upload(change(document())), "name": ""}, follow=True
    )

    assert response.status_code == 200
    assert _html(message) in response.text
    assert list(Group.objects.all()) == [group]
    assert not Player.objects.exists()


def _html(message: str) -> str:
    return message.replace('"', "&quot;").replace("'", "&#x27;")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"game 1: Mei & Lin v Jun & Hao",
            "The file is not JSON: expected value at line 1, column 1.",
        ),
        (b"", "The file is not JSON: EOF while parsing a value at line 1"),
        (b'{"format": "\xff"}', "The file is not UTF-8 text (byte 12)."),
        (b"[" * 100_000 + b"]" * 100_000, "The file is not a group export: 100000 lists"),
    ],
    ids=["text", "empty", "latin-1", "deep"],
)
def test_it_refuses_a_file_that_is_not_json(content, message):
    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(content)

    assert message in str(raised.value)


def test_the_import_page_refuses_a_file_that_is_not_json(member, group):
    upload = io.BytesIO(b"\x89PNG\r\n")
    upload.name = "photo.png"

    response = member.post("/groups/import/", {"file": upload}, follow=True)

    assert response.status_code == 200
    assert "The file is not UTF-8 text (byte 0)." in text(response.text)
    assert list(Group.objects.all()) == [group]


def test_the_import_page_asks_for_a_file(member):
    response = member.post("/groups/import/", {"name": "Empty"})

    assert response.status_code == 200
    assert "This field is required." in text(response.text)
    assert not Group.objects.exists()
