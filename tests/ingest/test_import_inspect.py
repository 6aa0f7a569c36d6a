"""Inspect AI logs through the import: samples are tasks, epochs trials, the
header's metric the published figure; bad logs refused by file and JSON path."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from leaderboard.models import Attempt, Bench, Disagreement, Model, Task
from samplegen.inspect_logs import header, sample_record, write_eval, write_sample_inspect
from tests.factories import dump

if sys.version_info >= (3, 14):
    import zipfile
else:
    from backports.zstd import zipfile

pytestmark = pytest.mark.django_db


def _import(*paths, bench: str = "ib", **options) -> str:
    out = io.StringIO()
    call_command(
        "import_inspect", *map(str, paths), bench=bench, stdout=out, stderr=io.StringIO(), **options
    )
    return out.getvalue()


def _refused(*paths, **options) -> str:
    err = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command(
            "import_inspect", *map(str, paths), bench="ib", stdout=io.StringIO(), stderr=err,
            **options,
        )  # fmt: skip
    return f"{caught.value}\n{err.getvalue()}"


def _records(model: str, values: dict[tuple[int, int], str], turns: int = 3) -> list[dict]:
    return [
        sample_record(sid, epoch, model=model, turns=turns, value=value, flag="flag{f}")
        for (sid, epoch), value in values.items()
    ]


def _log(path: Path, model: str, values: dict[tuple[int, int], str], **options) -> Path:
    records = _records(model, values)
    write_eval(path, header(model, records), records, **options)
    return path


def _replace(path: Path, name: str, data: bytes) -> None:
    """The log with entry ``name`` holding ``data`` instead."""
    with zipfile.ZipFile(path) as archive:
        kept = [(i, archive.read(i)) for i in archive.infolist() if i.filename != name]
    with zipfile.ZipFile(path, "w") as archive:
        for info, content in kept:
            archive.writestr(info, content)
        archive.writestr(name, data)


def _body(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def test_logs_of_three_models_make_one_bench_scored_from_each_samples_value(tmp_path):
    write_sample_inspect(tmp_path)
    _import(tmp_path, title="Inspect CTF")
    bench = Bench.objects.get(slug="ib")
    assert (bench.title, bench.scoring_rule) == ("Inspect CTF", "reward-threshold")
    assert Task.objects.filter(bench=bench).count() == 8
    figures = {
        m.slug: (m.passed, m.trials, m.tasks, m.score) for m in Model.objects.filter(bench=bench)
    }
    # Claude's partial answer (P, 0.5) fails under the default threshold of 1.0;
    # the header's accuracy counts it as half (0.65625, carried in the row's
    # x-inspect-results: tests/formats/test_inspect_logs_adapter.py).
    assert figures == {
        "openai-gpt-6-astra": (12, 16, 8, 0.75),
        "anthropic-claude-opus-5-5": (10, 16, 8, 0.625),
        "google-gemini-4-pro": (6, 16, 8, 0.375),
    }
    # Epoch 1 is the attempt, epoch 2 its further trial.
    assert Attempt.objects.filter(model__slug="openai-gpt-6-astra", trial=0).count() == 8
    assert Attempt.all_trials.filter(model__slug="openai-gpt-6-astra", trial=1).count() == 8


def test_pass_threshold_half_passes_a_partial_answer(tmp_path):
    write_sample_inspect(tmp_path)
    _import(tmp_path, pass_threshold=0.5)
    model = Model.objects.get(slug="anthropic-claude-opus-5-5")
    assert (model.passed, model.score) == (11, 0.6875)


def test_a_summary_without_its_sample_scores_with_no_trajectory(tmp_path, client):
    _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C", (2, 1): "C"}, summary_only={(2, 1)})
    _import(tmp_path / "a.eval")
    scored = Attempt.objects.get(task__slug="2")
    assert scored.score == 1.0
    assert scored.events.count() == 0
    assert Attempt.objects.get(task__slug="1").events.count() > 0


def test_the_attempt_page_shows_the_events_and_escapes_hostile_text(tmp_path, client):
    records = _records("openai/m", {(1, 1): "I"})
    records[0]["messages"][1]["content"] = "<script>alert(1)</script>"
    write_eval(tmp_path / "a.eval", header("openai/m", records), records)
    _import(tmp_path / "a.eval")
    html = _body(client.get(reverse("attempt", args=["ib", "openai-m", "1"])))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert(1)" not in html
    assert "ls -la /ctf/0" in html


def test_the_same_logs_imported_again_change_nothing(tmp_path):
    write_sample_inspect(tmp_path)
    _import(tmp_path)
    before = dump()
    assert "nothing changed" in _import(tmp_path)
    assert dump() == before


def test_a_json_log_imports_as_the_eval_form_does(tmp_path):
    records = _records("openai/m", {(1, 1): "C", (2, 1): "I"})
    doc = {**header("openai/m", records), "samples": records}
    (tmp_path / "log.json").write_text(json.dumps(doc))
    _import(tmp_path / "log.json")
    assert Model.objects.get().passed == 1
    assert Attempt.objects.get(task__slug="1").events.count() > 0


def test_the_same_epoch_of_a_sample_in_two_logs_is_refused_naming_both(tmp_path):
    _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C"})
    _log(tmp_path / "b.eval", "openai/m", {(1, 1): "I"})
    said = _refused(tmp_path)
    assert "b.eval: summaries.json: 1 sample epoch(s) of openai/m are also in" in said
    assert "(1 epoch 1): a sample's epoch may appear once; import one of the two logs" in said
    assert "a.eval" in said
    assert not Bench.objects.exists()


def test_a_broken_header_is_refused_naming_the_file_and_path_and_nothing_is_written(tmp_path):
    path = _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C"})
    _replace(path, "header.json", b'{"version": 2, "eval": "not an object"}')
    before = dump()
    assert "a.eval: header.json: $.eval: missing or not an object" in _refused(path)
    assert dump() == before


def test_a_summary_without_an_epoch_is_refused_with_its_json_path(tmp_path):
    path = _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C"})
    _replace(path, "summaries.json", b'[{"id": 1, "scores": {}}]')
    assert "a.eval: summaries.json: $[0].epoch: missing or not a epoch" in _refused(path)


def test_an_entry_name_that_escapes_and_an_oversized_entry_are_refused(tmp_path, settings):
    path = _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C"})
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("../evil.json", b"{}")
    assert "'../evil.json': an entry name that escapes" in _refused(path)
    path = _log(tmp_path / "b.eval", "openai/m", {(1, 1): "C"})
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "file_max_bytes": 2000}
    assert "more than the limit of 2000 bytes" in _refused(path)


@pytest.mark.parametrize("zstd", [True, False], ids=["zstd", "deflate"])
def test_zstd_entries_as_inspect_writes_them_now_and_deflated_ones_as_before(tmp_path, zstd):
    path = _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C"}, zstd=zstd)
    with zipfile.ZipFile(path) as archive:
        assert {i.compress_type for i in archive.infolist()} == ({93} if zstd else {8})
    _import(path)
    assert Attempt.objects.get().events.count() > 0


def test_a_compression_method_zipfile_does_not_read_is_refused_naming_the_entry(tmp_path):
    path = _log(tmp_path / "a.eval", "openai/m", {(1, 1): "C"}, zstd=False)
    data = bytearray(path.read_bytes())
    # Every entry's method (central directory and local header) -> 97, WavPack.
    for signature, offset in ((b"PK\x01\x02", 10), (b"PK\x03\x04", 8)):
        at = data.find(signature)
        while at >= 0:
            data[at + offset : at + offset + 2] = (97).to_bytes(2, "little")
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))
    said = _refused(path)
    assert "a.eval: header.json: " in said and "compression" in said.lower()


def test_unknown_fields_are_ignored_and_a_value_with_no_reading_is_unscored(tmp_path):
    records = _records("openai/m", {(1, 1): "C", (2, 1): "C"})
    records[0]["future_field"] = {"anything": [1, 2]}
    records[1]["scores"] = {"includes": {"value": {"a": 1, "b": 0}}}
    write_eval(tmp_path / "a.eval", header("openai/m", records), records)
    _import(tmp_path / "a.eval")
    unscored = Attempt.objects.get(task__slug="2")
    assert (unscored.score, unscored.flags) == (0.0, ["unscored"])
    assert Attempt.objects.get(task__slug="1").score == 1.0


def test_what_is_no_inspect_log_is_refused_saying_what_was_looked_for(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    assert "no Inspect log (.eval zip or .json) found" in _refused(tmp_path)


def test_make_demo_imports_the_sample_inspect_logs_and_the_readme_names_them():
    root = Path(__file__).resolve().parents[2]
    demo = (root / "Makefile").read_text().split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "import_inspect $(INSPECT_DIR) --bench inspect-ctf" in demo
    from samplegen.inspect_logs import EPOCHS, MODELS, SAMPLES

    readme = (root / "README.md").read_text()
    assert "(`/inspect-ctf/`)" in readme
    assert f"{len(MODELS)} models on {SAMPLES}\n  samples, two epochs" in readme and EPOCHS == 2


def test_a_header_metric_that_differs_from_the_samples_is_stored_and_an_equal_one_is_not(
    tmp_path,
):
    records = _records("openai/gpt-6-astra", {(1, 1): "C", (2, 1): "I"})
    head = header("openai/gpt-6-astra", records)
    assert head["results"]["scores"][0]["metrics"]["accuracy"]["value"] == 0.5
    write_eval(tmp_path / "equal" / "a.eval", head, records)
    _import(tmp_path / "equal", bench="same")
    assert Model.objects.get(bench__slug="same").score == 0.5
    assert not Disagreement.objects.filter(bench__slug="same").exists()

    head["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.9
    write_eval(tmp_path / "differs" / "a.eval", head, records)
    _import(tmp_path / "differs", bench="other")
    found = Disagreement.objects.get(bench__slug="other")
    assert (found.model.slug, found.task, found.published, found.recomputed) == (
        "openai-gpt-6-astra",
        None,
        0.9,
        0.5,
    )
