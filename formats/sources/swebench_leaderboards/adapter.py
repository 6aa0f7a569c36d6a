"""The adapter of swebench.com's ``leaderboards.json``: one file (or a folder
holding it), detected by content, opened as one source per leaderboard.

``--bench swe-bench`` makes the benches ``swe-bench-bash-only``,
``swe-bench-verified``, ``swe-bench-lite``, ... (the prefix and the
leaderboard's name as an id); the import writes them all or none.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from formats.sources.protocol import ImportOptions, ResultsSource, SourceError, only_source
from formats.sources.swebench_leaderboards.entries import decode, looks_like, read_boards
from formats.sources.swebench_leaderboards.source import LeaderboardSource

NAME = "swebench-leaderboards"
# A JSON file larger than this is not read (the real one is a few MB).
MAX_BYTES = 256 * 1024**2
# How deep into a folder the file is looked for (the site's repository: data/).
MAX_DEPTH = 2


def _candidates(path: Path) -> Iterator[Path]:
    """The regular files at ``path``: itself, or a folder's down to MAX_DEPTH,
    links not followed, in name order."""
    if path.is_file() and not path.is_symlink():
        yield path
        return
    if not path.is_dir():
        return
    for folder, dirs, files in os.walk(path):
        depth = len(Path(folder).relative_to(path).parts)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if depth < MAX_DEPTH else []
        for name in sorted(files):
            full = Path(folder) / name
            if full.is_file() and not full.is_symlink():
                yield full


def _starts_like_leaderboards(path: Path) -> bool:
    """Cheap first look: a JSON object whose first key is "leaderboards"."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return False
        with open(path, "rb") as fh:
            head = fh.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"{") and head[1:].lstrip().startswith(b'"leaderboards"')


def find(paths: Sequence[Path]) -> Path | None:
    """The one leaderboards.json-shaped file among ``paths``, by content: an
    object whose first key is "leaderboards", holding leaderboards of results."""
    for path in paths:
        for candidate in _candidates(Path(path)):
            if not _starts_like_leaderboards(candidate):
                continue
            try:
                if looks_like(decode(candidate.read_bytes(), str(candidate))):
                    return candidate
            except ValueError:
                # It starts as one but is broken (not UTF-8, not JSON): it is
                # this format, and opening it says what is wrong, and where.
                return candidate
            except OSError:
                continue
    return None


def title_of(prefix: str, board: str) -> str:
    base = " ".join(p.capitalize() for p in prefix.replace("_", "-").split("-") if p)
    return f"{base} {board}".strip()


class SwebenchLeaderboardsAdapter:
    name = NAME
    looks_for = (
        "swebench.com's leaderboards.json: {leaderboards: [{name, results: [{folder, name, "
        "resolved, ...}]}]}"
    )
    options = frozenset({"bench", "title", "replace"})

    def detect(self, paths: Sequence[Path]) -> bool:
        return len(paths) == 1 and find(paths) is not None

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> ResultsSource:
        return only_source(self.open_all(paths, options=options), NAME, "leaderboards")

    def open_all(self, paths: Sequence[Path], *, options: ImportOptions) -> list[ResultsSource]:
        if not options.bench:
            raise SourceError(
                [f"{NAME}: needs the bench id (--bench), the prefix of each leaderboard's bench"]
            )
        found = find(paths)
        if found is None:
            shown = ", ".join(str(p) for p in paths)
            raise SourceError([f"{shown}: no leaderboards.json content found"])
        file = found.name if len(paths) == 1 and Path(paths[0]) == found else str(found)
        try:
            data = found.read_bytes()
            doc = decode(data, file)
        except OSError as exc:
            raise SourceError([f"{file}: cannot be read ({exc})"]) from None
        except ValueError as exc:
            raise SourceError([str(exc)]) from None
        boards, problems = read_boards(doc, file)
        if problems:
            raise SourceError(problems, "nothing was written")
        sources = []
        for board in boards:
            bench = f"{options.bench}-{board.slug}"
            title = title_of(options.title or options.bench, board.name)
            sources.append(LeaderboardSource(board, bench=bench, title=title, file=file))
        problems = [p for s in sources for p in s.problems]
        if problems:
            raise SourceError(problems, "nothing was written")
        return sources


ADAPTER = SwebenchLeaderboardsAdapter()
