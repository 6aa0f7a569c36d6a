"""Per-attempt checks: one attempt folder read, hashed, validated and scrubbed.

What the exporter should have scrubbed is a problem, or with ``plan.scrub`` is
rewritten (see formats.scrub). A valid folder becomes a ``CheckedAttempt``.
"""

from __future__ import annotations

from typing import Any

from formats.reader import ReleaseSource
from formats.v1 import event_schema, schema
from formats.v1.jsondoc import JSONProblem
from formats.v1.scoring import CheckOutcome, score_verdict
from ingest.reading.plan.checker import Checker
from ingest.reading.plan.types import AttemptDocs, AttemptPlan, CheckedAttempt, sha256_hex
from ingest.reading.transcripts import TranscriptReading, read_transcript, utf8_error_at
from trajectories.documents import ATTEMPT_FILES


def check_attempt(
    check: Checker,
    manifest: schema.ManifestDoc,
    model_id: str,
    task_id: str,
    existing: dict[tuple[str, str, int], str],
    trial: int = 0,
    known: dict[tuple[str, str, int], dict] | None = None,
) -> CheckedAttempt | None:
    """Check one attempt folder against the manifest; None when it has a problem.

    ``existing`` holds the content hashes of the attempts already in the
    database, which say whether this one is new, changed or unchanged.
    ``known`` (diff.known_attempts) holds what was found in them when they were
    imported: an attempt found there with the same files is not decoded and
    checked again (its files are the bytes that passed the checks then) unless
    scrubbing could find something in it; it comes with ``docs`` None. Those
    are the bench's own attempts (so: unchanged ones), or those a chunked
    import already wrote into its pending bench.
    """
    folder = f"attempts/{model_id}/{task_id}/" + (f"trials/{trial}/" if trial else "")
    before = len(check.plan.problems)
    files = read_attempt(check.source, folder)
    for filename, spec in ATTEMPT_FILES.items():
        if spec.required and filename not in files:
            check.problem(folder + filename, "", "required file is missing")
    content_hash = attempt_hash(files)
    old_hash = existing.get((model_id, task_id, trial))
    attempt = AttemptPlan(
        model=model_id,
        task=task_id,
        trial=trial,
        status="new"
        if old_hash is None
        else "unchanged"
        if old_hash == content_hash
        else "changed",
        content_hash=content_hash,
    )
    found = (known or {}).get((model_id, task_id, trial))
    same = found is not None and found["content_hash"] == content_hash
    if same and not _scrub_may_find(check, files):
        for name, value in found.items():
            setattr(attempt, name, value)
        return CheckedAttempt(attempt, None)
    docs = validate_attempt_files(check, folder, files, manifest, model_id, task_id)
    if docs is None or len(check.plan.problems) != before:
        return None
    attempt.events = len(docs.trajectory["events"])
    attempt.requests = sum(len(v) for v in (docs.vendor_log or {}).get("vendors", {}).values())
    attempt.published_score = docs.summary["score"]
    attempt.recomputed_score = score_verdict(
        manifest.scoring_rule,
        verdict_outcomes(docs.verdict),
        docs.verdict,
        manifest.exceptions_rule or "",
    )
    reading = docs.transcript
    if reading is not None:
        attempt.transcript_status, attempt.transcript_format = reading.status, reading.format
        attempt.transcript_note = reading.note
        attempt.first_difference = reading.first_difference
        attempt.differences = reading.differences
        attempt.differences_total = reading.differences_total
        attempt.unmapped_total = reading.unmapped_total
    return CheckedAttempt(attempt, docs)


def read_attempt(source: ReleaseSource, folder: str) -> dict[str, bytes]:
    """The files of one attempt folder that the format knows, by file name."""
    return {f: source.read(folder + f) for f in ATTEMPT_FILES if source.exists(folder + f)}


def attempt_hash(files: dict[str, bytes]) -> str:
    digests = [f"{name}:{sha256_hex(files[name])}" for name in ATTEMPT_FILES if name in files]
    return "sha256:" + sha256_hex("\n".join(digests).encode())


def validate_attempt_files(
    check: Checker,
    folder: str,
    files: dict[str, bytes],
    manifest: schema.ManifestDoc,
    model_id: str,
    task_id: str,
) -> AttemptDocs | None:
    """Validate one attempt folder; its documents (scrubbed if asked), or None on problems."""
    before = len(check.plan.problems)
    loaded = _decode(check, folder, files)
    rewrite = _scrub_attempt(check, folder, files, loaded)
    summary = _check_summary(check, folder, loaded, manifest, model_id, task_id)
    verdict = None
    if "verdict.json" in loaded:
        verdict = check.validate(folder + "verdict.json", schema.VerdictDoc, loaded["verdict.json"])
    if "trajectory.json" in loaded:
        validate_trajectory(check, folder + "trajectory.json", loaded["trajectory.json"])
    refs = _check_vendor_log(check, folder, loaded)
    if verdict is not None:
        for i, c in enumerate(verdict.checks):
            for j, ref in enumerate(c.requests or []):
                if ref not in refs:
                    check.problem(
                        folder + "verdict.json",
                        f"checks[{i}].requests[{j}]",
                        f"{ref!r} is not in vendor-requests.json",
                    )
    if len(check.plan.problems) != before or summary is None or "transcript.jsonl" not in files:
        return None
    if rewrite:
        files = _rewrite(check, files, loaded)
    published = loaded.get("trajectory.json")
    reading = read_transcript(
        files["transcript.jsonl"], published["events"] if published is not None else None
    )
    if published is None and not _derived_events_valid(check, folder, reading):
        return None
    return AttemptDocs(
        summary=loaded["summary.json"],
        verdict=loaded.get("verdict.json"),
        trajectory=published if published is not None else {"events": reading.events},
        vendor_log=loaded.get("vendor-requests.json"),
        texts={name: data for name, data in files.items() if not name.endswith(".json")},
        transcript=reading,
        events_from=reading.format if published is None else "",
    )


