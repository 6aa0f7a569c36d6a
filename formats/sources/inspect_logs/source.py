"""Inspect logs → one bench: samples are tasks, epochs are trials, each log's
model a model. See docs/formats.md, "Inspect AI logs".

``open_logs`` reads every log's header and summaries (light), so the bench's
models and tasks are known before any sample is read. ``attempts()`` then
yields each trial in turn; its folder's files (``summary.json``,
``verdict.json``, ``transcript.jsonl``: the sample's own JSON, ``problem.md``)
are built when the import reads them, one sample at a time, so memory does
not grow with the log. A summary whose full sample the log does not hold
still scores: its attempt has no transcript and so no events.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import orjson

from formats.sources.inspect_logs.log import InspectLog, Limits, log_files, open_log
from formats.sources.inspect_logs.scores import (
    deciding_scorer,
    published_metrics,
    published_score,
    reward_of,
)
from formats.sources.protocol import (
    AttemptEntry,
    BenchFacts,
    Check,
    LazyFolder,
    ModelEntry,
    SourceError,
    TaskEntry,
    digests_of,
)
from formats.v1 import attempt_files as v1

RULE = "reward-threshold"
PUBLISHED_KEY = "x-inspect-results"
EXPORTER = "benchview inspect-logs"
UNSCORED = "unscored"
UNFINISHED = "unfinished"
_NOT_SLUG = re.compile(r"[^a-z0-9._-]+")


def slug(value: str) -> str:
    """``openai/gpt-4o`` -> ``openai-gpt-4o``; ``Task 7`` -> ``task-7``."""
    text = _NOT_SLUG.sub("-", value.lower().replace("_", "-"))
    text = re.sub(r"-{2,}", "-", text).lstrip("._-").rstrip("-")
    return text[:100].rstrip("-")


def dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2)


def _text(value: Any) -> str:
    """A sample's input as text: a string, or its chat messages' text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for message in value:
            content = message.get("content") if isinstance(message, dict) else None
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts += [
                    c["text"]
                    for c in content
                    if isinstance(c, dict) and isinstance(c.get("text"), str)
                ]
        return "\n\n".join(parts)
    return ""


def _utc(value: Any) -> str | None:
    """An ISO 8601 time, kept as written (offsets included), or None."""
    return value if isinstance(value, str) and len(value) >= 19 and value[4] == "-" else None


_STAMP = re.compile(rb'"timestamp":\s*"([^"]{19,40})"')


def _duration(summary: dict[str, Any], raw: bytes | None) -> float:
    """The sample's ``total_time``; else the span of its events' timestamps
    (older logs say no more), found without parsing the sample; else 0."""
    total = summary.get("total_time")
    if isinstance(total, int | float) and not isinstance(total, bool) and total >= 0:
        return float(total)
    if raw:
        first = _STAMP.search(raw)
        last = None
        tail = raw.rfind(b'"timestamp"')
        if tail >= 0:
            last = _STAMP.match(raw, tail)
        if first and last:
            try:
                start = datetime.fromisoformat(first.group(1).decode())
                end = datetime.fromisoformat(last.group(1).decode())
                span = (end - start).total_seconds()
            except (ValueError, TypeError):
                return 0.0
            return span if span >= 0 else 0.0
    return 0.0


@dataclass(frozen=True)
class _Trial:
    log: InspectLog
    summary: dict[str, Any]
    model: str
    task: str
    n: int  # 0: the attempt; n: its n-th further trial


