"""The group's data. Models are glue: they store what the table entered and ask `scoring` what
it means; no game rule is computed here."""

from __future__ import annotations

import enum
import functools
import hashlib
import json
import secrets
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from datetime import UTC, datetime
from operator import attrgetter

from django.apps import apps as global_apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.db.models.fields.json import KT
from django.db.models.functions import Length, Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import scoring
from companion import display
from companion.ladder import ALL_TIME, Tally, TallyKey, moved, periods, whole
from companion.ratings import RatingPoint, rate_game, replay_ratings
from scoring.game import Game as ScoredGame
from scoring.game import GameSetup, HandResult, declaring_side, replay
from scoring.stats import (
    GameLine,
    GameRecord,
    HandLine,
    PlayerStats,
    every_player_stats,
    game_stats,
    partial_replay,
)
from scoring.table import BY_BID, MAX_PLAYERS, MIN_PLAYERS, Table, Teams, TrumpRule


def new_token() -> str:
    return secrets.token_urlsafe(16)


def isoformat(moment: datetime) -> str:
    """A timestamp as the export file writes it: ISO 8601 in UTC, to the microsecond it holds."""
    return moment.astimezone(UTC).isoformat()


def _isoformat_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else isoformat(moment)


def _username(user) -> str | None:
    return None if user is None else user.username


def _named(snapshot: dict | None, names: list[str]) -> dict | None:
    """A hand's fields as the export writes them, in the hands and in their history: its
    declarer and friends by name instead of seat."""
    if snapshot is None:
        return None
    named = dict(snapshot)
    if "declarer" in named:
        named["declarer"] = names[named["declarer"]]
    if "friends" in named:
        named["friends"] = [names[seat] for seat in named["friends"]]
    return named


class Group(models.Model):
    """A group that plays together ("Thursday Tractor"); its members record and edit."""

    name = models.CharField(_("name"), max_length=80)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="tractor_groups"
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now)
    # Raised by every change to the group's games (which also makes one group's ladder changes
    # wait for each other).
    version = models.PositiveBigIntegerField(default=0)
    # Second-seat confirmation: a hand entered while this is on counts once an opponent (another
    # account than the one that entered it) confirms it on their own phone.
    hands_need_confirmation = models.BooleanField(
        _("each hand needs an opponent's confirmation"), default=False
    )
    # Re-ratings asked for by changes to earlier games, and the last one done (a task): the
    # ratings shown are those of before while they differ.
    ratings_asked = models.PositiveIntegerField(default=0)
    ratings_done = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ratings_done__lte=models.F("ratings_asked")),
                name="ratings_done_as_asked",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("group", args=[self.pk])

    def to_export(self) -> dict:
        """The group's own part of its export file (`companion.exchange`)."""
        return {
            "name": self.name,
            "created": isoformat(self.created),
            "hands_need_confirmation": self.hands_need_confirmation,
        }

    @property
    def ratings_pending(self) -> bool:
        """Whether the ratings are being replayed after a change to an earlier game."""
        return self.ratings_done != self.ratings_asked

    @classmethod
    def ask_for_ratings(cls, group_id: int) -> None:
        """Ask for the group's ratings to be replayed (:meth:`PlayerLadder.rerate`) once the
        caller's transaction commits: one task, however many changes ask."""
        from companion.tasks import rerate  # the task runs the models' code

        cls.objects.filter(pk=group_id).update(ratings_asked=models.F("ratings_asked") + 1)
        waiting = transaction.get_connection().run_on_commit
        if any(
            getattr(callback, "rerates", None) == group_id and not callback.done
            for _savepoints, callback, _robust in waiting
        ):
            return

        def enqueue() -> None:
            enqueue.done = True
            rerate.enqueue(group_id)

        enqueue.rerates, enqueue.done = group_id, False
        transaction.on_commit(enqueue)

    @classmethod
    def found(cls, name: str, *, by) -> Group:
        """A new group named ``name``, with ``by``, who made it, as its first admin."""
        with transaction.atomic():
            group = cls.objects.create(name=name)
            group.add_admin(by)
            group.log(GroupChange.Action.CREATED, by=by, after=name)
        return group

    def add_admin(self, user, *, joined: datetime | None = None) -> None:
        """Make ``user`` an admin of the group, joining it (``joined``, default now) if they
        were not a member: who made the group."""
        Membership.objects.update_or_create(
            group=self,
            user=user,
            defaults={"role": Membership.Role.ADMIN},
            create_defaults={"role": Membership.Role.ADMIN, "joined": joined or timezone.now()},
        )

    def is_admin(self, user) -> bool:
        return self.membership_set.filter(user=user, role=Membership.Role.ADMIN).exists()

    def admin_ids(self) -> list[int]:
        return list(
            self.membership_set.filter(role=Membership.Role.ADMIN)
            .order_by("joined", "pk")
            .values_list("user_id", flat=True)
        )

    def names_at_the_table(self, user_ids: Iterable[int | None]) -> dict[int, str]:
        """Accounts as the group knows them: their player's name on its roster, else their
        username (former members too)."""
        ids = {pk for pk in user_ids if pk is not None}
        User = get_user_model()
        names = dict(User.objects.filter(pk__in=ids).values_list("pk", "username"))
        names |= dict(self.players.filter(user__in=ids).values_list("user_id", "name"))
        return names

    def log(self, action: GroupChange.Action, *, by=None, member=None, **details) -> GroupChange:
        """Keep a change to the group's settings, members, roles or links in its log, naming
        who made it and whom it was about as the table knew them then."""
        by = by if by is not None and by.is_authenticated else None
        names = self.names_at_the_table([getattr(by, "pk", None), getattr(member, "pk", None)])
        return GroupChange.objects.create(
            group=self,
            action=action,
            by=by,
            by_name=names.get(getattr(by, "pk", None), ""),
            member=member,
            member_name=names.get(getattr(member, "pk", None), ""),
            **details,
        )

    def rename(self, name: str, *, by=None) -> None:
        with transaction.atomic():
            before = Group.objects.values_list("name", flat=True).get(pk=self.pk)
            if name == before:
                return
            self.name = name
            self.save(update_fields=["name"])
            self.log(GroupChange.Action.RENAMED, by=by, before=before, after=name)

    def new_invite(self, *, by=None) -> None:
        """Replace the invite link: the old one stops letting anyone in."""
        with transaction.atomic():
            self.invite_token = new_token()
            self.save(update_fields=["invite_token"])
            self.log(GroupChange.Action.NEW_INVITE, by=by)

    def join(self, user) -> bool:
        """Let ``user`` in by the invite link; False if they were a member already."""
        with transaction.atomic():
            _membership, joined = Membership.objects.get_or_create(group=self, user=user)
            if joined:
                self.log(GroupChange.Action.JOINED, by=user, member=user)
        return joined

    def remove_member(self, user, *, by=None) -> bool:
        """Take ``user`` out of the group, leaving (``by`` themselves) or removed by an admin;
        False if they were not a member. Their player stays on the roster with all their games,
        no longer linked to an account that cannot see them. The last member cannot go
        (LastMember): nobody could ever open the group again; nor the last admin while others
        remain (LastAdmin): nobody could steer it.
        """
        with transaction.atomic():
            # Two members leaving at once must not both find someone else still there.
            Group.objects.select_for_update().get(pk=self.pk)
            memberships = Membership.objects.filter(group=self)
            leaving = memberships.filter(user=user).first()
            if leaving is None:
                return False
            if memberships.count() == 1:
                raise LastMember(self)
            if leaving.is_admin and not memberships.filter(role=Membership.Role.ADMIN).exclude(
                pk=leaving.pk
            ):
                raise LastAdmin(self)
            # Logged first, while their player still names them.
            left = by is None or by == user
            action = GroupChange.Action.LEFT if left else GroupChange.Action.REMOVED
            self.log(action, by=user if left else by, member=user)
            leaving.delete()
            self.players.filter(user=user).update(user=None)
        return True

    def make_admin(self, user, admin: bool = True, *, by=None) -> bool:
        """Make the member ``user`` an admin, or (``admin=False``) no longer one; False if they
        are not a member or already were so. The last admin cannot step down (LastAdmin)."""
        role = Membership.Role.ADMIN if admin else Membership.Role.MEMBER
        with transaction.atomic():
            # Two admins stepping down at once must not both find the other still there.
            Group.objects.select_for_update().get(pk=self.pk)
            memberships = Membership.objects.filter(group=self)
            membership = memberships.filter(user=user).first()
            if membership is None or membership.role == role:
                return False
            admins = memberships.filter(role=Membership.Role.ADMIN)
            if not admin and not admins.exclude(pk=membership.pk).exists():
                raise LastAdmin(self)
            membership.role = role
            membership.save(update_fields=["role"])
            action = GroupChange.Action.MADE_ADMIN if admin else GroupChange.Action.NO_LONGER_ADMIN
            self.log(action, by=by, member=user)
        return True

    def keep_table(
        self, table: ScoringTable | None, rules: scoring.Rules, *, by=None
    ) -> ScoringTable:
        """Add a scoring table of ``rules`` (``table`` None), or change ``table`` to them."""
        with transaction.atomic():
            if table is None:
                table, action, before = ScoringTable(group=self), GroupChange.Action.TABLE_ADDED, ""
            else:
                action, before = GroupChange.Action.TABLE_CHANGED, table.rules.name
            table.rules_json = rules.to_json()
            table.save()
            renamed = before if before != rules.name else ""
            self.log(action, by=by, before=renamed, after=rules.name)
        return table

    def ask_for_confirmations(self, asked: bool, *, by=None) -> None:
        """Turn second-seat confirmation on or off. Hands entered while it was off never need
        one; those waiting for one count as soon as it is off (and wait again if it is turned
        back on), so the games holding them change: watchers and the ladder see it."""
        if asked == self.hands_need_confirmation:
            return
        with transaction.atomic():
            self.hands_need_confirmation = asked
            self.save(update_fields=["hands_need_confirmation"])
            action = (
                GroupChange.Action.CONFIRMATIONS_ON
                if asked
                else GroupChange.Action.CONFIRMATIONS_OFF
            )
            self.log(action, by=by)
            waiting = Hand.objects.filter(
                game__group=self, needs_confirmation=True, confirmed_at=None
            )
            changed = Game.objects.filter(pk__in=list(waiting.values_list("game_id", flat=True)))
            if changed.update(version=models.F("version") + 1):
                GameSummary.bring_up_to_date(list(changed))
        self.refresh_from_db(fields=["version"])

    def unconfirmed_games(self) -> set[int]:
        """The ids of the group's games with a hand still waiting for its confirmation (one
        query; none while the group does not ask for confirmations): they do not count yet."""
        if not self.hands_need_confirmation:
            return set()
        waiting = Hand.objects.filter(game__group=self, needs_confirmation=True, confirmed_at=None)
        return set(waiting.values_list("game_id", flat=True).distinct())


