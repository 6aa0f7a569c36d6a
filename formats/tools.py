"""One name per tool, whatever the harness calls it.

Harnesses name the same tool differently (Claude Code's ``Bash``, Codex's
``shell``, OpenCode's ``bash``). Search filters and analyses that group by
tool use ``canonical_tool`` so ``tool:bash`` finds all three. The table is
the only place these spellings are listed; add a harness's names here.
"""

from __future__ import annotations

# canonical name -> the spellings harnesses use (compared case-insensitively).
TOOL_ALIASES: dict[str, tuple[str, ...]] = {
    "bash": (
        "bash",
        "shell",
        "local_shell",
        "exec_command",
        "run_command",
        "terminal",
        "bash_session",
    ),
    "read": ("read", "read_file", "view"),
    "edit": ("edit", "multiedit", "apply_patch", "str_replace_based_edit_tool", "text_editor"),
    "write": ("write", "write_file", "create_file"),
    "grep": ("grep", "ripgrep", "rg"),
    "glob": ("glob", "find_files", "list_files"),
    "webfetch": ("webfetch", "web_fetch", "fetch"),
    "websearch": ("websearch", "web_search", "web_search_call"),
    "task": ("task", "agent", "spawn_agent"),
    "todo": ("todowrite", "todoread", "update_plan", "todo"),
}

_CANONICAL: dict[str, str] = {
    spelling: name for name, spellings in TOOL_ALIASES.items() for spelling in spellings
}


def canonical_tool(name: str) -> str:
    """The canonical name of a harness's tool name; unknown names are only lower-cased."""
    folded = name.strip().casefold()
    return _CANONICAL.get(folded, folded)


def tool_spellings(name: str) -> list[str]:
    """Every lower-cased spelling whose canonical name is ``canonical_tool(name)``."""
    canonical = canonical_tool(name)
    return sorted({canonical, *TOOL_ALIASES.get(canonical, ())})
