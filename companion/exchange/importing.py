"""Writing an export as a new group, a few dozen games to a transaction so that no other
writer waits long for the database, and invisible until it is whole: the group has no member
(nobody can open it) until its last games are in, and it is removed if any part fails."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import DatabaseError, OperationalError, connections, models, router, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.exchange.errors import ExchangeError
from companion.exchange.evenings import EveningEntry
from companion.exchange.games import GameEntry
from companion.exchange.reading import GroupExport
from companion.exchange.schema import ExportHead
from companion.models import (
    Dispute,
    Evening,
    EveningTable,
    Game,
    GameSummary,
    Group,
    GroupChange,
    Hand,
    HandChange,
    Membership,
    Player,
    Presence,
    Round,
    ScoringTable,
    Seat,
    count_ladder,
)

GAMES_PER_TRANSACTION = 5
"""About a twentieth of a second of writing on SQLite, a quarter on a busy machine
(`benchmarks/bench_exchange.py`: 25 games made a hand save wait 2.1 s there, and 10 games 1.46 s
on a machine shared with other work); another writer waits for one such transaction at most."""
EVENINGS_PER_TRANSACTION = 20
"""A few hundred rounds and tables: about as much writing as a transaction of games."""
SQLITE_TRIES = 40
"""Times an import's transaction waits for SQLite (each up to its timeout) before giving up."""
SQLITE_TURN = 0.15
"""Seconds between two transactions on SQLite, whose waiting writers look again only every
100 ms: without the pause the import takes the database back before they look."""


@dataclass(frozen=True)
class Imported:
    """A new group made from an export, and the usernames in the file that matched no account
    (their links were left empty)."""

    group: Group
    missing: tuple[str, ...]


def import_group(
    export: GroupExport,
    *,
    name: str | None = None,
    members: Iterable = (),
    importer=None,
    accounts: models.QuerySet | None = None,
    progress: Callable[[Group, int], None] | None = None,
    whole: Callable[[Group, tuple[str, ...]], None] | None = None,
) -> Imported:
    """Make a new group from an export file whose head is checked, reading and checking its
    games as they are written: whole, or not at all (ExchangeError names the first problem).

    ``members`` become the group's members: a member named in the file keeps its joining time
    and its role, the others are admins; ``importer``, a member too, is an admin whatever the
    file says, and the import is logged as theirs (as nobody's without one). A group left
    without an admin makes its earliest member one, as migration ``0015_group_roles`` did. The
    file's log is kept as it was recorded, by the names it gives, linked to no account.
    Usernames in the file link to accounts among ``accounts`` (default: every account); the
    others are left empty and listed in ``Imported.missing``. ``progress(group, games)``
    is called inside each transaction, with the games written so far (0 as the group is made),
    and ``whole(group, missing)`` inside the one that makes the group whole and visible.
    """
    name = export.name if name is None else " ".join(name.split())
    longest = Group._meta.get_field("name").max_length
    if not name or len(name) > longest:
        raise ExchangeError(
            # Translators: %(name)s is the name given, quoted.
            _("A group's name has 1 to %(longest)s characters, not %(name)s.")
            % {"longest": longest, "name": repr(name)}
        )
    users = get_user_model().objects.all() if accounts is None else accounts
    head = export.head
    found = {user.username: user for user in users.filter(username__in=head.usernames)}
    members = list(dict.fromkeys([importer, *members] if importer is not None else members))
    group = None
    done = 0
    try:
        with transaction.atomic():
            group = Group.objects.create(
                name=name,
                created=head.created,
                hands_need_confirmation=head.group.hands_need_confirmation,
            )
            players = _roster(group, head, found)
            if progress:
                progress(group, done)
        for batch in export.batches(GAMES_PER_TRANSACTION):
            named = set().union(*(entry.usernames for entry in batch)) - found.keys()
            found.update((user.username, user) for user in users.filter(username__in=named))
            _make_way()

            def write(batch: list[GameEntry] = batch, written: int = done + len(batch)) -> None:
                _games(group, batch, players, found)
                if progress:
                    progress(group, written)

            _in_turn(write)
            done += len(batch)
            del batch, write
        named = head.usernames - found.keys()
        found.update((user.username, user) for user in users.filter(username__in=named))
        games = list(group.games.order_by("pk").values_list("pk", flat=True))
        for start in range(0, len(head.evenings), EVENINGS_PER_TRANSACTION):
            _make_way()
            _in_turn(
                lambda start=start: _evenings(
                    group,
                    head.evenings[start : start + EVENINGS_PER_TRANSACTION],
                    players,
                    games,
                    found,
                )
            )
        missing = tuple(sorted(export.usernames - set(found)))
        # The ladder is counted once, whole, before anyone can see the group, outside any
        # transaction (on SQLite one holds every other writer), then written a part at a time.
        for write in count_ladder(group.pk):
            _make_way()
            _in_turn(write)

        def become_whole() -> None:
            # Here the group becomes whole and visible: until its members join, nobody can open it.
            _members(group, head, members, importer)
            _log(group, head, players)
            group.log(GroupChange.Action.IMPORTED, by=importer, after=group.name)
            if whole:
                whole(group, missing)

        _make_way()
        _in_turn(become_whole)
    except BaseException as error:  # interrupted too: a part of a group is never left
        if group is not None:
            remove(group)
        if isinstance(error, DatabaseError):
            # Everything was checked before writing; this is a last guard, not a path.
            raise ExchangeError(
                # Translators: %(error)s is the database's own message, in English.
                _("The database refused the import: %(error)s") % {"error": error}
            ) from error
        raise
    group.refresh_from_db()
    return Imported(group, missing)


