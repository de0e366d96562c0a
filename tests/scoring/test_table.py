"""The table a game is played at (docs/rules.md, "Variants: more players, teams, fixed trump"):
the deal, the teams, the cards a find-a-friend declarer calls, how each hand's trump is chosen,
and bids."""

from __future__ import annotations

import json

import pytest

from scoring.cards import Suit
from scoring.errors import ScoringError
from scoring.table import (
    ALWAYS_NO_TRUMP,
    BY_BID,
    NO_TRUMP,
    NOT_DECLARED,
    Bid,
    Table,
    TableError,
    Teams,
    TrumpRule,
    check_bid,
    deal,
    default_called,
    default_decks,
    parse_trump,
    trump_text,
    weakest_bid,
)

NAMES = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Bo", "Chen")
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def table(players: int, decks: int = 2, teams: Teams = Teams.PARTNERS, **kwargs) -> Table:
    return Table(NAMES[:players], decks=decks, teams=teams, **kwargs)


# The deal ---------------------------------------------------------------------------------

# docs/rules.md, "Table size and the deal": players, decks, cards each, kitty.
LISTED_DEALS = [(4, 2, 25, 8), (5, 2, 20, 8), (6, 3, 26, 6), (7, 3, 22, 8), (8, 4, 26, 8)]


@pytest.mark.parametrize(("players", "decks", "each", "kitty"), LISTED_DEALS)
def test_each_listed_table_deals_as_many_cards_as_leave_at_least_5_for_the_kitty(
    players: int, decks: int, each: int, kitty: int
) -> None:
    assert deal(players, decks) == (each, kitty)
    seated = Table(NAMES[:players], decks=decks, teams=Teams.FIND_A_FRIEND)
    assert (seated.cards_per_player, seated.kitty_cards) == (each, kitty)
    assert (seated.deck_points, seated.max_kitty_points) == (100 * decks, 10 * kitty)


@pytest.mark.parametrize("decks", [2, 3, 4])
@pytest.mark.parametrize("players", range(4, 9))
def test_every_deal_uses_every_card_and_deals_as_many_as_it_can(players: int, decks: int) -> None:
    each, kitty = deal(players, decks)
    assert players * each + kitty == 54 * decks
    assert 5 <= kitty < 5 + players  # one more card each would leave fewer than 5


@pytest.mark.parametrize(("players", "decks"), [(4, 2), (5, 2), (6, 3), (7, 3), (8, 4)])
def test_the_app_proposes_a_deck_for_every_two_players(players: int, decks: int) -> None:
    assert default_decks(players) == decks


@pytest.mark.parametrize("decks", [1, 5, 0, True, 2.0, "2"])
def test_a_table_of_other_than_2_to_4_decks_is_refused(decks: object) -> None:
    with pytest.raises(TableError) as error:
        Table(NAMES[:4], decks=decks)  # type: ignore[arg-type]
    assert str(error.value) == f"decks must be 2, 3 or 4, got {decks!r}"
    assert error.value.field == "decks"


