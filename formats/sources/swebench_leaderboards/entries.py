"""swebench.com's ``leaderboards.json``, read and checked: pure, no app.

The document is ``{"leaderboards": [{"name": "Verified", "results": [entry,
...]}, ...]}``. An entry is one submission to one leaderboard: ``folder``
(its id in the experiments repository), ``name`` (a display name, which
repeats: two "Warp" entries with different figures), ``date``, ``resolved``
(a percentage), ``cost``, ``instance_cost``, ``instance_calls``, ``tags``
("Model: …", "Org: …", "System: …"), ``os_model``, ``os_system``,
``checked``, ``site``, links (``logs``, ``trajs``, ``trajs_docent``) and, for
some, ``per_instance_details`` ({instance: {resolved, cost, api_calls}}).

Every problem names the file and the JSON path; all are collected.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

# What an entry's links are called; kept on the model as they are.
LINK_KEYS = ("logs", "trajs", "trajs_docent")
# Keys read into Entry fields; the others are kept as they are (extension fields).
KNOWN_KEYS = frozenset(
    {
        "name",
        "folder",
        "date",
        "resolved",
        "cost",
        "instance_cost",
        "instance_calls",
        "tags",
        "os_model",
        "os_system",
        "checked",
        "site",
        "per_instance_details",
        *LINK_KEYS,
    }
)
SLUG_MAX = 100
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def slugify(text: str) -> str:
    """The release-format id of ``text``: lowercase, every run of other
    characters than letters, digits, '.', '_' and '-' made one '-', starting
    with a letter or digit, at most 100 characters."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower())
    slug = re.sub(r"^[^a-z0-9]+", "", slug)[:SLUG_MAX].rstrip("-")
    return slug


@dataclass(frozen=True)
class Instance:
    resolved: bool
    cost: float | None
    api_calls: int | None


@dataclass
class Entry:
    id: str  # the slug of ``folder``
    folder: str
    name: str
    resolved: float  # percent, as published
    date: str | None = None  # YYYY-MM-DD
    cost: float | None = None
    instance_cost: float | None = None
    instance_calls: float | None = None
    tags: list[str] = field(default_factory=list)
    os_model: bool | None = None
    os_system: bool | None = None
    checked: bool | None = None
    site: list[str] = field(default_factory=list)
    links: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Instance] | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # unknown keys, as published

    def tagged(self, prefix: str) -> list[str]:
        """The values of tags "<prefix>: value", in order."""
        found = []
        for tag in self.tags:
            head, sep, value = tag.partition(":")
            if sep and head.strip().lower() == prefix.lower() and value.strip():
                found.append(value.strip())
        return found


@dataclass
class Board:
    name: str
    slug: str
    entries: list[Entry]
    index: int  # its place in the document, for messages


def looks_like(doc: Any) -> bool:
    """Whether a parsed JSON document has the shape of leaderboards.json."""
    if not isinstance(doc, dict) or not isinstance(doc.get("leaderboards"), list):
        return False
    boards = doc["leaderboards"]
    return bool(boards) and all(
        isinstance(b, dict) and isinstance(b.get("results"), list) and "name" in b for b in boards
    )


