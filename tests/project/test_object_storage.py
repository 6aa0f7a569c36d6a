"""Object storage (config/hosts.py): blobs, staged uploads and the import folder in an S3
bucket, here moto's in-process S3 (the multi-host test runs Ceph's RADOS Gateway).

The storage is configured as BENCHVIEW_S3_BUCKET configures it; only the endpoint
differs (moto answers AWS's own).
"""

from __future__ import annotations

import hashlib
import time

import boto3
import pytest
from django.core.files.storage import default_storage
from django.test import Client
from django.urls import reverse

from config import hosts
from ingest.admin import import_dir
from ingest.models import ImportJob
from ingest.running.staging import Staged, staging_root, sweep_stale
from leaderboard.models import Attempt
from tests.factories import (
    apply_and_run,
    import_path,
    make_user,
    run_jobs,
    tar_gz,
    token_of,
    upload,
)
from trajectories import blob_files
from trajectories.models import Blob, Evidence
from trajectories.services import blob_files_sweep

moto = pytest.importorskip("moto")

BUCKET = "benchview-test"
pytestmark = pytest.mark.django_db(databases=["default", "progress"])


@pytest.fixture
def s3(settings, monkeypatch, tmp_path):
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }.items():
        monkeypatch.setenv(name, value)
    with moto.mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        settings.STORAGES = hosts.storages(manifest_static=False, bucket=BUCKET)
        settings.BENCHVIEW_S3_BUCKET = BUCKET
        settings.BENCHVIEW_S3_BLOB_SERVE = "redirect"
        settings.BENCHVIEW_UPLOAD_DIR = tmp_path / "uploads"
        settings.MEDIA_ROOT = tmp_path / "media"
        blob_files._cors_seen.clear()
        yield client
        blob_files._cors_seen.clear()


def keys(client, prefix: str = "") -> dict[str, bytes]:
    listed = client.list_objects_v2(Bucket=BUCKET, Prefix=prefix).get("Contents", [])
    return {o["Key"]: client.get_object(Bucket=BUCKET, Key=o["Key"])["Body"].read() for o in listed}


def _open_cors(client) -> None:
    rule = {"AllowedOrigins": ["*"], "AllowedMethods": ["GET", "HEAD"]}
    client.put_bucket_cors(Bucket=BUCKET, CORSConfiguration={"CORSRules": [rule]})


def test_a_large_blob_is_stored_at_the_bucket_root_under_the_local_layout(s3, settings):
    content = b"x" * (settings.BENCHVIEW_LIMITS["blob_db_max_bytes"] + 1)
    digest = hashlib.sha256(content).hexdigest()
    blob = Blob.store(digest, content)
    assert blob.storage_name == f"blobs/{digest[:2]}/{digest}" and blob.data is None
    assert keys(s3, "blobs/") == {blob.storage_name: content}
    assert blob.read() == content
    assert not (settings.MEDIA_ROOT / "blobs").exists()