@dataclass
class InspectSource:
    """Inspect logs as a ``ResultsSource`` (formats.sources.protocol)."""

    name: str
    bench: BenchFacts
    threshold: float
    models: dict[str, ModelEntry] = field(default_factory=dict)
    tasks: dict[str, TaskEntry] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    logs: list[InspectLog] = field(default_factory=list)
    scorers: dict[str, str | None] = field(default_factory=dict)  # log label -> scorer
    groups: dict[tuple[str, str], list[tuple[InspectLog, dict]]] = field(default_factory=dict)

    def attempts(self) -> Iterator[AttemptEntry]:
        for (model, task), group in sorted(self.groups.items()):
            group.sort(key=lambda pair: pair[1]["epoch"])
            for n, (log, summary) in enumerate(group):
                trial = _Trial(log, summary, model, task, n)
                try:
                    yield self._entry(trial, len(group))
                except SourceError as exc:
                    self.problems += exc.problems

    def _entry(self, trial: _Trial, of: int) -> AttemptEntry:
        files = self._files(trial, of)
        summary = orjson.loads(files["summary.json"])
        verdict = orjson.loads(files["verdict.json"])
        checks = [
            Check(c["name"], c["level"], c["passed"], c["mandatory"]) for c in verdict["checks"]
        ]
        sid, epoch = trial.summary["id"], trial.summary["epoch"]
        folder = LazyFolder(
            partial(self._files, trial, of),
            digests_of(files),
            f"{trial.log.label}: sample {sid} epoch {epoch}",
        )
        return AttemptEntry(
            model=trial.model,
            task=trial.task,
            score=summary["score"],
            flags=summary["flags"],
            checks=checks,
            cost_usd=None,
            duration_s=summary["timing"]["duration_s"],
            finished_at=summary["timing"]["finished_at"],
            folder=folder,
            trial=trial.n,
            ticket=files["problem.md"].decode(),
        )

    def _files(self, trial: _Trial, of: int) -> dict[str, bytes]:
        """The attempt folder of one trial (built again, the same, when the import reads it)."""
        log, s = trial.log, trial.summary
        scorer = self.scorers[log.label]
        scores = s.get("scores") if isinstance(s.get("scores"), dict) else {}
        checks = []
        reward = None
        for name, score in scores.items():
            value = score.get("value") if isinstance(score, dict) else None
            got = reward_of(value)
            if name == scorer:
                reward = got
            shown = "no reading" if got is None else f"{got:g}"
            detail = f"value {orjson.dumps(value).decode()[:200]} -> {shown}"
            if name == scorer:
                detail += f" (threshold {self.threshold:g}; decides the score)"
            answer = score.get("answer") if isinstance(score, dict) else None
            if isinstance(answer, str) and answer:
                detail += f"; answer: {answer[:500]}"
            checks.append(
                v1.verdict_check(
                    name=str(name),
                    level="reward" if name == scorer else "scorer",
                    mandatory=False,
                    passed=got is not None and got >= self.threshold,
                    detail=detail,
                )
            )
        flags: list[str] = []
        if reward is None:
            flags.append(UNSCORED)
        if s.get("completed") is False:
            flags.append(UNFINISHED)
        if isinstance(s.get("error"), dict | str) and s.get("error"):
            flags.append("exception:SampleError")
        limit = s.get("limit")
        if isinstance(limit, dict) and isinstance(limit.get("type"), str):
            flags.append(f"limit:{limit['type']}")
        score = 1.0 if reward is not None and reward >= self.threshold else 0.0
        header = log.header
        spec = header["eval"]
        stats = header.get("stats") if isinstance(header.get("stats"), dict) else {}
        finished = (
            _utc(s.get("completed_at"))
            or _utc(stats.get("completed_at"))
            or _utc(spec.get("created"))
            or "1970-01-01T00:00:00Z"
        )
        started = _utc(s.get("started_at")) or _utc(stats.get("started_at")) or finished
        raw = log.sample(s["id"], s["epoch"])
        duration = _duration(s, raw)
        usage = s.get("model_usage") if isinstance(s.get("model_usage"), dict) else {}
        tokens = {"input_tokens": 0, "output_tokens": 0}
        for counts in usage.values():
            for key in tokens:
                value = counts.get(key) if isinstance(counts, dict) else None
                if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                    tokens[key] += value
        notes = []
        if of > 1:
            notes.append(
                f"{of} epochs of this model on this sample; this is epoch {s['epoch']} "
                f"(trial {trial.n}; trial 0 is the attempt's own page)"
            )
        if raw is None:
            notes.append("the log holds this sample's summary only: no messages or events")
        harness = self.models[trial.model].harness
        passed = sum(1 for c in checks if c["passed"])
        summary = v1.summary_document(
            bench=self.bench.id,
            model=trial.model,
            task=trial.task,
            harness=harness,
            score=score,
            scoring_rule=RULE,
            checks=v1.summary_checks(total=len(checks), passed=passed),
            flags=flags,
            cost=v1.summary_cost(usd=None, **tokens),
            timing=v1.summary_timing(started_at=started, finished_at=finished, duration_s=duration),
            hashes=v1.summary_hashes(),
            provenance=v1.summary_provenance(
                harness_version=str((spec.get("packages") or {}).get("inspect_ai", "")),
                model_version=spec.get("model"),
                run_id=spec.get("run_id"),
                exporter=EXPORTER,
            ),
            extra={
                "inspect": {
                    "log": log.label,
                    "task": spec.get("task"),
                    "sample_id": s["id"],
                    "epoch": s["epoch"],
                    "scorer": scorer,
                    "events_from": "inspect-sample" if raw is not None else None,
                    "notes": notes,
                }
            },
        )
        verdict = v1.verdict_document(
            model=trial.model,
            task=trial.task,
            grader=v1.verdict_grader(f"inspect-scorer:{scorer or 'none'}", "1"),
            checks=checks,
            extra={"reward": reward, "threshold": self.threshold, "scores": scores},
        )
        # A summary without its sample: no transcript and an empty trajectory
        # (v1 requires the one file, and events must come from somewhere).
        return v1.folder_files(
            dump,
            summary=summary,
            verdict=verdict,
            trajectory=None
            if raw is not None
            else v1.trajectory_document(harness=harness, model=trial.model, events=[]),
            transcript=raw if raw is not None else b"",
            problem=_text(s.get("input")),
        )

    def close(self) -> None:
        self.groups = {}