def _decode(check: Checker, folder: str, files: dict[str, bytes]) -> dict[str, Any]:
    """The JSON files decoded; every file that cannot be decoded is a problem."""
    loaded = {}
    for filename, data in files.items():
        if filename.endswith(".json"):
            try:
                loaded[filename] = schema.parse_json(data)
            except JSONProblem as exc:
                check.problem(folder + filename, exc.path, str(exc))
        elif filename != "transcript.jsonl":
            # A transcript is kept verbatim even when not UTF-8: its bad bytes
            # are a finding (ingest.reading.transcripts), not a refusal.
            at = utf8_error_at(data)
            if at is not None:
                check.problem(folder + filename, "", f"not UTF-8 (byte {at})")
    return loaded


def _check_summary(
    check: Checker, folder: str, loaded: dict, manifest, model_id: str, task_id: str
) -> schema.SummaryDoc | None:
    """summary.json is valid and names this attempt's model, task and bench."""
    if "summary.json" not in loaded:
        return None
    name = folder + "summary.json"
    summary = check.validate(name, schema.SummaryDoc, loaded["summary.json"])
    if summary is not None:
        for key, expected in (("model", model_id), ("task", task_id), ("bench", manifest.bench)):
            if getattr(summary, key) != expected:
                check.problem(name, key, f"expected {expected!r}, got {getattr(summary, key)!r}")
    return summary


def _check_vendor_log(check: Checker, folder: str, loaded: dict) -> set[str]:
    """vendor-requests.json is valid with no request id repeated; the "<vendor>:<id>" it holds."""
    refs: set[str] = set()
    name = folder + "vendor-requests.json"
    if "vendor-requests.json" not in loaded:
        return refs
    log = check.validate(name, schema.VendorLogDoc, loaded["vendor-requests.json"])
    if log is not None:
        for vendor, entries in log.vendors.items():
            for i, entry in enumerate(entries):
                ref = f"{vendor}:{entry.id}"
                if ref in refs:
                    check.problem(name, f"vendors.{vendor}[{i}].id", f"{entry.id!r} is repeated")
                refs.add(ref)
    return refs


def validate_trajectory(check: Checker, name: str, raw: Any) -> None:
    if check.validate(name, schema.TrajectoryHeadDoc, raw) is None:
        return
    for path, message in event_schema.check_events(raw["events"]):
        check.problem(name, path, message)


def _derived_events_valid(check: Checker, folder: str, reading: TranscriptReading) -> bool:
    """Without trajectory.json the events must come from the transcript, and be valid."""
    if reading.events is None:
        check.problem(
            folder + "trajectory.json",
            "",
            "missing, and transcript.jsonl cannot stand in for it: "
            + (reading.note or "no events"),
        )
        return False
    problems = event_schema.check_events(reading.events)
    for path, message in problems:
        check.problem(
            folder + "transcript.jsonl", path, f"normalised ({reading.format}): {message}"
        )
    return not problems


def _scrub_may_find(check: Checker, files: dict[str, bytes]) -> bool:
    """Whether scrubbing could find anything in these files (the fast tests only)."""
    scrubber = check.scrubber
    if any(scrubber.might_find(data) for data in files.values()):
        return True
    log = files.get("vendor-requests.json")
    return log is not None and scrubber.might_name_dropped_header(log)


def _scrub_attempt(check: Checker, folder: str, files: dict, loaded: dict) -> bool:
    """Look for what should have been scrubbed; True when the docs need rewriting."""
    found = False
    scrubber = check.scrubber
    for filename, data in files.items():
        if not scrubber.might_match(data):
            continue
        if filename in loaded:
            findings = scrubber.json_findings(loaded[filename])
        elif filename.endswith(".json"):
            continue  # malformed: already a problem
        else:
            findings = scrubber.text_findings(data.decode("utf-8", errors="replace"))
        found |= check.scrub_findings(folder + filename, findings)
    if "vendor-requests.json" in loaded:
        findings = scrubber.header_findings(loaded["vendor-requests.json"])
        found |= check.scrub_findings(folder + "vendor-requests.json", findings)
    return found and check.plan.scrub


def _rewrite(check: Checker, files: dict[str, bytes], loaded: dict) -> dict[str, bytes]:
    """Scrub the decoded documents in place and return the text files scrubbed."""
    scrubber = check.scrubber
    for filename in list(loaded):
        if filename == "vendor-requests.json":
            loaded[filename] = scrubber.rewrite_vendor_log(loaded[filename])
        else:
            loaded[filename] = scrubber.rewrite_json(loaded[filename])
    return {
        name: scrubber.rewrite_text(data.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape"
        )
        if name not in loaded
        else data
        for name, data in files.items()
    }


def verdict_outcomes(verdict: dict | None) -> list[CheckOutcome] | None:
    """The checks of a validated verdict document, as the scoring rules take them."""
    if verdict is None:
        return None
    return [
        CheckOutcome(name=c["name"], mandatory=c["mandatory"], passed=c["passed"], level=c["level"])
        for c in verdict["checks"]
    ]
