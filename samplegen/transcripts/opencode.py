"""OpenCode's ``opencode run --format json`` transcript."""

from __future__ import annotations

from typing import Any

from samplegen.ids import rand_b62, rand_hex
from samplegen.trajectory import Ctx
from samplegen.transcripts.common import ndjson_line


def opencode_transcript(events: list[dict[str, Any]], ctx: Ctx, summary: dict[str, Any]) -> str:
    rng = ctx.rng
    sid = ctx.session_id
    lines: list[str] = []
    step: dict[str, Any] | None = None
    per_token = summary["cost"]["usd"] / max(1, summary["cost"]["input_tokens"])

    def envelope(kind: str, at: int, **rest: Any) -> str:
        return ndjson_line({"type": kind, "timestamp": at, "sessionID": sid, **rest})

    def open_step(at: int) -> dict[str, Any]:
        message_id = f"msg_{rand_hex(rng, 12)}{rand_b62(rng, 14)}"
        lines.append(
            envelope(
                "step_start",
                at,
                part={
                    "id": f"prt_{rand_hex(rng, 12)}{rand_b62(rng, 14)}",
                    "sessionID": sid,
                    "messageID": message_id,
                    "type": "step-start",
                    "snapshot": rand_hex(rng, 40),
                },
            )
        )
        return {"message_id": message_id, "input": 0, "output": 0}

    def close_step(at: int, reason: str) -> None:
        assert step is not None
        lines.append(
            envelope(
                "step_finish",
                at,
                part={
                    "id": f"prt_{rand_hex(rng, 12)}{rand_b62(rng, 14)}",
                    "sessionID": sid,
                    "messageID": step["message_id"],
                    "type": "step-finish",
                    "reason": reason,
                    "snapshot": rand_hex(rng, 40),
                    "cost": round(step["input"] * per_token, 6),
                    "tokens": {
                        "input": step["input"],
                        "output": step["output"],
                        "reasoning": 0,
                        "cache": {"read": 0, "write": 0},
                    },
                },
            )
        )

    for event in events:
        kind = event["type"]
        at = ctx.times[event["index"]]
        if kind == "error":
            lines.append(
                envelope(
                    "error",
                    at,
                    error={
                        "name": "APIError" if event.get("source") == "provider" else "UnknownError",
                        "data": {"message": event["text"], "isRetryable": True},
                    },
                )
            )
            continue
        if step is None:
            step = open_step(at)
        tokens = event.get("tokens", {"input": 0, "output": 0})
        step["input"] += tokens["input"]
        step["output"] += tokens["output"]
        part: dict[str, Any] = {
            "id": f"prt_{rand_hex(rng, 12)}{rand_b62(rng, 14)}",
            "sessionID": sid,
            "messageID": step["message_id"],
        }
        if kind in ("message", "reasoning"):
            part.update(
                {
                    "type": "text" if kind == "message" else "reasoning",
                    "text": event["text"],
                    "time": {"start": at, "end": at},
                }
            )
            lines.append(envelope("text" if kind == "message" else "reasoning", at, part=part))
            # Each event is one model call here: its step carries its tokens.
            close_step(at, "stop")
            step = None
            continue
        result = event["result"]
        end = at + event.get("duration_ms", 0)
        state: dict[str, Any]
        # A bash command that ran and exited non-zero still "completes"; a
        # timeout (no exit code) or a failing tool is an error state.
        if result["ok"] or (event["tool"] == "bash" and result["exit_code"] is not None):
            metadata: dict[str, Any] = {}
            if event["tool"] == "bash":
                metadata = {
                    "output": result["output"],
                    "exit": result["exit_code"],
                    "description": event["input"].get("description", ""),
                }
            state = {
                "status": "completed",
                "input": event["input"],
                "output": result["output"],
                "title": event["input"].get("description", event["tool"]),
                "metadata": metadata,
                "time": {"start": at, "end": end},
            }
        else:
            state = {
                "status": "error",
                "input": event["input"],
                "error": result["output"],
                "time": {"start": at, "end": end},
            }
        part.update(
            {"type": "tool", "callID": rand_b62(rng, 16), "tool": event["tool"], "state": state}
        )
        lines.append(envelope("tool_use", end, part=part))
        close_step(end, "tool-calls")
        step = None
    return "\n".join(lines) + "\n"
