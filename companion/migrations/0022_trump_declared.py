"""A game whose trump is bid keeps the trump the table declared for the hand being played."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0021_evenings"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="trump_declared",
            field=models.CharField(
                blank=True,
                choices=[("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"), ("NT", "No trump")],
                max_length=2,
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="trump_declared_for",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(trump_declared__in=["", "S", "H", "D", "C", "NT"]),
                name="trump_declared_known",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(trump_declared="", trump_declared_for=None)
                | models.Q(
                    ~models.Q(trump_declared=""),
                    trump_declared_for__isnull=False,
                    trump_declared_for__gte=1,
                    trumps="bid",
                ),
                name="trump_declared_for_a_hand_under_a_bid",
            ),
        ),
    ]
