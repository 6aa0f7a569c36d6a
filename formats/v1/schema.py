"""Typed models of release format v1 (pydantic); the events are in event_schema.

Every model allows unknown fields (they are kept and given back); types are
strict, so ``"true"`` is not a boolean and ``"1"`` is not a number.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator

from formats.v1 import SCHEMA, sizes
from formats.v1.jsondoc import parse_json  # noqa: F401  (the documents' decoder)
from formats.v1.schema_base import (
    Doc,
    Integer,
    Label,
    Number,
    Timestamp,
    column_int,
    column_text,
)
from formats.v1.scoring import EXCEPTIONS_RULES, SCORING_RULES
from formats.v1.slugs import RESERVED_BENCH_SLUGS, SLUG_RE

# Every document names the one version of the format (formats.v1.SCHEMA).
Schema = Literal[SCHEMA]  # type: ignore[valid-type]


def _slug(value: str) -> str:
    if not SLUG_RE.fullmatch(value):
        raise ValueError(f"{value!r} is not a valid id (lowercase letters, digits, '.', '_', '-')")
    return value


# -- manifest.json ---------------------------------------------------------------------------


# Strings and integers stored in a column (see formats.v1.schema_base).
BenchSlug = column_text(sizes.SLUG)
ModelSlug = column_text(sizes.SLUG)
TaskSlug = column_text(sizes.SLUG)
DisplayName = column_text(sizes.MODEL_NAME)
Harness = column_text(sizes.HARNESS)
VendorName = column_text(sizes.VENDOR)


class BatchDoc(Doc):
    id: column_int(sizes.INT)
    released_at: Timestamp
    tasks: list[TaskSlug]

    @field_validator("tasks")
    @classmethod
    def _task_slugs(cls, value: list[str]) -> list[str]:
        return [_slug(x) for x in value]


class CountsDoc(Doc):
    models: Integer
    tasks: Integer
    released_tasks: Integer
    attempts: Integer


class ManifestDoc(Doc):
    schema_: Schema = Field(alias="schema")
    bench: BenchSlug
    title: column_text(sizes.BENCH_TITLE)
    revision: column_text(sizes.REVISION)
    generated_at: Timestamp
    scoring_rule: str
    models: list[ModelSlug]
    tasks: list[TaskSlug]
    batches: list[BatchDoc]
    counts: CountsDoc
    # Beyond v1 (Harbor benches): how a trial that raised is scored, see
    # formats.v1.scoring.EXCEPTIONS_RULES. Absent: verdicts' exceptions decide nothing.
    exceptions_rule: str | None = None

    @field_validator("bench")
    @classmethod
    def _bench(cls, value: str) -> str:
        _slug(value)
        if value in RESERVED_BENCH_SLUGS:
            raise ValueError(f"{value!r} is reserved for the site's own addresses")
        return value

    @field_validator("scoring_rule")
    @classmethod
    def _rule(cls, value: str) -> str:
        if value not in SCORING_RULES:
            known = ", ".join(sorted(SCORING_RULES))
            raise ValueError(f"unknown scoring rule {value!r} (known: {known})")
        return value

    @field_validator("models", "tasks")
    @classmethod
    def _slugs(cls, value: list[str]) -> list[str]:
        return [_slug(x) for x in value]

    @field_validator("exceptions_rule")
    @classmethod
    def _exceptions_rule(cls, value: str | None) -> str | None:
        if value is not None and value not in EXCEPTIONS_RULES:
            raise ValueError(
                f"unknown exceptions rule {value!r} (known: {', '.join(EXCEPTIONS_RULES)})"
            )
        return value


# -- leaderboard.json, matrix.json, models/, tasks/ -----------------------------------------


class SurfaceFigures(Doc):
    score: Number
    tasks: Integer


class LeaderboardRowDoc(Doc):
    rank: Integer
    model: str
    display_name: DisplayName
    harness: str
    provider: str
    score: Number
    tasks: Integer
    flagged: Integer
    cost_usd: Number | None  # null: no attempt reported a cost (Harbor)
    duration_s: Number
    by_surface: dict[column_text(sizes.SURFACE), SurfaceFigures]


class LeaderboardDoc(Doc):
    schema_: Schema = Field(alias="schema")
    bench: str
    revision: str
    scoring_rule: str
    rows: list[LeaderboardRowDoc]


class MatrixTaskDoc(Doc):
    id: TaskSlug
    title: column_text(sizes.TASK_TITLE)
    surface: column_text(sizes.SURFACE)
    released: bool

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        return _slug(value)


class TrialsDoc(Doc):
    """A cell's ``x-trials``: passed and total trials of the model on the task."""

    model_config = ConfigDict(extra="forbid", strict=True)
    passed: int = Field(ge=0)
    total: int = Field(ge=2)


