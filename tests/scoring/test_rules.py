"""Rules as data: the four presets, reading a rules request, and validating a group's own table."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

from scoring import (
    PRESETS,
    Band,
    Format,
    GameEnd,
    KittyRule,
    Rules,
    RulesError,
    ScoringError,
    Side,
    Starter,
    TractorFollow,
    get_rules,
    rules_from_json,
)
from scoring.game import GameError, GameSetup
from scoring.table import Table

DEC, OPP = "declarers", "opponents"

STANDARD_TABLE = [
    ("0", DEC, 3, None),
    ("5–35", DEC, 2, None),
    ("40–75", DEC, 1, None),
    ("80+", OPP, 0, None),
]
OPEN_LADDER_TABLE = [
    ("0", DEC, 3, None),
    ("5–35", DEC, 2, None),
    ("40–75", DEC, 1, None),
    ("80–115", OPP, 0, None),
    ("120–155", OPP, 1, None),
    ("160–195", OPP, 2, None),
    ("200+", OPP, 3, 40),
]
KAWU_TABLE = [
    ("0", DEC, 3, None),
    ("5–35", DEC, 2, None),
    ("40–75", DEC, 1, None),
    ("80–115", OPP, 0, None),
    ("120–155", OPP, 1, None),
    ("160+", OPP, 2, 40),
]
SIMPLIFIED_TABLE = [("0–75", DEC, 1, None), ("80+", OPP, 1, None)]


def a_table(*rows: tuple[int, int | None, str, int] | tuple[int, int | None, str, int, int]):
    """A rules object's JSON form with these bands, the rest left to the defaults."""
    bands = []
    for low, high, winner, levels, *every in rows:
        band = {"from": low, "to": high, "winner": winner, "levels": levels}
        if every:
            band["every"] = every[0]
        bands.append(band)
    return {"name": "ours", "bands": bands}


VALID = a_table((0, 0, DEC, 3), (5, 35, DEC, 2), (40, 75, DEC, 1), (80, None, OPP, 0))


def test_the_presets_are_the_four_stable_names() -> None:
    assert list(PRESETS) == ["standard", "open-ladder", "kawu", "simplified"]
    assert [rules.name for rules in PRESETS.values()] == list(PRESETS)


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("standard", STANDARD_TABLE),
        ("open-ladder", OPEN_LADDER_TABLE),
        ("kawu", KAWU_TABLE),
        ("simplified", SIMPLIFIED_TABLE),
    ],
)
def test_each_preset_has_the_table_of_rules_md(name: str, table: list) -> None:
    rows = [
        (band.label, band.winner.value, band.levels, band.every) for band in PRESETS[name].bands
    ]
    assert rows == table


@pytest.mark.parametrize(
    (
        "name",
        "kitty",
        "game_end",
        "starter",
        "throws",
        "throw_penalty",
        "tractor_follow",
        "no_trump_level_cards",
    ),
    [
        ("standard", "double", "hold-at-ace", "bid", False, 0, "tractor", True),
        ("open-ladder", "per-card", "past-ace", "rotate", True, 10, "pairs", False),
        ("kawu", "per-pair", "hold-at-ace", "rotate", False, 0, "tractor", True),
        ("simplified", "double", "hold-at-ace", "bid", False, 0, "tractor", True),
    ],
)
def test_each_preset_has_the_kitty_game_end_and_throws_of_its_seed(
    name: str,
    kitty: str,
    game_end: str,
    starter: str,
    throws: bool,
    throw_penalty: int,
    tractor_follow: str,
    no_trump_level_cards: bool,
) -> None:
    rules = PRESETS[name]
    assert rules.kitty is KittyRule(kitty)
    assert rules.game_end is GameEnd(game_end)
    assert rules.starter is Starter(starter)
    assert rules.throws is throws
    assert rules.throw_penalty == throw_penalty
    assert rules.tractor_follow is TractorFollow(tractor_follow)
    assert rules.no_trump_level_cards is no_trump_level_cards


