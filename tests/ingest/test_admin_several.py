"""Admin import of an input of several benches (swebench.com's leaderboards.json,
OpenHands' index results): told by content, previewed bench by bench, applied as
one job that writes every bench or none, each bench with its own import record."""

from __future__ import annotations

import io
import re
import tarfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ingest.models import ImportJob, ImportRecord
from ingest.running.jobs import job_enqueue
from ingest.running.locks import import_lock
from ingest.running.staging import Staged
from leaderboard.models import Bench, Model
from tests.factories import (
    START,
    UPLOAD,
    apply_and_run,
    dump,
    import_path,
    make_user,
    run_jobs,
    staged_folders,
    tar_gz,
    token_of,
)
from tests.formats.leaderboards.fixtures import leaderboards, write_index, write_leaderboards

# Applying goes through an import job, whose progress row has its own connection.
pytestmark = pytest.mark.django_db(databases=["default", "progress"])

A = "20251124_mini-v1.16.0_model-a"
B = "20251124_mini-v1.16.0_model-b"


@pytest.fixture(autouse=True)
def _private_folders(settings, tmp_path):
    settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
    settings.BENCHVIEW_IMPORT_DIR = tmp_path / "imports"
    (tmp_path / "imports").mkdir()


@pytest.fixture
def staff(db):
    return make_user("stafford")


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def upload(client: Client, path: Path, **data):
    with open(path, "rb") as fh:
        return client.post(reverse(UPLOAD), {"archive": fh, **data})


def preview(client: Client, token: str) -> str:
    return client.get(reverse("admin:ingest_import_preview", args=[token])).content.decode()


def table_rows(html: str, css_class: str) -> list[list[str]]:
    """The text of each body row's cells of the table of ``css_class``."""
    table = html.split(f'class="{css_class}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [
        [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]
        for cells in (
            re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
        )
    ]


def board_file(tmp_path: Path, doc: dict | None = None) -> Path:
    return write_leaderboards(tmp_path / "in", doc)


# --- swebench.com's leaderboards.json -------------------------------------------------------


def test_an_uploaded_leaderboards_file_is_previewed_bench_by_bench(staff_client, tmp_path):
    response = upload(staff_client, board_file(tmp_path), bench="swe")
    token = token_of(response)
    html = preview(staff_client, token)
    assert "<h1>Preview: 2 benches from leaderboards.json</h1>" in html
    # One row per bench: id and status, title, models, tasks, attempts, problems, differ.
    assert table_rows(html, "import-benches") == [
        ["swe-verified new", "Swe Verified", "5", "4", "7", "0", "1"],
        ["swe-lite new", "Swe Lite", "2", "0", "0", "0", "0"],
    ]
    # Then each bench's own preview, as for one bench: its leaderboard after the import.
    assert 'id="b1-bench-heading"' in html and 'id="b2-bench-heading"' in html
    assert html.count("Leaderboard after the import") == 2
    assert f"<code>{B.lower()}</code>" in html and "<code>20250625_experepair</code>" in html
    assert "Apply this import" in html
    assert not Bench.objects.exists()
    records = list(ImportRecord.objects.order_by("pk"))
    assert [(r.action, r.outcome, r.bench) for r in records] == [
        ("preview", "checked", "swe-verified"),
        ("preview", "checked", "swe-lite"),
    ]
    # The staged meta says what the job needs: the format, the prefix, each bench's hash.
    meta = Staged.find(token).read("meta.json")
    assert meta["bench"] == "swe"
    assert meta["several"] == {
        "adapter": "swebench-leaderboards",
        "benches": [{"bench": r.bench, "sha256": r.source_sha256} for r in records],
    }


