"""Judging a trick: the lead's format, whether each play follows it, and who wins.

Following: everyone plays as many cards as were led, of the led suit as far as they hold it (trumps
are one suit). A pair led obliges a pair of that suit if held. A tractor led obliges, under
``TractorFollow.TRACTOR``, a tractor of the same length if held; under either rule, as many pairs
as the lead holds, as far as the player holds them. A throw obliges the same: its pairs and
tractors counted as pairs (and under ``TRACTOR`` its tractors matched by tractors), then cards of
the suit, then anything.

Winning: only a play of the lead's shape in the led suit, or in trumps from a player void in the
led suit, can win. It takes the trick from the play winning so far only if it beats it combination
by combination (for a single, a pair or a tractor: it is higher); equal cards leave the trick with
the first played. A play that can be read as those combinations in several ways is read to its
player's advantage: one reading of the later play must beat every reading of the winner so far,
and a doubt keeps the trick with the earlier play. A trump play beats any play of a plain suit. A
play that breaks the following rules cannot win: a revoke does not take the trick.

Throws, where the rules allow them: a throw fails when another player is known to have held a
higher combination of the same shape in the led suit than one of its combinations, before the
trick: in the hand given for them, or else in the cards they played to it (a player who follows a
throw of A and Q with K and 2 held a K above the Q). The leader then takes the throw back and
leads that combination instead (the one with the fewest cards, then the lowest, if several can be
beaten), paying the rules' penalty for each card taken back. The trick as recorded does not stand:
the judgement names no winner, and the lead is marked illegal with the reason. A throw under rules
that forbid throws, or a lead of mixed suits, is not a lead at all:
:class:`~scoring.errors.PlayError`.

>>> from scoring.cards import Rank, Suit, parse_cards
>>> from scoring.rules import get_rules
>>> trump = Trump(Rank.FIVE, Suit.HEARTS)
>>> plays = [
...     Play("P1", parse_cards(["5H", "5H"])),
...     Play("P2", parse_cards(["9H", "KH"])),
...     Play("P3", parse_cards(["SJ", "SJ"])),
... ]
>>> hands = {"P2": parse_cards(["9H", "KH", "7H", "7H", "2C"])}
>>> judgement = judge(get_rules("kawu"), trump, plays, hands)
>>> judgement.winner, judgement.points
('P3', 20)
>>> judgement.plays[1].reason
'P2 held the pair 7H 7H in trumps and had to play it'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from scoring.cards import Card, check_copies, points
from scoring.combos import (
    Combo,
    Shape,
    decompose,
    find_split,
    highest,
    pairs,
    tractors_matched,
)
from scoring.errors import CardError, PlayError
from scoring.rules import Format, Rules, TractorFollow
from scoring.trump import TRUMP, FollowSuit, Trump, suit_name


@dataclass(frozen=True, slots=True)
class Play:
    """The cards one player put on the table."""

    player: str
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"{self.player}: {_show(self.cards)}"


@dataclass(frozen=True, slots=True)
class Lead:
    """The first play read as combinations: its format and the suit the others must follow."""

    player: str
    cards: tuple[Card, ...]
    format: Format
    suit: FollowSuit
    combos: tuple[Combo, ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether one play was legal: None where the player's hand was not given and the play has
    the lead's number of cards; a reason whenever it was not."""

    player: str
    cards: tuple[Card, ...]
    legal: bool | None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class ThrowCheck:
    """A throw checked against what the other players (``checked``, in play order) are known to
    have held before the trick: the hand given for each, or else the cards they played to it.

    When it fails, ``beaten_by`` held ``beater``, which beats ``forced``: the combination the
    leader must lead instead, paying ``penalty`` points for the cards taken back.
    """

    ok: bool
    checked: tuple[str, ...]
    beaten_by: str | None = None
    beater: Combo | None = None
    forced: Combo | None = None
    penalty: int = 0