def decode(data: bytes, file: str) -> Any:
    """The JSON of ``data``; ValueError naming ``file`` and where it breaks."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{file}: not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ValueError(f"{file}: not JSON ({exc.msg} at {where})") from None


class _Problems:
    def __init__(self, file: str):
        self.file, self.found = file, []

    def add(self, path: str, message: str) -> None:
        self.found.append(f"{self.file}: {path}: {message}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_boards(doc: Any, file: str) -> tuple[list[Board], list[str]]:
    """The leaderboards of a parsed document, and every problem found."""
    problems = _Problems(file)
    if not looks_like(doc):
        problems.add("leaderboards", "expected a list of {name, results[]} objects")
        return [], problems.found
    boards, slugs = [], set()
    for i, raw in enumerate(doc["leaderboards"]):
        where = f"leaderboards[{i}]"
        name = raw.get("name")
        if not isinstance(name, str) or not slugify(name):
            problems.add(f"{where}.name", "expected a leaderboard name with a letter or digit")
            continue
        slug = slugify(name)
        if slug in slugs:
            problems.add(f"{where}.name", f"a second leaderboard called {name!r}")
            continue
        slugs.add(slug)
        entries, ids = [], {}
        for j, item in enumerate(raw["results"]):
            folder = item.get("folder") if isinstance(item, dict) else None
            found = slugify(folder) if isinstance(folder, str) else ""
            if found in ids:
                problems.add(
                    f"{where}.results[{j}].folder",
                    f"{folder!r} is also results[{ids[found]}]'s folder (id {found!r})",
                )
                continue
            if found:
                ids[found] = j
            entry = _entry(problems, f"{where}.results[{j}]", item)
            if entry is not None:
                entries.append(entry)
        boards.append(Board(name=name, slug=slug, entries=entries, index=i))
    return boards, problems.found


def _entry(problems: _Problems, where: str, item: Any) -> Entry | None:
    if not isinstance(item, dict):
        problems.add(where, "expected an object")
        return None
    before = len(problems.found)
    folder, name, resolved = item.get("folder"), item.get("name"), item.get("resolved")
    if not isinstance(folder, str) or not slugify(folder):
        problems.add(f"{where}.folder", "expected the submission's folder name")
    if not isinstance(name, str) or not name.strip():
        problems.add(f"{where}.name", "expected a display name")
    if not _number(resolved) or not 0 <= resolved <= 100:
        problems.add(f"{where}.resolved", "expected a percentage from 0 to 100")
    optional_numbers = {k: item.get(k) for k in ("cost", "instance_cost", "instance_calls")}
    for key, value in optional_numbers.items():
        if value is not None and (not _number(value) or value < 0):
            problems.add(f"{where}.{key}", "expected a number of at least 0, or null")
    flags = {k: _flag(item.get(k)) for k in ("os_model", "os_system", "checked")}
    for key, value in flags.items():
        if value == "bad":
            problems.add(f"{where}.{key}", "expected true, false, null or a note starting so")
    date = item.get("date")
    if date is not None and not (isinstance(date, str) and DATE_RE.match(date)):
        problems.add(f"{where}.date", "expected a date YYYY-MM-DD, or null")
    tags = item.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        problems.add(f"{where}.tags", "expected a list of strings")
    site = item.get("site")
    sites = [site] if isinstance(site, str) else site if isinstance(site, list) else []
    if site is not None and not all(isinstance(s, str) for s in sites):
        problems.add(f"{where}.site", "expected a link or a list of links")
    details = _details(problems, f"{where}.per_instance_details", item.get("per_instance_details"))
    if len(problems.found) > before:
        return None
    return Entry(
        id=slugify(folder),
        folder=folder,
        name=name.strip(),
        resolved=float(resolved),
        date=date,
        tags=list(tags),
        site=[s for s in sites if s],
        links={k: item[k] for k in LINK_KEYS if k in item},
        details=details,
        extra={
            **{k: v for k, v in item.items() if k not in KNOWN_KEYS},
            # A yes/no given as a note keeps its words.
            **{f"{k}_note": item[k] for k in flags if isinstance(item.get(k), str)},
        },
        **optional_numbers,
        **flags,
    )


def _flag(value: Any) -> bool | None | str:
    """A yes/no of an entry: a boolean, null, or (as some entries have) a note
    that starts with its answer: "false (See README.md)". "bad" otherwise."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        head = value.strip().lower()
        for word, answer in (("true", True), ("false", False)):
            if head == word or head.startswith(word + " "):
                return answer
    return "bad"


def _details(problems: _Problems, where: str, raw: Any) -> dict[str, Instance] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        problems.add(where, "expected an object of instances, or null")
        return None
    found = {}
    for instance, value in raw.items():
        at = f"{where}.{instance}"
        if not slugify(instance):
            problems.add(at, "an instance id needs a letter or digit")
            continue
        if not isinstance(value, dict) or not isinstance(value.get("resolved"), bool):
            problems.add(f"{at}.resolved", "expected true or false")
            continue
        cost, calls = value.get("cost"), value.get("api_calls")
        if cost is not None and (not _number(cost) or cost < 0):
            problems.add(f"{at}.cost", "expected a number of at least 0, or null")
            continue
        if calls is not None and (not isinstance(calls, int) or isinstance(calls, bool)):
            problems.add(f"{at}.api_calls", "expected a whole number, or null")
            continue
        found[instance] = Instance(value["resolved"], cost, calls)
    return found
