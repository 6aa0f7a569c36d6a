"""What a bench's derived documents are built from, fingerprinted, and the cache
of built documents keyed by that fingerprint.

The fingerprint hashes every column the derived documents read (bench, batches,
models, tasks, attempts' scores and flags, attempt identities), so any
re-import that changes a served byte changes the key. Each worker trusts a
fingerprint for ``mirror_state_ttl_s`` seconds before asking the database
again: that keeps the hot path (leaderboard.json, matrix.json, 304s) free of
queries, and bounds how long a re-import takes to show.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import router

from leaderboard.models import Attempt, Bench
from trajectories.documents import FORMAT_VERSION, dumps

_ABSENT = "absent"


class StaleState(Exception):
    """The bench a cached state names is gone: deleted, or replaced by a new row
    under the same id, within the state's time to live."""


@dataclass(frozen=True)
class BenchState:
    pk: int
    slug: str
    revision: str
    fingerprint: str


@dataclass(frozen=True)
class Built:
    body: bytes
    etag: str


def fingerprint(bench: Bench) -> str:
    """A hash of everything the derived documents of ``bench`` are built from."""
    digest = hashlib.sha256(FORMAT_VERSION.encode())

    def feed(rows) -> None:
        for row in rows:
            digest.update(json.dumps(row, sort_keys=True, default=str).encode())
            digest.update(b"\n")

    feed(
        [
            [
                bench.slug,
                bench.title,
                bench.revision,
                bench.generated_at,
                bench.scoring_rule,
                bench.exceptions_rule,
            ]
        ]
    )
    feed([bench.extras])
    # "live" too: a model file lists a staged batch's attempts to staff only.
    feed(bench.batches.order_by("pk").values_list("pk", "number", "released_at", "live"))
    feed(
        bench.models.order_by("pk").values_list(
            "pk", "slug", "position", "content_hash", "display_name", "harness", "provider",
            "rank", "score", "tasks", "flagged", "cost_usd", "duration_s", "by_surface", "extras",
            "errors", "cost_unknown_trials",
        )
    )  # fmt: skip
    feed(
        bench.tasks.order_by("pk").values_list(
            "pk", "slug", "position", "content_hash", "title", "surface", "file_title",
            "file_surface", "vendors", "batch_id", "batch_position", "extras",
        )
    )  # fmt: skip
    # Released attempts are rewritten (new pk) when any of their files change;
    # unreleased cells are updated in place, so their score and flags count too.
    # Every trial: further trials make the matrix cells' x-trials.
    feed(
        Attempt.all_trials.filter(bench=bench)
        .order_by("pk")
        .values_list("pk", "has_detail", "content_hash", "score", "flags")
    )
    return digest.hexdigest()


def bench_state(slug: str) -> BenchState | None:
    """The bench's current state, or None when there is no such bench."""
    ttl = settings.BENCHVIEW_LIMITS["mirror_state_ttl_s"]
    key = _state_key(slug)
    if ttl > 0:
        cached = cache.get(key)
        if cached is not None:
            return None if cached == _ABSENT else cached
    bench = Bench.objects.filter(slug=slug).first()
    state = (
        BenchState(bench.pk, bench.slug, bench.revision, fingerprint(bench))
        if bench is not None
        else None
    )
    if ttl > 0:
        cache.set(key, state if state is not None else _ABSENT, ttl)
    return state


def forget_state(slug: str) -> None:
    cache.delete(_state_key(slug))


def _state_key(slug: str) -> str:
    # Per database read from: with a read replica (core/replica.py) one worker
    # serves the primary's state to staff and the replica's to anonymous readers,
    # and a document must be built from the database its state was read from.
    return f"mirror:state:{router.db_for_read(Bench)}:{slug}"


def etag_of(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:40] + '"'


def built_document(state: BenchState, name: str, build: Callable[[Bench], object]) -> Built | None:
    """The document ``name`` of the bench in ``state``, from cache or built once.

    ``build`` gets the Bench and returns the JSON value, or None for "no such
    document" (not cached, so a later import can add it). Raises StaleState when
    the state's bench row no longer exists.
    """
    # The fingerprint covers the revision and every other input.
    # Names can hold spaces and any length; a digest keeps the key valid for
    # every cache backend (memcached refuses spaces and keys over 250 bytes).
    named = hashlib.sha256(name.encode()).hexdigest()[:32]
    key = f"mirror:doc:{state.pk}:{state.fingerprint}:{named}"
    found = cache.get(key)
    if found is not None:
        return found
    bench = Bench.objects.filter(pk=state.pk).first()
    if bench is None:
        raise StaleState(state.slug)
    value = build(bench)
    if value is None:
        return None
    body = dumps(value)
    found = Built(body=body, etag=etag_of(body))
    cache.set(key, found, settings.BENCHVIEW_LIMITS["mirror_doc_cache_s"])
    return found
