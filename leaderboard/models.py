"""The scoreboard: benches, models, tasks, batches, checks and attempts' scores.

Rows here carry no ``auto_now`` timestamps: re-importing the same release must
leave them ``dumpdata``-equal. Unknown fields of the release documents are kept
in ``extras`` JSON fields (``leaderboard.extras``), given back by the mirror.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from core import jsonsafe
from formats.v1 import attempt_files, sizes
from formats.v1.scoring import EXCEPTIONS_RULES, PASS_RATE_RULES
from leaderboard.generation_models import Generation  # noqa: F401 (own module; found here)
from leaderboard.querysets import (
    PENDING,
    RETIRED,
    SHOWN,
    AttemptQuerySet,
    BenchQuerySet,
    MainAttemptManager,
    OnShownBenches,
    ShownBenchManager,
    TaskQuerySet,
)
from leaderboard.revision_models import BenchRevision  # noqa: F401 (own module; found here)


class Bench(models.Model):
    class State(models.TextChoices):
        SHOWN = SHOWN, "shown"
        # Written aside by a chunked import, a committed chunk at a time; nobody
        # sees it (staff included) until one small transaction swaps it in.
        PENDING = PENDING, "pending (being imported)"
        # Replaced by a chunked import: deleted in batches, seen by nobody.
        RETIRED = RETIRED, "retired (being deleted)"

    # A bench that is not shown has a slug starting with "~", which no address
    # matches (the slug rule, formats.v1.slugs), so no page can name it.
    slug = models.CharField(max_length=sizes.SLUG)
    title = models.CharField(max_length=sizes.BENCH_TITLE)
    revision = models.CharField(max_length=sizes.REVISION)
    scoring_rule = models.CharField(max_length=100)
    # How a trial that raised is scored (scoring.EXCEPTIONS_RULES); blank: not Harbor.
    exceptions_rule = models.CharField(max_length=32, blank=True, default="")
    generated_at = models.CharField(max_length=64, help_text="RFC 3339, as published")
    # Unknown fields of manifest.json, leaderboard.json and matrix.json, by file
    # (trees in the shape of ``leaderboard.extras``).
    extras = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=8, choices=State, default=State.SHOWN)
    # A pending bench: the id it takes when swapped in; a retired one: the id it had.
    target_slug = models.CharField(max_length=sizes.SLUG, blank=True, default="")

    # The default manager shows only shown benches (leaderboard.querysets).
    objects = ShownBenchManager()
    everything = BenchQuerySet.as_manager()

    class Meta:
        ordering = ["slug"]
        verbose_name_plural = "benches"
        constraints = [
            models.UniqueConstraint(fields=["slug"], name="bench_unique_slug"),
            models.CheckConstraint(
                condition=Q(state__in=[SHOWN, PENDING, RETIRED]), name="bench_known_state"
            ),
            models.CheckConstraint(
                condition=(Q(state=SHOWN) & ~Q(slug__startswith="~"))
                | (~Q(state=SHOWN) & Q(slug__startswith="~")),
                name="bench_hidden_slug_iff_not_shown",
            ),
            # One chunked import of a bench at a time: the next one resumes it.
            models.UniqueConstraint(
                fields=["target_slug"],
                condition=Q(state=PENDING),
                name="bench_one_pending_import",
            ),
            models.CheckConstraint(
                condition=Q(exceptions_rule__in=["", *EXCEPTIONS_RULES]),
                name="bench_known_exceptions_rule",
            ),
        ]

    def __str__(self) -> str:
        return self.slug

    @property
    def is_pass_fail(self) -> bool:
        return self.scoring_rule in PASS_RATE_RULES

    @property
    def public_slug(self) -> str:
        """The id readers know it by: a hidden bench's target. What is computed
        from the id (the seed of the bootstrap draws) is the same aside as shown."""
        return self.slug if self.state == SHOWN else self.target_slug


class BatchQuerySet(models.QuerySet):
    def live(self) -> BatchQuerySet:
        return self.filter(live=True)


class Batch(models.Model):
    """A set of tasks whose detail was released together.

    ``live`` is False while staff keep the batch staged; staged tasks still
    count for scores and for the matrix's ``released=1`` filter.
    """

    bench = models.ForeignKey(Bench, on_delete=models.CASCADE, related_name="batches")
    number = models.IntegerField()
    released_at = models.CharField(max_length=sizes.RELEASED_AT)
    live = models.BooleanField(default=True)

    objects = BatchQuerySet.as_manager()

    class Meta:
        ordering = ["bench", "number"]
        verbose_name_plural = "batches"
        constraints = [
            models.UniqueConstraint(fields=["bench", "number"], name="batch_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.bench.slug} batch {self.number}"


class ModelQuerySet(OnShownBenches):
    def ranked(self) -> ModelQuerySet:
        # Total order: score, then model id, then pk (competition rank is stored).
        return self.order_by("rank", "slug", "pk")


class Model(models.Model):
    """One leaderboard entry: a model run in one harness with one configuration.

    The figures below are computed at import (``leaderboard.services``) so
    pages never recompute them.
    """

    bench = models.ForeignKey(Bench, on_delete=models.CASCADE, related_name="models")
    slug = models.CharField(max_length=sizes.SLUG)
    display_name = models.CharField(max_length=sizes.MODEL_NAME)
    harness = models.CharField(max_length=sizes.HARNESS)
    provider = models.CharField(max_length=sizes.PROVIDER)
    position = models.IntegerField(help_text="order in manifest.json")

    rank = models.IntegerField(default=0)
    # Best and worst rank over the middle 95% of paired bootstrap draws (paired.rank_intervals).
    rank_low = models.IntegerField(null=True, blank=True)
    rank_high = models.IntegerField(null=True, blank=True)
    # The mean over tasks of each task's mean over the model's trials.
    score = models.FloatField(default=0.0)
    tasks = models.IntegerField(default=0)
    flagged = models.IntegerField(default=0)
    passed = models.IntegerField(default=0, help_text="trials scored 1")
    # Every trial; a task without an attempt counts as one (failed) trial.
    trials = models.IntegerField(default=0)
    errors = models.IntegerField(default=0)  # trials that raised (n_errored_trials)
    # Every released trial's cost (None: none known; else lacking cost_unknown_trials); one run's.
    cost_usd = models.FloatField(default=0.0, null=True, blank=True)
    cost_unknown_trials = models.IntegerField(default=0)
    run_cost_usd = models.FloatField(default=0.0)
    duration_s = models.FloatField(default=0.0)
    by_surface = models.JSONField(default=dict, blank=True)
    # The score's 95% interval, from the same bootstrap draws as the ranks.
    ci_low = models.FloatField(null=True, blank=True)
    ci_high = models.FloatField(null=True, blank=True)
    # Pass-fail benches: pass@k, pass^k by k (a string), and the tasks with >= k trials.
    pass_at_k = models.JSONField(default=dict, blank=True)
    pass_hat_k = models.JSONField(default=dict, blank=True)
    pass_k_tasks = models.JSONField(default=dict, blank=True)
    # Tasks passed in every trial, some, none; the "some" ones as [task id, passed, trials].
    consistency = models.JSONField(default=dict, blank=True)
    some_tasks = models.JSONField(default=list, blank=True)

    published_score = models.FloatField(null=True, blank=True)
    # The source gave only an aggregate (no per-task results): ``score`` is the
    # published one; no interval, rank range, pass@k, matrix row or versus.
    published_only = models.BooleanField(default=False)
    # Unknown fields of models/<model>.json (leaderboard rows: Bench.extras).
    extras = models.JSONField(default=dict, blank=True)
    content_hash = models.CharField(max_length=80, blank=True)

    objects = ModelQuerySet.as_manager()

    class Meta:
        # By column: ordering through ``bench`` would join the bench table into
        # every query of models, grouped and counted ones included.
        ordering = ["bench_id", "rank", "slug", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["bench", "slug"], name="model_unique_slug"),
            models.CheckConstraint(
                condition=Q(score__gte=0) & Q(score__lte=1), name="model_score_in_unit_range"
            ),
        ]
        indexes = [
            # Leaderboard: a bench's models in rank order.
            models.Index(fields=["bench", "rank", "slug"], name="model_bench_rank"),
        ]

    def __str__(self) -> str:
        return self.slug


class Task(models.Model):
    bench = models.ForeignKey(Bench, on_delete=models.CASCADE, related_name="tasks")
    slug = models.CharField(max_length=sizes.SLUG)
    # The matrix.json entry's title and surface: public, even while staged.
    title = models.CharField(max_length=sizes.TASK_TITLE)
    surface = models.CharField(max_length=sizes.SURFACE)
    # The tasks/ file's (blank without one): detail, like its vendors and ticket.
    file_title = models.CharField(max_length=500, blank=True)
    file_surface = models.CharField(max_length=100, blank=True)
    vendors = models.JSONField(default=list, blank=True)
    position = models.IntegerField(help_text="order in manifest.json")
    batch = models.ForeignKey(
        Batch, null=True, blank=True, on_delete=models.SET_NULL, related_name="tasks"
    )
    batch_position = models.IntegerField(null=True, blank=True)
    ticket = models.TextField(blank=True)
    mean_score = models.FloatField(default=0.0, help_text="over every model, for matrix order")
    # Unknown fields of tasks/<task>.json (matrix entries: Bench.extras), and
    # under "ticket" the exact ticket when it holds a NUL (see jsonsafe).
    extras = models.JSONField(default=dict, blank=True)
    content_hash = models.CharField(max_length=80, blank=True)

    objects = TaskQuerySet.as_manager()

    class Meta:
        # By column, not through Bench (which would join it into every task query).
        ordering = ["bench_id", "slug"]
        constraints = [
            models.UniqueConstraint(fields=["bench", "slug"], name="task_unique_slug"),
        ]
        indexes = [
            # Matrix columns: a bench's tasks grouped by surface, hardest last.
            models.Index(fields=["bench", "surface", "mean_score"], name="task_bench_surface"),
        ]

    def __str__(self) -> str:
        return self.slug

    @property
    def is_released(self) -> bool:
        return self.batch_id is not None


class Check(models.Model):
    """A check as the task defines it (tasks/<task>.json)."""

    task = models.ForeignKey(Task, on_delete=models.CASCADE, related_name="checks")
    name = models.CharField(max_length=sizes.CHECK_NAME)
    level = models.CharField(max_length=sizes.CHECK_LEVEL)
    mandatory = models.BooleanField()
    position = models.IntegerField()

    class Meta:
        ordering = ["task_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["task", "name"], name="check_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Attempt(models.Model):
    """One model's official run of one task.

    Every matrix cell is an attempt. Released ones (``has_detail``) carry their
    summary and verdict; their ``score`` is recomputed from the verdict. For
    unreleased tasks the published matrix cell is the only score there is.

    Further trials of the same model on the same task (Harbor's ``n_attempts``)
    are rows of their own with ``trial`` 1, 2, ...: they carry the same evidence
    (events, checks) and have their own page. ``Attempt.objects`` sees trial 0
    only; ``Attempt.all_trials`` sees every row.
    """

    bench = models.ForeignKey(Bench, on_delete=models.CASCADE, related_name="attempts")
    model = models.ForeignKey(Model, on_delete=models.CASCADE, related_name="attempts")
    task = models.ForeignKey(Task, on_delete=models.CASCADE, related_name="attempts")
    has_detail = models.BooleanField(default=False)
    trial = models.IntegerField(default=0, help_text="0: the attempt; 1, 2, ...: further trials")

    score = models.FloatField(help_text="the site's score: recomputed where a verdict exists")
    published_score = models.FloatField(null=True, blank=True, help_text="summary.json score")
    matrix_score = models.FloatField(null=True, blank=True, help_text="matrix.json cell score")
    flags = models.JSONField(default=list, blank=True)
    matrix_flags = models.JSONField(null=True, blank=True)

    harness = models.CharField(max_length=sizes.HARNESS, blank=True)
    checks_total = models.IntegerField(null=True, blank=True)
    checks_passed = models.IntegerField(null=True, blank=True)
    checks_failed = models.IntegerField(null=True, blank=True)
    mandatory_failed = models.IntegerField(null=True, blank=True)
    cost_usd = models.FloatField(null=True, blank=True)
    input_tokens = models.BigIntegerField(null=True, blank=True)
    output_tokens = models.BigIntegerField(null=True, blank=True)
    cache_read_tokens = models.BigIntegerField(null=True, blank=True)
    cache_write_tokens = models.BigIntegerField(null=True, blank=True)
    started_at = models.CharField(max_length=64, blank=True)
    finished_at = models.CharField(max_length=64, blank=True)
    duration_s = models.FloatField(null=True, blank=True)

    # The documents as imported; the mirror gives them back unchanged. The
    # verdict is stored without its checks (they are CheckResult rows); None
    # means verdict.json was absent.
    summary = models.JSONField(null=True, blank=True)
    verdict = models.JSONField(null=True, blank=True)
    content_hash = models.CharField(max_length=80, blank=True)

    objects = MainAttemptManager()
    all_trials = AttemptQuerySet.as_manager()

    class Meta:
        # By column: through ``model`` and ``task`` it would join four tables
        # into every attempt query, grouped and counted ones included.
        ordering = ["bench_id", "model_id", "task_id", "trial"]
        constraints = [
            models.UniqueConstraint(
                fields=["model", "task", "trial"], name="attempt_unique_model_task_trial"
            ),
            models.CheckConstraint(condition=Q(trial__gte=0), name="attempt_trial_not_negative"),
            models.CheckConstraint(
                condition=Q(score__gte=0) & Q(score__lte=1), name="attempt_score_in_unit_range"
            ),
        ]
        indexes = [
            # Task pages and the matrix: every attempt of one task.
            models.Index(fields=["task", "model"], name="attempt_task_model"),
        ]

    def __str__(self) -> str:
        return f"{self.model.slug} on {self.task.slug}"

    @property
    def has_verdict(self) -> bool:
        return self.verdict is not None

    def summary_document(self) -> dict | None:
        """summary.json exactly as imported."""
        return jsonsafe.unpack(self.summary)

    def verdict_document(self, check_results=None) -> dict | None:
        """verdict.json as imported (its checks from the CheckResult rows), put
        together by the format's builder."""
        if self.verdict is None:
            return None
        rows = check_results if check_results is not None else self.check_results.all()
        return attempt_files.verdict_again(
            jsonsafe.unpack(self.verdict), [r.as_document() for r in rows]
        )

    @property
    def disagrees(self) -> bool:
        return self.published_score is not None and abs(self.published_score - self.score) > 1e-9


class CheckResult(models.Model):
    """One check of an attempt's verdict."""

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="check_results")
    position = models.IntegerField()
    name = models.CharField(max_length=sizes.CHECK_NAME)
    level = models.CharField(max_length=sizes.CHECK_LEVEL)
    mandatory = models.BooleanField()
    passed = models.BooleanField()
    detail = models.TextField(blank=True)
    # "<vendor>:<id>" names of the vendor requests this check is about.
    requests = models.JSONField(default=list, blank=True)
    # The check entry as imported, for the mirror.
    doc = models.JSONField(default=dict)

    class Meta:
        ordering = ["attempt_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "position"], name="checkresult_unique_position"
            ),
        ]
        indexes = [
            # Protocol analysis: failed checks of one level across a bench.
            models.Index(fields=["level", "passed"], name="checkresult_level_passed"),
        ]

    def __str__(self) -> str:
        return self.name

    def as_document(self) -> dict:
        """The verdict's check entry exactly as imported."""
        return jsonsafe.unpack(self.doc)


