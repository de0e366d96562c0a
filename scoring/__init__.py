"""Tractor's rules engine: cards, rules as data, settling hands. Pure Python, no Django."""

from __future__ import annotations

from scoring.cards import BIG_JOKER, SMALL_JOKER, Card, Joker, Rank, Suit, parse_cards, points
from scoring.errors import CardError, RulesError, ScoringError, SettleError
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
from scoring.settle import LastTrick, Levels, Settlement, settle

__all__ = [
    "BIG_JOKER",
    "PRESETS",
    "SMALL_JOKER",
    "Band",
    "Card",
    "CardError",
    "Format",
    "GameEnd",
    "Joker",
    "KittyRule",
    "LastTrick",
    "Levels",
    "Rank",
    "Rules",
    "RulesError",
    "ScoringError",
    "SettleError",
    "Settlement",
    "Side",
    "Starter",
    "Suit",
    "TractorFollow",
    "get_rules",
    "parse_cards",
    "points",
    "rules_from_json",
    "settle",
]
