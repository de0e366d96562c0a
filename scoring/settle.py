"""Settling a hand: from its result to what it does to the game.

>>> from scoring.cards import Rank
>>> result = settle(
...     get_rules("kawu"),
...     Levels(declarers=Rank.FIVE, opponents=Rank.THREE),
...     opponent_points=65,
...     kitty_points=20,
...     last_trick=LastTrick(Side.OPPONENTS, Format.PAIR, 2),
... )
>>> print(result.explanation)  # doctest: +NORMALIZE_WHITESPACE
Opponents 65 + kitty 20 × 4 = 145 points.
In the 120–155 band, the opponents take the deal and climb 1 level.
>>> str(result.levels.opponents), result.next_declarers.value
('4', 'opponents')
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.cards import CARDS_PER_DECK, POINTS_PER_DECK, Rank, check_decks
from scoring.errors import ScoringError, SettleError
from scoring.reading import choice, json_object
from scoring.rules import Band, Format, GameEnd, Rules, Side, get_rules, shown
from scoring.table import KITTY_POINTS_PER_CARD, MIN_KITTY, MIN_PLAYERS, deal
from scoring.words import Gettext, Ngettext, english, gettext_noop

MAX_KITTY = 12
"""The most kitty cards a deal leaves: a table can agree on a bigger kitty than the least."""
MAX_TRACTOR_PAIRS = 16
"""The longest tractor: the trump chain's 12 ranks, the off-suit and trump-suit level cards and
the two jokers. It bounds the per-pair kitty multiplier at 2 ** 17."""

__all__ = ["LastTrick", "Levels", "Settlement", "TakenBack", "explain", "get_rules", "settle"]


@dataclass(frozen=True, slots=True)
class Levels:
    """Both teams' levels, named by their role in the hand being settled."""

    declarers: Rank
    opponents: Rank

    def of(self, side: Side) -> Rank:
        return self.declarers if side is Side.DECLARERS else self.opponents


@dataclass(frozen=True, slots=True)
class LastTrick:
    """Who won the last trick, how it was led, and how many cards each player played to it."""

    winner: Side
    format: Format
    cards: int

    @classmethod
    def of(cls, winner: Side, format: Format, cards: int | None = None) -> LastTrick:
        """A last trick, with ``cards`` filled in for a single or a pair."""
        if cards is None:
            if format not in _FIXED_CARDS:
                raise SettleError(
                    f"a {format} last trick needs its number of cards per player",
                    field="last_trick",
                    said=_CARDS_NEEDED[format],
                )
            cards = _FIXED_CARDS[format]
        return cls(winner, format, cards)

    @classmethod
    def from_json(cls, value: object) -> LastTrick:
        """Read ``last_trick`` as a request writes it (``cards`` may be left out for a single
        or a pair).

        >>> LastTrick.from_json({"winner": "opponents", "format": "pair"})
        LastTrick(winner=<Side.OPPONENTS: 'opponents'>, format=<Format.PAIR: 'pair'>, cards=2)
        """
        data = json_object(value, "last_trick")
        return cls.of(
            winner=choice(Side, data, "winner", "last_trick.winner"),
            format=choice(Format, data, "format", "last_trick.format"),
            cards=data.get("cards"),  # type: ignore[arg-type]
        )

    def to_json(self) -> dict[str, object]:
        """The JSON object that :meth:`from_json` reads back."""
        return {"winner": self.winner.value, "format": self.format.value, "cards": self.cards}


_FIXED_CARDS = {Format.SINGLE: 1, Format.PAIR: 2}
_CARDS_NEEDED = {
    Format.TRACTOR: gettext_noop(
        "The last trick was a tractor: say how many cards each player played to it."
    ),
    Format.THROW: gettext_noop(
        "The last trick was a throw: say how many cards each player played to it."
    ),
}


