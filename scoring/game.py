"""A game as a fold over its hands: levels, sides, who declares and who starts next, the end.

A game is played at a :class:`~scoring.table.Table` (4 to 8 players in play order, 2 to 4 decks,
fixed teams or find-a-friend) under :class:`~scoring.rules.Rules`. Every player has a level; in
fixed teams a team's players share theirs. Each hand names its declarer (and, in find-a-friend,
the friends who played a called card); `settle` scores it and the winning side climbs.

>>> from scoring.rules import Format, Side, get_rules
>>> from scoring.settle import LastTrick
>>> from scoring.table import Table
>>> setup = GameSetup(get_rules("standard"), Table(("Mei", "Jun", "Lin", "Hao")))
>>> game = replay(setup, [HandResult(0, 45, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))])
>>> [str(level) for level in game.state.levels]
['3', '2', '3', '2']
>>> game.state.next_declarers, game.state.next_declarer
((0, 2), 2)
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.cards import Rank, Suit
from scoring.errors import RulesError, ScoringError
from scoring.reading import json_object, player_seat, required, trump_suit
from scoring.rules import GameEnd, Rules, Side, Starter
from scoring.settle import (
    NOTHING_TAKEN_BACK,
    LastTrick,
    Levels,
    Settlement,
    TakenBack,
    climb,
    settle,
)
from scoring.table import Bid, Table, Teams, check_bid
from scoring.words import Gettext, Ngettext, Sentence, english, gettext_noop, ngettext


class GameError(ScoringError):
    """A hand that cannot follow the game so far (a declarer the rules do not allow, friends
    who cannot be, the game already over), or a game that cannot start.

    ``hand`` is the hand's number and ``field`` the input at fault (``declarer``, ``friends``,
    ``trump``, ``bid``, or a field of `settle`), so that a form shows it beside that field.
    """

    def __init__(
        self,
        message: str,
        *,
        hand: int | None = None,
        field: str | None = None,
        said: str = "",
        values: Mapping[str, object] | None = None,
    ):
        super().__init__(
            f"hand {hand}: {message}" if hand is not None else message, said=said, values=values
        )
        self.detail = message
        self.hand = hand
        self.field = field

    def in_words(self, gettext: Gettext = str, ngettext: Ngettext = english) -> str:
        """The problem with the hand as a player reads it, without the hand's number."""
        return super().in_words(gettext, ngettext) if self.said else self.detail


@dataclass(frozen=True, slots=True)
class GameSetup:
    """How a game starts: its rules, its table, every player's level (all at 2 unless given;
    team-mates share theirs) and who starts hand 1 (None: the first bid decides)."""

    rules: Rules
    table: Table
    levels: tuple[Rank, ...] = ()
    first_declarer: int | None = None

    def __post_init__(self) -> None:
        table = self.table
        if not self.levels:
            object.__setattr__(self, "levels", (Rank.TWO,) * table.size)
        if len(self.levels) != table.size:
            raise GameError(f"{table.size} players need {table.size} levels", field="levels")
        for team in table.fixed:
            if len({self.levels[seat] for seat in team}) > 1:
                raise GameError(
                    f"{table.names(team)} are a team and share one level",
                    field="levels",
                    # Translators: {team} lists the team's players, such as "Mei and Lin".
                    said=gettext_noop("{team} are a team and share one level."),
                    values={"team": table.names(team)},
                )
        if self.first_declarer is not None and self.first_declarer not in table.seats:
            raise GameError(f"no seat {self.first_declarer} at this table", field="first_declarer")
        try:
            self.rules.for_decks(table.decks)
        except RulesError as error:
            raise GameError(
                f"the {self.rules.name} table cannot be played with {table.decks} decks: {error}",
                field="decks",
                said=gettext_noop(
                    # Translators: {rules} is the scoring table's name; {problem} a sentence that
                    # says what is wrong with it once its bands are scaled to {decks} decks.
                    "The {rules} table cannot be played with {decks} decks: {problem}"
                ),
                values={"rules": self.rules.name, "decks": table.decks, "problem": error.sentence},
            ) from None

    @property
    def rotating(self) -> bool:
        """Whether exactly one player may start each hand after the first: the rules rotate
        the start, nobody bids (a fixed trump), or every player is their own side."""
        return (
            self.rules.starter is Starter.ROTATE
            or not self.table.trumps.bids
            or self.table.teams is Teams.FIND_A_FRIEND
        )

    @property
    def needs_first_declarer(self) -> bool:
        """Whether hand 1's starter must be chosen when the game begins: nobody bids for it."""
        return self.rules.starter is Starter.ROTATE or not self.table.trumps.bids