@dataclass(frozen=True, slots=True)
class Judgement:
    """A trick judged. ``winner`` is None when a failed throw is taken back; ``winner_as_played``
    is who takes the cards as they lie on the table (the same player otherwise)."""

    lead: Lead
    plays: tuple[Verdict, ...]
    winner: str | None
    winner_as_played: str
    points: int
    throw: ThrowCheck | None = None

    def to_json(self) -> dict[str, object]:
        """The verdict as docs/engine-json.md's ``judge`` answers it.

        >>> from scoring.cards import Rank, Suit, parse_cards
        >>> from scoring.rules import get_rules
        >>> plays = [Play("P1", parse_cards(["KS"])), Play("P2", parse_cards(["AS"]))]
        >>> judge(get_rules("standard"), Trump(Rank.TWO, Suit.HEARTS), plays).to_json()["winner"]
        'P2'
        """
        lead = self.lead
        answer: dict[str, object] = {
            "lead": {"player": lead.player, "format": lead.format.value, "suit": str(lead.suit)},
            "winner": self.winner,
            "points": self.points,
            "plays": [
                {
                    "player": verdict.player,
                    "cards": [str(card) for card in verdict.cards],
                    "legal": verdict.legal,
                    **({"reason": verdict.reason} if verdict.legal is False else {}),
                }
                for verdict in self.plays
            ],
        }
        throw = self.throw
        if throw is not None:
            checked: dict[str, object] = {"ok": throw.ok, "checked": list(throw.checked)}
            if throw.forced is not None:
                checked["beaten_by"] = throw.beaten_by
                checked["forced"] = [str(card) for card in throw.forced.cards]
                checked["penalty"] = throw.penalty
            answer["throw"] = checked
        return answer


def judge(
    rules: Rules,
    trump: Trump,
    plays: Sequence[Play],
    hands: Mapping[str, Sequence[Card]] | None = None,
) -> Judgement:
    """Judge a trick, complete or in progress (down to the lead alone).

    ``hands`` holds, for some or all players, their cards before this trick; each named player's
    play must come from their hand. Whether a hand without a trump suit trumps its level cards is
    the rules' to say: ``trump`` gives the level, the trump suit and the decks. Raises
    :class:`~scoring.errors.PlayError` (or ``CardError``) for a trick that cannot be judged.
    """
    # Rebuilt only when it differs: building a context costs about as much as judging a trick.
    if trump.no_trump_level_cards is not rules.no_trump_level_cards:
        trump = replace(trump, no_trump_level_cards=rules.no_trump_level_cards)
    hands = hands or {}
    _check_trick(trump, plays, hands)
    lead = read_lead(rules, trump, plays[0])
    verdicts = [Verdict(lead.player, lead.cards, True if lead.player in hands else None)]
    for play in plays[1:]:
        fault = follow_fault(rules, trump, lead, play, hands.get(play.player))
        legal = None if play.player not in hands and fault is None else fault is None
        verdicts.append(Verdict(play.player, play.cards, legal, fault))
    throw = None
    if lead.format is Format.THROW:
        # A given hand holds its player's play and more; the players who have not played yet
        # come after those who have.
        known = {**{play.player: play.cards for play in plays[1:]}, **hands}
        others = {name: cards for name, cards in known.items() if name != lead.player}
        throw = check_throw(rules, trump, lead, others)
        if not throw.ok:
            verdicts[0] = Verdict(lead.player, lead.cards, False, _throw_reason(lead, throw))
    best = plays[_winning_index(trump, lead, plays, verdicts)].player
    return Judgement(
        lead=lead,
        plays=tuple(verdicts),
        winner=best if throw is None or throw.ok else None,
        winner_as_played=best,
        points=points(card for play in plays for card in play.cards),
        throw=throw,
    )


def read_lead(rules: Rules, trump: Trump, play: Play) -> Lead:
    """Read the first play of a trick: one suit, and a throw only where the rules allow one.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> from scoring.rules import get_rules
    >>> read_lead(get_rules("kawu"), Trump(Rank.TWO, Suit.SPADES), Play("P1", parse_cards(["AH", "KH"])))
    Traceback (most recent call last):
    ...
    scoring.errors.PlayError: P1's lead AH KH is a throw (AH, KH), which the kawu rules forbid: lead a single, a pair or a tractor
    """  # noqa: E501
    if not play.cards:
        raise PlayError(f"{play.player}'s lead has no cards", play.player, "play")
    suit = trump.common_suit(play.cards)
    if suit is None:
        suits = " and ".join(suit_name(s) for s in dict.fromkeys(map(trump.suit_of, play.cards)))
        raise PlayError(
            f"{play.player}'s lead {_show(play.cards)} mixes {suits}: every lead, a throw too, "
            "is of one suit (trumps count as one suit)",
            play.player,
            "play",
        )
    combos = decompose(trump, play.cards)
    format = combos[0].format if len(combos) == 1 else Format.THROW
    if format is Format.THROW and not rules.throws:
        parts = ", ".join(str(combo) for combo in combos)
        raise PlayError(
            f"{play.player}'s lead {_show(play.cards)} is a throw ({parts}), which the "
            f"{rules.name} rules forbid: lead a single, a pair or a tractor",
            play.player,
            "play",
        )
    return Lead(play.player, play.cards, format, suit, combos)


