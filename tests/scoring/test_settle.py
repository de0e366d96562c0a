"""Settling a hand under each preset: every table row and band boundary, the kitty bonus, the
level cap at A, each preset's game end, the explanation, and the inputs that cannot be settled."""

from __future__ import annotations

import pytest

from scoring import (
    PRESETS,
    Format,
    LastTrick,
    Rank,
    ScoringError,
    SettleError,
    Side,
    get_rules,
    rules_from_json,
    settle,
)
from scoring.settle import Levels, Settlement

DEC, OPP = Side.DECLARERS, Side.OPPONENTS
DECLARERS_TAKE_THE_LAST_SINGLE = LastTrick(DEC, Format.SINGLE, 1)
OPPONENTS_TAKE_THE_LAST_SINGLE = LastTrick(OPP, Format.SINGLE, 1)


def levels(declarers: str, opponents: str) -> Levels:
    return Levels(declarers=Rank.parse(declarers), opponents=Rank.parse(opponents))


def settle_total(
    preset: str, total: int, declarers: str = "5", opponents: str = "3", decks: int = 2
) -> Settlement:
    """Settle a hand whose opponents' total is ``total``: from tricks alone up to the decks'
    points (200 with two), with a doubled kitty (a last single the opponents won) above."""
    deck_points = 100 * decks
    if total <= deck_points:
        points, kitty, last = total, 0, DECLARERS_TAKE_THE_LAST_SINGLE
    else:
        kitty = total - deck_points
        points, last = total - 2 * kitty, OPPONENTS_TAKE_THE_LAST_SINGLE
    result = settle(
        get_rules(preset), levels(declarers, opponents), points, kitty, last, decks=decks
    )
    assert result.opponent_total == total
    return result


def outcome(result: Settlement) -> tuple[str, int, str, str]:
    return (
        result.winner.value,
        result.levels_gained,
        str(result.levels.declarers),
        str(result.levels.opponents),
    )


# Declarers at 5, opponents at 3: (winner, levels gained, declarers' level, opponents' level).
STANDARD_ROWS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (35, ("declarers", 2, "7", "3")),
    (40, ("declarers", 1, "6", "3")),
    (75, ("declarers", 1, "6", "3")),
    (80, ("opponents", 0, "5", "3")),
    (115, ("opponents", 0, "5", "3")),
    (120, ("opponents", 0, "5", "3")),
    (200, ("opponents", 0, "5", "3")),
    (280, ("opponents", 0, "5", "3")),
]
OPEN_LADDER_ROWS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (35, ("declarers", 2, "7", "3")),
    (40, ("declarers", 1, "6", "3")),
    (75, ("declarers", 1, "6", "3")),
    (80, ("opponents", 0, "5", "3")),
    (115, ("opponents", 0, "5", "3")),
    (120, ("opponents", 1, "5", "4")),
    (155, ("opponents", 1, "5", "4")),
    (160, ("opponents", 2, "5", "5")),
    (195, ("opponents", 2, "5", "5")),
    (200, ("opponents", 3, "5", "6")),
    (235, ("opponents", 3, "5", "6")),
    (240, ("opponents", 4, "5", "7")),
    (275, ("opponents", 4, "5", "7")),
    (280, ("opponents", 5, "5", "8")),
]
KAWU_ROWS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (35, ("declarers", 2, "7", "3")),
    (40, ("declarers", 1, "6", "3")),
    (75, ("declarers", 1, "6", "3")),
    (80, ("opponents", 0, "5", "3")),
    (115, ("opponents", 0, "5", "3")),
    (120, ("opponents", 1, "5", "4")),
    (155, ("opponents", 1, "5", "4")),
    (160, ("opponents", 2, "5", "5")),
    (195, ("opponents", 2, "5", "5")),
    (200, ("opponents", 3, "5", "6")),
    (235, ("opponents", 3, "5", "6")),
    (240, ("opponents", 4, "5", "7")),
    (280, ("opponents", 5, "5", "8")),
]
SIMPLIFIED_ROWS = [
    (0, ("declarers", 1, "6", "3")),
    (5, ("declarers", 1, "6", "3")),
    (35, ("declarers", 1, "6", "3")),
    (40, ("declarers", 1, "6", "3")),
    (75, ("declarers", 1, "6", "3")),
    (80, ("opponents", 1, "5", "4")),
    (115, ("opponents", 1, "5", "4")),
    (200, ("opponents", 1, "5", "4")),
    (280, ("opponents", 1, "5", "4")),
]


@pytest.mark.parametrize(
    ("total", "expected"), STANDARD_ROWS, ids=[str(t) for t, _ in STANDARD_ROWS]
)
def test_standard_declarers_climb_three_two_one_below_80_and_lose_the_deal_from_80(
    total: int, expected: tuple
) -> None:
    assert outcome(settle_total("standard", total)) == expected


@pytest.mark.parametrize(
    ("total", "expected"), OPEN_LADDER_ROWS, ids=[str(t) for t, _ in OPEN_LADDER_ROWS]
)
def test_open_ladder_opponents_climb_from_120_and_one_more_every_40_from_200(
    total: int, expected: tuple
) -> None:
    assert outcome(settle_total("open-ladder", total)) == expected


