"""A frozen revision read back for its pages: board rows, matrix rows, the
model's score across revisions as a small SVG, the BibTeX of a citation.

Everything here reads the revision's own documents, never the live tables, so
a revision's page cannot change after it is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from core import formatting
from core.html import html, html_join


@dataclass(frozen=True)
class FrozenRow:
    rank: str
    model: str
    display_name: str
    harness: str
    provider: str
    score: str
    interval: str
    surfaces: list[str]
    pass_at_k: str
    cost: str
    flagged: int


def surfaces_of(board: dict[str, Any]) -> list[str]:
    return sorted({s for row in board["rows"] for s in row.get("by_surface", {})})


def _largest_k(row: dict[str, Any]) -> str:
    found = row.get("pass_at_k") or {}
    if not found:
        return ""
    k = max(found, key=int)
    return f"pass@{k} {formatting.score(found[k], True)}"


def board_rows(
    board: dict[str, Any], figures: dict[str, dict[str, Any]], *, percent: bool
) -> list[FrozenRow]:
    surfaces = surfaces_of(board)
    rows = []
    for row in board["rows"]:
        fig = figures.get(row["model"], {})
        if percent and "trials" in fig:
            score = formatting.model_rate(row["score"], fig["passed"], fig["trials"], row["tasks"])
        else:
            score = formatting.score(row["score"], percent)
        low, high = fig.get("ci_low"), fig.get("ci_high")
        interval = (
            f"{formatting.score(low, percent)}–{formatting.score(high, percent)}"
            if low is not None and high is not None
            else formatting.DASH
        )
        by_surface = row.get("by_surface", {})
        rows.append(
            FrozenRow(
                rank=formatting.rank_range(row.get("rank_low"), row.get("rank_high"), row["rank"]),
                model=row["model"],
                display_name=row["display_name"],
                harness=row["harness"],
                provider=row["provider"],
                score=score,
                interval=interval,
                surfaces=[
                    formatting.score((by_surface.get(s) or {}).get("score"), percent)
                    for s in surfaces
                ],
                pass_at_k=_largest_k(row),
                # 0 is what the format stores for "no cost reported".
                cost=formatting.usd(row["cost_usd"]) if row.get("cost_usd") else formatting.DASH,
                flagged=row["flagged"],
            )
        )
    return rows


@dataclass(frozen=True)
class FrozenMatrixRow:
    model: str
    cells: list[tuple[str, str]]  # (text, title) per task


def matrix_rows(matrix: dict[str, Any], *, percent: bool) -> list[FrozenMatrixRow]:
    tasks = [t["id"] for t in matrix["tasks"]]
    rows = []
    for model in matrix["models"]:
        cells = matrix["cells"].get(model, {})
        row = []
        for task in tasks:
            cell = cells.get(task)
            if cell is None:
                row.append((formatting.DASH, f"{model} did not run {task}"))
            else:
                flags = f" (flags: {', '.join(cell['flags'])})" if cell.get("flags") else ""
                row.append((formatting.score(cell["score"], percent), f"{model} on {task}{flags}"))
        rows.append(FrozenMatrixRow(model=model, cells=row))
    return rows


def history_chart(points: list[dict[str, Any]], *, percent: bool) -> SafeString:
    """The model's score in each revision, oldest left: a line of dots, each
    labelled, in an SVG with a title (the table beside it says the same)."""
    if not points:
        return SafeString("")
    width, height, pad, left = 360, 120, 28, 48
    step = (width - left - pad) / max(len(points) - 1, 1)

    def y(score: float) -> float:
        return height - pad - score * (height - 2 * pad)

    coords = [(left + i * step, y(p["score"])) for i, p in enumerate(points)]
    scale = html_join(
        html(
            '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
            '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
            left,
            width - pad,
            f"{y(v):.1f}",
            f"{y(v):.1f}",
            left - 6,
            f"{y(v) + 4:.1f}",
            formatting.score_tick(v, percent),
        )
        for v in (0.0, 0.5, 1.0)
    )
    line = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in coords)
    dots = html_join(
        html(
            '<circle class="dot" cx="{}" cy="{}" r="4"><title>{}: {}</title></circle>'
            '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
            f"{x:.1f}",
            f"{yy:.1f}",
            p["revision"],
            formatting.score(p["score"], percent),
            f"{x:.1f}",
            height - 6,
            p["revision"],
        )
        for (x, yy), p in zip(coords, points, strict=True)
    )
    return html(
        '<svg class="chart revision-chart" viewBox="0 0 {} {}" role="img" '
        'aria-labelledby="revision-chart-title"><title id="revision-chart-title">'
        "Score in each revision, oldest first</title>{}"
        '<polyline class="series" fill="none" points="{}"/>{}</svg>',
        width,
        height,
        scale,
        line,
        dots,
    )


_BIBTEX_UNSAFE = re.compile(r"[{}\\%#&$^_~]")


def bibtex(*, bench_slug: str, title: str, revision: str, url: str, recorded: str) -> str:
    """A @misc entry citing one revision; characters BibTeX treats specially are dropped."""

    def clean(text: str) -> str:
        return _BIBTEX_UNSAFE.sub("", text)

    key = re.sub(r"[^a-z0-9-]", "", f"benchview-{bench_slug}-{revision}".lower())
    return (
        f"@misc{{{key},\n"
        f"  title = {{{{{clean(title)}}} leaderboard, revision {clean(revision)}}},\n"
        f"  howpublished = {{\\url{{{url}}}}},\n"
        f"  year = {{{recorded[:4]}}},\n"
        f"  note = {{Benchview, recorded {recorded}}}\n"
        "}"
    )