class LastMember(Exception):
    """The group's last member asked to leave it."""

    def __init__(self, group: Group) -> None:
        super().__init__(f"the last member of {group} cannot leave it")
        self.group = group


class LastAdmin(Exception):
    """The group's last admin asked to leave it, or to step down, while others remain."""

    def __init__(self, group: Group) -> None:
        super().__init__(f"the last admin of {group} cannot leave it or step down")
        self.group = group


class Membership(models.Model):
    class Role(models.TextChoices):
        # Admins steer the group: its name, settings, tables, links, members and roles.
        ADMIN = "admin", pgettext_lazy("a member's role in a group", "admin")
        MEMBER = "member", pgettext_lazy("a member's role in a group", "member")

    group = models.ForeignKey(Group, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    joined = models.DateTimeField(default=timezone.now)
    role = models.CharField(max_length=6, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_group"),
            models.CheckConstraint(
                condition=models.Q(role__in=["admin", "member"]), name="membership_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.group}"

    @property
    def is_admin(self) -> bool:
        return self.role == self.Role.ADMIN

    def to_export(self) -> dict:
        return {"username": self.user.username, "joined": isoformat(self.joined), "role": self.role}


class AccountLanguage(models.Model):
    """The language an account chose with the switch at the foot of every page: logging in on
    another phone brings it back (companion/languages.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    code = models.CharField(max_length=7)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(code__in=[code for code, _name in settings.LANGUAGES]),
                name="a_language_the_site_speaks",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} reads {self.code}"

    @classmethod
    def remember(cls, user, code: str) -> None:
        cls.objects.update_or_create(user=user, defaults={"code": code})

    @classmethod
    def on_login(cls, user, visitor_code: str | None) -> str | None:
        """The account's language, to speak from this login on; None to go on as the visitor
        did. A visitor's choice made before the account had one becomes the account's."""
        if visitor_code in dict(settings.LANGUAGES):
            saved, made = cls.objects.get_or_create(user=user, defaults={"code": visitor_code})
            return None if made else saved.code
        return cls.objects.filter(user=user).values_list("code", flat=True).first()


class GroupAction(models.TextChoices):
    """What a change to a group did (its log, GroupChange); the log says it in sentences."""

    CREATED = "created"
    RENAMED = "renamed"
    CONFIRMATIONS_ON = "confirmations_on"
    CONFIRMATIONS_OFF = "confirmations_off"
    TABLE_ADDED = "table_added"
    TABLE_CHANGED = "table_changed"
    NEW_INVITE = "new_invite"
    NEW_SHARE_LINK = "new_share_link"
    JOINED = "joined"
    LEFT = "left"
    REMOVED = "removed"
    MADE_ADMIN = "made_admin"
    NO_LONGER_ADMIN = "no_longer_admin"
    RETIRED = "retired"
    BROUGHT_BACK = "brought_back"
    IMPORTED = "imported"


class GroupChange(models.Model):
    """The group's log: every change to its settings, members, roles and links, who made it and
    when, as the hands' history keeps every change to a game."""

    Action = GroupAction

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="changes")
    action = models.CharField(max_length=20, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    # Whom or what the change was about, where it was about a member, a player or a game.
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey("Player", null=True, on_delete=models.SET_NULL, related_name="+")
    game = models.ForeignKey("Game", null=True, on_delete=models.SET_NULL, related_name="+")
    # Names as they were: who made the change and whom it was about (their player's name, else
    # their username), the group's old and new name, a scoring table's, a player's.
    by_name = models.CharField(max_length=150, blank=True)
    member_name = models.CharField(max_length=150, blank=True)
    before = models.CharField(max_length=80, blank=True)
    after = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action__in=GroupAction.values),
                name="group_change_action_known",
            )
        ]

    def __str__(self) -> str:
        return f"{self.group}: {self.action}"

    def to_export(self, games: dict[int, int]) -> dict:
        """The change as the export file keeps it (`companion.exchange`): the names recorded,
        never an account; its player by name and its game by its number in the file, from
        ``games`` (the group's game ids to their numbers)."""
        return {
            "action": self.action,
            "at": isoformat(self.at),
            "by_name": self.by_name,
            "member_name": self.member_name,
            "player": self.player.name if self.player is not None else None,
            "game": games.get(self.game_id),
            "before": self.before,
            "after": self.after,
        }

    def sentence(self) -> str:
        """The change as the log says it, in the reader's language."""
        who = self.by_name or gettext("Someone")
        member = self.member_name or gettext("someone")
        player = self.player.name if self.player is not None else self.after
        Action = GroupAction
        # The same account by its id, or by its recorded name where no account is linked (an
        # imported log, or accounts since deleted).
        stepped_down = self.by_id == self.member_id and self.by_name == self.member_name
        if self.action == Action.NO_LONGER_ADMIN and stepped_down:
            return gettext("%(who)s stepped down as admin.") % {"who": who}
        if self.action == Action.TABLE_CHANGED and self.before:
            said = gettext("%(who)s changed the scoring table %(before)s, now named %(after)s.")
            return said % {"who": who, "before": self.before, "after": self.after}
        if self.action == Action.NEW_SHARE_LINK and self.game is not None:
            said = gettext("%(who)s made a new share link for the game of %(players)s.")
            return said % {"who": who, "players": display.joined(self.game.players)}
        said = {
            Action.CREATED: gettext("%(who)s made the group %(after)s."),
            Action.RENAMED: gettext("%(who)s renamed the group %(before)s to %(after)s."),
            Action.CONFIRMATIONS_ON: gettext(
                "%(who)s asked for each hand to be confirmed by an opponent."
            ),
            Action.CONFIRMATIONS_OFF: gettext(
                "%(who)s stopped asking for hands to be confirmed: each counts as it is entered."
            ),
            Action.TABLE_ADDED: gettext("%(who)s added the scoring table %(after)s."),
            Action.TABLE_CHANGED: gettext("%(who)s changed the scoring table %(after)s."),
            Action.NEW_INVITE: gettext(
                "%(who)s made a new invite link: the old one no longer works."
            ),
            Action.NEW_SHARE_LINK: gettext("%(who)s made a new share link for a game."),
            Action.JOINED: gettext("%(member)s joined the group."),
            Action.LEFT: gettext("%(member)s left the group."),
            Action.REMOVED: gettext("%(who)s removed %(member)s from the group."),
            Action.MADE_ADMIN: gettext("%(who)s made %(member)s an admin."),
            Action.NO_LONGER_ADMIN: gettext("%(who)s made %(member)s no longer an admin."),
            Action.RETIRED: gettext("%(who)s retired %(player)s."),
            Action.BROUGHT_BACK: gettext("%(who)s brought %(player)s back to the roster."),
            Action.IMPORTED: gettext("%(who)s imported the group %(after)s from a file."),
        }[self.action]
        return said % {
            "who": who,
            "member": member,
            "player": player,
            "before": self.before,
            "after": self.after,
        }


