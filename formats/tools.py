"""One family per tool, whatever the harness calls it.

Harnesses name the same tool differently (Claude Code's ``Bash``, Codex's
``shell`` or ``local_shell``, OpenCode's ``bash``, SWE-agent's
``execute_bash``). Every page that groups tools reads this table and no
other: the search filter (``tool:bash`` finds all of them), the analysis
pages (one row per family), the compare page (a Codex shell step lines up
with a Claude Bash step) and the sample generator's harness tool lists (a
test checks each of its names has a family). docs/tools.md explains the
choices; add a harness's names here.
"""

from __future__ import annotations

# family -> the spellings harnesses use (compared case-insensitively). A
# spelling belongs to one family only; a name not listed is its own family
# (lower-cased), so a new tool still groups with itself across case.
TOOL_FAMILIES: dict[str, tuple[str, ...]] = {
    # Run a shell command. Terminus (ATIF/Harbor) sends keystrokes to a tmux shell.
    "bash": (
        "bash",
        "shell",
        "local_shell",
        "exec",
        "exec_command",
        "container.exec",
        "run_command",
        "execute_bash",
        "bash_command",
        "keystrokes",
        "terminal",
        "bash_session",  # Inspect's stateful shell
        "write_stdin",
        "bashoutput",
    ),
    # Run code in an interpreter (Inspect's ``python``, OpenHands' IPython cell).
    "python": ("python", "ipython", "execute_ipython_cell", "run_ipython"),
    # SWE-agent's file viewer moves with goto and scroll_*.
    "read": (
        "read",
        "read_file",
        "view",
        "view_file",
        "view_image",
        "open",
        "notebookread",
        "goto",
        "scroll_up",
        "scroll_down",
    ),
    # Change a file in place, whole-file writes excepted. ``apply_patch`` (Codex)
    # and the editor tools whose commands also view or create (SWE-agent's
    # ``str_replace_editor``, Inspect's ``text_editor``) count as edits: most of
    # their calls are edits.
    "edit": (
        "edit",
        "multiedit",
        "apply_patch",
        "str_replace_based_edit_tool",
        "str_replace_editor",
        "text_editor",
        "edit_file",
        "str_replace",
        "notebookedit",
        # SWE-agent's line editor.
        "insert",
        "append",
    ),
    "write": ("write", "write_file", "create_file", "create"),
    # Find files or text: names (glob, ls) and contents (grep) are one family.
    "search": (
        "search",
        "grep",
        "ripgrep",
        "rg",
        "glob",
        "ls",
        "list",
        "find_files",
        "list_files",
        "find_file",
        "search_file",
        "search_dir",
    ),
    # OpenHands' browser actions too.
    "webfetch": ("webfetch", "web_fetch", "fetch", "browser", "browse", "browse_interactive"),
    "websearch": ("websearch", "web_search", "web_search_call"),
    "task": ("task", "agent", "spawn_agent"),
    "todo": (
        "todo",
        "todowrite",
        "todoread",
        "update_plan",
        "taskcreate",
        "taskupdate",
        "tasklist",
    ),
    "think": ("think",),
    # The agent says it is done (SWE-agent, OpenHands, Terminus).
    "submit": ("submit", "finish", "task_complete", "mark_task_complete"),
}

_FAMILY: dict[str, str] = {
    spelling: name for name, spellings in TOOL_FAMILIES.items() for spelling in spellings
}


def tool_family(name: str) -> str:
    """The family of a harness's tool name; unknown names are only lower-cased."""
    folded = name.strip().casefold()
    return _FAMILY.get(folded, folded)


def tool_spellings(name: str) -> list[str]:
    """Every lower-cased spelling whose family is ``tool_family(name)``."""
    family = tool_family(name)
    return sorted({family, *TOOL_FAMILIES.get(family, ())})
