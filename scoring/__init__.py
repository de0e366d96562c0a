"""Tractor's rules engine, pure Python without Django: cards, rules, tricks and settlement."""

from __future__ import annotations

from scoring.cards import BIG_JOKER, SMALL_JOKER, Card, Joker, Rank, Suit, parse_cards, points
from scoring.combos import Combo, classify, decompose
from scoring.errors import CardError, PlayError, ReplayError, RulesError, ScoringError, SettleError
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
from scoring.tricks import Judgement, Lead, Play, ThrowCheck, Verdict, judge
from scoring.trump import TRUMP, Trump, Trumps

__all__ = [
    "BIG_JOKER",
    "PRESETS",
    "SMALL_JOKER",
    "TRUMP",
    "Band",
    "Card",
    "CardError",
    "Combo",
    "Fault",
    "Format",
    "GameEnd",
    "HandReplay",
    "Joker",
    "Judgement",
    "KittyRule",
    "LastTrick",
    "Lead",
    "Levels",
    "Play",
    "PlayError",
    "Rank",
    "ReplayError",
    "Rules",
    "RulesError",
    "ScoringError",
    "SettleError",
    "Settlement",
    "Side",
    "Starter",
    "Suit",
    "TakenBack",
    "ThrowCheck",
    "TractorFollow",
    "Trump",
    "Trumps",
    "Verdict",
    "classify",
    "decompose",
    "explain",
    "get_rules",
    "judge",
    "parse_cards",
    "points",
    "replay_hand",
    "rules_from_json",
    "settle",
]
