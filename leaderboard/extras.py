"""Unknown fields of derived documents, kept at import and merged back on export.

An *extras tree* mirrors a document's shape but holds only what the format does
not define: ``{"__extra__": {unknown keys}, "<field>": subtree}``; arrays and
maps of objects become ``{"__items__": {identity: subtree}}``. Array items are
matched by identity (their ``id``, ``model``, ``task`` or ``name``), so extras
follow their row even when a newer revision reorders the rows.
"""

from __future__ import annotations

from typing import Any

from core import jsonsafe

IDENTITY_KEYS = ("id", "model", "task", "name")


def item_key(key: Any) -> str:
    """A key of ``__items__``: storable in a JSON column (see jsonsafe)."""
    return jsonsafe.text(str(key))


def identity(item: Any, position: int) -> str:
    if isinstance(item, dict):
        for key in IDENTITY_KEYS:
            value = item.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool):
                return item_key(value)
    return f"#{position}"


def merge_extras(doc: Any, tree: dict[str, Any] | None) -> Any:
    """Put the unknown fields of ``tree`` back into ``doc`` (in place); returns ``doc``."""
    if not tree or not isinstance(doc, dict):
        return doc
    for key, value in jsonsafe.unpack(tree.get("__extra__", {})).items():
        doc.setdefault(key, value)
    for field, subtree in tree.items():
        if field == "__extra__" or field not in doc:
            continue
        target = doc[field]
        items = subtree.get("__items__")
        if items is None:
            merge_extras(target, subtree)
        elif isinstance(target, list):
            for position, item in enumerate(target):
                merge_extras(item, items.get(identity(item, position)))
        elif isinstance(target, dict):
            for key, item in target.items():
                merge_extras(item, items.get(item_key(key)))
    return doc