@pytest.mark.parametrize(("total", "expected"), KAWU_ROWS, ids=[str(t) for t, _ in KAWU_ROWS])
def test_kawu_opponents_climb_from_120_and_one_more_every_40_from_160(
    total: int, expected: tuple
) -> None:
    assert outcome(settle_total("kawu", total)) == expected


@pytest.mark.parametrize(
    ("total", "expected"), SIMPLIFIED_ROWS, ids=[str(t) for t, _ in SIMPLIFIED_ROWS]
)
def test_simplified_the_side_that_wins_climbs_exactly_one(total: int, expected: tuple) -> None:
    assert outcome(settle_total("simplified", total)) == expected


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("total", [0, 40, 75, 80, 120, 240])
def test_next_declarers_are_always_the_hands_winner(preset: str, total: int) -> None:
    result = settle_total(preset, total)
    assert result.next_declarers is result.winner


KITTY_RULES = [
    # preset, last trick format, cards per player, multiplier
    ("standard", Format.SINGLE, 1, 2),
    ("standard", Format.PAIR, 2, 2),
    ("standard", Format.TRACTOR, 4, 2),
    ("standard", Format.TRACTOR, 6, 2),
    ("simplified", Format.SINGLE, 1, 2),
    ("simplified", Format.PAIR, 2, 2),
    ("simplified", Format.TRACTOR, 4, 2),
    ("simplified", Format.TRACTOR, 6, 2),
    ("open-ladder", Format.SINGLE, 1, 2),
    ("open-ladder", Format.PAIR, 2, 4),
    ("open-ladder", Format.TRACTOR, 4, 8),
    ("open-ladder", Format.TRACTOR, 6, 12),
    ("open-ladder", Format.THROW, 5, 10),
    ("kawu", Format.SINGLE, 1, 2),
    ("kawu", Format.PAIR, 2, 4),
    ("kawu", Format.TRACTOR, 4, 8),
    ("kawu", Format.TRACTOR, 6, 16),
]


@pytest.mark.parametrize(("preset", "fmt", "cards", "multiplier"), KITTY_RULES)
def test_the_opponents_taking_the_last_trick_add_the_kitty_times_the_multiplier(
    preset: str, fmt: Format, cards: int, multiplier: int
) -> None:
    result = settle(get_rules(preset), levels("5", "3"), 20, 10, LastTrick(OPP, fmt, cards))
    assert (result.kitty_multiplier, result.kitty_bonus, result.opponent_total) == (
        multiplier,
        10 * multiplier,
        20 + 10 * multiplier,
    )


@pytest.mark.parametrize(("preset", "fmt", "cards", "multiplier"), KITTY_RULES)
def test_the_declarers_taking_the_last_trick_report_the_multiplier_but_add_no_bonus(
    preset: str, fmt: Format, cards: int, multiplier: int
) -> None:
    result = settle(get_rules(preset), levels("5", "3"), 20, 10, LastTrick(DEC, fmt, cards))
    assert (result.kitty_multiplier, result.kitty_bonus, result.opponent_total) == (
        multiplier,
        0,
        20,
    )


def test_the_kawu_example_of_engine_json() -> None:
    result = settle(get_rules("kawu"), levels("5", "3"), 65, 20, LastTrick(OPP, Format.PAIR, 2))
    assert result.kitty_multiplier == 4
    assert result.kitty_bonus == 80
    assert result.opponent_total == 145
    assert result.band.label == "120–155"
    assert outcome(result) == ("opponents", 1, "5", "4")
    assert result.next_declarers is OPP
    assert (result.game_over, result.game_winner) == (False, None)
    assert result.explanation == (
        "Opponents 65 + kitty 20 × 4 = 145 points. "
        "In the 120–155 band, the opponents take the deal and climb 1 level."
    )


@pytest.mark.parametrize(
    ("preset", "lv", "points", "kitty", "last", "explanation"),
    [
        (
            "standard",
            ("5", "3"),
            0,
            0,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            "Opponents 0 points. In the 0 band, the declarers climb 3 levels.",
        ),
        (
            "standard",
            ("5", "3"),
            65,
            20,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            "Opponents 65 points (the declarers took the last trick and the kitty). "
            "In the 40–75 band, the declarers climb 1 level.",
        ),
        (
            "standard",
            ("5", "3"),
            50,
            15,
            OPPONENTS_TAKE_THE_LAST_SINGLE,
            "Opponents 50 + kitty 15 × 2 = 80 points. "
            "In the 80+ band, the opponents take the deal.",
        ),
        (
            "open-ladder",
            ("5", "3"),
            100,
            20,
            LastTrick(OPP, Format.THROW, 5),
            "Opponents 100 + kitty 20 × 10 = 300 points. "
            "In the 200+ band, the opponents take the deal and climb 5 levels.",
        ),
        (
            "kawu",
            ("K", "3"),
            0,
            0,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            "Opponents 0 points. In the 0 band, the declarers climb 1 level, stopping at A.",
        ),
        (
            "kawu",
            ("5", "K"),
            160,
            0,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            "Opponents 160 points. "
            "In the 160+ band, the opponents take the deal and climb 1 level, stopping at A.",
        ),
        (
            "standard",
            ("A", "3"),
            40,
            0,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            "Opponents 40 points. In the 40–75 band, the declarers hold at A and win the game.",
        ),
        (
            "open-ladder",
            ("5", "Q"),
            160,
            40,
            OPPONENTS_TAKE_THE_LAST_SINGLE,
            "Opponents 160 + kitty 40 × 2 = 240 points. In the 200+ band, the opponents take "
            "the deal and climb 4 levels, passing A: they win the game.",
        ),
        (
            "simplified",
            ("5", "3"),
            0,
            0,
            OPPONENTS_TAKE_THE_LAST_SINGLE,
            "Opponents 0 + kitty 0 × 2 = 0 points. In the 0–75 band, the declarers climb 1 level.",
        ),
    ],
)
def test_the_explanation_shows_the_sum_the_band_and_the_outcome(
    preset: str, lv: tuple, points: int, kitty: int, last: LastTrick, explanation: str
) -> None:
    assert settle(get_rules(preset), levels(*lv), points, kitty, last).explanation == explanation


