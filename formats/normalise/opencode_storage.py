"""OpenCode's legacy JSON storage folder (``~/.local/share/opencode/storage``).

Not bytes but a folder, so not in the registry: call ``normalise_storage``.
Its "lines" are the JSON files it reads, numbered in reading order and named
in ``meta["files"]`` (line N is ``meta["files"][N - 1]``): the session file,
then each message (by creation time, then id) followed by its parts (by
file name). Parts map as in ``run --format json``; a user message's text
parts are ``user`` events; message and session files are unmapped (their
model, tokens and cost go to meta).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from django.conf import settings

from formats.normalise import Normalised
from formats.normalise.files import read_regular
from formats.normalise.lines import Builder, as_text, event
from formats.normalise.opencode_parts import error_event, part_event, step_tokens
from formats.normalise.storable import storable

NAME = "opencode-storage"


def _read(path: Path) -> Any:
    """The file's JSON; None if it is no regular file, too large, or not JSON."""
    try:
        return orjson.loads(read_regular(path, settings.BENCHVIEW_LIMITS["file_max_bytes"]))
    except (OSError, orjson.JSONDecodeError):
        return None


def _time(info: dict[str, Any], key: str) -> int | float:
    """A session's or message's ``time.<key>`` for ordering: 0 unless a number."""
    spent = info.get("time")
    value = spent.get(key) if isinstance(spent, dict) else None
    return value if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _folder_name(value: Any) -> str | None:
    """An id as the name of the folder holding its files; None if it names none
    (not a string, or a path that would leave the storage folder)."""
    if type(value) is not str or not value or value in (".", "..") or "/" in value:
        return None
    return value


def _session(root: Path, session_id: str | None) -> tuple[Path | None, dict[str, Any]]:
    best: tuple[Any, Path, dict[str, Any]] | None = None
    for path in sorted(root.glob("session/*/*.json")):
        info = _read(path)
        if not isinstance(info, dict):
            continue
        if session_id is not None and info.get("id") != session_id:
            continue
        updated = _time(info, "updated")
        if best is None or updated > best[0]:
            best = (updated, path, info)
    return (best[1], best[2]) if best else (None, {})


def normalise_storage(root: str | Path, session_id: str | None = None) -> Normalised:
    """One session of a storage folder: ``session_id``, or the last updated one."""
    root = Path(root)
    out = Builder(NAME)
    files: list[str] = []

    def line(path: Path) -> int:
        files.append(str(path.relative_to(root)))
        return len(files)

    path, info = _session(root, session_id)
    out.meta["files"] = files
    if path is None:
        return out.done()
    out.meta.update(session_id=info.get("id"), cwd=info.get("directory"))
    out.skip(line(path), "session info (in meta)")
    messages = []
    folder = _folder_name(info.get("id"))
    for message_path in (root / "message" / folder).glob("*.json") if folder else ():
        message = _read(message_path)
        if isinstance(message, dict):
            created, ident = _time(message, "created"), as_text(message.get("id"))
            messages.append((created, ident, message_path, message))
    for _, ident, message_path, message in sorted(messages, key=lambda m: m[:2]):
        number = line(message_path)
        model = message.get("model")
        if isinstance(model, dict) and isinstance(model.get("modelID"), str):
            out.meta.setdefault("model", model["modelID"])
        if message.get("error"):
            out.add(error_event(message["error"], None), number)
        else:
            out.skip(number, f"{as_text(message.get('role'))[:60]} message info")
        last = None
        parts = (root / "part" / ident).glob("*.json") if _folder_name(ident) else ()
        for part_path in sorted(parts):
            number = line(part_path)
            part = _read(part_path)
            if not isinstance(part, dict):
                out.skip(number, "not a JSON object")
                continue
            ev = part_event(part)
            if ev is not None and message.get("role") == "user" and ev["type"] == "message":
                ev = event("user", ts=ev.get("ts"), text=ev["text"])
            if ev is not None:
                last = out.add(ev, number)
            elif part.get("type") == "step-finish" and last is not None and step_tokens(part):
                last["tokens"] = step_tokens(part)
                out.source(last, number)
            else:
                out.skip(number, f"{as_text(part.get('type'))[:60]} part")
    result = out.done()
    storable(result.events)
    return result
