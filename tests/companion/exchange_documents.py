"""The exchange tests' shared data: a hand-written export of Thursday Tractor and the files of
older versions, ways to change them, hands as the table enters them, and the games of six and
eight players that the exchange tests export (fixtures, registered in conftest.py)."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest

from companion import exchange
from companion.models import Game, Group, GroupChange, Player
from scoring import Suit, Teams, TrumpRule, get_rules
from scoring.cli import judge_request

# An export made by the four-seat version (file version 1): Thursday Tractor's roster of five,
# a house table and three games. Game 1 (standard, 5 v 4): Mei north, Jun east, Lin south, Hao
# west, East chosen to start (under bidding, which it never bound); hand 2 bid big jokers but
# played spades then (after an edit) diamonds, hand 3 bid a pair with no trump; a precedent on
# hand 2 and one waiting for hand 4. Game 2 (kawu): Jun, Zoe, Hao, Mei from north, West (Mei)
# chosen to start; hand 2 undone and entered again. Game 3 (standard, A v K): Lin, Hao, Zoe,
# Jun from north; North-South hold at A and win.
FOUR_SEAT_V1 = Path(__file__).parent / "exports" / "four_seat_v1.json"
# An export from before second-seat confirmation (file version 2): the find-a-friend game of six
# and the pairs game of eight of the fixtures below, exported as they were then.
EIGHT_SEAT_V2 = Path(__file__).parent / "exports" / "eight_seat_v2.json"

THURSDAY = "2025-03-06T19:30:00+00:00"
HOUSE = {
    "name": "House",
    "bands": [
        {"from": 0, "to": 75, "winner": "declarers", "levels": 1},
        {"from": 80, "to": None, "winner": "opponents", "levels": 1},
    ],
    "kitty": "double",
    "game_end": "hold-at-ace",
    "starter": "bid",
    "throws": False,
    "throw_penalty": 0,
    "tractor_follow": "tractor",
}
FIRST = {
    "declarer": "Mei",
    "friends": [],
    "bid": "one",
    "trump": "H",
    "kitty_cards": "",
    "kitty_points": 10,
    "opponent_points": 45,
    "last_trick_winner": "declarers",
    "last_trick_format": "single",
    "last_trick_cards": 1,
    "declarer_cards_taken_back": 0,
    "opponent_cards_taken_back": 0,
}
SECOND = {
    "declarer": "Lin",
    "friends": [],
    "bid": "pair",
    "trump": "S",
    "kitty_cards": "5H 5S TD KC 2C 3C 4C 6C",
    "kitty_points": 30,
    "opponent_points": 60,
    "last_trick_winner": "opponents",
    "last_trick_format": "pair",
    "last_trick_cards": 2,
    "declarer_cards_taken_back": 0,
    "opponent_cards_taken_back": 0,
}
# A hand entered while nobody asked for a confirmation, as every hand of a version 2 file reads.
UNCONFIRMED = {
    "entered_by": None,
    "needs_confirmation": False,
    "confirmed_by": None,
    "confirmed_at": None,
    "flagged_by": None,
    "flagged_at": None,
    "flag_note": "",
}
# The disputed trick: Jun's big joker takes Mei's king of trumps.
TRICK = {
    "rules": "standard",
    "level": "3",
    "trump": "S",
    "plays": [["Mei", ["KS"]], ["Jun", ["BJ"]], ["Lin", ["2S"]], ["Hao", ["4S"]]],
}
# Thursday Tractor as a hand-written export: the cast, a house table, one standard game of two
# hands (the second's trump corrected), a dispute saved to hand 2.
DOCUMENT = {
    "format": "tractor-companion-group",
    "version": 5,
    "group": {
        "name": "Thursday Tractor",
        "created": "2025-01-02T18:00:00+00:00",
        "hands_need_confirmation": False,
    },
    "members": [{"username": "mei", "joined": "2025-01-02T18:00:00+00:00", "role": "admin"}],
    "players": [
        {"name": "Mei", "user": "mei", "retired": False},
        {"name": "Jun", "user": None, "retired": False},
        {"name": "Lin", "user": None, "retired": False},
        {"name": "Hao", "user": None, "retired": False},
        {"name": "Zoe", "user": None, "retired": True},
    ],
    "scoring_tables": [{"rules": HOUSE, "updated": "2025-01-09T20:00:00.250000+00:00"}],
    "log": [],
    "evenings": [],
    "games": [
        {
            "created": THURSDAY,
            "created_by": "mei",
            "rules": get_rules("standard").to_json(),
            "seats": [
                {"player": "Mei", "level": "2"},
                {"player": "Jun", "level": "2"},
                {"player": "Lin", "level": "2"},
                {"player": "Hao", "level": "2"},
            ],
            "decks": 2,
            "teams": "partners",
            "trumps": "bid",
            "called": None,
            "first_declarer": None,
            "hands": [
                {
                    **FIRST,
                    "created": "2025-03-06T19:35:00+00:00",
                    "updated": "2025-03-06T19:35:00+00:00",
                    **UNCONFIRMED,
                },
                {
                    **SECOND,
                    "created": "2025-03-06T19:41:00+00:00",
                    "updated": "2025-03-06T19:44:10.500000+00:00",
                    **UNCONFIRMED,
                },
            ],
            "changes": [
                {
                    "hand_number": 1,
                    "action": "recorded",
                    "before": None,
                    "after": {"number": 1, **FIRST},
                    "by": "mei",
                    "at": "2025-03-06T19:35:00+00:00",
                    "note": "",
                },
                {
                    "hand_number": 2,
                    "action": "recorded",
                    "before": None,
                    "after": {"number": 2, **SECOND, "trump": "H"},
                    "by": None,
                    "at": "2025-03-06T19:41:00+00:00",
                    "note": "",
                },
                {
                    "hand_number": 2,
                    "action": "edited",
                    "before": {"number": 2, **SECOND, "trump": "H"},
                    "after": {"number": 2, **SECOND},
                    "by": "mei",
                    "at": "2025-03-06T19:44:10.500000+00:00",
                    "note": "",
                },
            ],
            "disputes": [
                {
                    "hand_number": 2,
                    "hand": 2,
                    "request": TRICK,
                    "verdict": judge_request(TRICK),
                    "created_by": "mei",
                    "created": "2025-03-06T19:39:00+00:00",
                }
            ],
        }
    ],
}


def document() -> dict:
    return copy.deepcopy(DOCUMENT)


def games_of(count: int) -> dict:
    """DOCUMENT with its game played ``count`` times."""
    data = document()
    data["games"] = [copy.deepcopy(DOCUMENT["games"][0]) for _ in range(count)]
    return data


def import_text(text, **options) -> Group:
    return exchange.import_group(exchange.load(text), **options).group


def forget_the_import(group: Group) -> Group:
    """``group`` as its file made it: its log without the import's own entry, the latest."""
    latest = group.changes.first()
    assert latest.action == GroupChange.Action.IMPORTED
    latest.delete()
    return group


