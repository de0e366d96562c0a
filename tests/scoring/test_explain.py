"""The settlement's explanation is a few whole sentences a translator can reorder, each with the
plural its count asks for."""

from __future__ import annotations

from language import fake_french

from scoring import Format, LastTrick, Levels, Rank, Side, explain, get_rules, settle

FRENCH = fake_french(
    {
        "{score} {outcome}": "{score} {outcome}",
        "Opponents {points} + kitty {kitty} × {multiplier} = {total} point.": (
            "Défenseurs {points} + talon {kitty} × {multiplier} = {total} point.",
            "Défenseurs {points} + talon {kitty} × {multiplier} = {total} points.",
        ),
        "Opponents {points} point.": (
            "Défenseurs : {points} point.",
            "Défenseurs : {points} points.",
        ),
        "In the {band} band, the opponents take the deal and climb {levels} level.": (
            "Tranche {band} : les défenseurs prennent la donne et montent de {levels} niveau.",
            "Tranche {band} : les défenseurs prennent la donne et montent de {levels} niveaux.",
        ),
        "In the {band} band, the declarers climb {levels} level, stopping at A.": (
            "Tranche {band} : les preneurs montent de {levels} niveau et s'arrêtent à l'As.",
            "Tranche {band} : les preneurs montent de {levels} niveaux et s'arrêtent à l'As.",
        ),
        "In the {band} band, the declarers climb {levels} level, one more for holding "
        "short-handed.": (
            "Tranche {band} : les preneurs montent de {levels} niveau, dont un pour avoir "
            "tenu à court.",
            "Tranche {band} : les preneurs montent de {levels} niveaux, dont un pour avoir "
            "tenu à court.",
        ),
    }
)


def kawu_example():
    return settle(
        get_rules("kawu"),
        Levels(Rank.FIVE, Rank.THREE),
        opponent_points=65,
        kitty_points=20,
        last_trick=LastTrick(Side.OPPONENTS, Format.PAIR, 2),
    )


def declarers_hold(points: int, levels: Levels, *, short_handed: bool = False):
    return settle(
        get_rules("standard"),
        levels,
        opponent_points=points,
        kitty_points=0,
        last_trick=LastTrick(Side.DECLARERS, Format.SINGLE, 1),
        short_handed=short_handed,
    )


def test_it_explains_a_hand_in_whole_translated_sentences():
    assert explain(kawu_example(), *FRENCH) == (
        "Défenseurs 65 + talon 20 × 4 = 145 points. "
        "Tranche 120–155 : les défenseurs prennent la donne et montent de 1 niveau."
    )


def test_the_explanation_is_the_untranslated_sentences():
    assert kawu_example().explanation == explain(kawu_example())
    assert kawu_example().explanation == (
        "Opponents 65 + kitty 20 × 4 = 145 points. "
        "In the 120–155 band, the opponents take the deal and climb 1 level."
    )


def test_a_count_of_0_takes_the_singular_where_the_language_says_so():
    # French counts 0 and 1 as singular; English says "0 points".
    result = declarers_hold(0, Levels(Rank.KING, Rank.THREE))

    assert explain(result, *FRENCH) == (
        "Défenseurs : 0 point. Tranche 0 : les preneurs montent de 1 niveau et s'arrêtent à l'As."
    )
    assert result.explanation == (
        "Opponents 0 points. In the 0 band, the declarers climb 1 level, stopping at A."
    )


def test_a_short_handed_hold_has_its_own_sentence_in_the_plural():
    result = declarers_hold(45, Levels(Rank.FIVE, Rank.THREE), short_handed=True)

    assert explain(result, *FRENCH) == (
        "Défenseurs : 45 points. "
        "Tranche 40–75 : les preneurs montent de 2 niveaux, dont un pour avoir tenu à court."
    )


def test_the_two_sentences_are_joined_by_a_pattern_a_language_can_change():
    # Chinese writes sentences one after the other without a space.
    gettext, ngettext = fake_french({"{score} {outcome}": "{score}{outcome}"})

    assert explain(kawu_example(), gettext, ngettext) == (
        "Opponents 65 + kitty 20 × 4 = 145 points."
        "In the 120–155 band, the opponents take the deal and climb 1 level."
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
        "Opponents 150 + kitty 30 × 2 = 210 points. "
        "In the 180–235 band, the opponents take the deal and climb 1 level."
    )
