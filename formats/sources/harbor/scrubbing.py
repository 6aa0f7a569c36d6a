"""Home paths and internal host names in a trial's own files, found and rewritten.

Harbor output has never been through an exporter, so ``import_harbor`` scrubs
it by default with the release rules (``formats.scrub``, the same as
``import_release --scrub``) and reports each rewrite against the trial's own
file and JSON path (or line), once: a path repeated in a file is one line
with a count. With ``--no-scrub`` the bytes are kept verbatim and each finding
refuses the import, as a release's do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from formats.scrub import Finding, Scrubber
from formats.v1 import schema
from formats.v1.jsondoc import JSONProblem

SCRUB_HINT = (
    "--no-scrub keeps these bytes verbatim and so refuses them; "
    "--scrub (the default) rewrites them and reports each rewrite"
)


@dataclass
class _Seen:
    message: str
    more: int = 0


@dataclass
class TrialScrub:
    """Scrubs what the adapter reads of each trial; ``rewrite`` False only finds.

    ``found()`` lists every finding once, "<trial folder>: <file>: <what> at <where>".
    """

    rewrite: bool = True
    scrubber: Scrubber = field(default_factory=Scrubber)
    _seen: dict[tuple[str, str, str, str], _Seen] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Every finding so far, repeats included: whether a trial had any."""
        return sum(1 + seen.more for seen in self._seen.values())

    def found(self) -> list[str]:
        return [
            seen.message + (f" (and {seen.more} more place(s) in that file)" if seen.more else "")
            for seen in self._seen.values()
        ]

    def _note(self, label: str, name: str, findings: list[Finding]) -> None:
        for finding in findings:
            key = (label, name, finding.kind, finding.text)
            if key in self._seen:
                self._seen[key].more += 1
            else:
                self._seen[key] = _Seen(f"{label}: {name}: {finding.message()}")

    def document(self, label: str, name: str, doc: Any) -> Any:
        """A decoded JSON file of the trial (its result.json), scrubbed if asked."""
        findings = list(self.scrubber.json_findings(doc))
        self._note(label, name, findings)
        return self.scrubber.rewrite_json(doc) if findings and self.rewrite else doc

    def data(self, label: str, name: str, data: bytes) -> bytes:
        """A file of the trial as read, scrubbed if asked: text is rewritten in place
        (a JSON file keeps its layout unless an escape hid a finding)."""
        if not self.scrubber.might_match(data):
            return data
        doc = None
        if name.endswith(".json"):
            try:
                doc = schema.parse_json(data)
            except (JSONProblem, ValueError):
                doc = None  # malformed: the reader that needs it says so
        text = data.decode("utf-8", "surrogateescape")
        if doc is not None:
            findings = list(self.scrubber.json_findings(doc))
        else:
            findings = list(self.scrubber.text_findings(text))
        self._note(label, name, findings)
        if not findings or not self.rewrite:
            return data
        rewritten = self.scrubber.rewrite_text(text).encode("utf-8", "surrogateescape")
        if doc is not None:
            again = schema.parse_json(rewritten)
            if any(True for _ in self.scrubber.json_findings(again)):
                # An escaped path ("\\/home\\/...") is seen only decoded.
                rewritten = orjson.dumps(self.scrubber.rewrite_json(doc))
        return rewritten