@dataclass(frozen=True, slots=True)
class HandResult:
    """What the table enters when a hand ends. ``declarer`` is the seat that declared (won the
    bid, or held the deal) and started the hand; ``friends`` the seats that played a called card
    (find-a-friend: the declarer's own seat when they played one). ``trump`` is the hand's trump
    suit (None: no trump) and ``bid`` what won the bid, where one is given."""

    declarer: int
    opponent_points: int
    kitty_points: int
    last_trick: LastTrick
    taken_back: TakenBack = NOTHING_TAKEN_BACK
    friends: tuple[int, ...] = ()
    trump: Suit | None = None
    bid: Bid | None = None

    @classmethod
    def from_json(cls, value: object, table: Table, number: int) -> HandResult:
        """Read hand ``number`` of a game at ``table`` as the ``game`` command's request writes
        it (docs/engine-json.md): players by name, ``trump`` a suit or null (no trump), and
        under a fixed trump rule ``trump`` may be left out for the rule's. The bid is not part
        of it: the engine reads none. An error names the hand and quotes the input.

        >>> table = Table(("Mei", "Jun", "Lin", "Hao"))
        >>> hand = HandResult.from_json(
        ...     {"declarer": "Lin", "trump": None, "opponent_points": 85, "kitty_points": 0,
        ...      "last_trick": {"winner": "opponents", "format": "pair"}}, table, 2)
        >>> hand.declarer, hand.trump, hand.last_trick.cards
        (2, None, 2)
        >>> HandResult.from_json({"declarer": "Yan", "trump": "S"}, table, 2)
        Traceback (most recent call last):
        ...
        scoring.game.GameError: hand 2: declarer: "Yan" is not one of the players
        """
        try:
            data = json_object(value, "the hand")
            if table.trumps.bids:
                trump = trump_suit(required(data, "trump"))
            else:
                trump = trump_suit(data["trump"]) if "trump" in data else table.trumps.fixed(number)
            friends = data.get("friends", [])
            if not isinstance(friends, list):
                raise ScoringError(f"friends must be a list of players, got {json.dumps(friends)}")
            return cls(
                declarer=player_seat(table, required(data, "declarer"), "declarer"),
                opponent_points=required(data, "opponent_points"),  # type: ignore[arg-type]
                kitty_points=required(data, "kitty_points"),  # type: ignore[arg-type]
                last_trick=LastTrick.from_json(required(data, "last_trick")),
                taken_back=TakenBack.from_json(data.get("taken_back", {})),
                friends=tuple(player_seat(table, name, "friends") for name in friends),
                trump=trump,
            )
        except ScoringError as error:
            raise GameError(
                str(error), hand=number, said=error.sentence if error.said else ""
            ) from None

    def to_json(self, table: Table) -> dict[str, object]:
        """The hand as :meth:`from_json` reads it back at ``table`` (its bid left out):
        ``taken_back`` only when cards were, ``friends`` only in find-a-friend.

        >>> from scoring.rules import Format
        >>> table = Table(("Mei", "Jun", "Lin", "Hao"))
        >>> HandResult(0, 35, 10, LastTrick(Side.DECLARERS, Format.SINGLE, 1), trump=Suit.HEARTS
        ...            ).to_json(table)  # doctest: +NORMALIZE_WHITESPACE
        {'declarer': 'Mei', 'trump': 'H', 'opponent_points': 35, 'kitty_points': 10,
         'last_trick': {'winner': 'declarers', 'format': 'single', 'cards': 1}}
        """
        data: dict[str, object] = {
            "declarer": table.players[self.declarer],
            "trump": str(self.trump) if self.trump else None,
            "opponent_points": self.opponent_points,
            "kitty_points": self.kitty_points,
            "last_trick": self.last_trick.to_json(),
        }
        if self.taken_back:
            data["taken_back"] = self.taken_back.to_json()
        if not table.fixed_teams:
            data["friends"] = [table.players[friend] for friend in self.friends]
        return data


