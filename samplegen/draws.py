"""Random streams per entity: a draw depends on the seed and on what it is for, nothing else.

A release is published in batches, and the next batch's sample must leave every
earlier attempt byte for byte as it was. One stream consumed in order cannot do
that (one more task shifts every later draw), so each task, each attempt and each
(model, task) cell gets a stream of its own, keyed by a stable string.
"""

from __future__ import annotations

import hashlib
import random


def entity_rng(seed: int, kind: str, *ids: str) -> random.Random:
    """The stream for ``kind`` of the entity named by ``ids`` (a task, a model and task …)."""
    key = "|".join((str(seed), kind, *ids)).encode("utf-8")
    # The same integer ``random.Random`` derives from a str seed (the key followed by
    # its SHA-512), spelled out: it never goes through hash(), so PYTHONHASHSEED cannot
    # reach it, and task checks and outcomes keep the draws earlier samples had.
    return random.Random(int.from_bytes(key + hashlib.sha512(key).digest(), "big"))
