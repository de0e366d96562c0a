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