@dataclass(frozen=True, slots=True)
class GameState:
    """The game between hands: every player's level, who may start the next hand and who
    starts it, and once the game is over, its winners.

    ``next_declarers`` are the seats any of whom may start the next hand (one seat where the
    start rotates; the whole table before a first bid); ``next_declarer`` is the one who starts
    it where the start rotates, the rules' suggestion under a bid, and None before a first bid
    or once the game is over.
    """

    number: int
    """The next hand's number."""
    levels: tuple[Rank, ...]
    next_declarers: tuple[int, ...]
    next_declarer: int | None
    winners: tuple[int, ...] = ()

    @property
    def game_over(self) -> bool:
        return bool(self.winners)

    @property
    def level(self) -> Rank | None:
        """The next hand's level: its declarer's, or the one level all who may start it share
        (a team before its first bid); None while the bid decides between levels."""
        if self.next_declarer is not None:
            return self.levels[self.next_declarer]
        levels = {self.levels[seat] for seat in self.next_declarers}
        return levels.pop() if len(levels) == 1 else None


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand of a game: what was entered, the sides, how it settled and the game after it.

    ``levels_gained`` has every player of the winning side and the levels they climbed, as
    `settle` counts them (0 for those who did not climb, such as the other opponent teams under
    pairs).
    """

    number: int
    result: HandResult
    declarers: tuple[int, ...]
    opponents: tuple[int, ...]
    level: Rank
    trump: Suit | None
    settlement: Settlement
    levels_gained: Mapping[int, int]
    before: GameState
    after: GameState

    @property
    def winner(self) -> Side:
        return self.settlement.winner

    @property
    def winners(self) -> tuple[int, ...]:
        """The hand's winning side."""
        return self.declarers if self.winner is Side.DECLARERS else self.opponents

    @property
    def short_handed(self) -> bool:
        return self.settlement.short_handed

    @property
    def friends(self) -> tuple[int, ...]:
        """The declarer's side but the declarer."""
        return tuple(seat for seat in self.declarers if seat != self.result.declarer)

    def summary(self, players: Sequence[str]) -> Sentence:
        """The hand's result in one sentence, to be read across the table: who declared, the
        opponents' total and what it did to the game (``players``: the names in play order).

        >>> from scoring.rules import Format, get_rules
        >>> setup = GameSetup(get_rules("standard"), Table(("Mei", "Jun", "Lin", "Hao")))
        >>> held = LastTrick(Side.DECLARERS, Format.SINGLE, 1)
        >>> game = replay(setup, [HandResult(0, 35, 0, held), HandResult(2, 80, 0, held)])
        >>> for hand in game.hands:
        ...     print(hand.summary(setup.table.players))
        Hand 1, Mei declaring: the declarers held the opponents to 35 and climbed 2 levels.
        Hand 2, Lin declaring: the opponents reached 80 and took the deal.
        """
        s = self.settlement
        n = s.levels_gained
        if s.winner is Side.DECLARERS and s.game_over:
            said = gettext_noop(
                "Hand {number}, {declarer} declaring: the declarers held the opponents to "
                "{total} and won the game."
            )
        elif s.winner is Side.DECLARERS and n:
            said = ngettext(
                "Hand {number}, {declarer} declaring: the declarers held the opponents to "
                "{total} and climbed {levels} level.",
                "Hand {number}, {declarer} declaring: the declarers held the opponents to "
                "{total} and climbed {levels} levels.",
                n,
            )
        elif s.winner is Side.DECLARERS:
            said = gettext_noop(
                "Hand {number}, {declarer} declaring: the declarers held the opponents to "
                "{total} and kept the deal."
            )
        elif s.game_over:
            said = gettext_noop(
                "Hand {number}, {declarer} declaring: the opponents reached {total} and won "
                "the game."
            )
        elif n:
            said = ngettext(
                "Hand {number}, {declarer} declaring: the opponents reached {total}, took the "
                "deal and climbed {levels} level.",
                "Hand {number}, {declarer} declaring: the opponents reached {total}, took the "
                "deal and climbed {levels} levels.",
                n,
            )
        else:
            said = gettext_noop(
                "Hand {number}, {declarer} declaring: the opponents reached {total} and took "
                "the deal."
            )
        values = {"declarer": players[self.result.declarer], "total": s.opponent_total}
        return Sentence(said, number=self.number, levels=n, **values)