class Player(models.Model):
    """Someone on the group's roster; most never log in, so a player is not an account."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # A retired player keeps their games and history but is no longer offered for new games.
    retired = models.BooleanField(_("retired"), default=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            # Mei and mei are one person at the table: names are unique ignoring case.
            models.UniqueConstraint(
                models.F("group"),
                Lower("name"),
                name="unique_player_name_in_group",
                violation_error_message=_("Another player on the roster already has this name."),
            ),
            models.UniqueConstraint(
                fields=["group", "user"],
                condition=models.Q(user__isnull=False),
                name="one_player_per_account_in_group",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def to_export(self) -> dict:
        return {"name": self.name, "user": _username(self.user), "retired": self.retired}

    def claim(self, user) -> bool:
        """Make the player ``user``'s own (and no other player of the group); False if another
        account holds them, even one that claimed them a moment ago."""
        try:
            with transaction.atomic():
                self.group.players.filter(user=user).exclude(pk=self.pk).update(user=None)
                # Set only while nobody else holds the row: of two claims at once, one wins.
                free = Player.objects.filter(models.Q(user=None) | models.Q(user=user), pk=self.pk)
                if not free.update(user=user):
                    transaction.set_rollback(True)
                    return False
        except IntegrityError:  # the same account claiming two players at once
            return False
        self.user = user
        return True

    def retire(self, retired: bool = True, *, by=None) -> None:
        """Retire the player, or bring them back with ``retired=False``."""
        with transaction.atomic():
            self.retired = retired
            self.save(update_fields=["retired"])
            action = GroupChange.Action.RETIRED if retired else GroupChange.Action.BROUGHT_BACK
            self.group.log(action, by=by, player=self, after=self.name)


class ScoringTable(models.Model):
    """A group's own rules: its point bands, kitty rule and game end, as `scoring` JSON."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="scoring_tables")
    rules_json = models.JSONField()
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rules_json__name"]
        constraints = [
            # A game names its table by the name inside the rules: one table per name, any case.
            models.UniqueConstraint(
                models.F("group"),
                Lower(KT("rules_json__name")),
                name="unique_table_name_in_group",
                violation_error_message=_("The group already has a table with this name."),
            ),
        ]

    def __str__(self) -> str:
        return self.rules.name

    def to_export(self) -> dict:
        return {"rules": self.rules_json, "updated": isoformat(self.updated)}

    @property
    def rules(self) -> scoring.Rules:
        return scoring.get_rules(self.rules_json)


def trumps_by_bid() -> str:
    return BY_BID.to_json()