def open_logs(
    paths: list[Path],
    *,
    bench: str | None,
    title: str | None = None,
    threshold: float = 1.0,
    limits: Limits | None = None,
) -> InspectSource:
    """The logs under ``paths`` as one bench (``SourceError`` listing every problem)."""
    limits = limits or Limits()
    files = list(log_files(paths))
    if not files:
        shown = ", ".join(str(p) for p in paths)
        raise SourceError([f"{shown}: no Inspect log (.eval zip or .json) found"])
    logs = [open_log(path, limits, str(path)) for path in files]
    task_names = sorted({str(log.header["eval"].get("task", "")) for log in logs})
    bench_id = bench or slug(task_names[0].rsplit("/", 1)[-1]) or "inspect"
    source = InspectSource(
        name="+".join(path.name for path in files),
        bench=BenchFacts(
            id=bench_id,
            title=title or (task_names[0] if len(task_names) == 1 else bench_id),
            scoring_rule=RULE,
            threshold=threshold,
            published_key=PUBLISHED_KEY,
        ),
        threshold=threshold,
        logs=logs,
    )
    seen: dict[tuple[str, str, int], str] = {}
    twice: dict[tuple[str, str, str], list[str]] = {}  # (log, other log, model) -> samples
    several_tasks = len(task_names) > 1
    by_model_logs: dict[str, list[InspectLog]] = {}
    for log in logs:
        spec = log.header["eval"]
        model_name = str(spec.get("model") or "unknown")
        model = slug(model_name) or "unknown"
        by_model_logs.setdefault(model, []).append(log)
        scorer = deciding_scorer(log.header, log.summaries)
        source.scorers[log.label] = scorer
        if model not in source.models:
            provider = model_name.split("/", 1)[0] if "/" in model_name else ""
            source.models[model] = ModelEntry(
                id=model,
                display_name=model_name,
                harness=str(spec.get("solver") or "inspect"),
                provider=provider,
            )
        dataset = spec.get("dataset") if isinstance(spec.get("dataset"), dict) else {}
        surface = slug(str(dataset.get("name") or spec.get("task") or "inspect")) or "inspect"
        prefix = slug(str(spec.get("task", "")).rsplit("/", 1)[-1]) if several_tasks else ""
        listed = dataset.get("sample_ids")
        if isinstance(listed, list) and len(listed) > len({str(s["id"]) for s in log.summaries}):
            source.notes.append(
                f"{log.label}: the dataset lists {len(listed)} samples; the log's summaries "
                f"hold {len({str(s['id']) for s in log.summaries})} of them (only those are tasks)"
            )
        held = sum(1 for s in log.summaries if log.has_sample(s["id"], s["epoch"]))
        if held < len(log.summaries):
            source.notes.append(
                f"{log.label}: {len(log.summaries) - held} of {len(log.summaries)} sample(s) "
                "have a summary only (scored, no trajectory)"
            )
        for i, s in enumerate(log.summaries):
            raw_id = str(s["id"])
            task = slug(f"{prefix}-{raw_id}" if prefix else raw_id) or f"sample-{i}"
            if not re.match(r"^[a-z0-9]", task):
                task = f"sample-{task}"
            entry = source.tasks.get(task)
            if entry is None:
                source.tasks[task] = TaskEntry(
                    id=task,
                    title=f"{spec.get('task')} #{raw_id}" if several_tasks else raw_id,
                    surface=surface,
                    ticket=_text(s.get("input")),
                    extra={"inspect_sample_id": s["id"], "inspect_task": spec.get("task")},
                )
            elif (
                entry.extra.get("inspect_sample_id") != s["id"]
                and str(entry.extra.get("inspect_sample_id")) != raw_id
            ):
                source.problems.append(
                    f"{log.label}: summaries.json: sample {s['id']!r} and sample "
                    f"{entry.extra['inspect_sample_id']!r} both become task {task!r}"
                )
            key = (model, task, s["epoch"])
            if key in seen:
                twice.setdefault((log.label, seen[key], model_name), []).append(
                    f"{s['id']!r} epoch {s['epoch']}"
                )
                continue
            seen[key] = log.label
            source.groups.setdefault((model, task), []).append((log, s))
    for (label, other, model_name), repeated in twice.items():
        shown = ", ".join(repeated[:5]) + (
            f" and {len(repeated) - 5} more" if len(repeated) > 5 else ""
        )
        source.problems.append(
            f"{label}: summaries.json: {len(repeated)} sample epoch(s) of {model_name} are also "
            f"in {other} ({shown}): a sample's epoch may appear once; import one of the two logs"
        )
    for model, model_logs in by_model_logs.items():
        entry = source.models[model]
        if len(model_logs) == 1:
            log = model_logs[0]
            metrics = published_metrics(log.header, source.scorers[log.label])
            results = (
                log.header.get("results") if isinstance(log.header.get("results"), dict) else {}
            )
            entry.published = {
                "log": log.label,
                "scorer": source.scorers[log.label],
                "score": published_score(metrics),
                "metrics": metrics,
                "total_samples": results.get("total_samples"),
                "completed_samples": results.get("completed_samples"),
            }
            # The header's metric is the figure Inspect shows for the run: the
            # row's published_score, so the site stores and shows a difference
            # from its own score as for every other format.
            # A metric outside [0, 1] (a numeric scorer's mean) is no score to
            # compare; it stays in x-inspect-results.
            score = entry.published["score"]
            entry.published_score = score if score is not None and 0 <= score <= 1 else None
        else:
            source.notes.append(
                f"{entry.display_name}: {len(model_logs)} logs; no one published figure for them"
            )
    if source.problems:
        raise SourceError(source.problems)
    return source