def test_a_declarers_band_without_levels_says_the_declarers_keep_the_deal() -> None:
    rules = rules_from_json(
        {
            "bands": [
                {"from": 0, "to": 35, "winner": "declarers", "levels": 1},
                {"from": 40, "to": 75, "winner": "declarers", "levels": 0},
                {"from": 80, "to": None, "winner": "opponents", "levels": 0},
            ]
        }
    )
    result = settle(rules, levels("5", "3"), 60, 0, DECLARERS_TAKE_THE_LAST_SINGLE)
    assert outcome(result) == ("declarers", 0, "5", "3")
    assert result.next_declarers is DEC
    assert result.explanation == (
        "Opponents 60 points. In the 40–75 band, the declarers keep the deal."
    )


# The level cap at A and each preset's game end. Under hold-at-ace levels_gained is what the
# winner actually climbed (cut at A); under past-ace the whole award.
# preset, (declarers, opponents) before, opponents' total,
# (winner, levels gained, declarers after, opponents after), game over, game winner
GAME_ENDS = [
    pytest.param("standard", ("Q", "3"), 0, ("declarers", 2, "A", "3"), False, None,
                 id="standard-declarers-stop-at-A"),
    pytest.param("standard", ("K", "3"), 40, ("declarers", 1, "A", "3"), False, None,
                 id="standard-reaching-A-is-not-winning"),
    pytest.param("standard", ("A", "3"), 0, ("declarers", 0, "A", "3"), True, "declarers",
                 id="standard-declarers-holding-at-A-win"),
    pytest.param("standard", ("A", "3"), 75, ("declarers", 0, "A", "3"), True, "declarers",
                 id="standard-declarers-holding-at-A-by-75-win"),
    pytest.param("standard", ("A", "3"), 80, ("opponents", 0, "A", "3"), False, None,
                 id="standard-declarers-losing-at-A-do-not-win"),
    pytest.param("standard", ("5", "A"), 200, ("opponents", 0, "5", "A"), False, None,
                 id="standard-opponents-taking-over-at-A-do-not-win"),
    pytest.param("kawu", ("J", "3"), 0, ("declarers", 3, "A", "3"), False, None,
                 id="kawu-declarers-stop-at-A"),
    pytest.param("kawu", ("A", "3"), 40, ("declarers", 0, "A", "3"), True, "declarers",
                 id="kawu-declarers-holding-at-A-win"),
    pytest.param("kawu", ("5", "Q"), 200, ("opponents", 2, "5", "A"), False, None,
                 id="kawu-opponents-stop-at-A"),
    pytest.param("kawu", ("5", "A"), 240, ("opponents", 0, "5", "A"), False, None,
                 id="kawu-opponents-taking-over-at-A-do-not-win"),
    pytest.param("kawu", ("A", "K"), 120, ("opponents", 1, "A", "A"), False, None,
                 id="kawu-declarers-losing-at-A-do-not-win"),
    pytest.param("simplified", ("K", "3"), 0, ("declarers", 1, "A", "3"), False, None,
                 id="simplified-reaching-A-is-not-winning"),
    pytest.param("simplified", ("A", "3"), 75, ("declarers", 0, "A", "3"), True, "declarers",
                 id="simplified-declarers-holding-at-A-win"),
    pytest.param("simplified", ("5", "A"), 80, ("opponents", 0, "5", "A"), False, None,
                 id="simplified-opponents-taking-over-at-A-do-not-win"),
    pytest.param("open-ladder", ("J", "3"), 0, ("declarers", 3, "A", "3"), False, None,
                 id="open-ladder-declarers-reaching-A-play-on"),
    pytest.param("open-ladder", ("Q", "3"), 0, ("declarers", 3, "A", "3"), True, "declarers",
                 id="open-ladder-declarers-climbing-past-A-win"),
    pytest.param("open-ladder", ("A", "3"), 75, ("declarers", 1, "A", "3"), True, "declarers",
                 id="open-ladder-declarers-climbing-from-A-win"),
    pytest.param("open-ladder", ("A", "3"), 80, ("opponents", 0, "A", "3"), False, None,
                 id="open-ladder-declarers-losing-at-A-do-not-win"),
    pytest.param("open-ladder", ("5", "A"), 115, ("opponents", 0, "5", "A"), False, None,
                 id="open-ladder-opponents-taking-over-at-A-without-climbing-play-on"),
    pytest.param("open-ladder", ("5", "A"), 120, ("opponents", 1, "5", "A"), True, "opponents",
                 id="open-ladder-opponents-climbing-past-A-win"),
    pytest.param("open-ladder", ("5", "K"), 160, ("opponents", 2, "5", "A"), True, "opponents",
                 id="open-ladder-opponents-climbing-two-past-K-win"),
    pytest.param("open-ladder", ("5", "K"), 120, ("opponents", 1, "5", "A"), False, None,
                 id="open-ladder-opponents-reaching-A-play-on"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "lv", "total", "expected", "over", "game_winner"), GAME_ENDS)