def entered(declarer: int, **fields) -> dict:
    """A hand as the hand form saves it (seats by number): by default one heart bid, 40 points
    to the opponents, the last trick a single the declarers win."""
    return {
        "declarer": declarer,
        "friends": [],
        "bid": "one",
        "trump": "H",
        "kitty_cards": "",
        "kitty_points": 0,
        "opponent_points": 40,
        "last_trick_winner": "declarers",
        "last_trick_format": "single",
        "last_trick_cards": 1,
        **fields,
    }


def record(game: Game, user, *hands: dict) -> None:
    for fields in hands:
        game.record_hand(fields, version=game.version, request_key="", by=user)


@pytest.fixture
def eight(players, group) -> list[Player]:
    """The cast and four more, in play order: Mei, Jun, Lin, Hao, Wei, Yan, Kai, Bo."""
    more = [Player.objects.create(group=group, name=name) for name in ("Wei", "Yan", "Kai", "Bo")]
    return [*players, *more]


@pytest.fixture
def friends_game(start_game, eight, user) -> Game:
    """Six players find friends (standard rules, 3 decks, one card called). Hand 1: Mei calls
    Lin and they hold; hand 2: Lin finds nobody and the opponents take over with a kitty of
    six cards; hand 3: Hao calls Mei (entered at 100, corrected to 95). A precedent on hand 2."""
    game = start_game(seated=eight[:6], teams=Teams.FIND_A_FRIEND)
    record(
        game,
        user,
        entered(0, friends=[2], opponent_points=60, kitty_points=10),
        entered(
            2,
            bid="pair",
            trump="S",
            kitty_cards="5H 5S TD KC 2C 3C",
            kitty_points=30,
            opponent_points=150,
            last_trick_winner="opponents",
            last_trick_format="pair",
            last_trick_cards=2,
        ),
        entered(3, friends=[0], bid="big-jokers", trump="NT", opponent_points=100),
    )
    game.edit_hand(3, {"opponent_points": 95}, version=game.version, by=user)
    trick = {**TRICK, "decks": 3, "plays": [*TRICK["plays"], ["Wei", ["3S"]], ["Yan", ["5S"]]]}
    game.add_dispute(2, trick, judge_request(trick), by=user)
    return game