@pytest.mark.parametrize(
    ("name", "boundaries"),
    [
        (
            "standard",
            [(0, DEC, 3), (5, DEC, 2), (35, DEC, 2), (40, DEC, 1), (75, DEC, 1), (80, OPP, 0)],
        ),
        (
            "open-ladder",
            [
                (0, DEC, 3),
                (5, DEC, 2),
                (35, DEC, 2),
                (40, DEC, 1),
                (75, DEC, 1),
                (80, OPP, 0),
                (115, OPP, 0),
                (120, OPP, 1),
                (155, OPP, 1),
                (160, OPP, 2),
                (195, OPP, 2),
                (200, OPP, 3),
                (235, OPP, 3),
                (240, OPP, 4),
                (275, OPP, 4),
                (280, OPP, 5),
            ],
        ),
        (
            "kawu",
            [
                (0, DEC, 3),
                (5, DEC, 2),
                (35, DEC, 2),
                (40, DEC, 1),
                (75, DEC, 1),
                (80, OPP, 0),
                (115, OPP, 0),
                (120, OPP, 1),
                (155, OPP, 1),
                (160, OPP, 2),
                (195, OPP, 2),
                (200, OPP, 3),
                (235, OPP, 3),
                (240, OPP, 4),
                (280, OPP, 5),
            ],
        ),
        ("simplified", [(0, DEC, 1), (75, DEC, 1), (80, OPP, 1), (1000, OPP, 1)]),
    ],
)
def test_band_for_each_boundary_gives_the_side_and_levels(name: str, boundaries: list) -> None:
    rules = PRESETS[name]
    got = []
    for total, _, _ in boundaries:
        band = rules.band_for(total)
        got.append((total, band.winner.value, band.levels_for(total)))
    assert got == boundaries


@pytest.mark.parametrize(
    ("name", "last_trick", "cards", "multiplier"),
    [
        ("standard", Format.SINGLE, 1, 2),
        ("standard", Format.PAIR, 2, 2),
        ("standard", Format.TRACTOR, 4, 2),
        ("standard", Format.TRACTOR, 6, 2),
        ("simplified", Format.SINGLE, 1, 2),
        ("simplified", Format.PAIR, 2, 2),
        ("simplified", Format.TRACTOR, 6, 2),
        ("open-ladder", Format.SINGLE, 1, 2),
        ("open-ladder", Format.PAIR, 2, 4),
        ("open-ladder", Format.TRACTOR, 4, 8),
        ("open-ladder", Format.TRACTOR, 6, 12),
        ("open-ladder", Format.THROW, 5, 10),
        ("open-ladder", Format.THROW, 2, 4),
        ("kawu", Format.SINGLE, 1, 2),
        ("kawu", Format.PAIR, 2, 4),
        ("kawu", Format.TRACTOR, 4, 8),
        ("kawu", Format.TRACTOR, 6, 16),
        ("kawu", Format.TRACTOR, 8, 32),
    ],
)
def test_kitty_multiplier_follows_each_presets_kitty_rule(
    name: str, last_trick: Format, cards: int, multiplier: int
) -> None:
    assert PRESETS[name].kitty_multiplier(last_trick, cards) == multiplier


@pytest.mark.parametrize(
    ("band", "label"),
    [
        (Band(0, 0, Side.DECLARERS, 3), "0"),
        (Band(5, 35, Side.DECLARERS, 2), "5–35"),
        (Band(200, None, Side.OPPONENTS, 3, 40), "200+"),
    ],
)
def test_a_band_is_labelled_as_players_write_it(band: Band, label: str) -> None:
    assert band.label == label


@pytest.mark.parametrize("name", ["standard", "Standard", " KAWU ", "open-ladder", "simplified"])
def test_get_rules_reads_a_preset_name_in_any_case(name: str) -> None:
    assert get_rules(name) is PRESETS[name.strip().lower()]


def test_get_rules_passes_a_rules_object_through() -> None:
    rules = PRESETS["kawu"]
    assert get_rules(rules) is rules


def test_get_rules_reads_a_rules_objects_json_form() -> None:
    rules = get_rules(VALID)
    assert rules.name == "ours"
    assert [band.label for band in rules.bands] == ["0", "5–35", "40–75", "80+"]