def test_levels_stop_at_A_and_each_preset_ends_the_game_its_way(
    preset: str, lv: tuple, total: int, expected: tuple, over: bool, game_winner: str | None
) -> None:
    result = settle_total(preset, total, *lv)
    assert outcome(result) == expected
    assert result.game_over is over
    assert (result.game_winner.value if result.game_winner else None) == game_winner


def test_open_ladder_never_says_stopping_at_A_because_passing_A_wins() -> None:
    result = settle_total("open-ladder", 0, "Q", "3")
    assert (
        result.explanation == "Opponents 0 points. "
        "In the 0 band, the declarers climb 3 levels and pass A: they win the game."
    )


@pytest.mark.parametrize(("points", "kitty"), [(200, 0), (120, 80), (0, 80), (0, 0), (195, 5)])
def test_points_up_to_the_decks_200_are_accepted(points: int, kitty: int) -> None:
    result = settle(
        get_rules("standard"), levels("5", "3"), points, kitty, DECLARERS_TAKE_THE_LAST_SINGLE
    )
    assert result.opponent_total == points


BAD_POINTS = [
    pytest.param(203, 0, "opponent_points must be a multiple of 5 from 0 to 200, got 203",
                 id="points-not-a-multiple-of-5"),
    pytest.param(205, 0, "opponent_points must be a multiple of 5 from 0 to 200, got 205",
                 id="points-over-200"),
    pytest.param(-5, 0, "opponent_points must be a multiple of 5 from 0 to 200, got -5",
                 id="negative-points"),
    pytest.param(65.0, 0, "opponent_points must be a multiple of 5 from 0 to 200, got 65.0",
                 id="points-not-whole"),
    pytest.param("65", 0, "opponent_points must be a multiple of 5 from 0 to 200, got '65'",
                 id="points-a-string"),
    pytest.param(True, 0, "opponent_points must be a multiple of 5 from 0 to 200, got True",
                 id="points-a-boolean"),
    pytest.param(0, 85, "kitty_points must be a multiple of 5 from 0 to 80, got 85",
                 id="kitty-over-80"),
    pytest.param(0, 12, "kitty_points must be a multiple of 5 from 0 to 80, got 12",
                 id="kitty-not-a-multiple-of-5"),
    pytest.param(0, None, "kitty_points must be a multiple of 5 from 0 to 80, got None",
                 id="kitty-missing"),
    pytest.param(150, 60,
                 "opponent_points 150 + kitty_points 60 = 210, but 2 decks hold only 200 points",
                 id="points-and-kitty-over-200"),
    pytest.param(200, 5,
                 "opponent_points 200 + kitty_points 5 = 205, but 2 decks hold only 200 points",
                 id="all-points-and-a-kitty"),
]  # fmt: skip


@pytest.mark.parametrize(("points", "kitty", "message"), BAD_POINTS)
def test_points_the_deck_cannot_hold_are_refused(
    points: object, kitty: object, message: str
) -> None:
    with pytest.raises(SettleError) as error:
        settle(
            get_rules("standard"), levels("5", "3"), points, kitty, DECLARERS_TAKE_THE_LAST_SINGLE
        )
    assert str(error.value) == message


