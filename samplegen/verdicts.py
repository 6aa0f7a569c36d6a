"""The grader's verdict on an attempt, citing the vendor requests behind L2 checks."""

from __future__ import annotations

import random
from typing import Any

from formats.v1 import SCHEMA
from samplegen.plan import Attempt

_GRADER = {"name": "ib-grader", "version": "4.2.0"}
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
        entry: dict[str, Any] = {
            "name": outcome.name,
            "level": outcome.level,
            "mandatory": outcome.mandatory,
            "passed": outcome.passed,
        }
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
        entry["detail"] = detail
        if refs:
            entry["requests"] = [f"{vendor}:{e['id']}" for vendor, e in refs]
        checks.append(entry)
    return {
        "schema": SCHEMA,
        "model": attempt.model.id,
        "task": attempt.task.id,
        "grader": dict(_GRADER),
        "checks": checks,
    }
