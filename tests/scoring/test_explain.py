"""The settlement's sentence is built from whole patterns a translator can reorder."""

from __future__ import annotations

from scoring import Format, LastTrick, Levels, Rank, Side, explain, get_rules, settle

FRENCH = {
    "Opponents {points} + kitty {kitty} × {multiplier}": (
        "Adversaires {points} + chien {kitty} × {multiplier}"
    ),
    " = {total}": " = {total}",
    "opponents take the deal and climb {levels}": (
        "les adversaires prennent la donne et montent de {levels}"
    ),
    "{score}: {band}, {outcome}": "{score} : {band}, {outcome}",
}


def kawu_example():
    return settle(
        get_rules("kawu"),
        Levels(Rank.FIVE, Rank.THREE),
        opponent_points=65,
        kitty_points=20,
        last_trick=LastTrick(Side.OPPONENTS, Format.PAIR, 2),
    )


def test_explain_translates_each_pattern_before_filling_it_in():
    sentence = explain(kawu_example(), lambda pattern: FRENCH.get(pattern, pattern))

    assert sentence == (
        "Adversaires 65 + chien 20 × 4 = 145 : 120–155, "
        "les adversaires prennent la donne et montent de 1"
    )


def test_the_explanation_is_the_untranslated_sentence():
    assert kawu_example().explanation == explain(kawu_example())
    assert kawu_example().explanation == (
        "Opponents 65 + kitty 20 × 4 = 145: 120–155, opponents take the deal and climb 1"
    )


def test_a_climb_cut_at_A_is_told_with_the_levels_actually_climbed():
    result = settle(
        get_rules("standard"),
        Levels(Rank.KING, Rank.THREE),
        opponent_points=0,
        kitty_points=0,
        last_trick=LastTrick(Side.DECLARERS, Format.SINGLE, 1),
    )
    french = {
        "Opponents {points}": "Adversaires {points}",
        "declarers climb {levels}, stopping at A": (
            "les déclarants montent de {levels} et s'arrêtent à l'As"
        ),
        "{score}: {band}, {outcome}": "{score} : {band}, {outcome}",
    }

    assert explain(result, lambda pattern: french.get(pattern, pattern)) == (
        "Adversaires 0 : 0, les déclarants montent de 1 et s'arrêtent à l'As"
    )


def test_a_short_handed_hold_has_its_own_pattern():
    result = settle(
        get_rules("standard"),
        Levels(Rank.FIVE, Rank.THREE),
        opponent_points=45,
        kitty_points=0,
        last_trick=LastTrick(Side.DECLARERS, Format.SINGLE, 1),
        short_handed=True,
    )
    french = {
        "declarers climb {levels}, one more for holding short-handed": (
            "les déclarants montent de {levels}, dont un pour avoir tenu à court"
        ),
    }

    assert explain(result, lambda pattern: french.get(pattern, pattern)) == (
        "Opponents 45: 40–75, les déclarants montent de 2, dont un pour avoir tenu à court"
    )


def test_a_scaled_table_names_its_scaled_band():
    result = settle(
        get_rules("kawu"),
        Levels(Rank.FIVE, Rank.THREE),
        opponent_points=150,
        kitty_points=30,
        last_trick=LastTrick(Side.OPPONENTS, Format.SINGLE, 1),
        decks=3,
    )

    assert result.explanation == (
        "Opponents 150 + kitty 30 × 2 = 210: 180–235, opponents take the deal and climb 1"
    )
