"""Claude Code session files (``~/.claude/projects/<cwd-slug>/<session>.jsonl``).

A session file is a tree: each chain line (user, assistant, system,
attachment, progress) names its ``parentUuid``; rewinds and retries leave
branches. We walk from the newest leaf that is not a sidechain back to the
root and keep that branch. Unlike the SDK (which rebuilds the model's
*context*), we step over a ``compact_boundary`` to its ``logicalParentUuid``:
the run's history before a compaction is still what the agent did. Lines on
other branches are unmapped ("abandoned branch"). When the uuids do not form a
tree (repeated uuids, as in trimmed fixtures) the chain lines are taken in
file order instead and ``meta["walk"]`` says so.

``isMeta`` lines, slash-command wrappers and the ``isCompactSummary`` message
are not user turns; sidechain lines (a sub-agent's own file) are kept and
marked ``"subagent": <agentId>``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from formats.normalise import Normalised, Unmapped, register
from formats.normalise.claude_blocks import Calls
from formats.normalise.lines import (
    Builder,
    Head,
    JSONDecodeError,
    as_text,
    event,
    ident,
    iso_ts,
    lines_of,
    loads,
    read_lines,
    reread,
    sniff,
    split_lines,
    type_of,
)

NAME = "claude-session"

_LINKS = frozenset({"user", "assistant", "system", "attachment", "progress"})
_SESSION_ONLY = frozenset(
    {"queue-operation", "file-history-snapshot", "summary", "last-prompt", "attachment"}
)
_ERRORS = {"api_error": "provider", "api_refusal": "provider", "error": "harness"}


def looks_like(head: Head) -> bool:
    for obj in head:
        if "parentUuid" in obj or "sessionId" in obj or type_of(obj) in _SESSION_ONLY:
            return True
        if "session_id" in obj:
            return False  # stream-json
    return False


# What the walk needs of a chain line: (line number, uuid, parentUuid,
# isSidechain, subtype, logicalParentUuid), so the parsed line itself need not
# be kept.
Link = tuple[int, str, Any, Any, Any, Any]


def _link(number: int, obj: dict[str, Any]) -> Link:
    get = obj.get
    return (
        number,
        obj["uuid"],
        ident(get("parentUuid")),
        get("isSidechain"),
        get("subtype"),
        ident(get("logicalParentUuid")),
    )


def _chain(links: list[Link], out: Builder) -> set[int] | None:
    """Line numbers on the kept branch, or None to take every chain line."""
    by_uuid = {link[1]: link for link in links}
    if len(by_uuid) < len(links):
        out.meta["walk"] = "file order (uuids repeat, not a tree)"
        return None
    parents = {link[2] for link in links}
    # The newest leaf that is not a sidechain, else the newest leaf: looked
    # for from the end, where it usually is.
    leaf = newest = None
    for link in reversed(links):
        if link[1] not in parents:
            newest = newest or link
            if not link[3]:
                leaf = link
                break
    if newest is None:
        out.meta["walk"] = "file order (no leaf)"
        return None
    kept: set[int] = set()
    current: Link | None = leaf or newest
    while current is not None and current[0] not in kept:
        kept.add(current[0])
        parent = current[2]
        if parent is None and current[4] == "compact_boundary":
            parent = current[5]
        current = by_uuid.get(parent) if isinstance(parent, str) else None
    out.meta["walk"] = "tree from the newest leaf"
    return kept


def _system(out: Builder, number: int, obj: dict[str, Any], ts: str | None) -> None:
    subtype = as_text(obj.get("subtype"))
    if subtype not in _ERRORS:
        out.skip(number, f"system notice ({subtype or 'no subtype'})")
        return
    error = obj.get("error")
    text = ""
    if isinstance(error, dict):
        text = as_text(error.get("message") or error.get("formatted"))
    elif error:
        text = as_text(error)
    text = text or as_text(obj.get("apiRefusalExplanation") or obj.get("content")) or subtype
    out.add(event("error", ts=ts, source=_ERRORS[subtype], text=text), number)


@register(NAME, looks_like)
def normalise_session(data: bytes) -> Normalised:
    # Most sessions are one unbroken chain, each chain line's parent the chain
    # line before it (no rewind, no retry): then the walk would keep every
    # chain line, so the lines are mapped as they are read, in one pass,
    # holding neither the parsed lines nor the links. Any other shape is read
    # again, the walk first (_normalise_branches), which decides it exactly.
    out = Builder(NAME)
    calls = Calls(out)
    uuids: list[str] = []  # the chain lines' uuids, in file order
    first_parent: Any = None
    linear = True
    for number, raw in lines_of(data):  # read_lines, written out
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
        if type(obj) is not dict:
            out.not_object(number, obj)
            continue
        kind = type_of(obj)
        if kind in _LINKS:
            uuid = obj.get("uuid")
            if isinstance(uuid, str):
                parent = obj.get("parentUuid")
                if not uuids:
                    first_parent = parent
                elif parent != uuids[-1]:
                    linear = False
                uuids.append(uuid)
        _line(out, calls, number, obj, kind)
    if not uuids:
        walk = "file order (no leaf)"
    elif len(set(uuids)) < len(uuids):
        walk = "file order (uuids repeat, not a tree)"
    elif linear and (first_parent is None or type(first_parent) is str):
        # The newest chain line is the one leaf, unless the first line names
        # it as its parent (a loop: no leaf at all).
        walk = "file order (no leaf)" if first_parent == uuids[-1] else "tree from the newest leaf"
    else:
        return _normalise_branches(data)
    out.meta = {"walk": walk, **out.meta}  # where the two-pass read puts it
    if calls.usage:
        out.meta["tokens"] = calls.usage
    return out.done()


def _normalise_branches(data: bytes) -> Normalised:
    """A session whose walk leaves lines out: chain first, then the kept lines."""
    out = Builder(NAME)
    lines = list(read_lines(data, out))
    links = [
        _link(n, o) for n, o in lines if type_of(o) in _LINKS and isinstance(o.get("uuid"), str)
    ]
    kept = _chain(links, out)
    linked = {link[0] for link in links}
    calls = Calls(out)
    for number, obj in lines:
        if kept is not None and number in linked and number not in kept:
            out.skip(number, "on an abandoned branch (rewind or retry)")
            continue
        _line(out, calls, number, obj, type_of(obj))
    if calls.usage:
        out.meta["tokens"] = calls.usage
    return out.done()


def _line(out: Builder, calls: Calls, number: int, obj: dict[str, Any], kind: Any) -> None:
    """Events (or the unmapped reason) of one line (of type ``kind``) on the kept branch."""
    stamp = obj.get("timestamp")
    ts = None if stamp is None else iso_ts(stamp)
    subagent = None
    if obj.get("isSidechain"):
        agent = obj.get("agentId")
        subagent = agent if isinstance(agent, str) else "sidechain"
    meta = out.meta
    if "session_id" not in meta:
        session = obj.get("sessionId")
        if isinstance(session, str):
            meta["session_id"] = session
    if kind == "assistant":
        message = obj.get("message")
        if "model" not in meta and isinstance(message, dict):
            model = message.get("model")
            if isinstance(model, str):
                meta["model"] = model
        error = obj.get("error") if obj.get("isApiErrorMessage") else None
        calls.assistant(number, message, ts, subagent, error)
    elif kind == "user":
        if obj.get("isCompactSummary"):
            out.skip(number, "compaction summary (replaces earlier context, not a user turn)")
            return
        message = obj.get("message")
        meta_line = bool(obj.get("isMeta"))
        calls.user(number, message, ts, subagent, meta_line, obj.get("toolUseResult"))
    elif kind == "system":
        _system(out, number, obj, ts)
    else:
        out.skip(number, f"{as_text(kind)[:60] or 'untyped'} line (session bookkeeping)")


def normalise_session_folder(session_file: str | Path) -> Normalised:
    """A session file with its sub-agents' files, as one numbered transcript.

    Sub-agent files are ``<session>/subagents/*.jsonl`` (newer CLIs) and the
    ``agent-*.jsonl`` files beside the session (2.0.x) that name the same
    ``sessionId``. Lines are numbered across the files in reading order (the
    session, then the sub-agent files by name); ``meta["files"]`` lists each
    file with its first line number. Sub-agent events follow the session's,
    marked ``"subagent": <agentId>``.
    """
    main = Path(session_file)
    data = main.read_bytes()
    result = normalise_session(data)
    session_id = result.meta.get("session_id")
    extra = sorted((main.parent / main.stem / "subagents").glob("*.jsonl"))
    for path in sorted(main.parent.glob("agent-*.jsonl")):
        head = next(iter(sniff(path.read_bytes()[:65536])), {})
        if head.get("sessionId") == session_id:
            extra.append(path)
    offset = len(split_lines(data))
    result.meta["files"] = [{"path": main.name, "first_line": 1}]
    for path in extra:
        part = normalise_session(path.read_bytes())
        result.meta["files"].append(
            {"path": str(path.relative_to(main.parent)), "first_line": offset + 1}
        )
        for ev, lines in zip(part.events, part.sources, strict=True):
            ev["index"] = len(result.events)
            ev.setdefault("subagent", "sidechain")
            result.events.append(ev)
            result.sources.append([n + offset for n in lines])
        result.unmapped.extend(Unmapped(u.line + offset, u.reason) for u in part.unmapped)
        offset += len(split_lines(path.read_bytes()))
    return result
