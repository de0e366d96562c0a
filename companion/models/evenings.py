"""Club nights: an evening of a group plays rounds of several tables at once. Each table of a
round is an ordinary game of the group (`EveningTable` ties it to its round); the evening
proposes each round's seating by its rule and keeps who is present. The seating and the
standings are `scoring.evenings`'."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

import scoring
from companion.models.games import Game, trumps_by_bid
from companion.models.groups import Group, Player, new_token
from scoring.evenings import MAX_EVENING_PLAYERS, Rule, Seating, Shape, seat, table_sizes
from scoring.evenings import swap as swapped
from scoring.game import Game as ScoredGame
from scoring.game import GameError
from scoring.table import MAX_PLAYERS, MIN_PLAYERS, Table, Teams, TrumpRule

# A hand takes five to ten minutes: a round of 2 hands is the shortest worth seating, and 30
# (three hours or more) is past any evening's length. Minutes likewise: 10 to 4 hours.
MIN_ROUND_HANDS, MAX_ROUND_HANDS = 2, 30
MIN_ROUND_MINUTES, MAX_ROUND_MINUTES = 10, 240


def new_seed() -> int:
    return secrets.randbelow(2**31)


class EveningQuerySet(models.QuerySet):
    def for_member(self, user) -> EveningQuerySet:
        """The evenings of the groups ``user`` is a member of, each with its group; none for an
        anonymous visitor."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(group__members=user).select_related("group")