class StartReason(enum.Enum):
    """Why the next hand starts where it does."""

    BID = "bid"
    """Hand 1 with nobody chosen to start it: whoever wins the bid starts it."""
    CHOSEN = "chosen"
    """Hand 1, started by the player chosen when the game began."""
    HELD = "held"
    """The declarers held: the next player of their side after the starter."""
    TAKE_OVER = "take-over"
    """The opponents won, and their fixed team takes over: its first player after the
    starter."""
    TOOK_THE_DEAL = "took-the-deal"
    """The opponents won in find-a-friend: the first of them after the starter."""


@dataclass(frozen=True, slots=True)
class NextHand:
    """Who starts a game's next hand, at what level, and why (see :attr:`Game.next_hand`)."""

    table: Table
    state: GameState
    why: StartReason

    @property
    def sentence(self) -> Sentence:
        """Who starts the next hand and why, as a player reads it."""
        state, table, why = self.state, self.table, self.why
        if why is StartReason.BID:
            return Sentence(gettext_noop("Hand 1: whoever wins the bid starts it."))
        assert state.next_declarer is not None and state.level is not None
        values: dict[str, object] = {
            "player": table.players[state.next_declarer],
            "number": state.number,
            "level": state.level.spoken,
        }
        if why is StartReason.CHOSEN:
            # Translators: {level} is the level the hand is played at, such as "2" or "10".
            return Sentence(gettext_noop("{player} starts hand 1 at level {level}."), **values)
        # Who take over: the starter's fixed team (under a bid, those who may start).
        team = {"team": table.names(table.team(state.next_declarer))}
        if len(state.next_declarers) > 1:
            # Under a bid: the declaring team, one of whom starts by turn.
            values["players"] = table.names(state.next_declarers, either=True)
            if why is StartReason.HELD:
                said = gettext_noop(
                    # Translators: {players} is a choice of players, such as "Jun or Hao";
                    # {player} the one of them whose turn it is.
                    "{players} may start hand {number} at level {level} ({player} by turn): "
                    "the declarers held."
                )
            else:
                said = gettext_noop(
                    # Translators: {players} is a choice of players, such as "Jun or Hao";
                    # {player} the one of them whose turn it is; {team} lists the same players,
                    # such as "Jun and Hao".
                    "{players} may start hand {number} at level {level} ({player} by turn): "
                    "{team} take over."
                )
                values |= team
        elif why is StartReason.HELD:
            said = gettext_noop(
                "{player} starts hand {number} at level {level}: the declarers held."
            )
        elif why is StartReason.TAKE_OVER:
            said = gettext_noop(
                # Translators: {team} lists the players of the team taking over, such as "Jun
                # and Hao".
                "{player} starts hand {number} at level {level}: {team} take over."
            )
            values |= team
        else:
            said = gettext_noop(
                "{player} starts hand {number} at level {level}: the opponents took the deal."
            )
        return Sentence(said, **values)