class Game(models.Model):
    """One game at the table: its seats in play order, the exact rules and table it is played
    under, its hands.

    ``version`` goes up with every change, so that watching phones can ask "anything new?"
    cheaply and two people saving at once cannot both win.
    """

    class TeamsChoice(models.TextChoices):
        PARTNERS = Teams.PARTNERS.value, _("Partners")
        PAIRS = Teams.PAIRS.value, _("Pairs")
        FIND_A_FRIEND = Teams.FIND_A_FRIEND.value, _("Find a friend")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    rules_json = models.JSONField()
    decks = models.PositiveSmallIntegerField(default=2)
    teams = models.CharField(
        max_length=16, choices=TeamsChoice.choices, default=TeamsChoice.PARTNERS
    )
    # "bid", "no-trump", or a list of suits in rotation: scoring.TrumpRule's JSON form.
    trumps = models.JSONField(default=trumps_by_bid)
    called = models.PositiveSmallIntegerField(null=True, blank=True)
    first_declarer = models.PositiveSmallIntegerField(null=True, blank=True)
    share_token = models.CharField(max_length=32, unique=True, default=new_token)
    version = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(decks__gte=2, decks__lte=4), name="two_to_four_decks"
            ),
            models.CheckConstraint(
                condition=models.Q(called__isnull=True) | models.Q(called__gte=1, called__lte=2),
                name="one_or_two_cards_called",
            ),
            models.CheckConstraint(
                condition=models.Q(first_declarer__isnull=True)
                | models.Q(first_declarer__lt=MAX_PLAYERS),
                name="first_declarer_at_the_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rules.name}: {', '.join(map(str, self.players))}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.group_id, self.pk])

    def to_export(self) -> dict:
        """The game as the export file writes it (`companion.exchange`): players by name, its
        hands, their history and its precedents (prefetch them when exporting many games)."""
        names = [player.name for player in self.players]
        hands = sorted(self.hands.all(), key=attrgetter("number"))
        numbers = {hand.pk: hand.number for hand in hands}
        return {
            "created": isoformat(self.created),
            "created_by": _username(self.created_by),
            "rules": self.rules_json,
            "seats": [{"player": seat.player.name, "level": seat.level} for seat in self.seated],
            "decks": self.decks,
            "teams": self.teams,
            "trumps": self.trumps,
            "called": self.called,
            "first_declarer": None if self.first_declarer is None else names[self.first_declarer],
            "hands": [hand.to_export(names) for hand in hands],
            "changes": [
                change.to_export(names)
                for change in sorted(self.changes.all(), key=attrgetter("pk"))
            ],
            "disputes": [
                dispute.to_export(numbers)
                for dispute in sorted(self.disputes.all(), key=attrgetter("pk"))
            ],
        }

    @property
    def rules(self) -> scoring.Rules:
        return scoring.get_rules(self.rules_json)

    @functools.cached_property
    def seated(self) -> list[Seat]:
        """The seats in play order with their players (prefetched seats are used as they are)."""
        return sorted(self.seats.all(), key=lambda seat: seat.position)

    @property
    def players(self) -> list[Player]:
        return [seat.player for seat in self.seated]

    @property
    def table(self) -> Table:
        return Table(
            players=tuple(player.name for player in self.players),
            decks=self.decks,
            teams=Teams(self.teams),
            trumps=TrumpRule.from_json(self.trumps),
            called=self.called,
        )

    @property
    def setup(self) -> GameSetup:
        return GameSetup(
            rules=self.rules,
            table=self.table,
            levels=tuple(scoring.Rank.parse(seat.level) for seat in self.seated),
            first_declarer=self.first_declarer,
        )

    @classmethod
    def start(
        cls,
        group: Group,
        players: list[Player],
        rules: scoring.Rules,
        *,
        decks: int | None = None,
        teams: Teams = Teams.PARTNERS,
        trumps: TrumpRule = BY_BID,
        called: int | None = None,
        levels: list[scoring.Rank] | None = None,
        first_declarer: int | None = None,
        by=None,
    ) -> Game:
        """A new game of ``players`` in play order, checked by `scoring` (GameError or
        TableError name the field at fault). ``decks`` defaults to one for every two players;
        ``levels``, every player's starting level, to 2."""
        table = Table(
            players=tuple(player.name for player in players),
            decks=decks or scoring.default_decks(len(players)),
            teams=teams,
            trumps=trumps,
            called=called,
        )
        setup = GameSetup(rules, table, tuple(levels or ()), first_declarer)
        with transaction.atomic():
            game = cls.objects.create(
                group=group,
                rules_json=rules.to_json(),
                decks=table.decks,
                teams=table.teams.value,
                trumps=table.trumps.to_json(),
                called=table.called,
                first_declarer=first_declarer,
                created_by=by if by and by.is_authenticated else None,
            )
            Seat.objects.bulk_create(
                Seat(game=game, position=position, player=player, level=level.symbol)
                for position, (player, level) in enumerate(zip(players, setup.levels, strict=True))
            )
            GameSummary.bring_up_to_date([game], [replay(setup, ())])
        return game

    def delete(self, *args, **kwargs):
        """Delete the game: its share of its group's ladder goes with it (delete games one by
        one, never in a queryset's bulk delete, which the ladder would not see)."""
        with transaction.atomic():
            Group.objects.filter(pk=self.group_id).update(version=models.F("version") + 1)
            old = GameSummary.records_of([self.pk]).get(self.pk)
            deleted = super().delete(*args, **kwargs)
            PlayerLadder.apply(self.group_id, [(old, None)])
        return deleted

    def new_share_link(self, *, by=None) -> None:
        """Replace the share link: phones watching by the old one stop seeing the game."""
        with transaction.atomic():
            self.share_token = new_token()
            self.save(update_fields=["share_token"])
            self.group.log(GroupChange.Action.NEW_SHARE_LINK, by=by, game=self)

    def player_at(self, seat: int) -> Player:
        return self.seated[seat].player

    def scored(self, hands: list[Hand] | None = None) -> ScoredGame:
        """The game as `scoring` folds it from its hands (``hands`` if already fetched)."""
        if hands is None:
            hands = list(self.hands.all())
        return replay(self.setup, (hand.result for hand in hands))

    def hands_and_version(self) -> list[Hand]:
        """The game's hands, with ``version`` brought to the version they are of. Read apart, a
        change committed between the two reads would pair the old version with the new hands,
        and a late save checked against them would pass the version check but fail on hands it
        was not made for. Versions only grow, and every change raises it with its hands: the
        hands read between two equal readings of the version are of that version."""
        while True:
            hands = list(self.hands.all())
            version = Game.objects.filter(pk=self.pk).values_list("version", flat=True).first()
            if version is None or version == self.version:
                return hands
            self.version = version

    def record_hand(self, fields: dict, *, version: int, request_key: str, by) -> Hand:
        """Add the next hand. A retried request (same ``request_key``) returns the hand it
        already saved, or raises SavedDifferently if that hand differs from this one; a save
        made against an older ``version`` raises StaleGame."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if request_key:
                saved = game.hands.filter(request_key=request_key).first()
                if saved is not None:
                    if any(getattr(saved, name) != value for name, value in fields.items()):
                        raise SavedDifferently(saved)
                    return saved
            game._check_version(version)
            hands = list(game.hands.all())
            hand = Hand(
                game=game,
                number=len(hands) + 1,
                request_key=request_key,
                **fields,
                **Hand.entered(game.group, by),
            )
            played = game.scored([*hands, hand])
            hand.save()
            # Precedents saved while this hand was being played now belong to it.
            game.disputes.filter(hand=None, hand_number=hand.number).update(hand=hand)
            game._changed(
                hand.number, HandChange.Action.RECORDED, None, hand.snapshot(), by, played=played
            )
        self.version = game.version
        return hand

    def edit_hand(self, number: int, fields: dict, *, version: int, by) -> Hand:
        """Change a past hand; every later hand is settled again from it."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            game._check_version(version)
            hands = list(game.hands.all())
            hand = hands[number - 1]
            before = hand.snapshot()
            for name, value in fields.items():
                setattr(hand, name, value)
            if hand.snapshot() != before:
                # New contents wait for a confirmation of their own; a correction settles a flag.
                for name, value in Hand.entered(game.group, by).items():
                    setattr(hand, name, value)
            played = game.scored(hands)
            hand.save()
            game._changed(
                number, HandChange.Action.EDITED, before, hand.snapshot(), by, played=played
            )
        self.version = game.version
        return hand

    def delete_hand(self, number: int, *, version: int, by) -> None:
        """Remove a hand (the last one: undo); later hands move up and are settled again."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            game._check_version(version)
            hands = list(game.hands.all())
            gone = hands.pop(number - 1)
            played = game.scored(hands)
            before = gone.snapshot()
            gone.delete()
            for hand in hands[number - 1 :]:
                hand.number -= 1
                hand.save(update_fields=["number"])
            # Precedents waiting for the hand being played move up with it.
            game.disputes.filter(hand=None, hand_number__gt=number).update(
                hand_number=models.F("hand_number") - 1
            )
            game._changed(number, HandChange.Action.DELETED, before, None, by, played=played)
        self.version = game.version

    def add_dispute(self, number: int, request: dict, verdict: dict, *, by) -> Dispute:
        """Keep a judged trick as a precedent of hand ``number``, or of the hand being played
        when that hand is not recorded yet (it joins the hand when it is)."""
        with transaction.atomic():
            dispute = Dispute.objects.create(
                game=self,
                hand=self.hands.filter(number=number).first(),
                hand_number=number,
                request=request,
                verdict=verdict,
                created_by=by if by and by.is_authenticated else None,
            )
            # Watching phones show the new precedent at their next poll.
            Game.objects.filter(pk=self.pk).update(version=models.F("version") + 1)
            # The hands are as they were: a summary of the game's version goes along with it.
            GameSummary.objects.filter(game=self).update(version=models.F("version") + 1)
        self.refresh_from_db(fields=["version"])
        return dispute

    def precedents(self, hands: list[Hand]) -> dict[int, list[Dispute]]:
        """The saved disputes of ``hands`` (already fetched: the game's, or a run of them in
        order) by hand number, in one query; those of the hand being played, when it comes next,
        under its number."""
        numbers = {hand.pk: hand.number for hand in hands}
        playing = hands[-1].number + 1 if hands else 1
        wanted = models.Q(hand=None, hand_number=playing)
        if hands:
            wanted |= models.Q(hand__number__range=(hands[0].number, hands[-1].number))
        found: dict[int, list[Dispute]] = {}
        for dispute in self.disputes.filter(wanted):
            if dispute.hand_id is not None:
                number = numbers.get(dispute.hand_id)
            else:
                number = playing if dispute.hand_number == playing else None
            if number is not None:
                found.setdefault(number, []).append(dispute)
        return found

    def confirm_hand(self, number: int, *, seen: int, by) -> Hand:
        """Confirm hand ``number`` as ``by`` saw it at game version ``seen``: refused
        (ConfirmationRefused) to anyone :meth:`Hand.confirm_refusal` refuses, and if the hand
        changed since (HandChangedSince). A confirmation settles a flag."""
        with transaction.atomic():
            game, hand = self._for_confirmation(number)
            changed = game.changes.filter(version__gt=seen, hand_number__lte=number).filter(
                models.Q(action=HandChange.Action.EDITED, hand_number=number)
                | models.Q(action__in=[HandChange.Action.RECORDED, HandChange.Action.DELETED])
            )
            if changed.exists():
                raise HandChangedSince(hand)
            if hand.confirmed_at is not None and hand.confirmed_by_id == by.pk:
                return hand  # the same tap again
            refusal = hand.confirm_refusal(by)
            if refusal is not None:
                raise ConfirmationRefused(hand, refusal)
            hand.confirmed_by, hand.confirmed_at = by, timezone.now()
            hand.flagged_by, hand.flagged_at, hand.flag_note = None, None, ""
            hand.save(update_fields=CONFIRMATION_FIELDS)
            game._changed(number, HandChange.Action.CONFIRMED, None, None, by)
        self.version = game.version
        return hand

    def flag_hand(self, number: int, note: str, *, by) -> Hand:
        """Flag hand ``number`` for the table to settle, with a short ``note``: any member but
        the one who entered it (who corrects it instead) may, while the hand waits for its
        confirmation or after it (the flag takes that back)."""
        with transaction.atomic():
            game, hand = self._for_confirmation(number)
            refusal = hand.flag_refusal(by)
            if refusal is not None:
                raise ConfirmationRefused(hand, refusal)
            hand.confirmed_by, hand.confirmed_at = None, None
            hand.flagged_by, hand.flagged_at, hand.flag_note = by, timezone.now(), note
            hand.save(update_fields=CONFIRMATION_FIELDS)
            game._changed(number, HandChange.Action.FLAGGED, None, None, by, note=note)
        self.version = game.version
        return hand

    def unflag_hand(self, number: int, *, by) -> Hand:
        """Take back hand ``number``'s flag (the table settled it as entered): the hand waits
        for its confirmation again. Any member may; editing the hand settles a flag too."""
        with transaction.atomic():
            game, hand = self._for_confirmation(number)
            if hand.flagged_at is None:
                raise ConfirmationRefused(hand, Refusal.NOT_FLAGGED)
            hand.flagged_by, hand.flagged_at, hand.flag_note = None, None, ""
            hand.save(update_fields=CONFIRMATION_FIELDS)
            game._changed(number, HandChange.Action.UNFLAGGED, None, None, by)
        self.version = game.version
        return hand

    @property
    def unconfirmed_hands(self) -> list[int]:
        """The numbers of the hands still waiting for their confirmation (one query, none when
        the group does not ask for confirmations)."""
        if not self.group.hands_need_confirmation:
            return []
        waiting = self.hands.filter(needs_confirmation=True, confirmed_at=None)
        return list(waiting.values_list("number", flat=True))

    @property
    def counts(self) -> bool:
        """Whether the game counts in the group's ladder history: no hand waits for its
        confirmation (until then the game goes on being scored, but is not won yet)."""
        return not self.unconfirmed_hands

    def _for_confirmation(self, number: int) -> tuple[Game, Hand]:
        """The game locked against other changes, and its hand ``number`` (Hand.DoesNotExist
        if there is none) with the accounts that confirmed or flagged it."""
        game = Game.objects.select_for_update(of=("self",)).select_related("group").get(pk=self.pk)
        hand = game.hands.select_related(*CONFIRMERS).get(number=number)
        return game, hand

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise StaleGame(self)

    def _changed(
        self,
        number: int,
        action: str,
        before,
        after,
        by,
        note: str = "",
        played: ScoredGame | None = None,
    ) -> None:
        """Keep the change in the history and bring the ladder up to date: from ``played``,
        the game as the change's own check replayed it, where there is one."""
        Game.objects.filter(pk=self.pk).update(version=models.F("version") + 1)
        self.refresh_from_db(fields=["version"])
        HandChange.objects.create(
            game=self,
            hand_number=number,
            action=action,
            before=before,
            after=after,
            by=by if by and by.is_authenticated else None,
            version=self.version,
            note=note,
        )
        GameSummary.bring_up_to_date([self], None if played is None else [played])


class Seat(models.Model):
    """A player's place at a game's table: ``position`` in play order from 0, and the level
    they start at (team-mates share theirs)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    level = models.CharField(max_length=1, default="2")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player"),
            models.CheckConstraint(
                condition=models.Q(position__lt=MAX_PLAYERS), name="at_most_eight_seats"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.position + 1}"


class StaleGame(Exception):
    """Someone else changed the game since this page was loaded."""

    def __init__(self, game: Game) -> None:
        super().__init__("the game changed since this page was loaded")
        self.game = game


class SavedDifferently(Exception):
    """A retried save whose hand was already saved, with other contents."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} was already saved with other contents")
        self.hand = hand


class Refusal(enum.Enum):
    """Why a hand's confirmation, flag or unflag was refused."""

    NOT_ASKED = "not asked"  # entered while the group did not ask, or it no longer asks
    CONFIRMED = "confirmed"  # someone confirmed it already
    ENTERED_IT = "entered it"  # the account that entered the hand cannot be its second seat
    NOT_AN_OPPONENT = "not an opponent"  # an opponent of the declarers has an account
    FLAGGED = "flagged"
    NOT_FLAGGED = "not flagged"


class ConfirmationRefused(Exception):
    def __init__(self, hand: Hand, reason: Refusal) -> None:
        super().__init__(f"hand {hand.number}: {reason.value}")
        self.hand = hand
        self.reason = reason