class Evening(models.Model):
    """A club night of a group: the players present, the table shape every round is seated at,
    the rule that seats them, and the rounds played. Any member may change it."""

    class SeatingRule(models.TextChoices):
        RANDOM = "random", _("At random")
        BALANCED = "balanced", _("Balanced by rating")
        NEW_PARTNERS = "new-partners", _("New partners")

    class Leftover(models.TextChoices):
        SIT_OUT = "sit-out", _("Sit out in turn")
        MIXED = "mixed", _("Tables of mixed sizes")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="evenings")
    created = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    ended = models.DateTimeField(null=True, blank=True)
    # The room screen's own link: it shows the evening read-only to anyone who has it.
    share_token = models.CharField(max_length=32, unique=True, default=new_token)
    # Every round's seating follows from it: the same evening is always seated alike.
    seed = models.PositiveBigIntegerField(default=new_seed)
    seating = models.CharField(
        max_length=16, choices=SeatingRule.choices, default=SeatingRule.RANDOM
    )
    leftover = models.CharField(max_length=8, choices=Leftover.choices, default=Leftover.SIT_OUT)
    # The table shape, as a game's start takes it (companion.forms.games).
    players_per_table = models.PositiveSmallIntegerField(default=MIN_PLAYERS)
    rules_json = models.JSONField()
    # None: one deck for every two players, whatever a table's size.
    decks = models.PositiveSmallIntegerField(null=True, blank=True)
    teams = models.CharField(
        max_length=16, choices=Game.TeamsChoice.choices, default=Game.TeamsChoice.PARTNERS
    )
    trumps = models.JSONField(default=trumps_by_bid)
    called = models.PositiveSmallIntegerField(null=True, blank=True)
    # A round ends when its games end, or after this many hands at a table or these minutes.
    hands_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Raised by every change to the evening itself (a seating, a swap, a round, who is present):
    # the room screen's poll reads it with the group's version, which its games raise.
    version = models.PositiveIntegerField(default=0)

    objects = EveningQuerySet.as_manager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players_per_table__gte=MIN_PLAYERS)
                & models.Q(players_per_table__lte=MAX_PLAYERS),
                name="evening_four_to_eight_a_table",
            ),
            models.CheckConstraint(
                condition=models.Q(decks__isnull=True) | models.Q(decks__gte=2, decks__lte=4),
                name="evening_two_to_four_decks",
            ),
            models.CheckConstraint(
                condition=models.Q(called__isnull=True) | models.Q(called__gte=1, called__lte=2),
                name="evening_one_or_two_cards_called",
            ),
            models.CheckConstraint(
                condition=models.Q(hands_per_round__isnull=True)
                | models.Q(
                    hands_per_round__gte=MIN_ROUND_HANDS, hands_per_round__lte=MAX_ROUND_HANDS
                ),
                name="evening_round_hands_bounded",
            ),
            models.CheckConstraint(
                condition=models.Q(minutes_per_round__isnull=True)
                | models.Q(
                    minutes_per_round__gte=MIN_ROUND_MINUTES,
                    minutes_per_round__lte=MAX_ROUND_MINUTES,
                ),
                name="evening_round_minutes_bounded",
            ),
            models.CheckConstraint(
                condition=models.Q(ended__isnull=True) | models.Q(ended__gte=models.F("created")),
                name="evening_ends_after_it_starts",
            ),
            models.CheckConstraint(
                condition=models.Q(seating__in=["random", "balanced", "new-partners"]),
                name="evening_seating_known",
            ),
            models.CheckConstraint(
                condition=models.Q(leftover__in=["sit-out", "mixed"]),
                name="evening_leftover_known",
            ),
        ]

    def __str__(self) -> str:
        return f"evening {self.pk} of {self.group}"

    def get_absolute_url(self) -> str:
        return reverse("evening", args=[self.group_id, self.pk])

    @property
    def rules(self) -> scoring.Rules:
        return scoring.get_rules(self.rules_json)

    @property
    def trump_rule(self) -> TrumpRule:
        return TrumpRule.from_json(self.trumps)

    def table_of(self, size: int) -> Table:
        """The table a round seats ``size`` players at (`scoring` checks it)."""
        return Table(
            players=tuple(str(seat) for seat in range(size)),
            decks=self.decks or scoring.default_decks(size),
            teams=Teams(self.teams),
            trumps=self.trump_rule,
            called=self.called,
        )

    @property
    def shape(self) -> Shape:
        return Shape(
            self.players_per_table, Teams(self.teams), self.leftover == self.Leftover.MIXED
        )

    def sizes(self) -> tuple[int, ...]:
        """The table sizes a round may seat: the chosen one, or any the teams allow."""
        teams = Teams(self.teams)
        if self.leftover == self.Leftover.MIXED:
            return table_sizes(teams)
        return (self.players_per_table,)

    @classmethod
    def start(cls, group: Group, players: list[Player], *, by=None, **shape) -> Evening:
        """A new evening of ``players`` (those present) with the first round proposed; ``shape``:
        the fields of the table shape, the seating rule and the round's limits."""
        with transaction.atomic():
            evening = cls.objects.create(
                group=group, created_by=by if by and by.is_authenticated else None, **shape
            )
            Presence.objects.bulk_create(Presence(evening=evening, player=p) for p in players)
            evening.propose()
        return evening

    @property
    def over(self) -> bool:
        return self.ended is not None

    def present(self) -> list[Player]:
        """Who is here, in roster order (the seating is the same for the same order)."""
        here = self.presences.filter(present=True).select_related("player")
        return [presence.player for presence in here.order_by("player__name", "player_id")]

    def current_round(self) -> Round | None:
        return self.rounds.order_by("-number").first()

    def propose(self) -> Round | None:
        """Seat the next round by the evening's rule (or seat again the one proposed, after
        someone joined or left); None when too few are present to fill a table."""
        current = self.current_round()
        if current is not None and current.started is None:
            number = current.number
            current.delete()
        else:
            number = current.number + 1 if current else 1
        self._changed()
        present = [player.pk for player in self.present()]
        seated = seat(
            present,
            self.shape,
            Rule(self.seating),
            ratings=ratings_of(self.group_id, present),
            played=self.played_so_far(),
            # Each round its own draw, the same every time the evening is seated again.
            seed=self.seed * 1000 + number,
        )
        if not seated.tables:
            return None
        return Round.objects.create(
            evening=self,
            number=number,
            tables=[list(table) for table in seated.tables],
            sitting_out=list(seated.out),
        )

    def played_so_far(self) -> list[Seating]:
        """The rounds started so far, as the seating reads them."""
        return [r.seating for r in self.rounds.filter(started__isnull=False).order_by("number")]

    def swap(self, first: Player, second: Player) -> None:
        """Swap two players of the proposed round (their seats, or a seat and a sit-out)."""
        with transaction.atomic():
            current = self._locked_proposal()
            seating = swapped(current.seating, first.pk, second.pk)
            current.tables = [list(table) for table in seating.tables]
            current.sitting_out = list(seating.out)
            current.save(update_fields=["tables", "sitting_out"])
            self._changed()

    def start_round(self, *, by=None) -> Round:
        """Start the proposed round: a game of the group at each of its tables."""
        with transaction.atomic():
            current = self._locked_proposal()
            players = {p.pk: p for p in self.group.players.filter(pk__in=current.seated_ids())}
            for number, table in enumerate(current.tables, start=1):
                seated = [players[pk] for pk in table]
                game = Game.start(
                    self.group,
                    seated,
                    self.rules,
                    decks=self.decks,
                    teams=Teams(self.teams),
                    trumps=self.trump_rule,
                    called=self.called if self.teams == Teams.FIND_A_FRIEND.value else None,
                    by=by,
                )
                EveningTable.objects.create(round=current, game=game, number=number)
            current.started = timezone.now()
            current.save(update_fields=["started"])
            self._changed()
        return current

    def next_round(self) -> Round | None:
        """End the round being played (its games still going are ended by the evening) and
        propose the next one."""
        with transaction.atomic():
            self._lock()
            current = self.current_round()
            if current is not None and current.running:
                current.end()
            return self.propose()

    def end(self) -> None:
        """End the evening: the round being played ends, a proposed one is dropped."""
        with transaction.atomic():
            self._lock()
            current = self.current_round()
            if current is not None and current.running:
                current.end()
            elif current is not None and current.started is None:
                current.delete()
            self.ended = timezone.now()
            self.save(update_fields=["ended"])
            self._changed()

    def set_present(self, player: Player, present: bool) -> None:
        """A player joins or leaves: the proposed round, if any, is seated again. TooMany if
        the evening already seats as many as it can."""
        with transaction.atomic():
            self._lock()
            here = self.presences.filter(present=True).exclude(player=player).count()
            if present and here >= MAX_EVENING_PLAYERS:
                raise TooMany(self)
            Presence.objects.update_or_create(
                evening=self, player=player, defaults={"present": present}
            )
            current = self.current_round()
            if current is not None and current.running:
                self._changed()  # they play, or stop playing, from the next round
            else:
                self.propose()

    def _locked_proposal(self) -> Round:
        """The proposed round, the evening's row held while it changes; NotProposed if the
        round is already under way or the evening is over."""
        self._lock()
        current = self.current_round()
        if current is None or current.started is not None:
            raise NotProposed(self)
        return current

    def _lock(self) -> None:
        """Hold the evening's row for the change under way (two members tapping at once change
        it one after the other); EveningOver once it has ended."""
        self.ended = (
            Evening.objects.select_for_update().values_list("ended", flat=True).get(pk=self.pk)
        )
        if self.over:
            raise EveningOver(self)

    def _changed(self) -> None:
        Evening.objects.filter(pk=self.pk).update(version=models.F("version") + 1)
        self.refresh_from_db(fields=["version"])