BAD_LAST_TRICKS = [
    pytest.param("standard", Format.THROW, 5,
                 "the standard rules allow no throws, so the last trick was no throw",
                 id="standard-throw"),
    pytest.param("kawu", Format.THROW, 2,
                 "the kawu rules allow no throws, so the last trick was no throw",
                 id="kawu-throw"),
    pytest.param("simplified", Format.THROW, 3,
                 "the simplified rules allow no throws, so the last trick was no throw",
                 id="simplified-throw"),
    pytest.param("standard", Format.SINGLE, 2, "a single last trick has 1 card per player, got 2",
                 id="single-of-2"),
    pytest.param("standard", Format.PAIR, 1, "a pair last trick has 2 cards per player, got 1",
                 id="pair-of-1"),
    pytest.param("standard", Format.PAIR, 4, "a pair last trick has 2 cards per player, got 4",
                 id="pair-of-4"),
    pytest.param("kawu", Format.TRACTOR, 2,
                 "a tractor last trick has an even number of cards from 4 to 32 per player, got 2",
                 id="tractor-of-one-pair"),
    pytest.param("kawu", Format.TRACTOR, 5,
                 "a tractor last trick has an even number of cards from 4 to 32 per player, got 5",
                 id="tractor-of-odd-cards"),
    pytest.param("kawu", Format.TRACTOR, 26,
                 "a last trick of 26 cards per player is more than a hand of 25 holds",
                 id="tractor-longer-than-a-hand"),
    pytest.param("open-ladder", Format.THROW, 1,
                 "a throw last trick has at least 2 cards per player, got 1",
                 id="throw-of-1"),
    pytest.param("open-ladder", Format.THROW, 26,
                 "a last trick of 26 cards per player is more than a hand of 25 holds",
                 id="throw-longer-than-a-hand"),
    pytest.param("open-ladder", Format.TRACTOR, "4",
                 "last_trick.cards must be a whole number, got '4'",
                 id="cards-a-string"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "fmt", "cards", "message"), BAD_LAST_TRICKS)
def test_a_last_trick_the_rules_or_its_format_rule_out_is_refused(
    preset: str, fmt: Format, cards: object, message: str
) -> None:
    with pytest.raises(SettleError) as error:
        settle(get_rules(preset), levels("5", "3"), 20, 10, LastTrick(OPP, fmt, cards))
    assert str(error.value) == message


@pytest.mark.parametrize(("preset", "cards"), [("open-ladder", 25), ("open-ladder", 2)])
def test_a_throw_of_2_to_25_cards_is_a_last_trick_under_open_ladder(
    preset: str, cards: int
) -> None:
    result = settle(
        get_rules(preset), levels("5", "3"), 20, 10, LastTrick(OPP, Format.THROW, cards)
    )
    assert result.kitty_multiplier == 2 * cards


@pytest.mark.parametrize(("fmt", "cards"), [(Format.SINGLE, 1), (Format.PAIR, 2)])
def test_a_single_or_pair_last_trick_knows_its_cards(fmt: Format, cards: int) -> None:
    assert LastTrick.of(OPP, fmt) == LastTrick(OPP, fmt, cards)


@pytest.mark.parametrize("fmt", [Format.TRACTOR, Format.THROW])
def test_a_tractor_or_throw_last_trick_needs_its_cards(fmt: Format) -> None:
    with pytest.raises(SettleError) as error:
        LastTrick.of(OPP, fmt)
    assert str(error.value) == f"a {fmt} last trick needs its number of cards per player"


def test_a_settle_error_is_a_value_error() -> None:
    assert issubclass(SettleError, ScoringError)
    assert issubclass(SettleError, ValueError)


# What the table awards and what the winner climbs (docs/rules.md, "Level advancement"): under
# hold-at-ace declarers at K who hold the opponents to 0 are awarded +3 and climb 1; under
# past-ace the whole award counts.
# preset, (declarers, opponents) before, opponents' total, award, levels gained, winner after
AWARDS = [
    pytest.param("standard", ("K", "3"), 0, 3, 1, "A", id="standard-K-awarded-3-climbs-1"),
    pytest.param("standard", ("Q", "3"), 0, 3, 2, "A", id="standard-Q-awarded-3-climbs-2"),
    pytest.param("standard", ("J", "3"), 0, 3, 3, "A", id="standard-J-awarded-3-climbs-3"),
    pytest.param("standard", ("A", "3"), 5, 2, 0, "A", id="standard-A-awarded-2-climbs-0"),
    pytest.param("kawu", ("K", "3"), 0, 3, 1, "A", id="kawu-K-awarded-3-climbs-1"),
    pytest.param("kawu", ("5", "K"), 200, 3, 1, "A", id="kawu-opponents-at-K-awarded-3-climb-1"),
    pytest.param("kawu", ("5", "Q"), 160, 2, 2, "A", id="kawu-opponents-at-Q-awarded-2-climb-2"),
    pytest.param("simplified", ("K", "3"), 0, 1, 1, "A", id="simplified-K-climbs-1"),
    pytest.param("simplified", ("A", "3"), 0, 1, 0, "A", id="simplified-A-climbs-0"),
    pytest.param("simplified", ("5", "A"), 80, 1, 0, "A", id="simplified-opponents-at-A-climb-0"),
    pytest.param("open-ladder", ("Q", "3"), 0, 3, 3, "A", id="open-ladder-Q-gains-the-award-3"),
    pytest.param("open-ladder", ("K", "3"), 0, 3, 3, "A", id="open-ladder-K-gains-the-award-3"),
    pytest.param("open-ladder", ("5", "K"), 240, 4, 4, "A",
                 id="open-ladder-opponents-at-K-gain-the-award-4"),
    pytest.param("open-ladder", ("5", "3"), 240, 4, 4, "7", id="open-ladder-below-A-gains-4"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "lv", "total", "award", "gained", "after"), AWARDS)
