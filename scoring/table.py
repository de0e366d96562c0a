"""The table a game is played at: its players in play order, its decks and deal, its teams,
how each hand's trump is chosen, and what each bid means.

Seats are numbered 0, 1, 2, … in play order (counter-clockwise round the table): seat 1 plays
after seat 0, and the last seat before seat 0.

>>> table = Table(("Mei", "Jun", "Lin", "Hao", "Wei", "Yan"), decks=3)
>>> table.cards_per_player, table.kitty_cards, table.deck_points
(26, 6, 300)
>>> [table.players[seat] for seat in table.team(0)]
['Mei', 'Lin', 'Wei']
>>> Table(("A", "B", "C", "D", "E", "F"), decks=3, teams=Teams.PAIRS).team(1)
(1, 4)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.cards import CARDS_PER_DECK, POINTS_PER_DECK, Suit, check_decks
from scoring.errors import CardError, ScoringError
from scoring.words import Sentence, gettext_noop, listed

MIN_PLAYERS = 4
MAX_PLAYERS = 8
MIN_KITTY = 5
"""The deal leaves at least this many cards for the kitty."""
MAX_CALLED = 2
KITTY_POINTS_PER_CARD = 10
"""A kitty card is worth at most a ten or a king."""
NO_TRUMP = "NT"
"""A hand's trump where it has no trump suit, as a word (the database, a form's answer): the sign
the table reads. A value is None; the JSON notation writes null."""
NOT_DECLARED = ""
"""A hand's trump as a word before the table has said it: blank."""


class TableError(ScoringError):
    """A table that cannot be played: a number of players its teams do not fit, repeated
    players, decks out of range, a trump rotation that repeats a suit.

    ``field`` names the input at fault (``players``, ``decks``, ``teams``, ``called``,
    ``trumps``), so that a form shows the message beside it.
    """

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        said: str = "",
        values: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, said=said, values=values)
        self.field = field


class Teams(enum.Enum):
    """How the players make sides."""

    PARTNERS = "partners"
    """Two teams, seats alternating round the table (4, 6 or 8 players)."""
    PAIRS = "pairs"
    """Teams of two, partners opposite (6 or 8 players); the declarers play all the others."""
    FIND_A_FRIEND = "find-a-friend"
    """Every player for themselves; each hand's declarer calls cards to find friends."""

    def __str__(self) -> str:
        return self.value


