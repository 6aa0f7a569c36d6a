"""Collect the unknown fields of a validated document (see ``leaderboard.extras``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core import jsonsafe
from leaderboard.extras import identity, item_key


def collect_extras(value: Any) -> dict[str, Any]:
    """The extras tree of a parsed pydantic document; empty when nothing is unknown."""
    if not isinstance(value, BaseModel):
        return {}
    tree: dict[str, Any] = {}
    if value.model_extra:
        # Unknown fields may hold a NUL, which a JSON column cannot store as is.
        tree["__extra__"] = jsonsafe.pack(dict(value.model_extra))
    for name, info in type(value).model_fields.items():
        field = info.alias or name
        child = getattr(value, name)
        if isinstance(child, BaseModel):
            sub = collect_extras(child)
        elif isinstance(child, list):
            items = {}
            for position, item in enumerate(child):
                item_tree = collect_extras(item)
                if item_tree:
                    raw = item.model_dump(by_alias=True) if isinstance(item, BaseModel) else item
                    items[identity(raw, position)] = item_tree
            sub = {"__items__": items} if items else {}
        elif isinstance(child, dict):
            items = {item_key(k): t for k, v in child.items() if (t := collect_extras(v))}
            sub = {"__items__": items} if items else {}
        else:
            sub = {}
        if sub:
            tree[field] = sub
    return tree
