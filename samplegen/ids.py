"""Random identifiers shaped like real ones: hex, uuid4, base62, harness session ids."""

from __future__ import annotations

import random


def rand_hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def rand_uuid(rng: random.Random) -> str:
    h = rand_hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:]}"


_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


# Byte -> base62 character; the slight bias is irrelevant for synthetic ids and
# translating random bytes is far cheaper than one randrange per character.
_B62_TABLE = bytes(ord(_B62[i % 62]) for i in range(256))


def rand_b62(rng: random.Random, n: int) -> str:
    return rng.getrandbits(8 * n).to_bytes(n, "big").translate(_B62_TABLE).decode("ascii")


def rand_session_id(harness: str, start_ms: int, rng: random.Random) -> str:
    """A session id shaped like the harness's own (uuid4, uuid7, ``ses_…``)."""
    if harness == "codex":
        h = f"{start_ms:012x}"[-12:] + rand_hex(rng, 20)
        return f"{h[:8]}-{h[8:12]}-7{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:]}"
    if harness == "opencode":
        return f"ses_{rand_hex(rng, 12)}{rand_b62(rng, 14)}"
    return rand_uuid(rng)
