"""Django's own sentences on the app's pages (companion/django_words.py) speak the app's words in
the app's register: a refused sign-up in Chinese is all Chinese, in Spanish it says tú, in
Portuguese the password is a "senha" in every line."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import django
import polib
import pytest
from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format

from tests.reading import text

pytestmark = pytest.mark.django_db

DJANGO = Path(django.__file__).parent
OURS = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
SHORT_PASSWORD = {"username": "yan", "email": "", "password1": "abc", "password2": "abc"}


def refused_signup(client, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.post("/accounts/signup/", SHORT_PASSWORD)
    assert response.status_code == 200
    return text(response)


def test_django_still_says_each_sentence_the_app_words_for_it():
    """A Django upgrade that rewords one leaves the app's wording unused: this test says so."""
    djangos = {
        (entry.msgid, entry.msgid_plural)
        for catalogue in ("conf/locale", "contrib/auth/locale")
        for entry in polib.pofile(str(DJANGO / catalogue / "en" / "LC_MESSAGES" / "django.po"))
    }
    ours = [
        (entry.msgid, entry.msgid_plural)
        for entry in polib.pofile(str(OURS))
        if any(path == "companion/django_words.py" for path, _line in entry.occurrences)
    ]

    assert len(ours) == 47
    assert [words for words in ours if words not in djangos] == []


def test_a_refused_chinese_signup_is_all_chinese(client):
    page = refused_signup(client, "zh-hans")

    assert "密码太短，至少要 8 个字符。" in text(page)
    assert "这个密码太常见了。" in page
    assert not re.search(r"password|characters|Required", page, re.IGNORECASE)
    assert "您" not in page


def test_a_refused_spanish_signup_says_tu(client):
    page = refused_signup(client, "es")

    assert "Esta contraseña es demasiado corta: necesita al menos 8 caracteres." in text(page)
    assert "Tu contraseña debe tener al menos 8 caracteres." in text(page)
    for usted in ("Su contraseña", "Introduzca", "Asegúrese", "Escoja"):
        assert usted not in page


def test_a_refused_portuguese_signup_says_senha_throughout(client):
    page = refused_signup(client, "pt-br")

    assert "Esta senha é curta demais: precisa de pelo menos 8 caracteres." in text(page)
    assert "Confirme a senha" in text(page)
    assert "Palavra-passe" not in page
    assert "palavra-passe" not in page


def test_a_wrong_login_names_the_username_in_the_readers_words(client, user):
    client.cookies["django_language"] = "fr"
    response = client.post("/accounts/login/", {"username": "mei", "password": "wrong"})

    assert (
        "Saisissez un nom d'utilisateur et un mot de passe corrects. "
        "Les majuscules comptent dans les deux."
    ) in text(response)


def test_a_brazilian_date_writes_its_month_in_lower_case():
    with translation.override("pt-br"):
        assert date_format(datetime.date(2026, 12, 1), "DATE_FORMAT") == "1 de dezembro de 2026"
    with translation.override("fr"):
        assert date_format(datetime.date(2026, 5, 1), "DATE_FORMAT") == "1 mai 2026"
