"""Groups and who is in them: their members and roles, their log, their roster of players and
their own scoring tables; and the language an account reads."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.db.models.fields.json import KT
from django.db.models.functions import Lower
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

import scoring
from companion import display

ratings_wanted = Signal()
"""Sent with a ``group_id`` once the transaction that asked for its ratings to be replayed
commits: the task layer (`companion.tasks`), above the models, queues the replay."""


def new_token() -> str:
    return secrets.token_urlsafe(16)


class GroupQuerySet(models.QuerySet):
    def for_member(self, user) -> GroupQuerySet:
        """The groups ``user`` is a member of; none for an anonymous visitor. A non-member
        learns nothing of the others, not even that they exist."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(members=user)


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

    objects = GroupQuerySet.as_manager()

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

    @property
    def ratings_pending(self) -> bool:
        """Whether the ratings are being replayed after a change to an earlier game."""
        return self.ratings_done != self.ratings_asked

    @classmethod
    def ask_for_ratings(cls, group_id: int) -> None:
        """Ask for the group's ratings to be replayed (:meth:`PlayerLadder.rerate`) once the
        caller's transaction commits (`ratings_wanted`): one task, however many changes ask."""
        cls.objects.filter(pk=group_id).update(ratings_asked=models.F("ratings_asked") + 1)
        waiting = transaction.get_connection().run_on_commit
        if any(
            getattr(callback, "rerates", None) == group_id and not callback.done
            for _savepoints, callback, _robust in waiting
        ):
            return

        def enqueue() -> None:
            enqueue.done = True
            ratings_wanted.send(cls, group_id=group_id)

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

    def has_member(self, user) -> bool:
        return self.membership_set.filter(user=user).exists()

    def is_admin(self, user) -> bool:
        return self.membership_set.filter(user=user, role=Membership.Role.ADMIN).exists()

    def admin_ids(self) -> list[int]:
        return list(
            self.membership_set.filter(role=Membership.Role.ADMIN)
            .order_by("joined", "pk")
            .values_list("user_id", flat=True)
        )

    def admin_names(self) -> list[str]:
        """The admins as the table knows them (:meth:`names_at_the_table`), the earliest
        joined first: whom a member asks for what only admins may do."""
        admins = self.admin_ids()
        names = self.names_at_the_table(admins)
        return [names[pk] for pk in admins]

    def memberships(self) -> list[Membership]:
        """Its members' memberships with their accounts, the earliest joined first."""
        return list(self.membership_set.select_related("user").order_by("joined", "pk"))

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
        from companion.models.games import Game, Hand  # their modules import this one
        from companion.models.ladder import GameSummary

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
        from companion.models.games import Hand  # its module imports this one

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

    @property
    def rules(self) -> scoring.Rules:
        return scoring.get_rules(self.rules_json)