def known_accounts(user) -> models.QuerySet:
    """The accounts an import may link to: the importer's own, and those of the people in the
    importer's groups. A file cannot credit a hand to a stranger."""
    shared = Q(tractor_groups__in=Group.objects.for_member(user))
    return get_user_model().objects.filter(Q(pk=user.pk) | shared).distinct()


def _roster(group: Group, export: ExportHead, found: dict) -> dict[str, Player]:
    """The players and scoring tables; the players by name."""
    players = Player.objects.bulk_create(
        Player(group=group, name=player.name, user=found.get(player.user), retired=player.retired)
        for player in export.players
    )
    tables = ScoringTable.objects.bulk_create(
        ScoringTable(group=group, rules_json=table.rules) for table in export.scoring_tables
    )
    _restamp(tables, [table.updated for table in export.scoring_tables])
    return {player.name: player for player in players}


def _members(group: Group, head: ExportHead, members: list, importer) -> None:
    """The members with their roles (see :func:`import_group`)."""
    now = timezone.now()
    joined, roles = head.joined, head.roles
    memberships = [
        Membership(
            group=group,
            user=user,
            joined=joined.get(user.username, now),
            role=Membership.Role.ADMIN
            if user == importer
            else roles.get(user.username, Membership.Role.ADMIN),
        )
        for user in members
    ]
    if memberships and not any(membership.is_admin for membership in memberships):
        earliest = min(memberships, key=lambda membership: membership.joined)
        earliest.role = Membership.Role.ADMIN
    Membership.objects.bulk_create(memberships)


def _log(group: Group, head: ExportHead, players: dict[str, Player]) -> None:
    """The file's log as it was recorded: names, never accounts (the file's accounts may be
    nobody's here, or someone else's); its players and games, the new group's (its games were
    written in the file's order)."""
    games = []
    if any(entry.game is not None for entry in head.log):
        games = list(group.games.order_by("pk").values_list("pk", flat=True))
    GroupChange.objects.bulk_create(
        GroupChange(
            group=group,
            action=entry.action,
            at=entry.at,
            by_name=entry.by_name,
            member_name=entry.member_name,
            player=players.get(entry.player),
            game_id=games[entry.game - 1] if entry.game is not None else None,
            before=entry.before,
            after=entry.after,
        )
        for entry in head.log
    )


def _games(group: Group, entries: list[GameEntry], players: dict, found: dict) -> None:
    """Some of the file's games with their seats, hands, history and precedents; the ladder's
    summaries of them, from `scoring`'s replays that checked them, and the group's version."""
    games = Game.objects.bulk_create(
        Game(
            group=group,
            rules_json=entry.rules,
            decks=entry.table.decks,
            teams=entry.table.teams.value,
            trumps=entry.table.trumps.to_json(),
            called=entry.table.called,
            first_declarer=entry.first_seat,
            created=entry.created,
            created_by=found.get(entry.created_by),
            version=len(entry.changes),
        )
        for entry in entries
    )
    pairs = list(zip(games, entries, strict=True))
    for game, entry in pairs:
        game.seated = [
            Seat(game=game, position=position, player=players[seat.player], level=seat.level)
            for position, seat in enumerate(entry.seats)
        ]
    Seat.objects.bulk_create(seat for game in games for seat in game.seated)
    hands = Hand.objects.bulk_create(
        Hand(
            game=game,
            number=number,
            **hand.fields(entry),
            **{key: found.get(username) for key, username in hand.accounts.items()},
        )
        for game, entry in pairs
        for number, hand in enumerate(entry.hands, start=1)
    )
    _restamp(hands, [hand.updated for _, entry in pairs for hand in entry.hands])
    HandChange.objects.bulk_create(
        HandChange(game=game, **{**change.fields(entry), "by": found.get(change.by)})
        for game, entry in pairs
        for change in entry.changes
    )
    numbered = {(hand.game_id, hand.number): hand for hand in hands}
    Dispute.objects.bulk_create(
        Dispute(
            game=game,
            hand=numbered.get((game.pk, dispute.hand)),
            hand_number=dispute.hand_number,
            request=dispute.request,
            verdict=dispute.verdict,
            created_by=found.get(dispute.created_by),
            created=dispute.created,
        )
        for game, entry in pairs
        for dispute in entry.disputes
    )
    GameSummary.bring_up_to_date(games, [entry.scored for entry in entries], ladder=False)


