"""Harbor jobs as an adapter of ``formats.sources``, registered by the ingest app.

It lives here, not under ``formats/sources/``, because reading a trial
checks its values against the site's column sizes (``formats.v1.schema``,
``leaderboard.models``) and scores it with ``formats.v1.scoring``; the
ground floor imports neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from formats.reader import open_tree
from formats.reader.peek import peek_names
from formats.sources import ImportOptions
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE, DEFAULT_REWARD_THRESHOLD
from ingest.reading.harbor.build import open_jobs
from ingest.reading.harbor.errors import HarborError
from ingest.reading.harbor.layout import RESULT
from ingest.reading.harbor.stream import HarborJobs


class HarborAdapter:
    name = "harbor"
    looks_for = (
        f"Harbor jobs: a folder, .zip or .tar.gz holding a trial's {RESULT} "
        "(a job folder, a folder of jobs or one trial folder)"
    )
    options = frozenset(
        {
            "bench",
            "title",
            "models_file",
            "threshold",
            "exceptions_rule",
            "allow_partial",
            "replace",
            "scrub",
        }
    )

    def detect(self, paths: Sequence[Path]) -> bool:
        for path in paths:
            names = peek_names(Path(path))
            if names is None or not any(n.rsplit("/", 1)[-1] == RESULT for n in names):
                return False
        return bool(paths)

    def open(self, paths: Sequence[Path], *, options: ImportOptions) -> HarborJobs:
        shown = ", ".join(options.label(i, p) for i, p in enumerate(paths))
        if not options.bench:
            raise HarborError(
                [
                    f"{shown}: no manifest.json, so not a release; as Harbor jobs it needs "
                    "the bench id to import into"
                ]
            )
        trees = []
        try:
            for i, path in enumerate(paths):
                trees.append((open_tree(path), options.label(i, path)))
            jobs = open_jobs(
                trees,
                bench=options.bench,
                title=options.title,
                models_file=options.models_file,
                threshold=DEFAULT_REWARD_THRESHOLD
                if options.threshold is None
                else options.threshold,
                allow_partial=options.allow_partial,
                scrub=options.scrub,
                progress=_progress(options),
                exceptions_rule=options.exceptions_rule or DEFAULT_EXCEPTIONS_RULE,
            )
        except BaseException:
            for tree, _ in trees:
                tree.close()
            raise
        jobs.trees = [tree for tree, _ in trees]
        return jobs


def _progress(options: ImportOptions):
    if options.progress is None:
        return None
    told = options.progress
    return lambda p: told(p.done, p.total)  # the trials read, of all found


HARBOR = HarborAdapter()
