"""Build an import plan: validate a release and work out what it would change.

Nothing here writes. The plan keeps the small derived documents (manifest,
leaderboard, matrix, models/, tasks/) and, per attempt, only hashes and
counts: attempt files are read again, one attempt at a time, when the plan is
applied.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import ValidationError

from ingest import event_schema, schema
from ingest.jsondoc import JSONProblem
from ingest.progress import Phase, Progress, ProgressCallback
from ingest.reader import ReleaseSource
from ingest.schema_base import errors_of
from ingest.scrub import Scrubber
from ingest.transcripts import TranscriptReading, read_transcript
from leaderboard.models import Attempt, Bench, Model, Task
from leaderboard.scoring import CheckOutcome, differs, score_verdict
from trajectories.documents import ATTEMPT_FILES

TOP_FILES = ("manifest.json", "leaderboard.json", "matrix.json")


@dataclass(frozen=True)
class Problem:
    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.file}: {self.path}: {self.message}"
            if self.path
            else f"{self.file}: {self.message}"
        )


@dataclass
class AttemptPlan:
    model: str
    task: str
    status: str  # "new", "changed" or "unchanged"
    content_hash: str = ""
    trial: int = 0  # 0: the attempt folder; n: its trials/<n>/ folder (docs/harbor.md)
    events: int = 0
    requests: int = 0
    published_score: float | None = None
    recomputed_score: float | None = None
    # What the transcript check found (ingest.transcripts), small parts only.
    transcript_status: str = ""
    transcript_format: str = ""
    transcript_note: str = ""
    first_difference: int | None = None
    differences: list[dict] = field(default_factory=list)
    differences_total: int = 0
    unmapped_total: int = 0

    @property
    def label(self) -> str:
        """``model/task``, or ``model/task/trials/n`` for a further trial."""
        base = f"{self.model}/{self.task}"
        return f"{base}/trials/{self.trial}" if self.trial else base

    @property
    def transcript_finding(self) -> bool:
        """The transcript disagrees with trajectory.json, or could not be read."""
        return self.transcript_status in ("differs", "unrecognised")

    @property
    def folder(self) -> str:
        return f"attempts/{self.model}/{self.task}/"


@dataclass
class AttemptDocs:
    """One valid attempt folder, decoded: what the writer needs, read once."""

    summary: dict
    verdict: dict | None
    trajectory: dict
    vendor_log: dict | None
    texts: dict[str, bytes]  # patch.diff, transcript.jsonl, problem.md
    # The transcript as the normalisers read it; events_from names its format
    # when the events came from it (no trajectory.json).
    transcript: TranscriptReading | None = None
    events_from: str = ""


@dataclass
class Changes:
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def add(self, status: str, name: str) -> None:
        getattr(self, status).append(name)

    def as_dict(self) -> dict[str, list[str]]:
        return {
            "new": self.new,
            "changed": self.changed,
            "unchanged": self.unchanged,
            "removed": self.removed,
        }


@dataclass
class ImportPlan:
    source_name: str
    source_sha256: str
    problems: list[Problem] = field(default_factory=list)
    bench: str = ""
    title: str = ""
    revision: str = ""
    scoring_rule: str = ""
    manifest: Any = None
    leaderboard: Any = None
    matrix: Any = None
    model_docs: dict[str, Any] = field(default_factory=dict)
    task_docs: dict[str, Any] = field(default_factory=dict)
    model_hashes: dict[str, str] = field(default_factory=dict)
    task_hashes: dict[str, str] = field(default_factory=dict)
    attempts: list[AttemptPlan] = field(default_factory=list)
    models: Changes = field(default_factory=Changes)
    tasks: Changes = field(default_factory=Changes)
    batches: Changes = field(default_factory=Changes)
    attempt_changes: Changes = field(default_factory=Changes)
    bench_status: str = "new"
    # With scrub=True: what was rewritten instead of refused ("file: finding").
    scrubbed: list[str] = field(default_factory=list)
    scrub: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def events(self) -> int:
        return sum(a.events for a in self.attempts)

    @property
    def requests(self) -> int:
        return sum(a.requests for a in self.attempts)

    @property
    def released_tasks(self) -> list[str]:
        if not self.manifest:
            return []
        return [t for b in self.manifest.batches for t in b.tasks]

    @property
    def disagreements(self) -> list[AttemptPlan]:
        return [
            a
            for a in self.attempts
            if a.published_score is not None and differs(a.published_score, a.recomputed_score)
        ]

    @property
    def transcript_findings(self) -> list[AttemptPlan]:
        """Attempts whose transcript disagrees with their trajectory.json or was unreadable."""
        return [a for a in self.attempts if a.transcript_finding]

    @property
    def is_noop(self) -> bool:
        groups = (self.models, self.tasks, self.batches, self.attempt_changes)
        return self.bench_status == "unchanged" and not any(
            g.new or g.changed or g.removed for g in groups
        )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Checker:
    """Collects problems while reading documents from a source."""

    def __init__(self, source: ReleaseSource, plan: ImportPlan):
        self.source = source
        self.plan = plan
        self.scrubber = Scrubber()

    def scrub_findings(self, name: str, findings) -> bool:
        """Record what should have been scrubbed; True when something was found."""
        found = False
        for finding in findings:
            found = True
            if self.plan.scrub:
                self.plan.scrubbed.append(f"{name}: {finding.message()}")
            else:
                self.problem(name, finding.where, f"not scrubbed: {finding.message()}")
        return found

    def problem(self, file: str, path: str, message: str) -> None:
        self.plan.problems.append(Problem(file, path, message))

    def load(self, name: str) -> tuple[Any, bytes] | None:
        """Read and decode one JSON file, or record why it cannot be."""
        if not self.source.exists(name):
            self.problem(name, "", "required file is missing")
            return None
        data = self.source.read(name)
        try:
            return schema.parse_json(data), data
        except JSONProblem as exc:
            self.problem(name, exc.path, str(exc))
            return None

    def validate(self, name: str, model: type[schema.Doc], raw: Any, prefix=()) -> Any:
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for path, message in errors_of(exc, prefix):
                self.problem(name, path, message)
            return None


class PlanSink(Protocol):
    """Receives a release while it is checked, to write it in the same pass.

    ``begin`` is called once the small documents are valid, ``attempt`` for
    each valid attempt while no problem has been found, ``finish`` at the end
    if the release had no problem. The caller runs all of it in one
    transaction and rolls back if the plan ends with problems.
    """

    def begin(self, plan: ImportPlan, folders: list[tuple[str, str, int]]) -> None: ...

    def attempt(self, plan: ImportPlan, attempt: AttemptPlan, docs: AttemptDocs) -> None: ...

    def finish(self, plan: ImportPlan) -> None: ...


def build_plan(
    source: ReleaseSource,
    *,
    progress: ProgressCallback | None = None,
    sink: PlanSink | None = None,
    scrub: bool = False,
) -> ImportPlan:
    """Validate every document of ``source`` and compare it with the database.

    With a ``sink``, valid parts are handed over as they are checked (see
    PlanSink); without one, nothing is written. What the exporter should have
    scrubbed is a problem, or with ``scrub`` is rewritten (see ingest.scrub).
    """
    plan = ImportPlan(source_name=source.name, source_sha256=source.sha256, scrub=scrub)
    check = _Checker(source, plan)
    if progress:
        progress(Progress(Phase.READING))
    docs = {}
    for name, model in (
        ("manifest.json", schema.ManifestDoc),
        ("leaderboard.json", schema.LeaderboardDoc),
        ("matrix.json", schema.MatrixDoc),
    ):
        loaded = check.load(name)
        docs[name] = check.validate(name, model, loaded[0]) if loaded else None
    manifest = docs["manifest.json"]
    plan.manifest, plan.leaderboard, plan.matrix = (
        manifest,
        docs["leaderboard.json"],
        docs["matrix.json"],
    )
    if manifest is None:
        return plan
    plan.bench, plan.title, plan.revision = manifest.bench, manifest.title, manifest.revision
    plan.scoring_rule = manifest.scoring_rule
    _check_manifest(check, manifest)
    _check_derived(check, plan)
    released = set(plan.released_tasks)

    for model_id in manifest.models:
        name = f"models/{model_id}.json"
        loaded = check.load(name)
        doc = check.validate(name, schema.ModelFileDoc, loaded[0]) if loaded else None
        if doc is not None:
            if doc.model.id != model_id:
                check.problem(name, "model.id", f"expected {model_id!r}, got {doc.model.id!r}")
            plan.model_docs[model_id] = doc
            plan.model_hashes[model_id] = sha256_hex(loaded[1])
    for task_id in manifest.tasks:
        name = f"tasks/{task_id}.json"
        if task_id not in released:
            if source.exists(name):
                check.problem(name, "", f"task {task_id!r} is in no batch, so it has no task file")
            continue
        loaded = check.load(name)
        doc = check.validate(name, schema.TaskFileDoc, loaded[0]) if loaded else None
        if doc is not None:
            if doc.task.id != task_id:
                check.problem(name, "task.id", f"expected {task_id!r}, got {doc.task.id!r}")
            seen_checks: set[str] = set()
            for i, check_def in enumerate(doc.checks):
                if check_def.name in seen_checks:
                    check.problem(name, f"checks[{i}].name", f"{check_def.name!r} is repeated")
                seen_checks.add(check_def.name)
            if check.scrubber.might_match(loaded[1]):
                check.scrub_findings(name, check.scrubber.json_findings(loaded[0]))
            plan.task_docs[task_id] = doc
            plan.task_hashes[task_id] = sha256_hex(loaded[1])

    folders = _attempt_folders(check, manifest, released)
    mains = sum(1 for f in folders if f[2] == 0)
    if manifest.counts.attempts != mains:
        check.problem(
            "manifest.json",
            "counts.attempts",
            f"says {manifest.counts.attempts}, the release has {mains} attempt folders",
        )
    existing = _existing_attempt_hashes(manifest.bench)
    _compare_with_database(plan, existing, folders)
    _plan_attempts(check, plan, folders, existing, sink, progress)
    return plan


def _plan_attempts(check, plan, folders, existing, sink, progress) -> None:
    """Check every attempt folder, handing valid ones to the sink as they come.

    Once a problem is found nothing more is handed over, and the caller rolls
    back what was; the checking goes on, to report every problem.
    """
    writing = sink is not None and plan.ok
    if writing:
        sink.begin(plan, folders)
    events = 0
    for number, (model_id, task_id, trial) in enumerate(folders, start=1):
        planned = _plan_attempt(check, plan.manifest, model_id, task_id, existing, trial)
        if planned is not None:
            attempt, docs = planned
            plan.attempts.append(attempt)
            plan.attempt_changes.add(attempt.status, attempt.label)
            events += attempt.events
            if writing and plan.ok:
                sink.attempt(plan, attempt, docs)
        if progress:
            # Once a problem stops the writing, what is left is only checked.
            phase = Phase.WRITING if writing and plan.ok else Phase.CHECKING
            progress(Progress(phase, number, len(folders), events))
    if writing and plan.ok:
        if progress:
            progress(Progress(Phase.RECOMPUTING, len(folders), len(folders), events))
        sink.finish(plan)


def _check_manifest(check: _Checker, manifest: schema.ManifestDoc) -> None:
    name = "manifest.json"
    for field_name in ("models", "tasks"):
        values = getattr(manifest, field_name)
        for value, count in Counter(values).items():
            if count > 1:
                check.problem(name, field_name, f"{value!r} is listed {count} times")
    tasks = set(manifest.tasks)
    seen: dict[str, int] = {}
    numbers = Counter(b.id for b in manifest.batches)
    for i, batch in enumerate(manifest.batches):
        if numbers[batch.id] > 1:
            check.problem(name, f"batches[{i}].id", f"batch {batch.id} is listed twice")
        for j, task in enumerate(batch.tasks):
            if task not in tasks:
                check.problem(name, f"batches[{i}].tasks[{j}]", f"task {task!r} is not in tasks")
            elif task in seen:
                check.problem(
                    name,
                    f"batches[{i}].tasks[{j}]",
                    f"task {task!r} is already in batch {seen[task]}",
                )
            seen[task] = batch.id
    counts = manifest.counts
    for label, expected in (
        ("models", len(manifest.models)),
        ("tasks", len(manifest.tasks)),
        ("released_tasks", len(seen)),
    ):
        if getattr(counts, label) != expected:
            check.problem(
                name, f"counts.{label}", f"says {getattr(counts, label)}, expected {expected}"
            )


def _check_derived(check: _Checker, plan: ImportPlan) -> None:
    manifest, matrix, board = plan.manifest, plan.matrix, plan.leaderboard
    for name, doc in (("leaderboard.json", board), ("matrix.json", matrix)):
        if doc is not None and doc.bench != manifest.bench:
            check.problem(name, "bench", f"expected {manifest.bench!r}, got {doc.bench!r}")
    models, tasks = set(manifest.models), set(manifest.tasks)
    if matrix is not None:
        matrix_tasks = [t.id for t in matrix.tasks]
        if set(matrix_tasks) != tasks or len(matrix_tasks) != len(tasks):
            check.problem("matrix.json", "tasks", "does not list exactly the manifest's tasks")
        if set(matrix.models) != models:
            check.problem("matrix.json", "models", "does not list exactly the manifest's models")
        released = set(plan.released_tasks)
        for i, entry in enumerate(matrix.tasks):
            if entry.released != (entry.id in released):
                check.problem(
                    "matrix.json",
                    f"tasks[{i}].released",
                    f"is {str(entry.released).lower()}, but the manifest's batches say otherwise",
                )
        for model_id, row in matrix.cells.items():
            if model_id not in models:
                check.problem("matrix.json", f"cells.{model_id}", "model is not in the manifest")
                continue
            for task_id in row:
                if task_id not in tasks:
                    check.problem(
                        "matrix.json", f"cells.{model_id}.{task_id}", "task is not in the manifest"
                    )
    if board is not None:
        listed = [r.model for r in board.rows]
        if set(listed) != models or len(listed) != len(models):
            check.problem("leaderboard.json", "rows", "does not have one row per manifest model")


def _trial_number(text: str) -> int | None:
    """``trials/<n>/``'s n: a positive decimal without leading zeros, else None."""
    if text.isascii() and text.isdigit() and text[0] != "0" and len(text) <= 6:
        return int(text)
    return None


