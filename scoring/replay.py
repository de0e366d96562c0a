"""Replaying a whole hand: every trick judged in order, the points each side captured, the last
trick for the kitty bonus, and the first play that broke the rules.

The seats are read from the first trick: its players in play order, the first leader first. Two
teams alternate around the table, so with four players the first leader and the third player
partner against the second and the fourth. The first leader's team are the declarers (every rule
text has the declarers lead the first trick) unless ``declarers`` names them.

A record that breaks the rules is still replayed as it was played: a trick led by someone other
than the last trick's winner, a play out of turn, a play that does not follow, a throw that a
given hand or another player's play shows could be beaten are all :class:`Fault`\\ s, and each
trick goes to the player who took it at the table. A record that cannot be a hand at all (a deal
that is not the pack, a player missing from a trick, a play that is not in the hand dealt) raises
:class:`~scoring.errors.ReplayError`.

>>> from scoring.cards import Rank, Suit, parse_cards
>>> from scoring.rules import get_rules
>>> def trick(*plays):
...     return [Play(player, parse_cards(cards.split())) for player, cards in plays]
>>> hand = replay_hand(
...     get_rules("standard"),
...     Trump(Rank.TWO, Suit.SPADES),
...     [
...         trick(("N", "AH"), ("W", "KH"), ("S", "5H"), ("E", "3S")),
...         trick(("E", "TD"), ("N", "4D"), ("W", "AD"), ("S", "3D")),
...     ],
... )
>>> hand.winners, hand.declarer_points, hand.opponent_points
(('E', 'W'), 0, 25)
>>> hand.last_trick
LastTrick(winner=<Side.OPPONENTS: 'opponents'>, format=<Format.SINGLE: 'single'>, cards=1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.cards import Card, check_copies, full_pack, points
from scoring.errors import ReplayError, ScoringError
from scoring.rules import Rules, Side
from scoring.settle import LastTrick
from scoring.tricks import Judgement, Play, judge
from scoring.trump import Trump


@dataclass(frozen=True, slots=True)
class Fault:
    """A play that broke the rules: in which trick (counted from 1), by whom, and why."""

    trick: int
    player: str
    reason: str

    def __str__(self) -> str:
        return f"trick {self.trick}: {self.reason}"


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A hand replayed. ``last_trick`` and the points feed :func:`~scoring.settle.settle`;
    ``kitty_points`` is None when the kitty was not given."""

    tricks: tuple[Judgement, ...]
    winners: tuple[str, ...]
    seats: tuple[str, ...]
    declarers: frozenset[str]
    declarer_points: int
    opponent_points: int
    kitty_points: int | None
    last_trick: LastTrick
    faults: tuple[Fault, ...]

    @property
    def first_illegal(self) -> Fault | None:
        return self.faults[0] if self.faults else None

    def side_of(self, player: str) -> Side:
        return Side.DECLARERS if player in self.declarers else Side.OPPONENTS


