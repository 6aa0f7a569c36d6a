"""Harbor jobs as an adapter of ``formats.sources`` (``registry.ADAPTERS``).

Reading a trial checks its values against the column sizes of the format
(``formats.v1.sizes``, through ``formats.v1.schema``) and scores it with
``formats.v1.scoring``. The bench's other models, which an import keeps,
are read from the database by the import pipeline
(``ingest.reading.harbor.build.release_of``), not here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

from formats.reader import ReleaseSource, open_tree
from formats.reader.peek import peek_names
from formats.sources import ImportOptions
from formats.sources.harbor.errors import HarborError
from formats.sources.harbor.layout import RESULT
from formats.sources.harbor.naming import read_models_file
from formats.sources.harbor.scrubbing import TrialScrub
from formats.sources.harbor.stream import HarborJobs, read_jobs
from formats.v1.scoring import DEFAULT_EXCEPTIONS_RULE, DEFAULT_REWARD_THRESHOLD, EXCEPTIONS_RULES
from formats.v1.slugs import RESERVED_BENCH_SLUGS, is_slug


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
                progress=options.progress,
                exceptions_rule=options.exceptions_rule or DEFAULT_EXCEPTIONS_RULE,
            )
        except BaseException:
            for tree, _ in trees:
                tree.close()
            raise
        jobs.trees = [tree for tree, _ in trees]
        return jobs


def open_jobs(
    trees: list[tuple[ReleaseSource, str]],
    *,
    bench: str,
    title: str | None = None,
    models_file: tuple[bytes, str] | None = None,
    threshold: float = DEFAULT_REWARD_THRESHOLD,
    allow_partial: bool = False,
    scrub: bool = True,
    progress: Callable[[int, int], None] | None = None,
    exceptions_rule: str = DEFAULT_EXCEPTIONS_RULE,
) -> HarborJobs:
    """The jobs of ``trees`` (each with the label that names it) as a source of
    results, read as far as their result.json; HarborError for bad options.
    ``progress`` is told (trials read, trials found) as the trials are read."""
    if exceptions_rule not in EXCEPTIONS_RULES:
        raise HarborError(
            [f"--exceptions {exceptions_rule!r}: expected one of {', '.join(EXCEPTIONS_RULES)}"]
        )
    if not is_slug(bench) or bench in RESERVED_BENCH_SLUGS:
        raise HarborError([f"--bench {bench!r}: not a valid bench id"])
    if not math.isfinite(threshold) or threshold < 0:
        raise HarborError([f"--pass-threshold {threshold!r}: expected a finite number, 0 or more"])
    rules = read_models_file(*models_file) if models_file else {}
    return read_jobs(
        trees,
        bench=bench,
        title=title,
        rules=rules,
        threshold=threshold,
        scrubbing=TrialScrub(rewrite=scrub),
        exceptions_rule=exceptions_rule,
        allow_partial=allow_partial,
        progress=progress,
    )


HARBOR = HarborAdapter()
