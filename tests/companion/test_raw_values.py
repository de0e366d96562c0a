"""A logged-in player, in each of the app's languages, reads players' words on every page of a
group's games, log and evenings: never a value as the database stores it (a choice's code where
its label belongs, a field's name, True / False / None, an enum's name).

The raw values come from the models and the engine, not from a list kept here: every choice of
a model's field (and the form choices that stand for the engine's codes the hands store: sides,
formats of the last trick, presets) whose stored value is not its label in that language, every
field name with an underscore, and the names of the engine's enums."""

from __future__ import annotations

import enum
import re
from functools import cache
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import to_locale
from history_games import VARIANTS, make_games

import scoring
from companion.forms import choices as form_choices
from companion.models import GroupAction, GroupChange, Player
from tests.companion.hands import held_form
from tests.reading import shown_words

LANGUAGES = [code for code, _name in settings.LANGUAGES]
MORE = ("Wei", "Yan", "Zhao", "Ed")
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|\{\w*\}")


def stored_choices() -> list[tuple[object, object]]:
    """Every (stored value, label) a page might be tempted to print raw: the models' choices,
    and the engine's codes a hand or a game stores, as the forms label them."""
    pairs = [
        pair
        for model in apps.get_app_config("companion").get_models()
        for field in model._meta.get_fields()
        if getattr(field, "choices", None)
        for pair in field.flatchoices
    ]
    pairs += form_choices.SIDE_CHOICES + form_choices.FORMAT_CHOICES + form_choices.RULES_CHOICES
    return pairs


@cache
def own_words(language: str) -> frozenset[str]:
    """The words the app writes in ``language`` (its catalogue's): a code that is one of them,
    such as "one" or "pair" in English, cannot be told from a sentence."""
    catalogue = polib.pofile(
        str(Path(settings.BASE_DIR) / "locale" / to_locale(language) / "LC_MESSAGES" / "django.po")
    )
    texts = [
        text
        for entry in catalogue
        for text in (
            [entry.msgid, entry.msgid_plural]
            if language == "en"
            else [entry.msgstr, *entry.msgstr_plural.values()]
        )
    ]
    words = re.findall(r"[\w-]+", PLACEHOLDER.sub(" ", " ".join(texts)))
    return frozenset(word.lower() for word in words)


def raw_values(language: str) -> set[str]:
    """The values a player of ``language`` must never read: choice codes whose label in that
    language is another word and that are no word of the language (a one-letter code such as
    a suit's S is too short to tell from text), field names with an underscore, True / False /
    None and the engine's enum names."""
    with translation.override(language):
        codes = {
            str(value)
            for value, label in stored_choices()
            if len(str(value)) > 1
            and str(value).lower() != str(label).lower()
            and str(value).lower() not in own_words(language)
        }
    fields = {
        field.name
        for model in apps.get_app_config("companion").get_models()
        for field in model._meta.get_fields()
        if "_" in field.name
    }
    enums = {
        member.name
        for value in vars(scoring).values()
        if isinstance(value, type) and issubclass(value, enum.Enum)
        for member in value
        if len(member.name) > 1
    }
    return codes | fields | enums | {"True", "False", "None"}


def found(values: set[str], text: str) -> list[str]:
    """The values written in ``text`` as words of their own (the case as stored: "pair" is a
    code, "Pair" may be English)."""
    return sorted(
        value for value in values if re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", text)
    )


@pytest.fixture
def everything(member, group, players, user, start_game) -> list[str]:
    """A group with a bit of everything its pages show: a game with a hand recorded, corrected
    and deleted, finished games at every shape of table (ratings, a player's page), an evening,
    and a log line of every kind; its pages' addresses."""
    players[0].claim(user)
    everyone = players + [Player.objects.create(group=group, name=name) for name in MORE]
    game = start_game()
    game_url = game.get_absolute_url()
    for number in ("new", "1", "new"):
        game.refresh_from_db()
        member.post(
            f"{game_url}hands/{number}/",
            {"version": game.version, "request_key": f"key-{game.version}", **held_form()},
        )
        game.refresh_from_db()
    member.post(game_url + "undo/", {"version": game.version})
    assert set(game.changes.values_list("action", flat=True)) == {"recorded", "edited", "deleted"}
    make_games(group, everyone, 6, seed=3, most=60, tables=VARIANTS)
    for action in GroupAction:
        GroupChange.objects.create(
            group=group,
            action=action,
            by=user,
            by_name="Mei",
            member_name="Jun",
            player=players[1],
            before="Tuesday Tractor",
            after="Thursday Tractor",
        )
    evening = member.post(
        reverse("evening_new", args=[group.pk]),
        {
            "present": [player.pk for player in everyone],
            "players_per_table": "4",
            "teams": "partners",
            "seating": "new-partners",
            "leftover": "sit-out",
            "rules": "standard",
            "trumps": "bid",
        },
    )
    assert evening.status_code == 302
    return [
        reverse("group", args=[group.pk]),
        reverse("group_log", args=[group.pk]),
        game_url,
        reverse("game_history", args=[group.pk, game.pk]),
        reverse("group_history", args=[group.pk]),
        reverse("player", args=[group.pk, players[0].pk]),
        reverse("evenings", args=[group.pk]),
        evening["Location"],
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_a_stored_value_where_a_player_s_word_belongs(member, everything, language):
    member.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    raw = raw_values(language)
    seen = {}
    for url in everything:
        response = member.get(url)
        assert response.status_code == 200, url
        assert response.headers["Content-Language"] == language
        if values := found(raw, shown_words(response.text)):
            seen[url] = values

    assert seen == {}


def test_the_raw_values_are_found_where_they_are_written():
    """The check itself: French codes and names, as a page that printed them would show them."""
    raw = raw_values("fr")
    page = "<p>Les declarers (find-a-friend) : opponent_points None, Side.DECLARERS</p>"

    assert found(raw, shown_words(page)) == [
        "DECLARERS",
        "None",
        "declarers",
        "find-a-friend",
        "opponent_points",
    ]
    assert (
        found(raw, shown_words("<p>Les preneurs ; <span title='Trouver l’ami'>ami</span></p>"))
        == []
    )
