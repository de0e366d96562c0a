"""The JSON contract of docs/engine-json.md: read a request, answer one JSON object or one line.

Each command reads a decoded JSON value and returns the answer as a JSON-ready dict; anything
wrong with the request raises a :class:`~scoring.errors.ScoringError` whose message becomes the
single line on standard error.
"""

from __future__ import annotations

import gettext as stdlib_gettext
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from scoring.cards import Card, Rank, check_decks, parse_cards
from scoring.errors import CardError, ScoringError
from scoring.game import GameError, GameSetup, GameState, HandResult, PlayedHand, replay
from scoring.reading import json_object, player_seat, required, trump_suit
from scoring.rules import PRESETS, Rules, get_rules
from scoring.settle import LastTrick, Levels, TakenBack, explain, settle
from scoring.table import Table
from scoring.tricks import Play, judge
from scoring.trump import Trump
from scoring.words import Gettext, Ngettext, Sentence, english, gettext_noop

USAGE = "usage: python -m scoring [--lang LANG] judge|settle|game [FILE]"
LOCALE = Path(__file__).resolve().parent.parent / "locale"
"""The web app's catalogues (``locale/<language>/LC_MESSAGES/django.mo``), read by ``--lang``."""


def settle_request(
    request: object, gettext: Gettext = str, ngettext: Ngettext = english
) -> dict[str, object]:
    """Answer a ``settle`` request, its explanation in the language of ``gettext``."""
    data = json_object(request, "the request")
    rules = get_rules(data.get("rules", "standard"))
    raw_levels = json_object(required(data, "levels"), "levels")
    levels = Levels(
        declarers=_level(raw_levels, "declarers"),
        opponents=_level(raw_levels, "opponents"),
    )
    result = settle(
        rules,
        levels,
        opponent_points=required(data, "opponent_points"),  # type: ignore[arg-type]
        kitty_points=required(data, "kitty_points"),  # type: ignore[arg-type]
        last_trick=LastTrick.from_json(required(data, "last_trick")),
        taken_back=TakenBack.from_json(data.get("taken_back", {})),
        decks=data.get("decks", 2),  # type: ignore[arg-type]
        kitty_cards=data.get("kitty_cards"),  # type: ignore[arg-type]
    )
    return {
        "kitty_multiplier": result.kitty_multiplier,
        "kitty_bonus": result.kitty_bonus,
        "throw_penalty": result.throw_penalty,
        "opponent_total": result.opponent_total,
        "winner": result.winner.value,
        "levels_gained": result.levels_gained,
        "levels": {
            "declarers": str(result.levels.declarers),
            "opponents": str(result.levels.opponents),
        },
        "next_declarers": result.next_declarers.value,
        "game_over": result.game_over,
        "game_winner": result.game_winner.value if result.game_winner else None,
        "explanation": explain(result, gettext, ngettext),
    }


def game_request(
    request: object, gettext: Gettext = str, ngettext: Ngettext = english
) -> dict[str, object]:
    """Answer a ``game`` request: the whole game folded hand by hand, its explanations in the
    language of ``gettext``."""
    data = json_object(request, "the request")
    rules = get_rules(data.get("rules", "standard"))
    players = data.get("players")
    table = Table.from_json(
        {
            "players": players,
            "decks": data.get("decks", 2),
            "teams": data.get("teams", "partners"),
            "trumps": data.get("trumps", "bid"),
            "called": data.get("called"),
        }
    )
    raw_levels = json_object(data.get("levels", {}), "levels")
    for name in raw_levels:
        player_seat(table, name, "levels")
    first = data.get("first_declarer")
    try:
        setup = GameSetup(
            rules,
            table,
            levels=tuple(
                _rank(raw_levels.get(name, "2"), f"levels.{name}") for name in table.players
            ),
            first_declarer=player_seat(table, first, "first_declarer")
            if first is not None
            else None,
        )
    except GameError as error:
        raise ScoringError(_named_field(error), said=_hand_said(error)) from None
    if setup.needs_first_declarer and first is None:
        raise ScoringError("first_declarer is missing: nobody bids for the first hand")
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        raise ScoringError(f"hands must be a list of hands, got {json.dumps(raw_hands)}")
    try:
        game = replay(setup, _hand_results(table, raw_hands))
    except GameError as error:
        raise ScoringError(_named_field(error), said=_hand_said(error)) from None
    answer = _state_json(table, game.state)
    hands = [
        _hand_json(table, hand, explain(hand.settlement, gettext, ngettext)) for hand in game.hands
    ]
    return {"hands": hands, **answer}


def _named_field(error: GameError) -> str:
    """The error's line with the input at fault named, where its own words do not name it."""
    detail = _detail(error)
    return f"hand {error.hand}: {detail}" if error.hand is not None else detail


