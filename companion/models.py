"""The group's data. Models are glue: they store what the table entered and ask `scoring` what
it means; no game rule is computed here."""

from __future__ import annotations

import functools
import secrets
import threading
from collections import OrderedDict

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring
from companion.ladder import Ladder
from scoring.game import Game as ScoredGame
from scoring.game import GameSetup, HandResult, replay
from scoring.stats import GameRecord, partial_replay
from scoring.table import BY_BID, MAX_PLAYERS, Table, Teams, TrumpRule


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Group(models.Model):
    """A group that plays together ("Thursday Tractor"); its members record and edit."""

    name = models.CharField(_("name"), max_length=80)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="tractor_groups"
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_token)
    created = models.DateTimeField(default=timezone.now)
    # Raised by every change to the group's games, so a kept ladder of another version is stale.
    version = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("group", args=[self.pk])

    def new_invite(self) -> None:
        """Replace the invite link: the old one stops letting anyone in."""
        self.invite_token = new_token()
        self.save(update_fields=["invite_token"])

    def remove_member(self, user) -> bool:
        """Take ``user`` out of the group, leaving or removed by another member; False if they
        were not a member. Their player stays on the roster with all their games, no longer
        linked to an account that cannot see them. The last member cannot go (LastMember):
        nobody could ever open the group again.
        """
        with transaction.atomic():
            # Two members leaving at once must not both find someone else still there.
            Group.objects.select_for_update().get(pk=self.pk)
            memberships = Membership.objects.filter(group=self)
            if not memberships.filter(user=user).exists():
                return False
            if memberships.count() == 1:
                raise LastMember(self)
            memberships.filter(user=user).delete()
            self.players.filter(user=user).update(user=None)
        return True


class LastMember(Exception):
    """The group's last member asked to leave it."""

    def __init__(self, group: Group) -> None:
        super().__init__(f"the last member of {group} cannot leave it")
        self.group = group


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    joined = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_group")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.group}"


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
            models.UniqueConstraint(fields=["group", "name"], name="unique_player_name_in_group"),
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

    def retire(self, retired: bool = True) -> None:
        """Retire the player, or bring them back with ``retired=False``."""
        self.retired = retired
        self.save(update_fields=["retired"])


class ScoringTable(models.Model):
    """A group's own rules: its point bands, kitty rule and game end, as `scoring` JSON."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="scoring_tables")
    rules_json = models.JSONField()
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rules_json__name"]

    def __str__(self) -> str:
        return self.rules.name

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
        return game

    def new_share_link(self) -> None:
        """Replace the share link: phones watching by the old one stop seeing the game."""
        self.share_token = new_token()
        self.save(update_fields=["share_token"])

    def player_at(self, seat: int) -> Player:
        return self.seated[seat].player

    def scored(self, hands: list[Hand] | None = None) -> ScoredGame:
        """The game as `scoring` folds it from its hands (``hands`` if already fetched)."""
        if hands is None:
            hands = list(self.hands.all())
        return replay(self.setup, (hand.result for hand in hands))

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
            hand = Hand(game=game, number=len(hands) + 1, request_key=request_key, **fields)
            game.scored([*hands, hand])
            hand.save()
            # Precedents saved while this hand was being played now belong to it.
            game.disputes.filter(hand=None, hand_number=hand.number).update(hand=hand)
            game._changed(hand.number, HandChange.Action.RECORDED, None, hand.snapshot(), by)
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
            game.scored(hands)
            hand.save()
            game._changed(number, HandChange.Action.EDITED, before, hand.snapshot(), by)
        self.version = game.version
        return hand

    def delete_hand(self, number: int, *, version: int, by) -> None:
        """Remove a hand (the last one: undo); later hands move up and are settled again."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            game._check_version(version)
            hands = list(game.hands.all())
            gone = hands.pop(number - 1)
            game.scored(hands)
            before = gone.snapshot()
            gone.delete()
            for hand in hands[number - 1 :]:
                hand.number -= 1
                hand.save(update_fields=["number"])
            # Precedents waiting for the hand being played move up with it.
            game.disputes.filter(hand=None, hand_number__gt=number).update(
                hand_number=models.F("hand_number") - 1
            )
            game._changed(number, HandChange.Action.DELETED, before, None, by)
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
        self.refresh_from_db(fields=["version"])
        return dispute

    def precedents(self, hands: list[Hand]) -> dict[int, list[Dispute]]:
        """The saved disputes by hand number (``hands`` already fetched), in one query; those of
        the hand being played under the next number."""
        numbers = {hand.pk: hand.number for hand in hands}
        playing = len(hands) + 1
        found: dict[int, list[Dispute]] = {}
        for dispute in self.disputes.all():
            if dispute.hand_id is not None:
                number = numbers.get(dispute.hand_id)
            else:
                number = playing if dispute.hand_number == playing else None
            if number is not None:
                found.setdefault(number, []).append(dispute)
        return found

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise StaleGame(self)

    def _changed(self, number: int, action: str, before, after, by) -> None:
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
        )


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