def follow_fault(
    rules: Rules,
    trump: Trump,
    lead: Lead,
    play: Play,
    hand: Sequence[Card] | None,
) -> str | None:
    """Why ``play`` breaks the following rules, given the player's ``hand`` before the trick;
    None if it does not, or if the hand is unknown and the play has the lead's number of cards.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> from scoring.rules import get_rules
    >>> rules, trump = get_rules("standard"), Trump(Rank.TWO, Suit.SPADES)
    >>> lead = read_lead(rules, trump, Play("P1", parse_cards(["9H", "9H"])))
    >>> hand = parse_cards(["3H", "4H", "AC", "KC"])
    >>> follow_fault(rules, trump, lead, Play("P2", parse_cards(["3H", "AC"])), hand)
    'P2 had 2 hearts left and played only 1 of them'
    """
    count, led = len(lead.cards), len(play.cards)
    if led != count:
        return f"{play.player} played {_cards(led)} to a lead of {count}"
    if hand is None:
        return None
    suit = lead.suit
    held = [card for card in hand if trump.suit_of(card) is suit]
    followed = [card for card in play.cards if trump.suit_of(card) is suit]
    if len(followed) < min(count, len(held)):
        return _suit_reason(play.player, suit, len(held), len(followed), count)
    if len(held) <= count:
        return None
    lengths = [combo.length for combo in lead.combos if combo.length > 1]
    if lengths and rules.tractor_follow is TractorFollow.TRACTOR:
        could = tractors_matched(trump, held, lengths)
        if tractors_matched(trump, followed, lengths) < could:
            return _tractor_reason(trump, play.player, suit, held, lengths, could)
    lead_pairs = sum(combo.length for combo in lead.combos if combo.width == 2)
    if lead_pairs:
        held_pairs = pairs(trump, held)
        needed = min(lead_pairs, len(held_pairs))
        played = len(pairs(trump, followed))
        if played < needed:
            return _pairs_reason(play.player, suit, held_pairs, needed, played)
    return None


def check_throw(
    rules: Rules, trump: Trump, lead: Lead, hands: Mapping[str, Sequence[Card]]
) -> ThrowCheck:
    """Check a throw against the cards other players are known to have held before the trick
    (their hands, or what they played to it), in the order given: the first who could beat the
    forced combination beats the throw.

    >>> from scoring.cards import Rank, Suit, parse_cards
    >>> from scoring.rules import get_rules
    >>> rules, trump = get_rules("open-ladder"), Trump(Rank.TWO, Suit.SPADES)
    >>> lead = read_lead(rules, trump, Play("P1", parse_cards(["AH", "QH", "QH"])))
    >>> check = check_throw(rules, trump, lead, {"P2": parse_cards(["KH", "KH", "3C"])})
    >>> check.beaten_by, str(check.forced), check.penalty
    ('P2', 'QH QH', 10)
    """
    beatable: list[tuple[Combo, str, Combo]] = []
    for combo in lead.combos:
        for player, hand in hands.items():
            held = [card for card in hand if trump.suit_of(card) is lead.suit]
            better = highest(trump, held, combo.shape)
            if better is not None and better.top > combo.top:
                beatable.append((combo, player, better))
                break
    checked = tuple(hands)
    if not beatable:
        return ThrowCheck(ok=True, checked=checked)
    forced, player, better = min(beatable, key=lambda found: (len(found[0].cards), found[0].top))
    taken_back = len(lead.cards) - len(forced.cards)
    return ThrowCheck(
        ok=False,
        checked=checked,
        beaten_by=player,
        beater=better,
        forced=forced,
        penalty=rules.throw_penalty * taken_back,
    )


def _winning_index(
    trump: Trump, lead: Lead, plays: Sequence[Play], verdicts: Sequence[Verdict]
) -> int:
    shapes = [combo.shape for combo in lead.combos]
    best = 0
    for index in range(1, len(plays)):
        if verdicts[index].legal is not False and _takes(
            trump, shapes, plays[best].cards, plays[index].cards
        ):
            best = index
    return best


def _takes(
    trump: Trump, shapes: Sequence[Shape], winning: Sequence[Card], cards: Sequence[Card]
) -> bool:
    """Whether ``cards`` take the trick from the play ``winning`` so far: a question about these
    two plays alone, so that the plays the winner beat never change the answer. Each play is
    read to its player's advantage: one reading of ``cards`` must beat every reading of
    ``winning``; a doubt leaves the trick with the earlier play."""
    suit = trump.common_suit(cards)
    if suit is trump.common_suit(winning):
        return find_split(trump, cards, shapes, above=winning) is not None
    # The winner so far is in the led plain suit: any trump play of the lead's shape beats it.
    return suit is TRUMP and find_split(trump, cards, shapes) is not None