def _attempt_folders(check: _Checker, manifest, released: set[str]) -> list[tuple[str, str, int]]:
    """(model, task, trial) of every attempt folder; trial 0 is the folder itself,
    n > 0 its ``trials/<n>/`` extension folder (a further trial, docs/harbor.md)."""
    models, tasks = set(manifest.models), set(manifest.tasks)
    folders: dict[tuple[str, str, int], None] = {}
    for name in check.source.names():
        parts = name.split("/")
        if parts[0] != "attempts":
            continue
        trial = 0
        if len(parts) == 6 and parts[3] == "trials":
            trial = _trial_number(parts[4])
            if trial is None:
                check.problem(name, "", "unexpected folder: trials are numbered 1, 2, ...")
                continue
            parts = parts[:3] + parts[5:]
        elif len(parts) != 4:
            check.problem(
                name, "", "unexpected file: attempts hold <model>/<task>/[trials/<n>/]<file>"
            )
            continue
        _, model_id, task_id, filename = parts
        if filename not in ATTEMPT_FILES:
            check.problem(name, "", f"unexpected file {filename!r} in an attempt folder")
            continue
        folder = f"attempts/{model_id}/{task_id}/"
        if model_id not in models:
            check.problem(folder, "", f"model {model_id!r} is not in the manifest")
        elif task_id not in tasks:
            check.problem(folder, "", f"task {task_id!r} is not in the manifest")
        elif task_id not in released:
            check.problem(folder, "", f"task {task_id!r} is in no batch, so it has no attempts")
        else:
            folders[(model_id, task_id, trial)] = None
    for model_id, task_id, trial in folders:
        if trial and (model_id, task_id, 0) not in folders:
            check.problem(
                f"attempts/{model_id}/{task_id}/trials/{trial}/",
                "",
                "a further trial needs the attempt folder's own files (its first trial)",
            )
    return sorted(folders)


