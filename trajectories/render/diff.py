"""Patches as per-file, highlighted, unified and side-by-side views.

``patch.diff`` is parsed with ``unidiff``; code is highlighted with Pygments
(CSS classes, see ``highlight``). Everything that reaches a template is either
Pygments output (which escapes its input) or text the template escapes.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from itertools import zip_longest

from django.utils.safestring import SafeString, mark_safe
from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from trajectories.render.highlight import highlight_lines, lexer_for
from trajectories.render.text import visible

KIND = {"+": "add", "-": "del", " ": "ctx", "\\": "meta"}


@dataclass
class DiffLine:
    kind: str  # add, del, ctx or meta ("\ No newline at end of file")
    old_no: int | None
    new_no: int | None
    html: SafeString


@dataclass
class SplitRow:
    """One row of the side-by-side view: a line on the left, on the right, or both."""

    left: DiffLine | None
    right: DiffLine | None


@dataclass
class DiffHunk:
    header: str
    lines: list[DiffLine]

    @property
    def rows(self) -> list[SplitRow]:
        return split_rows(self.lines)


@dataclass
class DiffFile:
    path: str
    old_path: str
    new_path: str
    status: str  # added, removed, renamed, modified, binary
    added: int
    removed: int
    hunks: list[DiffHunk] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return "file-" + "".join(c if c.isalnum() or c in "._-" else "-" for c in self.path)


@dataclass
class Patch:
    files: list[DiffFile]
    error: str = ""  # why the text could not be parsed (it is then shown raw)
    raw: str = ""

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def removed(self) -> int:
        return sum(f.removed for f in self.files)


def _strip_prefix(name: str | None) -> str:
    if not name or name == "/dev/null":
        return ""
    return name[2:] if name[:2] in ("a/", "b/") else name


def _status(patched) -> str:
    if patched.is_binary_file:
        return "binary"
    if patched.is_added_file:
        return "added"
    if patched.is_removed_file:
        return "removed"
    if patched.is_rename:
        return "renamed"
    return "modified"


def _value(raw: str) -> str:
    return visible(raw.rstrip("\n").rstrip("\r"))


def parse_patch(text: str) -> Patch:
    """The patch as files of highlighted hunks; unparseable text comes back raw."""
    try:
        patch = PatchSet(text)
    except UnidiffParseError as exc:
        return Patch(files=[], error=str(exc), raw=visible(text))
    if not len(patch) and text.strip():
        return Patch(files=[], error="no file header found", raw=visible(text))
    files = []
    for patched in patch:
        old_path, new_path = _strip_prefix(patched.source_file), _strip_prefix(patched.target_file)
        lexer = lexer_for(filename=(new_path or old_path).rsplit("/", 1)[-1])
        hunks = []
        for hunk in patched:
            values = [_value(line.value) for line in hunk]
            html = highlight_lines(values, lexer)
            lines = [
                DiffLine(
                    KIND.get(line.line_type, "ctx"),
                    line.source_line_no,
                    line.target_line_no,
                    mark_safe(fragment),  # noqa: S308 - Pygments escaped it
                )
                for line, fragment in zip(hunk, html, strict=True)
            ]
            header = f"@@ -{hunk.source_start},{hunk.source_length} "
            header += f"+{hunk.target_start},{hunk.target_length} @@ {hunk.section_header}"
            hunks.append(DiffHunk(header=visible(header.rstrip()), lines=lines))
        files.append(
            DiffFile(
                path=visible(patched.path),
                old_path=visible(old_path),
                new_path=visible(new_path),
                status=_status(patched),
                added=patched.added,
                removed=patched.removed,
                hunks=hunks,
            )
        )
    return Patch(files=files)


def split_rows(lines: list[DiffLine]) -> list[SplitRow]:
    """Pair each run of removed lines with the run of added lines that follows it."""
    rows: list[SplitRow] = []
    removed: list[DiffLine] = []
    added: list[DiffLine] = []

    def flush() -> None:
        rows.extend(SplitRow(left, right) for left, right in zip_longest(removed, added))
        removed.clear()
        added.clear()

    for line in lines:
        if line.kind == "del":
            if added:
                flush()
            removed.append(line)
        elif line.kind == "add":
            added.append(line)
        else:
            flush()
            rows.append(SplitRow(line, line))
    flush()
    return rows


def compare_texts(a: str, b: str, *, a_name: str, b_name: str, context: int = 3) -> Patch:
    """The difference between two texts (two patches) as one highlighted pseudo-file.

    Computed with difflib rather than re-parsed from a unified diff: a patch's own
    ``--- a/…`` lines would read as file headers in a diff of diffs.
    """
    a_lines, b_lines = a.splitlines(), b.splitlines()
    matcher = difflib.SequenceMatcher(a=a_lines, b=b_lines, autojunk=False)
    lexer = lexer_for(language="diff")
    hunks = []
    for group in matcher.get_grouped_opcodes(context):
        entries: list[tuple[str, int | None, int | None, str]] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                entries += [("ctx", i + 1, j1 + i - i1 + 1, a_lines[i]) for i in range(i1, i2)]
                continue
            if tag in ("replace", "delete"):
                entries += [("del", i + 1, None, a_lines[i]) for i in range(i1, i2)]
            if tag in ("replace", "insert"):
                entries += [("add", None, j + 1, b_lines[j]) for j in range(j1, j2)]
        values = [visible(text) for *_, text in entries]
        html = highlight_lines(values, lexer)
        lines = [
            DiffLine(kind, old, new, mark_safe(fragment))  # noqa: S308 - Pygments escaped it
            for (kind, old, new, _), fragment in zip(entries, html, strict=True)
        ]
        first, last = group[0], group[-1]
        header = f"@@ -{first[1] + 1},{last[2] - first[1]} +{first[3] + 1},{last[4] - first[3]} @@"
        hunks.append(DiffHunk(header=header, lines=lines))
    added = sum(1 for h in hunks for line in h.lines if line.kind == "add")
    removed = sum(1 for h in hunks for line in h.lines if line.kind == "del")
    files = []
    if hunks:
        name = f"{a_name} → {b_name}"
        files.append(DiffFile(name, a_name, b_name, "modified", added, removed, hunks))
    return Patch(files=files)