def _check_trick(trump: Trump, plays: Sequence[Play], hands: Mapping[str, Sequence[Card]]) -> None:
    if not plays:
        raise PlayError("plays is empty: a trick needs at least its lead")
    seen: set[str] = set()
    for play in plays:
        if play.player in seen:
            raise PlayError(f"{play.player} plays twice in this trick", play.player, "play")
        seen.add(play.player)
    given = [(player, "hand", hand) for player, hand in hands.items()]
    for part in given:
        _copies(trump, [part], f"{part[0]}'s hand")
    for play in plays:
        if play.player in hands:
            _check_in_hand(play, hands[play.player])
    played = [(play.player, "play", play.cards) for play in plays]
    _copies(trump, played, "the plays")
    unseen = [part for part in played if part[0] not in hands]
    _copies(trump, [*given, *unseen], "the hands and plays together")


def _check_in_hand(play: Play, hand: Sequence[Card]) -> None:
    held = Counter(hand)
    for card, count in Counter(play.cards).items():
        if held[card] == 0:
            raise PlayError(
                f"{play.player}'s play: {card} is not in {play.player}'s hand", play.player, "play"
            )
        if held[card] < count:
            raise PlayError(
                f"{play.player}'s play: {card} is played {count} times, "
                f"but {play.player}'s hand holds {held[card]}",
                play.player,
                "play",
            )


def _copies(trump: Trump, parts: Sequence[tuple[str, str, Sequence[Card]]], where: str) -> None:
    """Raise if the cards of ``parts`` (player, "play" or "hand", cards) name a card more often
    than the decks hold; the error blames the part that went over."""
    try:
        check_copies((card for _, _, cards in parts for card in cards), trump.decks)
    except CardError as error:
        raise PlayError(f"{where}: {error}", *_first_over(parts, trump.decks)) from None


def _first_over(
    parts: Sequence[tuple[str, str, Sequence[Card]]], decks: int
) -> tuple[str | None, str | None]:
    seen: Counter[Card] = Counter()
    for player, part, cards in parts:
        seen.update(cards)
        if max(seen.values(), default=0) > decks:
            return player, part
    return None, None


def _suit_reason(player: str, suit: FollowSuit, held: int, followed: int, count: int) -> str:
    if held == 1:
        return f"{player} had 1 {suit_name(suit, 1)} left and did not play it"
    played = f"only {followed} of them" if followed else "none of them"
    reason = f"{player} had {held} {suit_name(suit)} left and played {played}"
    return reason + (f" to a lead of {count}" if held > count else "")


def _tractor_reason(
    trump: Trump,
    player: str,
    suit: FollowSuit,
    held: Sequence[Card],
    lengths: Sequence[int],
    could: int,
) -> str:
    if len(lengths) == 1:
        length = lengths[0]
        example = highest(trump, held, (2, length))
        return (
            f"{player} held the tractor {example} in {suit_name(suit)} "
            f"and had to play a tractor of {length} pairs"
        )
    return (
        f"{player} held tractors in {suit_name(suit)} to match {could} of the lead's "
        f"{len(lengths)} tractors and had to play them"
    )


def _pairs_reason(
    player: str, suit: FollowSuit, held: Sequence[Combo], needed: int, played: int
) -> str:
    if len(held) == 1:
        return f"{player} held the pair {held[0]} in {suit_name(suit)} and had to play it"
    listed = ", ".join(str(pair) for pair in held[:-1]) + f" and {held[-1]}"
    if needed == len(held):
        which = "both" if needed == 2 else "all of them"
    else:
        which = "one of them" if needed == 1 else f"{needed} of them"
    reason = f"{player} held the pairs {listed} in {suit_name(suit)} and had to play {which}"
    return reason + (f", not {played}" if played else "")


def _throw_reason(lead: Lead, throw: ThrowCheck) -> str:
    assert throw.forced is not None
    taken_back = len(lead.cards) - len(throw.forced.cards)
    reason = (
        f"{lead.player}'s throw fails: {throw.beaten_by} held {throw.beater}, which beats "
        f"{throw.forced}; {lead.player} takes back {_cards(taken_back)} and leads {throw.forced}"
    )
    return reason + (f", paying {throw.penalty} points" if throw.penalty else "")


def _cards(count: int) -> str:
    return f"{count} card" + ("" if count == 1 else "s")


def _show(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
