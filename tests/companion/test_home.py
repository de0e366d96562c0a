from __future__ import annotations


def test_it_links_to_scoring_a_hand(client):
    response = client.get("/")

    assert response.status_code == 200
    assert 'href="/settle/"' in response.text


def test_it_serves_bootstrap_from_the_wheel_and_htmx_from_django_htmx(client):
    page = client.get("/").text

    assert "/static/bootstrap/css/bootstrap.min.css" in page
    assert "htmx" in page
    assert "cdn" not in page.lower()
    assert client.get("/static/bootstrap/css/bootstrap.min.css").status_code == 200


def test_it_is_built_for_phones(client):
    page = client.get("/").text

    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