@dataclass(frozen=True, slots=True)
class Game:
    """A game's setup and its hands so far, each settled in turn."""

    setup: GameSetup
    hands: tuple[PlayedHand, ...] = field(default=())

    @property
    def table(self) -> Table:
        return self.setup.table

    @property
    def state(self) -> GameState:
        return self.hands[-1].after if self.hands else start(self.setup)

    @property
    def next_hand(self) -> NextHand | None:
        """Who starts the next hand, at what level, and why; None once the game is over.

        >>> from scoring.rules import Format, get_rules
        >>> from scoring.settle import LastTrick
        >>> setup = GameSetup(get_rules("standard"), Table(("Mei", "Jun", "Lin", "Hao")))
        >>> replay(setup, []).next_hand.sentence
        'Hand 1: whoever wins the bid starts it.'
        >>> taken = HandResult(0, 120, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))
        >>> replay(setup, [taken]).next_hand.sentence
        'Jun or Hao may start hand 2 at level 2 (Jun by turn): Jun and Hao take over.'
        """
        state = self.state
        if state.game_over:
            return None
        if not self.hands:
            why = StartReason.BID if state.next_declarer is None else StartReason.CHOSEN
        elif self.hands[-1].winner is Side.DECLARERS:
            why = StartReason.HELD
        elif self.table.fixed_teams:
            why = StartReason.TAKE_OVER
        else:
            why = StartReason.TOOK_THE_DEAL
        return NextHand(self.table, state, why)

    def play(self, result: HandResult) -> Game:
        """The game with ``result`` as its next hand; GameError names the hand if it can't be."""
        hand = _numbered(self.setup, self.state, result, len(self.hands) + 1)
        return Game(self.setup, (*self.hands, hand))

    def then(self, results: Iterable[HandResult]) -> Game:
        """The game with ``results`` as its next hands, settled in turn as :func:`replay` settles
        them: its own hands are not played again. GameError names the first that can't be.

        >>> from scoring.rules import Format, Side, get_rules
        >>> from scoring.settle import LastTrick
        >>> from scoring.table import Table
        >>> setup = GameSetup(get_rules("standard"), Table(("Mei", "Jun", "Lin", "Hao")))
        >>> held = HandResult(0, 45, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))
        >>> replay(setup, [held]).then([held]) == replay(setup, [held, held])
        True
        """
        # One list, not `play` hand by hand: copying the hands at each one is quadratic.
        hands = list(self.hands)
        state = self.state
        for number, result in enumerate(results, start=state.number):
            hands.append(_numbered(self.setup, state, result, number))
            state = hands[-1].after
        return Game(self.setup, tuple(hands))


def start(setup: GameSetup) -> GameState:
    first = setup.first_declarer
    return GameState(
        number=1,
        levels=setup.levels,
        next_declarers=(first,) if first is not None else tuple(setup.table.seats),
        next_declarer=first,
    )


def replay(setup: GameSetup, results: Iterable[HandResult]) -> Game:
    """Fold a game's hands in order."""
    return Game(setup).then(results)