@dataclass(frozen=True, slots=True)
class TakenBack:
    """Cards taken back from failed throws in the hand, by the side whose player threw them.

    Where the rules allow throws, each card taken back moves ``throw_penalty`` points: a
    declarer's failed throw gives them to the opponents, an opponent's costs the opponents.
    """

    declarers: int = 0
    opponents: int = 0

    def __bool__(self) -> bool:
        return bool(self.declarers or self.opponents)

    @classmethod
    def from_json(cls, value: object) -> TakenBack:
        """Read ``taken_back`` as a request writes it: ``{"declarers": n, "opponents": m}``,
        either left out for 0."""
        data = json_object(value, "taken_back")
        unknown = set(data) - {"declarers", "opponents"}
        if unknown:
            raise ScoringError(
                f"taken_back has only declarers and opponents, got {sorted(unknown)[0]!r}"
            )
        return cls(
            declarers=data.get("declarers", 0),  # type: ignore[arg-type]
            opponents=data.get("opponents", 0),  # type: ignore[arg-type]
        )

    def to_json(self) -> dict[str, object]:
        """The JSON object that :meth:`from_json` reads back."""
        return {"declarers": self.declarers, "opponents": self.opponents}


NOTHING_TAKEN_BACK = TakenBack()


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a hand's result does to the game, with a sentence a player can read."""

    opponent_points: int
    kitty_points: int
    last_trick: LastTrick
    kitty_multiplier: int
    kitty_bonus: int
    decks: int
    throw_penalty: int
    """Points the failed throws moved to the opponents (negative: away from them)."""
    opponent_total: int
    band: Band
    winner: Side
    award: int
    """The levels the table awards the winner (one more for a short-handed side that holds)."""
    levels_gained: int
    """The levels the winner climbs: the award, cut at A where the rules stop levels there."""
    short_handed: bool
    """The declaring side was smaller than its full strength (find-a-friend) and held."""
    levels: Levels
    next_declarers: Side
    game_over: bool
    game_winner: Side | None
    stopped_at_ace: bool
    """The winner's climb went past A, and A is as far as these rules go without winning."""
    past_ace: bool
    """These rules end the game when a team climbs past A."""

    @property
    def explanation(self) -> str:
        """The settlement in a sentence, in English: see :func:`explain` for other languages."""
        return explain(self)


def explain(settlement: Settlement, gettext: Gettext = str, ngettext: Ngettext = english) -> str:
    """The settlement as a player reads it: how the opponents' total adds up, then what it does
    to the game. ``gettext`` and ``ngettext`` translate each whole sentence before it is filled
    in (the web app passes Django's); the defaults keep the English."""
    return gettext("{score} {outcome}").format(
        score=_score(settlement, gettext, ngettext),
        outcome=_outcome(settlement, gettext, ngettext),
    )


def _score(s: Settlement, gettext: Gettext, ngettext: Ngettext) -> str:
    """The opponents' total as a sum a player can check."""
    values = {
        "points": s.opponent_points,
        "kitty": s.kitty_points,
        "multiplier": s.kitty_multiplier,
        "penalty": abs(s.throw_penalty),
        "total": s.opponent_total,
    }
    n = s.opponent_total
    if s.last_trick.winner is Side.OPPONENTS:
        if s.throw_penalty > 0:
            said = ngettext(
                # Translators: the opponents' total: their card points, the kitty's points times
                # the last trick's multiplier, and points from the declarers' failed throws.
                "Opponents {points} + kitty {kitty} × {multiplier} + {penalty} for failed "
                "throws = {total} point.",
                "Opponents {points} + kitty {kitty} × {multiplier} + {penalty} for failed "
                "throws = {total} points.",
                n,
            )
        elif s.throw_penalty < 0:
            said = ngettext(
                # Translators: the opponents' total: their card points, the kitty's points times
                # the last trick's multiplier, less the points of their own failed throws.
                "Opponents {points} + kitty {kitty} × {multiplier} − {penalty} for failed "
                "throws = {total} point.",
                "Opponents {points} + kitty {kitty} × {multiplier} − {penalty} for failed "
                "throws = {total} points.",
                n,
            )
        else:
            said = ngettext(
                # Translators: the opponents' total: their card points and the kitty's points
                # times the last trick's multiplier.
                "Opponents {points} + kitty {kitty} × {multiplier} = {total} point.",
                "Opponents {points} + kitty {kitty} × {multiplier} = {total} points.",
                n,
            )
    elif s.kitty_points:
        if s.throw_penalty > 0:
            said = ngettext(
                "Opponents {points} + {penalty} for failed throws = {total} point "
                "(the declarers took the last trick and the kitty).",
                "Opponents {points} + {penalty} for failed throws = {total} points "
                "(the declarers took the last trick and the kitty).",
                n,
            )
        elif s.throw_penalty < 0:
            said = ngettext(
                "Opponents {points} − {penalty} for failed throws = {total} point "
                "(the declarers took the last trick and the kitty).",
                "Opponents {points} − {penalty} for failed throws = {total} points "
                "(the declarers took the last trick and the kitty).",
                n,
            )
        else:
            said = ngettext(
                "Opponents {points} point (the declarers took the last trick and the kitty).",
                "Opponents {points} points (the declarers took the last trick and the kitty).",
                n,
            )
    elif s.throw_penalty > 0:
        said = ngettext(
            "Opponents {points} + {penalty} for failed throws = {total} point.",
            "Opponents {points} + {penalty} for failed throws = {total} points.",
            n,
        )
    elif s.throw_penalty < 0:
        said = ngettext(
            "Opponents {points} − {penalty} for failed throws = {total} point.",
            "Opponents {points} − {penalty} for failed throws = {total} points.",
            n,
        )
    else:
        said = ngettext("Opponents {points} point.", "Opponents {points} points.", n)
    return said.format(**values)