# The players ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 3, 9])
def test_a_table_seats_4_to_8_players(players: int) -> None:
    names = tuple(f"P{seat}" for seat in range(players))
    with pytest.raises(TableError) as error:
        Table(names, teams=Teams.FIND_A_FRIEND)
    assert str(error.value) == f"a table has 4 to 8 players, got {players}"
    assert error.value.field == "players"


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("Mei", "Jun", "Mei", "Hao"), "Mei sits at the table twice"),
        (("Mei", "Jun", " ", "Hao"), "player 3 has no name"),
        (("Mei", "Jun", "", "Hao"), "player 3 has no name"),
    ],
)
def test_each_player_has_a_name_of_their_own(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(TableError) as error:
        Table(players)
    assert (str(error.value), error.value.field) == (message, "players")


def test_play_runs_from_each_seat_to_the_next_and_round_again() -> None:
    six = table(6, 3)
    assert [six.next(seat) for seat in six.seats] == [1, 2, 3, 4, 5, 0]
    assert six.after(4) == (5, 0, 1, 2, 3)
    assert six.seat_of("Hao") == 3


def test_a_name_not_at_the_table_has_no_seat() -> None:
    with pytest.raises(TableError) as error:
        table(4).seat_of("Zed")
    assert (str(error.value), error.value.field) == ("'Zed' is not one of the players", "players")


@pytest.mark.parametrize(
    ("seats", "said"),
    [((), ""), ((0,), "Mei"), ((0, 2), "Mei and Lin"), ((0, 2, 4), "Mei, Lin and Wei")],
)
def test_seats_are_named_as_players_read_them(seats: tuple[int, ...], said: str) -> None:
    assert table(6, 3).names(seats) == said


# The teams --------------------------------------------------------------------------------

# docs/rules.md, "Teams": partners alternate; pairs sit opposite, seat i with seat i + n/2.
PARTNERS = [
    (4, ((0, 2), (1, 3))),
    (6, ((0, 2, 4), (1, 3, 5))),
    (8, ((0, 2, 4, 6), (1, 3, 5, 7))),
]
PAIRS = [
    (6, ((0, 3), (1, 4), (2, 5))),
    (8, ((0, 4), (1, 5), (2, 6), (3, 7))),
]


@pytest.mark.parametrize(("players", "teams"), PARTNERS)
def test_partners_alternate_round_the_table(players: int, teams: tuple) -> None:
    seated = table(players, default_decks(players))
    assert seated.fixed == teams
    for team in teams:
        for seat in team:
            assert seated.team(seat) == team


@pytest.mark.parametrize(("players", "teams"), PAIRS)
def test_pairs_sit_opposite_each_other(players: int, teams: tuple) -> None:
    seated = table(players, default_decks(players), Teams.PAIRS)
    assert seated.fixed == teams
    for team in teams:
        for seat in team:
            assert seated.team(seat) == team


@pytest.mark.parametrize("players", range(4, 9))
def test_in_find_a_friend_every_player_is_their_own_team(players: int) -> None:
    seated = table(players, default_decks(players), Teams.FIND_A_FRIEND)
    assert not seated.fixed_teams
    assert seated.fixed == ()
    assert [seated.team(seat) for seat in seated.seats] == [(seat,) for seat in seated.seats]


@pytest.mark.parametrize("players", [5, 7])
def test_partners_need_an_even_number_of_players(players: int) -> None:
    with pytest.raises(TableError) as error:
        table(players, 3)
    assert str(error.value) == f"partners need an even number of players (4, 6 or 8), got {players}"
    assert error.value.field == "teams"


@pytest.mark.parametrize("players", [4, 5, 7])
def test_pairs_need_6_or_8_players(players: int) -> None:
    with pytest.raises(TableError) as error:
        table(players, 3, Teams.PAIRS)
    assert str(error.value) == f"pairs need 6 or 8 players, got {players}"
    assert error.value.field == "teams"


@pytest.mark.parametrize(("players", "called"), [(4, 1), (5, 1), (6, 1), (7, 2), (8, 2)])
def test_a_find_a_friend_declarer_calls_1_card_up_to_6_players_and_2_from_7(
    players: int, called: int
) -> None:
    assert default_called(players) == called
    assert table(players, default_decks(players), Teams.FIND_A_FRIEND).called == called


@pytest.mark.parametrize("called", [1, 2])
def test_a_game_may_set_how_many_cards_a_declarer_calls(called: int) -> None:
    assert table(8, 4, Teams.FIND_A_FRIEND, called=called).called == called


@pytest.mark.parametrize("called", [0, 3, -1, True, 1.0, "1"])
def test_a_declarer_calls_1_or_2_cards(called: object) -> None:
    with pytest.raises(TableError) as error:
        table(4, 2, Teams.FIND_A_FRIEND, called=called)
    assert str(error.value) == f"a declarer calls 1 or 2 cards, got {called!r}"
    assert error.value.field == "called"


@pytest.mark.parametrize("teams", [Teams.PARTNERS, Teams.PAIRS])
def test_only_find_a_friend_declarers_call_cards(teams: Teams) -> None:
    with pytest.raises(TableError) as error:
        table(6, 3, teams, called=1)
    assert (str(error.value), error.value.field) == (
        "only find-a-friend declarers call cards",
        "called",
    )
    assert table(6, 3, teams).called is None


# The trump rule ---------------------------------------------------------------------------


def test_by_default_each_hands_trump_is_bid_for() -> None:
    assert table(4).trumps == BY_BID == TrumpRule()
    assert BY_BID.bids


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ("bid", TrumpRule()),
        ("no-trump", TrumpRule(no_trump=True)),
        (["S"], TrumpRule(suits=(S,))),
        (["S", "H", "C", "D"], TrumpRule(suits=(S, H, C, D))),
        (["h", "♠"], TrumpRule(suits=(H, S))),
    ],
)
def test_the_trump_rule_reads_bid_no_trump_or_a_rotation(value: object, rule: TrumpRule) -> None:
    read = TrumpRule.from_json(value)
    assert read == rule
    assert TrumpRule.from_json(json.loads(json.dumps(read.to_json()))) == rule


@pytest.mark.parametrize(
    ("rule", "written"),
    [
        (TrumpRule(), "bid"),
        (TrumpRule(no_trump=True), "no-trump"),
        (TrumpRule(suits=(D, C)), ["D", "C"]),
    ],
)
def test_the_trump_rule_writes_its_json(rule: TrumpRule, written: object) -> None:
    assert rule.to_json() == written