def resume(
    setup: GameSetup, number: int, levels: Sequence[Rank], results: Iterable[HandResult]
) -> Game:
    """A game's hands from hand ``number`` on, settled exactly as :func:`replay` settles them,
    from the ``levels`` every player stood at before that hand: the earlier hands are not
    played again. Hand ``number``'s declarer is taken as one who could start it (the game
    already holds it); its ``before`` names only them. The result's ``hands`` are those from
    ``number`` on and its ``state`` the whole game's.

    >>> from scoring.rules import Format, Side, get_rules
    >>> from scoring.settle import LastTrick
    >>> from scoring.table import Table
    >>> setup = GameSetup(get_rules("standard"), Table(("Mei", "Jun", "Lin", "Hao")))
    >>> held = HandResult(0, 45, 0, LastTrick(Side.DECLARERS, Format.SINGLE, 1))
    >>> whole = replay(setup, [held, held])
    >>> later = resume(setup, 2, whole.hands[0].after.levels, [held])
    >>> later.state == whole.state, later.hands[0].settlement == whole.hands[1].settlement
    (True, True)
    """
    hands: list[PlayedHand] = []
    for offset, result in enumerate(results):
        if hands:
            state = hands[-1].after
        else:
            state = GameState(number, tuple(levels), (result.declarer,), result.declarer)
        hands.append(_numbered(setup, state, result, number + offset))
    return Game(setup, tuple(hands))


def _numbered(setup: GameSetup, before: GameState, result: HandResult, number: int) -> PlayedHand:
    """Hand ``number`` played after ``before``; any error it raises names the hand."""
    try:
        return _play(setup, before, result)
    except GameError as error:
        if error.hand is not None:
            raise
        raise GameError(
            error.detail, hand=number, field=error.field, said=error.said, values=error.values
        ) from error
    except ScoringError as error:
        raise GameError(
            str(error),
            hand=number,
            field=getattr(error, "field", None),
            said=error.said,
            values=error.values,
        ) from error


def declaring_side(table: Table, declarer: int, friends: Sequence[int]) -> tuple[int, ...]:
    """The declarer's side, in play order: their fixed team, or the declarer and friends."""
    if table.fixed_teams:
        return table.team(declarer)
    return tuple(sorted({declarer, *friends}))


def _check(setup: GameSetup, before: GameState, hand: HandResult) -> None:
    table = setup.table
    if before.game_over:
        raise GameError(
            f"the game is over: {table.names(before.winners)} won it",
            # Translators: {winners} lists the players who won, such as "Mei and Lin".
            said=gettext_noop("The game is over: {winners} won it."),
            values={"winners": table.names(before.winners)},
        )
    if hand.declarer not in table.seats:
        raise GameError(
            f"no seat {hand.declarer!r} at this table",
            field="declarer",
            said=gettext_noop("Choose the declarer among the players at this table."),
        )
    if hand.declarer not in before.next_declarers:
        starts = table.names(before.next_declarers, either=True)
        one = len(before.next_declarers) == 1
        raise GameError(
            f"{table.players[hand.declarer]} cannot start this hand: {starts} "
            f"{'starts' if one else 'may start'} it",
            field="declarer",
            # Translators: {starts} is the one player who starts the hand.
            said=gettext_noop("{player} cannot start this hand: {starts} starts it.")
            if one
            # Translators: {starts} is a choice of players, such as "Mei or Lin".
            else gettext_noop("{player} cannot start this hand: {starts} may start it."),
            values={"player": table.players[hand.declarer], "starts": starts},
        )
    _check_friends(table, hand)
    if not table.trumps.bids:
        fixed = table.trumps.fixed(before.number)
        if hand.trump is not fixed:
            raise GameError(
                f"this hand's trump is {fixed or 'none'}, not {hand.trump or 'none'}",
                field="trump",
                said=gettext_noop("This hand's trump is fixed: {trump}.")
                if fixed
                else gettext_noop("This hand is played without trump."),
                values={"trump": fixed.symbol if fixed else ""},
            )
        if hand.bid is not None:
            raise GameError(
                "nobody bids where the trump is fixed",
                field="bid",
                said=gettext_noop("Nobody bids where the trump is fixed."),
            )
    elif hand.bid is not None:
        check_bid(hand.bid, hand.trump)