def test_applying_imports_every_bench_in_one_job_with_a_record_each(staff_client, staff, tmp_path):
    token = token_of(upload(staff_client, board_file(tmp_path), bench="swe"))
    job = apply_and_run(staff_client, token)
    assert job.state == "done" and job.error == ""
    verified, lite = Bench.objects.get(slug="swe-verified"), Bench.objects.get(slug="swe-lite")
    assert verified.title == "Swe Verified" and lite.title == "Swe Lite"
    assert verified.models.count() == 5 and lite.models.count() == 2
    a = Model.objects.get(bench=verified, slug=A.lower())
    assert (a.score, a.passed, a.tasks) == (0.75, 3, 4)
    records = list(ImportRecord.objects.filter(action="import").order_by("pk"))
    assert [(r.bench, r.outcome, r.user, r.via) for r in records] == [
        ("swe-verified", "applied", staff, "admin"),
        ("swe-lite", "applied", staff, "admin"),
    ]
    assert list(job.records.order_by("pk")) == records
    assert staged_folders() == []

    page = staff_client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    assert "All 2 benches imported" in page
    rows = table_rows(page, "import-job-benches")
    assert [row[:2] for row in rows] == [["swe-verified", "applied"], ["swe-lite", "applied"]]
    for bench in (verified, lite):
        assert reverse("admin:leaderboard_bench_change", args=[bench.pk]) in page
    status = staff_client.get(reverse("admin:ingest_import_job_status", args=[job.pk])).json()
    assert (status["state"], status["done"], status["total"]) == ("done", 7, 7)


def test_several_benches_are_not_offered_in_chunks_and_a_forged_chunked_apply_is_refused(
    staff_client, tmp_path
):
    token = token_of(upload(staff_client, board_file(tmp_path), bench="swe"))
    html = preview(staff_client, token)
    assert "Apply this import" in html and 'name="publish"' in html
    assert 'name="chunked"' not in html and "Write in chunks" not in html
    # Posted anyway: refused as import_results refuses --chunked, nothing queued.
    apply_url = reverse("admin:ingest_import_apply", args=[token])
    response = staff_client.post(apply_url, {"publish": "on", "chunked": "on"}, follow=True)
    assert response.redirect_chain == [(reverse("admin:ingest_import_preview", args=[token]), 302)]
    assert (
        "Not applied: swebench-leaderboards: writing in chunks takes one bench "
        "(several are written all or none)."
    ) in response.content.decode()
    assert not ImportJob.objects.exists() and not Bench.objects.exists()
    assert [p.name for p in staged_folders()] == [token]  # still there, to apply unchunked
    meta = Staged.find(token).read("meta.json")
    with pytest.raises(ValueError, match="writing in chunks takes one bench"):
        job_enqueue(
            path=tmp_path, name="x", expected_sha256=meta["sha256"], staged=False, user=None,
            several=meta["several"], chunked=True,
        )  # fmt: skip
    job = apply_and_run(staff_client, token)
    assert (job.state, job.chunked) == ("done", False)


@pytest.mark.django_db(transaction=True, databases=["default", "progress"])
def test_the_admin_import_gives_the_same_database_as_the_command_line(tmp_path):
    # Both imports start from restarted id sequences, so equal rows have equal pks.
    path = board_file(tmp_path)
    call_command("flush", interactive=False, verbosity=0)
    client = Client()
    client.force_login(make_user("stafford"))
    assert apply_and_run(client, token_of(upload(client, path, bench="swe"))).state == "done"
    from_admin = dump()

    call_command("flush", interactive=False, verbosity=0)
    call_command("import_results", str(path), bench="swe", stdout=io.StringIO())
    assert dump() == from_admin


def test_a_bench_with_problems_shows_which_and_none_can_be_applied(
    staff_client, small_release_dir, tmp_path
):
    import_path(small_release_dir)
    doc = leaderboards()
    doc["leaderboards"][1]["name"] = "L" * 120  # its bench id would be too long
    long_id = "swe-" + "l" * 100  # the leaderboard's name as an id is cut at 100
    before = dump()
    response = upload(staff_client, board_file(tmp_path, doc), bench="swe")
    html = response.content.decode()
    assert response.status_code == 400
    assert f"{long_id} has problems, so nothing of this input can be applied" in html
    rows = table_rows(html, "import-benches")
    assert [(row[0], row[5]) for row in rows] == [
        ("swe-verified new", "0"),
        (f"{long_id} new", "1"),
    ]
    # The problem, in the bench's own preview: its file, its JSON path, what is wrong.
    assert table_rows(html, "import-problems") == [
        ["manifest.json", "bench", "String should have at most 100 characters"]
    ]
    assert "Apply this import" not in html
    assert staged_folders() == [] and dump() == before
    previews = ImportRecord.objects.filter(action="preview").order_by("pk")
    outcomes = list(previews.values_list("bench", "outcome"))
    # The record's bench is cut to its column's size.
    assert outcomes == [("swe-verified", "checked"), (long_id[:100], "refused")]


