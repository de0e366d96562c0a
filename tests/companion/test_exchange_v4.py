"""Version 4 of the export file: each member's role and the group's log travel with the group.
An import keeps the log as it was recorded (by the names it gives, linked to no account), makes
the importer the group's admin whatever the file says, and logs itself; files of versions 1 to
3 import the same way; a log no group could keep is refused in words."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from exchange_documents import (
    DOCUMENT,
    EIGHT_SEAT_V2,
    FOUR_SEAT_V1,
    THURSDAY,
    _set,
    forget_the_import,
    version_4,
)

from companion import exchange
from companion.models import Group, GroupChange, Membership
from tests.reading import text

pytestmark = pytest.mark.django_db

# A change as the file keeps it, for the bad files below.
RENAMED = {
    "action": "renamed",
    "at": "2025-02-01T20:00:00+00:00",
    "by_name": "Mei",
    "member_name": "",
    "player": None,
    "game": None,
    "before": "Thursday",
    "after": "Thursday Tractor",
}


@pytest.fixture
def jun(group, players) -> User:
    """Jun's account, a member of ``group`` playing as Jun; Mei's account plays as Mei."""
    jun = User.objects.create_user("jun")
    group.join(jun)
    players[1].claim(jun)
    return jun


@pytest.fixture
def steered(group, user, jun, players, start_game) -> Group:
    """Thursday Tractor after a season of changes by its admin Mei and by Jun, who was made an
    admin twice and stepped down the second time: a game with a new share link, Hao retired."""
    players[0].claim(user)
    game = start_game()
    group.rename("Friday Tractor", by=user)
    group.ask_for_confirmations(True, by=user)
    players[3].retire(by=user)
    group.make_admin(jun, by=user)
    group.make_admin(jun, False, by=user)
    group.make_admin(jun, by=user)
    group.make_admin(jun, False, by=jun)
    game.new_share_link(by=jun)
    return group


def said(change: GroupChange) -> tuple:
    return (
        change.action,
        change.by_name,
        change.member_name,
        change.player.name if change.player else None,
        change.before,
        change.after,
    )


# What the steered group's log holds, oldest first.
STEERED_LOG = [
    ("joined", "jun", "jun", None, "", ""),
    ("renamed", "Mei", "", None, "Thursday Tractor", "Friday Tractor"),
    ("confirmations_on", "Mei", "", None, "", ""),
    ("retired", "Mei", "", "Hao", "", "Hao"),
    ("made_admin", "Mei", "Jun", None, "", ""),
    ("no_longer_admin", "Mei", "Jun", None, "", ""),
    ("made_admin", "Mei", "Jun", None, "", ""),
    ("no_longer_admin", "Jun", "Jun", None, "", ""),
    ("new_share_link", "Jun", "", None, "", ""),
]


def page_text(client, group: Group) -> str:
    return text(client.get(f"/groups/{group.pk}/log/"))


def test_it_exports_each_members_role_and_the_group_log_as_recorded(steered, user, jun):
    exported = exchange.export_group(steered)

    assert exported["version"] == 5
    assert [(member["username"], member["role"]) for member in exported["members"]] == [
        ("mei", "admin"),
        ("jun", "member"),
    ]
    log = exported["log"]
    assert [
        (c["action"], c["by_name"], c["member_name"], c["player"], c["before"], c["after"])
        for c in log
    ] == STEERED_LOG
    assert [change["game"] for change in log] == [None] * 8 + [1]
    oldest = steered.changes.order_by("at", "pk").first()
    assert log[0]["at"] == exchange.isoformat(oldest.at)
    # Names as recorded, never an account: no username of a change is in the file's log.
    assert set(log[0]) == {
        "action", "at", "by_name", "member_name", "player", "game", "before", "after",
    }  # fmt: skip


def test_an_import_keeps_the_log_by_its_names_and_links_no_account(member, steered, user, jun):
    text = exchange.dumps(steered)

    copy_ = exchange.import_group(exchange.load(text), name="Copy", importer=user).group

    changes = list(copy_.changes.order_by("at", "pk"))
    assert [said(change) for change in changes] == [
        *STEERED_LOG,
        ("imported", "Mei", "", None, "", "Copy"),
    ]
    # Jun's account is here, and the importer plays with Jun: still, a change in the file
    # names whoever made it, never an account, which a file cannot vouch for.
    assert {(change.by, change.member) for change in changes[:-1]} == {(None, None)}
    assert changes[-1].by == user
    assert changes[3].player == copy_.players.get(name="Hao")
    assert changes[8].game == copy_.games.get()
    assert list(copy_.members.all()) == [user]
    assert copy_.is_admin(user)
    page = page_text(member, copy_)
    newest_first = [
        "Mei imported the group Copy from a file.",
        "Jun made a new share link for the game of Mei, Jun, Lin and Hao.",
        "Jun stepped down as admin.",
        "Mei made Jun an admin.",
        "Mei made Jun no longer an admin.",
        "Mei retired Hao.",
        "Mei renamed the group Thursday Tractor to Friday Tractor.",
        "jun joined the group.",
    ]
    positions = [page.find(sentence) for sentence in newest_first]
    assert -1 not in positions, [s for s, at in zip(newest_first, positions, strict=True) if at < 0]
    assert positions == sorted(positions)


def test_it_exports_an_import_as_the_same_file_with_the_import_logged(steered, user, jun):
    text = exchange.dumps(steered)

    copy_ = exchange.import_group(
        exchange.load(text), name="Copy", importer=user, members=[jun]
    ).group

    again = json.loads(exchange.dumps(copy_))
    assert again["log"][-1]["action"] == "imported"
    assert again["log"][:-1] == json.loads(text)["log"]
    # The importer's own line aside, the file comes back byte for byte, roles and all.
    forget_the_import(copy_)
    assert exchange.dumps(copy_) == text.replace('"name":"Friday Tractor"', '"name":"Copy"', 1)
    assert Membership.objects.get(group=copy_, user=jun).role == "member"


def test_the_importer_is_the_admin_whatever_the_file_says(member, user):
    data = copy.deepcopy(DOCUMENT)
    data["members"] = [
        {"username": "mei", "joined": THURSDAY, "role": "member"},
        {"username": "jun", "joined": THURSDAY, "role": "admin"},
    ]
    User.objects.create_user("jun")

    member.post("/groups/import/", {"file": _upload(data), "name": "Copy"})

    copy_ = Group.objects.get(name="Copy")
    assert list(copy_.membership_set.values_list("user__username", "role")) == [("mei", "admin")]
    assert "Mei imported the group Copy from a file." in page_text(member, copy_)


def test_the_import_command_keeps_the_roles_of_the_members_it_finds(tmp_path, user):
    jun = User.objects.create_user("jun")
    data = copy.deepcopy(DOCUMENT)
    data["members"].append({"username": "jun", "joined": THURSDAY, "role": "member"})
    path = tmp_path / "thursday.json"
    path.write_text(json.dumps(data))

    call_command("import_group", str(path), stdout=io.StringIO())

    group = Group.objects.get()
    assert group.is_admin(user)
    assert not group.is_admin(jun)
    assert group.changes.get().sentence() == (
        "Someone imported the group Thursday Tractor from a file."
    )


def test_an_import_without_its_admins_makes_its_earliest_member_admin(tmp_path, user):
    """As migration 0015 did: the file's admin has no account here, and the command names no
    importer."""
    jun = User.objects.create_user("jun")
    data = copy.deepcopy(DOCUMENT)
    data["members"] = [
        {"username": "ghost", "joined": "2025-01-01T18:00:00+00:00", "role": "admin"},
        {"username": "mei", "joined": "2025-01-03T18:00:00+00:00", "role": "member"},
        {"username": "jun", "joined": "2025-01-02T18:00:00+00:00", "role": "member"},
    ]
    path = tmp_path / "thursday.json"
    path.write_text(json.dumps(data))

    call_command("import_group", str(path), stdout=io.StringIO())

    group = Group.objects.get()
    assert group.admin_ids() == [jun.pk]
    assert group.members.count() == 2


# Files of versions 1 to 3.


def version_3(data: dict) -> dict:
    """A version 5 document as version 3 wrote it: no roles, no log, no evenings."""
    data = version_4(data)
    data["version"] = 3
    del data["log"]
    for member in data["members"]:
        del member["role"]
    return data


def test_a_version_3_file_reads_its_members_as_migration_0015_reads_memberships():
    data = version_3(DOCUMENT)
    data["members"] = [
        {"username": "mei", "joined": "2025-01-03T18:00:00+00:00"},
        {"username": "jun", "joined": "2025-01-02T18:00:00+00:00"},
        {"username": "lin", "joined": "2025-01-02T18:00:00+00:00"},
    ]

    head = exchange.load(json.dumps(data)).head

    assert head.roles == {"mei": "member", "jun": "admin", "lin": "member"}
    assert head.log == []


@pytest.mark.parametrize(
    ("upload", "importer"),
    [
        (lambda: FOUR_SEAT_V1.read_bytes(), "Mei"),
        (lambda: EIGHT_SEAT_V2.read_bytes(), "mei"),  # Mei's player is linked to no account
        (lambda: json.dumps(version_3(DOCUMENT)).encode(), "Mei"),
    ],
    ids=["version 1", "version 2", "version 3"],
)
def test_an_older_file_imports_with_the_importer_as_admin_and_the_import_logged(
    member, user, outsider, upload, importer
):
    file = io.BytesIO(upload())
    file.name = "old.json"

    response = member.post("/groups/import/", {"file": file, "name": "Old"}, follow=True)

    assert "Imported Old:" in text(response.text)
    group = Group.objects.get(name="Old")
    assert list(group.membership_set.values_list("user__username", "role")) == [("mei", "admin")]
    assert [change.action for change in group.changes.all()] == ["imported"]
    assert f"{importer} imported the group Old from a file." in page_text(member, group)


# Bad files: a log no group could keep, roles the file cannot have.


def _log(*entries: dict):
    def change(data: dict) -> dict:
        data["log"] = list(entries)
        return data

    return change


def _huge_log(data: dict) -> dict:
    data["log"] = [RENAMED] * 10_001
    return data


def _in_version_3(change):
    return lambda data: change(version_3(data))


BAD = [
    (
        "a log longer than any group's",
        _huge_log,
        "The file is not a group export: the group's log in it holds more than 10000 changes, "
        "far more than a group makes.",
    ),
    (
        "a name too long to be anyone's",
        _log(RENAMED, {**RENAMED, "by_name": "M" * 5000}),
        "Entry 2 of the group's log holds a text of 5000 characters, where the log's are at "
        "most 150.",
    ),
    (
        "a group's name longer than a group's",
        _log({**RENAMED, "after": "T" * 81}),
        "Entry 1 of the group's log: after is longer than 80 characters",
    ),
    (
        "a change no group makes",
        _log({**RENAMED, "action": "crowned"}),
        "Entry 1 of the group's log: action must be one of 'created', 'renamed',",
    ),
    (
        "a game the file does not have",
        _log({**RENAMED, "action": "new_share_link", "game": 2}),
        "Entry 1 of the group's log: game must be null or the number of a game of the file (it "
        "has 1 game), not 2.",
    ),
    (
        "a player off the roster",
        _log({**RENAMED, "action": "retired", "player": "Ghost"}),
        'Entry 1 of the group\'s log: player must be null or a name on the roster, not "Ghost".',
    ),
    (
        "a change without its time",
        _log({key: value for key, value in RENAMED.items() if key != "at"}),
        "Entry 1 of the group's log: The key at is missing.",
    ),
    (
        "a NUL in a name",
        _log({**RENAMED, "by_name": "Mei\x00"}),
        "Entry 1 of the group's log: by_name holds a NUL character.",
    ),
    (
        "a log that is no list",
        _set("log", {"renamed": True}),
        "log must be a list, not",
    ),
    (
        "a role no group has",
        _set("members.0.role", "owner"),
        "Member 1: role must be one of 'admin', 'member', not \"owner\".",
    ),
    ("no role", _set("members.0.role", KeyError), "Member 1: The key role is missing."),
    (
        "no log",
        _set("log", KeyError),
        "The key log is missing.",
    ),
    (
        "a version 3 file with a log",
        _in_version_3(_set("log", [])),
        "log is not a key this server knows.",
    ),
    (
        "a version 3 file with a role",
        _in_version_3(_set("members.0.role", "admin")),
        "Member 1: role is not a key this server knows.",
    ),
]


@pytest.mark.parametrize(("problem", "change", "message"), BAD, ids=[case[0] for case in BAD])
def test_it_names_what_is_wrong_with_a_files_log_or_roles(problem, change, message):
    text = json.dumps(change(copy.deepcopy(DOCUMENT)))

    with pytest.raises(exchange.ExchangeError) as raised:
        exchange.load(text)

    assert message in str(raised.value)


def test_a_huge_log_is_refused_before_the_files_head_is_built(monkeypatch):
    def built(*args, **kwargs):
        raise AssertionError("the head was built")

    monkeypatch.setattr(exchange.reading.ExportHead, "model_validate", built)
    text = json.dumps(_huge_log(copy.deepcopy(DOCUMENT)))

    with pytest.raises(exchange.ExchangeError, match="more than 10000 changes"):
        exchange.read(text)


def test_the_import_page_names_what_is_wrong_with_the_log(member, group):
    data = _log({**RENAMED, "action": "new_share_link", "game": 2})(copy.deepcopy(DOCUMENT))

    response = member.post("/groups/import/", {"file": _upload(data), "name": "Copy"}, follow=True)

    assert "Entry 1 of the group's log: game must be null" in text(response)
    assert list(Group.objects.all()) == [group]


def _upload(data: object) -> io.BytesIO:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "thursday-tractor.json"
    return upload
