"""Small inputs in the shapes of swebench.com's leaderboards.json and
OpenHands' index results, written from what the real files hold (never
copies of them): edge cases included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

INSTANCES = ["astropy__astropy-1", "django__django-2", "django__django-3", "sympy__sympy-4"]


def entry(folder: str, name: str, resolved: float, **kw: Any) -> dict[str, Any]:
    return {
        "name": name,
        "folder": folder,
        "date": "2025-11-24",
        "resolved": resolved,
        "cost": None,
        "instance_cost": None,
        "instance_calls": None,
        "tags": ["Model: some-model", "Org: Acme Labs", "System: Attempts - 1"],
        "os_model": False,
        "os_system": True,
        "checked": True,
        "site": "https://example.org/agent",
        "logs": f"s3://bucket/verified/{folder}/logs",
        "trajs": f"s3://bucket/verified/{folder}/trajs",
        "trajs_docent": False,
        "logo": ["https://example.org/logo.png"],  # unknown to the adapter: kept
        "warning": None,
        **kw,
    }


def details(resolved: list[bool], instances: list[str] = INSTANCES) -> dict[str, Any]:
    return {
        i: {"resolved": r, "cost": 0.25 * (n + 1), "api_calls": 10 + n}
        for n, (i, r) in enumerate(zip(instances, resolved, strict=True))
    }


def leaderboards() -> dict[str, Any]:
    """Two leaderboards: Verified (two entries with per-instance details, one
    of them over three of the four instances and published over a different
    count; two published-only entries sharing the display name "Warp"; a
    hostile name) and Lite (published-only, a "checked" note)."""
    verified = [
        entry(
            "20251124_mini-v1.16.0_model-a",
            "mini-SWE-agent + Model A",
            75.0,
            cost=1.0,
            instance_cost=0.25,
            instance_calls=11.5,
            per_instance_details=details([True, True, False, True]),
            **{"mini-swe-agent_version": "1.16.0"},
        ),
        entry(
            "20251124_mini-v1.16.0_model-b",
            "mini-SWE-agent + Model B",
            66.67,  # 2 of the 3 it lists; the site counts the 4th as failed
            per_instance_details=details([True, False, True], INSTANCES[:3]),
            os_model=True,
            **{"mini-swe-agent_version": "1.16.0"},
        ),
        entry("20250901_warp", "Warp", 80.0, checked=False),
        entry("20250601_warp", "Warp", 50.2, tags=["Org: Warp"], date="2025-06-01"),
        entry(
            "20250101_<x>",
            '<script>alert("x")</script> Agent',
            10.0,
            site=["javascript:alert(1)"],
            tags=[],
        ),
    ]
    lite = [
        entry("20250625_experepair", "ExpeRepair", 60.33, checked="false (See README.md)"),
        entry("20250425_refact", "Refact.ai", 60.0, os_system=False),
    ]
    return {
        "leaderboards": [
            {"name": "Verified", "results": verified},
            {"name": "Lite", "results": lite},
        ]
    }


def write_leaderboards(root: Path, doc: dict[str, Any] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    path = root / "leaderboards.json"
    path.write_text(json.dumps(leaderboards() if doc is None else doc, indent=1))
    return path


# -- OpenHands index -------------------------------------------------------------------------


def _model(root: Path, folder: str, model: str, scores: list[dict], instances: dict) -> None:
    base = root / folder
    (base / "instance_results").mkdir(parents=True, exist_ok=True)
    (base / "metadata.json").write_text(
        json.dumps(
            {
                "agent_name": "OpenHands",
                "agent_version": "v1.18.0",
                "model": model,
                "openness": "open_weights_available" if "open" in model else "closed_api_available",
                "country": "us",
                "tool_usage": "standard",
                "directory_name": folder.rsplit("/", 1)[-1],
                "release_date": "2026-03-05",
            }
        )
    )
    (base / "scores.json").write_text(json.dumps(scores))
    for benchmark, outcomes in instances.items():
        (base / "instance_results" / f"{benchmark}.json").write_text(json.dumps(outcomes))


def score(benchmark: str, value: float, **kw: Any) -> dict[str, Any]:
    return {
        "benchmark": benchmark,
        "score": value,
        "metric": "accuracy",
        "cost_per_instance": 0.5,
        "average_runtime": 300.0,
        "full_archive": f"https://example.org/{benchmark}/results.tar.gz",
        "tags": [benchmark],
        "agent_version": "v1.18.0",
        "submission_time": "2026-04-22T20:38:49+00:00",
        **kw,
    }


def outcomes(resolved: list[bool | None], instances: list[str]) -> dict[str, Any]:
    return {
        i: {"resolved": r, "cost": None if r is None else 0.1 * (n + 1)}
        for n, (i, r) in enumerate(zip(instances, resolved, strict=True))
    }


GAIA = ["00d579ea-0889", "023e9d44-96ae", "0383a3ee-47a7"]


def write_index(root: Path) -> Path:
    """results/ with two models over two benchmarks (one without instance
    results for gaia: published-only; one outcome unknown), and one
    alternative agent."""
    _model(
        root,
        "results/Model-X",
        "Model-X",
        [score("swe-bench", 75.0), score("gaia", 66.7)],
        {
            "swe-bench": outcomes([True, True, False, True], INSTANCES),
            "gaia": outcomes([True, None, True], GAIA),
        },
    )
    _model(
        root,
        "results/open-model-y",
        "open-model-y",
        [score("swe-bench", 50.0), score("gaia", 33.3)],
        {"swe-bench": outcomes([True, False, False, True], INSTANCES)},
    )
    _model(
        root,
        "alternative_agents/acp-codex/Model-X",
        "Model-X",
        [score("swe-bench", 25.0)],
        {"swe-bench": outcomes([False, False, True], INSTANCES[:3])},
    )
    return root
