"""Trajectory events of release format v1, and the check of a whole event list.

Events are typed dicts, not models: pydantic checks a typed dict without
building an object for it, six times faster, which on a release's tens of
thousands of events is the difference between the check being most of the
import and a small part of it. The rules are those of ``formats.v1.schema``'s
models: unknown fields are allowed, types are strict.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Union

from pydantic import Discriminator, Tag, TypeAdapter, ValidationError, with_config

# pydantic needs typing_extensions' TypedDict before Python 3.12.
from typing_extensions import TypedDict

from formats.v1 import sizes
from formats.v1.schema_base import (
    Doc,
    Integer,
    Number,
    Timestamp,
    column_int,
    column_text,
    describe,
    json_path,
)

# The rules of every document model, taken from their base.
_RULES = Doc.model_config


@with_config(_RULES)
class TokensDoc(TypedDict):
    input: Integer
    output: Integer


@with_config(_RULES)
class EventDoc(TypedDict):
    index: column_int(sizes.INT)
    type: str
    ts: NotRequired[Timestamp | None]
    tokens: NotRequired[TokensDoc | None]
    duration_ms: NotRequired[Number | None]


@with_config(_RULES)
class SystemEventDoc(EventDoc):
    model: str
    tool_count: Integer
    session_id: NotRequired[str | None]
    cwd: NotRequired[str | None]


@with_config(_RULES)
class TextEventDoc(EventDoc):
    text: str


@with_config(_RULES)
class ToolResultDoc(TypedDict):
    ok: bool
    output: str
    exit_code: column_int(sizes.INT) | None


@with_config(_RULES)
class ToolCallEventDoc(EventDoc):
    tool: column_text(sizes.TOOL)
    input: Any
    result: ToolResultDoc | None


@with_config(_RULES)
class ErrorEventDoc(EventDoc):
    text: str
    source: NotRequired[Literal["harness", "provider"] | None]


EVENT_TYPES: dict[str, type[EventDoc]] = {
    "system": SystemEventDoc,
    "user": TextEventDoc,
    "message": TextEventDoc,
    "reasoning": TextEventDoc,
    "tool_call": ToolCallEventDoc,
    "error": ErrorEventDoc,
}


def _event_tag(value: Any) -> str | None:
    kind = value.get("type") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) and kind in EVENT_TYPES else None


# One validator for a whole event list: a single call into pydantic-core
# instead of one per event, which matters for trajectories of 10,000+ events.
EVENTS = TypeAdapter(
    list[
        Annotated[
            Union[tuple(Annotated[model, Tag(tag)] for tag, model in EVENT_TYPES.items())],  # noqa: UP007
            Discriminator(_event_tag),
        ]
    ]
)


def event_errors(exc: ValidationError, events: list[Any]) -> list[tuple[str, str]]:
    """Errors of EVENTS, with the union's tag taken out of each path."""
    found = []
    known = ", ".join(EVENT_TYPES)
    for error in exc.errors():
        loc = list(error["loc"])
        if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
            index = loc[0]
            kind = events[index].get("type") if isinstance(events[index], dict) else None
            if not isinstance(events[index], dict):
                found.append((json_path(("events", index)), "expected an object"))
            else:
                found.append(
                    (
                        json_path(("events", index, "type")),
                        f"unknown event type {kind!r} (known: {known})",
                    )
                )
            continue
        if len(loc) > 1 and loc[1] in EVENT_TYPES:
            del loc[1]
        found.append((json_path(("events", *loc)), describe(error)))
    return found


def check_events(events: Any) -> list[tuple[str, str]]:
    """Problems of a trajectory's event list, as (JSON path, message) pairs."""
    if not isinstance(events, list):
        return []  # TrajectoryHeadDoc reports it
    try:
        EVENTS.validate_python(events)
    except ValidationError as exc:
        return event_errors(exc, events)
    for i, event in enumerate(events):
        if event["index"] != i:
            return [(f"events[{i}].index", f"expected {i}, got {event['index']}")]
    return []
