"""The ladder's store: each game as the history reads it, every player's line and ratings, and
the tallies the history's filters read, all moved by every change to a game in its own
transaction (the arithmetic is `companion.ladder`'s and `scoring.stats`')."""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Hashable
from datetime import datetime

from django.apps import apps as global_apps
from django.db import models, transaction
from django.db.models.functions import Length
from django.utils import timezone

import scoring
from companion.ladder import ALL_TIME, Tally, TallyKey, moved, periods, whole
from companion.models.games import HAND_RESULT_FIELDS, Game, Hand, Seat
from companion.models.groups import Group, Player
from companion.ratings import RatingPoint, rate_game, replay_ratings
from scoring.game import Game as ScoredGame
from scoring.stats import (
    GameLine,
    GameRecord,
    HandLine,
    PlayerStats,
    every_player_stats,
    game_stats,
    partial_replay,
)
from scoring.table import MAX_PLAYERS, MIN_PLAYERS, Table, Teams


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
        them, where the caller has them (a game waiting for a confirmation counts up to that
        hand: the replay's prefix); otherwise their hands are read in one query. Whatever
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
        if scored is None:
            records = cls.records(games)
        else:
            waiting = _first_waiting(games)
            records = [
                GameRecord.of(
                    game.pk,
                    _counted(played, waiting.get(game.pk)),
                    [seat.player_id for seat in game.seated],
                    game.created,
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
        seated = _seated(Seat.objects, games)
        lines = {}
        for game_id, played, levels, count, winners, rules_json, decks, teams, called in rows:
            players = [player for player, _start in seated[game_id]]
            lines[game_id] = GameLine.stored(
                game_id,
                _rules(_canonical(rules_json)),
                players,
                _fixed_teams(teams, len(players), decks, called),
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


def _first_waiting(games: list[Game]) -> dict[int, int]:
    """The number of each game's first hand still waiting for its confirmation, where its group
    asks for them: one query, none when no group does."""
    asking = [game.pk for game in games if game.group.hands_need_confirmation]
    if not asking:
        return {}
    waiting = Hand.objects.filter(game__in=asking, needs_confirmation=True, confirmed_at=None)
    firsts = waiting.order_by().values("game_id").annotate(first=models.Min("number"))
    return {row["game_id"]: row["first"] for row in firsts}


def _counted(played: ScoredGame, waiting: int | None) -> ScoredGame:
    """The game as the history counts it: up to hand ``waiting``, the first still waiting for
    its confirmation, if any (see :meth:`GameSummary.records`)."""
    return played if waiting is None else ScoredGame(played.setup, played.hands[: waiting - 1])


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
    seated = _seated(seats, [row[0] for row in rows])
    records = {}
    for game_id, played, hands, winners, rules_json, decks, teams, called in rows:
        players, levels = zip(*seated[game_id], strict=True)
        records[game_id] = GameRecord(
            game_id,
            _rules(_canonical(rules_json)),
            players,
            _fixed_teams(teams, len(players), decks, called),
            tuple(map(scoring.Rank.parse, levels)),
            tuple(map(HandLine.from_json, hands)),
            tuple(map(int, winners)),
            played,
            decks,
        )
    return records


def _seated(seats: models.Manager, games: list[int]) -> dict[int, list[tuple[int, str]]]:
    """Each game's players with their starting levels, in seat order (one query)."""
    seated: dict[int, list[tuple[int, str]]] = {}
    for game_id, player_id, level in (
        seats.filter(game_id__in=games)
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "level")
    ):
        seated.setdefault(game_id, []).append((player_id, level))
    return seated


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
