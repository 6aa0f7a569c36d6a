"""An unchanged attempt is not checked again on re-import, and nothing is lost by that."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from formats.reader import open_release
from formats.scrub import Scrubber
from ingest.reading.plan import check_release
from ingest.reading.report import plan_summary
from tests.factories import edit_json, import_path
from tests.ingest.test_scrub import attempt_with_vendor_log, plant_in_output

pytestmark = pytest.mark.django_db


def test_an_unchanged_reimport_reads_no_attempt_again_yet_reports_the_same(small_release_dir):
    first = plan_summary(import_path(small_release_dir).plan)
    with open_release(small_release_dir) as source:
        release = check_release(source)
        given = list(release.attempts())
    assert given and all(c.attempt.status == "unchanged" and c.docs is None for c in given)
    again = plan_summary(release.plan)
    changes = again.pop("changes")
    first.pop("changes")
    assert again == first
    assert changes["attempts"]["new"] == [] and changes["attempts"]["changed"] == []


def test_a_changed_scoring_rule_checks_every_attempt_again(small_release_dir, release_copy):
    import_path(small_release_dir)
    edit_json(release_copy / "manifest.json", lambda m: m.update(scoring_rule="pass-fail"))
    with open_release(release_copy) as source:
        given = list(check_release(source).attempts())
    assert given and all(c.docs is not None for c in given)


def test_an_attempt_scrubbed_at_import_is_refused_unscrubbed_again(release_copy):
    plant_in_output(attempt_with_vendor_log(release_copy), "\nsee /home/alice/work/app.py")
    call_command("import_release", str(release_copy), "--scrub", stdout=io.StringIO())
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_release", str(release_copy), stdout=out, stderr=err)
    assert "not scrubbed: runner home path '/home/alice/'" in out.getvalue() + err.getvalue()
    again = io.StringIO()
    call_command("import_release", str(release_copy), "--scrub", stdout=again)
    assert "scrubbed (1):" in again.getvalue()


def test_the_fast_tests_miss_no_finding_the_full_check_makes():
    scrubber = Scrubber()
    for text in (
        "cd /Users/bob/src",
        "/home/alice/",
        '{"p": "\\/home\\/alice\\/"}',
        '{"p": "\\u002fhome/alice/"}',
        "GET http://db.lan:5432",
    ):
        assert scrubber.might_find(text.encode()), text
    for text in ("GET /scim/v2/Users/42/roles", "/api/v2/users/auth0|5", "the .language"):
        assert not scrubber.might_find(text.encode()), text
    assert scrubber.might_name_dropped_header(b'{"headers": {"Cookie": "a=1"}}')
    assert scrubber.might_name_dropped_header(b'{"headers": {"X-Forwarded-For": "1"}}')
    assert scrubber.might_name_dropped_header(b'{"headers": {"\\u0043ookie": "1"}}')
    assert not scrubber.might_name_dropped_header(b'{"body": "no cookie here"}')
