"""The language switch at the foot of every page: the browser's language until a player picks
one, the pick kept in a cookie and, for an account, brought back by a login on another phone."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import translation
from django.views.defaults import server_error

from companion.models import AccountLanguage
from tests.companion.conftest import PASSWORD
from tests.reading import texts

pytestmark = pytest.mark.django_db

COOKIE = "django_language"
SWITCH = "/i18n/setlang/"


def html_lang(page: str) -> str:
    start = page.index('<html lang="') + len('<html lang="')
    return page[start : page.index('"', start)]


def chosen(page: str) -> str:
    """The language the switch shows as chosen."""
    switch = page[page.index('id="language-switch"') :]
    selected = switch[: switch.index(" selected>")]
    return selected[selected.rindex('value="') + len('value="') :].split('"')[0]


def test_it_speaks_the_browsers_language(client):
    response = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})

    assert html_lang(response.text) == "fr"
    assert response["Content-Language"] == "fr"
    assert chosen(response.text) == "fr"
    with translation.override("fr"):
        assert translation.gettext("Log in") in response.text


@pytest.mark.parametrize("asked", ["pt-PT,pt;q=0.9", "pt", "pt-BR"])
def test_a_portuguese_browser_reads_brazilian_portuguese(client, asked):
    response = client.get("/", headers={"Accept-Language": asked})

    assert html_lang(response.text) == "pt-br"
    with translation.override("pt-br"):
        assert translation.gettext("Log in") in response.text


def test_it_lists_each_language_in_its_own_words_and_comes_back_here(client):
    page = client.get("/dispute/?cards=4").text

    for code, name in (
        ("zh-hans", "简体中文"),
        ("en", "English"),
        ("fr", "français"),
        ("es", "español"),
        ("pt-br", "Português Brasileiro"),
    ):
        assert f'<option value="{code}" lang="{code}"' in page
        assert name in texts(page, "option")
    assert f'action="{SWITCH}"' in page
    assert '<input type="hidden" name="next" value="/dispute/?cards=4">' in page
    assert chosen(page) == "en"


def test_it_switches_without_javascript_and_returns_to_the_page(client):
    """A plain POST (the switch's button when scripts are off), then the same page in Spanish,
    whatever the browser asks for."""
    response = client.post(SWITCH, {"language": "es", "next": "/dispute/"})

    assert response.status_code == 302
    assert response["Location"] == "/dispute/"
    assert response.cookies[COOKIE].value == "es"
    page = client.get("/dispute/", headers={"Accept-Language": "fr"}).text
    assert html_lang(page) == "es"
    assert chosen(page) == "es"


def test_a_visitors_choice_is_kept_for_a_year(client):
    response = client.post(SWITCH, {"language": "pt-br", "next": "/"})

    cookie = response.cookies[COOKIE]
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert not AccountLanguage.objects.exists()


def test_it_remembers_an_accounts_choice(member, user):
    member.post(SWITCH, {"language": "pt-br", "next": "/"})
    member.post(SWITCH, {"language": "zh-hans", "next": "/"})

    assert AccountLanguage.objects.get(user=user).code == "zh-hans"
    assert html_lang(member.get("/").text) == "zh-hans"


def test_a_login_on_another_phone_brings_the_accounts_language_back(user):
    AccountLanguage.objects.create(user=user, code="zh-hans")
    phone = Client(headers={"Accept-Language": "fr"})
    assert html_lang(phone.get("/accounts/login/").text) == "fr"

    response = phone.post("/accounts/login/", {"username": "mei", "password": PASSWORD})

    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "zh-hans"
    assert html_lang(phone.get(response["Location"]).text) == "zh-hans"


def test_a_wrong_password_brings_no_language(user):
    AccountLanguage.objects.create(user=user, code="zh-hans")
    phone = Client()

    response = phone.post("/accounts/login/", {"username": "mei", "password": "not it"})

    assert response.status_code == 200
    assert COOKIE not in response.cookies


def test_a_visitors_choice_becomes_the_new_accounts(client):
    client.post(SWITCH, {"language": "fr", "next": "/"})

    client.post(
        "/accounts/signup/",
        {
            "username": "jun",
            "email": "jun@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert AccountLanguage.objects.get(user__username="jun").code == "fr"
    assert html_lang(client.get("/").text) == "fr"


def test_the_watch_link_follows_the_watchers_choice(client, start_game):
    game = start_game()
    watch = f"/watch/{game.share_token}/"
    assert html_lang(client.get(watch).text) == "en"

    response = client.post(SWITCH, {"language": "fr", "next": watch})

    assert response["Location"] == watch
    page = client.get(watch).text
    assert html_lang(page) == "fr"
    assert chosen(page) == "fr"


def test_the_dispute_pages_follow_the_choice(member, start_game):
    game = start_game()
    dispute = f"/groups/{game.group_id}/games/{game.pk}/dispute/"

    member.post(SWITCH, {"language": "es", "next": dispute})

    assert html_lang(member.get(dispute).text) == "es"
    assert html_lang(member.get("/dispute/").text) == "es"


@pytest.mark.parametrize("code", ["de", "xx", "", "fr' onload='x", "zh-hans" * 40])
def test_a_language_the_site_does_not_speak_changes_nothing(member, user, code):
    member.post(SWITCH, {"language": "fr", "next": "/"})

    response = member.post(SWITCH, {"language": code, "next": "/dispute/"})

    assert response.status_code == 302
    assert response["Location"] == "/dispute/"
    assert COOKIE not in response.cookies
    assert AccountLanguage.objects.get(user=user).code == "fr"
    assert html_lang(member.get("/dispute/").text) == "fr"


def test_it_sends_no_one_off_the_site(client):
    response = client.post(SWITCH, {"language": "es", "next": "https://evil.example/"})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert response.cookies[COOKIE].value == "es"


def test_the_switch_is_a_form_to_post(client):
    assert client.get(f"{SWITCH}?language=fr&next=/").status_code == 405


def test_the_server_error_page_offers_no_switch_it_could_not_post(rf):
    """Django renders it without the request, so without a CSRF token to post with."""
    response = server_error(rf.get("/"))

    assert response.status_code == 500
    assert "language-switch" not in response.content.decode()


def test_the_database_holds_only_the_sites_languages(user):
    with pytest.raises(IntegrityError):
        AccountLanguage.objects.create(user=user, code="de")


@pytest.mark.django_db(transaction=True)
def test_an_account_that_read_portuguese_reads_brazilian_portuguese_after_the_migration(user):
    executor = MigrationExecutor(connection)
    before = [("companion", "0022_trump_declared")]
    executor.migrate(before)
    old_language = executor.loader.project_state(before).apps.get_model(
        "companion", "AccountLanguage"
    )
    old_language.objects.create(user_id=user.pk, code="pt")

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert AccountLanguage.objects.get(user=user).code == "pt-br"
