"""One Inspect AI log, opened for streaming: its header and sample summaries
at once, each sample's full record only when asked for.

An ``.eval`` log is a zip: ``header.json`` (the eval spec, plan, results and
stats), ``summaries.json`` (every sample's id, epoch and scores), and
``samples/<id>_epoch_<n>.json`` (one sample's messages and events). A log
still running or cut short has ``_journal/start.json`` and
``_journal/summaries/<n>.json`` instead. A ``.json`` log is one document
holding the same parts, ``samples`` inline: it is read whole (Inspect's
older, uncompressed form; the ``.eval`` form is the one that streams).

The zip is read under the release reader's rules without unpacking it:
entry count and declared sizes within the limits, no absolute or ``..``
names, no encrypted entries, and the bytes really inflated counted against
the one-file limit, so a compression bomb stops at the limit. Only the
entries named above are ever read. Entries may be deflated or, as Inspect
writes them since 2026, zstd-compressed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from formats.sources.protocol import SourceError

# zipfile with zstd (Inspect's compression since 2026): the standard one from 3.14.
if sys.version_info >= (3, 14):
    import zipfile
else:
    from backports.zstd import zipfile

HEADER = "header.json"
START = "_journal/start.json"
SUMMARIES = "summaries.json"
JOURNAL_SUMMARIES = re.compile(r"^_journal/summaries/(\d+)\.json$")
SAMPLE = re.compile(r"^samples/(.+)_epoch_(\d+)\.json$")
ZIP_MAGIC = b"PK\x03\x04"
_PROBE = 4096


@dataclass(frozen=True)
class Limits:
    """The reader's limits (settings ``BENCHVIEW_LIMITS``: archive entries,
    one file's bytes, the archive's total)."""

    entries: int = 200_000
    file_bytes: int = 256 * 1024**2
    total_bytes: int = 2 * 1024**3


def looks_like_log(path: Path) -> bool:
    """An Inspect log by content: a zip with ``header.json`` or
    ``_journal/start.json``, or a JSON object that opens with an eval log's
    ``version`` and ``eval``."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_PROBE)
    except OSError:
        return False
    if head.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError, ValueError, EOFError):
            return False
        return HEADER in names or START in names
    start = head.lstrip()
    return (
        start.startswith(b"{")
        and b'"eval"' in start
        and b'"version"' in start
        and (b'"task"' in start or b'"status"' in start)
    )


def _clean(name: str) -> bool:
    parts = name.split("/")
    return not (name.startswith("/") or "\\" in name or ".." in parts or "\0" in name)


@dataclass
class InspectLog:
    """A log's ``header`` (without samples), its ``summaries`` (light: id,
    epoch, scores and what the attempt's summary needs) and, by
    ``sample(id, epoch)``, one sample's bytes at a time."""

    path: Path
    label: str
    header: dict[str, Any]
    summaries: list[dict[str, Any]]
    limits: Limits
    # The .eval entries holding full samples: (id as written, epoch) -> entry name.
    entries: dict[tuple[str, int], str] = field(default_factory=dict)
    # A .json log's samples, kept as bytes (it is read whole anyway).
    inline: dict[tuple[str, int], bytes] = field(default_factory=dict)

    def has_sample(self, sample_id: Any, epoch: int) -> bool:
        key = (str(sample_id), epoch)
        return key in self.entries or key in self.inline

    def sample(self, sample_id: Any, epoch: int) -> bytes | None:
        """The sample's own JSON bytes as the log holds them, or None."""
        key = (str(sample_id), epoch)
        if key in self.inline:
            return self.inline[key]
        name = self.entries.get(key)
        if name is None:
            return None
        with zipfile.ZipFile(self.path) as archive:
            return _read_entry(archive, name, self.label, self.limits)


def _read_entry(archive: zipfile.ZipFile, name: str, label: str, limits: Limits) -> bytes:
    info = archive.getinfo(name)
    chunks: list[bytes] = []
    got = 0
    try:
        with archive.open(info) as member:
            while block := member.read(1 << 20):
                got += len(block)
                if got > limits.file_bytes:
                    raise SourceError(
                        [f"{label}: {name}: more than the limit of {limits.file_bytes} bytes"]
                    )
                chunks.append(block)
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as exc:
        raise SourceError([f"{label}: {name}: the entry is damaged ({exc})"]) from None
    except NotImplementedError as exc:  # a compression method zipfile does not read
        raise SourceError([f"{label}: {name}: {exc}"]) from None
    return b"".join(chunks)


def _json(data: bytes, label: str, name: str) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise SourceError([f"{label}: {name}: not valid JSON ({exc})"]) from None


