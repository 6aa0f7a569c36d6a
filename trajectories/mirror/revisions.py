"""/data/v1/<bench>/revisions.json and revisions/<rev>/{leaderboard,matrix}.json.

A revision's files are the bytes recorded when the board changed
(``leaderboard.revisions``): the same for everyone, never rebuilt, so they are
cached for a year as immutable and their strong ETag (a hash of the bytes)
never changes. The list grows with each revision and is cached like the live files.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse

from formats.v1 import SCHEMA
from formats.v1.files import JSON as JSON_TYPE
from leaderboard.jsonbytes import dumps
from leaderboard.models import Bench, BenchRevision
from trajectories.mirror.http import file_response, mirror_view
from trajectories.mirror.state import etag_of

IMMUTABLE = "public, max-age=31536000, immutable"
# File name -> the revision's column holding its bytes.
REVISION_FILES = {"leaderboard.json": "leaderboard_json", "matrix.json": "matrix_json"}


@mirror_view
def revision_file(request, bench: str, rev: str, filename: str):
    column = REVISION_FILES[filename]
    body = BenchRevision.objects.of(bench).filter(slug=rev).values_list(column, flat=True).first()
    if body is None:
        raise Http404("no such revision")
    data = body.encode("utf-8")
    response = file_response(request, etag=etag_of(data), content_type=JSON_TYPE, body=data)
    response["Cache-Control"] = IMMUTABLE
    return response


def revisions_document(request, bench: Bench, revisions: list[BenchRevision]) -> dict:
    def url(name: str, rev: str) -> str:
        return request.build_absolute_uri(reverse(name, args=[bench.slug, rev]))

    return {
        "schema": SCHEMA,
        "bench": bench.slug,
        "revisions": [
            {
                "id": r.slug,
                "revision": r.release_revision,
                "recorded_at": r.recorded_at.isoformat().replace("+00:00", "Z"),
                "cause": r.cause,
                "leaderboard": url("mirror-revision-leaderboard", r.slug),
                "matrix": url("mirror-revision-matrix", r.slug),
                "page": url("revision", r.slug),
            }
            for r in revisions
        ],
    }


@mirror_view
def revisions_list(request, bench: str):
    row = Bench.objects.filter(slug=bench).first()
    if row is None:
        raise Http404("no such bench")
    revisions = list(row.revisions.newest_first())
    body = dumps(revisions_document(request, row, revisions))
    return file_response(request, etag=etag_of(body), content_type=JSON_TYPE, body=body)