class HandChangedSince(Exception):
    """A confirmation of a hand that changed since the confirming page showed it."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} changed since the page was loaded")
        self.hand = hand


# A flag says what is wrong in a few words; the table settles the rest.
FLAG_NOTE_LENGTH = 200
# What confirming, flagging and unflagging a hand write, and who they name on the game page.
CONFIRMATION_FIELDS = ["confirmed_by", "confirmed_at", "flagged_by", "flagged_at", "flag_note"]
CONFIRMERS = ("confirmed_by", "flagged_by")


class Hand(models.Model):
    """A hand as the table entered it. Everything it causes is recomputed by `scoring`."""

    class Bid(models.TextChoices):
        ONE = scoring.Bid.ONE.value, _("One level card")
        PAIR = scoring.Bid.PAIR.value, _("A pair of level cards")
        SMALL_JOKERS = scoring.Bid.SMALL_JOKERS.value, _("Small jokers")
        BIG_JOKERS = scoring.Bid.BIG_JOKERS.value, _("Big jokers")
        NONE = scoring.Bid.NONE.value, _("Nobody bid")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    declarer = models.PositiveSmallIntegerField()
    # The seats that played a called card (find-a-friend), in play order.
    friends = models.JSONField(default=list, blank=True)
    # Blank where the game fixes the trump and nobody bids.
    bid = models.CharField(max_length=12, choices=Bid.choices, blank=True, default=Bid.ONE)
    trump = models.CharField(max_length=2, blank=True, help_text="S H D C, or blank: no trump")
    kitty_cards = models.CharField(max_length=40, blank=True)
    kitty_points = models.PositiveSmallIntegerField()
    opponent_points = models.PositiveSmallIntegerField()
    last_trick_winner = models.CharField(max_length=10)
    last_trick_format = models.CharField(max_length=8)
    last_trick_cards = models.PositiveSmallIntegerField()
    # Cards taken back from failed throws, by the thrower's side; the rules price them.
    declarer_cards_taken_back = models.PositiveSmallIntegerField(default=0)
    opponent_cards_taken_back = models.PositiveSmallIntegerField(default=0)
    request_key = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(default=timezone.now)
    updated = models.DateTimeField(auto_now=True)
    # Second-seat confirmation. ``entered_by`` entered the hand's contents as they stand (recorded
    # or last edited); contents entered while the group asked for confirmations need one, from
    # another account. A flag (a disagreement for the table to settle) takes a confirmation back.
    # The times say what happened: an account deleted later leaves its ``_by`` blank.
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    needs_confirmation = models.BooleanField(default=False)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    flagged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    flagged_at = models.DateTimeField(null=True, blank=True)
    flag_note = models.CharField(_("what is wrong"), max_length=FLAG_NOTE_LENGTH, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_hand_per_number"),
            models.UniqueConstraint(
                fields=["game", "request_key"],
                condition=~models.Q(request_key=""),
                name="one_hand_per_request",
            ),
            models.CheckConstraint(
                condition=models.Q(declarer__lt=MAX_PLAYERS), name="declarer_at_the_table"
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by=None) | ~models.Q(confirmed_at=None),
                name="confirmed_by_someone_at_a_time",
            ),
            models.CheckConstraint(
                condition=models.Q(flagged_by=None) | ~models.Q(flagged_at=None),
                name="flagged_by_someone_at_a_time",
            ),
            models.CheckConstraint(
                condition=~models.Q(flagged_at=None) | models.Q(flag_note=""),
                name="flag_note_only_on_a_flag",
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_at=None) | models.Q(flagged_at=None),
                name="confirmed_or_flagged_not_both",
            ),
            models.CheckConstraint(
                condition=models.Q(needs_confirmation=True)
                | models.Q(confirmed_at=None, flagged_at=None),
                name="confirmed_only_when_asked",
            ),
            # The second seat is another account than the one that entered the hand.
            models.CheckConstraint(
                condition=~models.Q(confirmed_by=models.F("entered_by")),
                name="confirmed_by_another_account",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number}"

    SNAPSHOT_FIELDS = (
        "number",
        "declarer",
        "friends",
        "bid",
        "trump",
        "kitty_cards",
        "kitty_points",
        "opponent_points",
        "last_trick_winner",
        "last_trick_format",
        "last_trick_cards",
        "declarer_cards_taken_back",
        "opponent_cards_taken_back",
    )

    def snapshot(self) -> dict:
        """What the table entered, as kept in the history."""
        return {name: getattr(self, name) for name in self.SNAPSHOT_FIELDS}

    def to_export(self, names: list[str]) -> dict:
        """The hand in its game's export, ``names`` the players in seat order."""
        entered = _named(self.snapshot(), names)
        del entered["number"]  # the hand's place in the list
        return {
            **entered,
            "created": isoformat(self.created),
            "updated": isoformat(self.updated),
            # Its second seat (`confirm_hand`): accounts by username, as the whole file has them.
            "entered_by": _username(self.entered_by),
            "needs_confirmation": self.needs_confirmation,
            "confirmed_by": _username(self.confirmed_by),
            "confirmed_at": _isoformat_or_none(self.confirmed_at),
            "flagged_by": _username(self.flagged_by),
            "flagged_at": _isoformat_or_none(self.flagged_at),
            "flag_note": self.flag_note,
        }

    @staticmethod
    def entered(group: Group, by) -> dict:
        """The confirmation fields of contents ``by`` enters now: unconfirmed, unflagged, and
        waiting for a confirmation if ``group`` asks for them."""
        return {
            "entered_by": by if by and by.is_authenticated else None,
            "needs_confirmation": group.hands_need_confirmation,
            "confirmed_by": None,
            "confirmed_at": None,
            "flagged_by": None,
            "flagged_at": None,
            "flag_note": "",
        }

    @property
    def asks_confirmation(self) -> bool:
        """Whether the hand is to be confirmed: entered while its group asks for confirmations,
        and the group still does."""
        return self.needs_confirmation and self.game.group.hands_need_confirmation

    @property
    def confirmers(self) -> dict[int, str]:
        """The accounts that may confirm the hand, by id with their roster names: the opponents
        of its declarers, but the account that entered it. When there are none, any other
        member may confirm it (see :meth:`confirm_refusal`). Uses the game's seats."""
        game = self.game
        declarers = declaring_side(game.table, self.declarer, self.friends)
        return {
            seat.player.user_id: seat.player.name
            for seat in game.seated
            if seat.position not in declarers
            and seat.player.user_id is not None
            and seat.player.user_id != self.entered_by_id
        }

    def confirm_refusal(self, user) -> Refusal | None:
        """Why ``user`` (a member of the group) may not confirm the hand; None if they may."""
        if not self.asks_confirmation:
            return Refusal.NOT_ASKED
        if self.confirmed_at is not None:
            return Refusal.CONFIRMED
        if user.pk == self.entered_by_id:
            return Refusal.ENTERED_IT
        confirmers = self.confirmers
        if confirmers and user.pk not in confirmers:
            return Refusal.NOT_AN_OPPONENT
        return None

    def flag_refusal(self, user) -> Refusal | None:
        """Why ``user`` (a member of the group) may not flag the hand; None if they may."""
        if not self.asks_confirmation:
            return Refusal.NOT_ASKED
        if self.flagged_at is not None:
            return Refusal.FLAGGED
        if user.pk == self.entered_by_id:
            return Refusal.ENTERED_IT
        return None

    @property
    def confirmed_by_name(self) -> str:
        return self._name_of(self.confirmed_by_id)

    @property
    def flagged_by_name(self) -> str:
        return self._name_of(self.flagged_by_id)

    def _name_of(self, user_id: int | None) -> str:
        """An account as the table knows it: its player's name at this game, else its own
        (``confirmed_by`` and ``flagged_by`` come with the hand); "" once it is deleted."""
        if user_id is None:
            return ""
        for player in self.game.players:
            if player.user_id == user_id:
                return player.name
        user = self.confirmed_by if user_id == self.confirmed_by_id else self.flagged_by
        return user.get_username()

    @property
    def result(self) -> HandResult:
        return HandResult(
            declarer=self.declarer,
            friends=tuple(self.friends),
            trump=scoring.Suit(self.trump) if self.trump else None,
            bid=scoring.Bid(self.bid) if self.bid else None,
            opponent_points=self.opponent_points,
            kitty_points=self.kitty_points,
            last_trick=scoring.LastTrick(
                scoring.Side(self.last_trick_winner),
                scoring.Format(self.last_trick_format),
                self.last_trick_cards,
            ),
            taken_back=scoring.TakenBack(
                self.declarer_cards_taken_back, self.opponent_cards_taken_back
            ),
        )

    @staticmethod
    def fields_of(result: HandResult, kitty_cards: tuple[scoring.Card, ...] = ()) -> dict:
        """The fields that store ``result`` (the inverse of :attr:`result`), with the kitty's
        cards where the table gave them."""
        return {
            "declarer": result.declarer,
            "friends": list(result.friends),
            "bid": result.bid.value if result.bid else "",
            "trump": result.trump.value if result.trump else "",
            "kitty_cards": " ".join(str(card) for card in kitty_cards),
            "kitty_points": result.kitty_points,
            "opponent_points": result.opponent_points,
            "last_trick_winner": result.last_trick.winner.value,
            "last_trick_format": result.last_trick.format.value,
            "last_trick_cards": result.last_trick.cards,
            "declarer_cards_taken_back": result.taken_back.declarers,
            "opponent_cards_taken_back": result.taken_back.opponents,
        }