class Bid(enum.Enum):
    """What a player showed to declare trump, weakest first; a later bid must be stronger."""

    ONE = "one"
    """One level card: its suit is trump."""
    PAIR = "pair"
    """A pair of the same level card: its suit is trump."""
    SMALL_JOKERS = "small-jokers"
    """A pair of small jokers: no trump."""
    BIG_JOKERS = "big-jokers"
    """A pair of big jokers: no trump, unbeatable."""
    NONE = "none"
    """Nobody bid: the hand has no trump, or the kitty turned up names it."""

    @property
    def names_suit(self) -> bool:
        """Whether the bid shows level cards, whose suit becomes trump."""
        return self in (Bid.ONE, Bid.PAIR)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class TrumpRule:
    """How each hand's trump is chosen: by bidding (``suits`` empty, ``no_trump`` false), always
    no trump, or fixed suits in rotation (hand 1 the first suit, hand 2 the second, …)."""

    suits: tuple[Suit, ...] = ()
    no_trump: bool = False

    def __post_init__(self) -> None:
        if self.no_trump and self.suits:
            raise TableError("a game without trump names no trump suits", field="trumps")
        if len(self.suits) > len(Suit) or len(set(self.suits)) != len(self.suits):
            shown = " ".join(str(suit) for suit in self.suits)
            raise TableError(
                f"a trump rotation is 1 to 4 different suits, got {shown!r}", field="trumps"
            )

    @property
    def bids(self) -> bool:
        """Whether each hand's trump is bid for."""
        return not self.suits and not self.no_trump

    def fixed(self, number: int) -> Suit | None:
        """Hand ``number``'s trump under a fixed rule (None: no trump)."""
        if self.no_trump:
            return None
        return self.suits[(number - 1) % len(self.suits)]

    def bid_and_trump(
        self, number: int, bid: Bid | None = None, trump: Suit | None = None, *, named: bool = True
    ) -> tuple[Bid | None, Suit | None]:
        """Hand ``number``'s bid and trump from what its table said. Under a fixed rule nobody
        bids and the hand has the rule's trump. Where trump is bid, the hand has the trump the
        table named (``named``); named none, only a bid of jokers tells it (no trump), and
        after any other bid it cannot be told (TableError); without a bid, the hand had the
        weakest bid that allows its trump (:func:`weakest_bid`).

        >>> BY_BID.bid_and_trump(1, None, Suit.HEARTS)
        (<Bid.ONE: 'one'>, <Suit.HEARTS: 'H'>)
        >>> BY_BID.bid_and_trump(1, Bid.BIG_JOKERS, named=False)
        (<Bid.BIG_JOKERS: 'big-jokers'>, None)
        >>> TrumpRule(suits=(Suit.SPADES, Suit.HEARTS)).bid_and_trump(2)
        (None, <Suit.HEARTS: 'H'>)
        >>> BY_BID.bid_and_trump(1, Bid.PAIR, named=False)
        Traceback (most recent call last):
        ...
        scoring.table.TableError: the trump is not named, and only a bid of jokers says it: none
        """
        if not self.bids:
            return None, self.fixed(number)
        if not named:
            if bid is None or trumps_allowed(bid) != (None,):
                raise TableError(
                    "the trump is not named, and only a bid of jokers says it: none", field="trump"
                )
            trump = None
        return bid or weakest_bid(trump), trump

    def to_json(self) -> str | list[str]:
        if self.no_trump:
            return "no-trump"
        return [str(suit) for suit in self.suits] if self.suits else "bid"

    @classmethod
    def from_json(cls, value: object) -> TrumpRule:
        """``"bid"``, ``"no-trump"``, or a list of suits such as ``["S", "H"]``."""
        if value == "bid":
            return BY_BID
        if value == "no-trump":
            return cls(no_trump=True)
        if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
            try:
                return cls(suits=tuple(Suit.parse(item) for item in value))
            except ScoringError:
                pass
        raise TableError(
            f'trumps must be "bid", "no-trump" or a list of 1 to 4 different suits, got {value!r}',
            field="trumps",
        )


BY_BID = TrumpRule()
"""Each hand's trump is bid for."""
ALWAYS_NO_TRUMP = TrumpRule(no_trump=True)
"""Every hand is played without a trump suit: a game's trump rule, not a hand's trump."""


def trump_text(trump: Suit | None) -> str:
    """A hand's trump as a word, which :func:`parse_trump` reads back: its suit's letter, or
    :data:`NO_TRUMP`.

    >>> trump_text(Suit.HEARTS), trump_text(None)
    ('H', 'NT')
    """
    return str(trump) if trump else NO_TRUMP


def parse_trump(text: str) -> Suit | None:
    """A hand's trump from the word :func:`trump_text` writes (any case): None for no trump.

    >>> parse_trump("h"), parse_trump("NT")
    (<Suit.HEARTS: 'H'>, None)
    >>> parse_trump("")
    Traceback (most recent call last):
    ...
    scoring.table.TableError: unknown trump '': a suit (S, H, D, C) or NT
    """
    if text.strip().upper() == NO_TRUMP:
        return None
    try:
        return Suit.parse(text)
    except CardError:
        raise TableError(
            f"unknown trump {text!r}: a suit (S, H, D, C) or {NO_TRUMP}", field="trump"
        ) from None