class Disagreement(models.Model):
    """A published figure that differs from the one recomputed from verdicts."""

    SOURCES = [
        ("summary.json", "summary.json"),
        ("matrix.json", "matrix.json"),
        ("leaderboard.json", "leaderboard.json"),
        ("result.json", "Harbor result.json"),  # a job's own stats.evals
    ]

    bench = models.ForeignKey(Bench, on_delete=models.CASCADE, related_name="disagreements")
    model = models.ForeignKey(Model, on_delete=models.CASCADE, related_name="disagreements")
    task = models.ForeignKey(
        Task, null=True, blank=True, on_delete=models.CASCADE, related_name="disagreements"
    )
    source = models.CharField(max_length=32, choices=SOURCES)
    field = models.CharField(max_length=64, default="score")
    published = models.FloatField()
    recomputed = models.FloatField()

    class Meta:
        # By column, not through its model and task (a join each per query);
        # pages that show disagreements order them by slug themselves.
        ordering = ["bench_id", "model_id", "task_id", "source", "field"]
        constraints = [
            models.UniqueConstraint(
                fields=["model", "task", "source", "field"],
                condition=Q(task__isnull=False),
                name="disagreement_unique_attempt_figure",
            ),
            models.UniqueConstraint(
                fields=["model", "source", "field"],
                condition=Q(task__isnull=True),
                name="disagreement_unique_model_figure",
            ),
        ]

    def __str__(self) -> str:
        where = f"{self.model.slug}/{self.task.slug}" if self.task_id else self.model.slug
        return f"{where} {self.source} {self.field}: {self.published} vs {self.recomputed}"