def _existing_attempt_hashes(bench: str) -> dict[tuple[str, str, int], str]:
    rows = Attempt.all_trials.filter(bench__slug=bench, has_detail=True).values_list(
        "model__slug", "task__slug", "trial", "content_hash"
    )
    return {(m, t, n): h for m, t, n, h in rows}


def _plan_attempt(
    check: _Checker, manifest, model_id: str, task_id: str, existing, trial: int = 0
) -> tuple[AttemptPlan, AttemptDocs] | None:
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
    docs = validate_attempt_files(check, folder, files, manifest, model_id, task_id)
    if docs is None or len(check.plan.problems) != before:
        return None
    attempt.events = len(docs.trajectory["events"])
    attempt.requests = sum(len(v) for v in (docs.vendor_log or {}).get("vendors", {}).values())
    attempt.published_score = docs.summary["score"]
    attempt.recomputed_score = score_verdict(
        manifest.scoring_rule, verdict_outcomes(docs.verdict), docs.verdict
    )
    reading = docs.transcript
    if reading is not None:
        attempt.transcript_status, attempt.transcript_format = reading.status, reading.format
        attempt.transcript_note = reading.note
        attempt.first_difference = reading.first_difference
        attempt.differences = reading.differences
        attempt.differences_total = reading.differences_total
        attempt.unmapped_total = reading.unmapped_total
    return attempt, docs


