"""Imports as jobs: the account's import of an uploaded file, one at a time, and the file a megabyte
to a row until its import ends."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0012_account_language'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ImportJob',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('request_key', models.CharField(blank=True, max_length=40)),
                ('file_name', models.CharField(max_length=255)),
                ('name', models.CharField(blank=True, max_length=80)),
                ('language', models.CharField(max_length=16)),
                ('state', models.CharField(choices=[('waiting', 'waiting'), ('running', 'running'), ('succeeded', 'imported'), ('failed', 'refused')], default='waiting', max_length=9)),
                ('games', models.PositiveIntegerField(default=0)),
                ('games_done', models.PositiveIntegerField(default=0)),
                ('players', models.PositiveIntegerField(default=0)),
                ('hands', models.PositiveIntegerField(default=0)),
                ('refusal', models.TextField(blank=True)),
                ('missing', models.JSONField(blank=True, default=list)),
                ('worker', models.CharField(blank=True, max_length=64)),
                ('created', models.DateTimeField(default=django.utils.timezone.now)),
                ('beat', models.DateTimeField(default=django.utils.timezone.now)),
                ('group', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='import_job', to='companion.group')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='import_jobs', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created', '-pk'],
            },
        ),
        migrations.CreateModel(
            name='ImportChunk',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('data', models.BinaryField()),
                ('job', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chunks', to='companion.importjob')),
            ],
        ),
        migrations.AddConstraint(
            model_name='importjob',
            constraint=models.UniqueConstraint(condition=models.Q(('state__in', ['waiting', 'running'])), fields=('user',), name='one_import_at_a_time'),
        ),
        migrations.AddConstraint(
            model_name='importjob',
            constraint=models.UniqueConstraint(condition=models.Q(('request_key', ''), _negated=True), fields=('user', 'request_key'), name='one_job_per_upload'),
        ),
        migrations.AddConstraint(
            model_name='importjob',
            constraint=models.CheckConstraint(condition=models.Q(('games_done__lte', models.F('games'))), name='import_done_within_its_games'),
        ),
        migrations.AddConstraint(
            model_name='importchunk',
            constraint=models.UniqueConstraint(fields=('job', 'number'), name='one_chunk_per_place'),
        ),
    ]
