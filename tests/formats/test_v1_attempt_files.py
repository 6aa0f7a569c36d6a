"""The builders of an attempt folder's files: what they give the v1 reader
accepts, in the format's order, optional fields absent when unknown, and a
document read gives itself back through them."""

import orjson
import pytest

from formats.v1 import SCHEMA, schema
from formats.v1 import attempt_files as v1
from formats.v1.event_schema import check_events
from formats.v1.files import ATTEMPT_FILES
from formats.v1.jsondoc import parse_json

T0, T1 = "2026-11-02T10:00:00Z", "2026-11-02T10:06:52Z"


def read(doc, model):
    """``doc`` as the import reads it: written, decoded, then checked."""
    return model.model_validate(parse_json(orjson.dumps(doc)))


def summary(**changes):
    args = dict(
        bench="integration-bench",
        model="gpt-6-astra-high",
        task="stripe-refund-webhook",
        harness="codex",
        score=0.75,
        scoring_rule="task-score-v4-mandatory-gated",
        checks=v1.summary_checks(total=8, passed=6),
        flags=[],
        cost=v1.summary_cost(usd=2.31, input_tokens=812344, output_tokens=20311),
        timing=v1.summary_timing(started_at=T0, finished_at=T1, duration_s=412.5),
        hashes=v1.summary_hashes(),
        provenance=v1.summary_provenance(),
    )
    return v1.summary_document(**{**args, **changes})


def test_a_summary_reads_back_in_the_formats_order_with_its_extension_last():
    doc = summary(extra={"harbor": {"job": "j"}, "score": 0.0})
    read(doc, schema.SummaryDoc)
    assert list(doc) == ["schema", *v1.SUMMARY_FIELDS, "harbor"]
    # An extension cannot stand in for the format's own field.
    assert doc["schema"] == SCHEMA and doc["score"] == 0.75
    assert doc["checks"] == {"total": 8, "passed": 6, "failed": 2, "mandatory_failed": 0}


def test_an_unknown_optional_figure_is_left_out_and_an_unknown_cost_is_null():
    doc = summary(cost=v1.summary_cost(usd=None, input_tokens=0, output_tokens=0))
    read(doc, schema.SummaryDoc)
    assert doc["cost"] == {"usd": None, "input_tokens": 0, "output_tokens": 0}
    assert doc["hashes"] == {"task_tree": "", "harness_tree": ""}
    assert doc["provenance"] == {}


def test_every_optional_summary_field_given_reads_back():
    doc = summary(
        cost=v1.summary_cost(
            usd=0.0, input_tokens=1, output_tokens=2, cache_read_tokens=0, cache_write_tokens=4
        ),
        hashes=v1.summary_hashes(
            task_tree=v1.sha256_ref(b"t"), harness_tree="h", patch=v1.sha256_ref(b"")
        ),
        provenance=v1.summary_provenance(
            harness_version="codex-cli 0.98.0", model_version="m", run_id="r", exporter="e"
        ),
    )
    got = read(doc, schema.SummaryDoc)
    assert got.cost.cache_read_tokens == 0 and got.cost.cache_write_tokens == 4
    assert doc["hashes"]["patch"] == (
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )
    assert list(doc["provenance"]) == ["harness_version", "model_version", "run_id", "exporter"]


def test_a_verdict_reads_back_its_checks_detail_and_requests_only_where_given():
    checks = [
        v1.verdict_check(name="refund-created", level="L1", mandatory=True, passed=True),
        v1.verdict_check(
            name="idempotency-key-sent",
            level="L2",
            mandatory=False,
            passed=False,
            detail="POST /v1/refunds sent without Idempotency-Key",
            requests=("stripe:req_0007",),
            extra={"x_note": 1},
        ),
    ]
    doc = v1.verdict_document(
        model="m",
        task="t",
        grader=v1.verdict_grader("ib-grader", "4.2.0"),
        checks=checks,
        extra={"reward": 1.0, "threshold": 1.0},
    )
    got = read(doc, schema.VerdictDoc)
    assert list(doc) == ["schema", "model", "task", "grader", "checks", "reward", "threshold"]
    assert list(doc["checks"][0]) == ["name", "level", "mandatory", "passed"]
    assert got.checks[1].requests == ["stripe:req_0007"]
    assert list(doc["checks"][1])[-1] == "x_note"