def read_attempt(source: ReleaseSource, folder: str) -> dict[str, bytes]:
    """The files of one attempt folder that the format knows, by file name."""
    return {f: source.read(folder + f) for f in ATTEMPT_FILES if source.exists(folder + f)}


def attempt_hash(files: dict[str, bytes]) -> str:
    digests = [f"{name}:{sha256_hex(files[name])}" for name in ATTEMPT_FILES if name in files]
    return "sha256:" + sha256_hex("\n".join(digests).encode())


def validate_attempt_files(
    check: _Checker, folder: str, files: dict[str, bytes], manifest, model_id: str, task_id: str
):
    """Validate one attempt folder; returns counts and scores, or None on problems."""
    before = len(check.plan.problems)
    loaded = {}
    for filename, data in files.items():
        if filename.endswith(".json"):
            try:
                loaded[filename] = schema.parse_json(data)
            except JSONProblem as exc:
                check.problem(folder + filename, exc.path, str(exc))
        elif filename != "transcript.jsonl":
            # A transcript is kept verbatim even when not UTF-8: its bad bytes
            # are a finding (ingest.transcripts), not a refusal.
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                check.problem(folder + filename, "", f"not UTF-8 (byte {exc.start})")
    rewrite = _scrub_attempt(check, folder, files, loaded)
    summary = verdict = None
    name = folder + "summary.json"
    if "summary.json" in loaded:
        summary = check.validate(name, schema.SummaryDoc, loaded["summary.json"])
        if summary is not None:
            for key, expected in (
                ("model", model_id),
                ("task", task_id),
                ("bench", manifest.bench),
            ):
                if getattr(summary, key) != expected:
                    check.problem(
                        name, key, f"expected {expected!r}, got {getattr(summary, key)!r}"
                    )
    if "verdict.json" in loaded:
        verdict = check.validate(folder + "verdict.json", schema.VerdictDoc, loaded["verdict.json"])
    if "trajectory.json" in loaded:
        validate_trajectory(check, folder + "trajectory.json", loaded["trajectory.json"])
    refs: set[str] = set()
    name = folder + "vendor-requests.json"
    if "vendor-requests.json" in loaded:
        log = check.validate(name, schema.VendorLogDoc, loaded["vendor-requests.json"])
        if log is not None:
            for vendor, entries in log.vendors.items():
                for i, entry in enumerate(entries):
                    ref = f"{vendor}:{entry.id}"
                    if ref in refs:
                        check.problem(
                            name, f"vendors.{vendor}[{i}].id", f"{entry.id!r} is repeated"
                        )
                    refs.add(ref)
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
        scrubber = check.scrubber
        for filename in list(loaded):
            if filename == "vendor-requests.json":
                loaded[filename] = scrubber.rewrite_vendor_log(loaded[filename])
            else:
                loaded[filename] = scrubber.rewrite_json(loaded[filename])
        files = {
            name: scrubber.rewrite_text(data.decode("utf-8", "surrogateescape")).encode(
                "utf-8", "surrogateescape"
            )
            if name not in loaded
            else data
            for name, data in files.items()
        }
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