@pytest.mark.parametrize(
    ("rule", "trumps"),
    [
        (TrumpRule(suits=(S,)), [S, S, S, S, S]),
        (TrumpRule(suits=(S, H)), [S, H, S, H, S]),
        (TrumpRule(suits=(S, H, C, D)), [S, H, C, D, S]),
        (TrumpRule(no_trump=True), [None] * 5),
    ],
)
def test_a_fixed_trump_rotates_hand_by_hand_then_round_again(
    rule: TrumpRule, trumps: list[Suit | None]
) -> None:
    assert not rule.bids
    assert [rule.fixed(number) for number in range(1, 6)] == trumps


@pytest.mark.parametrize(
    "value",
    [[], ["S", "S"], ["S", "H", "D", "C", "S"], ["X"], ["SJ"], "random", None, 4, [4], {"S": 1}],
)
def test_a_trump_rule_is_bid_no_trump_or_1_to_4_different_suits(value: object) -> None:
    with pytest.raises(TableError) as error:
        TrumpRule.from_json(value)
    assert str(error.value) == (
        f'trumps must be "bid", "no-trump" or a list of 1 to 4 different suits, got {value!r}'
    )
    assert error.value.field == "trumps"


def test_a_rotation_repeats_no_suit() -> None:
    with pytest.raises(TableError) as error:
        TrumpRule(suits=(S, H, S))
    assert str(error.value) == "a trump rotation is 1 to 4 different suits, got 'S H S'"
    assert error.value.field == "trumps"


def test_a_game_without_trump_names_no_suits() -> None:
    with pytest.raises(TableError) as error:
        TrumpRule(suits=(S,), no_trump=True)
    assert (str(error.value), error.value.field) == (
        "a game without trump names no trump suits",
        "trumps",
    )


# Bids -------------------------------------------------------------------------------------


def test_bids_run_from_one_level_card_to_a_pair_of_big_jokers() -> None:
    assert [str(bid) for bid in Bid] == ["one", "pair", "small-jokers", "big-jokers", "none"]
    assert [bid.names_suit for bid in Bid] == [True, True, False, False, False]


# bid, trump, allowed: level cards name their suit; jokers mean no trump; where nobody bid
# the hand has no trump or the kitty turned up names it.
BIDS = [
    (Bid.ONE, H, True),
    (Bid.ONE, None, False),
    (Bid.PAIR, S, True),
    (Bid.PAIR, None, False),
    (Bid.SMALL_JOKERS, None, True),
    (Bid.SMALL_JOKERS, H, False),
    (Bid.BIG_JOKERS, None, True),
    (Bid.BIG_JOKERS, H, False),
    (Bid.NONE, None, True),
    (Bid.NONE, C, True),
]


@pytest.mark.parametrize(("bid", "trump", "allowed"), BIDS)
def test_each_bid_allows_the_trump_it_shows(bid: Bid, trump: Suit | None, allowed: bool) -> None:
    if allowed:
        check_bid(bid, trump)
        return
    with pytest.raises(TableError) as error:
        check_bid(bid, trump)
    assert error.value.field == "trump"


@pytest.mark.parametrize(
    ("bid", "trump", "message"),
    [
        (Bid.BIG_JOKERS, H, "a bid of big jokers means no trump, not H"),
        (Bid.SMALL_JOKERS, D, "a bid of small jokers means no trump, not D"),
        (Bid.ONE, None, "a bid of one level card makes that card's suit trump: name the suit"),
        (
            Bid.PAIR,
            None,
            "a bid of a pair of level cards makes that card's suit trump: name the suit",
        ),
    ],
)
def test_a_trump_the_bid_does_not_allow_is_refused_in_words(
    bid: Bid, trump: Suit | None, message: str
) -> None:
    with pytest.raises(TableError) as error:
        check_bid(bid, trump)
    assert str(error.value) == message


# The table's JSON -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seated",
    [
        Table(NAMES[:4]),
        Table(NAMES[:6], decks=3, teams=Teams.PAIRS, trumps=TrumpRule(suits=(S, H))),
        Table(NAMES[:7], decks=3, teams=Teams.FIND_A_FRIEND, called=1),
        Table(NAMES[:8], decks=4, teams=Teams.FIND_A_FRIEND, trumps=TrumpRule(no_trump=True)),
    ],
    ids=["4-partners", "6-pairs-rotation", "7-find-a-friend", "8-find-a-friend-no-trump"],
)
def test_a_table_survives_its_json_round_trip(seated: Table) -> None:
    assert Table.from_json(json.loads(json.dumps(seated.to_json()))) == seated


def test_a_tables_json_names_its_players_decks_teams_and_trumps() -> None:
    assert Table(NAMES[:7], decks=3, teams=Teams.FIND_A_FRIEND).to_json() == {
        "players": list(NAMES[:7]),
        "decks": 3,
        "teams": "find-a-friend",
        "trumps": "bid",
        "called": 2,
    }


