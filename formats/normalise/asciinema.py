"""asciinema recordings (asciicast v2 and v3): what was typed and what the terminal showed.

Terminal-Bench records every trial's terminal with ``asciinema rec --stdin``
(``sessions/agent.cast``): a header object, then one ``[time, code, data]``
array a line. ``i`` lines are keystrokes (the agent's commands, sent through
tmux), ``o`` lines the terminal's output. Each run of consecutive ``i`` lines
becomes one ``tool_call`` of the ``terminal`` tool (input ``{"keys": ...}``,
control keys shown as ``^C``), and the ``o`` lines up to the next keystroke
are its result: the output with escape sequences taken out, the order and
times kept (``ts`` from the header's ``timestamp`` plus the line's time;
``duration_ms`` to the last output). A terminal reports no exit codes, so
``exit_code`` is null and ``ok`` true. The header gives the ``system`` event
(no model: the recording does not name one), which also holds what the
terminal showed before the first keystroke (``screen``). Markers (``m``),
resizes (``r``) and v3's exit (``x``) are unmapped with that reason, as are
lines that are not ``[time, code, data]``.
"""

from __future__ import annotations

import re
from typing import Any

from formats.normalise import Normalised, register
from formats.normalise.lines import (
    SKIPPED,
    Builder,
    Head,
    JSONDecodeError,
    as_text,
    lines_of,
    loads,
    ms_ts,
    reread,
    result,
)

NAME = "asciinema"
TOOL = "terminal"

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-byte escapes,
# and the C1 CSI form: what colours and moves the cursor, not what was shown.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\"
    r"|\x1b[@-Z\\-_]|\x1b.|\x9b[0-?]*[ -/]*[@-~]"
)
# Control characters other than tab, newline and carriage return.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_UNMAPPED_CODES = {
    "m": "marker (not an event)",
    "r": "terminal resize",
    "x": "exit status of the recorded shell",
}


def looks_like(head: Head) -> bool:
    """The first JSON object is an asciicast header: version 2 or 3 with a size."""
    for obj in head:
        version = obj.get("version")
        sized = ("width" in obj and "height" in obj) or isinstance(obj.get("term"), dict)
        return version in (2, 3) and sized
    return False


def screen_text(data: str) -> str:
    """Terminal output as text: escape sequences out, a line overwritten after a
    carriage return shows what was written last, other control characters out."""
    text = _ESCAPES.sub("", data).replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(line.rsplit("\r", 1)[-1] if line else line for line in text.split("\n"))
    return _CONTROLS.sub("", text)


def keys_text(data: str) -> str:
    """Keystrokes as text: Enter ends a line, other control keys shown as ^X."""
    text = data.replace("\r\n", "\n").replace("\r", "\n")
    return re.sub(
        r"[\x00-\x08\x0b-\x1f\x7f]",
        lambda m: "^?" if m.group() == "\x7f" else "^" + chr(ord(m.group()) + 64),
        _ESCAPES.sub("", text),
    )


def _stamp(start: float | None, at: float) -> str | None:
    if start is None:
        return None
    return ms_ts(round((start + at) * 1000))


class _Recording:
    def __init__(self, out: Builder):
        self.out = out
        self.start: float | None = None
        self.relative = False  # v3: each time is the interval since the line before
        self.clock = 0.0
        self.system: dict[str, Any] | None = None
        self.screen: list[str] = []
        self.call: dict[str, Any] | None = None
        self.keys: list[str] = []
        self.output: list[str] = []
        self.first = self.last = 0.0

    def header(self, number: int, obj: dict[str, Any]) -> None:
        stamp = obj.get("timestamp")
        if isinstance(stamp, int | float) and not isinstance(stamp, bool) and 0 <= stamp < 2**35:
            self.start = float(stamp)
        self.relative = obj.get("version") == 3
        term = obj.get("term") if isinstance(obj.get("term"), dict) else obj
        size = f"{as_text(term.get('cols', term.get('width')))}x"
        size += as_text(term.get("rows", term.get("height")))
        event: dict[str, Any] = {"index": -1, "type": "system"}
        ts = _stamp(self.start, 0.0)
        if ts is not None:
            event["ts"] = ts
        event.update({"model": "", "tool_count": 1, "terminal": size})
        self.system = self.out.add(event, number)

    def line(self, number: int, obj: Any) -> None:
        if not (
            isinstance(obj, list)
            and len(obj) == 3
            and isinstance(obj[0], int | float)
            and not isinstance(obj[0], bool)
            and isinstance(obj[1], str)
            and isinstance(obj[2], str)
        ):
            self.out.skip(number, "not an asciicast event ([time, code, data])")
            return
        at, code, data = obj
        if self.relative:
            self.clock += float(at)
            at = self.clock
        at = float(at)
        if code == "i":
            self._keys(number, at, data)
        elif code == "o":
            self._output(number, at, data)
        else:
            self.out.skip(number, _UNMAPPED_CODES.get(code, f"unknown event code {code!r}"))

    def _keys(self, number: int, at: float, data: str) -> None:
        if self.call is not None and self.output:
            self.finish()
        if self.call is None:
            event = {"index": -1, "type": "tool_call"}
            ts = _stamp(self.start, at)
            if ts is not None:
                event["ts"] = ts
            event.update({"tool": TOOL, "input": {"keys": ""}, "result": None})
            self.call = self.out.add(event, number)
            self.first = self.last = at
        else:
            self.out.source(self.call, number)
        self.keys.append(data)

    def _output(self, number: int, at: float, data: str) -> None:
        if self.call is None:
            if self.system is not None:
                self.out.source(self.system, number)
                self.screen.append(data)
            else:
                self.out.skip(number, "output before the recording's header")
            return
        self.out.source(self.call, number)
        self.output.append(data)
        self.last = at

    def finish(self) -> None:
        if self.call is not None:
            self.call["input"] = {"keys": keys_text("".join(self.keys))}
            self.call["result"] = result(True, screen_text("".join(self.output)))
            if self.last > self.first:
                self.call["duration_ms"] = round((self.last - self.first) * 1000)
        self.call, self.keys, self.output = None, [], []

    def done(self) -> Normalised:
        self.finish()
        if self.system is not None and self.screen:
            self.system["screen"] = screen_text("".join(self.screen))
        return self.out.done()


@register(NAME, looks_like)
def normalise_asciinema(data: bytes) -> Normalised:
    out = Builder(NAME)
    recording = _Recording(out)
    for number, raw in lines_of(data):
        try:
            obj = loads(raw)
        except JSONDecodeError:
            obj = reread(out, number, raw)
            if obj is SKIPPED:
                continue
        if number == 1 and isinstance(obj, dict):
            recording.header(number, obj)
        elif isinstance(obj, dict):
            out.skip(number, "a JSON object after the header")
        else:
            recording.line(number, obj)
    return recording.done()
