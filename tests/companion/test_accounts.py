"""Signing up, logging in and out, and resetting a forgotten password."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.reading import text

pytestmark = pytest.mark.django_db

PASSWORD = "a long table password"  # the cast's, as in conftest.py

SIGNUP = {
    "username": "jun",
    "email": "jun@example.com",
    "password1": PASSWORD,
    "password2": PASSWORD,
}


def test_it_signs_up_logs_in_and_goes_home(client):
    response = client.post("/accounts/signup/", SIGNUP)

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert User.objects.get(username="jun").email == "jun@example.com"
    page = client.get("/").text
    assert "jun" in page
    assert "Log out" in text(page)
    assert "New group" in text(page)


def test_it_goes_on_to_the_page_that_asked_for_an_account(client, group):
    join = f"/join/{group.invite_token}/"

    response = client.post("/accounts/signup/", {**SIGNUP, "next": join})

    assert response["Location"] == join
    assert "Join Thursday Tractor?" in text(client.get(join).text)


def test_it_keeps_next_on_this_site(client):
    response = client.post("/accounts/signup/", {**SIGNUP, "next": "https://evil.example/"})

    assert response["Location"] == "/"


def test_it_names_the_problem_and_keeps_the_input(client):
    response = client.post("/accounts/signup/", {**SIGNUP, "password2": "something else"})

    assert response.status_code == 200
    assert "The two password fields didn’t match." in text(response.text)
    assert 'value="jun"' in response.text
    assert not User.objects.filter(username="jun").exists()


def test_it_refuses_a_taken_username(client, user):
    response = client.post("/accounts/signup/", {**SIGNUP, "username": "mei"})

    assert response.status_code == 200
    assert "A user with that username already exists." in text(response.text)
    assert User.objects.filter(username="mei").count() == 1


def test_it_offers_anonymous_visitors_to_sign_up_or_log_in(client):
    page = client.get("/").text

    assert 'href="/accounts/signup/"' in page
    assert 'href="/accounts/login/"' in page
    assert "Log out" not in page


def test_it_logs_in_and_out(client, user):
    assert client.get("/accounts/login/").status_code == 200

    response = client.post("/accounts/login/", {"username": "mei", "password": PASSWORD})
    assert response.status_code == 302
    assert 'action="/accounts/logout/"' in client.get("/").text

    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "Log out" not in client.get("/").text


def test_it_shows_a_wrong_password_on_the_login_form(client, user):
    response = client.post("/accounts/login/", {"username": "mei", "password": "wrong"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in text(response.text)
    assert 'value="mei"' in response.text


def test_it_resets_a_forgotten_password_by_email(client, user, mailoutbox):
    response = client.post("/accounts/password_reset/", {"email": "mei@example.com"})
    assert response.status_code == 302
    assert "Check your e-mail" in text(client.get(response["Location"]).text)

    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mailoutbox[0].body)[1]
    form_url = client.get(link)["Location"]  # Django hides the token behind a redirect
    assert "Choose a new password" in text(client.get(form_url).text)
    new_password = "another long table password"
    response = client.post(form_url, {"new_password1": new_password, "new_password2": new_password})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new_password)


def test_it_says_when_a_reset_link_is_spent(client, user):
    response = client.get("/accounts/reset/MQ/not-a-token/")

    assert response.status_code == 200
    assert "This link has expired or was already used." in text(response.text)