def _check_friends(table: Table, hand: HandResult) -> None:
    friends = hand.friends
    if table.fixed_teams:
        if friends:
            raise GameError(
                "only find-a-friend hands have friends",
                field="friends",
                said=gettext_noop("Only find-a-friend hands have friends."),
            )
        return
    called = table.called or 0
    if len(friends) > called:
        raise GameError(
            f"a declarer calls {called} card{'s' if called > 1 else ''}, "
            f"so at most {called} found a friend, got {len(friends)}",
            field="friends",
            said=ngettext(
                # Translators: {count} is the number of friends entered.
                "The declarer calls one card, so one friend at most is found, not {count}.",
                "The declarer calls {called} cards, so {called} friends at most are found, "
                "not {count}.",
                called,
            ),
            values={"called": called, "count": len(friends)},
        )
    if len(set(friends)) != len(friends):
        raise GameError(
            "a friend is named twice",
            field="friends",
            said=gettext_noop("A friend is named twice."),
        )
    for seat in friends:
        if seat not in table.seats:
            raise GameError(
                f"no seat {seat!r} at this table",
                field="friends",
                said=gettext_noop("Choose the friends among the players at this table."),
            )


def _play(setup: GameSetup, before: GameState, hand: HandResult) -> PlayedHand:
    _check(setup, before, hand)
    rules, table = setup.rules, setup.table
    declarer = hand.declarer
    side = declaring_side(table, declarer, hand.friends)
    opponents = tuple(seat for seat in table.seats if seat not in side)
    # Who declares next if the opponents take over: the next player after the starter who was
    # an opponent; under pairs only that player's team climbs.
    taker = next(seat for seat in table.after(declarer) if seat in opponents)
    takers = table.team(taker) if table.teams is Teams.PAIRS else opponents
    short = not table.fixed_teams and len(side) < 1 + (table.called or 0)
    level = before.levels[declarer]
    past_ace = rules.game_end is GameEnd.PAST_ACE
    # The climber settle reads for each side: the hand's level decides a hold at A; past A,
    # the highest climber decides whether anyone passes it.
    declarers_level = max(before.levels[seat] for seat in side) if past_ace else level
    settlement = settle(
        rules,
        Levels(declarers_level, max(before.levels[seat] for seat in takers)),
        opponent_points=hand.opponent_points,
        kitty_points=hand.kitty_points,
        last_trick=hand.last_trick,
        taken_back=hand.taken_back,
        decks=table.decks,
        kitty_cards=table.kitty_cards,
        players=table.size,
        short_handed=short,
    )
    held = settlement.winner is Side.DECLARERS
    winning, climbers = (side, side) if held else (opponents, takers)
    levels = list(before.levels)
    gained: dict[int, int] = {}
    passed: list[int] = []
    for seat in winning:
        if seat not in climbers:
            gained[seat] = 0
            continue
        levels[seat], climbed, over = climb(levels[seat], settlement.award)
        gained[seat] = settlement.award if past_ace else climbed
        if over:
            passed.append(seat)
    if past_ace:
        winners = tuple(passed)
    elif held and level is Rank.ACE:
        winners = side
    else:
        winners = ()
    after = _next(setup, before.number + 1, tuple(levels), winners, side, declarer, taker, held)
    return PlayedHand(
        number=before.number,
        result=hand,
        declarers=side,
        opponents=opponents,
        level=level,
        trump=hand.trump,
        settlement=settlement,
        levels_gained=gained,
        before=before,
        after=after,
    )


def _next(
    setup: GameSetup,
    number: int,
    levels: tuple[Rank, ...],
    winners: tuple[int, ...],
    side: tuple[int, ...],
    declarer: int,
    taker: int,
    held: bool,
) -> GameState:
    """Who starts the next hand: when the declarers hold, the next player of their side after
    this hand's starter (the starter again if alone); otherwise the taker."""
    if winners:
        return GameState(number, levels, (), None, winners)
    table = setup.table
    if held:
        starter = next((seat for seat in table.after(declarer) if seat in side), declarer)
    else:
        starter = taker
    may_start = (starter,) if setup.rotating else table.team(starter)
    return GameState(number, levels, may_start, starter)
