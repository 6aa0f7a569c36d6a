"""Typed models of release format v1 (pydantic); the events are in event_schema.

Every model allows unknown fields (they are kept and given back); types are
strict, so ``"true"`` is not a boolean and ``"1"`` is not a number.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import orjson
from pydantic import ConfigDict, Field, field_validator

from ingest.schema_base import Doc, Number, Timestamp
from leaderboard.scoring import SCORING_RULES
from leaderboard.slugs import RESERVED_BENCH_SLUGS, SLUG_RE


def _slug(value: str) -> str:
    if not SLUG_RE.fullmatch(value):
        raise ValueError(f"{value!r} is not a valid id (lowercase letters, digits, '.', '_', '-')")
    return value


# -- manifest.json ---------------------------------------------------------------------------


class BatchDoc(Doc):
    id: int
    released_at: Timestamp
    tasks: list[str]

    @field_validator("tasks")
    @classmethod
    def _task_slugs(cls, value: list[str]) -> list[str]:
        return [_slug(x) for x in value]


class CountsDoc(Doc):
    models: int
    tasks: int
    released_tasks: int
    attempts: int


class ManifestDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    bench: str
    title: str
    revision: str
    generated_at: Timestamp
    scoring_rule: str
    models: list[str]
    tasks: list[str]
    batches: list[BatchDoc]
    counts: CountsDoc

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


# -- leaderboard.json, matrix.json, models/, tasks/ -----------------------------------------


class SurfaceFigures(Doc):
    score: Number
    tasks: int


class LeaderboardRowDoc(Doc):
    rank: int
    model: str
    display_name: str
    harness: str
    provider: str
    score: Number
    tasks: int
    flagged: int
    cost_usd: Number
    duration_s: Number
    by_surface: dict[str, SurfaceFigures]


class LeaderboardDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    bench: str
    revision: str
    scoring_rule: str
    rows: list[LeaderboardRowDoc]


class MatrixTaskDoc(Doc):
    id: str
    title: str
    surface: str
    released: bool

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        return _slug(value)


class CellDoc(Doc):
    # A cell is exactly {"score", "flags"}.
    model_config = ConfigDict(extra="forbid", strict=True)
    score: Number
    flags: list[str]

    @field_validator("score")
    @classmethod
    def _unit(cls, value: float) -> float:
        if not 0.0 <= value <= 1.0:
            raise ValueError("score must be between 0 and 1")
        return value


class MatrixDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    bench: str
    revision: str
    tasks: list[MatrixTaskDoc]
    models: list[str]
    cells: dict[str, dict[str, CellDoc]]


class ModelInfoDoc(Doc):
    id: str
    display_name: str
    harness: str
    provider: str


class AggregateDoc(Doc):
    score: Number
    tasks: int
    flagged: int
    cost_usd: Number
    duration_s: Number
    by_surface: dict[str, SurfaceFigures]


class ModelAttemptRowDoc(Doc):
    task: str
    score: Number
    checks_passed: int
    checks_total: int
    mandatory_failed: int
    cost_usd: Number | None  # null: the harness did not report a cost (Harbor)
    duration_s: Number
    flags: list[str]


class ModelFileDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    bench: str
    model: ModelInfoDoc
    aggregate: AggregateDoc
    attempts: list[ModelAttemptRowDoc]


class TaskInfoDoc(Doc):
    id: str
    title: str
    surface: str
    vendors: list[str]
    batch: int


class CheckDefDoc(Doc):
    name: str
    level: str
    mandatory: bool


class TaskResultDoc(Doc):
    model: str
    score: Number
    checks: dict[str, bool]
    flags: list[str]


class TaskFileDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    bench: str
    task: TaskInfoDoc
    ticket: str
    checks: list[CheckDefDoc]
    results: list[TaskResultDoc]


# -- attempts/<model>/<task>/ -----------------------------------------------------------------


class CheckCountsDoc(Doc):
    total: int
    passed: int
    failed: int
    mandatory_failed: int


class CostDoc(Doc):
    usd: Number | None  # null: the harness did not report a cost (Harbor); shown "unknown"
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None


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
    schema_: Literal["v1"] = Field(alias="schema")
    bench: str
    model: str
    task: str
    harness: str
    score: Number
    scoring_rule: str
    checks: CheckCountsDoc
    flags: list[str]
    cost: CostDoc
    timing: TimingDoc
    hashes: HashesDoc
    provenance: ProvenanceDoc


class VerdictCheckDoc(Doc):
    name: str
    level: str
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
    schema_: Literal["v1"] = Field(alias="schema")
    model: str
    task: str
    grader: GraderDoc
    checks: list[VerdictCheckDoc]


class TrajectoryHeadDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    harness: str
    model: str
    events: list[Any]


class VendorEntryDoc(Doc):
    id: str
    ts: Timestamp
    direction: str
    method: str
    path: str
    body: Any
    status: int
    response: Any
    query: dict[str, Any] | None = None
    headers: dict[str, Any] | None = None
    duration_ms: Number | None = None
    event: str | None = None
    attempt: int | None = None


class VendorLogDoc(Doc):
    schema_: Literal["v1"] = Field(alias="schema")
    vendors: dict[str, list[VendorEntryDoc]]


# -- decoding -------------------------------------------------------------------------------


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(data: bytes) -> Any:
    """Decode a JSON document; raises ValueError with the position on failure.

    orjson does the work (it is twice as fast as the standard library on large
    trajectories); the standard library only explains a failure, or takes the
    rare document orjson refuses (integers beyond 64 bits).
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
