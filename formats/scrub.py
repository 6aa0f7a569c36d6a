"""Check a release again for what its exporter should have scrubbed.

docs/release-format.md, "Scrubbing": internal host names, runner home paths and
dropped request headers must not reach the site. Patterns come from
``settings.BENCHVIEW_SCRUB``. A match is a problem (the release is refused)
unless the import asks to rewrite it, in which case ``Scrubber.rewrite_*``
replace host names and home paths and drop the headers.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings

HOST_REPLACEMENT = "redacted.invalid"
_HOST_CHAR = re.compile(rb"[\w-]")
_HOME_BEFORE = re.compile(rb"[\w.~/-]")
HOME_REPLACEMENT = "/home/user/"


@dataclass(frozen=True)
class Finding:
    kind: str  # "host", "home" or "header"
    text: str
    where: str  # JSON path or "line N"

    def message(self) -> str:
        labels = {
            "host": "internal host name",
            "home": "runner home path",
            "header": "request header that must be dropped",
        }
        return f"{labels[self.kind]} {self.text!r} at {self.where}"


class Scrubber:
    def __init__(self, config: dict | None = None):
        config = config or settings.BENCHVIEW_SCRUB
        suffixes = "|".join(re.escape(s.lstrip(".")) for s in config["host_suffixes"])
        homes = "|".join(re.escape(p.rstrip("/")) for p in config["home_prefixes"])
        self.allowed_hosts = {h.lower() for h in config.get("allowed_hosts", [])}
        host = rf"(?<![\w.-])(?:[A-Za-z0-9-]+\.)+(?:{suffixes})(?![\w-])"
        # Not inside another path: "/api/v2/users/x/" is no home folder.
        home = rf"(?<![\w.~/-])(?:{homes})/[^/\s\"'\\]+/"
        self.host_re = re.compile(host, re.IGNORECASE)
        self.home_re = re.compile(home)
        # The fast test looks only for the suffixes and prefixes themselves, with
        # bytes.find (memchr speed): any regex, tried at every position of 30 MB,
        # costs a tenth of the import.
        self.suffix_needles = [
            ("." + x.lstrip(".")).lower().encode() for x in config["host_suffixes"]
        ]
        self.prefix_needles = [
            (p.rstrip("/") + "/").lower().encode() for p in config["home_prefixes"]
        ]
        self.exact_prefix_needles = [
            (p.rstrip("/") + "/").encode() for p in config["home_prefixes"]
        ]
        self.header_patterns = [h.lower() for h in config["header_names"]]

    # -- checking ------------------------------------------------------------------------

    def might_match(self, data: bytes) -> bool:
        """A fast test over a file's raw bytes; only matches need a closer look."""
        lowered = data.lower()
        if any(needle in lowered for needle in self.prefix_needles):
            return True
        return self._might_name_host(lowered)

    def might_find(self, data: bytes) -> bool:
        """A stricter fast test than might_match that still misses no finding: the home
        pattern is case-sensitive, so its prefixes are looked for with their case
        ("/api/v2/users/" is no "/Users/"); a JSON escape ("\\/", "\\u") could hide
        one, so it answers True."""
        if b"\\/" in data or b"\\u" in data:
            return True
        for needle in self.exact_prefix_needles:
            start = data.find(needle)
            while start != -1:
                # The home pattern's own look-behind: "/scim/v2/Users/" is no home folder.
                if start == 0 or not _HOME_BEFORE.match(data, start - 1):
                    return True
                start = data.find(needle, start + 1)
        return self._might_name_host(data.lower())

    def _might_name_host(self, lowered: bytes) -> bool:
        for needle in self.suffix_needles:
            start = lowered.find(needle)
            while start != -1:
                end = start + len(needle)
                # ".lan" in ".language" is no host suffix.
                if end >= len(lowered) or not _HOST_CHAR.match(lowered, end):
                    return True
                start = lowered.find(needle, end)
        return False

    def might_name_dropped_header(self, data: bytes) -> bool:
        """A fast test over a vendor log's raw bytes for header_findings: False only
        when no header name it drops can be in it."""
        lowered = data.lower()
        if b"\\u" in lowered:
            return True  # an escaped name is only seen decoded
        for pattern in self.header_patterns:
            # A header name is a JSON key: a quote, the name, and a quote unless wildcarded.
            literal = re.split(r"[*?\[]", pattern, maxsplit=1)[0]
            needle = '"' + literal + ('"' if literal == pattern else "")
            if not literal or needle.encode() in lowered:
                return True
        return False

    def _allowed(self, text: str) -> bool:
        return text.lower() in self.allowed_hosts

    def text_findings(self, text: str, where: str = "") -> Iterator[Finding]:
        for kind, pattern in (("host", self.host_re), ("home", self.home_re)):
            for match in pattern.finditer(text):
                if kind == "host" and self._allowed(match.group()):
                    continue
                if kind == "home" and match.group() == HOME_REPLACEMENT:
                    continue  # what scrubbing writes is no finding: scrubbed text stays clean
                line = text.count("\n", 0, match.start()) + 1
                yield Finding(kind, match.group(), where or f"line {line}")

    def json_findings(self, value: Any, path: str = "") -> Iterator[Finding]:
        if isinstance(value, str):
            yield from self.text_findings(value, path or "(document)")
        elif isinstance(value, dict):
            for key, item in value.items():
                child = f"{path}.{key}" if path else str(key)
                yield from self.text_findings(str(key), child)
                yield from self.json_findings(item, child)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                yield from self.json_findings(item, f"{path}[{i}]")

    def header_findings(self, vendor_log: Any) -> Iterator[Finding]:
        # Any shape: a log of the wrong shape is the schema's to report.
        vendors = vendor_log.get("vendors") if isinstance(vendor_log, dict) else None
        for vendor, entries in (vendors if isinstance(vendors, dict) else {}).items():
            for i, entry in enumerate(entries if isinstance(entries, list) else []):
                headers = entry.get("headers") if isinstance(entry, dict) else None
                for name in headers if isinstance(headers, dict) else {}:
                    if self.is_dropped_header(name):
                        yield Finding("header", name, f"vendors.{vendor}[{i}].headers.{name}")

    def is_dropped_header(self, name: str) -> bool:
        lowered = name.lower()
        return any(fnmatch.fnmatchcase(lowered, p) for p in self.header_patterns)

    # -- rewriting -----------------------------------------------------------------------

    def rewrite_text(self, text: str) -> str:
        text = self.host_re.sub(
            lambda m: m.group() if self._allowed(m.group()) else HOST_REPLACEMENT, text
        )
        return self.home_re.sub(HOME_REPLACEMENT, text)

    def rewrite_json(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.rewrite_text(value)
        if isinstance(value, dict):
            return {self.rewrite_text(k): self.rewrite_json(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.rewrite_json(v) for v in value]
        return value

    def rewrite_vendor_log(self, vendor_log: dict) -> dict:
        log = self.rewrite_json(vendor_log)
        for entries in log.get("vendors", {}).values():
            for entry in entries:
                headers = entry.get("headers")
                if isinstance(headers, dict):
                    entry["headers"] = {
                        k: v for k, v in headers.items() if not self.is_dropped_header(k)
                    }
        return log