class HandChange(models.Model):
    """The history of every change to a game's hands: nothing an edit replaces is lost."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        EDITED = "edited", _("edited")
        DELETED = "deleted", _("deleted")

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

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"hand {self.hand_number} {self.action}"


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

    @property
    def complete(self) -> bool:
        """Whether everyone at the game's table had played to the trick."""
        return len(self.request["plays"]) >= len(self.game.seated)


class GameSummary(models.Model):
    """A game's hands as the ladder history reads them (`scoring.stats.GameRecord`).

    It is kept beside the game so that the history does not replay every hand of every game on
    each page. A summary belongs to the game's ``version``, which every change to a hand raises:
    one of another version is stale, and the next page that needs it makes it again from the
    hands (so it always agrees with a replay of them).
    """

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="summary"
    )
    version = models.PositiveIntegerField()
    hands = models.JSONField(default=list)
    # The winners' seats as digits ("02"); blank while the game goes on.
    winners = models.CharField(max_length=MAX_PLAYERS, blank=True)

    def __str__(self) -> str:
        return f"summary of game {self.game_id} at version {self.version}"

    @classmethod
    def ladder(cls, group: Group) -> Ladder:
        """The group's ladder history, its games oldest first.

        The last one made for each group is kept in this process while the group's games are
        unchanged: a hand recorded, edited or deleted raises a game's version, and a game added
        or removed changes their count, so one aggregate query tells whether it still holds.
        Otherwise it is made again: one query for the games with their summaries, and the two
        of :meth:`records` when some are stale.
        """
        signature = (group.created, *group.games.aggregate(**GAMES_SIGNATURE).values())
        with _LADDERS_LOCK:
            kept = _LADDERS.get(group.pk)
            if kept is not None and kept[0] == signature:
                _LADDERS.move_to_end(group.pk)
                return kept[1]
        games = list(
            group.games.select_related("summary")
            .prefetch_related("seats__player")
            .order_by("created", "pk")
        )
        ladder = Ladder(cls.records(games))
        with _LADDERS_LOCK:
            _LADDERS[group.pk] = (signature, ladder)
            while len(_LADDERS) > KEPT_LADDERS:
                _LADDERS.popitem(last=False)
        return ladder

    @classmethod
    def records(cls, games: list[Game]) -> list[GameRecord]:
        """The games' records, in their order. Stale or missing summaries are made again from
        their games' hands: one query to read those hands, one to save the summaries."""
        stale = [game for game in games if _summary_version(game) != game.version]
        if stale:
            hands: dict[int, list[Hand]] = {game.pk: [] for game in stale}
            found = Hand.objects.filter(game__in=stale).only(*HAND_RESULT_FIELDS)
            for hand in found.order_by("game_id", "number"):
                hands[hand.game_id].append(hand)
            summaries = []
            for game in stale:
                results = (hand.result for hand in hands[game.pk])
                scored = partial_replay(game.setup, results).game
                record = GameRecord.of(game.pk, scored, game.players)
                game.summary = cls(
                    game=game,
                    version=game.version,
                    hands=record.hands_json(),
                    winners=GameRecord.winners_json(record.winners),
                )
                summaries.append(game.summary)
            cls.objects.bulk_create(
                summaries,
                update_conflicts=True,
                unique_fields=["game"],
                update_fields=["version", "hands", "winners"],
            )
        return [
            GameRecord.with_hands_json(
                game.pk,
                game.setup,
                [seat.player_id for seat in game.seated],
                game.summary.hands,
                game.summary.winners,
                played=game.created,
            )
            for game in games
        ]


GAMES_SIGNATURE = {
    "count": models.Count("pk"),
    "versions": models.Sum("version"),
    "ids": models.Sum("pk"),
    "newest": models.Max("created"),
}
KEPT_LADDERS = 32
_LADDERS: OrderedDict[int, tuple[tuple, Ladder]] = OrderedDict()
_LADDERS_LOCK = threading.Lock()  # the server's threads share the kept ladders

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


def _summary_version(game: Game) -> int | None:
    try:
        return game.summary.version
    except GameSummary.DoesNotExist:
        return None