def replay_hand(
    rules: Rules,
    trump: Trump,
    tricks: Sequence[Sequence[Play]],
    hands: Mapping[str, Sequence[Card]] | None = None,
    kitty: Sequence[Card] | None = None,
    declarers: Iterable[str] | None = None,
) -> HandReplay:
    """Replay a hand's tricks in order, with the dealt ``hands`` of some or all players (after
    the kitty exchange) and the buried ``kitty`` where known."""
    if not tricks or not tricks[0]:
        raise ReplayError("a hand needs at least one trick with its plays")
    seats = tuple(play.player for play in tricks[0])
    hands = dict(hands or {})
    team = _declarers(seats, declarers)
    _check_deal(trump, seats, hands, kitty)

    judgements: list[Judgement] = []
    winners: list[str] = []
    faults: list[Fault] = []
    captured = Counter[Side]()
    for number, plays in enumerate(tricks, start=1):
        _check_players(number, seats, plays)
        faults.extend(_turn_faults(number, seats, plays, winners[-1] if winners else None))
        try:
            judgement = judge(rules, trump, plays, hands)
        except ScoringError as error:
            raise ReplayError(f"trick {number}: {error}") from None
        faults.extend(
            Fault(number, verdict.player, verdict.reason)
            for verdict in judgement.plays
            if verdict.legal is False and verdict.reason
        )
        winner = judgement.winner_as_played
        captured[Side.DECLARERS if winner in team else Side.OPPONENTS] += judgement.points
        for play in plays:
            if play.player in hands:
                hands[play.player] = _without(hands[play.player], play.cards)
        judgements.append(judgement)
        winners.append(winner)

    last = judgements[-1]
    return HandReplay(
        tricks=tuple(judgements),
        winners=tuple(winners),
        seats=seats,
        declarers=team,
        declarer_points=captured[Side.DECLARERS],
        opponent_points=captured[Side.OPPONENTS],
        kitty_points=points(kitty) if kitty is not None else None,
        last_trick=LastTrick(
            Side.DECLARERS if winners[-1] in team else Side.OPPONENTS,
            last.lead.format,
            len(last.lead.cards),
        ),
        faults=tuple(faults),
    )


def _declarers(seats: tuple[str, ...], declarers: Iterable[str] | None) -> frozenset[str]:
    if declarers is None:
        return frozenset(seats[::2])
    team = frozenset(declarers)
    strangers = sorted(team - set(seats))
    if strangers:
        raise ReplayError(f"declarers: {strangers[0]} does not play in this hand")
    return team


def _check_deal(
    trump: Trump,
    seats: tuple[str, ...],
    hands: Mapping[str, Sequence[Card]],
    kitty: Sequence[Card] | None,
) -> None:
    strangers = [player for player in hands if player not in seats]
    if strangers:
        raise ReplayError(f"{strangers[0]} has a hand but plays no card in the first trick")
    dealt = [card for hand in hands.values() for card in hand] + list(kitty or ())
    if len(hands) < len(seats) or kitty is None:
        try:
            check_copies(dealt, trump.decks)
        except ScoringError as error:
            raise ReplayError(f"the deal: {error}") from None
        return
    pack, deal = Counter(full_pack(trump.decks)), Counter(dealt)
    if deal != pack:
        missing, extra = pack - deal, deal - pack
        problems = [f"without {_listed(missing)}"] if missing else []
        problems += [f"with an extra {_listed(extra)}"] if extra else []
        raise ReplayError(
            f"the hands and the kitty are not the {pack.total()}-card pack: "
            + " and ".join(problems)
        )


def _check_players(number: int, seats: tuple[str, ...], plays: Sequence[Play]) -> None:
    players = [play.player for play in plays]
    for player in players:
        if player not in seats:
            raise ReplayError(f"trick {number}: {player} is not at this table ({', '.join(seats)})")
    for player in seats:
        if player not in players:
            raise ReplayError(f"trick {number} has no play from {player}")


def _turn_faults(
    number: int, seats: tuple[str, ...], plays: Sequence[Play], last_winner: str | None
) -> list[Fault]:
    leader = plays[0].player
    if last_winner is not None and leader != last_winner:
        reason = f"{leader} led, but {last_winner} won trick {number - 1} and should have led"
        return [Fault(number, leader, reason)]
    start = seats.index(leader)
    turn = seats[start:] + seats[:start]
    for play, expected in zip(plays, turn, strict=False):
        if play.player != expected:
            reason = f"{play.player} played out of turn: it was {expected}'s turn"
            return [Fault(number, play.player, reason)]
    return []


def _without(hand: Sequence[Card], played: Sequence[Card]) -> tuple[Card, ...]:
    left = Counter(hand)
    left.subtract(played)
    return tuple(left.elements())


def _listed(cards: Counter[Card]) -> str:
    return " ".join(str(card) for card in sorted(cards.elements(), key=str))
