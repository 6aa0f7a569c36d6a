"""The grader's verdict on an attempt, citing the vendor requests behind L2 checks."""

from __future__ import annotations

import random
from typing import Any

from formats.v1 import attempt_files as v1
from samplegen.plan import Attempt

_GRADER = v1.verdict_grader("ib-grader", "4.2.0")
_PASS_DETAIL = {
    "L1": "observed the expected outcome in the simulator state",
    "L2": "every request matched the vendor's protocol requirements",
    "L3": "static review found no issues",
}


def build_verdict(
    attempt: Attempt, vendor_logs: dict[str, list[dict[str, Any]]], rng: random.Random
) -> dict[str, Any]:
    assert attempt.outcomes is not None
    inbound = [
        (vendor, entry)
        for vendor, log in vendor_logs.items()
        for entry in log
        if entry["direction"] == "inbound"
    ]
    checks = []
    for outcome in attempt.outcomes:
        refs: list[tuple[str, dict[str, Any]]] = []
        if outcome.level == "L2" and inbound and rng.random() < 0.75:
            refs = rng.sample(inbound, min(len(inbound), rng.randint(1, 3)))
            refs.sort(key=lambda pair: (pair[0], pair[1]["id"]))
        if outcome.passed:
            detail = _PASS_DETAIL.get(outcome.level, "within budget")
        elif refs:
            vendor, first = refs[0]
            detail = (
                f"{first['method']} {first['path']} ({vendor}) returned {first['status']}"
                f" and was sent without the expected {outcome.name.split('-')[0]} handling"
            )
        elif outcome.level == "L1":
            detail = f"expected outcome '{outcome.name}' not observed after the run"
        else:
            detail = f"{outcome.name}: failed ({rng.choice(['2 findings', 'see grader log'])})"
        checks.append(
            v1.verdict_check(
                name=outcome.name,
                level=outcome.level,
                mandatory=outcome.mandatory,
                passed=outcome.passed,
                detail=detail,
                requests=[f"{vendor}:{e['id']}" for vendor, e in refs] if refs else None,
            )
        )
    return v1.verdict_document(
        model=attempt.model.id, task=attempt.task.id, grader=_GRADER, checks=checks
    )
