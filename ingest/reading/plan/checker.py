"""Reading documents from a release while recording every problem with its file and path."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from formats.reader import ReleaseSource
from formats.scrub import Scrubber
from formats.v1 import schema
from formats.v1.jsondoc import JSONProblem
from formats.v1.schema_base import errors_of
from ingest.reading.plan.types import ImportPlan, Problem


class Checker:
    """Collects problems (on ``plan``) while reading documents from ``source``."""

    def __init__(self, source: ReleaseSource, plan: ImportPlan):
        self.source = source
        self.plan = plan
        self.scrubber = Scrubber()
        # A release built by an adapter names each file with the input it came from.
        self.origin = getattr(source, "origin", None)

    def scrub_findings(self, name: str, findings) -> bool:
        """Record what should have been scrubbed; True when something was found."""
        found = False
        for finding in findings:
            found = True
            if self.plan.scrub:
                self.plan.scrubbed.append(f"{name}: {finding.message()}")
            else:
                self.problem(name, finding.where, f"not scrubbed: {finding.message()}")
        return found

    def problem(self, file: str, path: str, message: str) -> None:
        self.plan.problems.append(
            Problem(self.origin(file) if self.origin else file, path, message)
        )

    def load(self, name: str) -> tuple[Any, bytes] | None:
        """Read and decode one JSON file, or record why it cannot be."""
        if not self.source.exists(name):
            self.problem(name, "", "required file is missing")
            return None
        data = self.source.read(name)
        try:
            return schema.parse_json(data), data
        except JSONProblem as exc:
            self.problem(name, exc.path, str(exc))
            return None

    def validate(self, name: str, model: type[schema.Doc], raw: Any, prefix=()) -> Any:
        try:
            return model.model_validate(raw)
        except ValidationError as exc:
            for path, message in errors_of(exc, prefix):
                self.problem(name, path, message)
            return None

    def load_valid(self, name: str, model: type[schema.Doc]) -> tuple[Any, Any, bytes] | None:
        """``load`` then ``validate``: (typed document, decoded JSON, bytes), or None."""
        loaded = self.load(name)
        if loaded is None:
            return None
        doc = self.validate(name, model, loaded[0])
        return (doc, *loaded) if doc is not None else None
