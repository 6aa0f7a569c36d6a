"""What Codex's rollout files and legacy events share: tool outputs and exit codes."""

from __future__ import annotations

import re
from typing import Any

import orjson

from formats.normalise.lines import as_text, block_text, exit_code_of, span_ms

# Newer shells format the output as "Exit code: 1\nWall time: …\nOutput:\n…".
_EXIT = re.compile(r"^(?:Exit code:|Process exited with code) (-?\d+)", re.MULTILINE)


def parse_json_string(value: Any) -> Any:
    """A JSON document written as a string (function arguments), else the value itself."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def output_and_code(output: Any) -> tuple[str, int | None]:
    """The text of a tool output and the exit code it states, if any.

    Older rollouts wrap it as a JSON string ``{"output": …, "metadata":
    {"exit_code": N}}``; newer ones are text or content items.
    """
    parsed = parse_json_string(output) if isinstance(output, str) else output
    if isinstance(parsed, dict) and "output" in parsed:
        metadata = parsed.get("metadata")
        code = metadata.get("exit_code") if isinstance(metadata, dict) else None
        text = parsed["output"]
        return text if type(text) is str else as_text(text), code if isinstance(code, int) else None
    if isinstance(output, dict):
        text = block_text([output])
    elif isinstance(output, list):
        text = block_text(output)
    else:
        text = as_text(output)
    head = text[:2000]
    # The regex walks every line start; most outputs name neither phrase.
    if "Exit code:" not in head and "Process exited with code" not in head:
        return text, None
    match = _EXIT.search(head)
    return text, exit_code_of(match.group(1)) if match else None


def duration_ms(duration: Any) -> float | None:
    """Rust's Duration ``{secs, nanos}`` (or a number of seconds) in milliseconds."""
    if isinstance(duration, dict):
        secs, nanos = duration.get("secs"), duration.get("nanos")
        if isinstance(secs, int) and isinstance(nanos, int):
            return span_ms(0, secs * 1000 + nanos // 1_000_000)
    if isinstance(duration, int | float) and not isinstance(duration, bool):
        return span_ms(0, duration * 1000)
    return None
