"""Games of 4 to 8 players: seats in play order instead of North, East, South and West, the
table's decks, teams and trump rule, and find-a-friend's friends on each hand.

A four-seat game keeps its play order (North, West, South, East: seats 0 to 3, partners 0+2
against 1+3), its levels and first starter; each hand's declarer, in the hand and in its
history, becomes that seat's number. The ladder summaries are made again from the hands.
"""

from django.db import migrations, models
import django.db.models.deletion

import companion.models

PLAY_ORDER = {"N": 0, "W": 1, "S": 2, "E": 3}
JOKER_BIDS = ("small-jokers", "big-jokers")
SUIT_BIDS = ("one", "pair")


def seat_the_players(apps, schema_editor):
    Game = apps.get_model("companion", "Game")
    Seat = apps.get_model("companion", "Seat")
    Hand = apps.get_model("companion", "Hand")
    HandChange = apps.get_model("companion", "HandChange")
    for game in Game.objects.all().iterator():
        seats = [
            (game.north_id, game.north_south_level),
            (game.west_id, game.east_west_level),
            (game.south_id, game.north_south_level),
            (game.east_id, game.east_west_level),
        ]
        Seat.objects.bulk_create(
            Seat(game=game, position=position, player_id=player, level=level)
            for position, (player, level) in enumerate(seats)
        )
        # A chosen first starter only ever bound rules that rotate the start.
        rotates = isinstance(game.rules_json, dict) and game.rules_json.get("starter") == "rotate"
        if game.first_starter and rotates:
            game.first_declarer = PLAY_ORDER[game.first_starter]
            game.save(update_fields=["first_declarer"])
    for hand in Hand.objects.all().iterator():
        hand.declarer_seat = PLAY_ORDER[hand.declarer]
        # A bid that contradicts the trump played (jokers with a suit, level cards without
        # one) was accepted before: the trump is what the hand was played with.
        if (hand.bid in JOKER_BIDS and hand.trump) or (hand.bid in SUIT_BIDS and not hand.trump):
            hand.bid = "none"
        hand.save(update_fields=["declarer_seat", "bid"])
    for change in HandChange.objects.all().iterator():
        for snapshot in (change.before, change.after):
            if snapshot is not None and isinstance(snapshot.get("declarer"), str):
                snapshot["declarer"] = PLAY_ORDER[snapshot["declarer"]]
                snapshot.setdefault("friends", [])
        change.save(update_fields=["before", "after"])


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0004_hand_cards_taken_back"),
    ]

    operations = [
        migrations.CreateModel(
            name="Seat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("position", models.PositiveSmallIntegerField()),
                ("level", models.CharField(default="2", max_length=1)),
                ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="companion.game")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="seats", to="companion.player")),
            ],
            options={"ordering": ["position"]},
        ),
        migrations.AddField(
            model_name="game",
            name="decks",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AddField(
            model_name="game",
            name="teams",
            field=models.CharField(choices=[("partners", "Partners"), ("pairs", "Pairs"), ("find-a-friend", "Find a friend")], default="partners", max_length=16),
        ),
        migrations.AddField(
            model_name="game",
            name="trumps",
            field=models.JSONField(default=companion.models.trumps_by_bid),
        ),
        migrations.AddField(
            model_name="game",
            name="called",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="first_declarer",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="hand",
            name="friends",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="hand",
            name="declarer_seat",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="hand",
            name="bid",
            field=models.CharField(blank=True, choices=[("one", "One level card"), ("pair", "A pair of level cards"), ("small-jokers", "Small jokers"), ("big-jokers", "Big jokers"), ("none", "Nobody bid")], default="one", max_length=12),
        ),
        migrations.RunPython(seat_the_players, migrations.RunPython.noop),
        migrations.RemoveField(model_name="hand", name="declarer"),
        migrations.RenameField(model_name="hand", old_name="declarer_seat", new_name="declarer"),
        migrations.AlterField(
            model_name="hand",
            name="declarer",
            field=models.PositiveSmallIntegerField(),
        ),
        migrations.RemoveField(model_name="game", name="north"),
        migrations.RemoveField(model_name="game", name="east"),
        migrations.RemoveField(model_name="game", name="south"),
        migrations.RemoveField(model_name="game", name="west"),
        migrations.RemoveField(model_name="game", name="north_south_level"),
        migrations.RemoveField(model_name="game", name="east_west_level"),
        migrations.RemoveField(model_name="game", name="first_starter"),
        migrations.RemoveField(model_name="gamesummary", name="winner"),
        migrations.AddField(
            model_name="gamesummary",
            name="winners",
            field=models.CharField(blank=True, max_length=8),
        ),
        # Every summary belonged to the four-seat form: the next page makes them again.
        migrations.RunSQL("DELETE FROM companion_gamesummary", migrations.RunSQL.noop),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(fields=("game", "position"), name="one_player_per_seat"),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(fields=("game", "player"), name="one_seat_per_player"),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(condition=models.Q(("position__lt", 8)), name="at_most_eight_seats"),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(condition=models.Q(("decks__gte", 2), ("decks__lte", 4)), name="two_to_four_decks"),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(condition=models.Q(("called__isnull", True), models.Q(("called__gte", 1), ("called__lte", 2)), _connector="OR"), name="one_or_two_cards_called"),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(condition=models.Q(("first_declarer__isnull", True), ("first_declarer__lt", 8), _connector="OR"), name="first_declarer_at_the_table"),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(condition=models.Q(("declarer__lt", 8)), name="declarer_at_the_table"),
        ),
    ]
