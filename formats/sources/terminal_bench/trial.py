"""One trial of a run: its entry in the run's ``results[]`` and, where it has one, its folder.

The entry decides: ``is_resolved`` is the outcome, ``parser_results`` the
tests, ``failure_mode`` what went wrong. The folder
(``<run>/<task_id>/<trial_name>/``) adds the recording
(``sessions/agent.cast``) and the test pane (``panes/post-test.txt``); a
trial without a folder is a trial all the same, with no events. Refusals
name the run's results file and the entry's JSON path.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from formats.sources.terminal_bench.runs import Run

# What the site's columns hold: a check's name, a task's title.
CHECK_NAME_MAX = 200
TASK_NAME_MAX = 300
# RFC 3339 with an offset or Z (what v1 timestamps are).
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")
CAST = "sessions/agent.cast"
TEST_PANE = "panes/post-test.txt"
# failure_mode values that say nothing went wrong.
NO_FAILURE = frozenset({"unset", "none", ""})
# Terminal-Bench's timeouts under the names the exceptions rules know
# (formats.v1.scoring.TIMEOUT_EXCEPTIONS): a timed-out trial still counts.
TIMEOUTS = {"agent_timeout": "AgentTimeoutError", "test_timeout": "VerifierTimeoutError"}
STATUSES = frozenset({"passed", "failed", "skipped", "error"})


class TrialProblem(ValueError):
    """A trial that cannot be imported, named by its run's file and JSON path."""


def utc(ts: str) -> str:
    """A time as v1 writes it: "+00:00" as "Z", one without an offset taken as UTC."""
    if ts.endswith("+00:00"):
        return ts[:-6] + "Z"
    if re.search(r"(Z|[+-]\d\d:\d\d)$", ts):
        return ts
    return ts + "Z"


@dataclass
class Test:
    name: str
    status: str

    @property
    def passed(self) -> bool:
        return self.status == "passed"


@dataclass
class TBTrial:
    run: Run
    position: int  # its index in the run's results[]
    task_id: str
    trial_name: str
    resolved: bool | None
    failure_mode: str | None
    tests: list[Test] | None
    instruction: str
    input_tokens: int | None
    output_tokens: int | None
    started_at: str | None
    finished_at: str | None
    trial_id: str | None
    entry: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.run.label}: results[{self.position}]"

    @property
    def folder(self) -> str:
        return f"{self.run.folder}{self.task_id}/{self.trial_name}/"

    @property
    def exception(self) -> str | None:
        mode = self.failure_mode or ""
        if mode in NO_FAILURE:
            return None
        return TIMEOUTS.get(mode, mode)

    @property
    def duration_s(self) -> float:
        return _seconds(self.started_at, self.finished_at)


def _seconds(start: str | None, end: str | None) -> float:
    if not start or not end:
        return 0.0
    a = datetime.fromisoformat(start.replace("Z", "+00:00"))
    b = datetime.fromisoformat(end.replace("Z", "+00:00"))
    return max(0.0, (b - a).total_seconds())


def _timestamp(value: Any, where: str) -> str | None:
    if value is None:
        return None
    stamp = utc(value) if isinstance(value, str) else None
    if stamp is None or _RFC3339.fullmatch(stamp) is None:
        raise TrialProblem(f"{where}: {str(value)[:80]!r} is not an ISO 8601 date and time")
    try:
        datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        raise TrialProblem(f"{where}: {stamp[:80]!r} is not a real date and time") from None
    return stamp


def _count(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise TrialProblem(f"{where}: expected a whole number of tokens, 0 or more")
    return value


def _text(value: Any, where: str, limit: int | None = None) -> str:
    if not isinstance(value, str) or not value:
        raise TrialProblem(f"{where}: expected a non-empty string")
    if limit is not None and len(value) > limit:
        raise TrialProblem(f"{where}: expected at most {limit} characters")
    if "/" in value or value in (".", ".."):
        raise TrialProblem(f"{where}: {value[:80]!r} is not a folder name")
    return value


def _tests(value: Any, where: str) -> list[Test] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise TrialProblem(f"{where}: expected an object of test name -> status")
    tests = []
    names: set[str] = set()
    for name, status in value.items():
        if not isinstance(status, str):
            raise TrialProblem(f"{where}[{name[:80]!r}]: expected a status string")
        shown = name if len(name) <= CHECK_NAME_MAX else name[: CHECK_NAME_MAX - 1] + "…"
        while shown in names:  # two long names cut alike stay apart
            shown = shown[:-2] + "…" + str(len(names) % 10)
        names.add(shown)
        tests.append(Test(shown, status if status in STATUSES else status[:40]))
    return tests


def read_entry(run: Run, position: int) -> TBTrial:
    """The trial at ``results[position]`` of ``run``."""
    where = f"{run.label}: results[{position}]"
    entry = run.entries[position]
    if not isinstance(entry, dict):
        raise TrialProblem(f"{where}: expected an object")
    resolved = entry.get("is_resolved")
    if resolved is not None and not isinstance(resolved, bool):
        raise TrialProblem(f"{where}.is_resolved: expected true, false or null")
    mode = entry.get("failure_mode")
    if mode is not None and not isinstance(mode, str):
        raise TrialProblem(f"{where}.failure_mode: expected a string")
    instruction = entry.get("instruction")
    if instruction is not None and not isinstance(instruction, str):
        raise TrialProblem(f"{where}.instruction: expected a string")
    trial_id = entry.get("id", entry.get("uuid"))
    started = _timestamp(entry.get("trial_started_at"), f"{where}.trial_started_at")
    finished = _timestamp(entry.get("trial_ended_at"), f"{where}.trial_ended_at")
    meta = f"{run.label.rsplit('/', 1)[0]}/run_metadata.json"
    run_start = _timestamp(run.metadata.get("start_time"), f"{meta}: start_time")
    run_end = _timestamp(run.metadata.get("end_time"), f"{meta}: end_time")
    trial = TBTrial(
        run=run,
        position=position,
        task_id=_text(entry.get("task_id"), f"{where}.task_id", TASK_NAME_MAX),
        trial_name=_text(entry.get("trial_name"), f"{where}.trial_name", 255),
        resolved=resolved,
        failure_mode=mode,
        tests=_tests(entry.get("parser_results"), f"{where}.parser_results"),
        instruction=instruction or "",
        input_tokens=_count(entry.get("total_input_tokens"), f"{where}.total_input_tokens"),
        output_tokens=_count(entry.get("total_output_tokens"), f"{where}.total_output_tokens"),
        # A trial without its own times (older tb) takes its run's.
        started_at=started or run_start,
        finished_at=finished or run_end or started or run_start,
        trial_id=trial_id if isinstance(trial_id, str) else None,
        entry=entry,
    )
    if not started and run_start:
        trial.notes.append("no times of its own; its run's start and end are shown")
    if not math.isfinite(trial.duration_s):
        raise TrialProblem(f"{where}: its times give no duration")
    return trial