def test_the_sweep_removes_unreferenced_keys_from_the_bucket_and_keeps_the_rest(s3, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": 0}
    kept = Blob.store(hashlib.sha256(b"kept").hexdigest(), b"kept")
    stray = f"blobs/ab/{'ab' * 32}"  # as a killed import leaves it: a file, no row
    s3.put_object(Bucket=BUCKET, Key=stray, Body=b"stray")
    # On S3 "blobs" is no object, only a prefix of keys: the sweep must list the keys.
    assert not default_storage.exists("blobs")
    assert blob_files_sweep() == 1
    assert set(keys(s3, "blobs/")) == {kept.storage_name}


@pytest.fixture
def imported_in_bucket(s3, settings, small_release_dir):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": 1024}
    import_path(small_release_dir)
    evidence = Evidence.objects.select_related("attempt__model", "attempt__task", "transcript")
    large = evidence.filter(transcript__data__isnull=True, attempt__trial=0).first()
    attempt = large.attempt
    path = f"/data/v1/{attempt.bench.slug}/attempts/{attempt.model.slug}/{attempt.task.slug}/"
    return large.transcript, path + "transcript.jsonl"


def test_a_large_mirror_file_redirects_to_a_presigned_url_when_the_bucket_cors_is_open(
    s3, client, imported_in_bucket
):
    blob, path = imported_in_bucket
    _open_cors(s3)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Access-Control-Allow-Origin"] == "*"
    assert response["Cache-Control"] == "no-store"
    location = response["Location"]
    assert f"/{blob.storage_name}?" in location and "X-Amz-Expires=300" in location
    assert "X-Amz-Signature=" in location


@pytest.mark.parametrize("why", ["no CORS rules", "stream chosen"])
def test_a_large_mirror_file_is_streamed_unless_the_bucket_is_open_and_redirects_chosen(
    s3, client, settings, imported_in_bucket, why
):
    blob, path = imported_in_bucket
    if why == "stream chosen":
        _open_cors(s3)
        settings.BENCHVIEW_S3_BLOB_SERVE = "stream"
    response = client.get(path)
    assert response.status_code == 200
    assert hashlib.sha256(b"".join(response.streaming_content)).hexdigest() == blob.sha256


def test_an_upload_staged_on_one_host_is_applied_from_the_bucket(s3, small_release_dir, tmp_path):
    client = Client()
    client.force_login(make_user("stafford"))
    archive = tar_gz(small_release_dir, tmp_path / "release.tar.gz")
    token = token_of(upload(client, archive))
    # Shared once previewed: this host keeps nothing of it.
    assert f"uploads/{token}/upload/release.tar.gz" in keys(s3, "uploads/")
    assert not (staging_root() / token).exists()
    # Another host (nothing local) shows the preview and runs the job from the bucket.
    page = client.get(reverse("admin:ingest_import_preview", args=[token]))
    assert page.status_code == 200
    job = apply_and_run(client, token)
    assert (job.state, job.error) == ("done", "")
    assert Attempt.objects.exists()
    assert keys(s3, "uploads/") == {}
    assert not (staging_root() / token).exists()


def test_a_staged_upload_missing_from_the_bucket_fails_its_job_saying_so(
    s3, small_release_dir, tmp_path
):
    client = Client()
    client.force_login(make_user("stafford"))
    token = token_of(upload(client, tar_gz(small_release_dir, tmp_path / "release.tar.gz")))
    client.post(reverse("admin:ingest_import_apply", args=[token]), {"publish": "on"})
    for key in keys(s3, "uploads/"):
        s3.delete_object(Bucket=BUCKET, Key=key)
    run_jobs()
    job = ImportJob.objects.get()
    assert job.state == "failed" and "is no longer on the server" in job.error
    assert not Attempt.objects.exists()


def test_stale_staged_uploads_are_swept_from_the_bucket(s3, settings):
    staged = Staged.create()
    staged.write("meta.json", {"name": "x"})
    staged.share()
    assert keys(s3, "uploads/")
    assert sweep_stale() == 0
    later = time.time() + settings.BENCHVIEW_LIMITS["upload_stale_s"] + 60
    assert sweep_stale(now=later) == 1
    assert keys(s3, "uploads/") == {}


def test_the_import_folder_is_the_buckets_imports_prefix(s3, small_release_dir, tmp_path):
    archive = tar_gz(small_release_dir, tmp_path / "release.tar.gz")
    s3.upload_file(str(archive), BUCKET, "imports/release.tar.gz")
    for path in sorted(small_release_dir.rglob("*"))[:5]:
        if path.is_file():
            key = f"imports/folder/{path.relative_to(small_release_dir).as_posix()}"
            s3.upload_file(str(path), BUCKET, key)
    s3.put_object(Bucket=BUCKET, Key="imports/notes.txt", Body=b"not a release")
    assert import_dir.candidates() == ["folder", "release.tar.gz"]
    fetched = import_dir.fetch("release.tar.gz", tmp_path / "here")
    assert fetched.read_bytes() == archive.read_bytes()
    for bad in ("../blobs", "folder/manifest.json", "", "missing.tar.gz"):
        with pytest.raises(import_dir.OutsideImportDir):
            import_dir.fetch(bad, tmp_path / "there")


def test_without_a_bucket_files_stay_local(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    assert hosts.storages(manifest_static=False, bucket="")["default"]["BACKEND"] == (
        "django.core.files.storage.FileSystemStorage"
    )
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "blob_db_max_bytes": 0}
    blob = Blob.store(hashlib.sha256(b"local").hexdigest(), b"local")
    assert (settings.MEDIA_ROOT / blob.storage_name).read_bytes() == b"local"
