"""Refusals of a SWE-bench experiments submission."""

from __future__ import annotations


class ExperimentsError(Exception):
    """Input that cannot be imported; ``problems`` holds every message found,
    each naming the file and the JSON path (or line) that is wrong."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        head = self.problems[0] if self.problems else "not a SWE-bench experiments submission"
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        super().__init__(head + more)
