"""Tractor's rules engine, pure Python without Django: cards, rules, tables, tricks, settlement
and games."""

from __future__ import annotations

from scoring.cards import BIG_JOKER, SMALL_JOKER, Card, Joker, Rank, Suit, parse_cards, points
from scoring.combos import Combo, classify, decompose
from scoring.errors import CardError, PlayError, ReplayError, RulesError, ScoringError, SettleError
from scoring.game import Game, GameError, GameSetup, GameState, HandResult, PlayedHand, replay
from scoring.replay import Fault, HandReplay, replay_hand
from scoring.rules import (
    PRESETS,
    Band,
    Format,
    GameEnd,
    KittyRule,
    Rules,
    Side,
    Starter,
    TractorFollow,
    get_rules,
    rules_from_json,
)
from scoring.settle import LastTrick, Levels, Settlement, TakenBack, explain, settle
from scoring.table import (
    Bid,
    Table,
    TableError,
    Teams,
    TrumpRule,
    check_bid,
    default_decks,
    trumps_allowed,
    weakest_bid,
)
from scoring.tricks import Judgement, Lead, Play, ThrowCheck, Verdict, judge
from scoring.trump import TRUMP, Trump, Trumps
from scoring.words import Sentence, listed

__all__ = [
    "BIG_JOKER",
    "PRESETS",
    "SMALL_JOKER",
    "TRUMP",
    "Band",
    "Bid",
    "Card",
    "CardError",
    "Combo",
    "Fault",
    "Format",
    "Game",
    "GameEnd",
    "GameError",
    "GameSetup",
    "GameState",
    "HandReplay",
    "HandResult",
    "Joker",
    "Judgement",
    "KittyRule",
    "LastTrick",
    "Lead",
    "Levels",
    "Play",
    "PlayError",
    "PlayedHand",
    "Rank",
    "ReplayError",
    "Rules",
    "RulesError",
    "ScoringError",
    "Sentence",
    "SettleError",
    "Settlement",
    "Side",
    "Starter",
    "Suit",
    "Table",
    "TableError",
    "TakenBack",
    "Teams",
    "ThrowCheck",
    "TractorFollow",
    "Trump",
    "TrumpRule",
    "Trumps",
    "Verdict",
    "check_bid",
    "classify",
    "decompose",
    "default_decks",
    "explain",
    "get_rules",
    "judge",
    "listed",
    "parse_cards",
    "points",
    "replay",
    "replay_hand",
    "rules_from_json",
    "settle",
    "trumps_allowed",
    "weakest_bid",
]