def test_get_rules_names_the_presets_for_an_unknown_name() -> None:
    with pytest.raises(RulesError) as error:
        get_rules("bridge")
    assert str(error.value) == (
        "unknown rules 'bridge': the presets are standard, open-ladder, kawu, simplified"
    )


@pytest.mark.parametrize(("value", "shown"), [(7, "7"), (None, "None"), (["kawu"], "['kawu']")])
def test_get_rules_refuses_what_is_neither_a_name_nor_an_object(value: object, shown: str) -> None:
    with pytest.raises(RulesError) as error:
        get_rules(value)
    assert str(error.value) == f"rules must be a preset's name or a rules object, got {shown}"


def test_a_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ScoringError)
    assert issubclass(RulesError, ValueError)


def test_a_custom_table_takes_the_defaults_for_what_it_leaves_out() -> None:
    rules = rules_from_json({"bands": VALID["bands"]})
    assert rules == Rules(
        name="custom",
        bands=PRESETS["standard"].bands,
        kitty=KittyRule.DOUBLE,
        game_end=GameEnd.HOLD_AT_ACE,
        starter=Starter.BID,
        throws=False,
        throw_penalty=0,
        tractor_follow=TractorFollow.TRACTOR,
        no_trump_level_cards=True,
    )


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_survives_its_json_round_trip(name: str) -> None:
    rules = PRESETS[name]
    data = json.loads(json.dumps(rules.to_json()))
    assert rules_from_json(data) == rules
    assert rules_from_json(data).to_json() == rules.to_json()


@pytest.mark.parametrize(("name", "written"), [("standard", True), ("open-ladder", False)])
def test_the_json_form_always_says_whether_no_trump_hands_trump_the_level_cards(
    name: str, written: bool
) -> None:
    assert PRESETS[name].to_json()["no_trump_level_cards"] is written


def test_rules_written_before_no_trump_level_cards_existed_trump_the_level_cards() -> None:
    written = PRESETS["open-ladder"].to_json()
    del written["no_trump_level_cards"]
    assert rules_from_json(written) == replace(PRESETS["open-ladder"], no_trump_level_cards=True)


def test_the_json_form_names_every_band_field() -> None:
    assert PRESETS["kawu"].to_json()["bands"][-2:] == [
        {"from": 120, "to": 155, "winner": "opponents", "levels": 1},
        {"from": 160, "to": None, "winner": "opponents", "levels": 2, "every": 40},
    ]


def test_a_valid_custom_table_settles_like_standard() -> None:
    assert rules_from_json(VALID).bands == PRESETS["standard"].bands