@pytest.fixture
def pairs_game(start_game, eight, user) -> Game:
    """Eight players in pairs (partners opposite, 4 decks), trump fixed to spades then hearts
    in turn, Yan chosen to start. Hand 1: Yan and Jun hold and climb to 3; hand 2: Jun's pair
    loses the deal to Lin and Kai (a kitty of eight cards); hand 3: Lin and Kai climb to 4."""
    game = start_game(
        seated=eight,
        teams=Teams.PAIRS,
        trumps=TrumpRule(suits=(Suit.SPADES, Suit.HEARTS)),
        first_declarer=5,
    )
    record(
        game,
        user,
        entered(5, bid="", trump="S", opponent_points=90),
        entered(
            1,
            bid="",
            trump="H",
            kitty_cards="KH KH KH KH 5C 5C 2D 3D",
            kitty_points=50,
            opponent_points=170,
        ),
        entered(2, bid="", trump="S", opponent_points=20),
    )
    return game


def version_4(data: dict) -> dict:
    """A version 5 document as version 4 wrote it: no evenings (a copy)."""
    data = copy.deepcopy(data)
    data["version"] = 4
    del data["evenings"]
    return data


def version_2(data: dict) -> dict:
    """A version 5 document as version 2 wrote it, without what confirmation, roles, the
    group's log and club nights added."""
    data["version"] = 2
    del data["group"]["hands_need_confirmation"]
    del data["log"]
    del data["evenings"]
    for member in data["members"]:
        del member["role"]
    for game in data["games"]:
        for hand in game["hands"]:
            for key in UNCONFIRMED:
                del hand[key]
        for change in game["changes"]:
            del change["note"]
    return data


def _both(first, second):
    return lambda data: second(first(data))


def _set(path: str, value):
    def change(data: dict) -> dict:
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if value is KeyError:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return data

    return change


CONFIRMED_AT = "2025-03-06T19:36:00+00:00"


def _confirming(data: dict) -> dict:
    """Thursday Tractor asking for confirmations: Jun confirmed hand 1, which Mei entered."""
    data["group"]["hands_need_confirmation"] = True
    hand = data["games"][0]["hands"][0]
    hand.update(
        entered_by="mei", needs_confirmation=True, confirmed_by="jun", confirmed_at=CONFIRMED_AT
    )
    confirmed = {"hand_number": 1, "action": "confirmed", "before": None, "after": None}
    confirmed.update(by="jun", at=CONFIRMED_AT, note="")
    data["games"][0]["changes"].insert(1, confirmed)
    return data


def _upload(data: object) -> io.BytesIO:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "thursday-tractor.json"
    return upload