class TooMany(Exception):
    """A player joining an evening that seats as many as it can."""

    def __init__(self, evening: Evening) -> None:
        super().__init__(f"evening {evening.pk} seats {MAX_EVENING_PLAYERS} players at most")
        self.evening = evening


class EveningOver(Exception):
    """A change to an evening that has ended."""

    def __init__(self, evening: Evening) -> None:
        super().__init__(f"evening {evening.pk} is over")
        self.evening = evening


class NotProposed(Exception):
    """A change to a round's seating once the round has started (or the evening has ended)."""

    def __init__(self, evening: Evening) -> None:
        super().__init__(f"evening {evening.pk} has no round waiting to start")
        self.evening = evening


class Presence(models.Model):
    """A player on an evening's list: present now, or gone (they keep the rounds they played)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="presences")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    present = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["evening", "player"], name="present_once_an_evening")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.evening}"


class Round(models.Model):
    """A round of an evening: its seating (the players' ids, each table's in seat order, and
    who sits out), proposed until it is started; then a game at each table."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    tables = models.JSONField(default=list)
    sitting_out = models.JSONField(default=list, blank=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="one_round_per_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="rounds_from_one"),
            models.CheckConstraint(
                condition=models.Q(ended__isnull=True) | models.Q(started__isnull=False),
                name="round_ends_once_started",
            ),
            models.CheckConstraint(
                condition=models.Q(ended__isnull=True) | models.Q(ended__gte=models.F("started")),
                name="round_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.evening}"

    @property
    def running(self) -> bool:
        return self.started is not None and self.ended is None

    @property
    def seating(self) -> Seating:
        return Seating(
            tuple(map(tuple, self.tables)), tuple(self.sitting_out), Teams(self.evening.teams)
        )

    def seated_ids(self) -> list[int]:
        return [pk for table in self.tables for pk in table]

    @property
    def ends_at(self) -> datetime | None:
        """When the round has run the evening's minutes (None without a time limit)."""
        minutes = self.evening.minutes_per_round
        if not minutes or self.started is None:
            return None
        return self.started + timedelta(minutes=minutes)

    def time_up(self, now: datetime | None = None) -> bool:
        """Whether the round being played has run the evening's minutes."""
        ends = self.ends_at
        return self.running and ends is not None and (now or timezone.now()) >= ends

    def end(self) -> None:
        """End the round: every game of it still going is ended by the evening (it counts for
        levels and hands, not as won, and takes no more hands)."""
        now = timezone.now()
        tables = list(self.tables_played.select_related("game__summary"))
        going = [
            table.game_id
            for table in tables
            if table.ended is None and not table.game.summary.winners
        ]
        with transaction.atomic():
            # The games are held as a hand's save holds them: a hand saved meanwhile comes first.
            list(Game.objects.select_for_update().filter(pk__in=going).values_list("pk"))
            EveningTable.objects.filter(game_id__in=going).update(ended=now)
            # Watching phones and the ladder's summaries see the game change.
            Game.objects.filter(pk__in=going).update(version=models.F("version") + 1)
            GameSummary.objects.filter(game_id__in=going).update(version=models.F("version") + 1)
            Group.objects.filter(pk=self.evening.group_id).update(version=models.F("version") + 1)
            self.ended = now
            self.save(update_fields=["ended"])


class EveningTable(models.Model):
    """A table of an evening's round: its game, and when the evening ended it if the round
    cut it short (it then counts for levels climbed and hands played, not as won, not in the
    ratings, and takes no more hands)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables_played")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="evening_table")
    number = models.PositiveSmallIntegerField()
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="tables_from_one"),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"

    @property
    def evening(self) -> Evening:
        return self.round.evening


class GameEnded(GameError):
    """A hand for a game the evening ended, or whose table has played the round's hands; or a
    correction that would make a game the evening ended won. Like any refused hand, it says
    why in the players' words (:meth:`in_words`), which the hand form shows."""

    def __init__(
        self, game: Game, table: EveningTable, *, limit: bool = False, won: bool = False
    ) -> None:
        super().__init__(f"game {game.pk} was ended by its evening")
        self.game = game
        self.table = table
        self.limit = limit
        self.won = won

    def in_words(self, *_words) -> str:
        # In the app's words, whatever a caller passes for scoring's own sentences.
        if self.limit:
            hands = self.table.round.evening.hands_per_round
            return ngettext(
                "This table has played the round's %(hands)d hand: the next hand waits for the "
                "next round.",
                "This table has played the round's %(hands)d hands: the next hand waits for the "
                "next round.",
                hands,
            ) % {"hands": hands}
        if self.won:
            return gettext(
                "With this correction the game would be won, but the club night ended it with "
                "round %(round)d: a game the evening ended is not won."
            ) % {"round": self.table.round.number}
        return gettext(
            "The club night ended this game with round %(round)d: no more hands to record. It "
            "counts for levels climbed and hands played, not as won."
        ) % {"round": self.table.round.number}


def _table_of(game: Game) -> EveningTable | None:
    """The game's table at an evening, if it has one: as the game came (pages fetch it with
    the game, ``evening_table__round__evening``), else read."""
    if Game.evening_table.is_cached(game):
        try:
            return game.evening_table
        except EveningTable.DoesNotExist:
            return None
    return (
        EveningTable.objects.filter(game=game)
        .select_related("round__evening")
        .only("ended", "number", "round__number", "round__evening__hands_per_round")
        .first()
    )


def refuse_win(game: Game, played: ScoredGame) -> None:
    """Raise GameEnded if a change would make a game the evening ended won: it was cut short,
    and stays neither won nor rated."""
    if not played.state.winners:
        return
    table = _table_of(game)
    if table is not None and table.ended is not None:
        raise GameEnded(game, table, won=True)


def refuse_hand(game: Game, count: int) -> None:
    """Raise GameEnded if ``game``, with ``count`` hands, takes no more: the evening ended it,
    or its table has played the hands the evening gives a round."""
    closed = closed_for_hands(game, count)
    if closed is not None:
        raise closed


def closed_for_hands(game: Game, count: int) -> GameEnded | None:
    """Why ``game``, with ``count`` hands, takes no more (see :func:`refuse_hand`), or None."""
    table = _table_of(game)
    if table is None:
        return None
    if table.ended is not None:
        return GameEnded(game, table)
    limit = table.round.evening.hands_per_round
    if limit and count >= limit:
        return GameEnded(game, table, limit=True)
    return None


def ratings_of(group_id: int, players: list[int]) -> dict[int, float]:
    """The players' OpenSkill ordinals now: the default rating's (0) for those unrated."""
    rated = {
        player: mu - 3 * sigma
        for player, mu, sigma in PlayerLadder.objects.filter(
            group_id=group_id, player_id__in=players, rated__gt=0
        ).values_list("player_id", "mu", "sigma")
    }
    return {player: rated.get(player, 0.0) for player in players}


from companion.models.ladder import GameSummary, PlayerLadder  # noqa: E402