def _evenings(
    group: Group,
    entries: list[EveningEntry],
    players: dict[str, Player],
    games: list[int],
    found: dict,
) -> None:
    """Some of the file's evenings with their lists of players and rounds, each table linked
    to its game (``games``: the new group's, in the file's order). Each evening gets a room
    screen link of its own, as each game gets a share link of its own."""
    evenings = Evening.objects.bulk_create(
        Evening(
            group=group,
            created=entry.created,
            created_by=found.get(entry.created_by),
            ended=entry.ended,
            seed=entry.seed,
            seating=entry.seating,
            leftover=entry.leftover,
            players_per_table=entry.players_per_table,
            rules_json=entry.rules,
            decks=entry.decks,
            teams=entry.teams,
            trumps=entry.trumps,
            called=entry.called,
            hands_per_round=entry.hands_per_round,
            minutes_per_round=entry.minutes_per_round,
        )
        for entry in entries
    )
    pairs = list(zip(evenings, entries, strict=True))
    Presence.objects.bulk_create(
        Presence(evening=evening, player=players[presence.player], present=presence.present)
        for evening, entry in pairs
        for presence in entry.presences
    )
    rounds = Round.objects.bulk_create(
        Round(
            evening=evening,
            number=played.number,
            tables=[[players[name].pk for name in table.players] for table in played.tables],
            sitting_out=[players[name].pk for name in played.sitting_out],
            started=played.started,
            ended=played.ended,
        )
        for evening, entry in pairs
        for played in entry.rounds
    )
    played = [played for _, entry in pairs for played in entry.rounds]
    EveningTable.objects.bulk_create(
        EveningTable(round=made, game_id=games[table.game - 1], number=number, ended=table.ended)
        for made, entry in zip(rounds, played, strict=True)
        for number, table in enumerate(entry.tables, start=1)
        if table.game is not None
    )


def _restamp(rows: list[Hand] | list[ScoringTable], times: list[datetime]) -> None:
    """Put the file's times back into ``updated``, which every save stamps with the present
    moment (``auto_now``), the import's too: one ``executemany``, where ``bulk_update`` builds a
    CASE of every row and takes seconds."""
    if not rows:
        return
    model = type(rows[0])
    field = model._meta.get_field("updated")
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET {quote(field.column)} = %s "
        f"WHERE {quote(model._meta.pk.column)} = %s"
    )
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                (field.get_db_prep_save(moment, connection), row.pk)
                for row, moment in zip(rows, times, strict=True)
            ],
        )
    for row, moment in zip(rows, times, strict=True):
        row.updated = moment


def _in_turn(write: Callable[[], None]) -> None:
    """Run ``write`` in a transaction of its own, in its turn: on SQLite a table saving hand
    after hand can hold the database longer than one wait, and an import, unlike a save, can
    wait again (PostgreSQL makes writers of other groups wait for nothing)."""
    connection = connections[router.db_for_write(Game)]
    for attempt in range(SQLITE_TRIES):
        try:
            with transaction.atomic():
                write()
            return
        except OperationalError as error:
            retry = connection.vendor == "sqlite" and "locked" in str(error)
            if not retry or connection.in_atomic_block or attempt == SQLITE_TRIES - 1:
                raise
            time.sleep(SQLITE_TURN)


def _make_way() -> None:
    """Give a writer waiting for SQLite its turn (PostgreSQL lets writers of other groups work
    side by side; inside a caller's transaction, nobody could take a turn)."""
    connection = connections[router.db_for_write(Game)]
    if connection.vendor == "sqlite" and not connection.in_atomic_block:
        time.sleep(SQLITE_TURN)


def remove(group: Group) -> None:
    """Take a group that failed to import away again, a few games at a time."""
    games = list(group.games.values_list("pk", flat=True))
    for start in range(0, len(games), GAMES_PER_TRANSACTION):
        Game.objects.filter(pk__in=games[start : start + GAMES_PER_TRANSACTION]).delete()
    group.delete()
