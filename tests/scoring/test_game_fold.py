"""A game as a fold over its hands, at any table docs/rules.md keeps: a test per sentence of
"Variants: more players, teams, fixed trump" (who declares next, bidding and
rotating starters, the first declarer, pairs, find-a-friend, a fixed trump, the game's end)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from scoring import Format, LastTrick, Rank, Side, get_rules
from scoring.cards import Suit
from scoring.game import Game, GameError, GameSetup, HandResult, StartReason, replay
from scoring.table import BY_BID, Bid, Table, Teams, TrumpRule, default_decks

NAMES = ("Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Bo", "Chen")
DEC, OPP = Side.DECLARERS, Side.OPPONENTS
HOLD = LastTrick(DEC, Format.SINGLE, 1)
S, H = Suit.SPADES, Suit.HEARTS
PARTNERS, PAIRS, FRIEND = Teams.PARTNERS, Teams.PAIRS, Teams.FIND_A_FRIEND
PRESETS = ["standard", "open-ladder", "kawu", "simplified"]


def setup(
    rules: str = "standard",
    players: int = 4,
    teams: Teams = PARTNERS,
    *,
    levels: Mapping[int, str] | None = None,
    first: int | None = None,
    decks: int | None = None,
    trumps: TrumpRule = BY_BID,
    called: int | None = None,
) -> GameSetup:
    """A game at a table of ``players`` (decks: one for every two players unless given);
    ``levels`` maps seats to their starting level, the others start at 2."""
    table = Table(
        NAMES[:players],
        decks=decks or default_decks(players),
        teams=teams,
        trumps=trumps,
        called=called,
    )
    ranks = tuple(Rank.parse((levels or {}).get(seat, "2")) for seat in table.seats)
    return GameSetup(get_rules(rules), table, ranks, first)


def hand(
    declarer: int,
    points: int = 45,
    *,
    kitty: int = 0,
    friends: Sequence[int] = (),
    trump: Suit | None = None,
    bid: Bid | None = None,
) -> HandResult:
    """A hand the declarers take the last trick of, unless told otherwise."""
    return HandResult(declarer, points, kitty, HOLD, friends=tuple(friends), trump=trump, bid=bid)


def levels(game: Game) -> list[str]:
    return [str(level) for level in game.state.levels]


def refused(game: Game | GameSetup, *hands: HandResult) -> GameError:
    """The error the last of ``hands`` raises, the others played first."""
    if isinstance(game, GameSetup):
        game = Game(game)
    *before, last = hands
    game = replay(game.setup, [played.result for played in game.hands] + before)
    with pytest.raises(GameError) as error:
        game.play(last)
    return error.value


# Who declares next: the declarers hold -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "teams", "starter", "next_starter"),
    [
        pytest.param(4, PARTNERS, 0, 2, id="4-partners-the-partner"),
        pytest.param(4, PARTNERS, 3, 1, id="4-partners-the-partner-round-the-table"),
        pytest.param(6, PARTNERS, 0, 2, id="6-partners"),
        pytest.param(6, PARTNERS, 4, 0, id="6-partners-round-the-table"),
        pytest.param(8, PARTNERS, 6, 0, id="8-partners-round-the-table"),
        pytest.param(8, PARTNERS, 1, 3, id="8-partners"),
        pytest.param(6, PAIRS, 1, 4, id="6-pairs-the-partner-opposite"),
        pytest.param(6, PAIRS, 4, 1, id="6-pairs-the-partner-opposite-round-the-table"),
        pytest.param(8, PAIRS, 2, 6, id="8-pairs-the-partner-opposite"),
    ],
)
def test_holding_declarers_pass_the_start_to_the_next_player_of_their_side(
    players: int, teams: Teams, starter: int, next_starter: int
) -> None:
    game = replay(setup("kawu", players, teams, first=starter), [hand(starter, 45)])
    assert game.hands[0].winner is DEC
    assert (game.state.next_declarers, game.state.next_declarer) == ((next_starter,), next_starter)


@pytest.mark.parametrize(
    ("players", "starter", "friends", "next_starter"),
    [
        pytest.param(5, 1, [4], 4, id="the-friend-after-the-starter"),
        pytest.param(5, 3, [1], 1, id="the-friend-round-the-table"),
        pytest.param(7, 2, [0, 5], 5, id="the-first-of-two-friends-after-the-starter"),
        pytest.param(7, 2, [5, 0], 5, id="the-friends-in-any-order"),
        pytest.param(8, 6, [1, 4], 1, id="two-friends-round-the-table"),
    ],
)
def test_a_find_a_friend_declarer_who_holds_passes_the_start_to_the_next_friend(
    players: int, starter: int, friends: list[int], next_starter: int
) -> None:
    game = replay(
        setup("kawu", players, FRIEND, first=starter), [hand(starter, 45, friends=friends)]
    )
    assert game.hands[0].winner is DEC
    assert (game.state.next_declarers, game.state.next_declarer) == ((next_starter,), next_starter)


@pytest.mark.parametrize(
    ("players", "friends"),
    [
        pytest.param(4, [], id="no-friend-found"),
        pytest.param(4, [2], id="the-declarer-played-the-called-card"),
        pytest.param(7, [], id="neither-of-two-called-cards-played"),
        pytest.param(7, [2], id="the-declarer-played-a-called-card-and-nobody-the-other"),
    ],
)
def test_a_find_a_friend_declarer_who_played_alone_and_held_starts_again(
    players: int, friends: list[int]
) -> None:
    game = replay(setup("standard", players, FRIEND, first=2), [hand(2, 45, friends=friends)])
    assert game.hands[0].declarers == (2,)
    assert (game.state.next_declarers, game.state.next_declarer) == ((2,), 2)


# Who declares next: the opponents take over ------------------------------------------------


@pytest.mark.parametrize(
    ("players", "teams", "starter", "friends", "points", "next_starter"),
    [
        pytest.param(4, PARTNERS, 0, [], 80, 1, id="4-partners"),
        pytest.param(4, PARTNERS, 3, [], 80, 0, id="4-partners-round-the-table"),
        pytest.param(6, PARTNERS, 4, [], 120, 5, id="6-partners"),
        pytest.param(8, PARTNERS, 7, [], 160, 0, id="8-partners-round-the-table"),
        pytest.param(6, PAIRS, 2, [], 120, 3, id="6-pairs"),
        pytest.param(8, PAIRS, 7, [], 160, 0, id="8-pairs-round-the-table"),
        pytest.param(5, FRIEND, 0, [1], 80, 2, id="find-a-friend-skips-the-friend"),
        pytest.param(5, FRIEND, 4, [0], 80, 1, id="find-a-friend-skips-the-friend-round"),
        pytest.param(5, FRIEND, 2, [], 80, 3, id="find-a-friend-alone"),
        pytest.param(7, FRIEND, 1, [2, 3], 120, 4, id="find-a-friend-skips-two-friends"),
    ],
)
def test_when_the_opponents_take_over_the_next_opponent_after_the_starter_declares(
    players: int, teams: Teams, starter: int, friends: list[int], points: int, next_starter: int
) -> None:
    game = replay(
        setup("kawu", players, teams, first=starter), [hand(starter, points, friends=friends)]
    )
    assert game.hands[0].winner is OPP
    assert (game.state.next_declarers, game.state.next_declarer) == ((next_starter,), next_starter)


# Bidding and rotating starters -------------------------------------------------------------


@pytest.mark.parametrize("rules", ["standard", "simplified"])
@pytest.mark.parametrize(
    ("players", "teams", "starter", "points", "may_start", "suggested"),
    [
        pytest.param(4, PARTNERS, 0, 45, (0, 2), 2, id="4-partners-hold"),
        pytest.param(4, PARTNERS, 0, 80, (1, 3), 1, id="4-partners-take-over"),
        pytest.param(6, PARTNERS, 2, 45, (0, 2, 4), 4, id="6-partners-hold"),
        pytest.param(6, PARTNERS, 2, 120, (1, 3, 5), 3, id="6-partners-take-over"),
        pytest.param(8, PARTNERS, 0, 160, (1, 3, 5, 7), 1, id="8-partners-take-over"),
        pytest.param(6, PAIRS, 1, 45, (1, 4), 4, id="6-pairs-hold"),
        pytest.param(6, PAIRS, 1, 120, (2, 5), 2, id="6-pairs-take-over"),
        pytest.param(8, PAIRS, 3, 160, (0, 4), 4, id="8-pairs-take-over"),
    ],
)
def test_under_a_bidding_starter_any_player_of_the_next_declaring_team_may_start(
    rules: str,
    players: int,
    teams: Teams,
    starter: int,
    points: int,
    may_start: tuple[int, ...],
    suggested: int,
) -> None:
    game = replay(setup(rules, players, teams), [hand(starter, points)])
    assert (game.state.next_declarers, game.state.next_declarer) == (may_start, suggested)
    for seat in may_start:
        assert game.play(hand(seat, 45)).hands[1].result.declarer == seat
    outsider = next(seat for seat in range(players) if seat not in may_start)
    assert refused(game, hand(outsider, 45)).field == "declarer"


@pytest.mark.parametrize(
    ("rules", "teams", "trumps"),
    [
        pytest.param("kawu", PARTNERS, TrumpRule(), id="kawu-rotates"),
        pytest.param("open-ladder", PARTNERS, TrumpRule(), id="open-ladder-rotates"),
        pytest.param("standard", PARTNERS, TrumpRule(suits=(S,)), id="standard-fixed-trump"),
        pytest.param("simplified", PARTNERS, TrumpRule(no_trump=True), id="simplified-no-trump"),
        pytest.param("standard", FRIEND, TrumpRule(), id="standard-find-a-friend"),
        pytest.param("standard", PAIRS, TrumpRule(suits=(S, H)), id="standard-pairs-rotation"),
    ],
)
def test_a_rotating_starter_a_fixed_trump_or_find_a_friend_lets_one_player_start(
    rules: str, teams: Teams, trumps: TrumpRule
) -> None:
    players = 6
    game_setup = setup(rules, players, teams, first=0, trumps=trumps)
    trump = trumps.fixed(1) if not trumps.bids else None
    game = replay(game_setup, [hand(0, 45, friends=[2] if teams is FRIEND else [], trump=trump)])
    next_starter = 3 if teams is PAIRS else 2
    assert game_setup.rotating
    assert (game.state.next_declarers, game.state.next_declarer) == ((next_starter,), next_starter)
    trump = trumps.fixed(2) if not trumps.bids else None
    error = refused(game, hand(4 if teams is PARTNERS else 5, 45, trump=trump))
    assert (error.hand, error.field) == (2, "declarer")


@pytest.mark.parametrize(
    ("rules", "teams", "trumps", "rotating", "needs_first_declarer"),
    [
        ("standard", PARTNERS, TrumpRule(), False, False),
        ("simplified", PAIRS, TrumpRule(), False, False),
        ("kawu", PARTNERS, TrumpRule(), True, True),
        ("open-ladder", PAIRS, TrumpRule(), True, True),
        ("standard", PARTNERS, TrumpRule(suits=(S, H)), True, True),
        ("standard", PARTNERS, TrumpRule(no_trump=True), True, True),
        ("standard", FRIEND, TrumpRule(), True, False),
        ("kawu", FRIEND, TrumpRule(), True, True),
    ],
)
def test_who_starts_rotates_where_nobody_bids_and_hand_1_then_has_a_chosen_starter(
    rules: str, teams: Teams, trumps: TrumpRule, rotating: bool, needs_first_declarer: bool
) -> None:
    game_setup = setup(rules, 6, teams, trumps=trumps)
    assert (game_setup.rotating, game_setup.needs_first_declarer) == (
        rotating,
        needs_first_declarer,
    )


# Why the next hand starts where it does ----------------------------------------------------


@pytest.mark.parametrize(
    ("game", "why", "said"),
    [
        pytest.param(
            replay(setup(), []),
            StartReason.BID,
            "Hand 1: whoever wins the bid starts it.",
            id="hand-1-bid",
        ),
        pytest.param(
            replay(setup("kawu", first=1, levels={1: "T", 3: "T"}), []),
            StartReason.CHOSEN,
            "Jun starts hand 1 at level 10.",
            id="hand-1-chosen",
        ),
        pytest.param(
            replay(setup(), [hand(0, 45)]),
            StartReason.HELD,
            "Mei or Lin may start hand 2 at level 3 (Lin by turn): the declarers held.",
            id="held-under-a-bid",
        ),
        pytest.param(
            replay(setup("standard", 6), [hand(2, 120)]),
            StartReason.TAKE_OVER,
            "Jun, Hao or Yan may start hand 2 at level 2 (Hao by turn): Jun, Hao and Yan take "
            "over.",
            id="take-over-under-a-bid",
        ),
        pytest.param(
            replay(setup("kawu", first=0), [hand(0, 45)]),
            StartReason.HELD,
            "Lin starts hand 2 at level 3: the declarers held.",
            id="held-by-turn",
        ),
        pytest.param(
            replay(setup("kawu", first=0), [hand(0, 80)]),
            StartReason.TAKE_OVER,
            "Jun starts hand 2 at level 2: Jun and Hao take over.",
            id="take-over-by-turn",
        ),
        pytest.param(
            replay(setup("standard", 5, FRIEND, first=0), [hand(0, 80, friends=[1])]),
            StartReason.TOOK_THE_DEAL,
            "Lin starts hand 2 at level 2: the opponents took the deal.",
            id="find-a-friend-took-the-deal",
        ),
    ],
)
def test_the_next_hand_says_who_starts_it_and_why(game: Game, why: StartReason, said: str) -> None:
    assert game.next_hand is not None
    assert (game.next_hand.why, game.next_hand.sentence) == (why, said)


def test_the_next_hand_is_said_in_the_callers_language() -> None:
    french = {
        "{player} starts hand {number} at level {level}: {team} take over.": (
            "{player} commence la donne {number} au niveau {level} : {team} prennent la donne."
        ),
        "{first} and {second}": "{first} et {second}",
    }
    game = replay(setup("kawu", first=0), [hand(0, 80)])
    assert game.next_hand is not None
    said = game.next_hand.sentence.in_words(lambda text: french.get(text, text))
    assert said == "Jun commence la donne 2 au niveau 2 : Jun et Hao prennent la donne."


def test_a_finished_game_has_no_next_hand() -> None:
    game = replay(setup(levels={0: "A", 2: "A"}), [hand(0, 45)])
    assert game.state.game_over
    assert game.next_hand is None


# The first declarer -------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_before_the_first_bid_any_player_may_start_hand_1(first: int) -> None:
    game = Game(setup("standard"))
    assert (game.state.next_declarers, game.state.next_declarer) == ((0, 1, 2, 3), None)
    assert game.state.level is Rank.TWO  # everyone stands at 2: the hand is played at 2
    played = game.play(hand(first, 45))
    assert played.hands[0].declarers == (first % 2, first % 2 + 2)


def test_before_the_first_bid_the_level_waits_for_the_bid_where_the_teams_differ() -> None:
    levels = (Rank.NINE, Rank.FOUR) * 2
    game = Game(GameSetup(get_rules("standard"), Table(NAMES[:4]), levels))
    assert game.state.level is None
    assert game.play(hand(1, 45)).hands[0].level is Rank.FOUR


@pytest.mark.parametrize("rules", ["standard", "kawu"])
def test_a_chosen_first_declarer_must_start_hand_1(rules: str) -> None:
    game = Game(setup(rules, first=1))
    assert (game.state.next_declarers, game.state.next_declarer) == ((1,), 1)
    error = refused(game, hand(3, 45))
    assert str(error) == "hand 1: Hao cannot start this hand: Jun starts it"
    assert (error.hand, error.field) == (1, "declarer")


def test_the_first_declarers_level_is_the_first_hands() -> None:
    game = Game(setup("kawu", first=1, levels={1: "7", 3: "7"}))
    assert game.state.level is Rank.SEVEN
    assert game.play(hand(1, 45)).hands[0].level is Rank.SEVEN


# Partners: team levels -------------------------------------------------------------------


def test_holding_partners_climb_together_and_the_others_stay() -> None:
    game = replay(setup("standard", 6), [hand(0, 5), hand(4, 45)])
    assert levels(game) == ["6", "2", "6", "2", "6", "2"]
    assert [dict(played.levels_gained) for played in game.hands] == [
        {0: 2, 2: 2, 4: 2},
        {0: 2, 2: 2, 4: 2},
    ]


def test_opponents_who_take_over_declare_at_their_own_level() -> None:
    game = replay(setup("standard", levels={0: "9", 2: "9", 1: "4", 3: "4"}), [hand(0, 100)])
    assert levels(game) == ["9", "4", "9", "4"]
    assert game.hands[0].levels_gained == {1: 0, 3: 0}
    assert game.state.level is Rank.FOUR


@pytest.mark.parametrize(
    ("players", "points", "winner", "gained"),
    [
        pytest.param(4, 75, DEC, 1, id="2-decks-75-declarers-plus-1"),
        pytest.param(4, 80, OPP, 0, id="2-decks-80-take-over"),
        pytest.param(6, 80, DEC, 1, id="3-decks-80-declarers-plus-1"),
        pytest.param(6, 55, DEC, 2, id="3-decks-55-declarers-plus-2"),
        pytest.param(6, 120, OPP, 0, id="3-decks-120-take-over"),
        pytest.param(8, 155, DEC, 1, id="4-decks-155-declarers-plus-1"),
        pytest.param(8, 160, OPP, 0, id="4-decks-160-take-over"),
    ],
)
def test_a_bigger_table_scales_the_level_table_with_its_decks(
    players: int, points: int, winner: Side, gained: int
) -> None:
    played = replay(setup("standard", players), [hand(0, points)]).hands[0]
    assert played.winner is winner
    assert set(played.levels_gained.values()) == {gained}


# Pairs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "declarer", "declarers", "opponents"),
    [
        (6, 1, (1, 4), (0, 2, 3, 5)),
        (6, 3, (0, 3), (1, 2, 4, 5)),
        (8, 2, (2, 6), (0, 1, 3, 4, 5, 7)),
    ],
)
def test_under_pairs_the_declaring_team_plays_all_the_others_together(
    players: int, declarer: int, declarers: tuple, opponents: tuple
) -> None:
    played = replay(setup("standard", players, PAIRS), [hand(declarer, 45)]).hands[0]
    assert (played.declarers, played.opponents) == (declarers, opponents)


def test_under_pairs_only_the_team_after_the_starter_climbs_when_the_opponents_take_over() -> None:
    game_setup = setup("kawu", 6, PAIRS, first=1, levels={2: "4", 5: "4", 0: "9", 3: "9"})
    played = replay(game_setup, [hand(1, 180)]).hands[0]  # 3 decks: 180–235 take over and +1
    assert played.winner is OPP
    assert played.levels_gained == {0: 0, 2: 1, 3: 0, 5: 1}
    assert [str(level) for level in played.after.levels] == ["9", "2", "5", "9", "2", "5"]
    assert (played.after.next_declarers, played.after.next_declarer) == ((2,), 2)


def test_under_pairs_the_taking_team_climbs_from_its_own_level() -> None:
    game_setup = setup("kawu", 6, PAIRS, first=0, levels={1: "K", 4: "K", 2: "5", 5: "5"})
    played = replay(game_setup, [hand(0, 240)]).hands[0]  # 3 decks: 240+ take over and +2
    assert played.levels_gained == {1: 1, 2: 0, 4: 1, 5: 0}
    assert [str(level) for level in played.after.levels] == ["2", "A", "5", "2", "A", "5"]
    assert not played.after.game_over


def test_under_pairs_and_past_ace_only_the_taking_team_can_pass_A_and_win() -> None:
    game_setup = setup("open-ladder", 8, PAIRS, first=0, levels={1: "K", 5: "K", 2: "K", 6: "K"})
    played = replay(game_setup, [hand(0, 320)]).hands[0]  # 4 decks: 320–395 take over and +2
    assert played.levels_gained == {1: 2, 2: 0, 3: 0, 5: 2, 6: 0, 7: 0}
    assert played.after.winners == (1, 5)
    assert [str(level) for level in played.after.levels] == ["2", "A", "K", "2", "2", "A", "K", "2"]


# Find a friend -----------------------------------------------------------------------------


def test_whoever_plays_a_called_card_joins_the_declarer_and_the_rest_are_opponents() -> None:
    played = replay(setup("standard", 5, FRIEND), [hand(0, 45, friends=[3])]).hands[0]
    assert (played.declarers, played.opponents, played.friends) == ((0, 3), (1, 2, 4), (3,))
    assert not played.short_handed


def test_each_player_of_the_winning_side_climbs_from_their_own_level() -> None:
    game_setup = setup("standard", 5, FRIEND, levels={0: "5", 3: "9", 1: "Q"})
    played = replay(game_setup, [hand(0, 5, friends=[3])]).hands[0]
    assert played.levels_gained == {0: 2, 3: 2}
    assert [str(level) for level in played.after.levels] == ["7", "Q", "2", "J", "2"]
    assert played.level is Rank.FIVE


def test_opponents_who_take_over_each_climb_from_their_own_level() -> None:
    game_setup = setup("kawu", 5, FRIEND, first=0, levels={2: "3", 3: "7", 4: "K"})
    played = replay(game_setup, [hand(0, 160, friends=[1])]).hands[0]  # 160+ and +2
    assert played.levels_gained == {2: 2, 3: 2, 4: 1}
    assert [str(level) for level in played.after.levels] == ["2", "2", "5", "9", "A"]


# preset, opponents' points, what the table awards a full side (the same with 2 and 3 decks)
AWARDS = [
    ("standard", 0, 3),
    ("standard", 60, 1),
    ("open-ladder", 60, 1),
    ("kawu", 5, 2),
    ("simplified", 0, 1),
    ("simplified", 60, 1),
]


@pytest.mark.parametrize(("rules", "points", "award"), AWARDS)
@pytest.mark.parametrize(
    ("players", "friends"),
    [
        pytest.param(4, [], id="called-card-never-played"),
        pytest.param(4, [0], id="the-declarer-played-the-called-card"),
        pytest.param(7, [3], id="both-called-cards-played-by-one-friend-or-one-never"),
        pytest.param(7, [0, 3], id="the-declarer-played-one-of-two-called-cards"),
        pytest.param(7, [], id="neither-of-two-called-cards-played"),
    ],
)
def test_a_short_side_that_holds_climbs_one_level_more_than_the_table_awards(
    rules: str, points: int, award: int, players: int, friends: list[int]
) -> None:
    game = replay(setup(rules, players, FRIEND, first=0), [hand(0, points, friends=friends)])
    played = game.hands[0]
    assert played.short_handed
    assert played.settlement.award == award + 1
    assert played.levels_gained == dict.fromkeys(played.declarers, award + 1)


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize(
    ("players", "friends"),
    [pytest.param(4, [2], id="one-friend-found"), pytest.param(7, [3, 5], id="two-friends-found")],
)
def test_a_full_side_that_holds_climbs_what_the_table_awards(
    rules: str, players: int, friends: list[int]
) -> None:
    game = replay(setup(rules, players, FRIEND, first=0), [hand(0, 60, friends=friends)])
    played = game.hands[0]
    assert not played.short_handed
    assert played.levels_gained == dict.fromkeys(played.declarers, 1)


@pytest.mark.parametrize(("rules", "points"), [("standard", 80), ("kawu", 120), ("simplified", 80)])
def test_a_short_side_that_loses_gives_the_opponents_no_more(rules: str, points: int) -> None:
    short = replay(setup(rules, 5, FRIEND, first=0), [hand(0, points)]).hands[0]
    full = replay(setup(rules, 5, FRIEND, first=0), [hand(0, points, friends=[1])]).hands[0]
    assert (short.winner, short.short_handed) == (OPP, False)
    assert set(short.levels_gained.values()) == set(full.levels_gained.values())


def test_a_short_side_at_K_is_awarded_one_more_but_climbs_only_to_A() -> None:
    game_setup = setup("standard", 4, FRIEND, first=0, levels={0: "K"})
    played = replay(game_setup, [hand(0, 0, friends=[])]).hands[0]
    assert (played.settlement.award, played.levels_gained) == (4, {0: 1})
    assert str(played.after.levels[0]) == "A"


@pytest.mark.parametrize(
    ("players", "called", "friends", "message"),
    [
        (5, None, [1, 2], "hand 1: a declarer calls 1 card, so at most 1 found a friend, got 2"),
        (
            8,
            None,
            [1, 2, 3],
            "hand 1: a declarer calls 2 cards, so at most 2 found a friend, got 3",
        ),
        (8, 1, [1, 2], "hand 1: a declarer calls 1 card, so at most 1 found a friend, got 2"),
        (8, None, [1, 1], "hand 1: a friend is named twice"),
        (6, None, [9], "hand 1: no seat 9 at this table"),
        (6, None, [0, 0], "hand 1: a declarer calls 1 card, so at most 1 found a friend, got 2"),
    ],
)
def test_friends_are_players_at_most_as_many_as_cards_called(
    players: int, called: int | None, friends: list[int], message: str
) -> None:
    error = refused(setup("standard", players, FRIEND, called=called), hand(0, 45, friends=friends))
    assert (str(error), error.hand, error.field) == (message, 1, "friends")


@pytest.mark.parametrize("teams", [PARTNERS, PAIRS])
def test_only_find_a_friend_hands_have_friends(teams: Teams) -> None:
    error = refused(setup("standard", 6, teams), hand(0, 45), hand(0, 45, friends=[1]))
    assert (str(error), error.hand, error.field) == (
        "hand 2: only find-a-friend hands have friends",
        2,
        "friends",
    )


# A fixed trump ---------------------------------------------------------------------------


def test_a_fixed_rotation_gives_hand_1_the_first_suit_hand_2_the_second_and_round_again() -> None:
    rotation = TrumpRule(suits=(S, H))
    game = replay(
        setup("standard", first=0, trumps=rotation),
        [hand(0, 45, trump=S), hand(2, 45, trump=H), hand(0, 45, trump=S)],
    )
    assert [played.trump for played in game.hands] == [S, H, S]


@pytest.mark.parametrize(
    ("trumps", "trump", "message"),
    [
        (TrumpRule(suits=(S, H)), S, "hand 2: this hand's trump is H, not S"),
        (TrumpRule(suits=(S, H)), None, "hand 2: this hand's trump is H, not none"),
        (TrumpRule(suits=(S,)), H, "hand 2: this hand's trump is S, not H"),
        (TrumpRule(no_trump=True), H, "hand 2: this hand's trump is none, not H"),
    ],
)
def test_a_hand_whose_trump_differs_from_the_fixed_one_is_refused(
    trumps: TrumpRule, trump: Suit | None, message: str
) -> None:
    game_setup = setup("standard", first=0, trumps=trumps)
    error = refused(game_setup, hand(0, 45, trump=trumps.fixed(1)), hand(2, 45, trump=trump))
    assert (str(error), error.hand, error.field) == (message, 2, "trump")


def test_nobody_bids_where_the_trump_is_fixed() -> None:
    game_setup = setup("standard", first=0, trumps=TrumpRule(suits=(S,)))
    error = refused(game_setup, hand(0, 45, trump=S, bid=Bid.PAIR))
    assert (str(error), error.hand, error.field) == (
        "hand 1: nobody bids where the trump is fixed",
        1,
        "bid",
    )


@pytest.mark.parametrize(
    ("bid", "trump", "message"),
    [
        (Bid.BIG_JOKERS, H, "hand 1: a bid of big jokers means no trump, not H"),
        (Bid.PAIR, None, "hand 1: a bid of a pair of level cards makes that card's suit trump: "
                         "name the suit"),
    ],
)  # fmt: skip
def test_a_bid_must_allow_the_hands_trump(bid: Bid, trump: Suit | None, message: str) -> None:
    error = refused(setup("standard"), hand(0, 45, trump=trump, bid=bid))
    assert (str(error), error.hand, error.field) == (message, 1, "trump")


@pytest.mark.parametrize(("bid", "trump"), [(Bid.BIG_JOKERS, None), (Bid.ONE, H), (Bid.NONE, None)])
def test_a_bid_that_allows_the_hands_trump_is_accepted(bid: Bid, trump: Suit | None) -> None:
    assert replay(setup("standard"), [hand(0, 45, trump=trump, bid=bid)]).hands[0].trump is trump


# The game's end ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "points"),
    [("standard", 4, 75), ("kawu", 6, 115), ("simplified", 8, 155), ("standard", 6, 0)],
)
def test_under_hold_at_ace_a_declaring_team_that_holds_at_A_wins(
    rules: str, players: int, points: int
) -> None:
    team = tuple(range(0, players, 2))
    game = replay(
        setup(rules, players, first=0, levels=dict.fromkeys(team, "A")), [hand(0, points)]
    )
    assert game.state.game_over
    assert game.state.winners == team
    assert (game.state.next_declarers, game.state.next_declarer) == ((), None)
    assert set(game.hands[0].levels_gained.values()) == {0}
    error = refused(game, hand(2, 45))
    assert (str(error), error.hand, error.field) == (
        f"hand 2: the game is over: {Table(NAMES[:players]).names(team)} won it",
        2,
        None,
    )


@pytest.mark.parametrize(
    ("rules", "lv", "points"),
    [
        pytest.param("standard", {0: "K", 2: "K"}, 0, id="declarers-reaching-A-play-on"),
        pytest.param("standard", {1: "A", 3: "A"}, 80, id="opponents-taking-over-at-A-play-on"),
        pytest.param("kawu", {1: "K", 3: "K"}, 200, id="opponents-climbing-to-A-play-on"),
        pytest.param("standard", {0: "A", 2: "A"}, 80, id="declarers-losing-at-A-play-on"),
    ],
)
def test_under_hold_at_ace_nothing_else_ends_the_game(
    rules: str, lv: dict[int, str], points: int
) -> None:
    game = replay(setup(rules, first=0, levels=lv), [hand(0, points)])
    assert not game.state.game_over
    assert "A" in levels(game)


def test_under_hold_at_ace_a_climb_cut_at_A_counts_the_levels_climbed() -> None:
    played = replay(setup("standard", levels={0: "K", 2: "K"}), [hand(0, 0)]).hands[0]
    assert (played.settlement.award, played.levels_gained) == (3, {0: 1, 2: 1})


def test_under_hold_at_ace_a_find_a_friend_side_wins_at_the_declarers_level() -> None:
    game_setup = setup("standard", 5, FRIEND, first=0, levels={0: "A", 3: "5"})
    game = replay(game_setup, [hand(0, 45, friends=[3])])
    assert game.state.winners == (0, 3)
    assert levels(game) == ["A", "2", "2", "6", "2"]


def test_under_hold_at_ace_a_friend_at_A_does_not_win_a_hand_played_below_A() -> None:
    game_setup = setup("standard", 5, FRIEND, first=0, levels={0: "K", 3: "A"})
    game = replay(game_setup, [hand(0, 45, friends=[3])])
    assert not game.state.game_over
    assert game.hands[0].levels_gained == {0: 1, 3: 0}
    assert levels(game) == ["A", "2", "2", "A", "2"]


@pytest.mark.parametrize(
    ("players", "points", "lv", "winners", "gained"),
    [
        pytest.param(6, 0, {0: "Q", 2: "Q", 4: "Q"}, (0, 2, 4), 3, id="declarers-pass-A"),
        pytest.param(8, 400, {1: "Q", 3: "Q", 5: "Q", 7: "Q"}, (1, 3, 5, 7), 3,
                     id="opponents-pass-A"),
    ],
)  # fmt: skip
def test_under_past_ace_a_team_whose_climb_passes_A_wins(
    players: int, points: int, lv: dict[int, str], winners: tuple, gained: int
) -> None:
    game = replay(setup("open-ladder", players, first=0, levels=lv), [hand(0, points)])
    assert game.state.winners == winners
    assert set(game.hands[0].levels_gained.values()) == {gained}
    assert {levels(game)[seat] for seat in winners} == {"A"}


def test_under_past_ace_only_the_players_whose_climb_passes_A_win() -> None:
    game_setup = setup("open-ladder", 5, FRIEND, first=0, levels={0: "Q", 3: "5"})
    game = replay(game_setup, [hand(0, 0, friends=[3])])
    assert game.state.winners == (0,)
    assert game.hands[0].levels_gained == {0: 3, 3: 3}
    assert levels(game) == ["A", "2", "2", "8", "2"]


def test_under_past_ace_opponents_who_pass_A_win_and_those_who_reach_it_do_not() -> None:
    game_setup = setup("open-ladder", 5, FRIEND, first=0, levels={2: "K", 3: "Q", 4: "3"})
    game = replay(game_setup, [hand(0, 160, friends=[1])])  # 160–195: take over and +2
    assert game.state.winners == (2,)
    assert game.hands[0].levels_gained == {2: 2, 3: 2, 4: 2}
    assert levels(game) == ["2", "2", "A", "A", "5"]


def test_under_past_ace_reaching_A_plays_on() -> None:
    game = replay(setup("open-ladder", first=0, levels={0: "J", 2: "J"}), [hand(0, 0)])
    assert not game.state.game_over
    assert game.state.next_declarers == (2,)


# Errors name the hand and the field --------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "result", "message", "field"),
    [
        pytest.param(4, HandResult(9, 45, 0, HOLD), "hand 2: no seat 9 at this table", "declarer",
                     id="no-such-declarer"),
        pytest.param(4, HandResult(0, 203, 0, HOLD),
                     "hand 2: opponent_points must be a multiple of 5 from 0 to 200, got 203",
                     "opponent_points", id="points"),
        pytest.param(6, HandResult(0, 0, 65, HOLD),
                     "hand 2: kitty_points must be a multiple of 5 from 0 to 60, got 65",
                     "kitty_points", id="kitty-of-6-cards"),
        pytest.param(6, HandResult(0, 250, 55, HOLD),
                     "hand 2: opponent_points 250 + kitty_points 55 = 305, "
                     "but 3 decks hold only 300 points",
                     "opponent_points", id="three-decks-points"),
        pytest.param(8, HandResult(0, 0, 0, LastTrick(OPP, Format.TRACTOR, 28)),
                     "hand 2: a last trick of 28 cards per player is more than a hand of 26 holds",
                     "last_trick", id="last-trick-longer-than-a-hand"),
    ],
)  # fmt: skip
def test_a_hand_that_cannot_be_played_names_its_number_and_field(
    players: int, result: HandResult, message: str, field: str
) -> None:
    error = refused(setup("standard", players), hand(0, 45), result)
    assert (str(error), error.hand, error.field) == (message, 2, field)


def test_a_hand_by_a_player_who_may_not_start_it_names_who_may() -> None:
    error = refused(setup("standard", 6), hand(0, 45), hand(1, 45))
    assert (str(error), error.hand, error.field) == (
        "hand 2: Jun cannot start this hand: Mei, Lin or Wei may start it",
        2,
        "declarer",
    )


@pytest.mark.parametrize(
    ("teams", "levels_given", "first", "message"),
    [
        (
            PARTNERS,
            ("2", "2", "3", "2"),
            None,
            "levels: Mei and Lin are a team and share one level",
        ),
        (PARTNERS, ("2", "2", "2"), None, "levels: 4 players need 4 levels"),
        (FRIEND, ("2", "2", "3", "2"), 4, "first_declarer: no seat 4 at this table"),
    ],
)
def test_a_game_that_cannot_start_says_why(
    teams: Teams, levels_given: tuple[str, ...], first: int | None, message: str
) -> None:
    table = Table(NAMES[:4], teams=teams)
    with pytest.raises(GameError) as error:
        GameSetup(get_rules("standard"), table, tuple(map(Rank.parse, levels_given)), first)
    assert f"{error.value.field}: {error.value}" == message
    assert error.value.hand is None


def test_in_find_a_friend_every_player_starts_at_their_own_level() -> None:
    game_setup = setup("standard", 4, FRIEND, levels={0: "2", 1: "9", 2: "3", 3: "A"})
    assert [str(level) for level in game_setup.levels] == ["2", "9", "3", "A"]


# A game played on from where it stands -------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS)
def test_a_game_played_on_settles_its_next_hands_as_the_whole_replay_does(rules: str) -> None:
    whole = Game(setup(rules))
    for points in (45, 120, 0, 80, 45, 60):
        state = whole.state
        starter = state.next_declarers[0] if state.next_declarer is None else state.next_declarer
        whole = whole.play(hand(starter, points))
    hands = [played.result for played in whole.hands]
    for cut in range(len(hands) + 1):
        assert replay(whole.setup, hands[:cut]).then(hands[cut:]) == whole


def test_a_hand_played_on_that_cannot_be_played_names_its_number_in_the_game() -> None:
    with pytest.raises(GameError) as error:
        replay(setup(), [hand(0, 45), hand(2, 45)]).then([hand(2, 45), hand(1, 45)])
    assert (str(error.value), error.value.hand) == (
        "hand 4: Jun cannot start this hand: Mei or Lin may start it",
        4,
    )
