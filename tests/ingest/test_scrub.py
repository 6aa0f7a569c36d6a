"""The importer checks again what the exporter should have scrubbed."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from leaderboard.models import Bench
from tests.factories import edit_json
from trajectories.models import Event, VendorRequest


def attempt_with_vendor_log(root):
    return sorted(p.parent for p in root.glob("attempts/*/*/vendor-requests.json"))[0]


def plant_in_output(attempt_dir, text):
    def change(trajectory):
        for event in trajectory["events"]:
            if event["type"] == "tool_call" and event["result"] is not None:
                event["result"]["output"] += text
                return

    edit_json(attempt_dir / "trajectory.json", change)


def import_failing(path, *args) -> str:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_release", str(path), *args, stdout=out, stderr=err)
    return out.getvalue() + err.getvalue()


@pytest.mark.django_db
def test_a_runner_home_path_is_refused_with_its_file_and_json_path(release_copy):
    attempt_dir = attempt_with_vendor_log(release_copy)
    plant_in_output(attempt_dir, "\nsee /home/alice/work/app.py")
    said = import_failing(release_copy)
    rel = attempt_dir.relative_to(release_copy).as_posix()
    assert f"{rel}/trajectory.json: events[" in said
    assert "not scrubbed: runner home path '/home/alice/'" in said
    assert Bench.objects.count() == 0


@pytest.mark.django_db
def test_an_internal_host_and_a_cookie_header_are_refused(release_copy):
    attempt_dir = attempt_with_vendor_log(release_copy)

    def plant(log):
        entry = next(iter(log["vendors"].values()))[0]
        entry.setdefault("headers", {})["Cookie"] = "session=1"
        entry["path"] = "/v1/proxy?to=registry.build.internal"

    edit_json(attempt_dir / "vendor-requests.json", plant)
    said = import_failing(release_copy)
    assert "request header that must be dropped 'Cookie'" in said
    assert "internal host name 'registry.build.internal'" in said


@pytest.mark.django_db
def test_with_scrub_the_matches_are_rewritten_and_the_import_succeeds(release_copy):
    attempt_dir = attempt_with_vendor_log(release_copy)
    plant_in_output(attempt_dir, "\nfetched from pkgs.corp at /Users/bob/cache/")

    def plant(log):
        entry = next(iter(log["vendors"].values()))[0]
        entry.setdefault("headers", {})["X-Forwarded-For"] = "10.0.0.1"

    edit_json(attempt_dir / "vendor-requests.json", plant)
    out = io.StringIO()
    call_command("import_release", str(release_copy), "--scrub", stdout=out)
    assert "scrubbed (3):" in out.getvalue()
    outputs = "".join(Event.objects.exclude(output=None).values_list("output", flat=True))
    assert "pkgs.corp" not in outputs and "/Users/bob/" not in outputs
    assert "redacted.invalid" in outputs
    for request in VendorRequest.objects.all():
        assert "X-Forwarded-For" not in (request.as_document().get("headers") or {})


@pytest.mark.django_db
def test_the_sample_release_is_clean(small_release_dir):
    out = io.StringIO()
    call_command("import_release", str(small_release_dir), "--dry-run", stdout=out)
    assert "scrubbed" not in out.getvalue()


def test_an_allowed_simulator_host_is_not_a_finding(settings):
    from formats.scrub import Scrubber

    config = {**settings.BENCHVIEW_SCRUB, "allowed_hosts": ["stripe.sim.lan"]}
    scrubber = Scrubber(config)
    assert list(scrubber.text_findings("POST https://stripe.sim.lan/v1/refunds")) == []
    found = list(scrubber.text_findings("GET http://db.lan:5432"))
    assert [f.text for f in found] == ["db.lan"]
    assert json.dumps(scrubber.rewrite_json({"u": "db.lan"})) == '{"u": "redacted.invalid"}'


def test_a_home_like_segment_inside_another_path_is_not_a_finding():
    from formats.scrub import Scrubber

    scrubber = Scrubber()
    assert list(scrubber.text_findings("GET /api/v2/Users/auth0|42/roles")) == []
    assert [f.text for f in scrubber.text_findings("cd /Users/bob/src && ls")] == ["/Users/bob/"]
