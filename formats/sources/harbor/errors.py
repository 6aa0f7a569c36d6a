"""Refusals of Harbor input: every one names the trial folder and the file."""

from __future__ import annotations


class HarborError(Exception):
    """Harbor input that cannot be imported; nothing was written.

        ``problems`` holds every message found (each "folder/file: what is wrong"),
    ``hint`` what the user may do about them.
    """

    def __init__(self, problems: list[str], *, hint: str = ""):
        self.problems = list(problems)
        head = self.problems[0] if self.problems else "not a Harbor job"
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        # What to do about it (the flags to use), said after the problems.
        self.hint = hint
        super().__init__(head + more + (f". {hint}" if hint else ""))