def test_an_unreadable_file_is_refused_naming_the_file_and_json_path(staff_client, tmp_path):
    doc = leaderboards()
    doc["leaderboards"][1]["results"][0]["resolved"] = -3
    response = upload(staff_client, board_file(tmp_path, doc), bench="swe")
    html = response.content.decode()
    assert response.status_code == 400
    assert "This input cannot be read, so nothing was written" in html
    assert "leaderboards.json: leaderboards[1].results[0].resolved" in html
    assert staged_folders() == [] and not Bench.objects.exists()
    record = ImportRecord.objects.get()
    assert (record.action, record.outcome, record.bench) == ("preview", "refused", "swe")
    assert any("leaderboards[1].results[0].resolved" in p for p in record.problems)


def test_without_a_bench_id_the_input_is_refused_asking_for_one(staff_client, tmp_path):
    response = upload(staff_client, board_file(tmp_path))
    assert response.status_code == 400
    assert "needs the bench id (--bench), the prefix of each" in response.content.decode()
    assert staged_folders() == [] and not Bench.objects.exists()


def pick_folder(client: Client, settings, doc: dict | None = None) -> str:
    """Preview a folder of the import folder holding leaderboards.json; its token."""
    write_leaderboards(Path(settings.BENCHVIEW_IMPORT_DIR) / "boards", doc)
    return token_of(client.post(reverse(START), {"name": "boards", "bench": "swe"}))


def test_a_bench_that_changed_since_its_preview_refuses_them_all(staff_client, settings):
    token = pick_folder(staff_client, settings)
    doc = leaderboards()
    doc["leaderboards"][1]["results"][0]["resolved"] = 61.0  # swe-lite changes; Verified not
    write_leaderboards(Path(settings.BENCHVIEW_IMPORT_DIR) / "boards", doc)
    before = dump()

    job = apply_and_run(staff_client, token)
    assert job.state == "failed"
    assert job.error == (
        "bench swe-lite: the release changed since it was previewed; preview it again; "
        "no bench of this input was written"
    )
    # swe-verified was written first, then rolled back with swe-lite.
    assert dump() == before and not Bench.objects.exists()
    records = {r.bench: r for r in ImportRecord.objects.filter(action="import")}
    assert {b: r.outcome for b, r in records.items()} == {
        "swe-verified": "refused",
        "swe-lite": "refused",
    }
    assert "bench swe-lite of the same import was refused" in records["swe-verified"].message
    assert job.record == records["swe-lite"]
    assert set(job.records.all()) == set(records.values())
    page = staff_client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    assert "None of them was written" in page and "Retry this job" in page
    rows = table_rows(page, "import-job-benches")
    assert [row[:2] for row in rows] == [["swe-verified", "refused"], ["swe-lite", "refused"]]


def test_an_input_broken_since_its_preview_fails_naming_the_file_and_json_path(
    staff_client, settings
):
    token = pick_folder(staff_client, settings)
    doc = leaderboards()
    doc["leaderboards"][0]["results"][1]["resolved"] = "most"
    write_leaderboards(Path(settings.BENCHVIEW_IMPORT_DIR) / "boards", doc)
    job = apply_and_run(staff_client, token)
    assert job.state == "failed" and not Bench.objects.exists()
    assert "leaderboards.json: leaderboards[0].results[1].resolved" in job.error
    assert job.record.outcome == "refused" and job.record.bench == "swe"
    page = staff_client.get(reverse("admin:ingest_import_job", args=[job.pk])).content.decode()
    assert "leaderboards[0].results[1].resolved" in page