def _outcome(s: Settlement, gettext: Gettext, ngettext: Ngettext) -> str:
    """What the total does to the game, in the band of the scoring table that holds it."""
    n = s.levels_gained
    declarers = s.winner is Side.DECLARERS
    if s.game_over and not s.past_ace:
        # Translators: {band} is a band of the scoring table, the range of the opponents'
        # totals that holds theirs, such as 40–75 or 80+.
        said = gettext("In the {band} band, the declarers hold at A and win the game.")
    elif s.game_over and declarers:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the declarers climb {levels} level and pass A: they win the game.",
            "In the {band} band, the declarers climb {levels} levels and pass A: "
            "they win the game.",
            n,
        )
    elif s.game_over:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the opponents take the deal and climb {levels} level, "
            "passing A: they win the game.",
            "In the {band} band, the opponents take the deal and climb {levels} levels, "
            "passing A: they win the game.",
            n,
        )
    elif declarers and not n:
        # Translators: {band} is a band of the scoring table, the range of the opponents'
        # totals that holds theirs, such as 40–75 or 80+.
        said = gettext("In the {band} band, the declarers keep the deal.")
    elif declarers and s.stopped_at_ace:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the declarers climb {levels} level, stopping at A.",
            "In the {band} band, the declarers climb {levels} levels, stopping at A.",
            n,
        )
    elif declarers and s.short_handed:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the declarers climb {levels} level, one more for holding "
            "short-handed.",
            "In the {band} band, the declarers climb {levels} levels, one more for holding "
            "short-handed.",
            n,
        )
    elif declarers:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the declarers climb {levels} level.",
            "In the {band} band, the declarers climb {levels} levels.",
            n,
        )
    elif not n:
        # Translators: {band} is a band of the scoring table, the range of the opponents'
        # totals that holds theirs, such as 40–75 or 80+.
        said = gettext("In the {band} band, the opponents take the deal.")
    elif s.stopped_at_ace:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the opponents take the deal and climb {levels} level, "
            "stopping at A.",
            "In the {band} band, the opponents take the deal and climb {levels} levels, "
            "stopping at A.",
            n,
        )
    else:
        said = ngettext(
            # Translators: {band} is a band of the scoring table, the range of the opponents'
            # totals that holds theirs, such as 40–75 or 80+.
            "In the {band} band, the opponents take the deal and climb {levels} level.",
            "In the {band} band, the opponents take the deal and climb {levels} levels.",
            n,
        )
    return said.format(band=s.band.label, levels=n)


