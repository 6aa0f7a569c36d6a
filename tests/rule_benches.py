"""One small bench per scoring rule, for the pages whose words depend on the rule.

``BUILDERS`` has a key for every rule in ``formats.v1.scoring.SCORING_RULES``
(the About tests check so): a rule added without a bench here fails them."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from django.core.management import call_command

from leaderboard.models import Bench
from samplegen.harbor import write_sample_harbor
from samplegen.release import generate_release
from tests.factories import SMALL, import_path


def _release(rule: str) -> Callable[[Path], Bench]:
    def build(root: Path) -> Bench:
        generate_release(root / "release", **SMALL, scoring_rule=rule)
        return import_path(root / "release").bench

    return build


def _harbor(root: Path) -> Bench:
    jobs = root / "jobs"
    write_sample_harbor(jobs, tasks=8, passes=(4, 2), extra_trials=False)
    call_command(
        "import_harbor",
        str(jobs),
        bench="interaction-bench",
        models=str(jobs / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return Bench.objects.get(slug="interaction-bench")


BUILDERS: dict[str, Callable[[Path], Bench]] = {
    "task-score-v4-mandatory-gated": _release("task-score-v4-mandatory-gated"),
    "pass-fail": _release("pass-fail"),
    "reward-threshold": _harbor,
}

# What each rule's About page must say in its own words, and what belongs to
# another rule and must not be said of it.
OWN_WORDS: dict[str, tuple[str, ...]] = {
    "task-score-v4-mandatory-gated": (
        "any mandatory check failed",
        "from the checks in its verdict.json",
        "A mandatory check failed, so the task scores 0 although other checks passed.",
        "With one trial per task this is simply the mean task score",
    ),
    "pass-fail": (
        "every one of its checks passed",
        "from the checks in its verdict.json",
        "One failed check is enough to fail the task",
        "With one trial per task this is simply tasks passed over tasks",
    ),
    "reward-threshold": (
        "the verifier's reward is at least the bench's threshold",
        "how a trial that raised an exception counts is the bench's exceptions rule",
        "for detail only: the reward decides",
        "of the share of its trials on the task that passed",
        "from the verifier's reward and the threshold in its verdict.json",
        "is below the threshold, 1.0, so the trial fails although",
        "With one trial per task this is simply tasks passed over tasks",
    ),
}
NOT_WORDS: dict[str, tuple[str, ...]] = {
    "task-score-v4-mandatory-gated": ("does not know the rule", "reward", "One failed check"),
    "pass-fail": ("does not know the rule", "reward", "mandatory"),
    "reward-threshold": (
        "does not know the rule",
        "checks in its verdict.json",
        "mandatory",
        # Trials are not pooled: every task weighs the same however often it ran.
        "passed trials over every trial",
    ),
}
