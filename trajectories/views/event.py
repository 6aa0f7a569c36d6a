"""One event in full: the text, input and output the attempt page only previews."""

from __future__ import annotations

from django.shortcuts import render

from trajectories import queries
from trajectories.queries import trial_number
from trajectories.render.json import pretty
from trajectories.render.text import visible


def event(request, bench: str, model: str, task: str, index: int, trial: int | None = None):
    found = queries.attempt_for_page(
        request.user, bench=bench, model=model, task=task, trial=trial_number(trial)
    )
    row = queries.event_full(found, index)
    document = row.as_document()
    result = document.get("result") if isinstance(document.get("result"), dict) else None
    text = document.get("text")
    other = {k: v for k, v in document.items() if k not in ("text", "input", "result")}
    # Events are numbered 0..events_total-1 (release format), so the
    # neighbours need no query.
    total = found.evidence.events_total
    return render(
        request,
        "trajectories/event.html",
        {
            "attempt": found,
            "bench": found.bench,
            "model": found.model,
            "task": found.task,
            "event": row,
            "previous": index - 1 if index > 0 else None,
            "next": index + 1 if index + 1 < total else None,
            "events_total": total,
            "text": visible(text) if isinstance(text, str) else None,
            "input": visible(pretty(document["input"])) if "input" in document else None,
            "result": result,
            "output": visible(pretty(result["output"]))
            if result is not None and "output" in result
            else None,
            "result_rest": visible(pretty({k: v for k, v in result.items() if k != "output"}))
            if result is not None
            else None,
            "other": visible(pretty(other)) if other else None,
        },
    )