def test_an_input_holding_other_benches_than_its_preview_is_refused(staff_client, settings):
    token = pick_folder(staff_client, settings)
    doc = leaderboards()
    doc["leaderboards"].append({"name": "Test", "results": doc["leaderboards"][1]["results"]})
    write_leaderboards(Path(settings.BENCHVIEW_IMPORT_DIR) / "boards", doc)
    job = apply_and_run(staff_client, token)
    assert job.state == "failed" and not Bench.objects.exists()
    assert "it holds the benches swe-verified, swe-lite, swe-test" in job.error
    assert "the preview showed swe-verified, swe-lite" in job.error


def test_the_several_preview_page_reads_only_the_session_and_the_user(
    tmp_path, django_assert_num_queries
):
    client = Client()
    client.force_login(make_user("root", superuser=True))  # no permission queries
    token = token_of(upload(client, board_file(tmp_path), bench="swe"))
    # 1. the session, 2. the user: the previews were computed once, at upload.
    with django_assert_num_queries(2):
        html = preview(client, token)
    assert "swe-lite" in html


# --- OpenHands' index results ---------------------------------------------------------------


def index_archive(tmp_path: Path) -> Path:
    root = write_index(tmp_path / "index")
    target = tmp_path / "index-results.tar.gz"
    with tarfile.open(target, "w:gz") as archive:
        for part in ("results", "alternative_agents"):
            archive.add(root / part, arcname=part)
    return target


def test_an_uploaded_openhands_index_archive_makes_a_bench_per_benchmark(
    staff_client, tmp_path, settings
):
    token = token_of(upload(staff_client, index_archive(tmp_path), bench="ohi"))
    html = preview(staff_client, token)
    assert "<h1>Preview: 2 benches from index-results.tar.gz</h1>" in html
    assert [row[0] for row in table_rows(html, "import-benches")] == [
        "ohi-gaia new",
        "ohi-swe-bench new",
    ]
    # The upload is named by its own name, never by where it was staged.
    assert str(settings.BENCHVIEW_UPLOAD_DIR) not in html
    job = apply_and_run(staff_client, token)
    assert job.state == "done"
    assert Bench.objects.get(slug="ohi-swe-bench").models.count() == 3
    assert Bench.objects.get(slug="ohi-gaia").models.count() == 2
    records = ImportRecord.objects.filter(action="import").order_by("pk")
    assert list(records.values_list("bench", "outcome")) == [
        ("ohi-gaia", "applied"),
        ("ohi-swe-bench", "applied"),
    ]
    assert job.several["adapter"] == "openhands-index"


def test_a_job_of_one_bench_is_unchanged_by_the_several_fields(
    staff_client, small_release_dir, tmp_path
):
    archive = tar_gz(small_release_dir, tmp_path / "small.tar.gz")
    job = apply_and_run(staff_client, token_of(upload(staff_client, archive)))
    assert job.state == "done" and job.several == {} and not job.records.exists()
    assert ImportJob.objects.get().record.bench == "integration-bench"


def test_a_job_finding_another_import_running_fails_and_its_retry_imports_every_bench(
    staff_client, tmp_path
):
    token = token_of(upload(staff_client, board_file(tmp_path), bench="swe"))
    with import_lock(holder="alice importing other.tar.gz"):
        job = apply_and_run(staff_client, token)
    assert job.state == "failed" and "Another import is running (alice" in job.error
    assert not Bench.objects.exists()
    staff_client.post(reverse("admin:ingest_import_job_retry", args=[job.pk]))
    run_jobs()
    job.refresh_from_db()
    assert (job.state, job.tries) == ("done", 2)
    # The retry's records only; the refusal stays in the history.
    assert sorted(job.records.values_list("bench", "outcome")) == [
        ("swe-lite", "applied"),
        ("swe-verified", "applied"),
    ]
    assert ImportRecord.objects.filter(action="import", outcome="refused").count() == 1
    assert Bench.objects.filter(slug__in=["swe-verified", "swe-lite"]).count() == 2