def _detail(error: GameError) -> str:
    detail = error.detail
    if error.field and not detail.startswith(error.field):
        detail = f"{error.field}: {detail}"
    return detail


def _hand_said(error: GameError) -> Sentence:
    """The error's line for a person at a terminal: the problem in words, after its hand."""
    problem = error.sentence if error.said else _detail(error)
    if error.hand is None:
        return Sentence("{problem}", problem=problem)
    # Translators: {problem} is a sentence saying what is wrong with hand number {hand}.
    return Sentence(gettext_noop("Hand {hand}: {problem}"), hand=error.hand, problem=problem)


def _hand_results(table: Table, raw_hands: list[object]) -> Iterator[HandResult]:
    """Each hand read as the fold comes to it, so that the first bad hand is the one named."""
    for number, raw in enumerate(raw_hands, start=1):
        yield HandResult.from_json(raw, table, number)


def _names(table: Table, seats: Iterable[int]) -> list[str]:
    return [table.players[seat] for seat in seats]


def _state_json(table: Table, state: GameState) -> dict[str, object]:
    return {
        "levels": {
            name: str(level) for name, level in zip(table.players, state.levels, strict=True)
        },
        "next_declarers": _names(table, state.next_declarers),
        "next_declarer": (
            table.players[state.next_declarer] if state.next_declarer is not None else None
        ),
        "game_over": state.game_over,
        "game_winners": _names(table, state.winners),
    }


def _hand_json(table: Table, hand: PlayedHand, explanation: str) -> dict[str, object]:
    return {
        "number": hand.number,
        "declarers": _names(table, hand.declarers),
        "opponents": _names(table, hand.opponents),
        "opponent_total": hand.settlement.opponent_total,
        "winner": hand.winner.value,
        "levels_gained": {table.players[seat]: n for seat, n in hand.levels_gained.items()},
        **_state_json(table, hand.after),
        "explanation": explanation,
    }


def judge_request(
    request: object, gettext: Gettext = str, ngettext: Ngettext = english
) -> dict[str, object]:
    """Answer a ``judge`` request, its reasons in the language of ``gettext``."""
    data = json_object(request, "the request")
    rules = get_rules(data.get("rules", "standard"))
    trump = Trump(
        level=_rank(required(data, "level"), "level"),
        suit=trump_suit(required(data, "trump")),
        decks=check_decks(data.get("decks", 2)),  # type: ignore[arg-type]
    )
    raw_hands = json_object(data.get("hands") or {}, "hands")
    hands = {player: _cards(cards, f"{player}'s hand") for player, cards in raw_hands.items()}
    judgement = judge(rules, trump, _plays(required(data, "plays")), hands)
    return judgement.to_json(gettext, ngettext)


def judge_input(
    rules: Rules,
    trump: Trump,
    plays: Sequence[Play],
    hands: Mapping[str, Sequence[Card]] | None = None,
) -> dict[str, object]:
    """The ``judge`` request for a trick, as :func:`judge_request` reads it back: the rules by
    their preset's name when they are a preset, else as a rules object.

    >>> from scoring.cards import SMALL_JOKER
    >>> trick = [Play("P1", (SMALL_JOKER,))]
    >>> request = judge_input(get_rules("kawu"), Trump(Rank.FIVE, None), trick)
    >>> request["rules"], request["level"], request["trump"], request["plays"]
    ('kawu', '5', None, [['P1', ['SJ']]])
    """
    preset = PRESETS.get(rules.name)
    return {
        "rules": rules.name if preset == rules else rules.to_json(),
        "level": str(trump.level),
        "trump": str(trump.suit) if trump.suit else None,
        "decks": trump.decks,
        "hands": {player: [str(card) for card in cards] for player, cards in (hands or {}).items()},
        "plays": [[play.player, [str(card) for card in play.cards]] for play in plays],
    }


COMMANDS: dict[str, Callable[[object, Gettext, Ngettext], dict[str, object]]] = {
    "judge": judge_request,
    "settle": settle_request,
    "game": game_request,
}


