"""/<bench>/about/: the bench's methodology in plain words, from its own data.

The scoring rule is explained in its own words (``leaderboard.rule_texts``)
with a real attempt of this bench where one exists; the task states, flags,
interval and batches are counted live.
"""

from __future__ import annotations

from django.db.models import Count, Q, Sum
from django.shortcuts import render

from formats.v1.scoring import MISSING_ATTEMPT, MISSING_VERDICT
from leaderboard import paired, queries
from leaderboard.models import Batch, Task
from leaderboard.rule_texts import RULES, example

# The exceptions rule in force (formats.v1.scoring.EXCEPTIONS_RULES), in words.
EXCEPTIONS_RULES_TEXT = {
    "harbor": "Harbor's own rule: a trial whose run raised an exception (a timeout, a "
    "non-zero exit, a rate limit) still had its verifier run, and its reward decides, as "
    "the job's result.json counts it. The exception stays a flag on the attempt.",
    "fail": "Any trial whose run raised an exception fails, whatever reward its verifier gave.",
    "terminal-bench": "Terminal-Bench's rule: a trial that raised anything but "
    "AgentTimeoutError or VerifierTimeoutError is left out of the figures; the others count "
    "their reward (a missing one as 0). A task all of whose trials are left out is left out "
    "of that model's mean, and its row says how many tasks it covers.",
}


def about(request, bench: str):
    bench = queries.bench_or_404(bench)
    rule = RULES.get(bench.scoring_rule)
    states = Task.objects.filter(bench=bench).aggregate(
        total=Count("pk"),
        unreleased=Count("pk", filter=Q(batch__isnull=True)),
        staged=Count("pk", filter=Q(batch__live=False)),
        released=Count("pk", filter=Q(batch__live=True)),
    )
    batches = list(
        Batch.objects.filter(bench=bench)
        .annotate(task_count=Count("tasks"))
        .order_by("number", "pk")
    )
    figures = bench.models.aggregate(models=Count("pk"), flagged=Sum("flagged"))
    return render(
        request,
        "leaderboard/about.html",
        {
            "bench": bench,
            "section": "about",
            "rule": rule,
            "example": example(bench, request.user, rule) if rule else None,
            "exceptions_text": EXCEPTIONS_RULES_TEXT.get(bench.exceptions_rule, ""),
            "job_disagreements": queries.job_disagreements(bench),
            "states": states,
            "batches": batches,
            "flagged": figures["flagged"] or 0,
            "model_count": figures["models"],
            "flag_names": (MISSING_VERDICT, MISSING_ATTEMPT),
            "resamples": paired.RESAMPLES,
            "level": round(paired.LEVEL * 100),
            "disagreements": bench.disagreements.count(),
            "percent": bench.is_pass_fail,
            "task_count": states["total"],
        },
    )