def check_bid(bid: Bid, trump: Suit | None) -> None:
    """Raise if ``trump`` is not what ``bid`` allows: level cards name their suit and jokers mean
    no trump. Where nobody bid, the table plays without trump or lets the kitty name it.

    >>> check_bid(Bid.BIG_JOKERS, Suit.HEARTS)
    Traceback (most recent call last):
    ...
    scoring.table.TableError: a bid of big jokers means no trump, not H
    """
    if bid.names_suit and trump is None:
        raise TableError(
            f"a bid of {_BID_WORDS[bid]} makes that card's suit trump: name the suit",
            field="trump",
            said=_BID_SAID[bid],
        )
    if trump is not None and bid in (Bid.SMALL_JOKERS, Bid.BIG_JOKERS):
        raise TableError(
            f"a bid of {_BID_WORDS[bid]} means no trump, not {trump}",
            field="trump",
            said=_BID_SAID[bid],
            values={"trump": trump.symbol},
        )


def trumps_allowed(bid: Bid) -> tuple[Suit | None, ...]:
    """The trumps ``bid`` allows (None: no trump), as :func:`check_bid` says.

    >>> trumps_allowed(Bid.SMALL_JOKERS)
    (None,)
    """
    allowed = []
    for trump in (*Suit, None):
        try:
            check_bid(bid, trump)
        except TableError:
            continue
        allowed.append(trump)
    return tuple(allowed)


def weakest_bid(trump: Suit | None) -> Bid:
    """The bid of a hand whose table named its trump but not its bid: the weakest that allows
    that trump (the one it most likely had; a weaker bid never settles differently).

    >>> weakest_bid(Suit.HEARTS), weakest_bid(None)
    (<Bid.ONE: 'one'>, <Bid.SMALL_JOKERS: 'small-jokers'>)
    """
    return next(bid for bid in Bid if trump in trumps_allowed(bid))


_BID_WORDS = {
    Bid.ONE: "one level card",
    Bid.PAIR: "a pair of level cards",
    Bid.SMALL_JOKERS: "small jokers",
    Bid.BIG_JOKERS: "big jokers",
}
_BID_SAID = {
    Bid.ONE: gettext_noop(
        "A level card won the bid, so its suit is trump: choose the suit, or another bid."
    ),
    Bid.PAIR: gettext_noop(
        "A pair of level cards won the bid, so their suit is trump: choose the suit, "
        "or another bid."
    ),
    Bid.SMALL_JOKERS: gettext_noop(
        "Small jokers won the bid, so the hand has no trump, not {trump}: "
        "choose No trump, or another bid."
    ),
    Bid.BIG_JOKERS: gettext_noop(
        "Big jokers won the bid, so the hand has no trump, not {trump}: "
        "choose No trump, or another bid."
    ),
}


def deal(players: int, decks: int) -> tuple[int, int]:
    """Each player's cards and the kitty's: everyone gets as many as leave at least five.

    >>> [deal(players, decks) for players, decks in ((4, 2), (5, 2), (6, 3), (7, 3), (8, 4))]
    [(25, 8), (20, 8), (26, 6), (22, 8), (26, 8)]
    """
    cards = CARDS_PER_DECK * decks
    each = (cards - MIN_KITTY) // players
    return each, cards - players * each


