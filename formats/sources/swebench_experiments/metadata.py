"""A submission's ``metadata.yaml``, and the figure its README publishes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

METADATA = "metadata.yaml"
README = "README.md"
_DATE = re.compile(r"^(\d{4})(\d\d)(\d\d)_")
# "Resolved% : 15.79% (18 / 114)": the line the NoCode-bench and SWE-bench
# evaluation scripts print, which submissions paste into their README.
_RESOLVED = re.compile(
    r"Resolved\s*%?\s*:\s*(\d+(?:\.\d+)?)\s*%\s*\(\s*(\d+)\s*/\s*(\d+)\s*\)", re.IGNORECASE
)


@dataclass
class Metadata:
    name: str = ""
    site: str | None = None
    models: list[str] = field(default_factory=list)
    org: str | None = None
    open_model: bool | None = None
    open_system: bool | None = None
    checked: bool | None = None
    attempts: str | None = None
    report: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def parse_yaml(data: bytes, where: str) -> tuple[Any, str | None]:
    """The YAML document, or None and the problem (safe loading: no tags, no objects)."""
    try:
        return yaml.safe_load(data.decode("utf-8")), None
    except UnicodeDecodeError as exc:
        return None, f"{where}: not UTF-8 (byte {exc.start})"
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        return None, f"{where}: not YAML{at}"


def is_metadata(doc: Any) -> bool:
    """A submission's metadata: a mapping with an ``info`` or ``tags`` mapping."""
    return isinstance(doc, dict) and any(isinstance(doc.get(k), dict) for k in ("info", "tags"))


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


def _flag(doc: dict, key: str, where: str, problems: list[str]) -> bool | None:
    value = doc.get(key)
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    problems.append(f"{where}: tags.{key}: expected true or false, got {value!r}")
    return None


def read_metadata(doc: dict, where: str, problems: list[str]) -> Metadata:
    info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
    tags = doc.get("tags") if isinstance(doc.get("tags"), dict) else {}
    models = tags.get("model")
    if isinstance(models, str):
        models = [models]
    if models is not None and not isinstance(models, list):
        problems.append(f"{where}: tags.model: expected a list of model names")
        models = []
    org = tags.get("org")
    if isinstance(org, list):
        org = ", ".join(x for x in (_text(o) for o in org) if x)
    system = tags.get("system") if isinstance(tags.get("system"), dict) else {}
    known = {"info", "tags", "assets"}
    return Metadata(
        name=_text(info.get("name")) or "",
        site=_text(info.get("site")),
        models=[m for m in (_text(x) for x in models or []) if m],
        org=_text(org),
        open_model=_flag(tags, "os_model", where, problems),
        open_system=_flag(tags, "os_system", where, problems),
        checked=_flag(tags, "checked", where, problems),
        attempts=_text(system.get("attempts")),
        report=_text(info.get("report")),
        extra={k: v for k, v in doc.items() if k not in known},
    )


def folder_date(folder: str) -> str | None:
    """``YYYY-MM-DD`` of a ``<date>_<system>`` folder name, if it starts with one."""
    found = _DATE.match(folder)
    if not found:
        return None
    year, month, day = found.groups()
    if not ("01" <= month <= "12" and "01" <= day <= "31"):
        return None
    return f"{year}-{month}-{day}"


def readme_figure(data: bytes) -> dict[str, Any] | None:
    """The resolved figure a README publishes (``Resolved% : 15.79% (18 / 114)``)."""
    found = _RESOLVED.search(data.decode("utf-8", errors="replace"))
    if not found:
        return None
    percent, resolved, total = found.groups()
    return {"percent": float(percent), "resolved": int(resolved), "total": int(total)}
