"""One Harbor trial folder → a ``Trial``: what the release's attempt is made of.

Every field the Harbor spec marks optional is read as optional (old and new
Harbor versions both occur). Refusals name the trial folder and the file.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.conf import settings

from formats.normalise import atif
from formats.sources.harbor.layout import RESULT, TrialFolder
from formats.sources.harbor.scrubbing import TrialScrub
from formats.v1 import schema, sizes
from formats.v1.schema_base import _RFC3339

REWARD_TXT = "verifier/reward.txt"
REWARD_JSON = "verifier/reward.json"
CTRF = "verifier/ctrf.json"
TEST_STDOUT = "verifier/test-stdout.txt"
ATIF = "agent/trajectory.json"


# What a trial's names become: the database columns they must fit.
CHECK_NAME_MAX = sizes.CHECK_NAME
AGENT_MAX = sizes.HARNESS
MODEL_NAME_MAX = sizes.MODEL_NAME
PROVIDER_MAX = sizes.PROVIDER
NUMBER_MAX = settings.BENCHVIEW_LIMITS["number_max_abs"]
TASK_NAME_MAX = sizes.TASK_TITLE
# An exception type is a class name (Harbor writes ``type(e).__name__``).
EXCEPTION_TYPE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,99}")
# A reward.txt number as Harbor's verifiers write it: ASCII digits only, so
# neither "1_0" (ten, to Python's float) nor U+0661 (Arabic-Indic one) passes.
REWARD_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class TrialProblem(ValueError):
    pass


class _Files:
    """A trial folder's files as the adapter reads them: through the scrubber, if any."""

    def __init__(self, folder: TrialFolder, scrub: TrialScrub | None):
        self.folder, self.scrub, self.label = folder, scrub, folder.label

    def has(self, name: str) -> bool:
        return self.folder.has(name)

    def read(self, name: str) -> bytes:
        data = self.folder.read(name)
        return self.scrub.data(self.label, name, data) if self.scrub else data


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


def _timestamp(value: Any, where: str) -> str | None:
    """A result.json time as written to the release, or None when absent."""
    stamp = utc(value)
    if stamp is None:
        return None
    match = _RFC3339.fullmatch(stamp)
    if match is None or not _real_date(match.group(1)):
        raise TrialProblem(f"{where}: {str(value)[:80]!r} is not an ISO 8601 date and time")
    return stamp


def _real_date(day: str) -> bool:
    try:
        datetime.fromisoformat(day)
    except ValueError:
        return False
    return True


def _name(value: Any, where: str, limit: int, *, required: bool = False) -> str:
    """A name the site stores in a column: a string of at most ``limit`` characters."""
    if value is None or value == "":
        if required:
            raise TrialProblem(f"{where}: expected a non-empty string")
        return ""
    if not isinstance(value, str):
        raise TrialProblem(f"{where}: expected a string")
    if len(value) > limit or "\x00" in value:
        raise TrialProblem(
            f"{where}: expected at most {limit} characters and no NUL, got {len(value)}"
        )
    return value


def _amount(value: Any, where: str, kind: type = float) -> Any:
    """A cost or token count: absent (None), else a finite number from 0 up to the limit."""
    if value is None:
        return None
    number = _number(value)
    if number is None or (kind is int and not isinstance(value, int)):
        raise TrialProblem(f"{where}: expected {'an integer' if kind is int else 'a number'}")
    if not 0 <= number <= NUMBER_MAX:
        raise TrialProblem(f"{where}: {value!r} is out of range (0 to {NUMBER_MAX:g})")
    return value if kind is int else number


def _exception(
    value: Any, where: str, started: str | None, finished: str | None
) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    kind = value.get("exception_type") or "Exception"
    if not isinstance(kind, str) or not EXCEPTION_TYPE.fullmatch(kind):
        shown = str(kind)
        size = f" ({len(shown)} characters)" if len(shown) > 40 else ""
        raise TrialProblem(
            f"{where}.exception_type: expected an exception class name of at most 100 "
            f"characters, got {shown[:40]!r}{size}"
        )
    return {
        "type": kind,
        "message": str(value.get("exception_message") or ""),
        # Refused unless a date and time; then placed by exception_time.
        **(
            exception_time(value.get("occurred_at"), started, finished)
            if _timestamp(value.get("occurred_at"), f"{where}.occurred_at")
            else {"occurred_at": None}
        ),
    }


