"""A small release with planted events every search test can rely on.

The planted words (``zebrafish``, ``quokka`` …) appear nowhere in the
generated release, so each case knows exactly which events must match.
"""

from __future__ import annotations

from tests.search.helpers import add_events, attempt_folders, message, tool_call


def plant(root):
    """Plant known events in the first two attempt folders of different models;
    returns the (model, task) pairs used."""
    folders = attempt_folders(root)
    first = folders[0]
    second = next(f for f in folders if f[0] != first[0] and f[1] != first[1])
    add_events(
        root,
        *first,
        [
            tool_call("Bash", "git push --force origin main", "rejected: zebrafish hook"),
            tool_call("shell", "rm -rf build", "removed", ok=False, exit_code=1),
            message("I will force push the git branch: zebrafish."),
            message("Quokka <script>alert('quokka')</script> & friends"),
        ],
    )
    add_events(
        root,
        *second,
        [
            tool_call("bash", "echo zebrafish", "zebrafish", ok=False, exit_code=2),
            message("A quokka sighting, no fish here."),
        ],
    )
    return first, second


# Small on purpose: every test imports it (a few hundred events).
TINY = {"models": 3, "tasks": 4, "released": 4, "events": 400, "seed": 11}