@pytest.mark.parametrize(
    ("data", "message", "field"),
    [
        ({"players": "Mei"}, "players must be a list of names, got 'Mei'", "players"),
        ({"players": ["Mei", 2, "Lin", "Hao"]}, None, "players"),
        (
            {"players": list(NAMES[:4]), "teams": "trio"},
            "teams must be partners, pairs or find-a-friend, got 'trio'",
            "teams",
        ),
        (
            {"players": list(NAMES[:4]), "trumps": ["S", "S"]},
            'trumps must be "bid", "no-trump" or a list of 1 to 4 different suits, '
            "got ['S', 'S']",
            "trumps",
        ),
    ],
)
def test_a_tables_json_that_cannot_be_read_names_its_field(
    data: dict, message: str | None, field: str
) -> None:
    with pytest.raises(TableError) as error:
        Table.from_json(data)
    if message is not None:
        assert str(error.value) == message
    assert error.value.field == field


def test_a_table_error_is_a_value_error() -> None:
    assert issubclass(TableError, ScoringError)
    assert issubclass(TableError, ValueError)


# A hand's bid and trump from what the table said -------------------------------------------


@pytest.mark.parametrize(
    ("bid", "trump", "named", "expected"),
    [
        # No bid given: the weakest that allows the trump named.
        (None, H, True, (Bid.ONE, H)),
        (None, None, True, (Bid.SMALL_JOKERS, None)),
        # A bid given is kept, with the trump named.
        (Bid.PAIR, S, True, (Bid.PAIR, S)),
        (Bid.NONE, D, True, (Bid.NONE, D)),
        (Bid.NONE, None, True, (Bid.NONE, None)),
        # No trump named: a bid of jokers says there is none.
        (Bid.SMALL_JOKERS, None, False, (Bid.SMALL_JOKERS, None)),
        (Bid.BIG_JOKERS, None, False, (Bid.BIG_JOKERS, None)),
    ],
)
def test_a_bid_hand_has_the_trump_named_and_without_a_bid_the_weakest_it_allows(
    bid: Bid | None, trump: Suit | None, named: bool, expected: tuple
) -> None:
    assert BY_BID.bid_and_trump(3, bid, trump, named=named) == expected


@pytest.mark.parametrize("bid", [None, Bid.ONE, Bid.PAIR, Bid.NONE])
def test_a_bid_hand_whose_trump_is_not_named_is_refused_unless_jokers_say_it(
    bid: Bid | None,
) -> None:
    with pytest.raises(TableError) as error:
        BY_BID.bid_and_trump(1, bid, None, named=False)
    assert error.value.field == "trump"
    assert str(error.value) == "the trump is not named, and only a bid of jokers says it: none"


@pytest.mark.parametrize(
    ("rule", "number", "expected"),
    [
        (TrumpRule(suits=(S, H)), 1, S),
        (TrumpRule(suits=(S, H)), 2, H),
        (TrumpRule(suits=(S, H)), 3, S),
        (TrumpRule(no_trump=True), 4, None),
    ],
)
def test_under_a_fixed_trump_nobody_bids_and_the_hand_has_the_rules_trump(
    rule: TrumpRule, number: int, expected: Suit | None
) -> None:
    # Whatever was said: the rule decides.
    assert rule.bid_and_trump(number, Bid.PAIR, C, named=False) == (None, expected)


@pytest.mark.parametrize("trump", [*Suit, None])
def test_the_weakest_bid_allows_the_trump_and_no_weaker_bid_does(trump: Suit | None) -> None:
    weakest = weakest_bid(trump)
    order = list(Bid)
    check_bid(weakest, trump)
    for weaker in order[: order.index(weakest)]:
        with pytest.raises(TableError):
            check_bid(weaker, trump)


@pytest.mark.parametrize(
    ("trump", "text"),
    [(Suit.SPADES, "S"), (Suit.HEARTS, "H"), (Suit.DIAMONDS, "D"), (Suit.CLUBS, "C"), (None, "NT")],
)
def test_a_hands_trump_is_one_word_read_back_as_written(trump, text):
    assert trump_text(trump) == text
    assert parse_trump(text) is trump
    assert parse_trump(text.lower()) is trump


@pytest.mark.parametrize("text", [NOT_DECLARED, "none", "no-trump", "X"])
def test_only_nt_is_no_trump(text):
    with pytest.raises(TableError) as error:
        parse_trump(text)
    assert str(error.value) == f"unknown trump {text!r}: a suit (S, H, D, C) or NT"


def test_no_trump_not_declared_nobody_bid_and_a_game_without_trump_are_spelt_apart():
    spellings = [NO_TRUMP, NOT_DECLARED, Bid.NONE.value, ALWAYS_NO_TRUMP.to_json()]
    assert spellings == ["NT", "", "none", "no-trump"]