INVALID_TABLES = [
    pytest.param(
        a_table((0, 0, DEC, 3), (10, 75, DEC, 1), (80, None, OPP, 0)),
        "band 2 (10–75) leaves a gap: no band holds 5",
        id="gap-of-one-total",
    ),
    pytest.param(
        a_table((0, 0, DEC, 3), (20, 75, DEC, 1), (80, None, OPP, 0)),
        "band 2 (20–75) leaves a gap: no band holds 5–15",
        id="gap-of-several-totals",
    ),
    pytest.param(
        a_table((5, 75, DEC, 1), (80, None, OPP, 0)),
        "band 1 (5–75) leaves a gap: no band holds 0",
        id="first-band-not-from-zero",
    ),
    pytest.param(
        a_table((0, 40, DEC, 2), (40, 75, DEC, 1), (80, None, OPP, 0)),
        "band 2 (40–75) overlaps the band before it, which ends at 40",
        id="overlap",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, None, OPP, 0), (200, None, OPP, 3)),
        "band 2 (80+) is open-ended, so it must be the last band",
        id="open-band-not-last",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, 195, OPP, 0)),
        "the last band must have no upper end: no band holds 200 or more",
        id="last-band-bounded",
    ),
    pytest.param(
        a_table((0, 33, DEC, 2), (35, 75, DEC, 1), (80, None, OPP, 0)),
        "band 1 (0–33): to must be a multiple of 5 from 0 to 1000, got 33",
        id="to-not-a-multiple-of-5",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (81, None, OPP, 0)),
        "band 2 (81+): from must be a multiple of 5 from 0 to 1000, got 81",
        id="from-not-a-multiple-of-5",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, None, OPP, 1, 30.5)),
        "band 2 (80+): every must be a multiple of 5 from 5 to 1000, got 30.5",
        id="every-not-a-multiple-of-5",
    ),
    pytest.param(
        a_table((0, 35, DEC, 1), (40, 75, OPP, 0), (80, 115, DEC, 1), (120, None, OPP, 1)),
        "band 3 (80–115): the declarers cannot win above a band the opponents win",
        id="declarers-win-above-an-opponents-band",
    ),
    pytest.param(
        a_table((0, 0, DEC, 2), (5, 75, DEC, 3), (80, None, OPP, 0)),
        "band 2 (5–75): the declarers cannot climb more (3) than in the band before (2) "
        "when the opponents score more",
        id="declarers-climb-more-with-more-points",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, 155, OPP, 2), (160, None, OPP, 1)),
        "band 3 (160+): the opponents cannot climb less (1) than in the band before (2) "
        "when they score more",
        id="opponents-climb-less-with-more-points",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, 235, OPP, 0, 40), (240, None, OPP, 2)),
        "band 3 (240+): the opponents cannot climb less (2) than in the band before (3) "
        "when they score more",
        id="opponents-climb-less-than-the-top-of-an-every-band",
    ),
    pytest.param(
        a_table((0, 0, DEC, 3, 5), (5, 75, DEC, 1), (80, None, OPP, 0)),
        "band 1 (0): only the opponents can climb more with more points",
        id="every-on-a-declarers-band",
    ),
    pytest.param(
        a_table((0, 75, OPP, 0), (80, None, OPP, 1)),
        "a table must start with a declarers' band and end with an opponents' one",
        id="no-declarers-band",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, None, DEC, 0)),
        "a table must start with a declarers' band and end with an opponents' one",
        id="no-opponents-band",
    ),
    pytest.param(
        a_table((0, 75, DEC, -1), (80, None, OPP, 0)),
        "band 1 (0–75): levels must be a whole number from 0 to 12, got -1",
        id="negative-levels",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (100, 80, OPP, 0), (85, None, OPP, 0)),
        "band 2 (100–80) leaves a gap: no band holds 80–95",
        id="band-ending-before-it-starts-after-a-gap",
    ),
    pytest.param(
        a_table((0, 75, DEC, 1), (80, 75, OPP, 0), (80, None, OPP, 0)),
        "band 2 (80–75) ends before it starts",
        id="band-ending-before-it-starts",
    ),
    pytest.param(
        {"name": "ours", "bands": []}, "a scoring table needs at least one band", id="empty"
    ),
    pytest.param({"name": "ours"}, "a rules object needs its bands", id="no-bands"),
    pytest.param(
        {"name": "ours", "bands": {"from": 0}},
        "bands must be a list, got {'from': 0}",
        id="bands-not-a-list",
    ),
    pytest.param(
        {"name": "ours", "bands": [[0, 75, DEC, 1]]},
        "band 1 must be an object, got [0, 75, 'declarers', 1]",
        id="band-not-an-object",
    ),
    pytest.param(
        {"name": "ours", "bands": [{"from": 0, "to": 75, "levels": 1}]},
        "band 1 needs 'winner'",
        id="band-without-winner",
    ),
    pytest.param(
        {**VALID, "name": "  "},
        "a rules object needs a name, got '  '",
        id="blank-name",
    ),
    pytest.param(
        {**VALID, "kitty": "per-pair", "throws": True},
        "the per-pair kitty rule has no multiplier for a throw: "
        "choose another kitty rule or forbid throws",
        id="per-pair-kitty-with-throws",
    ),
    pytest.param(
        {**VALID, "throw_penalty": 10},
        "a throw penalty needs rules that allow throws",
        id="throw-penalty-without-throws",
    ),
    pytest.param(
        {**VALID, "throws": True, "throw_penalty": 12},
        "throw_penalty must be a multiple of 5 from 0 to 50, got 12",
        id="throw-penalty-not-a-multiple-of-5",
    ),
    pytest.param(
        {**VALID, "throws": "yes"},
        "throws must be true or false, got 'yes'",
        id="throws-not-a-boolean",
    ),
    pytest.param(
        {**VALID, "no_trump_level_cards": "no"},
        "no_trump_level_cards must be true or false, got 'no'",
        id="no-trump-level-cards-not-a-boolean",
    ),
    pytest.param(
        {**VALID, "colour": "red"},
        "unknown key 'colour' in the rules object",
        id="unknown-key",
    ),
    pytest.param(
        {"name": "ours", "bands": [{**VALID["bands"][0], "upto": 0}, *VALID["bands"][1:]]},
        "band 1: unknown key 'upto'",
        id="unknown-band-key",
    ),
    pytest.param(
        {**VALID, "kitty": "triple"},
        "kitty must be one of double, per-card, per-pair, got 'triple'",
        id="unknown-kitty",
    ),
    pytest.param(
        {**VALID, "game_end": "first-to-ace"},
        "game_end must be one of hold-at-ace, past-ace, got 'first-to-ace'",
        id="unknown-game-end",
    ),
    pytest.param(
        {**VALID, "starter": "dealer"},
        "starter must be one of bid, rotate, got 'dealer'",
        id="unknown-starter",
    ),
    pytest.param(
        {**VALID, "tractor_follow": "anything"},
        "tractor_follow must be one of tractor, pairs, got 'anything'",
        id="unknown-tractor-follow",
    ),
    pytest.param(
        {"name": "ours", "bands": [{**VALID["bands"][0], "winner": "us"}, *VALID["bands"][1:]]},
        "band 1: winner must be one of declarers, opponents, got 'us'",
        id="unknown-winner",
    ),
]


