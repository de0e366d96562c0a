"""Settling a hand: from its result to what it does to the game.

>>> from scoring.cards import Rank
>>> result = settle(
...     get_rules("kawu"),
...     Levels(declarers=Rank.FIVE, opponents=Rank.THREE),
...     opponent_points=65,
...     kitty_points=20,
...     last_trick=LastTrick(Side.OPPONENTS, Format.PAIR, 2),
... )
>>> result.explanation
'Opponents 65 + kitty 20 × 4 = 145: 120–155, opponents take the deal and climb 1'
>>> str(result.levels.opponents), result.next_declarers.value
('4', 'opponents')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.cards import POINTS_PER_DECK, Rank
from scoring.errors import SettleError
from scoring.rules import (
    MAX_CARDS_PER_PLAYER,
    Band,
    Format,
    GameEnd,
    Rules,
    Side,
    get_rules,
)

DECK_POINTS = 2 * POINTS_PER_DECK
KITTY_CARDS = 8
MAX_KITTY_POINTS = 80
"""Eight cards hold at most 80 points (eight tens and kings)."""

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
                )
            cards = _FIXED_CARDS[format]
        return cls(winner, format, cards)


_FIXED_CARDS = {Format.SINGLE: 1, Format.PAIR: 2}


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


NOTHING_TAKEN_BACK = TakenBack()


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a hand's result does to the game, with a sentence a player can read."""

    opponent_points: int
    kitty_points: int
    last_trick: LastTrick
    kitty_multiplier: int
    kitty_bonus: int
    throw_penalty: int
    """Points the failed throws moved to the opponents (negative: away from them)."""
    opponent_total: int
    band: Band
    winner: Side
    levels_gained: int
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


def explain(settlement: Settlement, gettext: Callable[[str], str] = str) -> str:
    """The settlement as a player reads it. ``gettext`` translates each sentence pattern
    before it is filled in (the web app passes Django's); the default keeps the English."""
    s = settlement
    if s.last_trick.winner is Side.OPPONENTS:
        score = gettext("Opponents {points} + kitty {kitty} × {multiplier}")
    elif s.kitty_points:
        score = gettext("Opponents {points} (the declarers took the last trick and the kitty)")
    else:
        score = gettext("Opponents {points}")
    if s.throw_penalty > 0:
        score += gettext(" + {penalty} for failed throws")
    elif s.throw_penalty < 0:
        score += gettext(" − {penalty} for failed throws")
    if s.kitty_bonus or s.throw_penalty or s.last_trick.winner is Side.OPPONENTS:
        score += gettext(" = {total}")
    declarers = s.winner is Side.DECLARERS
    if s.game_over and not s.past_ace:
        outcome = gettext("declarers hold at A and win the game")
    elif s.game_over and declarers:
        outcome = gettext("declarers climb {levels} and pass A: declarers win the game")
    elif s.game_over:
        outcome = gettext(
            "opponents take the deal and climb {levels}, passing A: opponents win the game"
        )
    elif declarers and not s.levels_gained:
        outcome = gettext("declarers keep the deal")
    elif declarers and s.stopped_at_ace:
        outcome = gettext("declarers climb {levels}, stopping at A")
    elif declarers:
        outcome = gettext("declarers climb {levels}")
    elif not s.levels_gained:
        outcome = gettext("opponents take the deal")
    elif s.stopped_at_ace:
        outcome = gettext("opponents take the deal and climb {levels}, stopping at A")
    else:
        outcome = gettext("opponents take the deal and climb {levels}")
    return gettext("{score}: {band}, {outcome}").format(
        score=score.format(
            points=s.opponent_points,
            kitty=s.kitty_points,
            multiplier=s.kitty_multiplier,
            penalty=abs(s.throw_penalty),
            total=s.opponent_total,
        ),
        band=s.band.label,
        outcome=outcome.format(levels=s.levels_gained),
    )


