"""The analysis pages: tool failures and protocol failures."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from formats.tools import tool_family
from leaderboard.models import CheckResult
from leaderboard.services import batch_publish
from trajectories.analysis_pages import command_of
from trajectories.models import Event

pytestmark = pytest.mark.django_db


def _page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_both_pages_have_one_h1_a_body_class_breadcrumbs_and_a_json_twin(client, bench):
    for name, body_class in (
        ("tool-failures", "page-analysis-tool-failures"),
        ("protocol", "page-analysis-protocol"),
    ):
        html = _page(client, f"/{bench.slug}/analysis/{name}/")
        assert html.count("<h1") == 1
        assert f'class="{body_class}"' in html
        assert 'class="breadcrumbs"' in html
        twin = re.search(r'<link rel="alternate" type="application/json" href="([^"]+)"', html)
        assert twin and client.get(twin.group(1).replace("&amp;", "&")).status_code == 200


def test_tool_failures_list_every_tool_with_its_calls_and_failures(client, bench):
    html = _page(client, f"/{bench.slug}/analysis/tool-failures/")
    calls = Event.objects.filter(type="tool_call")
    raw = calls.filter(ok=False).values_list("tool", flat=True).first()
    family = tool_family(raw)
    # Every raw name of the family (Bash, bash, shell → bash) is one row.
    names = sorted({t for t in calls.values_list("tool", flat=True) if tool_family(t) == family})
    listed = "".join(f"<code>{n}</code>, " for n in names)[: -len(", ")]
    row = re.search(
        rf"<code>{re.escape(family)}</code></a></th>\s*<td>{re.escape(listed)}</td>\s*"
        r"<td class=\"num\">(\d+)</td>\s*<td class=\"num\">(\d+)</td>",
        html,
    )
    assert row is not None
    assert int(row.group(1)) == calls.filter(tool__in=names).count()
    assert int(row.group(2)) == calls.filter(tool__in=names, ok=False).count()


def test_harness_names_of_one_tool_fold_into_one_row():
    assert {tool_family(n) for n in ("Bash", "bash", "shell")} == {"bash"}
    assert tool_family("WebFetch") == tool_family("webfetch") == "webfetch"
    # One table (formats.tools): Codex's patch tool is an edit here as in search and compare.
    assert tool_family("apply_patch") == tool_family("Edit") == "edit"


def test_failed_calls_show_their_command_are_paged_and_summarised(client, bench, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "analysis_max_rows": 5}
    failed = Event.objects.filter(type="tool_call", ok=False, tool__in=["Bash", "bash", "shell"])
    total = failed.count()
    assert total > 5
    url = f"/{bench.slug}/analysis/tool-failures/"
    html = _page(client, url + "?tool=bash")
    assert f"Calls 1–5 of {total}." in html
    assert 'rel="next"' in html
    last = -(-total // 5)
    html_last = _page(client, url + f"?tool=bash&page={last}")
    assert f"of {total}." in html_last and 'rel="next"' not in html_last
    # The command beside the call: the first page's first call, as its input says.
    first = failed.order_by("attempt__model__slug", "attempt__task__slug", "index", "pk").first()
    command = command_of(first.doc["input"])
    assert f'<td class="output-preview"><code>{escape(command)}</code></td>' in html
    # Summaries: by model and by exit code, adding up to the total.
    by_exit = re.search(r"<caption>By exit code</caption>.*?</table>", html, re.S).group(0)
    assert sum(int(n) for n in re.findall(r'<td class="num">(\d+)</td>', by_exit)) == total


def test_the_protocol_page_groups_failures_by_check(client, bench):
    html = _page(client, f"/{bench.slug}/analysis/protocol/")
    failed = CheckResult.objects.filter(level="L2", passed=False)
    name = failed.values_list("name", flat=True).first()
    row = re.search(rf"<code>{re.escape(name)}</code></a></th><td class=\"num\">(\d+)</td>", html)
    assert int(row.group(1)) == failed.filter(name=name).count()
    only = _page(client, f"/{bench.slug}/analysis/protocol/?check={name}")
    assert f"Failures of <code>{name}</code>" in only


def test_picking_a_tool_links_each_failed_call_to_its_event(client, bench):
    failed = Event.objects.filter(type="tool_call", ok=False).select_related(
        "attempt__model", "attempt__task"
    )
    event = failed.order_by("attempt__model__slug", "attempt__task__slug", "index").first()
    html = _page(client, f"/{bench.slug}/analysis/tool-failures/?tool={event.tool}")
    a = event.attempt
    assert f"/attempts/{a.model.slug}/{a.task.slug}/#e{event.index}" in html


def test_the_model_filter_narrows_tool_failures(client, bench):
    html = _page(client, f"/{bench.slug}/analysis/tool-failures/?model=gpt-6-astra-high")
    calls = Event.objects.filter(type="tool_call", attempt__model__slug="gpt-6-astra-high")
    assert f"<dd>{calls.count()}</dd>" in html


def test_protocol_failures_show_the_requests_each_check_names(client, bench):
    html = _page(client, f"/{bench.slug}/analysis/protocol/")
    failed = CheckResult.objects.filter(level="L2", passed=False)
    assert f"{failed.count()} failed L2 check" in html
    named = failed.exclude(requests=[]).first()
    for ref in named.requests:
        assert f"<code>{ref}</code>" in html


def test_staged_evidence_is_left_out_for_the_public(client, bench):
    batch_publish(batch=bench.batches.get(), live=False)
    html = _page(client, f"/{bench.slug}/analysis/protocol/")
    assert "0 failed L2 checks" in html


def test_an_unknown_bench_is_a_404(client, db):
    assert client.get("/no-such-bench/analysis/protocol/").status_code == 404


def test_page_queries_do_not_grow_with_the_rows_shown(client, bench, settings):
    counts = []
    for limit in (3, 300):
        settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "analysis_max_rows": limit}
        for url in (
            f"/{bench.slug}/analysis/protocol/",
            f"/{bench.slug}/analysis/tool-failures/?tool=Bash",
        ):
            with CaptureQueriesContext(connection) as captured:
                client.get(url)
            counts.append((url, len(captured)))
    assert counts[:2] == counts[2:]