@pytest.mark.parametrize(("data", "message"), INVALID_TABLES)
def test_an_invalid_custom_table_is_refused_with_the_problem_named(
    data: dict, message: str
) -> None:
    with pytest.raises(RulesError) as error:
        rules_from_json(copy.deepcopy(data))
    assert str(error.value) == message


def test_a_band_for_a_total_no_band_holds_is_an_error() -> None:
    with pytest.raises(RulesError) as error:
        PRESETS["standard"].band_for(-5)
    assert str(error.value) == "no band holds an opponents' total of -5"


# docs/rules.md, "Points scale with the decks": each band's start but 0 and 5 is multiplied by
# decks / 2, each band ends 5 below the next one's start, and `every` is multiplied too.
SCALED_TABLES = [
    ("standard", 3, [("0", DEC, 3, None), ("5–55", DEC, 2, None), ("60–115", DEC, 1, None),
                     ("120+", OPP, 0, None)]),
    ("standard", 4, [("0", DEC, 3, None), ("5–75", DEC, 2, None), ("80–155", DEC, 1, None),
                     ("160+", OPP, 0, None)]),
    ("open-ladder", 3, [("0", DEC, 3, None), ("5–55", DEC, 2, None), ("60–115", DEC, 1, None),
                        ("120–175", OPP, 0, None), ("180–235", OPP, 1, None),
                        ("240–295", OPP, 2, None), ("300+", OPP, 3, 60)]),
    ("open-ladder", 4, [("0", DEC, 3, None), ("5–75", DEC, 2, None), ("80–155", DEC, 1, None),
                        ("160–235", OPP, 0, None), ("240–315", OPP, 1, None),
                        ("320–395", OPP, 2, None), ("400+", OPP, 3, 80)]),
    ("kawu", 3, [("0", DEC, 3, None), ("5–55", DEC, 2, None), ("60–115", DEC, 1, None),
                 ("120–175", OPP, 0, None), ("180–235", OPP, 1, None), ("240+", OPP, 2, 60)]),
    ("kawu", 4, [("0", DEC, 3, None), ("5–75", DEC, 2, None), ("80–155", DEC, 1, None),
                 ("160–235", OPP, 0, None), ("240–315", OPP, 1, None), ("320+", OPP, 2, 80)]),
    ("simplified", 3, [("0–115", DEC, 1, None), ("120+", OPP, 1, None)]),
    ("simplified", 4, [("0–155", DEC, 1, None), ("160+", OPP, 1, None)]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "decks", "table"), SCALED_TABLES)
