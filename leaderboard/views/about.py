"""/<bench>/about/: the bench's methodology in plain words, from its own data.

The scoring rule is explained with a real attempt of this bench where one
exists; the task states, flags, interval and batches are counted live.
"""

from __future__ import annotations

import inspect

from django.db.models import Count, Q, Sum
from django.shortcuts import render

from leaderboard import paired, queries
from leaderboard.models import Attempt, Batch, CheckResult, Task
from leaderboard.scoring import MISSING_ATTEMPT, MISSING_VERDICT, bootstrap_interval

# Rule name → (what it does, which attempts make a telling example).
RULES: dict[str, dict] = {
    "task-score-v4-mandatory-gated": {
        "summary": "A task's score is 0 when any mandatory check failed. Otherwise it is the "
        "share of the other (non-mandatory) checks that passed, and 1 when there are none. "
        "A model's score is the mean of its task scores over every public task.",
        # A failed mandatory check beside passing ones shows the gate at work.
        "example": Q(check_results__mandatory=True, check_results__passed=False),
    },
    "pass-fail": {
        "summary": "A task is passed (1) when every one of its checks passed, and failed (0) "
        "otherwise. A model's score is its pass rate: tasks passed over every public task.",
        "example": Q(check_results__passed=False),
    },
    "reward-threshold": {
        "summary": "A trial passes (1) when the reward its verifier wrote reaches the "
        "threshold, and fails (0) otherwise; a trial without a reward fails. The checks "
        "(tests) are shown for detail only. A model's score is its pass rate over its trials.",
        # The reward decides, not the checks: no check makes a telling example.
        "example": None,
    },
}

# The exceptions rule in force (leaderboard.scoring.EXCEPTIONS_RULES), in words.
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

_BOOTSTRAP = inspect.signature(bootstrap_interval).parameters


def _example(bench, user, rule: dict):
    """A visible attempt that the rule scores 0 although some checks passed."""
    attempt = (
        Attempt.objects.visible_to(user)
        .filter(bench=bench)
        .filter(rule["example"])
        .filter(pk__in=CheckResult.objects.filter(passed=True).values("attempt_id"))
        .select_related("model", "task")
        .order_by("model__rank", "model__slug", "task__slug", "pk")
        .first()
    )
    if attempt is None:
        return None
    return {"attempt": attempt, "checks": list(attempt.check_results.order_by("position", "pk"))}


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
            "example": _example(bench, request.user, rule) if rule and rule["example"] else None,
            "exceptions_text": EXCEPTIONS_RULES_TEXT.get(bench.exceptions_rule, ""),
            "job_disagreements": queries.job_disagreements(bench),
            "states": states,
            "batches": batches,
            "flagged": figures["flagged"] or 0,
            "model_count": figures["models"],
            "flag_names": (MISSING_VERDICT, MISSING_ATTEMPT),
            "resamples": _BOOTSTRAP["resamples"].default,
            "level": round(_BOOTSTRAP["level"].default * 100),
            "disagreements": bench.disagreements.count(),
            "percent": bench.is_pass_fail,
            "task_count": states["total"],
            "tie_resamples": paired.RESAMPLES,
            "tie_level": round(paired.LEVEL * 100),
        },
    )