def settle(
    rules: Rules,
    levels: Levels,
    opponent_points: int,
    kitty_points: int,
    last_trick: LastTrick,
    taken_back: TakenBack = NOTHING_TAKEN_BACK,
    *,
    decks: int = 2,
    kitty_cards: int | None = None,
    players: int = MIN_PLAYERS,
    short_handed: bool = False,
) -> Settlement:
    """Settle one hand under ``rules``.

    ``opponent_points`` are the card points the opponents captured in tricks, ``kitty_points``
    those buried in the kitty; the kitty counts for the opponents only when they win the last
    trick, multiplied by what the rules give for that trick. ``taken_back`` counts the cards
    of failed throws, which move points as the rules' throw penalty says; the opponents' total
    never goes below 0. With more than two ``decks`` the level table scales
    (:meth:`Rules.for_decks`); ``kitty_cards`` defaults to what a four-player deal leaves, and
    the cards dealt to each of ``players`` bound the last trick. A
    ``short_handed`` declaring side (find-a-friend, fewer friends than cards called) that holds
    climbs one level more than the table awards.
    """
    try:
        check_decks(decks)
    except ScoringError as error:
        raise SettleError(str(error), field="decks") from None
    kitty_cards = _check_kitty_cards(decks, kitty_cards)
    _check_points(opponent_points, kitty_points, decks, kitty_cards)
    hand = (CARDS_PER_DECK * decks - kitty_cards) // players
    _check_last_trick(rules, last_trick, hand)
    _check_taken_back(rules, taken_back, hand)

    multiplier = rules.kitty_multiplier(last_trick.format, last_trick.cards)
    bonus = kitty_points * multiplier if last_trick.winner is Side.OPPONENTS else 0
    penalty = rules.throw_penalty * (taken_back.declarers - taken_back.opponents)
    total = max(0, opponent_points + bonus + penalty)
    band = rules.for_decks(decks).band_for(total)
    short = short_handed and band.winner is Side.DECLARERS
    award = band.levels_for(total) + short
    before = levels.of(band.winner)
    new_level, climbed, passed = climb(before, award)

    if rules.game_end is GameEnd.PAST_ACE:
        game_over = passed
        gained = award
    else:
        game_over = band.winner is Side.DECLARERS and levels.declarers is Rank.ACE
        gained = climbed
    game_winner = band.winner if game_over else None

    if band.winner is Side.DECLARERS:
        new_levels = Levels(declarers=new_level, opponents=levels.opponents)
    else:
        new_levels = Levels(declarers=levels.declarers, opponents=new_level)

    return Settlement(
        opponent_points=opponent_points,
        kitty_points=kitty_points,
        last_trick=last_trick,
        kitty_multiplier=multiplier,
        kitty_bonus=bonus,
        decks=decks,
        throw_penalty=penalty,
        opponent_total=total,
        band=band,
        winner=band.winner,
        award=award,
        levels_gained=gained,
        short_handed=short,
        levels=new_levels,
        next_declarers=band.winner,
        game_over=game_over,
        game_winner=game_winner,
        stopped_at_ace=passed and not game_over,
        past_ace=rules.game_end is GameEnd.PAST_ACE,
    )


def climb(level: Rank, award: int) -> tuple[Rank, int, bool]:
    """A climb of ``award`` levels from ``level``: the level reached (A at most), the levels
    actually climbed, and whether the climb went past A.

    >>> climb(Rank.KING, 3)
    (<Rank.ACE: 14>, 1, True)
    """
    reached = level + award
    if reached > Rank.ACE:
        return Rank.ACE, Rank.ACE - level, True
    return Rank(reached), award, False


def _check_kitty_cards(decks: int, kitty_cards: int | None) -> int:
    if kitty_cards is None:
        return deal(MIN_PLAYERS, decks)[1]
    if (
        isinstance(kitty_cards, bool)
        or not isinstance(kitty_cards, int)
        or not MIN_KITTY <= kitty_cards <= MAX_KITTY
    ):
        raise SettleError(
            f"kitty_cards must be a number of cards from {MIN_KITTY} to {MAX_KITTY}, "
            f"got {shown(kitty_cards)}",
            field="kitty_cards",
        )
    return kitty_cards


