"""One attempt's folder: summary, verdict, trajectory, vendor log, patch, transcript."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from formats.v1 import attempt_files as v1
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
    # None: the harness reports no such figure (opencode often none, only
    # claude-code cache writes).
    cache_read: int | None = None
    cache_write: int | None = None
    if model.harness != "opencode" or arng.random() < 0.4:
        cache_read = int(input_tokens * arng.uniform(2.0, 6.0))
        if model.harness == "claude-code":
            cache_write = int(input_tokens * arng.uniform(0.2, 0.8))
    # Cache writes bill at 1.25x input, as Anthropic prices them.
    usd = (
        input_tokens * price_in
        + output_tokens * price_out
        + (cache_read or 0) * price_cache
        + (cache_write or 0) * price_in * 1.25
    ) / 1e6
    cost = v1.summary_cost(
        usd=round(usd, 4),
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
    )
    attempt.cost_usd = cost["usd"]
    attempt.duration_s = duration_s

    patch = None if attempt.no_patch else build_patch(task, arng).encode("utf-8")
    counts = count_checks(attempt.outcomes or [])
    summary = v1.summary_document(
        bench=bench,
        model=model.id,
        task=task.id,
        harness=model.harness,
        score=attempt.score,
        scoring_rule=scoring_rule,
        checks=v1.summary_checks(
            total=counts.total, passed=counts.passed, mandatory_failed=counts.mandatory_failed
        ),
        flags=attempt.flags,
        cost=cost,
        timing=v1.summary_timing(
            started_at=iso(attempt.start_ms, millis=False),
            finished_at=iso(finished_ms, millis=False),
            duration_s=duration_s,
        ),
        hashes=v1.summary_hashes(
            task_tree=v1.sha256_ref(f"{bench}/{task.id}/{task.ticket}".encode()),
            harness_tree=v1.sha256_ref(HARNESS_VERSION[model.harness].encode()),
            patch=v1.sha256_ref(patch) if patch is not None else None,
        ),
        provenance=v1.summary_provenance(
            harness_version=HARNESS_VERSION[model.harness],
            model_version=model.model_version,
            run_id=f"run_{rand_hex(arng, 8)}",
            exporter=_EXPORTER,
        ),
    )
    # Drawn in this order (the verdict, then the transcript), as they always were.
    verdict = build_verdict(attempt, vendor_logs, arng) if attempt.outcomes is not None else None
    transcript = TRANSCRIBERS[model.harness](events, ctx, summary)
    files = v1.folder_files(
        dump_json,
        summary=summary,
        verdict=verdict,
        trajectory=v1.trajectory_document(harness=model.harness, model=model.id, events=events),
        vendor_requests=v1.vendor_requests_document(vendors=vendor_logs) if vendor_logs else None,
        patch=patch,
        transcript=transcript,
        problem=problem,
    )
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        write_file(folder / name, data)
    return n_events, sum(len(log) for log in vendor_logs.values())
