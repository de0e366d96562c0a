"""The game's things as a player reads them: levels, suits, cards, rules, names and a hand's
sides, in the reader's language. Views, forms, the pages' builders and the template tags
(one-line adapters over these) share them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from scoring.cards import BIG_JOKER, DISTINCT_CARDS, SMALL_JOKER, Card, CardError, Rank, Suit
from scoring.game import PlayedHand
from scoring.rules import PRESETS, Rules
from scoring.table import Table, parse_trump, trump_text
from scoring.words import in_a_row, listed


def level(rank: Rank | str) -> str:
    """A level as players say it: 10 rather than T."""
    rank = Rank.parse(rank) if isinstance(rank, str) else rank
    return rank.spoken


def rules_title(rules: Rules | str) -> str:
    """Rules as a page names them: a preset by its title in the reader's language, a group's
    own table by the name the group gave it."""
    name = rules if isinstance(rules, str) else rules.name
    preset = PRESETS.get(name)
    return gettext(preset.title) if preset is not None else name


def joined(names: Sequence[object]) -> str:
    """Names as a sentence lists them, in the reader's language: ``Mei``, ``Mei and Lin``,
    ``Mei, Lin and Wei``."""
    return listed([str(name) for name in names]).in_words(gettext, ngettext)


def either(names: Sequence[object]) -> str:
    """Names as a choice between them, in the reader's language: ``Jun or Hao``,
    ``Mei, Lin or Wei``."""
    return listed([str(name) for name in names], either=True).in_words(gettext, ngettext)


def sentences(said: Sequence[str]) -> str:
    """Sentences one after the other, as the language writes them (Chinese: with no space)."""
    text = said[0]
    for sentence in said[1:]:
        # Translators: two sentences of one message, one after the other. Chinese writes them
        # with no space between.
        text = gettext("%(sentence)s %(next)s") % {"sentence": text, "next": sentence}
    return text


def together(players: Iterable[object]) -> str:
    """A team's players as its name, the same in every language and on every page (a label, a
    chart's legend, a list): ``Mei``, ``Mei & Lin``, ``Mei, Lin & Wei``. A sentence about them
    says ``joined``. Its comma is the reader's list comma (Chinese 、)."""
    shown = [str(player) for player in players]
    if len(shown) < 2:
        return "".join(shown)
    return f"{in_a_row(shown[:-1]).in_words(gettext, ngettext)} & {shown[-1]}"


def team(seats: Iterable[int], players: Sequence[object]) -> str:
    """Seats as the name of their team (``players`` in play order): ``Mei & Lin``."""
    return together(players[seat] for seat in seats)


def names(seats: Iterable[int], players: Sequence[object]) -> str:
    """Seats as the names of their players (``players`` in play order): ``Mei and Lin``."""
    return joined([players[seat] for seat in seats])


def sides(table: Table) -> list[tuple[int, ...]]:
    """The sides whose levels the scoreboard shows: the fixed teams, or every player."""
    return list(table.fixed) or [(seat,) for seat in table.seats]


def hand_sides(table: Table, played: PlayedHand) -> dict:
    """A hand's sides in players' words, where every side stands after it (its level before
    and after), and whose levels it changed."""
    players = table.players
    standing = [
        (
            team(side, players),
            played.before.levels[side[0]],
            played.after.levels[side[0]],
        )
        for side in sides(table)
    ]
    return {
        "declarer": players[played.result.declarer],
        "friends": names(played.friends, players),
        # A fixed team is named as the standings and the level race name it; the others of a
        # pairs game, or a find-a-friend hand's sides, are players a sentence lists.
        "declarers": (team if table.fixed else names)(played.declarers, players),
        "opponents": (team if len(table.fixed) == 2 else names)(played.opponents, players),
        "standing": standing,
        "climbed": [(side, was, now) for side, was, now in standing if now != was],
    }


def suit_symbol(trump: str | Suit | None) -> str:
    """A hand's trump as its suit's symbol, or the words for no trump (None or NO_TRUMP)."""
    if isinstance(trump, str):
        trump = parse_trump(trump)
    return trump.symbol if trump else _("No trump")


def trump_sign(trump: Suit | None) -> str:
    """A hand's trump as one sign to read across the table: its suit's, or a short sign for no
    trump."""
    if trump is not None:
        return trump.symbol
    # Translators: the sign of a hand without trump, read across the table in large letters
    # beside the level (Chinese: 无主). Keep it as short as a suit's sign.
    return pgettext("the sign of no trump", "NT")


def trump_taps(declared: str) -> list[dict]:
    """The trumps a table can declare for a hand (Game.TRUMPS_DECLARED), the one ``declared``
    pressed, each with its sign, as the game page's buttons show them."""
    taps = []
    for suit in (*GRID_SUITS, None):
        code = trump_text(suit)
        taps.append(
            {
                "code": code,
                "sign": suit.symbol if suit else _("No trump"),
                "red": suit in (Suit.HEARTS, Suit.DIAMONDS),
                "none": suit is None,
                "pressed": code == declared,
            }
        )
    return taps


def card_label(card: Card) -> str:
    """A card as players name it: ``10♥``, ``K♠``, ``BJ``."""
    if card.is_joker:
        return str(card)
    return f"{card.rank.spoken}{card.suit.symbol}"


def card_codes(text: str | None) -> str:
    """The cards a field of typed codes reads, each by its one code (``10♥`` is ``TH``), words
    that are no card left out: what the card grid shows pressed, with no notation of its own."""
    codes = []
    for word in (text or "").replace(",", " ").split():
        try:
            codes.append(str(Card.parse(word)))
        except CardError:
            continue
    return " ".join(codes)


def is_red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS) or card == BIG_JOKER


# The card grid: a suit to two rows of seven, A down to 2, black and red suits in turn; then the
# jokers. ``row_start`` begins a new row.
GRID_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
CARD_GRID = [
    {
        "code": str(card),
        "label": card_label(card),
        "red": is_red(card),
        "row_start": card == SMALL_JOKER or card.rank is Rank.ACE,
    }
    for card in sorted(
        DISTINCT_CARDS,
        key=lambda card: (
            (len(GRID_SUITS), card == BIG_JOKER)
            if card.is_joker
            else (GRID_SUITS.index(card.suit), -card.rank)
        ),
    )
]
