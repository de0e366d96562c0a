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
from scoring.words import (
    Gettext,
    Ngettext,
    Plural,
    Sentence,
    english,
    gettext_noop,
    in_a_row,
    listed,
    ngettext,
)


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
    the lead's number of cards; a reason whenever it was not, a sentence in English that
    :meth:`~scoring.words.Sentence.in_words` puts in the player's language."""

    player: str
    cards: tuple[Card, ...]
    legal: bool | None
    reason: Sentence | None = None


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

    def to_json(self, gettext: Gettext = str, ngettext: Ngettext = english) -> dict[str, object]:
        """The verdict as docs/engine-json.md's ``judge`` answers it, its reasons in the
        language of ``gettext`` and ``ngettext`` (English by default).

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
                    **(
                        {"reason": verdict.reason.in_words(gettext, ngettext)}
                        if verdict.legal is False and verdict.reason is not None
                        else {}
                    ),
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
        raise PlayError(
            Sentence(gettext_noop("{player}'s lead has no cards"), player=play.player),
            play.player,
            "play",
        )
    suit = trump.common_suit(play.cards)
    if suit is None:
        suits = listed([suit_name(s) for s in dict.fromkeys(map(trump.suit_of, play.cards))])
        raise PlayError(
            Sentence(
                gettext_noop(
                    # Translators: {cards} are card codes such as "AH 5S"; {suits} lists suits'
                    # names, such as "hearts and trumps".
                    "{player}'s lead {cards} mixes {suits}: every lead, a throw too, is of one "
                    "suit (trumps count as one suit)"
                ),
                player=play.player,
                cards=_show(play.cards),
                suits=suits,
            ),
            play.player,
            "play",
        )
    combos = decompose(trump, play.cards)
    format = combos[0].format if len(combos) == 1 else Format.THROW
    if format is Format.THROW and not rules.throws:
        raise PlayError(
            Sentence(
                gettext_noop(
                    # Translators: {cards} are card codes such as "AH KH"; {parts} the same cards
                    # read as singles, pairs and tractors, such as "AH, KH"; {rules} the rules'
                    # name, such as "kawu".
                    "{player}'s lead {cards} is a throw ({parts}), which the {rules} rules "
                    "forbid: lead a single, a pair or a tractor"
                ),
                player=play.player,
                cards=_show(play.cards),
                # Card notation in a row, its comma the reader's (Chinese 、).
                parts=in_a_row([str(combo) for combo in combos]),
                rules=rules.name,
            ),
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
) -> Sentence | None:
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
        return Sentence(
            ngettext(
                # Translators: {lead} is the number of cards led.
                "{player} played {count} card to a lead of {lead}",
                "{player} played {count} cards to a lead of {lead}",
                led,
            ),
            player=play.player,
            count=led,
            lead=count,
        )
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
        raise PlayError(Sentence(gettext_noop("plays is empty: a trick needs at least its lead")))
    seen: set[str] = set()
    for play in plays:
        if play.player in seen:
            raise PlayError(
                Sentence(gettext_noop("{player} plays twice in this trick"), player=play.player),
                play.player,
                "play",
            )
        seen.add(play.player)
    given = [(player, "hand", hand) for player, hand in hands.items()]
    for part in given:
        _copies(
            trump,
            [part],
            ngettext(
                "{player}'s hand: {card} appears {count} time, but {decks} decks hold only {decks}",
                "{player}'s hand: {card} appears {count} times, but {decks} decks hold only "
                "{decks}",
                0,
            ),
        )
    for play in plays:
        if play.player in hands:
            _check_in_hand(play, hands[play.player])
    played = [(play.player, "play", play.cards) for play in plays]
    _copies(
        trump,
        played,
        ngettext(
            "the plays: {card} appears {count} time, but {decks} decks hold only {decks}",
            "the plays: {card} appears {count} times, but {decks} decks hold only {decks}",
            0,
        ),
    )
    unseen = [part for part in played if part[0] not in hands]
    _copies(
        trump,
        [*given, *unseen],
        ngettext(
            "the hands and plays together: {card} appears {count} time, but {decks} decks "
            "hold only {decks}",
            "the hands and plays together: {card} appears {count} times, but {decks} decks "
            "hold only {decks}",
            0,
        ),
    )


def _check_in_hand(play: Play, hand: Sequence[Card]) -> None:
    held = Counter(hand)
    for card, count in Counter(play.cards).items():
        if held[card] == 0:
            raise PlayError(
                Sentence(
                    gettext_noop("{player}'s play: {card} is not in {player}'s hand"),
                    player=play.player,
                    card=str(card),
                ),
                play.player,
                "play",
            )
        if held[card] < count:
            raise PlayError(
                Sentence(
                    ngettext(
                        # Translators: {held} is how many of that card the player's hand holds.
                        "{player}'s play: {card} is played {count} time, but {player}'s hand "
                        "holds {held}",
                        "{player}'s play: {card} is played {count} times, but {player}'s hand "
                        "holds {held}",
                        count,
                    ),
                    player=play.player,
                    card=str(card),
                    count=count,
                    held=held[card],
                ),
                play.player,
                "play",
            )


def _copies(trump: Trump, parts: Sequence[tuple[str, str, Sequence[Card]]], said: Plural) -> None:
    """Raise if the cards of ``parts`` (player, "play" or "hand", cards) name a card more often
    than the decks hold, in the words of ``said`` (its count filled in here); the error blames
    the part that went over."""
    try:
        check_copies((card for _, _, cards in parts for card in cards), trump.decks)
    except CardError as error:
        values = error.values
        sentence = Sentence(said._replace(count=values["count"]), player=parts[0][0], **values)
        raise PlayError(sentence, *_first_over(parts, trump.decks)) from None


def _first_over(
    parts: Sequence[tuple[str, str, Sequence[Card]]], decks: int
) -> tuple[str | None, str | None]:
    seen: Counter[Card] = Counter()
    for player, part, cards in parts:
        seen.update(cards)
        if max(seen.values(), default=0) > decks:
            return player, part
    return None, None


def _suit_reason(player: str, suit: FollowSuit, held: int, followed: int, count: int) -> Sentence:
    values = {
        "player": player,
        "held": held,
        "played": followed,
        "lead": count,
        "suit": suit_name(suit, held),
    }
    if held == 1:
        # Translators: {suit} is a suit's name for one card of it ("heart", "trump").
        said = gettext_noop("{player} had 1 {suit} left and did not play it")
    elif not followed and held > count:
        said = ngettext(
            # Translators: {suit} is a suit's name for {held} cards of it ("hearts", "trumps");
            # {lead} is the number of cards led.
            "{player} had {held} {suit} left and played none of it to a lead of {lead}",
            "{player} had {held} {suit} left and played none of them to a lead of {lead}",
            held,
        )
    elif not followed:
        said = ngettext(
            # Translators: {suit} is a suit's name for {held} cards of it ("hearts", "trumps").
            "{player} had {held} {suit} left and played none of it",
            "{player} had {held} {suit} left and played none of them",
            held,
        )
    elif held > count:
        said = ngettext(
            # Translators: {suit} is a suit's name for {held} cards of it ("hearts", "trumps");
            # {lead} is the number of cards led.
            "{player} had {held} {suit} left and played only {played} of it to a lead of {lead}",
            "{player} had {held} {suit} left and played only {played} of them to a lead of {lead}",
            held,
        )
    else:
        said = ngettext(
            # Translators: {suit} is a suit's name for {held} cards of it ("hearts", "trumps").
            "{player} had {held} {suit} left and played only {played} of it",
            "{player} had {held} {suit} left and played only {played} of them",
            held,
        )
    return Sentence(said, **values)


def _tractor_reason(
    trump: Trump,
    player: str,
    suit: FollowSuit,
    held: Sequence[Card],
    lengths: Sequence[int],
    could: int,
) -> Sentence:
    if len(lengths) == 1:
        length = lengths[0]
        return Sentence(
            ngettext(
                # Translators: {tractor} is card codes such as "7H 7H 8H 8H"; {suit} a suit's
                # name as in "in hearts", "in trumps"; {pairs} the lead's number of pairs.
                "{player} held the tractor {tractor} in {suit} and had to play a tractor of "
                "{pairs} pair",
                "{player} held the tractor {tractor} in {suit} and had to play a tractor of "
                "{pairs} pairs",
                length,
            ),
            player=player,
            tractor=str(highest(trump, held, (2, length))),
            suit=suit_name(suit),
            pairs=length,
        )
    return Sentence(
        ngettext(
            # Translators: {suit} is a suit's name as in "in hearts", "in trumps"; {could} is how
            # many of the lead's {count} tractors the player could match.
            "{player} held tractors in {suit} to match {could} of the lead's {count} tractors "
            "and had to play it",
            "{player} held tractors in {suit} to match {could} of the lead's {count} tractors "
            "and had to play them",
            could,
        ),
        player=player,
        suit=suit_name(suit),
        could=could,
        count=len(lengths),
    )


def _pairs_reason(
    player: str, suit: FollowSuit, held: Sequence[Combo], needed: int, played: int
) -> Sentence:
    values: dict[str, object] = {
        "player": player,
        "suit": suit_name(suit),
        "pairs": listed([str(pair) for pair in held]),
        "needed": needed,
        "played": played,
    }
    if len(held) == 1:
        # Translators: {pair} is card codes such as "7H 7H"; {suit} a suit's name as in
        # "in hearts", "in trumps".
        said = gettext_noop("{player} held the pair {pair} in {suit} and had to play it")
        values["pair"] = str(held[0])
    elif needed == len(held) == 2 and played:
        said = gettext_noop(
            # Translators: {pairs} lists two pairs' card codes; {played} is the pairs played.
            "{player} held the pairs {pairs} in {suit} and had to play both, not {played}"
        )
    elif needed == len(held) == 2:
        # Translators: {pairs} lists two pairs' card codes, such as "7H 7H and 9H 9H".
        said = gettext_noop("{player} held the pairs {pairs} in {suit} and had to play both")
    elif needed == len(held) and played:
        said = gettext_noop(
            # Translators: {pairs} lists the pairs' card codes; {played} is the pairs played.
            "{player} held the pairs {pairs} in {suit} and had to play all of them, not {played}"
        )
    elif needed == len(held):
        # Translators: {pairs} lists the pairs' card codes, such as "7H 7H, 8H 8H and 9H 9H".
        said = gettext_noop("{player} held the pairs {pairs} in {suit} and had to play all of them")
    elif played:
        said = ngettext(
            # Translators: {pairs} lists the pairs' card codes; {needed} is how many of them the
            # player had to play, {played} how many pairs they played.
            "{player} held the pairs {pairs} in {suit} and had to play {needed} of them, "
            "not {played}",
            "{player} held the pairs {pairs} in {suit} and had to play {needed} of them, "
            "not {played}",
            needed,
        )
    elif needed == 1:
        # Translators: {pairs} lists the pairs' card codes, such as "7H 7H and 9H 9H".
        said = gettext_noop("{player} held the pairs {pairs} in {suit} and had to play one of them")
    else:
        said = ngettext(
            # Translators: {pairs} lists the pairs' card codes; {needed} is how many of them the
            # player had to play.
            "{player} held the pairs {pairs} in {suit} and had to play {needed} of them",
            "{player} held the pairs {pairs} in {suit} and had to play {needed} of them",
            needed,
        )
    return Sentence(said, **values)


def _throw_reason(lead: Lead, throw: ThrowCheck) -> Sentence:
    assert throw.forced is not None
    values = {
        "leader": lead.player,
        "player": throw.beaten_by,
        "beater": str(throw.beater),
        "forced": str(throw.forced),
        "count": len(lead.cards) - len(throw.forced.cards),
        "penalty": throw.penalty,
    }
    if throw.penalty:
        said = ngettext(
            # Translators: {player} held {beater}, card codes such as "KH KH", above {forced}, the
            # leader's combination; {count} counts the cards {leader} takes back, {penalty} the
            # points that costs.
            "{leader}'s throw fails: {player} held {beater}, which beats {forced}; {leader} "
            "takes back {count} card and leads {forced}, paying {penalty} points",
            "{leader}'s throw fails: {player} held {beater}, which beats {forced}; {leader} "
            "takes back {count} cards and leads {forced}, paying {penalty} points",
            values["count"],
        )
    else:
        said = ngettext(
            # Translators: {player} held {beater}, card codes such as "KH KH", above {forced}, the
            # leader's combination; {count} counts the cards {leader} takes back.
            "{leader}'s throw fails: {player} held {beater}, which beats {forced}; {leader} "
            "takes back {count} card and leads {forced}",
            "{leader}'s throw fails: {player} held {beater}, which beats {forced}; {leader} "
            "takes back {count} cards and leads {forced}",
            values["count"],
        )
    return Sentence(said, **values)


def _show(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