class HandChange(models.Model):
    """The history of every change to a game's hands: nothing an edit replaces is lost."""

    class Action(models.TextChoices):
        RECORDED = "recorded", pgettext_lazy("a change to a hand", "recorded")
        EDITED = "edited", pgettext_lazy("a change to a hand", "edited")
        DELETED = "deleted", pgettext_lazy("a change to a hand", "deleted")
        # A hand's second-seat confirmation: these leave its contents as they were.
        CONFIRMED = "confirmed", pgettext_lazy("a change to a hand", "confirmed")
        FLAGGED = "flagged", pgettext_lazy("a change to a hand", "flagged")
        UNFLAGGED = "unflagged", pgettext_lazy("a change to a hand", "flag taken back")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    hand_number = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    # The game's version this change made (blank for changes from before versions were kept):
    # a watching phone at an older version needs the hands from the lowest one changed since.
    version = models.PositiveIntegerField(null=True, blank=True)
    # What a flag said was wrong.
    note = models.CharField(max_length=FLAG_NOTE_LENGTH, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action="flagged") | models.Q(note=""),
                name="change_note_only_on_a_flag",
            )
        ]

    def __str__(self) -> str:
        return f"hand {self.hand_number} {self.action}"

    def to_export(self, names: list[str]) -> dict:
        return {
            "hand_number": self.hand_number,
            "action": self.action,
            "before": _named(self.before, names),
            "after": _named(self.after, names),
            "by": _username(self.by),
            "at": isoformat(self.at),
            "note": self.note,
        }


class Dispute(models.Model):
    """A trick the table argued about and `scoring`'s verdict on it: the group's precedents.

    ``request`` is the trick as a ``python -m scoring judge`` request (rules, level, trump,
    decks, hands, plays) and ``verdict`` the judge's answer, both as docs/engine-json.md writes
    them, so a precedent can be judged again from the command line. ``hand_number`` is the hand
    it was saved to; ``hand`` links it once that hand is recorded (a dispute during the hand
    being played waits for it), and follows the hand when earlier hands are deleted.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.SET_NULL, related_name="disputes"
    )
    hand_number = models.PositiveSmallIntegerField()
    request = models.JSONField()
    verdict = models.JSONField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"dispute on hand {self.hand_number}"

    def to_export(self, numbers: dict[int, int]) -> dict:
        """The precedent in its game's export, ``numbers`` the game's hand numbers by id."""
        return {
            "hand_number": self.hand_number,
            "hand": numbers.get(self.hand_id),
            "request": self.request,
            "verdict": self.verdict,
            "created_by": _username(self.created_by),
            "created": isoformat(self.created),
        }

    @property
    def complete(self) -> bool:
        """Whether everyone at the game's table had played to the trick."""
        return len(self.request["plays"]) >= len(self.game.seated)


class GameSummary(models.Model):
    """A game as the ladder history reads it (`scoring.stats.GameRecord`): its hands as lines,
    its winners, and when it was played.

    It is kept beside the game so that the history never replays a game's hands. A summary
    belongs to the game's ``version``; every change to the game writes it again, in the change's
    own transaction (:meth:`bring_up_to_date`), and moves the group's ladder rows by the game's
    old and new records (:meth:`PlayerLadder.apply`).
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="summary"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="summaries")
    # The game's start (``Game.created``), which orders the history.
    played = models.DateTimeField()
    version = models.PositiveIntegerField()
    hands = models.JSONField(default=list)
    # The winners' seats as digits ("02"); blank while the game goes on.
    winners = models.CharField(max_length=MAX_PLAYERS, blank=True)
    # Where the game stands, for lists of games that need not read its hands: everyone's level
    # now as symbols in seat order ("2T5"), and how many hands it has.
    levels = models.CharField(max_length=MAX_PLAYERS)
    hand_count = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["group", "played", "game"], name="summaries_in_order")]
        constraints = [
            models.CheckConstraint(
                condition=models.lookups.GreaterThanOrEqual(Length("levels"), MIN_PLAYERS)
                & models.lookups.LessThanOrEqual(Length("levels"), MAX_PLAYERS),
                name="levels_of_every_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"summary of game {self.game_id} at version {self.version}"

    @classmethod
    def bring_up_to_date(
        cls, games: list[Game], scored: list[ScoredGame] | None = None, *, ladder: bool = True
    ) -> list[GameRecord]:
        """Write the summaries of ``games`` at their versions, raise their groups' versions, and
        move the groups' ladder rows from the games' stored records to their new ones.

        Every change to a group's games ends here: a game started or deleted, a hand recorded,
        edited, deleted, confirmed or flagged. ``scored`` are the games as `scoring` replayed
        them, where the caller has them; otherwise their hands are read in one query. Whatever
        writes games in bulk (an import, the demo history) passes ``ladder=False`` and
        counts the ladder once at the end (:func:`count_ladder`). Returns the records.
        """
        with transaction.atomic():  # the ladder's rows stay locked while they move
            return cls._bring_up_to_date(games, scored, ladder=ladder)

    @classmethod
    def _bring_up_to_date(
        cls, games: list[Game], scored: list[ScoredGame] | None, *, ladder: bool
    ) -> list[GameRecord]:
        old = cls.records_of([game.pk for game in games]) if ladder else {}
        if scored is None or any(game.group.hands_need_confirmation for game in games):
            records = cls.records(games)
        else:
            records = [
                GameRecord.of(
                    game.pk, played, [seat.player_id for seat in game.seated], game.created
                )
                for game, played in zip(games, scored, strict=True)
            ]
        cls.objects.bulk_create(
            [
                cls(
                    game=game,
                    group_id=game.group_id,
                    played=game.created,
                    version=game.version,
                    hands=record.hands_json(),
                    winners=GameRecord.winners_json(record.winners),
                    levels=record.line.levels_text(),
                    hand_count=len(record.hands),
                )
                for game, record in zip(games, records, strict=True)
            ],
            update_conflicts=True,
            unique_fields=["game"],
            update_fields=["played", "version", "hands", "winners", "levels", "hand_count"],
        )
        for group_id in sorted({game.group_id for game in games}):
            # Also the lock that makes one group's ladder changes wait for each other.
            Group.objects.filter(pk=group_id).update(version=models.F("version") + 1)
            if ladder:
                PlayerLadder.apply(
                    group_id,
                    [
                        (old.get(game.pk), record)
                        for game, record in zip(games, records, strict=True)
                        if game.group_id == group_id
                    ],
                )
        return records

    @classmethod
    def records(cls, games: list[Game]) -> list[GameRecord]:
        """The games' records replayed from their hands (one query for the hands, two for the
        seats unless they were fetched), in their order; nothing is written.

        Where the group asks for second-seat confirmation, a game counts only up to its first
        hand still waiting for one: until it is confirmed the game is not won in the history."""
        models.prefetch_related_objects(
            [game for game in games if "seated" not in vars(game)], "seats__player"
        )
        hands: dict[int, list[Hand]] = {game.pk: [] for game in games}
        found = (
            Hand.objects.filter(game__in=games)
            .only(*HAND_RESULT_FIELDS, "needs_confirmation", "confirmed_at")
            .annotate(asked=models.F("game__group__hands_need_confirmation"))
        )
        waiting: set[int] = set()
        for hand in found.order_by("game_id", "number"):
            if hand.game_id in waiting:
                continue
            if hand.asked and hand.needs_confirmation and hand.confirmed_at is None:
                waiting.add(hand.game_id)
                continue
            hands[hand.game_id].append(hand)
        return [
            GameRecord.of(
                game.pk,
                partial_replay(game.setup, (hand.result for hand in hands[game.pk])).game,
                [seat.player_id for seat in game.seated],
                played=game.created,
            )
            for game in games
        ]

    @classmethod
    def records_of(cls, games: list[int] | models.QuerySet) -> dict[int, GameRecord]:
        """The stored records of ``games`` (ids, or a query of summaries), by game id: two
        queries, no model objects made."""
        return _stored_records(cls.objects, Seat.objects, games)

    @classmethod
    def lines_of(cls, games: list[int]) -> dict[int, GameLine]:
        """The games (ids) as lists show them, by game id: two queries, none of their hands."""
        rows = cls.objects.filter(game_id__in=games).values_list(
            "game_id",
            "played",
            "levels",
            "hand_count",
            "winners",
            "game__rules_json",
            "game__decks",
            "game__teams",
            "game__called",
        )
        seated: dict[int, list[int]] = {}
        for game_id, player_id in (
            Seat.objects.filter(game_id__in=games)
            .order_by("game_id", "position")
            .values_list("game_id", "player_id")
        ):
            seated.setdefault(game_id, []).append(player_id)
        lines = {}
        for game_id, played, levels, count, winners, rules_json, decks, teams, called in rows:
            seats = seated[game_id]
            lines[game_id] = GameLine.stored(
                game_id,
                _rules(_canonical(rules_json)),
                seats,
                _fixed_teams(teams, len(seats), decks, called),
                levels,
                count,
                winners,
                played,
                decks,
            )
        return lines

    @classmethod
    def newest_first(cls, group: Group) -> models.QuerySet:
        return cls.objects.filter(group=group).order_by("-played", "-game_id")

    @classmethod
    def played_by(cls, group: Group, player: int) -> models.QuerySet:
        """The player's games, newest first: the summaries read in order, each checked for the
        player's seat (no join the planner could order by every game of the group)."""
        seated = Seat.objects.filter(game_id=models.OuterRef("game_id"), player_id=player)
        return cls.newest_first(group).filter(models.Exists(seated))

    @classmethod
    def years(cls, group: Group) -> list[int]:
        """The years from the group's first game to its latest, the latest first."""
        span = cls.objects.filter(group=group).aggregate(
            first=models.Min("played"), latest=models.Max("played")
        )
        first, latest = span["first"], span["latest"]
        if latest is None:
            return []
        last_year, first_year = timezone.localtime(latest).year, timezone.localtime(first).year
        return list(range(last_year, first_year - 1, -1))


