"""``python -m scoring --lang LANG``: a person at a terminal reads the explanations, the judge's
reasons and the error line in their language, from the web app's catalogue; without ``--lang``,
or without a catalogue, everything stays English. The catalogue here is a tiny one written for
the test, not the app's, which translators are still filling in."""

from __future__ import annotations

import io
import json
from pathlib import Path

import polib
import pytest

from scoring.cli import main

SETTLE = {
    "rules": "kawu",
    "levels": {"declarers": "5", "opponents": "3"},
    "opponent_points": 65,
    "kitty_points": 20,
    "last_trick": {"winner": "opponents", "format": "pair"},
}
JUDGE = {
    "rules": "kawu",
    "level": "5",
    "trump": "H",
    "hands": {"P2": ["9H", "KH", "7H", "7H", "3C"]},
    "plays": [["P1", ["5H", "5H"]], ["P2", ["9H", "KH"]]],
}
ENGLISH_EXPLANATION = (
    "Opponents 65 + kitty 20 × 4 = 145 points. "
    "In the 120–155 band, the opponents take the deal and climb 1 level."
)
FRENCH = {
    "{score} {outcome}": "{score} {outcome}",
    ("Opponents {points} + kitty {kitty} × {multiplier} = {total} point."): (
        "Défenseurs {points} + talon {kitty} × {multiplier} = {total} point.",
        "Défenseurs {points} + talon {kitty} × {multiplier} = {total} points.",
    ),
    "In the {band} band, the opponents take the deal and climb {levels} level.": (
        "Tranche {band} : les défenseurs prennent la donne et montent de {levels} niveau.",
        "Tranche {band} : les défenseurs prennent la donne et montent de {levels} niveaux.",
    ),
    "{player} held the pair {pair} in {suit} and had to play it": (
        "{player} avait la paire {pair} à {suit} et devait la jouer"
    ),
    "trump": ("atout", "atouts"),
    "Hand {hand}: {problem}": "Donne {hand} : {problem}",
    "{card} is not a card: write cards like 5H KD TS BJ.": (
        "{card} n'est pas une carte : écrivez les cartes comme 5H KD TS BJ."
    ),
}
PLURALS = {
    "Opponents {points} + kitty {kitty} × {multiplier} = {total} point.": (
        "Opponents {points} + kitty {kitty} × {multiplier} = {total} points."
    ),
    "In the {band} band, the opponents take the deal and climb {levels} level.": (
        "In the {band} band, the opponents take the deal and climb {levels} levels."
    ),
    "trump": "trumps",
}


@pytest.fixture
def locale(tmp_path: Path) -> Path:
    """A ``locale`` directory with a French ``django.mo`` as the web app lays it out."""
    catalogue = polib.POFile()
    catalogue.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Plural-Forms": "nplurals=2; plural=(n > 1);",
    }
    for msgid, french in FRENCH.items():
        if isinstance(french, tuple):
            catalogue.append(
                polib.POEntry(
                    msgid=msgid,
                    msgid_plural=PLURALS[msgid],
                    msgstr_plural={0: french[0], 1: french[1]},
                )
            )
        else:
            catalogue.append(polib.POEntry(msgid=msgid, msgstr=french))
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalogue.save_as_mofile(str(folder / "django.mo"))
    return tmp_path


def run(
    capsys: pytest.CaptureFixture[str], locale: Path, *args: str, request: object
) -> tuple[int, str, str]:
    code = main(list(args), stdin=io.StringIO(json.dumps(request)), locale=locale)
    out, err = capsys.readouterr()
    return code, out, err


def test_it_explains_the_settlement_in_the_language_asked_for(capsys, locale) -> None:
    code, out, _ = run(capsys, locale, "--lang", "fr", "settle", request=SETTLE)

    assert code == 0
    assert json.loads(out)["explanation"] == (
        "Défenseurs 65 + talon 20 × 4 = 145 points. "
        "Tranche 120–155 : les défenseurs prennent la donne et montent de 1 niveau."
    )


def test_only_the_sentences_change_with_the_language(capsys, locale) -> None:
    _, english, _ = run(capsys, locale, "settle", request=SETTLE)
    _, french, _ = run(capsys, locale, "settle", "--lang=fr", request=SETTLE)

    english_answer, french_answer = json.loads(english), json.loads(french)
    assert english_answer.pop("explanation") == ENGLISH_EXPLANATION
    french_answer.pop("explanation")
    assert french_answer == english_answer


def test_the_judges_reason_names_the_suit_in_the_language_asked_for(capsys, locale) -> None:
    code, out, _ = run(capsys, locale, "--lang", "fr", "judge", request=JUDGE)

    assert code == 0
    assert json.loads(out)["plays"][1]["reason"] == (
        "P2 avait la paire 7H 7H à atouts et devait la jouer"
    )


def test_the_error_line_is_in_the_language_asked_for(capsys, locale) -> None:
    game = {
        "players": ["Mei", "Jun", "Lin", "Hao"],
        "hands": [{"declarer": "Mei", "trump": "H", "opponent_points": 45, "kitty_points": 0,
                   "last_trick": {"winner": "declarers", "format": "single"}},
                  {"declarer": "Mei", "trump": "H", "opponent_points": "45", "kitty_points": 0,
                   "last_trick": {"winner": "declarers", "format": "single"}}],
    }  # fmt: skip
    bad_card = {**JUDGE, "plays": [["P1", ["5X"]]]}

    code, _, err = run(capsys, locale, "--lang", "fr", "judge", request=bad_card)

    assert code == 2
    assert err == "5X n'est pas une carte : écrivez les cartes comme 5H KD TS BJ.\n"
    _, _, english = run(capsys, locale, "game", request=game)
    _, _, french = run(capsys, locale, "--lang", "fr", "game", request=game)
    assert english.startswith("hand 2: ")
    assert french.startswith("Donne 2 : ")


def test_a_language_without_a_catalogue_stays_english(capsys, locale) -> None:
    code, out, _ = run(capsys, locale, "--lang", "zh-hans", "settle", request=SETTLE)

    assert code == 0
    assert json.loads(out)["explanation"] == ENGLISH_EXPLANATION


def test_lang_without_a_language_shows_the_usage(capsys, locale) -> None:
    code, _, err = run(capsys, locale, "settle", "--lang", request=SETTLE)

    assert code == 2
    assert err.startswith("usage: python -m scoring [--lang LANG] ")


def test_a_language_without_its_country_reads_that_languages_catalogue(capsys, locale) -> None:
    """As Portuguese reads the Brazilian catalogue (``pt`` finds ``pt_BR``)."""
    (locale / "fr").rename(locale / "fr_CA")

    for asked in ("fr", "fr-ca"):
        code, out, _ = run(capsys, locale, "--lang", asked, "settle", request=SETTLE)
        assert code == 0
        assert json.loads(out)["explanation"].startswith("Défenseurs 65 + talon 20 × 4")
    _, out, _ = run(capsys, locale, "--lang", "fr-be", "settle", request=SETTLE)
    assert json.loads(out)["explanation"] == ENGLISH_EXPLANATION
    # A pattern is no language: it reads no catalogue it happens to match.
    _, out, _ = run(capsys, locale, "--lang", "*", "settle", request=SETTLE)
    assert json.loads(out)["explanation"] == ENGLISH_EXPLANATION