def main(argv: list[str], stdin: TextIO | None = None, locale: Path = LOCALE) -> int:
    """Run one command; 0 with the answer on stdout, 2 with one line on stderr.

    ``--lang LANG`` (a language code such as ``fr`` or ``zh-hans``) puts the sentences a
    person reads (explanations, reasons, the error line) in that language where ``locale``
    holds its catalogue, and leaves them in English where it does not; the rest of the answer
    is the same in every language."""
    argv, lang = _lang(argv)
    if not argv or argv[0] not in COMMANDS or len(argv) > 2 or lang == "":
        print(USAGE, file=sys.stderr)
        return 2
    command = COMMANDS[argv[0]]
    words = catalogue(lang, locale) if lang else None
    try:
        text = _read(argv[1] if len(argv) == 2 else None, stdin or sys.stdin)
        request = _decode(text)
        answer = command(request, *((words.gettext, words.ngettext) if words else ()))
    except ScoringError as error:
        line = error.in_words(words.gettext, words.ngettext) if words else str(error)
        # One line, whatever the request's own strings hold.
        print(" ".join(line.splitlines()), file=sys.stderr)
        return 2
    json.dump(answer, sys.stdout, ensure_ascii=False)
    print()
    return 0


def catalogue(lang: str, locale: Path = LOCALE) -> stdlib_gettext.NullTranslations:
    """The web app's catalogue for ``lang`` (Django's language code: ``fr``, ``zh-hans``,
    ``pt-br``), or English (no translation) where ``locale`` holds none.

    >>> catalogue("xx", Path("/nowhere")).gettext("Band {band} ends before it starts.")
    'Band {band} ends before it starts.'
    """
    wanted = to_locale(lang)
    # A language without its country reads that language's catalogue (``pt`` reads ``pt_BR``),
    # as Django picks for a browser.
    variants = (
        sorted(str(path.name) for path in locale.glob(f"{wanted}_*")) if wanted.isalpha() else []
    )
    return stdlib_gettext.translation(
        "django", localedir=locale, languages=[wanted, *variants], fallback=True
    )


def to_locale(lang: str) -> str:
    """A language code as the catalogues' directories are named (as Django's ``to_locale``).

    >>> to_locale("zh-hans"), to_locale("pt-br"), to_locale("fr")
    ('zh_Hans', 'pt_BR', 'fr')
    """
    language, _, country = lang.strip().replace("_", "-").partition("-")
    if not country:
        return language.lower()
    country = country.title() if len(country) > 2 else country.upper()
    return f"{language.lower()}_{country}"


def _lang(argv: list[str]) -> tuple[list[str], str | None]:
    """The arguments without ``--lang LANG`` (or ``--lang=LANG``), and LANG: None when not
    given, "" when given without a language."""
    rest: list[str] = []
    lang = None
    args = iter(argv)
    for arg in args:
        if arg == "--lang":
            lang = next(args, "")
        elif arg.startswith("--lang="):
            lang = arg.removeprefix("--lang=")
        else:
            rest.append(arg)
    return rest, lang


def _read(path: str | None, stdin: TextIO) -> str:
    if path is None or path == "-":
        # The bytes, decoded here: the locale's decoding would fail or let bad bytes through.
        raw = getattr(stdin, "buffer", None)
        try:
            return raw.read().decode("utf-8") if raw is not None else stdin.read()
        except UnicodeDecodeError:
            raise ScoringError("the input is not UTF-8 text") from None
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise ScoringError(f"cannot read {path!r}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScoringError(f"{path!r} is not UTF-8 text") from None


def _decode(text: str) -> object:
    try:
        request = json.loads(text)
        # A lone surrogate escape ("\\ud800") is no character: the answer could not be written.
        json.dumps(request, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as error:
        raise ScoringError(f"the input is not JSON: {error}") from None
    except UnicodeEncodeError as error:
        bad = error.object[error.start : error.end]
        raise ScoringError(f"the input holds {bad!r}, which is not a character") from None
    except RecursionError:
        raise ScoringError("the input is nested too deeply to read") from None
    except ValueError:  # json reads no integer longer than Python converts from text
        raise ScoringError(
            f"the input holds a number of more than {sys.get_int_max_str_digits()} digits"
        ) from None
    return request


def _level(levels: Mapping[str, object], side: str) -> Rank:
    return _rank(required(levels, side, "levels."), f"levels.{side}")


def _rank(value: object, what: str) -> Rank:
    try:
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise CardError(value)
        return Rank.parse(str(value))
    except CardError:
        raise ScoringError(f"{what} must be a level from 2 to A, got {json.dumps(value)}") from None


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise ScoringError(f"{what} must be a list of cards, got {json.dumps(value)}")
    try:
        return parse_cards(value)
    except CardError as error:
        raise ScoringError(f"{what}: {error}", said=error.sentence if error.said else "") from None


def _plays(value: object) -> list[Play]:
    if not isinstance(value, list):
        raise ScoringError(f"plays must be a list of [player, [cards]], got {json.dumps(value)}")
    plays = []
    for number, entry in enumerate(value):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise ScoringError(
                f"plays[{number}] must be [player, [cards]], got {json.dumps(entry)}"
            )
        player, cards = entry
        plays.append(Play(player, _cards(cards, f"{player}'s play")))
    return plays