def _stored_records(
    summaries: models.Manager, seats: models.Manager, games: list[int] | models.QuerySet
) -> dict[int, GameRecord]:
    """:meth:`GameSummary.records_of`, given the managers to read (a migration's too)."""
    found = games if isinstance(games, models.QuerySet) else summaries.filter(game_id__in=games)
    rows = list(
        found.values_list(
            "game_id",
            "played",
            "hands",
            "winners",
            "game__rules_json",
            "game__decks",
            "game__teams",
            "game__called",
        )
    )
    seated: dict[int, list[tuple]] = {}
    for game_id, player_id, level in (
        seats.filter(game_id__in=[row[0] for row in rows])
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "level")
    ):
        seated.setdefault(game_id, []).append((player_id, level))
    records = {}
    for game_id, played, hands, winners, rules_json, decks, teams, called in rows:
        players, levels = zip(*seated[game_id], strict=True)
        records[game_id] = GameRecord(
            game_id,
            _rules(json.dumps(rules_json, sort_keys=True)),
            players,
            _fixed_teams(teams, len(players), decks, called),
            tuple(map(scoring.Rank.parse, levels)),
            tuple(map(HandLine.from_json, hands)),
            tuple(map(int, winners)),
            played,
            decks,
        )
    return records


@functools.lru_cache(maxsize=64)
def _rules(rules_json: str) -> scoring.Rules:
    return scoring.get_rules(json.loads(rules_json))


@functools.lru_cache(maxsize=64)
def _fixed_teams(teams: str, size: int, decks: int, called: int | None) -> tuple:
    """A table's fixed teams as seats, which its shape alone decides."""
    return Table(tuple(map(str, range(size))), decks, Teams(teams), called=called).fixed


@functools.lru_cache(maxsize=64)
def _rules_key(rules: scoring.Rules) -> str:
    """A short name for the rules that tally rows are unique by (a group's own table is long)."""
    canonical = json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _local(moment: datetime) -> datetime:
    return timezone.localtime(moment)


class PlayerLadder(models.Model):
    """A player's line in their group's ladder: their statistics over every game they played
    (`scoring.stats.PlayerStats` as JSON) and their rating now (none before a finished game).

    Every change to a game moves its players' lines in the change's transaction
    (:meth:`apply`): its old share of their statistics is taken away and its new one added. A
    rating is a replay in the order played: a change to the group's last finished game re-rates
    that game there too, and a change to an earlier one asks for a re-rating of everything after
    it (:meth:`rerate`, a task), until which the ratings stay as they were, never half new.
    """

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="ladder"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    stats = models.JSONField()
    # The rating now (OpenSkill's mu and sigma) after ``rated`` finished games.
    mu = models.FloatField(null=True)
    sigma = models.FloatField(null=True)
    rated = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(rated=0, mu=None, sigma=None)
                | models.Q(rated__gt=0, mu__isnull=False, sigma__isnull=False),
                name="rated_after_a_finished_game",
            )
        ]

    def __str__(self) -> str:
        return f"ladder of player {self.player_id}"

    @property
    def statistics(self) -> PlayerStats:
        return PlayerStats.from_json(self.player_id, self.stats)

    @property
    def rating(self) -> RatingPoint | None:
        if not self.rated:
            return None
        return RatingPoint(None, None, self.mu, self.sigma, False)

    @classmethod
    def of(cls, group: Group) -> list[PlayerLadder]:
        """Every line of the group's ladder: one for each player who has played a game."""
        return list(cls.objects.filter(group=group))

    @classmethod
    def apply(
        cls, group_id: int, changes: list[tuple[GameRecord | None, GameRecord | None]]
    ) -> None:
        """Move the group's ladder from each game's old record to its new one (None where the
        game was not there, or is gone). The caller holds the group's row (its version raised)."""
        changes = [(old, new) for old, new in changes if old != new]
        if not changes:
            return
        added: dict[Hashable, list[PlayerStats]] = {}
        taken: dict[Hashable, list[PlayerStats]] = {}
        for old, new in changes:
            for record, into in ((old, taken), (new, added)):
                if record is not None:
                    for player, share in game_stats(record).items():
                        into.setdefault(player, []).append(share)
        lines = {
            line.player_id: line
            for line in cls.objects.select_for_update().filter(player_id__in=added | taken)
        }
        for player in added.keys() | taken.keys():
            line = lines.get(player) or cls(player_id=player, group_id=group_id)
            before = [line.statistics] if line.stats else []
            summed = PlayerStats.sum(
                player, [*before, *added.get(player, [])], taken.get(player, [])
            )
            line.stats = summed.to_json()
            lines[player] = line
        LadderTally.apply(group_id, changes)
        rerated = [(old, new) for old, new in changes if _winners(old) != _winners(new)]
        if rerated:
            Rating.apply(group_id, rerated, lines)
        gone = [player for player, line in lines.items() if not line.stats["games"]]
        cls.objects.filter(player_id__in=gone).delete()
        kept = [line for player, line in lines.items() if player not in gone]
        cls.objects.bulk_create(
            kept,
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["stats", "mu", "sigma", "rated"],
        )

    @classmethod
    def rerate(cls, group_id: int) -> None:
        """Replay the group's ratings over every finished game in the order played, and show
        them all at once. A change asking for another re-rating meanwhile starts it over."""
        for _attempt in range(RERATE_ATTEMPTS):
            asked = Group.objects.filter(pk=group_id).values_list("ratings_asked", flat=True)
            asked = asked.first()
            if asked is None:
                return
            finished = GameSummary.objects.filter(group_id=group_id).exclude(winners="")
            records = GameSummary.records_of(finished.order_by("played", "game_id"))
            ratings = replay_ratings(records.values())
            rows = _rating_rows(Rating, ratings)
            with transaction.atomic():
                # Written first, so that it holds the group until the ratings are all in.
                done = Group.objects.filter(pk=group_id, ratings_asked=asked)
                if not done.update(ratings_done=asked):
                    continue  # asked again meanwhile
                _write_ratings(cls, Rating, group_id, ratings, rows)
            return
        raise RuntimeError(f"the ratings of group {group_id} kept changing while replayed")


RERATE_ATTEMPTS = 5
"""Re-ratings started over before the task gives up (and is run again by the next change)."""


def _winners(record: GameRecord | None) -> tuple[int, ...]:
    return () if record is None else record.winners


def _rating_rows(ratings_model, ratings: dict) -> list:
    """The rows of ``ratings`` (every player's points, oldest first), unsaved."""
    return [
        ratings_model(
            player_id=player,
            game_id=point.game,
            number=number,
            month=periods(_local(point.played))[2],
            played=point.played,
            mu=point.mu,
            sigma=point.sigma,
            won=point.won,
        )
        for player, points in ratings.items()
        for number, point in enumerate(points, start=1)
    ]


def _write_ratings(lines_model, ratings_model, group_id: int, ratings: dict, rows: list) -> None:
    """Replace the group's ratings with ``ratings`` (every player's points, oldest first), as
    ``rows`` (:func:`_rating_rows`), and bring its players' lines' ratings up to date."""
    ratings_model.objects.filter(player__group_id=group_id).delete()
    ratings_model.objects.bulk_create(rows, batch_size=500)
    lines = list(lines_model.objects.filter(group_id=group_id))
    for line in lines:
        points = ratings.get(line.player_id, [])
        line.rated = len(points)
        line.mu, line.sigma = (points[-1].mu, points[-1].sigma) if points else (None, None)
    lines_model.objects.bulk_update(lines, ["mu", "sigma", "rated"], batch_size=500)