def test_a_trajectory_keeps_its_events_last_whatever_it_adds():
    events = [
        {"index": 0, "type": "system", "model": "claude-opus-5-5", "tool_count": 14},
        {"index": 1, "type": "user", "text": "the ticket"},
        {
            "index": 2,
            "type": "tool_call",
            "tool": "Bash",
            "input": {"command": "pytest -q"},
            "result": {"ok": False, "output": "1 failed", "exit_code": 1},
        },
    ]
    doc = v1.trajectory_document(
        harness="claude-code", model="m", events=iter(events), extra={"format": "x", "events": 0}
    )
    read(doc, schema.TrajectoryHeadDoc)
    assert check_events(doc["events"]) == []
    assert list(doc) == ["schema", "harness", "model", "format", "events"]
    assert doc["events"] == events
    head = v1.trajectory_head(harness="h", model="m")
    assert head == {"schema": SCHEMA, "harness": "h", "model": "m"}


def test_a_vendor_log_reads_back_requests_and_webhooks_in_the_formats_order():
    inbound = v1.vendor_entry(
        id="req_0007",
        ts=T0,
        direction="inbound",
        method="POST",
        path="/v1/refunds",
        query={},
        headers={"authorization": "Bearer sk_test_sim_4eC39"},
        body={"charge": "ch_9"},
        status=200,
        response={"id": "re_123"},
        duration_ms=14,
    )
    webhook = v1.vendor_entry(
        id="wh_0002",
        ts=T1,
        direction="webhook",
        event="charge.refunded",
        method="POST",
        path="/webhooks/stripe",
        body={"type": "charge.refunded"},
        status=500,
        response="Internal Server Error",
        attempt=1,
    )
    doc = v1.vendor_requests_document(vendors={"stripe": (inbound, webhook)})
    read(doc, schema.VendorLogDoc)
    assert list(inbound) == [
        "id",
        "ts",
        "direction",
        "method",
        "path",
        "query",
        "headers",
        "body",
        "status",
        "response",
        "duration_ms",
    ]
    assert list(webhook) == [
        "id",
        "ts",
        "direction",
        "event",
        "method",
        "path",
        "body",
        "status",
        "response",
        "attempt",
    ]


def test_a_document_read_comes_back_equal_its_nulls_and_unknown_fields_kept():
    as_read = {
        "x_first": [1, None],
        **summary(),
        "cost": {"usd": None, "input_tokens": 0, "output_tokens": 0, "cache_read_tokens": None},
        "provenance": {"run_id": None, "x_runner": {"deep": None}},
        "x_last": None,
    }
    again = v1.summary_again(as_read)
    assert again == as_read
    assert list(again) == ["schema", *v1.SUMMARY_FIELDS, "x_first", "x_last"]

    verdict = {"schema": SCHEMA, "x": 1, "model": "m", "task": "t", "grader": {"name": "g"}}
    checks = [{"name": "c", "level": "L1", "mandatory": False, "passed": True, "detail": None}]
    assert v1.verdict_again(verdict, checks) == {**verdict, "checks": checks}
    assert v1.verdict_again({**verdict, "checks": checks}) == {**verdict, "checks": checks}

    head = {"schema": SCHEMA, "model": "m", "format": "f", "harness": "h"}
    assert list(v1.trajectory_head_again({**head, "events": [1]})) == [
        "schema",
        "harness",
        "model",
        "format",
    ]
    log = {"schema": SCHEMA, "x": None}
    vendors = {"s": [{"id": "a"}]}
    assert v1.vendor_requests_again(log, vendors) == {**log, "vendors": vendors}


def test_a_document_missing_a_field_of_the_format_cannot_be_given_back():
    incomplete = {k: v for k, v in summary().items() if k != "timing"}
    with pytest.raises(KeyError, match="timing"):
        v1.summary_again(incomplete)


def test_a_folder_names_every_attempt_file_in_the_formats_order():
    assert list(v1.FOLDER_FILES.values()) == list(ATTEMPT_FILES)
    files = v1.folder_files(
        lambda doc: orjson.dumps(doc),
        problem="Fix the webhook — ünïcödé",
        transcript=b"{}\n",
        summary=summary(),
        patch="--- a\n+++ b\n",
        verdict=None,
    )
    assert list(files) == ["summary.json", "patch.diff", "transcript.jsonl", "problem.md"]
    assert files["problem.md"] == "Fix the webhook — ünïcödé".encode()
    assert files["transcript.jsonl"] == b"{}\n"
    read(orjson.loads(files["summary.json"]), schema.SummaryDoc)
