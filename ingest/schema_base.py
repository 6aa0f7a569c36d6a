"""What the typed documents of release format v1 share (``ingest.schema`` and
``ingest.event_schema``): the base model, the scalar types, and validation
errors as (JSON path, message) pairs."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError


class Doc(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


Number = float
Timestamp = str


_MESSAGES = {
    "bool_type": "expected a boolean",
    "string_type": "expected a string",
    "int_type": "expected an integer",
    "int_from_float": "expected an integer",
    "float_type": "expected a number",
    "list_type": "expected an array",
    "dict_type": "expected an object",
    "model_type": "expected an object",
    "model_attributes_type": "expected an object",
    "missing": "required field is missing",
    "extra_forbidden": "unexpected field",
}


def json_path(loc: tuple[Any, ...]) -> str:
    """('checks', 3, 'passed') -> 'checks[3].passed'."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            name = "schema" if part == "schema_" else str(part)
            path += f".{name}" if path else name
    return path or "(document)"


def describe(error: dict[str, Any]) -> str:
    kind = error["type"]
    if kind == "literal_error":
        return f"expected {error['ctx']['expected']}, got {error['input']!r}"[:200]
    if kind == "value_error":
        return str(error["ctx"]["error"])
    return _MESSAGES.get(kind, error["msg"])


def errors_of(exc: ValidationError, prefix: tuple[Any, ...] = ()) -> list[tuple[str, str]]:
    """(JSON path, message) pairs of a validation error, in document order."""
    return [(json_path(prefix + tuple(e["loc"])), describe(e)) for e in exc.errors()]