def default_decks(players: int) -> int:
    """The decks a table of ``players`` usually takes: one for every two players.

    >>> [default_decks(players) for players in range(4, 9)]
    [2, 2, 3, 3, 4]
    """
    return max(2, min(4, players // 2))


def default_called(players: int) -> int:
    """How many cards a find-a-friend declarer calls by default: 1 up to 6 players, else 2."""
    return 1 if players <= 6 else 2


@dataclass(frozen=True, slots=True)
class Table:
    """Who plays and with what: names in play order, the decks, the teams, the trump rule and,
    in find-a-friend, how many cards a declarer calls."""

    players: tuple[str, ...]
    decks: int = 2
    teams: Teams = Teams.PARTNERS
    trumps: TrumpRule = BY_BID
    called: int | None = None
    """Cards a find-a-friend declarer calls; None elsewhere (the default fills it in)."""

    def __post_init__(self) -> None:
        players = self.players
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise TableError(
                f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}",
                field="players",
            )
        for seat, name in enumerate(players):
            if not isinstance(name, str) or not name.strip():
                raise TableError(f"player {seat + 1} has no name", field="players")
            if name in players[:seat]:
                raise TableError(f"{name} sits at the table twice", field="players")
        try:
            check_decks(self.decks)
        except ScoringError as error:
            raise TableError(str(error), field="decks") from None
        count = len(players)
        if self.teams is Teams.PARTNERS and count % 2:
            raise TableError(
                f"partners need an even number of players (4, 6 or 8), got {count}",
                field="teams",
            )
        if self.teams is Teams.PAIRS and count not in (6, 8):
            raise TableError(f"pairs need 6 or 8 players, got {count}", field="teams")
        if self.teams is Teams.FIND_A_FRIEND:
            if self.called is None:
                object.__setattr__(self, "called", default_called(count))
            called = self.called
            # `1.0 in range(1, 3)` holds: check the type first.
            if type(called) is not int or not 1 <= called <= MAX_CALLED:
                raise TableError(
                    f"a declarer calls 1 or 2 cards, got {self.called!r}", field="called"
                )
        elif self.called is not None:
            raise TableError("only find-a-friend declarers call cards", field="called")

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def seats(self) -> range:
        return range(len(self.players))

    @property
    def cards_per_player(self) -> int:
        return deal(self.size, self.decks)[0]

    @property
    def kitty_cards(self) -> int:
        return deal(self.size, self.decks)[1]

    @property
    def deck_points(self) -> int:
        return POINTS_PER_DECK * self.decks

    @property
    def max_kitty_points(self) -> int:
        return KITTY_POINTS_PER_CARD * self.kitty_cards

    @property
    def fixed_teams(self) -> bool:
        return self.teams is not Teams.FIND_A_FRIEND

    def next(self, seat: int) -> int:
        """The seat that plays after ``seat``."""
        return (seat + 1) % self.size

    def after(self, seat: int) -> tuple[int, ...]:
        """Every other seat in play order, starting with the next one after ``seat``."""
        return tuple((seat + step) % self.size for step in range(1, self.size))

    def team(self, seat: int) -> tuple[int, ...]:
        """The seats of ``seat``'s fixed team, in play order (just ``seat`` in find-a-friend)."""
        if self.teams is Teams.PARTNERS:
            return tuple(range(seat % 2, self.size, 2))
        if self.teams is Teams.PAIRS:
            half = self.size // 2
            return (seat % half, seat % half + half)
        return (seat,)

    @property
    def fixed(self) -> tuple[tuple[int, ...], ...]:
        """The fixed teams, each in play order, the first seat's team first."""
        if not self.fixed_teams:
            return ()
        count = 2 if self.teams is Teams.PARTNERS else self.size // 2
        return tuple(self.team(seat) for seat in range(count))

    def seat_of(self, name: str) -> int:
        try:
            return self.players.index(name)
        except ValueError:
            raise TableError(f"{name!r} is not one of the players", field="players") from None

    def names(self, seats: Sequence[int], *, either: bool = False) -> Sentence:
        """Seats as players read them: ``Mei``, ``Mei and Lin``, ``Mei, Lin and Wei`` (with
        ``either``: ``Mei or Lin``), in any language by :meth:`Sentence.in_words`."""
        return listed([self.players[seat] for seat in seats], either=either)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "players": list(self.players),
            "decks": self.decks,
            "teams": self.teams.value,
            "trumps": self.trumps.to_json(),
        }
        if self.called is not None:
            data["called"] = self.called
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Table:
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
            raise TableError(f"players must be a list of names, got {players!r}", field="players")
        try:
            teams = Teams(data.get("teams", Teams.PARTNERS.value))
        except ValueError:
            raise TableError(
                f"teams must be partners, pairs or find-a-friend, got {data.get('teams')!r}",
                field="teams",
            ) from None
        return cls(
            players=tuple(players),
            decks=data.get("decks", 2),  # type: ignore[arg-type]
            teams=teams,
            trumps=TrumpRule.from_json(data.get("trumps", "bid")),
            called=data.get("called"),  # type: ignore[arg-type]
        )
