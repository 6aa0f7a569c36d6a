"""Codex CLI's ``codex exec --json`` transcript."""

from __future__ import annotations

from typing import Any

from formats.v1.scoring import MISSING_VERDICT
from samplegen.trajectory import Ctx
from samplegen.transcripts.common import ndjson_line


def codex_transcript(events: list[dict[str, Any]], ctx: Ctx, summary: dict[str, Any]) -> str:
    lines = [
        ndjson_line({"type": "thread.started", "thread_id": ctx.session_id}),
        ndjson_line({"type": "turn.started"}),
    ]
    item = 0
    failed = MISSING_VERDICT in summary["flags"]
    for event in events:
        kind = event["type"]
        if failed and event is events[-1] and kind == "error":
            continue  # the turn's failure is the turn.failed line (below)
        if kind == "error":
            if event.get("source") == "provider":
                lines.append(ndjson_line({"type": "error", "message": event["text"]}))
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
            item_doc: dict[str, Any] = {
                "id": ident,
                "type": "file_change",
                "changes": event["input"]["changes"],
                "status": "in_progress",
            }
            if result is None:
                lines.append(ndjson_line({"type": "item.started", "item": item_doc}))
            else:
                item_doc["status"] = "completed" if result["ok"] else "failed"
                lines.append(ndjson_line({"type": "item.completed", "item": item_doc}))
        else:
            search = {"id": ident, "type": "web_search", "query": event["input"]["query"]}
            phase = "item.started" if result is None else "item.completed"
            lines.append(ndjson_line({"type": phase, "item": search}))
    cost = summary["cost"]
    if failed:
        lines.append(ndjson_line({"type": "turn.failed", "error": {"message": events[-1]["text"]}}))
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
