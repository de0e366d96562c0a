"""Club nights: evenings, who is present, their rounds and the games at their tables."""

import companion.models.evenings
import companion.models.games
import companion.models.groups
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0020_export_log'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Evening',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created', models.DateTimeField(default=django.utils.timezone.now)),
                ('ended', models.DateTimeField(blank=True, null=True)),
                ('share_token', models.CharField(default=companion.models.groups.new_token, max_length=32, unique=True)),
                ('seed', models.PositiveBigIntegerField(default=companion.models.evenings.new_seed)),
                ('seating', models.CharField(choices=[('random', 'At random'), ('balanced', 'Balanced by rating'), ('new-partners', 'New partners')], default='random', max_length=16)),
                ('leftover', models.CharField(choices=[('sit-out', 'Sit out in turn'), ('mixed', 'Tables of mixed sizes')], default='sit-out', max_length=8)),
                ('players_per_table', models.PositiveSmallIntegerField(default=4)),
                ('rules_json', models.JSONField()),
                ('decks', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('teams', models.CharField(choices=[('partners', 'Partners'), ('pairs', 'Pairs'), ('find-a-friend', 'Find a friend')], default='partners', max_length=16)),
                ('trumps', models.JSONField(default=companion.models.games.trumps_by_bid)),
                ('called', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('hands_per_round', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('minutes_per_round', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('version', models.PositiveIntegerField(default=0)),
                ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('group', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='evenings', to='companion.group')),
            ],
            options={
                'ordering': ['-created'],
            },
        ),
        migrations.CreateModel(
            name='Presence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('present', models.BooleanField(default=True)),
                ('evening', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presences', to='companion.evening')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='companion.player')),
            ],
        ),
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('tables', models.JSONField(default=list)),
                ('sitting_out', models.JSONField(blank=True, default=list)),
                ('started', models.DateTimeField(blank=True, null=True)),
                ('ended', models.DateTimeField(blank=True, null=True)),
                ('evening', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='companion.evening')),
            ],
            options={
                'ordering': ['number'],
            },
        ),
        migrations.CreateModel(
            name='EveningTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('ended', models.DateTimeField(blank=True, null=True)),
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='evening_table', to='companion.game')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables_played', to='companion.round')),
            ],
            options={
                'ordering': ['number'],
            },
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('players_per_table__gte', 4), ('players_per_table__lte', 8)), name='evening_four_to_eight_a_table'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('decks__isnull', True), models.Q(('decks__gte', 2), ('decks__lte', 4)), _connector='OR'), name='evening_two_to_four_decks'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('called__isnull', True), models.Q(('called__gte', 1), ('called__lte', 2)), _connector='OR'), name='evening_one_or_two_cards_called'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('hands_per_round__isnull', True), models.Q(('hands_per_round__gte', 2), ('hands_per_round__lte', 30)), _connector='OR'), name='evening_round_hands_bounded'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('minutes_per_round__isnull', True), models.Q(('minutes_per_round__gte', 10), ('minutes_per_round__lte', 240)), _connector='OR'), name='evening_round_minutes_bounded'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('ended__isnull', True), ('ended__gte', models.F('created')), _connector='OR'), name='evening_ends_after_it_starts'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('seating__in', ['random', 'balanced', 'new-partners'])), name='evening_seating_known'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.CheckConstraint(condition=models.Q(('leftover__in', ['sit-out', 'mixed'])), name='evening_leftover_known'),
        ),
        migrations.AddConstraint(
            model_name='presence',
            constraint=models.UniqueConstraint(fields=('evening', 'player'), name='present_once_an_evening'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('evening', 'number'), name='one_round_per_number'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='rounds_from_one'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('ended__isnull', True), ('started__isnull', False), _connector='OR'), name='round_ends_once_started'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('ended__isnull', True), ('ended__gte', models.F('started')), _connector='OR'), name='round_ends_after_it_starts'),
        ),
        migrations.AddConstraint(
            model_name='eveningtable',
            constraint=models.UniqueConstraint(fields=('round', 'number'), name='one_table_per_number'),
        ),
        migrations.AddConstraint(
            model_name='eveningtable',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='tables_from_one'),
        ),
    ]
