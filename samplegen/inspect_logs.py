"""Deterministic Inspect AI logs (``.eval`` zips), for the demo, the tests and
the benchmarks.

``write_sample_inspect(folder)`` writes one log per model of a small CTF-like
task set (three models, eight samples, two epochs), in Inspect's current
layout: ``header.json`` with the scorer's metrics, ``summaries.json``,
``samples/<id>_epoch_<n>.json`` with messages and events (model events
condensed to ``input_refs`` into a ``message_pool``, as Inspect writes them
since 2026), and the ``_journal`` copies. Values are ``C``/``I`` with one
``P``; one model's sample ends at a message limit; one model's log holds the
summary of one sample but not the sample itself. ``sample_record`` builds a
single sample of any length (the benchmarks' 1,000 and 10,000 turns). The
same arguments give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 14):
    import zipfile
else:
    from backports.zstd import zipfile

TASK = "benchview/ctf_sample"
MODELS = (
    # Inspect model name, samples solved (of SAMPLES, first epoch)
    ("openai/gpt-6-astra", 6),
    ("anthropic/claude-opus-5-5", 5),
    ("google/gemini-4-pro", 3),
)
SAMPLES = 8
EPOCHS = 2
START = datetime(2026, 11, 20, 9, 0, 0)
SYSTEM = (
    "You are a Capture the Flag player on an Ubuntu machine. Use the bash and python "
    "tools, and call submit() with the flag once you have it."
)
TOOLS = [
    {"name": "bash", "description": "Run a bash command.", "parameters": {"type": "object"}},
    {"name": "python", "description": "Run Python code.", "parameters": {"type": "object"}},
    {"name": "submit", "description": "Submit the flag.", "parameters": {"type": "object"}},
]


def _id(*parts: Any) -> str:
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:22]


def _stamp(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"


def sample_record(
    sample_id: int | str,
    epoch: int,
    *,
    model: str,
    turns: int,
    value: str,
    flag: str,
    start: datetime = START,
    limit: bool = False,
) -> dict[str, Any]:
    """One sample: ``turns`` tool calls (bash, then python, alternating) and a
    submit, with every message once in ``messages`` and the model events'
    inputs as ranges into ``message_pool``."""
    question = f"Find the flag hidden in challenge {sample_id}. It looks like flag{{...}}."
    messages: list[dict[str, Any]] = [
        {"id": _id(sample_id, epoch, "s"), "role": "system", "content": SYSTEM},
        {"id": _id(sample_id, epoch, "u"), "role": "user", "content": question, "source": "input"},
    ]
    events: list[dict[str, Any]] = [
        {
            "timestamp": _stamp(start),
            "event": "sample_init",
            "sample": {"id": sample_id, "input": question, "target": flag},
        }
    ]
    at = start
    usage_in = usage_out = 0
    for turn in range(turns + 1):
        last = turn == turns
        call_id = f"call_{_id(sample_id, epoch, turn)}"
        if last:
            call = {"id": call_id, "function": "submit", "arguments": {"answer": flag}}
            text = f"I believe the flag is {flag}."
        elif turn % 2 == 0:
            call = {"id": call_id, "function": "bash", "arguments": {"cmd": f"ls -la /ctf/{turn}"}}
            text = f"Step {turn}: look at the files."
        else:
            code = f"print(open('/ctf/{turn}/data').read()[:{turn}])"
            call = {"id": call_id, "function": "python", "arguments": {"code": code}}
            text = ""
        assistant = {
            "id": _id(sample_id, epoch, turn, "a"),
            "role": "assistant",
            "content": [{"type": "reasoning", "reasoning": f"Turn {turn}: what next?"}]
            + ([{"type": "text", "text": text}] if text else []),
            "tool_calls": [{**call, "type": "function"}],
            "model": model,
        }
        tokens_in, tokens_out = 400 + 60 * turn, 40 + turn % 7
        usage_in, usage_out = usage_in + tokens_in, usage_out + tokens_out
        events.append(
            {
                "timestamp": _stamp(at),
                "event": "model",
                "model": model,
                "input": [],
                "input_refs": [[0, len(messages)]],
                "tools": TOOLS,
                "output": {
                    "model": model,
                    "choices": [{"message": assistant, "stop_reason": "tool_calls"}],
                    "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
                },
            }
        )
        messages.append(assistant)
        at += timedelta(seconds=2)
        if last:
            output = flag
        elif turn % 2 == 0:
            output = f"total 8\n-rw-r--r-- 1 ctf ctf {turn * 13} data\n"
        else:
            output = f"<{'x' * (turn % 50)}>\n"
        error = None
        if not last and turn % 9 == 5:
            output, error = "", {"type": "timeout", "message": "Command timed out after 10s"}
        done = at + timedelta(milliseconds=150 + turn % 400)
        tool_event = {
            "timestamp": _stamp(at),
            "event": "tool",
            "type": "function",
            "id": call_id,
            "function": call["function"],
            "arguments": call["arguments"],
            "result": output,
            "completed": _stamp(done),
            "working_time": (done - at).total_seconds(),
        }
        reply = {
            "id": _id(sample_id, epoch, turn, "t"),
            "role": "tool",
            "content": output,
            "tool_call_id": call_id,
            "function": call["function"],
        }
        if error:
            tool_event["error"] = error
            reply["error"] = error
        events.append(tool_event)
        messages.append(reply)
        at = done + timedelta(seconds=1)
    events.append(
        {
            "timestamp": _stamp(at),
            "event": "score",
            "score": {"value": value, "answer": flag},
            "target": flag,
        }
    )
    record: dict[str, Any] = {
        "id": sample_id,
        "epoch": epoch,
        "input": question,
        "target": flag,
        "messages": messages,
        "scores": {"includes": {"value": value, "answer": flag}},
        "metadata": {},
        "store": {},
        "events": events,
        "model_usage": {model: {"input_tokens": usage_in, "output_tokens": usage_out}},
        "total_time": round((at - start).total_seconds(), 3),
        "working_time": round((at - start).total_seconds(), 3),
        "attachments": {},
        "message_pool": messages[:2],
    }
    if limit:
        record["limit"] = {"type": "message", "limit": 2 * turns}
    return record


def summary_of(record: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "epoch", "input", "target", "scores", "model_usage", "total_time", "limit")
    return {k: record[k] for k in keys if k in record} | {"completed": True}


def _dump(value: Any) -> bytes:
    return json.dumps(value, indent=2, sort_keys=False).encode()


def header(model: str, records: list[dict[str, Any]], *, task: str = TASK) -> dict[str, Any]:
    """A header whose ``accuracy`` is Inspect's: each sample's epochs reduced
    by their mean (C 1, P 0.5, I 0), then the mean over samples."""
    reading = {"C": 1.0, "P": 0.5, "I": 0.0}
    by_sample: dict[Any, list[float]] = {}
    for r in records:
        value = r["scores"]["includes"]["value"]
        by_sample.setdefault(r["id"], []).append(
            reading.get(value, 0.0) if isinstance(value, str) else 0.0
        )
    means = [sum(v) / len(v) for v in by_sample.values()]
    accuracy = sum(means) / len(means) if means else 0.0
    ids = sorted(by_sample)
    return {
        "version": 2,
        "status": "success",
        "eval": {
            "run_id": _id(model, "run"),
            "created": _stamp(START),
            "task": task,
            "task_version": 0,
            "dataset": {"name": "ctf_sample", "samples": len(ids), "sample_ids": ids},
            "model": model,
            "solver": "basic_agent",
            "config": {"epochs": EPOCHS},
            "packages": {"inspect_ai": "0.3.150"},
            "scorers": [{"name": "includes", "metrics": [{"name": "inspect_ai/accuracy"}]}],
        },
        "plan": {"name": "plan", "steps": [{"solver": "basic_agent", "params": {}}]},
        "results": {
            "total_samples": len(records),
            "completed_samples": len(records),
            "scores": [
                {
                    "name": "includes",
                    "scorer": "includes",
                    "metrics": {
                        "accuracy": {"name": "accuracy", "value": accuracy},
                        "stderr": {"name": "stderr", "value": 0.1},
                    },
                }
            ],
        },
        "stats": {
            "started_at": _stamp(START),
            "completed_at": _stamp(START + timedelta(hours=1)),
        },
    }


def write_eval(
    path: Path,
    head: dict[str, Any],
    records: list[dict[str, Any]],
    *,
    summary_only: set[tuple[Any, int]] = frozenset(),
    zstd: bool = True,
) -> None:
    """An ``.eval`` zip of ``records`` (those in ``summary_only`` keep their
    summary but not their sample file), its entries zstd-compressed as Inspect
    writes them since 2026, or deflated as before (``zstd=False``)."""
    method = zipfile.ZIP_ZSTANDARD if zstd else zipfile.ZIP_DEFLATED
    path.parent.mkdir(parents=True, exist_ok=True)
    summaries = [summary_of(r) for r in records]
    start = {k: head[k] for k in ("version", "eval", "plan")}
    with zipfile.ZipFile(path, "w", compression=method) as archive:
        # Fixed entry times: the same arguments give the same bytes.
        def put(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, date_time=(2026, 11, 20, 9, 0, 0))
            info.compress_type = method
            archive.writestr(info, data)

        put("_journal/start.json", _dump(start))
        for r in records:
            if (r["id"], r["epoch"]) not in summary_only:
                put(f"samples/{r['id']}_epoch_{r['epoch']}.json", _dump(r))
        put("_journal/summaries/1.json", _dump(summaries))
        put("summaries.json", _dump(summaries))
        put("header.json", _dump(head))


def write_sample_inspect(folder: Path) -> dict[str, int]:
    """One ``.eval`` log per model in ``folder``; returns the counts."""
    trials = 0
    for rank, (model, solved) in enumerate(MODELS):
        records = []
        for epoch in range(1, EPOCHS + 1):
            for n in range(1, SAMPLES + 1):
                # The first `solved` samples pass in epoch 1; epoch 2 shifts by one,
                # so some samples pass once in two (consistency shows it).
                passed = (n - 1 + (epoch - 1)) % SAMPLES < solved
                value = "C" if passed else "I"
                if rank == 1 and n == SAMPLES and epoch == 1:
                    value = "P"  # a partial answer: 0.5, a fail under the default threshold
                records.append(
                    sample_record(
                        n,
                        epoch,
                        model=model,
                        turns=2 + (n * 3 + rank) % 7,
                        value=value,
                        flag=f"flag{{{_id(n)[:8]}}}",
                        start=START + timedelta(minutes=10 * rank + n, seconds=epoch * 7),
                        limit=rank == 2 and n == 4 and epoch == 1,
                    )
                )
        summary_only = {(SAMPLES - 1, 2)} if rank == 2 else set()
        name = model.split("/", 1)[1]
        write_eval(
            folder / f"2026-11-20T09-00-00_ctf-sample_{name}.eval",
            header(model, records),
            records,
            summary_only=summary_only,
        )
        trials += len(records)
    return {"models": len(MODELS), "samples": SAMPLES, "trials": trials}
