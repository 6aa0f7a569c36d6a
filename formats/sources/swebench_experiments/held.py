"""An instance's large parts (patch, test lists, trajectory line), read again
when its attempt is built, so that reading a submission keeps only what is
small: its outcome and where the rest is.

Attempts are built one system at a time, so ``Held`` keeps the files of one
system (the lines of its ``evaluation_details.jsonl``, ``all_preds.jsonl``,
``output.jsonl``) and drops them when the next system's are asked for. The
files were checked when first read; what they hold now is parsed the same way.
"""

from __future__ import annotations

from typing import Any

import orjson

from formats.sources.swebench_experiments import results as R


class Held:
    def __init__(self) -> None:
        self._system: Any = None
        self._lines: dict[str, list[bytes]] = {}
        self._docs: dict[str, Any] = {}

    def _for(self, system: Any) -> None:
        if self._system is not system:
            self._system, self._lines, self._docs = system, {}, {}

    def line(self, system: Any, name: str, number: int) -> bytes:
        """Line ``number`` (1-based) of the system's file ``name``."""
        self._for(system)
        if name not in self._lines:
            self._lines[name] = system.read(name).split(b"\n")
        lines = self._lines[name]
        return lines[number - 1] if 0 < number <= len(lines) else b""

    def document(self, system: Any, name: str) -> Any:
        self._for(system)
        if name not in self._docs:
            self._docs[name] = _loads(system.read(name))
        return self._docs[name]

    def parts(self, system: Any, instance: Any) -> tuple[str | None, dict[str, Any]]:
        """The instance's patch and its FAIL_TO_PASS / PASS_TO_PASS tests."""
        patch, tests = None, {}
        if instance.detail is not None:
            name, number = instance.detail
            obj = _loads(self.line(system, name, number))
            if isinstance(obj, dict):
                patch = obj.get("model_patch") if isinstance(obj.get("model_patch"), str) else None
                tests = R.groups(obj, name, [])
        if instance.report is not None:
            doc = _loads(system.read(instance.report))
            report = next(iter(doc.values()), None) if isinstance(doc, dict) and doc else None
            status = report.get("tests_status") if isinstance(report, dict) else None
            if isinstance(status, dict):
                tests = R.groups(status, instance.report, [])
        if patch is None and instance.prediction is not None:
            name, key = instance.prediction
            if isinstance(key, int):
                obj = _loads(self.line(system, name, key))
            else:
                doc = self.document(system, name)
                obj = doc.get(key) if isinstance(doc, dict) else None
            if isinstance(obj, dict) and isinstance(obj.get("model_patch"), str):
                patch = obj["model_patch"]
        return patch, tests


def _loads(data: bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
