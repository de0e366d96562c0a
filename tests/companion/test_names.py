"""A name is one person or one table at the table, whatever its case: the database holds it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from companion.models import Group, Player, ScoringTable
from scoring.rules import STANDARD

pytestmark = pytest.mark.django_db


def table_called(name: str) -> dict:
    return {**STANDARD.to_json(), "name": name}


def test_it_refuses_mei_when_the_roster_has_mei_in_another_case():
    group = Group.objects.create(name="Thursday Tractor")
    Player.objects.create(group=group, name="Mei")

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(group=group, name="mEI")
    Player.objects.create(group=Group.objects.create(name="Friday"), name="mei")

    assert list(group.players.values_list("name", flat=True)) == ["Mei"]


def test_it_refuses_a_table_name_the_group_has_in_another_case():
    group = Group.objects.create(name="Thursday Tractor")
    ScoringTable.objects.create(group=group, rules_json=table_called("House"))

    with pytest.raises(IntegrityError), transaction.atomic():
        ScoringTable.objects.create(group=group, rules_json=table_called("HOUSE"))
    ScoringTable.objects.create(group=group, rules_json=table_called("Houses"))

    assert sorted(table.rules.name for table in group.scoring_tables.all()) == ["House", "Houses"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_names_that_clash_ignoring_case_and_keeps_the_first():
    executor = MigrationExecutor(connection)
    before = [("companion", "0010_confirmations")]
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    old_group = apps.get_model("companion", "Group")
    old_player = apps.get_model("companion", "Player")
    old_table = apps.get_model("companion", "ScoringTable")
    thursday = old_group.objects.create(name="Thursday", invite_token="a" * 32)
    friday = old_group.objects.create(name="Friday", invite_token="b" * 32)
    for name in ("Mei", "mei", "Jun", "MEI", "mei (2)"):
        old_player.objects.create(group=thursday, name=name)
    old_player.objects.create(group=friday, name="mei")
    long_name = "H" * 40
    for name in ("House", "house", long_name, long_name.lower()):
        old_table.objects.create(group=thursday, rules_json=table_called(name))

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    roster = Player.objects.filter(group_id=thursday.pk).order_by("pk")
    assert [player.name for player in roster] == ["Mei", "mei (3)", "Jun", "MEI (4)", "mei (2)"]
    assert Player.objects.get(group_id=friday.pk).name == "mei"
    tables = ScoringTable.objects.filter(group_id=thursday.pk).order_by("pk")
    assert [table.rules.name for table in tables] == [
        "House",
        "house (2)",
        long_name,
        "h" * 36 + " (2)",
    ]
