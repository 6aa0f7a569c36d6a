"""The verdict grouped by level, and the vendor log joined to the checks that name it."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.utils.safestring import SafeString, mark_safe

from leaderboard.models import CheckResult
from trajectories.models import VendorRequest
from trajectories.render.highlight import highlight_lines, lexer_for
from trajectories.render.json import pretty
from trajectories.render.text import cut, visible

LEVEL_NAMES = {"L1": "functional outcome", "L2": "protocol", "L3": "code quality"}
_ANCHOR_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def anchor_part(value: str) -> str:
    """``value`` made safe for an HTML id and a URL fragment (unsafe characters hex-coded)."""
    return _ANCHOR_UNSAFE.sub(lambda m: f"_{ord(m.group()):x}_", value)


def request_anchor(ref: str) -> str:
    """``#req-<vendor>-<id>`` for a ``<vendor>:<id>`` name."""
    vendor, _, request_id = ref.partition(":")
    return f"req-{anchor_part(vendor)}-{anchor_part(request_id)}"


def check_anchor(position: int) -> str:
    return f"check-{position}"


@dataclass
class CheckView:
    result: CheckResult
    anchor: str
    # (ref, anchor or "" when the log has no such request)
    requests: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class LevelGroup:
    level: str
    name: str
    checks: list[CheckView]

    @property
    def failed(self) -> int:
        return sum(1 for c in self.checks if not c.result.passed)


@dataclass
class Body:
    html: SafeString
    cut: bool
    size: int


@dataclass
class RequestView:
    request: VendorRequest
    anchor: str
    query: str
    status_class: str
    checks: list[CheckView]
    headers: Body | None
    body: Body | None
    response: Body | None
    doc: dict


@dataclass
class VendorLog:
    vendor: str
    entries: list[RequestView]


def verdict_groups(results: list[CheckResult], known_refs: set[str]) -> list[LevelGroup]:
    """Checks grouped by level: L1, L2, L3, then other levels as first given."""
    by_level: dict[str, list[CheckView]] = defaultdict(list)
    for result in results:
        refs = [(ref, request_anchor(ref) if ref in known_refs else "") for ref in result.requests]
        by_level[result.level].append(CheckView(result, check_anchor(result.position), refs))
    order = [lvl for lvl in LEVEL_NAMES if lvl in by_level]
    order += [lvl for lvl in by_level if lvl not in LEVEL_NAMES]
    return [LevelGroup(lvl, LEVEL_NAMES.get(lvl, ""), by_level[lvl]) for lvl in order]


def status_class(status: int | None) -> str:
    if status is None:
        return "status-none"
    return f"status-{min(max(status // 100, 1), 5)}xx"


def body(value: Any, limit: int) -> Body | None:
    """A request or response body, pretty and highlighted (JSON) or as text (a string)."""
    if value is None or value == {} or value == "":
        return None
    text = pretty(value, limit)
    shown, was_cut = cut(visible(text), limit)
    lexer = lexer_for(language="text" if isinstance(value, str) else "json")
    html = "\n".join(highlight_lines(shown.split("\n"), lexer))
    return Body(mark_safe(html), was_cut, len(text))  # noqa: S308 - Pygments escaped it


def vendor_logs(
    requests: list[VendorRequest],
    order: list[str],
    checks: list[CheckView],
    limit: int,
) -> list[VendorLog]:
    """Per vendor (in the release's order), entries in time order, each with the
    checks that name it."""
    naming: dict[str, list[CheckView]] = defaultdict(list)
    for check in checks:
        for ref, _ in check.requests:
            naming[ref].append(check)
    grouped: dict[str, list[RequestView]] = defaultdict(list)
    for request in sorted(requests, key=lambda r: (r.ts, r.position)):
        doc = request.as_document()
        query = doc.get("query")
        grouped[request.vendor].append(
            RequestView(
                request=request,
                anchor=request_anchor(request.ref),
                query=urlencode(query, doseq=True) if isinstance(query, dict) else "",
                status_class=status_class(request.status),
                checks=naming.get(request.ref, []),
                headers=body(doc.get("headers"), limit),
                body=body(doc.get("body"), limit),
                response=body(doc.get("response"), limit),
                doc=doc,
            )
        )
    vendors = [v for v in order if v in grouped] + sorted(v for v in grouped if v not in order)
    return [VendorLog(v, grouped[v]) for v in vendors]
