"""The export_group and import_group commands."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from exchange_documents import DOCUMENT, _set, document, forget_the_import, import_text

from companion import exchange
from companion.models import Group

pytestmark = pytest.mark.django_db


def test_the_commands_copy_a_group_through_a_file(tmp_path, user):
    group = forget_the_import(import_text(json.dumps(DOCUMENT), members=[user]))
    path = tmp_path / "thursday.json"

    call_command("export_group", str(group.pk), str(path))
    out = io.StringIO()
    call_command("import_group", str(path), "--name", "Copy", stdout=out)

    copy_ = Group.objects.get(name="Copy")
    assert out.getvalue().startswith(
        f"Imported Copy (group {copy_.pk}): 5 players, 1 game, 2 hands; members: mei."
    )
    again = exchange.export_group(forget_the_import(copy_))
    assert again == {**DOCUMENT, "group": {**DOCUMENT["group"], "name": "Copy"}}


def test_the_import_command_adds_a_member(tmp_path, user, outsider):
    path = tmp_path / "thursday.json"
    path.write_text(json.dumps(DOCUMENT))

    call_command("import_group", str(path), "--member", "zoe", stdout=io.StringIO())

    group = Group.objects.get()
    assert [member.username for member in group.members.order_by("pk")] == ["mei", "zoe"]


def test_the_export_command_writes_to_standard_output(user):
    group = import_text(json.dumps(DOCUMENT), members=[user])
    out = io.StringIO()

    call_command("export_group", str(group.pk), stdout=out)

    assert json.loads(out.getvalue())["games"] == DOCUMENT["games"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["export_group", "999999"], "no group has the id 999999"),
        (["import_group", "{bad}"], "{bad}: Game 1, hand 2: Jun cannot start"),
        (["import_group", "{missing}"], "cannot read {missing}: No such file or directory"),
        (["import_group", "{good}", "--member", "nobody"], "--member 'nobody': no account"),
        (
            ["import_group", "{good}", "--name", " "],
            "A group's name has 1 to 80 characters, not ''.",
        ),
    ],
    ids=["no group", "refused hand", "no file", "no account", "empty name"],
)
def test_the_commands_name_the_problem(tmp_path, user, arguments, message):
    paths = {"bad": tmp_path / "bad.json", "good": tmp_path / "good.json"}
    paths["bad"].write_text(json.dumps(_set("games.0.hands.1.declarer", "Jun")(document())))
    paths["good"].write_text(json.dumps(DOCUMENT))
    paths["missing"] = tmp_path / "missing.json"
    names = {key: str(path) for key, path in paths.items()}

    with pytest.raises(CommandError) as raised:
        call_command(*(argument.format(**names) for argument in arguments))

    assert message.format(**names) in str(raised.value)
    assert not Group.objects.exists()
