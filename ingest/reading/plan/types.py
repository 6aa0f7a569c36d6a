"""What a plan is made of: problems, per-attempt summaries, changes, the plan itself.

Nothing here reads a release or the database. A plan keeps the small
documents of a release as their typed models (``formats.v1.schema``) and, per
attempt, only hashes, counts and the transcript check's small parts; an
attempt's own documents (``AttemptDocs``) live only while that attempt is
handed over (``CheckedAttempt``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from formats.v1 import schema
from formats.v1.scoring import differs
from ingest.reading.transcripts import TranscriptReading

# An attempt folder: (model, task, trial); trial 0 is the folder itself, n > 0
# its trials/<n>/ folder (a further trial, docs/harbor.md).
Folder = tuple[str, str, int]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


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
    # What the transcript check found (ingest.reading.transcripts), small parts only.
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
    """One valid attempt folder, decoded: what the writer needs, read once.

    The JSON documents stay as decoded, not as their validated models: they are
    stored and given back as released (an integer stays an integer, keys keep
    their order, unknown fields stay where they were), and the scoring rules
    read a verdict's own fields.
    """

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
class CheckedAttempt:
    """One attempt folder that passed every check: its plan entry and its documents
    (None for an unchanged attempt taken as it was imported, plan.attempts.check_attempt)."""

    attempt: AttemptPlan
    docs: AttemptDocs | None


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
    exceptions_rule: str = ""
    manifest: schema.ManifestDoc | None = None
    leaderboard: schema.LeaderboardDoc | None = None
    matrix: schema.MatrixDoc | None = None
    model_docs: dict[str, schema.ModelFileDoc] = field(default_factory=dict)
    task_docs: dict[str, schema.TaskFileDoc] = field(default_factory=dict)
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
