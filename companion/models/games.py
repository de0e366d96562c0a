"""Games: their seats, their hands as the table entered them, every change to those hands, and
the tricks the table argued about; why a save or a confirmation was refused."""

from __future__ import annotations

import enum
import functools

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

import scoring
from companion.models.groups import (
    Group,
    GroupChange,
    Player,
    new_token,
)
from scoring.game import Game as ScoredGame
from scoring.game import GameSetup, HandResult, declaring_side, replay
from scoring.table import (
    BY_BID,
    MAX_PLAYERS,
    NO_TRUMP,
    NOT_DECLARED,
    Table,
    Teams,
    TrumpRule,
    parse_trump,
    trump_text,
)


def trumps_by_bid() -> str:
    return BY_BID.to_json()


# The trumps a table can declare for a hand: a suit, or no trump (a bid of jokers).
TRUMPS_DECLARED = [
    *((suit.value, suit.symbol) for suit in scoring.Suit),
    (NO_TRUMP, _("No trump")),
]


class GameQuerySet(models.QuerySet):
    def for_member(self, user) -> GameQuerySet:
        """The games of the groups ``user`` is a member of, each with its group (every page of
        a game names it) and its club night's table if any; none for an anonymous visitor."""
        if not user.is_authenticated:
            return self.none()
        # A game of a club night comes with its table, which says whether the evening ended it.
        return self.filter(group__members=user).select_related(
            "group", "evening_table__round__evening"
        )

    def with_seats(self) -> GameQuerySet:
        """Each game with its seats and their players, in one more query."""
        return self.prefetch_related(SEATED)


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
    # The trump the table declared for hand ``trump_declared_for`` (the hand being played) in a
    # game whose trump is bid, tapped as soon as it is known: NOT_DECLARED (blank) when none is,
    # NO_TRUMP for no trump. Recording that hand clears it; a hand number since gone by is ignored.
    trump_declared = models.CharField(max_length=2, blank=True, choices=TRUMPS_DECLARED)
    trump_declared_for = models.PositiveSmallIntegerField(null=True, blank=True)
    created = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = GameQuerySet.as_manager()

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
            models.CheckConstraint(
                condition=models.Q(trump_declared__in=[NOT_DECLARED, *dict(TRUMPS_DECLARED)]),
                name="trump_declared_known",
            ),
            # A trump is declared for a hand, and only where the trump is bid.
            models.CheckConstraint(
                condition=models.Q(trump_declared="", trump_declared_for=None)
                | models.Q(
                    ~models.Q(trump_declared=""),
                    trump_declared_for__isnull=False,
                    trump_declared_for__gte=1,
                    trumps="bid",
                ),
                name="trump_declared_for_a_hand_under_a_bid",
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
    def trump_is_bid(self) -> bool:
        """Whether each hand's trump is bid (and may be declared as soon as it is known)."""
        return TrumpRule.from_json(self.trumps).bids

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

    def record_hand(
        self,
        fields: dict,
        *,
        version: int,
        request_key: str,
        by,
        hands: list[Hand] | None = None,
        played: ScoredGame | None = None,
    ) -> Hand:
        """Add the next hand. A retried request (same ``request_key``) returns the hand it
        already saved, or raises SavedDifferently if that hand differs from this one; a save
        made against an older ``version`` raises StaleGame, one for a game its evening ended
        GameEnded. ``hands`` are the game's hands as the caller read them at this object's
        version (`hands_and_version`) and ``played`` the game with this hand as its last,
        replayed from them (the hand form's): while the locked game is still at that version
        they are neither read nor replayed again."""
        with transaction.atomic():
            game = self._locked()
            held = hands is not None and game.version == self.version
            if not held:
                hands, played = list(game.hands.all()), None
            if request_key:
                saved = next((hand for hand in hands if hand.request_key == request_key), None)
                if saved is not None:
                    if any(getattr(saved, name) != value for name, value in fields.items()):
                        raise SavedDifferently(saved)
                    return saved
            game._check_version(version)
            # The locked game's table, read with it: an evening ended since the page was read
            # raised the version, but not the table the caller holds.
            evenings.refuse_hand(game, len(hands))
            hand = Hand(
                game=game,
                number=len(hands) + 1,
                request_key=request_key,
                **fields,
                **Hand.entered(game.group, by),
            )
            if played is None:
                played = game.scored([*hands, hand])
            hand.save()
            # Precedents saved while this hand was being played now belong to it.
            game.disputes.filter(hand=None, hand_number=hand.number).update(hand=hand)
            game._changed(
                hand.number, HandChange.Action.RECORDED, None, hand.snapshot(), by, played=played
            )
        self._caught_up(game)
        return hand

    def edit_hand(
        self,
        number: int,
        fields: dict,
        *,
        version: int,
        by,
        hands: list[Hand] | None = None,
        played: ScoredGame | None = None,
    ) -> Hand:
        """Change a past hand; every later hand is settled again from it. ``hands`` and
        ``played`` as for :meth:`record_hand`: the game's hands the caller read at this
        object's version (the edited one among them is changed), and the game after the
        change replayed from them; else they are read and replayed here."""
        with transaction.atomic():
            game = self._locked()
            game._check_version(version)
            if hands is None or game.version != self.version:
                hands, played = list(game.hands.all()), None
            hand = hands[number - 1]
            before = hand.snapshot()
            for name, value in fields.items():
                setattr(hand, name, value)
            if hand.snapshot() != before:
                # New contents wait for a confirmation of their own; a correction settles a flag.
                for name, value in Hand.entered(game.group, by).items():
                    setattr(hand, name, value)
            if played is None:
                played = game.scored(hands)
            evenings.refuse_win(game, played)
            hand.save()
            game._changed(
                number, HandChange.Action.EDITED, before, hand.snapshot(), by, played=played
            )
        self._caught_up(game)
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

    def declare_trump(self, number: int, trump: str) -> None:
        """Keep ``trump`` (a suit's letter, or NO_TRUMP) as the trump the table declared
        for hand ``number``, the hand being played; TrumpNotDeclarable says why not. Watching
        phones and the table screen show it at their next poll."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if not game.table.trumps.bids:
                raise TrumpNotDeclarable(TrumpNotDeclarable.Reason.FIXED)
            if number != game.hands.count() + 1:
                raise TrumpNotDeclarable(TrumpNotDeclarable.Reason.NOT_PLAYED)
            if (game.trump_declared_for, game.trump_declared) != (number, trump):  # not a tap again
                Game.objects.filter(pk=self.pk).update(
                    trump_declared=trump,
                    trump_declared_for=number,
                    version=models.F("version") + 1,
                )
                # The hands are as they were: a summary of the game's version goes along with it.
                GameSummary.objects.filter(game=self).update(version=models.F("version") + 1)
        self.refresh_from_db(fields=["trump_declared", "trump_declared_for", "version"])

    def declared_trump(self, number: int) -> str:
        """The trump declared for hand ``number`` (a suit's letter, or NO_TRUMP); NOT_DECLARED
        if none was, or one was for another hand."""
        return self.trump_declared if self.trump_declared_for == number else NOT_DECLARED

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

    def _locked(self) -> Game:
        """The game read again and locked against other changes until the transaction ends,
        with its club night's table (which says whether the evening ended it). What a change
        to its hands leaves as it was comes as this object holds it, if it does: the group
        (whether a hand needs a confirmation) and the seats (the ladder names their players)."""
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("evening_table__round__evening")
            .get(pk=self.pk)
        )
        if Game.group.is_cached(self):
            game.group = self.group
        if "seated" in vars(self):
            game.seated = self.seated
        return game

    def _caught_up(self, game: Game) -> None:
        """This object at the version ``game``, the locked copy, made."""
        self.version = game.version
        self.trump_declared, self.trump_declared_for = game.trump_declared, game.trump_declared_for

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
        the game as the change's own check replayed it, where there is one. A recorded hand
        takes the trump declared for it along."""
        # The game is locked: the next version is known without reading it back.
        self.version += 1
        declared = {"trump_declared": "", "trump_declared_for": None}
        if action != HandChange.Action.RECORDED:
            declared = {}
        Game.objects.filter(pk=self.pk).update(version=self.version, **declared)
        for name, value in declared.items():
            setattr(self, name, value)
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


# A game's seats with their players in one query: every page of a game names them.
SEATED = models.Prefetch("seats", queryset=Seat.objects.select_related("player"))


class StaleGame(Exception):
    """Someone else changed the game since this page was loaded."""

    def __init__(self, game: Game) -> None:
        super().__init__("the game changed since this page was loaded")
        self.game = game


class TrumpNotDeclarable(Exception):
    """A trump declared for a game or a hand that takes none."""

    class Reason(enum.Enum):
        FIXED = "fixed"  # the game fixes its trump: nobody bids
        NOT_PLAYED = "not played"  # the hand is not the one being played (saved meanwhile)

    def __init__(self, reason: TrumpNotDeclarable.Reason) -> None:
        super().__init__(f"no trump can be declared: {reason.value}")
        self.reason = reason


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
    trump = models.CharField(max_length=2, help_text="S H D C, or NT: no trump")
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
                condition=models.Q(trump__in=list(dict(TRUMPS_DECLARED))), name="hand_trump_known"
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
            trump=parse_trump(self.trump),
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
            "trump": trump_text(result.trump),
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


# What the ladder reads of a hand: what the table entered, and its game.
HAND_RESULT_FIELDS = ("game_id", *Hand.SNAPSHOT_FIELDS)


# The ladder's models read games, and every change to a game moves them.
from companion.models import evenings  # noqa: E402
from companion.models.ladder import GameSummary, PlayerLadder  # noqa: E402