def test_levels_gained_is_the_climb_cut_at_A_under_hold_at_ace_and_the_award_past_ace(
    preset: str, lv: tuple, total: int, award: int, gained: int, after: str
) -> None:
    result = settle_total(preset, total, *lv)
    assert (result.award, result.levels_gained, str(result.levels.of(result.winner))) == (
        award,
        gained,
        after,
    )


# docs/rules.md, "Points scale with the decks": each band's start but 0 and 5, and each `every`,
# multiplied by decks / 2, rounded down to a multiple of 5. Declarers at 5, opponents at 3.
STANDARD_3_DECKS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (55, ("declarers", 2, "7", "3")),
    (60, ("declarers", 1, "6", "3")),
    (115, ("declarers", 1, "6", "3")),
    (120, ("opponents", 0, "5", "3")),
    (300, ("opponents", 0, "5", "3")),
    (360, ("opponents", 0, "5", "3")),
]
STANDARD_4_DECKS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (75, ("declarers", 2, "7", "3")),
    (80, ("declarers", 1, "6", "3")),
    (155, ("declarers", 1, "6", "3")),
    (160, ("opponents", 0, "5", "3")),
    (400, ("opponents", 0, "5", "3")),
    (480, ("opponents", 0, "5", "3")),
]
OPEN_LADDER_3_DECKS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (55, ("declarers", 2, "7", "3")),
    (60, ("declarers", 1, "6", "3")),
    (115, ("declarers", 1, "6", "3")),
    (120, ("opponents", 0, "5", "3")),
    (175, ("opponents", 0, "5", "3")),
    (180, ("opponents", 1, "5", "4")),
    (235, ("opponents", 1, "5", "4")),
    (240, ("opponents", 2, "5", "5")),
    (295, ("opponents", 2, "5", "5")),
    (300, ("opponents", 3, "5", "6")),
    (355, ("opponents", 3, "5", "6")),
    (360, ("opponents", 4, "5", "7")),
]
OPEN_LADDER_4_DECKS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (75, ("declarers", 2, "7", "3")),
    (80, ("declarers", 1, "6", "3")),
    (155, ("declarers", 1, "6", "3")),
    (160, ("opponents", 0, "5", "3")),
    (235, ("opponents", 0, "5", "3")),
    (240, ("opponents", 1, "5", "4")),
    (315, ("opponents", 1, "5", "4")),
    (320, ("opponents", 2, "5", "5")),
    (395, ("opponents", 2, "5", "5")),
    (400, ("opponents", 3, "5", "6")),
    (475, ("opponents", 3, "5", "6")),
    (480, ("opponents", 4, "5", "7")),
]
KAWU_3_DECKS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (55, ("declarers", 2, "7", "3")),
    (60, ("declarers", 1, "6", "3")),
    (115, ("declarers", 1, "6", "3")),
    (120, ("opponents", 0, "5", "3")),
    (175, ("opponents", 0, "5", "3")),
    (180, ("opponents", 1, "5", "4")),
    (235, ("opponents", 1, "5", "4")),
    (240, ("opponents", 2, "5", "5")),
    (295, ("opponents", 2, "5", "5")),
    (300, ("opponents", 3, "5", "6")),
    (360, ("opponents", 4, "5", "7")),
]
KAWU_4_DECKS = [
    (0, ("declarers", 3, "8", "3")),
    (5, ("declarers", 2, "7", "3")),
    (75, ("declarers", 2, "7", "3")),
    (80, ("declarers", 1, "6", "3")),
    (155, ("declarers", 1, "6", "3")),
    (160, ("opponents", 0, "5", "3")),
    (235, ("opponents", 0, "5", "3")),
    (240, ("opponents", 1, "5", "4")),
    (315, ("opponents", 1, "5", "4")),
    (320, ("opponents", 2, "5", "5")),
    (395, ("opponents", 2, "5", "5")),
    (400, ("opponents", 3, "5", "6")),
    (480, ("opponents", 4, "5", "7")),
]
SIMPLIFIED_3_DECKS = [
    (0, ("declarers", 1, "6", "3")),
    (115, ("declarers", 1, "6", "3")),
    (120, ("opponents", 1, "5", "4")),
    (360, ("opponents", 1, "5", "4")),
]
SIMPLIFIED_4_DECKS = [
    (0, ("declarers", 1, "6", "3")),
    (155, ("declarers", 1, "6", "3")),
    (160, ("opponents", 1, "5", "4")),
    (480, ("opponents", 1, "5", "4")),
]
SCALED_ROWS = [
    pytest.param(preset, decks, total, expected, id=f"{preset}-{decks}-decks-{total}")
    for preset, decks, rows in [
        ("standard", 3, STANDARD_3_DECKS),
        ("standard", 4, STANDARD_4_DECKS),
        ("open-ladder", 3, OPEN_LADDER_3_DECKS),
        ("open-ladder", 4, OPEN_LADDER_4_DECKS),
        ("kawu", 3, KAWU_3_DECKS),
        ("kawu", 4, KAWU_4_DECKS),
        ("simplified", 3, SIMPLIFIED_3_DECKS),
        ("simplified", 4, SIMPLIFIED_4_DECKS),
    ]
    for total, expected in rows
]


