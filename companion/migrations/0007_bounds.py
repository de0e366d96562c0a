"""Every number in a rules object now has a bound (scoring/README.md). Rules saved before,
in games, tables and precedents, are brought within them: each number is cut to its bound,
bands that start past the highest bound go and the band left last becomes open-ended. A table
that cutting cannot mend (the last band left is the declarers') takes the standard bands and
keeps its other settings. A roster player may belong to one account per group: where an
account held several, it keeps the first.
"""

import contextlib

from django.db import migrations, models

from scoring import ScoringError, rules_from_json
from scoring.cli import judge_request
from scoring.rules import MAX_BAND_POINTS, MAX_LEVELS, MAX_THROW_PENALTY, STANDARD


def _cut(value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        return value  # not a number at all: left for the import and the forms to refuse
    return min(max(value, low), high)


def within_bounds(rules):
    if not isinstance(rules, dict) or not isinstance(rules.get("bands"), list):
        return rules
    try:
        rules_from_json(rules)
        return rules
    except ScoringError:
        pass
    mended = dict(rules)
    if "throw_penalty" in mended:
        mended["throw_penalty"] = _cut(mended["throw_penalty"], 0, MAX_THROW_PENALTY)
    bands = []
    for band in rules["bands"]:
        if not isinstance(band, dict):
            return rules
        band = dict(band)
        if isinstance(band.get("from"), int) and band["from"] > MAX_BAND_POINTS:
            break
        if band.get("to") is not None:
            band["to"] = _cut(band["to"], 0, MAX_BAND_POINTS - 5)
        band["levels"] = _cut(band.get("levels"), 0, MAX_LEVELS)
        if band.get("every") is not None:
            band["every"] = _cut(band["every"], 5, MAX_BAND_POINTS)
        bands.append(band)
    if bands:
        bands[-1]["to"] = None
    mended["bands"] = bands
    try:
        rules_from_json(mended)
    except ScoringError:
        mended["bands"] = STANDARD.to_json()["bands"]
        try:
            rules_from_json(mended)
        except ScoringError:
            return rules  # wrong for another reason than a bound: not this migration's to mend
    return mended


def mend(apps, schema_editor):
    for name in ("Game", "ScoringTable"):
        for row in apps.get_model("companion", name).objects.iterator():
            mended = within_bounds(row.rules_json)
            if mended is not row.rules_json:
                row.rules_json = mended
                row.save(update_fields=["rules_json"])
    for dispute in apps.get_model("companion", "Dispute").objects.iterator():
        rules = dispute.request.get("rules")
        mended = within_bounds(rules)
        if mended is rules:
            continue
        dispute.request["rules"] = mended
        with contextlib.suppress(ScoringError):  # else the verdict it was given stays
            dispute.verdict = judge_request(dispute.request)
        dispute.save(update_fields=["request", "verdict"])
    Player = apps.get_model("companion", "Player")
    kept = set()
    for player in Player.objects.exclude(user=None).order_by("pk").iterator():
        if (player.group_id, player.user_id) in kept:
            player.user = None
            player.save(update_fields=["user"])
        kept.add((player.group_id, player.user_id))


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0006_open_ladder_no_trump"),
    ]

    operations = [
        migrations.RunPython(mend, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(user__isnull=False),
                fields=("group", "user"),
                name="one_player_per_account_in_group",
            ),
        ),
    ]