def _check_points(opponent_points: int, kitty_points: int, decks: int, kitty_cards: int) -> None:
    deck_points = POINTS_PER_DECK * decks
    for name, value, top, said in (
        (
            "opponent_points",
            opponent_points,
            deck_points,
            gettext_noop(
                "The opponents' points must be a multiple of 5 between 0 and {top}; {value} is not."
            ),
        ),
        (
            "kitty_points",
            kitty_points,
            KITTY_POINTS_PER_CARD * kitty_cards,
            gettext_noop(
                "The kitty's points must be a multiple of 5 between 0 and {top}; {value} is not."
            ),
        ),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= top
            or value % 5
        ):
            raise SettleError(
                f"{name} must be a multiple of 5 from 0 to {top}, got {shown(value)}",
                field=name,
                said=said,
                values={"top": top, "value": _plain(value)},
            )
    if opponent_points + kitty_points > deck_points:
        raise SettleError(
            f"opponent_points {opponent_points} + kitty_points {kitty_points} = "
            f"{opponent_points + kitty_points}, but {decks} decks hold only {deck_points} points",
            field="opponent_points",
            said=gettext_noop(
                "The opponents' {points} points and the kitty's {kitty} make {total}, "
                "more than the {most} in {decks} decks."
            ),
            values={
                "points": opponent_points,
                "kitty": kitty_points,
                "total": opponent_points + kitty_points,
                "most": deck_points,
                "decks": decks,
            },
        )


def _check_taken_back(rules: Rules, taken_back: TakenBack, hand: int) -> None:
    # A failed throw takes back fewer cards than its thrower holds; a side's failed throws
    # in one hand never add up to more than a hand.
    for side, said in _TAKEN_BACK_SAID.items():
        cards = getattr(taken_back, side.value)
        if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= hand:
            raise SettleError(
                f"taken_back.{side} must be a number of cards from 0 to {hand}, got {shown(cards)}",
                field="taken_back",
                said=said,
                values={"most": hand, "cards": _plain(cards)},
            )
    if taken_back and not rules.throws:
        raise SettleError(
            f"the {rules.name} rules allow no throws, so no throw was taken back",
            field="taken_back",
            said=gettext_noop("These rules allow no throws, so no cards were taken back."),
        )


_TAKEN_BACK_SAID = {
    Side.DECLARERS: gettext_noop(
        "The declarers' failed throws take back from 0 to {most} cards, a hand at most; "
        "{cards} is not possible."
    ),
    Side.OPPONENTS: gettext_noop(
        "The opponents' failed throws take back from 0 to {most} cards, a hand at most; "
        "{cards} is not possible."
    ),
}


def _check_last_trick(rules: Rules, last_trick: LastTrick, most: int) -> None:
    fmt, cards = last_trick.format, last_trick.cards
    if isinstance(cards, bool) or not isinstance(cards, int):
        raise SettleError(
            f"last_trick.cards must be a whole number, got {shown(cards)}", field="last_trick"
        )
    if fmt is Format.THROW and not rules.throws:
        raise SettleError(
            f"the {rules.name} rules allow no throws, so the last trick was no throw",
            field="last_trick",
            said=gettext_noop("These rules allow no throws, so the last trick was not a throw."),
        )
    if cards > most:
        raise SettleError(
            f"a last trick of {shown(cards)} cards per player is more than a hand of {most} holds",
            field="last_trick",
            said=gettext_noop(
                "Each player held {most} cards, so nobody played {cards} to the last trick."
            ),
            values={"most": most, "cards": _plain(cards)},
        )
    expected = {
        Format.SINGLE: (
            cards == 1,
            "1 card",
            gettext_noop("A single is 1 card from each player, not {cards}."),
        ),
        Format.PAIR: (
            cards == 2,
            "2 cards",
            gettext_noop("A pair is 2 cards from each player, not {cards}."),
        ),
        Format.TRACTOR: (
            4 <= cards <= 2 * MAX_TRACTOR_PAIRS and cards % 2 == 0,
            f"an even number of cards from 4 to {2 * MAX_TRACTOR_PAIRS}",
            gettext_noop(
                "A tractor is an even number of cards from 4 to {most} from each player, "
                "not {cards}."
            ),
        ),
        Format.THROW: (
            cards >= 2,
            "at least 2 cards",
            gettext_noop("A throw is at least 2 cards from each player, not {cards}."),
        ),
    }
    fits, wanted, said = expected[fmt]
    if not fits:
        raise SettleError(
            f"a {fmt} last trick has {wanted} per player, got {shown(cards)}",
            field="last_trick",
            said=said,
            values={"cards": cards, "most": 2 * MAX_TRACTOR_PAIRS},
        )


def _plain(value: object) -> str:
    """A bad number as a player wrote it (a huge one by its size)."""
    return shown(value) if not isinstance(value, int) or abs(value) >= 10**100 else str(value)
