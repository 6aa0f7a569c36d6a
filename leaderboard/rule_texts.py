"""What the About page says of each scoring rule, and the attempt it shows as
an example.

Every rule of ``scoring.SCORING_RULES`` has its words here (a test holds the
two registries together), so a bench's About page never claims not to know
the rule the site scores it with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q

from core.formatting import plural
from formats.v1.scoring import DEFAULT_REWARD_THRESHOLD
from leaderboard.models import Attempt, CheckResult


@dataclass(frozen=True)
class RuleText:
    # What the rule does, from a check (or reward) to a model's score.
    summary: str
    # What of verdict.json the site recomputes a score from.
    reads: str
    # The attempts that make a telling example: scored 0 although some checks passed.
    example: Q
    # Why the example scores what it does, in one sentence.
    explain: Callable[[Attempt, list[CheckResult]], str]
    # Whether a check's "mandatory" matters to the rule (the example's table says it).
    mandatory_matters: bool = False


def _gated(attempt: Attempt, checks: list[CheckResult]) -> str:
    return "A mandatory check failed, so the task scores 0 although other checks passed."


def _all_pass(attempt: Attempt, checks: list[CheckResult]) -> str:
    return "One failed check is enough to fail the task, whatever else passed."


def _reward(attempt: Attempt, checks: list[CheckResult]) -> str:
    verdict = attempt.verdict or {}
    passed = sum(1 for c in checks if c.passed)
    if verdict.get("exception") and attempt.bench.exceptions_rule == "fail":
        return (
            "The trial raised an exception, so under the bench's fail rule it fails whatever "
            f"its reward, although {passed} of its {plural(len(checks), 'test')} passed."
        )
    reward = verdict.get("reward")
    threshold = verdict.get("threshold", DEFAULT_REWARD_THRESHOLD)
    if reward is None:
        return "The verifier gave no reward, so the trial fails whatever its tests said."
    return (
        f"The verifier's reward, {reward}, is below the threshold, {threshold}, so the "
        f"trial fails although {passed} of its {plural(len(checks), 'test')} passed."
    )


RULES: dict[str, RuleText] = {
    "task-score-v4-mandatory-gated": RuleText(
        summary="A task's score is 0 when any mandatory check failed. Otherwise it is the "
        "share of the other (non-mandatory) checks that passed, and 1 when there are none. "
        "A model's score is the mean of its task scores over every public task.",
        reads="the checks in its verdict.json",
        # A failed mandatory check beside passing ones shows the gate at work.
        example=Q(check_results__mandatory=True, check_results__passed=False),
        explain=_gated,
        mandatory_matters=True,
    ),
    "pass-fail": RuleText(
        summary="A task is passed (1) when every one of its checks passed, and failed (0) "
        "otherwise. A model's score is its pass rate: tasks passed over every public task.",
        reads="the checks in its verdict.json",
        example=Q(check_results__passed=False),
        explain=_all_pass,
    ),
    "reward-threshold": RuleText(
        summary="A trial is passed (1) when the verifier's reward is at least the bench's "
        "threshold, and failed (0) otherwise (no reward fails); how a trial that raised an "
        "exception counts is the bench's exceptions rule (below). The tests "
        "the verifier ran are shown as checks, for detail only: the reward decides. A model's "
        "score is its pass rate: the mean, over every public task, of the share of its trials "
        "on the task that passed (a task without a trial counts 0).",
        reads="the verifier's reward and the threshold in its verdict.json",
        example=Q(score=0),
        explain=_reward,
    ),
}


def example(bench, user, rule: RuleText) -> dict | None:
    """A visible attempt that the rule scores 0 although some checks passed, with
    its checks and the sentence saying why."""
    attempt = (
        Attempt.objects.visible_to(user)
        # A first trial: the example links to the attempt's own page.
        .filter(bench=bench, trial=0)
        .filter(rule.example)
        .filter(pk__in=CheckResult.objects.filter(passed=True).values("attempt_id"))
        .select_related("model", "task")
        .order_by("model__rank", "model__slug", "task__slug", "pk")
        .first()
    )
    if attempt is None:
        return None
    checks = list(attempt.check_results.order_by("position", "pk"))
    return {"attempt": attempt, "checks": checks, "why": rule.explain(attempt, checks)}
