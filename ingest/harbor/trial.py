"""One Harbor trial folder → a ``Trial``: what the release's attempt is made of.

Every field the Harbor spec marks optional is read as optional (old and new
Harbor versions both occur). Refusals name the trial folder and the file.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ingest import schema
from ingest.harbor.layout import RESULT, TrialFolder
from trajectories.normalise import atif

REWARD_TXT = "verifier/reward.txt"
REWARD_JSON = "verifier/reward.json"
CTRF = "verifier/ctrf.json"
TEST_STDOUT = "verifier/test-stdout.txt"
ATIF = "agent/trajectory.json"


class TrialProblem(ValueError):
    pass


@dataclass
class CheckResult:
    name: str
    status: str  # passed, failed, skipped, ... as ctrf says
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "passed"


@dataclass
class Trial:
    folder: TrialFolder
    task_name: str
    trial_name: str
    agent: str
    agent_version: str | None
    model_name: str
    provider: str
    trial_id: str | None
    task_checksum: str | None
    dataset: str | None
    reward: float | None
    reward_file: str | None
    rewards: dict[str, Any] | None
    tests: list[CheckResult] | None  # None: no ctrf.json
    exception: dict[str, Any] | None
    finished: bool
    started_at: str | None
    finished_at: str | None
    duration_s: float
    cost_usd: float | None
    input_tokens: int | None
    output_tokens: int | None
    cache_tokens: int | None
    atif_bytes: bytes | None
    raw_log_name: str | None
    raw_log: bytes | None
    test_stdout: str | None
    ticket: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.folder.label


# Harbor writes naive timestamps (``2025-11-19T14:18:43.882955``): they are UTC,
# and are written with ``Z`` (the ATIF normaliser's rule, so both agree).
utc = atif.utc
_OFFSET = re.compile(r"(Z|[+-]\d\d:?\d\d)$")


def _instant(ts: str | None) -> datetime | None:
    """An absolute time, or None when ``ts`` is none or gives no UTC offset."""
    if not ts or not _OFFSET.search(ts):
        return None
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None


def exception_time(raw: Any, started: str | None, finished: str | None) -> dict[str, Any]:
    """When the exception was raised, as far as the file says.

    Harbor writes ``exception_info.occurred_at`` without a UTC offset in the
    runner's local time (in real jobs hours away from the trial's own UTC
    times), so a time without an offset is no absolute time: it is kept as
    written, ``occurred_at_local``, and ``occurred_at`` is null. A time with an
    offset is ``occurred_at`` only when it lies within the trial's start and
    end; outside them it is kept as written too, never shown as when it happened.
    """
    if not isinstance(raw, str) or not raw:
        return {"occurred_at": None}
    moment = _instant(raw)
    if moment is None:
        return {"occurred_at": None, "occurred_at_local": raw}
    start, end = _instant(started), _instant(finished)
    if (start and moment < start) or (end and moment > end):
        return {"occurred_at": None, "occurred_at_as_written": raw}
    return {"occurred_at": utc(raw)}


def _seconds(start: str | None, end: str | None) -> float:
    if not start or not end:
        return 0.0
    try:
        a = datetime.fromisoformat(start.replace("Z", "+00:00"))
        b = datetime.fromisoformat(end.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    return max(0.0, (b - a).total_seconds())


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _obj(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def read_trial(folder: TrialFolder) -> Trial:
    """Read one trial; raises TrialProblem naming the folder and the file."""
    where = folder.label
    doc = folder.result
    task_name = doc.get("task_name")
    if not isinstance(task_name, str) or not task_name:
        raise TrialProblem(f"{where}: {RESULT}: task_name: expected a non-empty string")
    agent_info = _obj(doc.get("agent_info"))
    agent = agent_info.get("name")
    if not isinstance(agent, str) or not agent:
        raise TrialProblem(f"{where}: {RESULT}: agent_info.name: expected a non-empty string")
    model_info = _obj(agent_info.get("model_info"))
    model_name = model_info.get("name") if isinstance(model_info.get("name"), str) else ""
    provider = model_info.get("provider") if isinstance(model_info.get("provider"), str) else ""
    agent_result = _obj(doc.get("agent_result"))
    started, finished = utc(doc.get("started_at")), utc(doc.get("finished_at"))
    exception = doc.get("exception_info")
    exception = (
        {
            "type": str(exception.get("exception_type") or "Exception"),
            "message": str(exception.get("exception_message") or ""),
            **exception_time(exception.get("occurred_at"), started, finished),
        }
        if isinstance(exception, dict)
        else None
    )
    reward, reward_file, rewards = _reward(folder, doc)
    raw_name = f"agent/{agent}.txt"
    trial = Trial(
        folder=folder,
        task_name=task_name,
        trial_name=str(doc.get("trial_name") or folder.prefix.rstrip("/").rsplit("/", 1)[-1]),
        agent=agent,
        agent_version=agent_info.get("version")
        if isinstance(agent_info.get("version"), str)
        else None,
        model_name=model_name,
        provider=provider,
        trial_id=doc.get("id") if isinstance(doc.get("id"), str) else None,
        task_checksum=doc.get("task_checksum")
        if isinstance(doc.get("task_checksum"), str)
        else None,
        dataset=doc.get("source") if isinstance(doc.get("source"), str) else None,
        reward=reward,
        reward_file=reward_file,
        rewards=rewards,
        tests=_ctrf(folder),
        exception=exception,
        finished=finished is not None,
        started_at=started,
        finished_at=finished,
        duration_s=_seconds(started, finished),
        cost_usd=_number(agent_result.get("cost_usd")),
        input_tokens=_int(agent_result.get("n_input_tokens")),
        output_tokens=_int(agent_result.get("n_output_tokens")),
        cache_tokens=_int(agent_result.get("n_cache_tokens")),
        atif_bytes=folder.read(ATIF) if folder.has(ATIF) else None,
        raw_log_name=raw_name if folder.has(raw_name) else None,
        raw_log=folder.read(raw_name) if folder.has(raw_name) else None,
        test_stdout=_text(folder, TEST_STDOUT),
    )
    return trial


def _text(folder: TrialFolder, name: str) -> str | None:
    if not folder.has(name):
        return None
    return folder.read(name).decode("utf-8", errors="replace")


def _reward(folder: TrialFolder, doc: dict) -> tuple[float | None, str | None, dict | None]:
    """The verifier's reward: reward.txt (one number), else reward.json (the key
    ``reward``, or its only key), else result.json's ``verifier_result.rewards``."""
    where = folder.label
    if folder.has(REWARD_TXT):
        text = folder.read(REWARD_TXT).decode("utf-8", errors="replace").strip()
        try:
            value = float(text)
        except ValueError:
            raise TrialProblem(
                f"{where}: {REWARD_TXT}: expected a single number, got {text[:40]!r}"
            ) from None
        if not math.isfinite(value):
            raise TrialProblem(f"{where}: {REWARD_TXT}: {text!r} is not a finite number")
        return value, REWARD_TXT, None
    if folder.has(REWARD_JSON):
        try:
            rewards = schema.parse_json(folder.read(REWARD_JSON))
        except ValueError as exc:
            raise TrialProblem(f"{where}: {REWARD_JSON}: {exc}") from None
        return _pick_reward(rewards, f"{where}: {REWARD_JSON}"), REWARD_JSON, rewards
    rewards = _obj(doc.get("verifier_result")).get("rewards")
    if rewards is None:
        return None, None, None
    return _pick_reward(rewards, f"{where}: {RESULT}: verifier_result.rewards"), RESULT, rewards


