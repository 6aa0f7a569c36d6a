"""One table of tool families (formats.tools), and every consumer agrees with it:
the search filter and its facet, the analysis pages' rows, the compare page's
alignment key and the sample generator's harness tool lists."""

from __future__ import annotations

from collections import defaultdict

import pytest
from django.contrib.auth.models import AnonymousUser

from formats.tools import TOOL_FAMILIES, tool_family, tool_spellings
from leaderboard.models import Attempt
from samplegen.catalog import HARNESS_TOOLS
from tests.factories import import_path
from tests.search.helpers import add_events, attempt_folders, tool_call
from trajectories import analysis
from trajectories.analysis_pages import tool_families
from trajectories.comparison import normalised_step
from trajectories.search.engine import matching_events, search
from trajectories.search.query import parse

# One spelling per harness style, as the raw transcripts carry them.
PLANTED = {
    "Bash": "bash",  # Claude Code
    "shell": "bash",  # Codex
    "local_shell": "bash",  # Codex (Responses API)
    "exec_command": "bash",  # Codex (newer)
    "execute_bash": "bash",  # OpenHands
    "bash_command": "bash",  # Terminus (ATIF)
    "python": "python",  # Inspect
    "apply_patch": "edit",  # Codex
    "Edit": "edit",  # Claude Code
    "str_replace_editor": "edit",  # SWE-agent, OpenHands
    "text_editor": "edit",  # Inspect
    "Grep": "search",  # Claude Code
    "glob": "search",  # OpenCode
    "submit": "submit",  # SWE-agent, Inspect
    "MyTool": "mytool",  # unknown: its own family
}


def test_each_spelling_has_one_family():
    seen: dict[str, str] = {}
    for family, spellings in TOOL_FAMILIES.items():
        assert family in spellings, f"{family} is not one of its own spellings"
        for s in spellings:
            assert s == s.casefold()
            assert seen.setdefault(s, family) == family, f"{s} is in {seen[s]} and {family}"


def test_the_chosen_families():
    assert {name: tool_family(name) for name in PLANTED} == PLANTED
    assert tool_family(" BASH ") == "bash"
    assert tool_spellings("MyTool") == ["mytool"]


def test_every_tool_the_sample_generator_uses_has_a_family():
    for harness, names in HARNESS_TOOLS.items():
        unknown = [n for n in names if n.casefold() not in TOOL_FAMILIES[tool_family(n)]]
        assert unknown == [], f"{harness}: {unknown} have no family in formats.tools"


def test_compare_aligns_steps_of_one_family_and_only_those():
    key = {name: normalised_step(name, {"path": "a.py"})[0] for name in PLANTED}
    by_family = defaultdict(set)
    for name, family in PLANTED.items():
        by_family[family].add(key[name])
    assert all(len(kinds) == 1 for kinds in by_family.values())
    assert len({next(iter(k)) for k in by_family.values()}) == len(by_family)


@pytest.fixture
def planted_tools(db, release_copy):
    """The small release with one call of each PLANTED spelling, each failing."""
    model, task = attempt_folders(release_copy)[0]
    calls = [tool_call(name, f"wombat {name}", "no", ok=False, exit_code=1) for name in PLANTED]
    add_events(release_copy, model, task, calls)
    return import_path(release_copy).bench


def test_search_analysis_and_facets_group_by_the_table(planted_tools):
    bench = planted_tools
    families = defaultdict(set)
    for name, family in PLANTED.items():
        families[family].add(name)

    def found(q: str) -> set[str]:
        events = matching_events(bench, AnonymousUser(), parse(q, {}))
        return set(events.values_list("tool", flat=True))

    for family, names in families.items():
        for spelling in {*names, family}:
            assert found(f"wombat tool:{spelling}") == names, spelling
    results = search(bench=bench, user=AnonymousUser(), query=parse("wombat", {}))
    assert {f.value: f.count for f in results.facets["tool"]} == {
        family: len(names) for family, names in families.items()
    }

    rows = tool_families(analysis.tool_failures(Attempt.objects.filter(bench=bench)))
    planted_rows = {r.tool: set(r.raw) & set(PLANTED) for r in rows}
    for family, names in families.items():
        assert planted_rows[family] == names
