"""Responses are gzip-compressed for clients that accept it, streamed ones chunk by chunk."""

from __future__ import annotations

import gzip

import pytest
from django.core.cache import cache

from leaderboard.models import Attempt

pytestmark = pytest.mark.django_db
BENCH = "integration-bench"
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


@pytest.fixture(autouse=True)
def _cold_mirror(settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 0}
    cache.clear()
    yield
    cache.clear()


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def attempt_path() -> str:
    attempt = Attempt.objects.filter(bench__slug=BENCH, has_detail=True).order_by("pk").first()
    return f"/{BENCH}/attempts/{attempt.model.slug}/{attempt.task.slug}/"


@pytest.mark.parametrize(
    "address",
    [f"/{BENCH}/", f"/{BENCH}/matrix/", f"/data/v1/{BENCH}/leaderboard.json", "/api/benches/"],
)
def test_pages_json_and_the_api_are_sent_gzipped_to_a_client_that_accepts_it(
    client, bench, address
):
    plain = client.get(address)
    packed = client.get(address, **GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(plain.content)
    assert gzip.decompress(packed.content) == plain.content


@pytest.mark.parametrize("suffix", ["?all=1", "transcript/"])
def test_streamed_pages_stay_streamed_when_compressed(client, bench, suffix):
    address = attempt_path() + suffix
    plain = client.get(address)
    packed = client.get(address, **GZIP)
    assert plain.streaming and packed.streaming
    assert packed["Content-Encoding"] == "gzip"
    chunks = list(packed.streaming_content)
    assert len(chunks) > 1, "compressed chunk by chunk, not buffered into one body"
    assert gzip.decompress(b"".join(chunks)) == body(plain)


def test_a_compressed_mirror_file_answers_if_none_match_with_304(client, bench):
    address = f"/data/v1/{BENCH}/leaderboard.json"
    strong = client.get(address)["ETag"]
    packed = client.get(address, **GZIP)
    # The gzipped bytes differ from the identity ones: the tag must not claim
    # byte equality (RFC 9110 8.8.3), but it still validates.
    assert packed["ETag"] == f"W/{strong}"
    for tag in (packed["ETag"], strong):
        again = client.get(address, HTTP_IF_NONE_MATCH=tag, **GZIP)
        assert again.status_code == 304
        assert again.content == b""
