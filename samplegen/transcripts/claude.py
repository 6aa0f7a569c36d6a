"""Claude Code's ``--output-format stream-json`` transcript."""

from __future__ import annotations

from typing import Any

from formats.v1.scoring import MISSING_VERDICT
from samplegen.catalog import HARNESS_TOOLS, HARNESS_VERSION
from samplegen.clock import iso
from samplegen.ids import rand_b62, rand_uuid
from samplegen.trajectory import Ctx
from samplegen.transcripts.common import ndjson_line


def claude_transcript(events: list[dict[str, Any]], ctx: Ctx, summary: dict[str, Any]) -> str:
    rng = ctx.rng
    model = ctx.attempt.model
    sid = ctx.session_id
    lines: list[str] = []
    last_text = ""
    turns = 0
    failed = MISSING_VERDICT in summary["flags"]
    for event in events:
        kind = event["type"]
        if failed and event is events[-1] and kind == "error":
            continue  # the final API error is the result line's (below)
        if kind == "system":
            lines.append(
                ndjson_line(
                    {
                        "type": "system",
                        "subtype": "init",
                        "cwd": event["cwd"],
                        "session_id": sid,
                        "tools": HARNESS_TOOLS["claude-code"],
                        "mcp_servers": [],
                        "model": event["model"],
                        "permissionMode": "bypassPermissions",
                        "slash_commands": ["compact", "cost", "review"],
                        "apiKeySource": "none",
                        "claude_code_version": HARNESS_VERSION["claude-code"].split()[-1],
                        "output_style": "default",
                        "agents": ["general-purpose"],
                        "skills": [],
                        "plugins": [],
                        "uuid": rand_uuid(rng),
                        "timestamp": event["ts"],
                    }
                )
            )
            continue
        if kind == "user":
            lines.append(
                ndjson_line(
                    {
                        "type": "user",
                        "message": {
                            "role": "user",
                            "content": [{"type": "text", "text": event["text"]}],
                        },
                        "parent_tool_use_id": None,
                        "session_id": sid,
                        "uuid": rand_uuid(rng),
                        "timestamp": event["ts"],
                    }
                )
            )
            continue
        usage = {
            "input_tokens": rng.randint(3, 400),
            "cache_creation_input_tokens": rng.randint(0, 4000),
            "cache_read_input_tokens": rng.randint(0, 90000),
            "output_tokens": rng.randint(4, 1200),
            "service_tier": "standard",
        }
        message: dict[str, Any] = {
            "id": f"msg_01{rand_b62(rng, 22)}",
            "type": "message",
            "role": "assistant",
            "model": model.model_version,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        line: dict[str, Any] = {
            "type": "assistant",
            "message": message,
            "parent_tool_use_id": None,
            "session_id": sid,
            "uuid": rand_uuid(rng),
            "timestamp": event["ts"],
        }
        turns += 1
        if kind == "error":
            message["model"] = "<synthetic>"
            message["content"] = [{"type": "text", "text": event["text"]}]
            line["error"] = "server_error"
            lines.append(ndjson_line(line))
            continue
        if kind == "reasoning":
            message["content"] = [
                {"type": "thinking", "thinking": event["text"], "signature": rand_b62(rng, 48)}
            ]
            lines.append(ndjson_line(line))
            continue
        if kind == "message":
            message["content"] = [{"type": "text", "text": event["text"]}]
            message["stop_reason"] = "end_turn"
            last_text = event["text"]
            lines.append(ndjson_line(line))
            continue
        call_id = f"toolu_01{rand_b62(rng, 22)}"
        message["content"] = [
            {"type": "tool_use", "id": call_id, "name": event["tool"], "input": event["input"]}
        ]
        message["stop_reason"] = "tool_use"
        lines.append(ndjson_line(line))
        result = event["result"]
        if result is None:
            continue
        content = result["output"]
        if event["tool"] == "Bash" and result["exit_code"] not in (0, None):
            content = f"Exit code {result['exit_code']}\n{content}"
        reply: dict[str, Any] = {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call_id,
                        "content": [{"type": "text", "text": content}],
                        "is_error": not result["ok"],
                    }
                ],
            },
            "parent_tool_use_id": None,
            "session_id": sid,
            "uuid": rand_uuid(rng),
            # The result line is written when the tool returns.
            "timestamp": iso(ctx.times[event["index"]] + event.get("duration_ms", 0)),
        }
        if event["tool"] == "Bash":
            reply["tool_use_result"] = {
                "stdout": result["output"],
                "stderr": "",
                "interrupted": result["exit_code"] is None,
                "isImage": False,
            }
        lines.append(ndjson_line(reply))
    cost = summary["cost"]
    end: dict[str, Any] = {}
    if failed:
        # An API failure ends the run: is_error with subtype "success" and the
        # HTTP status, the error text as the result.
        last_text = events[-1]["text"]
        end = {"api_error_status": 529, "timestamp": events[-1]["ts"]}
    lines.append(
        ndjson_line(
            {
                "type": "result",
                "subtype": "success",
                "is_error": failed,
                **end,
                "duration_ms": int(summary["timing"]["duration_s"] * 1000),
                "duration_api_ms": int(summary["timing"]["duration_s"] * 700),
                "num_turns": turns,
                "result": last_text,
                "session_id": sid,
                "total_cost_usd": cost["usd"],
                "usage": {
                    "input_tokens": cost["input_tokens"],
                    "output_tokens": cost["output_tokens"],
                    "cache_read_input_tokens": cost.get("cache_read_tokens", 0),
                    "cache_creation_input_tokens": cost.get("cache_write_tokens", 0),
                    "service_tier": "standard",
                },
                "modelUsage": {
                    model.model_version: {
                        "inputTokens": cost["input_tokens"],
                        "outputTokens": cost["output_tokens"],
                        "cacheReadInputTokens": cost.get("cache_read_tokens", 0),
                        "cacheCreationInputTokens": cost.get("cache_write_tokens", 0),
                        "webSearchRequests": 0,
                        "costUSD": cost["usd"],
                    }
                },
                "permission_denials": [],
                "uuid": rand_uuid(rng),
            }
        )
    )
    return "\n".join(lines) + "\n"