_SUMMARY_KEYS = (
    "id",
    "epoch",
    "input",
    "scores",
    "model_usage",
    "total_time",
    "working_time",
    "started_at",
    "completed_at",
    "completed",
    "error",
    "limit",
)


def light_summary(sample: dict[str, Any]) -> dict[str, Any]:
    """What the import keeps of a sample or summary for every attempt."""
    return {k: sample[k] for k in _SUMMARY_KEYS if k in sample}


def _summaries(value: Any, label: str, name: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise SourceError([f"{label}: {name}: expected a list of sample summaries"])
    found = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise SourceError([f"{label}: {name}: $[{i}]: expected an object"])
        for key, kind in (("id", (str, int)), ("epoch", int)):
            if not isinstance(item.get(key), kind) or isinstance(item.get(key), bool):
                raise SourceError([f"{label}: {name}: $[{i}].{key}: missing or not a {key}"])
        found.append(light_summary(item))
    return found


def open_log(path: Path, limits: Limits, label: str | None = None) -> InspectLog:
    """Read ``path``'s header and summaries (``SourceError`` naming the file and
    JSON path of what is wrong)."""
    label = label or path.name
    try:
        with open(path, "rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise SourceError([f"{label}: cannot be read ({exc})"]) from None
    if magic == ZIP_MAGIC:
        return _open_eval(path, limits, label)
    return _open_json(path, limits, label)


def _open_eval(path: Path, limits: Limits, label: str) -> InspectLog:
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, EOFError, ValueError) as exc:
        raise SourceError([f"{label}: not a readable zip ({exc})"]) from None
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.entries:
            raise SourceError(
                [f"{label}: {len(infos)} entries, more than the limit of {limits.entries}"]
            )
        total = 0
        for info in infos:
            if not _clean(info.filename):
                raise SourceError([f"{label}: {info.filename!r}: an entry name that escapes"])
            if info.flag_bits & 0x1:
                raise SourceError([f"{label}: {info.filename}: encrypted entries are refused"])
            if info.file_size > limits.file_bytes:
                raise SourceError(
                    [f"{label}: {info.filename}: more than the limit of {limits.file_bytes} bytes"]
                )
            total += info.file_size
        if total > limits.total_bytes:
            raise SourceError([f"{label}: more than the limit of {limits.total_bytes} bytes"])
        names = set(archive.namelist())
        header_name = HEADER if HEADER in names else START
        if header_name not in names:
            raise SourceError([f"{label}: no header.json: not an Inspect log"])
        header = _json(_read_entry(archive, header_name, label, limits), label, header_name)
        if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
            raise SourceError([f"{label}: {header_name}: $.eval: missing or not an object"])
        if SUMMARIES in names:
            summaries = _summaries(
                _json(_read_entry(archive, SUMMARIES, label, limits), label, SUMMARIES),
                label,
                SUMMARIES,
            )
        else:
            # A log cut short: its journal's summary batches, in order.
            batches = sorted(
                (int(m.group(1)), n) for n in names if (m := JOURNAL_SUMMARIES.match(n))
            )
            summaries = []
            for _, name in batches:
                summaries += _summaries(
                    _json(_read_entry(archive, name, label, limits), label, name), label, name
                )
        entries = {}
        for name in names:
            found = SAMPLE.match(name)
            if found:
                entries[(found.group(1), int(found.group(2)))] = name
    return InspectLog(path, label, header, summaries, limits, entries=entries)


def _open_json(path: Path, limits: Limits, label: str) -> InspectLog:
    size = path.stat().st_size
    if size > limits.file_bytes:
        raise SourceError([f"{label}: more than the limit of {limits.file_bytes} bytes"])
    doc = _json(path.read_bytes(), label, "$")
    if not isinstance(doc, dict) or not isinstance(doc.get("eval"), dict):
        raise SourceError([f"{label}: $.eval: missing or not an object: not an Inspect log"])
    samples = doc.pop("samples", None) or []
    if not isinstance(samples, list):
        raise SourceError([f"{label}: $.samples: expected a list"])
    inline: dict[tuple[str, int], bytes] = {}
    summaries = []
    for i, sample in enumerate(samples):
        if not isinstance(sample, dict):
            raise SourceError([f"{label}: $.samples[{i}]: expected an object"])
        summaries += _summaries([sample], label, f"$.samples[{i}]")
        inline[(str(sample["id"]), sample["epoch"])] = orjson.dumps(sample)
    return InspectLog(path, label, doc, summaries, limits, inline=inline)


def log_files(paths: list[Path]) -> Iterator[Path]:
    """The Inspect logs among ``paths`` (files, or folders searched for them),
    in name order, told by content."""
    for path in paths:
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                if looks_like_log(child):
                    yield child
        elif looks_like_log(path):
            yield path