def read_head(folder: TrialFolder, scrub: TrialScrub | None = None) -> Trial:
    """A trial as its result.json tells it, without reading its other files
    (``read_trial`` adds them). Raises TrialProblem naming the folder, its own
    file and the field. ``scrub`` finds (and, if it rewrites, rewrites) what
    must not reach the site."""
    where = folder.label
    doc = scrub.document(where, RESULT, folder.result) if scrub else folder.result
    at = f"{where}: {RESULT}"
    task_name = _name(doc.get("task_name"), f"{at}: task_name", TASK_NAME_MAX, required=True)
    agent_info = _obj(doc.get("agent_info"))
    agent = _name(agent_info.get("name"), f"{at}: agent_info.name", AGENT_MAX, required=True)
    model_info = _obj(agent_info.get("model_info"))
    model_name = model_info.get("name") if isinstance(model_info.get("name"), str) else ""
    model_name = _name(model_name, f"{at}: agent_info.model_info.name", MODEL_NAME_MAX)
    provider = model_info.get("provider") if isinstance(model_info.get("provider"), str) else ""
    provider = _name(provider, f"{at}: agent_info.model_info.provider", PROVIDER_MAX)
    agent_result = _obj(doc.get("agent_result"))
    started = _timestamp(doc.get("started_at"), f"{at}: started_at")
    finished = _timestamp(doc.get("finished_at"), f"{at}: finished_at")
    costs = f"{at}: agent_result"
    # What read_trial still needs of result.json: the head is kept for every
    # trial until the import ends, the rest of the document is not.
    kept = replace(folder, result={"verifier_result": folder.result.get("verifier_result")})
    return Trial(
        folder=kept,
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
        reward=None,
        reward_file=None,
        rewards=None,
        tests=None,
        exception=_exception(doc.get("exception_info"), f"{at}: exception_info", started, finished),
        finished=finished is not None,
        started_at=started,
        finished_at=finished,
        duration_s=_seconds(started, finished),
        cost_usd=_amount(agent_result.get("cost_usd"), f"{costs}.cost_usd"),
        input_tokens=_amount(agent_result.get("n_input_tokens"), f"{costs}.n_input_tokens", int),
        output_tokens=_amount(agent_result.get("n_output_tokens"), f"{costs}.n_output_tokens", int),
        cache_tokens=_amount(agent_result.get("n_cache_tokens"), f"{costs}.n_cache_tokens", int),
        atif_bytes=None,
        raw_log_name=None,
        raw_log=None,
        test_stdout=None,
    )


def read_trial(head: Trial, scrub: TrialScrub | None = None) -> Trial:
    """``head`` (read_head) with the trial's other files read: reward, ctrf, ATIF,
    raw agent log, test output. A new Trial: the head stays as small as it was."""
    files = _Files(head.folder, scrub)
    reward, reward_file, rewards = _reward(files, head.folder.result)
    raw_name = f"agent/{head.agent}.txt"
    notes = list(head.notes)
    return replace(
        head,
        reward=reward,
        reward_file=reward_file,
        rewards=rewards,
        atif_bytes=files.read(ATIF) if files.has(ATIF) else None,
        raw_log_name=raw_name if files.has(raw_name) else None,
        raw_log=files.read(raw_name) if files.has(raw_name) else None,
        test_stdout=_text(files, TEST_STDOUT),
        tests=_ctrf(files, notes),
        notes=notes,
    )


def _text(folder: _Files, name: str) -> str | None:
    if not folder.has(name):
        return None
    return folder.read(name).decode("utf-8", errors="replace")


def _reward(folder: _Files, doc: dict) -> tuple[float | None, str | None, dict | None]:
    """The verifier's reward: reward.txt (one number), else reward.json (the key
    ``reward``, or its only key), else result.json's ``verifier_result.rewards``."""
    where = folder.label
    if folder.has(REWARD_TXT):
        text = folder.read(REWARD_TXT).decode("utf-8", errors="replace").strip()
        if not REWARD_TEXT.fullmatch(text):
            raise TrialProblem(
                f"{where}: {REWARD_TXT}: expected a single number, got {text[:40]!r}"
            )
        value = _reward_value(float(text), f"{where}: {REWARD_TXT}")
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
    return _reward_value(value, f"{where}: {key}")


def _reward_value(value: float, where: str) -> float:
    """A reward is a finite number from 0 up (a verifier's 0 to 1, or a count)."""
    if not 0 <= value <= NUMBER_MAX:
        raise TrialProblem(f"{where}: {value:g} is not a reward (0 or more, finite)")
    return value


def _ctrf(folder: _Files, notes: list[str]) -> list[CheckResult] | None:
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
    cut = 0
    for i, test in enumerate(tests):
        if not isinstance(test, dict) or not isinstance(test.get("name"), str):
            raise TrialProblem(f"{where}: results.tests[{i}].name: expected a string")
        status = test.get("status") if isinstance(test.get("status"), str) else "other"
        name = test["name"].replace("\x00", "\ufffd")
        # Check names are unique within a verdict; a repeated test is numbered.
        seen[name] = seen.get(name, 0) + 1
        suffix = f" ({seen[name]})" if seen[name] > 1 else ""
        if len(name) + len(suffix) > CHECK_NAME_MAX:
            # A check name is a column; the ctrf tests are detail (the reward decides).
            name = name[: CHECK_NAME_MAX - len(suffix) - 1] + "\u2026"
            cut += 1
        name += suffix
        message = test.get("message") if isinstance(test.get("message"), str) else ""
        found.append(CheckResult(name, status, f"{status}: {message}" if message else status))
    if cut:
        notes.append(f"{CTRF}: {cut} test name(s) longer than {CHECK_NAME_MAX} characters, cut")
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