def settle(
    rules: Rules,
    levels: Levels,
    opponent_points: int,
    kitty_points: int,
    last_trick: LastTrick,
    taken_back: TakenBack = NOTHING_TAKEN_BACK,
) -> Settlement:
    """Settle one hand under ``rules``.

    ``opponent_points`` are the card points the opponents captured in tricks, ``kitty_points``
    those buried in the kitty; the kitty counts for the opponents only when they win the last
    trick, multiplied by what the rules give for that trick. ``taken_back`` counts the cards
    of failed throws, which move points as the rules' throw penalty says; the opponents' total
    never goes below 0.
    """
    _check_points(opponent_points, kitty_points)
    _check_last_trick(rules, last_trick)
    _check_taken_back(rules, taken_back)

    multiplier = rules.kitty_multiplier(last_trick.format, last_trick.cards)
    bonus = kitty_points * multiplier if last_trick.winner is Side.OPPONENTS else 0
    penalty = rules.throw_penalty * (taken_back.declarers - taken_back.opponents)
    total = max(0, opponent_points + bonus + penalty)
    band = rules.band_for(total)
    gained = band.levels_for(total)
    before = levels.of(band.winner)
    climbed = before + gained
    capped = climbed > Rank.ACE
    new_level = Rank.ACE if capped else Rank(climbed)

    if rules.game_end is GameEnd.PAST_ACE:
        game_over = capped
    else:
        game_over = band.winner is Side.DECLARERS and levels.declarers is Rank.ACE
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
        throw_penalty=penalty,
        opponent_total=total,
        band=band,
        winner=band.winner,
        levels_gained=gained,
        levels=new_levels,
        next_declarers=band.winner,
        game_over=game_over,
        game_winner=game_winner,
        stopped_at_ace=capped and not game_over,
        past_ace=rules.game_end is GameEnd.PAST_ACE,
    )


def _check_points(opponent_points: int, kitty_points: int) -> None:
    for name, value, top in (
        ("opponent_points", opponent_points, DECK_POINTS),
        ("kitty_points", kitty_points, MAX_KITTY_POINTS),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= top
            or value % 5
        ):
            raise SettleError(
                f"{name} must be a multiple of 5 from 0 to {top}, got {value!r}", field=name
            )
    if opponent_points + kitty_points > DECK_POINTS:
        raise SettleError(
            f"opponent_points {opponent_points} + kitty_points {kitty_points} = "
            f"{opponent_points + kitty_points}, but the deck holds only {DECK_POINTS} points",
            field="opponent_points",
        )


def _check_taken_back(rules: Rules, taken_back: TakenBack) -> None:
    for side in Side:
        cards = getattr(taken_back, side.value)
        if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 100:
            raise SettleError(
                f"taken_back.{side} must be a number of cards from 0 to 100, got {cards!r}",
                field="taken_back",
            )
    if taken_back and not rules.throws:
        raise SettleError(
            f"the {rules.name} rules allow no throws, so no throw was taken back",
            field="taken_back",
        )


def _check_last_trick(rules: Rules, last_trick: LastTrick) -> None:
    fmt, cards = last_trick.format, last_trick.cards
    if isinstance(cards, bool) or not isinstance(cards, int):
        raise SettleError(
            f"last_trick.cards must be a whole number, got {cards!r}", field="last_trick"
        )
    if fmt is Format.THROW and not rules.throws:
        raise SettleError(
            f"the {rules.name} rules allow no throws, so the last trick was no throw",
            field="last_trick",
        )
    expected = {
        Format.SINGLE: (cards == 1, "1 card"),
        Format.PAIR: (cards == 2, "2 cards"),
        Format.TRACTOR: (cards >= 4 and cards % 2 == 0, "an even number of cards from 4"),
        Format.THROW: (cards >= 2, "at least 2 cards"),
    }
    fits, wanted = expected[fmt]
    if not fits:
        raise SettleError(
            f"a {fmt} last trick has {wanted} per player, got {cards}", field="last_trick"
        )
    if cards > MAX_CARDS_PER_PLAYER:
        raise SettleError(
            f"a last trick of {cards} cards per player is more than a hand of "
            f"{MAX_CARDS_PER_PLAYER} holds",
            field="last_trick",
        )