class CellDoc(Doc):
    # A cell is exactly {"score", "flags"}, plus ``x-trials`` where the model ran
    # the task several times (the trials extension, docs/harbor.md; the site
    # recomputes it from the trials/<n>/ folders, like every derived figure).
    model_config = ConfigDict(extra="forbid", strict=True)
    score: Number
    flags: list[Label]
    x_trials: TrialsDoc | None = Field(default=None, alias="x-trials")

    @field_validator("score")
    @classmethod
    def _unit(cls, value: float) -> float:
        if not 0.0 <= value <= 1.0:
            raise ValueError("score must be between 0 and 1")
        return value


class MatrixDoc(Doc):
    schema_: Schema = Field(alias="schema")
    bench: str
    revision: str
    tasks: list[MatrixTaskDoc]
    models: list[str]
    cells: dict[str, dict[str, CellDoc]]


class ModelInfoDoc(Doc):
    id: str
    display_name: DisplayName
    harness: Harness
    provider: column_text(sizes.PROVIDER)


class AggregateDoc(Doc):
    score: Number
    tasks: Integer
    flagged: Integer
    cost_usd: Number | None  # null: no attempt reported a cost (Harbor)
    duration_s: Number
    by_surface: dict[column_text(sizes.SURFACE), SurfaceFigures]


class ModelAttemptRowDoc(Doc):
    task: str
    score: Number
    checks_passed: Integer
    checks_total: Integer
    mandatory_failed: Integer
    cost_usd: Number | None  # null: the harness did not report a cost (Harbor)
    duration_s: Number
    flags: list[Label]


class ModelFileDoc(Doc):
    schema_: Schema = Field(alias="schema")
    bench: str
    model: ModelInfoDoc
    aggregate: AggregateDoc
    attempts: list[ModelAttemptRowDoc]


class TaskInfoDoc(Doc):
    id: str
    title: column_text(sizes.TASK_TITLE)
    surface: column_text(sizes.SURFACE)
    vendors: list[Label]
    batch: Integer


class CheckDefDoc(Doc):
    name: column_text(sizes.CHECK_NAME)
    level: column_text(sizes.CHECK_LEVEL)
    mandatory: bool


class TaskResultDoc(Doc):
    model: str
    score: Number
    checks: dict[str, bool]
    flags: list[Label]


class TaskFileDoc(Doc):
    schema_: Schema = Field(alias="schema")
    bench: str
    task: TaskInfoDoc
    ticket: str
    checks: list[CheckDefDoc]
    results: list[TaskResultDoc]


# -- attempts/<model>/<task>/ -----------------------------------------------------------------


class CheckCountsDoc(Doc):
    total: Integer
    passed: Integer
    failed: Integer
    mandatory_failed: Integer


Tokens = column_int(sizes.BIG_INT)


class CostDoc(Doc):
    usd: Number | None  # null: the harness did not report a cost (Harbor); shown "unknown"
    input_tokens: Tokens
    output_tokens: Tokens
    cache_read_tokens: Tokens | None = None
    cache_write_tokens: Tokens | None = None


class TimingDoc(Doc):
    started_at: Timestamp
    finished_at: Timestamp
    duration_s: Number


class HashesDoc(Doc):
    task_tree: str
    harness_tree: str
    patch: str | None = None


class ProvenanceDoc(Doc):
    harness_version: str | None = None
    model_version: str | None = None
    run_id: str | None = None
    exporter: str | None = None


class SummaryDoc(Doc):
    schema_: Schema = Field(alias="schema")
    bench: str
    model: str
    task: str
    harness: column_text(sizes.HARNESS)
    score: Number
    scoring_rule: str
    checks: CheckCountsDoc
    flags: list[Label]
    cost: CostDoc
    timing: TimingDoc
    hashes: HashesDoc
    provenance: ProvenanceDoc


class VerdictCheckDoc(Doc):
    name: column_text(sizes.CHECK_NAME)
    level: column_text(sizes.CHECK_LEVEL)
    mandatory: bool
    passed: bool
    detail: str | None = None
    requests: list[str] | None = None

    @field_validator("requests")
    @classmethod
    def _refs(cls, value: list[str] | None) -> list[str] | None:
        for ref in value or []:
            vendor, _, ident = ref.partition(":")
            if not vendor or not ident:
                raise ValueError(f"{ref!r} is not a '<vendor>:<id>' request name")
        return value


class GraderDoc(Doc):
    name: str
    version: str


class VerdictDoc(Doc):
    schema_: Schema = Field(alias="schema")
    model: str
    task: str
    grader: GraderDoc
    checks: list[VerdictCheckDoc]


class TrajectoryHeadDoc(Doc):
    schema_: Schema = Field(alias="schema")
    harness: str
    model: str
    events: list[Any]


class VendorEntryDoc(Doc):
    id: column_text(sizes.REQUEST_ID)
    ts: Timestamp
    direction: column_text(sizes.DIRECTION)
    method: column_text(sizes.METHOD)
    path: str
    body: Any
    status: column_int(sizes.INT)
    response: Any
    query: dict[str, Any] | None = None
    headers: dict[str, Any] | None = None
    duration_ms: Number | None = None
    event: str | None = None
    attempt: Integer | None = None


class VendorLogDoc(Doc):
    schema_: Schema = Field(alias="schema")
    vendors: dict[VendorName, list[VendorEntryDoc]]