def _pick_reward(rewards: Any, where: str) -> float:
    if not isinstance(rewards, dict) or not rewards:
        raise TrialProblem(f"{where}: expected an object of named numbers")
    if "reward" in rewards:
        key = "reward"
    elif len(rewards) == 1:
        (key,) = rewards
    else:
        keys = ", ".join(sorted(rewards))
        raise TrialProblem(
            f"{where}: several rewards ({keys}) and none named 'reward': "
            "which one decides is not known"
        )
    value = _number(rewards[key])
    if value is None:
        raise TrialProblem(f"{where}: {key}: expected a number")
    return value


def _ctrf(folder: TrialFolder) -> list[CheckResult] | None:
    if not folder.has(CTRF):
        return None
    where = f"{folder.label}: {CTRF}"
    try:
        doc = schema.parse_json(folder.read(CTRF))
    except ValueError as exc:
        raise TrialProblem(f"{where}: {exc}") from None
    tests = _obj(_obj(doc).get("results")).get("tests")
    if not isinstance(tests, list):
        raise TrialProblem(f"{where}: results.tests: expected an array")
    found: list[CheckResult] = []
    seen: dict[str, int] = {}
    for i, test in enumerate(tests):
        if not isinstance(test, dict) or not isinstance(test.get("name"), str):
            raise TrialProblem(f"{where}: results.tests[{i}].name: expected a string")
        status = test.get("status") if isinstance(test.get("status"), str) else "other"
        name = test["name"]
        # Check names are unique within a verdict; a repeated test is numbered.
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            name = f"{name} ({seen[name]})"
        message = test.get("message") if isinstance(test.get("message"), str) else ""
        found.append(CheckResult(name, status, f"{status}: {message}" if message else status))
    return found


def read_ticket(events: list[dict[str, Any]], atif_bytes: bytes | None) -> str:
    """The ticket: the first user step's message."""
    for event in events:
        if event.get("type") == "user" and not event.get("observation"):
            return event.get("text") or ""
    if atif_bytes:
        try:
            doc = schema.parse_json(atif_bytes)
        except ValueError:
            return ""
        for step in _obj(doc).get("steps") or []:
            if isinstance(step, dict) and step.get("source") == "user":
                return atif.text_of(step.get("message"))
    return ""
