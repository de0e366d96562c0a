"""Open-ladder hands without trump have only the jokers as trumps: the rules object says so
with ``no_trump_level_cards``, which games kept under the open-ladder preset did not carry (it
read as true). Saved precedents are judged again, so that each verdict stays the engine's answer
to its request now that the judge reads split plays and throws as the rules say.
"""

from django.db import migrations

from scoring import ScoringError
from scoring.cli import judge_request


def open_ladder(rules):
    if isinstance(rules, dict) and rules.get("name") == "open-ladder":
        rules.setdefault("no_trump_level_cards", False)
    return rules


def mend(apps, schema_editor):
    Game = apps.get_model("companion", "Game")
    Dispute = apps.get_model("companion", "Dispute")
    for game in Game.objects.filter(rules_json__name="open-ladder").iterator():
        game.rules_json = open_ladder(game.rules_json)
        game.save(update_fields=["rules_json"])
    for dispute in Dispute.objects.all().iterator():
        dispute.request["rules"] = open_ladder(dispute.request.get("rules"))
        try:
            dispute.verdict = judge_request(dispute.request)
        except ScoringError:
            continue  # a request the judge no longer reads keeps the verdict it was given
        dispute.save(update_fields=["request", "verdict"])


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0005_tables"),
    ]

    operations = [migrations.RunPython(mend, migrations.RunPython.noop)]