def test_each_preset_scales_its_band_starts_but_0_and_5_with_the_decks(
    name: str, decks: int, table: list
) -> None:
    scaled = PRESETS[name].for_decks(decks)
    rows = [(band.label, band.winner.value, band.levels, band.every) for band in scaled.bands]
    assert rows == table
    assert scaled.name == name


@pytest.mark.parametrize(
    ("name", "decks", "lines"),
    [
        ("standard", 2, (5, 40, 80)),
        ("standard", 3, (5, 60, 120)),
        ("open-ladder", 2, (5, 40, 80, 120, 160, 200)),
        ("open-ladder", 4, (5, 80, 160, 240, 320, 400)),
        ("kawu", 2, (5, 40, 80, 120, 160, 200)),
        ("kawu", 3, (5, 60, 120, 180, 240, 300)),
        ("simplified", 2, (80,)),
    ],
)
def test_the_lines_are_where_the_result_changes_up_to_the_decks_points(
    name: str, decks: int, lines: tuple[int, ...]
) -> None:
    rules = PRESETS[name].for_decks(decks)
    top = 100 * decks
    assert rules.lines(top) == lines
    for line in lines:
        below, at = rules.band_for(line - 5), rules.band_for(line)
        assert (below.winner, below.levels_for(line - 5)) != (at.winner, at.levels_for(line))


def test_a_band_climbing_every_so_many_points_draws_a_line_at_each_step() -> None:
    rules = rules_from_json(a_table((0, 75, DEC, 1), (80, None, OPP, 1, 20)))
    assert rules.lines(200) == (80, 100, 120, 140, 160, 180, 200)
    assert rules.lines(150) == (80, 100, 120, 140)


@pytest.mark.parametrize("name", list(PRESETS))
def test_two_decks_read_each_preset_as_written(name: str) -> None:
    assert PRESETS[name].for_decks(2) is PRESETS[name]


def test_a_scaled_start_or_every_that_is_no_multiple_of_5_rounds_down_to_one() -> None:
    rules = rules_from_json(
        a_table((0, 0, DEC, 2), (5, 10, DEC, 1), (15, 45, OPP, 0), (50, None, OPP, 1, 25))
    )
    scaled = rules.for_decks(3)
    assert [(band.label, band.every) for band in scaled.bands] == [
        ("0", None),
        ("5–15", None),
        ("20–70", None),  # from 15 × 3 / 2 = 22.5, rounded down, to 5 below 50 × 3 / 2 = 75
        ("75+", 35),  # every 25 × 3 / 2 = 37.5, rounded down to 35
    ]


# Rounding down as the rules say can leave a group's own table climbing less in a band than in
# the one below it; such a table cannot be scaled, and a game of those decks is refused up front.
@pytest.mark.parametrize(
    ("bands", "decks"),
    [
        (((0, 75, DEC, 1), (80, 115, OPP, 0, 5), (120, None, OPP, 7)), 3),
        (((0, 0, DEC, 0), (5, 5, OPP, 0, 5), (10, None, OPP, 0)), 4),
    ],
)
def test_a_table_that_cannot_scale_is_refused_for_those_decks(bands, decks) -> None:
    rules = rules_from_json(a_table(*bands))
    with pytest.raises(RulesError, match="cannot climb less"):
        rules.for_decks(decks)
    table = Table(("Mei", "Jun", "Lin", "Hao", "Wei", "Yan", "Bo", "Tao")[: 2 * decks], decks)
    with pytest.raises(GameError, match=f"cannot be played with {decks} decks") as error:
        GameSetup(rules, table)
    assert error.value.field == "decks"
