from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.db import connection


@pytest.mark.django_db
def test_it_runs_on_the_database_that_database_url_names():
    expected = (
        "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    )
    User.objects.create(username="north")

    assert connection.vendor == expected
    assert User.objects.filter(username="north").exists()
