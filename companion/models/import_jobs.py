"""Imports as jobs: an upload is kept in the database (any server's worker can read it) until its
import ends, and the job says how far it has come, what it made or why the file was refused. The
task worker (`companion.tasks`) runs it through the exchange (`companion.exchange.jobs`)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

CHUNK_BYTES = 2**20
STALE = timedelta(minutes=10)
"""A running import says it is alive after every few games (a second or so); one silent for this
long was cut off (its worker killed), and the worker's clean-up takes it away."""


class ImportBusy(Exception):
    """The account is importing another file: one import at a time."""

    def __init__(self, job: ImportJob) -> None:
        super().__init__(job.file_name)
        self.job = job


class ImportJob(models.Model):
    """An account's import of an export file: waiting for a worker, running, done (its new
    group) or refused (why, in the importer's language)."""

    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        RUNNING = "running", _("running")
        SUCCEEDED = "succeeded", _("imported")
        FAILED = "failed", _("refused")

    ACTIVE = (State.WAITING, State.RUNNING)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    # The import form's key: the same upload sent twice makes one job.
    request_key = models.CharField(max_length=40, blank=True)
    file_name = models.CharField(max_length=255)
    name = models.CharField(max_length=80, blank=True)  # the new group's; "" keeps the file's
    language = models.CharField(max_length=16)
    state = models.CharField(max_length=9, choices=State.choices, default=State.WAITING)
    games = models.PositiveIntegerField(default=0)  # the file's, once its shape is read
    games_done = models.PositiveIntegerField(default=0)
    players = models.PositiveIntegerField(default=0)
    hands = models.PositiveIntegerField(default=0)
    # The group being made: memberless (nobody sees it) until the job succeeds.
    group = models.OneToOneField(
        "companion.Group",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="import_job",
    )
    refusal = models.TextField(blank=True)
    missing = models.JSONField(default=list, blank=True)  # usernames nobody the importer knows
    worker = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(default=timezone.now)
    beat = models.DateTimeField(default=timezone.now)  # the running job's last sign of life

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(state__in=["waiting", "running"]),
                name="one_import_at_a_time",
            ),
            models.UniqueConstraint(
                fields=["user", "request_key"],
                condition=~Q(request_key=""),
                name="one_job_per_upload",
            ),
            models.CheckConstraint(
                condition=Q(games_done__lte=F("games")), name="import_done_within_its_games"
            ),
        ]

    def __str__(self) -> str:
        return self.file_name

    @classmethod
    def start(
        cls,
        user,
        upload,
        *,
        name: str = "",
        request_key: str = "",
        language: str = "",
    ) -> tuple[ImportJob, bool]:
        """A job for ``upload`` (stored a megabyte to a row) to run, and True; or the
        job already made for the same ``request_key`` (a double submit), and False. ImportBusy
        while another of the account's imports is under way."""
        if request_key:
            sent = cls.objects.filter(user=user, request_key=request_key).first()
            if sent is not None:
                return sent, False
        try:
            with transaction.atomic():
                job = cls.objects.create(
                    user=user,
                    request_key=request_key,
                    file_name=(upload.name or "")[-255:],
                    name=name,
                    language=language or settings.LANGUAGE_CODE,
                )
                for number, data in enumerate(upload.chunks(CHUNK_BYTES)):
                    ImportChunk.objects.create(job=job, number=number, data=data)
        except IntegrityError:
            sent = request_key and cls.objects.filter(user=user, request_key=request_key).first()
            if sent:
                return sent, False
            running = cls.objects.filter(user=user, state__in=cls.ACTIVE).first()
            if running is None:
                raise
            raise ImportBusy(running) from None
        return job, True

    @property
    def active(self) -> bool:
        return self.state in self.ACTIVE

    @property
    def percent(self) -> int:
        return 100 * self.games_done // self.games if self.games else 0

    def data(self) -> bytes:
        """The uploaded file, read back a row at a time."""
        numbers = self.chunks.order_by("number").values_list("pk", flat=True)
        return b"".join(
            bytes(ImportChunk.objects.values_list("data", flat=True).get(pk=pk))
            for pk in list(numbers)
        )

    def take(self, *, worker: str = "") -> bool:
        """Start running the job, once: False for a job that another run took (a task run again
        after a crash), which is then left alone."""
        taken = ImportJob.objects.filter(pk=self.pk, state=self.State.WAITING).update(
            state=self.State.RUNNING, worker=worker[:64], beat=timezone.now()
        )
        if taken:
            self.refresh_from_db()
        return bool(taken)

    def counted(self, games: int) -> None:
        """The file's games, once its shape is read."""
        ImportJob.objects.filter(pk=self.pk).update(games=games, beat=timezone.now())

    def progress(self, group, games: int) -> None:
        """Inside each of the import's transactions: what is written is the job's."""
        ImportJob.objects.filter(pk=self.pk).update(
            group=group, games_done=games, beat=timezone.now()
        )

    def succeeded(self, group, *, players: int, hands: int, missing: tuple[str, ...]) -> None:
        """Inside the transaction that makes the group whole and visible; the file goes."""
        ImportJob.objects.filter(pk=self.pk).update(
            state=self.State.SUCCEEDED,
            group=group,
            players=players,
            hands=hands,
            missing=list(missing),
            beat=timezone.now(),
        )
        ImportChunk.objects.filter(job=self.pk).delete()

    def fail(self, refusal: str) -> None:
        """Refused, saying why: the group it was making is no longer its, and the file goes."""
        with transaction.atomic():
            ImportJob.objects.filter(pk=self.pk).update(
                state=self.State.FAILED, refusal=refusal, group=None, games_done=0
            )
            ImportChunk.objects.filter(job=self.pk).delete()

    @classmethod
    def cut_off(cls, *, worker: str = "") -> list[ImportJob]:
        """The runs that their worker's end cut off: ``worker``'s own (it is starting), and
        any worker's silent for `STALE`."""
        lost = Q(beat__lt=timezone.now() - STALE)
        if worker:
            lost |= Q(worker=worker[:64])
        return list(cls.objects.filter(lost, state=cls.State.RUNNING))

    @classmethod
    def of(cls, user) -> Iterable[ImportJob]:
        return cls.objects.filter(user=user).select_related("group")


class ImportChunk(models.Model):
    """A megabyte of an uploaded file, in order: an upload read back a row at a time."""

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "number"], name="one_chunk_per_place")
        ]

    def __str__(self) -> str:
        return f"{self.job} ({self.number})"