@pytest.mark.parametrize(("preset", "decks", "total", "expected"), SCALED_ROWS)
def test_with_more_decks_each_band_start_but_0_and_5_scales_with_the_decks(
    preset: str, decks: int, total: int, expected: tuple
) -> None:
    result = settle_total(preset, total, decks=decks)
    assert outcome(result) == expected
    assert result.decks == decks


@pytest.mark.parametrize(
    ("preset", "decks", "points", "explanation"),
    [
        ("standard", 3, 55, "Opponents 55 points. In the 5–55 band, the declarers climb 2 levels."),
        (
            "standard",
            3,
            60,
            "Opponents 60 points. In the 60–115 band, the declarers climb 1 level.",
        ),
        (
            "standard",
            3,
            120,
            "Opponents 120 points. In the 120+ band, the opponents take the deal.",
        ),
        (
            "standard",
            4,
            155,
            "Opponents 155 points. In the 80–155 band, the declarers climb 1 level.",
        ),
        (
            "open-ladder",
            3,
            175,
            "Opponents 175 points. In the 120–175 band, the opponents take the deal.",
        ),
        (
            "open-ladder",
            3,
            180,
            "Opponents 180 points. "
            "In the 180–235 band, the opponents take the deal and climb 1 level.",
        ),
        (
            "open-ladder",
            3,
            300,
            "Opponents 300 points. "
            "In the 300+ band, the opponents take the deal and climb 3 levels.",
        ),
        (
            "open-ladder",
            4,
            240,
            "Opponents 240 points. "
            "In the 240–315 band, the opponents take the deal and climb 1 level.",
        ),
        (
            "kawu",
            3,
            240,
            "Opponents 240 points. "
            "In the 240+ band, the opponents take the deal and climb 2 levels.",
        ),
        (
            "simplified",
            4,
            155,
            "Opponents 155 points. In the 0–155 band, the declarers climb 1 level.",
        ),
    ],
)
def test_the_explanation_names_the_scaled_band(
    preset: str, decks: int, points: int, explanation: str
) -> None:
    result = settle(
        get_rules(preset),
        levels("5", "3"),
        points,
        0,
        DECLARERS_TAKE_THE_LAST_SINGLE,
        decks=decks,
    )
    assert result.explanation == explanation


@pytest.mark.parametrize(
    ("decks", "kitty_cards", "most"),
    [
        pytest.param(2, None, 80, id="2-decks-default-8-cards"),
        pytest.param(3, None, 60, id="3-decks-default-6-cards"),
        pytest.param(4, None, 80, id="4-decks-default-8-cards"),
        pytest.param(2, 5, 50, id="2-decks-5-cards"),
        pytest.param(2, 12, 120, id="2-decks-12-cards"),
        pytest.param(3, 8, 80, id="3-decks-8-cards"),
        pytest.param(4, 12, 120, id="4-decks-12-cards"),
    ],
)
def test_the_kitty_holds_at_most_10_points_a_card(
    decks: int, kitty_cards: int | None, most: int
) -> None:
    def with_kitty(kitty: int) -> Settlement:
        return settle(
            get_rules("standard"),
            levels("5", "3"),
            0,
            kitty,
            OPPONENTS_TAKE_THE_LAST_SINGLE,
            decks=decks,
            kitty_cards=kitty_cards,
        )

    assert with_kitty(most).kitty_bonus == 2 * most
    with pytest.raises(SettleError) as error:
        with_kitty(most + 5)
    assert str(error.value) == (
        f"kitty_points must be a multiple of 5 from 0 to {most}, got {most + 5}"
    )
    assert error.value.field == "kitty_points"


@pytest.mark.parametrize("decks", [2, 3, 4])
def test_the_opponents_points_and_the_kittys_are_at_most_100_a_deck(decks: int) -> None:
    top = 100 * decks

    def with_points(points: int, kitty: int) -> Settlement:
        return settle(
            get_rules("standard"),
            levels("5", "3"),
            points,
            kitty,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            decks=decks,
        )

    assert with_points(top - 60, 60).opponent_total == top - 60
    assert with_points(top, 0).opponent_total == top
    with pytest.raises(SettleError) as error:
        with_points(top - 55, 60)
    assert str(error.value) == (
        f"opponent_points {top - 55} + kitty_points 60 = {top + 5}, "
        f"but {decks} decks hold only {top} points"
    )
    assert error.value.field == "opponent_points"
    with pytest.raises(SettleError) as error:
        with_points(top + 5, 0)
    assert str(error.value) == (
        f"opponent_points must be a multiple of 5 from 0 to {top}, got {top + 5}"
    )


@pytest.mark.parametrize("kitty_cards", [5, 12])
def test_a_kitty_of_5_to_12_cards_is_accepted(kitty_cards: int) -> None:
    result = settle(
        get_rules("standard"),
        levels("5", "3"),
        40,
        50,
        DECLARERS_TAKE_THE_LAST_SINGLE,
        kitty_cards=kitty_cards,
    )
    assert result.opponent_total == 40


