"""One attempt's folder: summary, verdict, trajectory, vendor log, patch, transcript."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from formats.v1 import SCHEMA
from formats.v1.scoring import count_checks
from samplegen.catalog import HARNESS_VERSION
from samplegen.clock import iso
from samplegen.draws import entity_rng
from samplegen.ids import rand_hex, rand_session_id
from samplegen.patches import build_patch
from samplegen.plan import Attempt
from samplegen.trajectory import Ctx, build_trajectory
from samplegen.transcripts import TRANSCRIBERS
from samplegen.vendors import build_vendor_log
from samplegen.verdicts import build_verdict
from samplegen.writer import dump_json, write_file

_EXPORTER = "ib-export 1.4.0"


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def write_attempt(
    root: Path, bench: str, scoring_rule: str, seed: int, attempt: Attempt
) -> tuple[int, int]:
    model, task = attempt.model, attempt.task
    arng = entity_rng(seed, "attempt", model.id, task.id)
    folder = root / "attempts" / model.id / task.id
    problem = task.ticket
    if attempt.problem_differs:
        problem += (
            "\n> Note from the harness: the sandbox has no network access beyond the "
            "vendor simulators (`*.sim.test`).\n"
        )
    session_id = rand_session_id(model.harness, attempt.start_ms, arng)
    # Vendor-less tasks still get a word for the text templates to name.
    ctx = Ctx(attempt, arng, problem, task.vendors[0] if task.vendors else "billing", session_id)
    events, end_ms = build_trajectory(ctx)
    duration_s = float(-(-(end_ms - attempt.start_ms) // 1000) + arng.randint(2, 40))
    finished_ms = attempt.start_ms + int(duration_s * 1000)

    vendor_logs: dict[str, list[dict[str, Any]]] = {}
    token = rand_hex(arng, 10)
    for vendor in task.vendors:
        vendor_logs[vendor] = build_vendor_log(vendor, attempt.start_ms, finished_ms, arng, token)

    n_events = len(events)
    price_in, price_out, price_cache = model.prices
    # Long runs are mostly quick tool loops, so they use less context per event.
    per_event = 0.3 if attempt.long else 1.0
    input_tokens = int(n_events * arng.randint(400, 2500) * per_event)
    output_tokens = int(n_events * arng.randint(60, 260) * per_event)
    cost: dict[str, Any] = {
        "usd": 0.0,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
    }
    cache_read = cache_write = 0
    if model.harness != "opencode" or arng.random() < 0.4:
        cache_read = int(input_tokens * arng.uniform(2.0, 6.0))
        cost["cache_read_tokens"] = cache_read
        if model.harness == "claude-code":
            cache_write = int(input_tokens * arng.uniform(0.2, 0.8))
            cost["cache_write_tokens"] = cache_write
    # Cache writes bill at 1.25x input, as Anthropic prices them.
    usd = (
        input_tokens * price_in
        + output_tokens * price_out
        + cache_read * price_cache
        + cache_write * price_in * 1.25
    ) / 1e6
    cost["usd"] = round(usd, 4)
    attempt.cost_usd = cost["usd"]
    attempt.duration_s = duration_s

    patch = None if attempt.no_patch else build_patch(task, arng).encode("utf-8")
    hashes = {
        "task_tree": _sha256(f"{bench}/{task.id}/{task.ticket}".encode()),
        "harness_tree": _sha256(HARNESS_VERSION[model.harness].encode()),
    }
    if patch is not None:
        hashes["patch"] = _sha256(patch)
    counts = count_checks(attempt.outcomes or [])
    summary = {
        "schema": SCHEMA,
        "bench": bench,
        "model": model.id,
        "task": task.id,
        "harness": model.harness,
        "score": attempt.score,
        "scoring_rule": scoring_rule,
        "checks": {
            "total": counts.total,
            "passed": counts.passed,
            "failed": counts.failed,
            "mandatory_failed": counts.mandatory_failed,
        },
        "flags": list(attempt.flags),
        "cost": cost,
        "timing": {
            "started_at": iso(attempt.start_ms, millis=False),
            "finished_at": iso(finished_ms, millis=False),
            "duration_s": duration_s,
        },
        "hashes": hashes,
        "provenance": {
            "harness_version": HARNESS_VERSION[model.harness],
            "model_version": model.model_version,
            "run_id": f"run_{rand_hex(arng, 8)}",
            "exporter": _EXPORTER,
        },
    }

    folder.mkdir(parents=True, exist_ok=True)
    write_file(folder / "summary.json", dump_json(summary))
    if attempt.outcomes is not None:
        write_file(folder / "verdict.json", dump_json(build_verdict(attempt, vendor_logs, arng)))
    write_file(
        folder / "trajectory.json",
        dump_json(
            {"schema": SCHEMA, "harness": model.harness, "model": model.id, "events": events}
        ),
    )
    if vendor_logs:
        write_file(
            folder / "vendor-requests.json", dump_json({"schema": SCHEMA, "vendors": vendor_logs})
        )
    if patch is not None:
        write_file(folder / "patch.diff", patch)
    transcript = TRANSCRIBERS[model.harness](events, ctx, summary)
    write_file(folder / "transcript.jsonl", transcript.encode("utf-8"))
    write_file(folder / "problem.md", problem.encode("utf-8"))
    return n_events, sum(len(log) for log in vendor_logs.values())
