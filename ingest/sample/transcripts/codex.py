"""Codex CLI's ``codex exec --json`` transcript."""

from __future__ import annotations

from typing import Any

from ingest.sample.trajectory import Ctx
from ingest.sample.transcripts.common import TRANSCRIPT_EVENT_CAP, ndjson_line
from leaderboard.scoring import MISSING_VERDICT


def codex_transcript(events: list[dict[str, Any]], ctx: Ctx, summary: dict[str, Any]) -> str:
    lines = [
        ndjson_line({"type": "thread.started", "thread_id": ctx.session_id}),
        ndjson_line({"type": "turn.started"}),
    ]
    item = 0
    for event in events[:TRANSCRIPT_EVENT_CAP]:
        kind = event["type"]
        if kind in ("system", "user"):
            # codex exec prints neither the session header nor the prompt.
            continue
        if kind == "error":
            if event.get("source") == "provider":
                lines.append(
                    ndjson_line(
                        {"type": "error", "message": f"Reconnecting... 1/5 ({event['text']})"}
                    )
                )
            else:
                lines.append(
                    ndjson_line(
                        {
                            "type": "item.completed",
                            "item": {
                                "id": f"item_{item}",
                                "type": "error",
                                "message": event["text"],
                            },
                        }
                    )
                )
                item += 1
            continue
        if kind in ("reasoning", "message"):
            lines.append(
                ndjson_line(
                    {
                        "type": "item.completed",
                        "item": {
                            "id": f"item_{item}",
                            "type": "reasoning" if kind == "reasoning" else "agent_message",
                            "text": event["text"],
                        },
                    }
                )
            )
            item += 1
            continue
        result = event["result"]
        ident = f"item_{item}"
        item += 1
        if event["tool"] == "shell":
            command = event["input"]["command"]
            lines.append(
                ndjson_line(
                    {
                        "type": "item.started",
                        "item": {
                            "id": ident,
                            "type": "command_execution",
                            "command": command,
                            "aggregated_output": "",
                            "exit_code": None,
                            "status": "in_progress",
                        },
                    }
                )
            )
            if result is not None:
                lines.append(
                    ndjson_line(
                        {
                            "type": "item.completed",
                            "item": {
                                "id": ident,
                                "type": "command_execution",
                                "command": command,
                                "aggregated_output": result["output"],
                                "exit_code": result["exit_code"],
                                "status": "completed" if result["ok"] else "failed",
                            },
                        }
                    )
                )
        elif event["tool"] == "apply_patch":
            if result is not None:
                lines.append(
                    ndjson_line(
                        {
                            "type": "item.completed",
                            "item": {
                                "id": ident,
                                "type": "file_change",
                                "changes": event["input"]["changes"],
                                "status": "completed" if result["ok"] else "failed",
                            },
                        }
                    )
                )
        elif result is not None:
            lines.append(
                ndjson_line(
                    {
                        "type": "item.completed",
                        "item": {
                            "id": ident,
                            "type": "web_search",
                            "query": event["input"]["query"],
                        },
                    }
                )
            )
    cost = summary["cost"]
    if MISSING_VERDICT in summary["flags"]:
        lines.append(
            ndjson_line(
                {
                    "type": "turn.failed",
                    "error": {"message": "stream disconnected before completion: 529 overloaded"},
                }
            )
        )
    else:
        lines.append(
            ndjson_line(
                {
                    "type": "turn.completed",
                    "usage": {
                        "input_tokens": cost["input_tokens"],
                        "cached_input_tokens": cost.get("cache_read_tokens", 0),
                        "output_tokens": cost["output_tokens"],
                    },
                }
            )
        )
    return "\n".join(lines) + "\n"