def _derived_events_valid(check: _Checker, folder: str, reading: TranscriptReading) -> bool:
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


def _scrub_attempt(check: _Checker, folder: str, files: dict, loaded: dict) -> bool:
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


def verdict_outcomes(verdict: dict | None) -> list[CheckOutcome] | None:
    """The checks of a validated verdict document, as the scoring rules take them."""
    if verdict is None:
        return None
    return [
        CheckOutcome(name=c["name"], mandatory=c["mandatory"], passed=c["passed"], level=c["level"])
        for c in verdict["checks"]
    ]


def validate_trajectory(check: _Checker, name: str, raw: Any) -> None:
    if check.validate(name, schema.TrajectoryHeadDoc, raw) is None:
        return
    for path, message in event_schema.check_events(raw["events"]):
        check.problem(name, path, message)


def _compare_with_database(
    plan: ImportPlan, existing: dict[tuple[str, str], str], folders: list[tuple[str, str]]
) -> None:
    manifest = plan.manifest
    bench = Bench.objects.filter(slug=manifest.bench).first()
    if bench is None:
        plan.bench_status = "new"
    elif (bench.title, bench.revision, bench.generated_at, bench.scoring_rule) == (
        manifest.title,
        manifest.revision,
        manifest.generated_at,
        manifest.scoring_rule,
    ):
        plan.bench_status = "unchanged"
    else:
        plan.bench_status = "changed"
    old_models = dict(
        Model.objects.filter(bench=bench).values_list("slug", "content_hash") if bench else []
    )
    for model_id in manifest.models:
        status = _status(old_models, model_id, model_signature(plan, model_id))
        plan.models.add(status, model_id)
    plan.models.removed = sorted(set(old_models) - set(manifest.models))
    old_tasks = dict(
        Task.objects.filter(bench=bench).values_list("slug", "content_hash") if bench else []
    )
    matrix_entries = {t.id: t for t in plan.matrix.tasks} if plan.matrix else {}
    for task_id in manifest.tasks:
        entry = matrix_entries.get(task_id)
        signature = task_signature(entry, plan.task_hashes.get(task_id))
        plan.tasks.add(_status(old_tasks, task_id, signature), task_id)
    plan.tasks.removed = sorted(set(old_tasks) - set(manifest.tasks))
    old_batches = dict(
        bench.batches.values_list("number", "released_at") if bench is not None else []
    )
    for batch in manifest.batches:
        status = _status(old_batches, batch.id, batch.released_at)
        plan.batches.add(status, str(batch.id))
    plan.attempt_changes.removed = sorted(
        f"{m}/{t}/trials/{n}" if n else f"{m}/{t}" for m, t, n in set(existing) - set(folders)
    )


def model_signature(plan: ImportPlan, model_id: str) -> str:
    """What a model row is made of: its leaderboard row and its model file, hashed."""
    rows = {r.model: r for r in plan.leaderboard.rows} if plan.leaderboard else {}
    row = rows.get(model_id)
    parts = [row.model_dump_json(by_alias=True) if row else "", plan.model_hashes.get(model_id, "")]
    return "sha256:" + sha256_hex("\n".join(parts).encode())


def task_signature(entry, task_file_hash: str | None) -> str:
    """What a task row is made of: its matrix entry and its task file, hashed."""
    parts = [
        entry.model_dump_json(by_alias=True) if entry is not None else "",
        task_file_hash or "",
    ]
    return "sha256:" + sha256_hex("\n".join(parts).encode())


def _status(old: dict, key, new_value) -> str:
    if key not in old:
        return "new"
    return "unchanged" if old[key] == new_value else "changed"