@pytest.mark.parametrize("kitty_cards", [4, 13, 0, -8, True, 8.0, "8"])
def test_a_kitty_of_other_than_5_to_12_cards_is_refused(kitty_cards: object) -> None:
    with pytest.raises(SettleError) as error:
        settle(
            get_rules("standard"),
            levels("5", "3"),
            40,
            0,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            kitty_cards=kitty_cards,
        )
    assert str(error.value) == (
        f"kitty_cards must be a number of cards from 5 to 12, got {kitty_cards!r}"
    )
    assert error.value.field == "kitty_cards"


@pytest.mark.parametrize("decks", [1, 5, 0, True, 3.0, "3"])
def test_decks_other_than_2_3_or_4_are_refused(decks: object) -> None:
    with pytest.raises(SettleError) as error:
        settle(
            get_rules("standard"),
            levels("5", "3"),
            40,
            0,
            DECLARERS_TAKE_THE_LAST_SINGLE,
            decks=decks,
        )
    assert str(error.value) == f"decks must be 2, 3 or 4, got {decks!r}"
    assert error.value.field == "decks"


@pytest.mark.parametrize(
    ("decks", "kitty_cards", "players", "most"),
    [
        pytest.param(2, None, 4, 25, id="4-players-2-decks"),
        pytest.param(3, None, 4, 39, id="4-players-3-decks"),
        pytest.param(4, None, 4, 52, id="4-players-4-decks"),
        pytest.param(2, 12, 4, 24, id="4-players-2-decks-kitty-12"),
        pytest.param(2, 8, 5, 20, id="5-players-2-decks"),
        pytest.param(3, 6, 6, 26, id="6-players-3-decks"),
        pytest.param(3, 8, 7, 22, id="7-players-3-decks"),
        pytest.param(4, 8, 8, 26, id="8-players-4-decks"),
    ],
)
def test_a_last_trick_holds_at_most_the_cards_each_player_was_dealt(
    decks: int, kitty_cards: int | None, players: int, most: int
) -> None:
    def last_throw(cards: int) -> Settlement:
        return settle(
            get_rules("open-ladder"),
            levels("5", "3"),
            20,
            10,
            LastTrick(OPP, Format.THROW, cards),
            decks=decks,
            kitty_cards=kitty_cards,
            players=players,
        )

    assert last_throw(most).kitty_multiplier == 2 * most
    with pytest.raises(SettleError) as error:
        last_throw(most + 1)
    assert str(error.value) == (
        f"a last trick of {most + 1} cards per player is more than a hand of {most} holds"
    )
    assert error.value.field == "last_trick"


# A short-handed declaring side (find-a-friend: fewer friends than cards called) that holds
# climbs one level more than the table awards, under every table.
# preset, (declarers, opponents), opponents' total, award, levels gained, explanation's outcome
SHORT_HANDED_HOLDS = [
    pytest.param("standard", ("5", "3"), 0, 4, 4,
                 "climb 4 levels, one more for holding short-handed.", id="standard-0"),
    pytest.param("standard", ("5", "3"), 45, 2, 2,
                 "climb 2 levels, one more for holding short-handed.", id="standard-45"),
    pytest.param("simplified", ("5", "3"), 75, 2, 2,
                 "climb 2 levels, one more for holding short-handed.", id="simplified-75"),
    pytest.param("kawu", ("5", "3"), 5, 3, 3,
                 "climb 3 levels, one more for holding short-handed.", id="kawu-5"),
    pytest.param("open-ladder", ("5", "3"), 40, 2, 2,
                 "climb 2 levels, one more for holding short-handed.", id="open-ladder-40"),
    pytest.param("standard", ("K", "3"), 0, 4, 1, "climb 1 level, stopping at A.",
                 id="standard-at-K-stops-at-A"),
    pytest.param("open-ladder", ("J", "3"), 0, 4, 4,
                 "climb 4 levels and pass A: they win the game.", id="open-ladder-past-A"),
]  # fmt: skip


@pytest.mark.parametrize(("preset", "lv", "total", "award", "gained", "said"), SHORT_HANDED_HOLDS)
def test_a_short_handed_side_that_holds_climbs_one_level_more(
    preset: str, lv: tuple, total: int, award: int, gained: int, said: str
) -> None:
    result = settle(
        get_rules(preset),
        levels(*lv),
        total,
        0,
        DECLARERS_TAKE_THE_LAST_SINGLE,
        short_handed=True,
    )
    assert (result.award, result.levels_gained, result.short_handed) == (award, gained, True)
    assert result.explanation.endswith(f" band, the declarers {said}")


@pytest.mark.parametrize(("preset", "total", "award"), [("standard", 80, 0), ("kawu", 120, 1)])
def test_a_short_handed_side_that_loses_gives_the_opponents_no_more(
    preset: str, total: int, award: int
) -> None:
    short = settle(
        get_rules(preset), levels("5", "3"), total, 0, DECLARERS_TAKE_THE_LAST_SINGLE,
        short_handed=True,
    )  # fmt: skip
    full = settle(get_rules(preset), levels("5", "3"), total, 0, DECLARERS_TAKE_THE_LAST_SINGLE)
    assert (short.winner, short.award, short.short_handed) == (OPP, award, False)
    assert short.levels == full.levels