class Rating(models.Model):
    """A player's rating after one of their finished games: the ``number``-th they played, in
    the order played (a player's chart reads one a month)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField()
    # The game's month in local time, "2025-03": the chart's points are each month's last.
    month = models.CharField(max_length=7)
    played = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    won = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "number"], name="one_rating_per_number"),
            models.UniqueConstraint(fields=["player", "game"], name="one_rating_per_game"),
        ]
        indexes = [models.Index(fields=["player", "month", "number"], name="ratings_by_month")]

    def __str__(self) -> str:
        return f"rating {self.number} of player {self.player_id}"

    @property
    def point(self) -> RatingPoint:
        return RatingPoint(self.game_id, self.played, self.mu, self.sigma, self.won)

    @classmethod
    def monthly(cls, player: Player) -> list[Rating]:
        """The player's rating at the end of each month they finished a game in (the last one
        is their rating now): a chart of a bounded number of points, however long the history."""
        last = (
            cls.objects.filter(player=player)
            .values("month")
            .annotate(last=models.Max("number"))
            .values("last")
        )
        return list(cls.objects.filter(player=player, number__in=last).order_by("number"))

    @classmethod
    def apply(
        cls,
        group_id: int,
        changes: list[tuple[GameRecord | None, GameRecord | None]],
        lines: dict[Hashable, PlayerLadder],
    ) -> None:
        """Re-rate after games whose winners changed: here if it is the group's last finished
        game and no re-rating is under way; otherwise by the task, and the group's ratings stay
        as they were until it has run."""
        group = Group.objects.only("ratings_asked", "ratings_done").get(pk=group_id)
        if group.ratings_pending or len(changes) > 1 or cls._later_finished(group_id, changes[0]):
            Group.ask_for_ratings(group_id)
            return
        old, new = changes[0]
        players = (old or new).seats
        # The game is the last rated of each of its players: their rating before it is the
        # point before its own, or their last point if it was not rated.
        before = {
            player: lines[player].rated - (old is not None and bool(old.winners))
            for player in players
        }
        wanted = models.Q(pk__in=[])
        for player, number in before.items():
            wanted |= models.Q(player_id=player, number=number)
        current = {point.player_id: point.point for point in cls.objects.filter(wanted)}
        if old is not None and old.winners:
            cls.objects.filter(game_id=old.key).delete()
        after = rate_game(new, current) if new is not None else {}
        cls.objects.bulk_create(
            cls(
                player_id=player,
                game_id=point.game,
                number=before[player] + 1,
                month=periods(_local(point.played))[2],
                played=point.played,
                mu=point.mu,
                sigma=point.sigma,
                won=point.won,
            )
            for player, point in after.items()
        )
        for player in players:
            line, point = lines[player], after.get(player) or current.get(player)
            line.rated = before[player] + (player in after)
            line.mu, line.sigma = (point.mu, point.sigma) if point else (None, None)

    @staticmethod
    def _later_finished(group_id: int, change: tuple) -> bool:
        """Whether a finished game of the group was played after the changed one (where it was
        and where it is, if its start moved)."""
        first = min(
            (record for record in change if record is not None),
            key=lambda record: (record.played, record.key),
        )
        later = models.Q(played__gt=first.played) | models.Q(
            played=first.played, game_id__gt=first.key
        )
        finished = GameSummary.objects.filter(group_id=group_id).exclude(winners="")
        return finished.filter(later).exclude(game_id=first.key).exists()


class LadderTally(models.Model):
    """A player's games (or everyone's: no player) in a period, under some rules and decks:
    how many, their hands, and how often each opponents' total was scored
    (`companion.ladder`). The history's filters read these instead of the games."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, null=True, on_delete=models.CASCADE, related_name="+")
    # "" for all time, "2025" for a year, "2025-03" for a month (local time).
    period = models.CharField(max_length=7, blank=True)
    rules_json = models.JSONField()
    rules_key = models.CharField(max_length=64)
    decks = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField()
    hands = models.PositiveIntegerField()
    # [[opponents' total, hands], …]
    totals = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["group", "player", "period", "rules_key", "decks"],
                condition=models.Q(player__isnull=False),
                name="one_tally_per_player_period_and_rules",
            ),
            models.UniqueConstraint(
                fields=["group", "period", "rules_key", "decks"],
                condition=models.Q(player__isnull=True),
                name="one_tally_of_everyone_per_period_and_rules",
            ),
        ]
        indexes = [models.Index(fields=["group", "period"], name="tallies_by_period")]

    def __str__(self) -> str:
        return f"tally of {self.player_id or 'everyone'} in {self.period or 'all time'}"

    @property
    def key(self) -> TallyKey:
        return TallyKey(
            self.player_id, self.period, _rules(_canonical(self.rules_json)), self.decks
        )

    @property
    def tally(self) -> Tally:
        return Tally(self.games, self.hands, Counter(dict(map(tuple, self.totals))))

    @classmethod
    def apply(cls, group_id: int, changes: list[tuple]) -> None:
        delta = moved(changes, _local)
        if not delta:
            return
        found = cls.objects.filter(
            group_id=group_id,
            period__in={key.period for key in delta},
            rules_key__in={_rules_key(key.rules) for key in delta},
        )
        rows = {row.key: row for row in found}
        changed, made, gone = [], [], []
        for key, tally in delta.items():
            row = rows.get(key)
            if row is None:
                row = cls(
                    group_id=group_id,
                    player_id=key.player,
                    period=key.period,
                    rules_json=key.rules.to_json(),
                    rules_key=_rules_key(key.rules),
                    decks=key.decks,
                    games=0,
                    hands=0,
                )
                made.append(row)
            else:
                changed.append(row)
            summed = row.tally
            summed.add(tally)
            row.games, row.hands = summed.games, summed.hands
            row.totals = sorted(summed.totals.items())
            if not summed.games:
                gone.append(row)
        cls.objects.filter(pk__in=[row.pk for row in gone if row.pk]).delete()
        cls.objects.bulk_create([row for row in made if row not in gone])
        cls.objects.bulk_update(
            [row for row in changed if row not in gone], ["games", "hands", "totals"]
        )

    @classmethod
    def read(cls, group: Group, player: int | None, periods: list[str]) -> list[tuple]:
        """The games, hands and opponents' totals of ``player`` (everyone: None) over
        ``periods``, per rules and decks, the most played first: a few rows, whatever the
        group's age."""
        summed: dict[tuple[scoring.Rules, int], Tally] = {}
        for row in cls.objects.filter(group=group, player=player, period__in=periods):
            key = row.key
            summed.setdefault((key.rules, key.decks), Tally()).add(row.tally)
        return sorted(
            ((rules, decks, tally) for (rules, decks), tally in summed.items()),
            key=lambda item: (-item[2].hands, -item[2].games),
        )

    @classmethod
    def games_of(cls, group: Group) -> int:
        """How many games the group has played (one row a rules and decks)."""
        found = cls.objects.filter(group=group, player=None, period=ALL_TIME)
        return found.aggregate(games=models.Sum("games"))["games"] or 0


def _canonical(rules_json: dict) -> str:
    return json.dumps(rules_json, sort_keys=True)


def rebuild_ladder(group_id: int, apps=global_apps) -> None:
    """Count the group's whole ladder afresh from its games' summaries and write it in one
    transaction: after a generated history, and by the migration that made the rows (``apps``:
    its models); every game has its summary by then."""
    writes = count_ladder(group_id, apps)
    with transaction.atomic():
        for write in writes:
            write()


LADDER_ROWS_PER_WRITE = 1000
"""Rows of a counted ladder written per transaction by an import: a tenth of a second on
SQLite, which makes every other writer wait while one writes."""


def count_ladder(group_id: int, apps=global_apps) -> list[Callable[[], None]]:
    """The group's whole ladder counted afresh from its games' summaries, as the writes that
    store it, in order. Everything is counted and made before them. Each write is small enough
    to run in a transaction of its own while nobody can see the group (an import), or all in
    one (:func:`rebuild_ladder`)."""
    model = functools.partial(apps.get_model, "companion")
    summaries, seats = model("GameSummary").objects, model("Seat").objects
    records = _stored_records(
        summaries, seats, summaries.filter(group_id=group_id).order_by("played", "game_id")
    )
    ordered = list(records.values())
    statistics = every_player_stats(ordered)
    tallies = whole(ordered, _local)
    ratings = replay_ratings(ordered)
    lines_model, tallies_model, ratings_model = (
        model("PlayerLadder"),
        model("LadderTally"),
        model("Rating"),
    )
    lines = []
    for player, stats in statistics.items():
        points = ratings.get(player, [])
        lines.append(
            lines_model(
                player_id=player,
                group_id=group_id,
                stats=stats.to_json(),
                rated=len(points),
                mu=points[-1].mu if points else None,
                sigma=points[-1].sigma if points else None,
            )
        )
    rows = [
        tallies_model(
            group_id=group_id,
            player_id=key.player,
            period=key.period,
            rules_json=key.rules.to_json(),
            rules_key=_rules_key(key.rules),
            decks=key.decks,
            games=tally.games,
            hands=tally.hands,
            totals=sorted(tally.totals.items()),
        )
        for key, tally in tallies.items()
    ]
    points = _rating_rows(ratings_model, ratings)

    def start() -> None:
        # Written first: it holds the group's ladder (and SQLite's lock) while it changes.
        model("Group").objects.filter(pk=group_id).update(
            version=models.F("version") + 1, ratings_done=models.F("ratings_asked")
        )
        ratings_model.objects.filter(player__group_id=group_id).delete()
        tallies_model.objects.filter(group_id=group_id).delete()
        lines_model.objects.filter(group_id=group_id).delete()
        lines_model.objects.bulk_create(lines)

    def adding(manager: models.Manager, part: list) -> Callable[[], None]:
        return lambda: manager.bulk_create(part, batch_size=500)

    return [
        start,
        *(
            adding(manager, found[first : first + LADDER_ROWS_PER_WRITE])
            for manager, found in ((tallies_model.objects, rows), (ratings_model.objects, points))
            for first in range(0, len(found), LADDER_ROWS_PER_WRITE)
        ),
    ]


HAND_RESULT_FIELDS = (
    "game_id",
    "number",
    "declarer",
    "friends",
    "bid",
    "trump",
    "opponent_points",
    "kitty_points",
    "last_trick_winner",
    "last_trick_format",
    "last_trick_cards",
    "declarer_cards_taken_back",
    "opponent_cards_taken_back",
)


# Imports as jobs, with the upload they read (a module of their own, models of this app).
from companion.import_jobs import ImportBusy, ImportChunk, ImportJob  # noqa: E402, F401
