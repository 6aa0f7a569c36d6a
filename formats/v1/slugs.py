"""The identifier rule of release format v1, shared by validation and routing."""

import re

SLUG_PATTERN = r"[a-z0-9][a-z0-9._-]{0,99}"
SLUG_RE = re.compile(rf"^{SLUG_PATTERN}$")

# Bench ids that would shadow the site's own top-level addresses.
RESERVED_BENCH_SLUGS = frozenset({"admin", "api", "data", "static", "media"})


def is_slug(value: object) -> bool:
    return isinstance(value, str) and SLUG_RE.fullmatch(value) is not None


class SlugConverter:
    """URL converter for release slugs (Django's <slug:> rejects the dot)."""

    regex = SLUG_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
