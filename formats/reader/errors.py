"""Refusals: every one is a ``ReleaseReadError`` built here, in one of a few shapes."""

from __future__ import annotations


class ReleaseReadError(Exception):
    """Raised for any unsafe or unreadable input.

    ``str(err)`` names the entry and the rule, e.g.
    "archive entry '../etc/passwd': path escapes the release root". ``rule`` is a short stable
    name ("path-escape", "link", "device", "too-large", "too-many-entries", "total-too-large",
    "not-an-archive", "truncated", "no-manifest", "not-found", "unreadable", "bad-name",
    "duplicate", "encrypted", "unsupported", "trailing-data", "changed").
    """

    def __init__(self, message: str, *, rule: str, entry: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.entry = entry


def refusal(where: str, rule: str, detail: str, *, entry: str | None = None) -> ReleaseReadError:
    """ "<where>: <detail>", where ``where`` is the release (its file name) or an entry."""
    return ReleaseReadError(f"{where}: {detail}", rule=rule, entry=entry)


def entry_refusal(kind: str, entry: str, rule: str, detail: str) -> ReleaseReadError:
    """ "<kind> entry '<entry>': <detail>", kind being "folder", "archive" or "release"."""
    return refusal(f"{kind} entry {entry!r}", rule, detail, entry=entry)


def unreadable(where: str, exc: OSError) -> ReleaseReadError:
    return refusal(where, "unreadable", cannot_read(exc))


def cannot_read(exc: OSError) -> str:
    return f"cannot be read ({exc.strerror or exc})"


def corrupt(exc: BaseException) -> str:
    return f"truncated or corrupt ({exc})"
