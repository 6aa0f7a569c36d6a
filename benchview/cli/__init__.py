"""``benchview``: the site as a command-line tool.

Each subcommand is a module with ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``; ``COMMANDS`` lists them in the order ``--help`` shows.
Subcommands that wrap a management command pass their arguments to it
unchanged (``passthrough``), so its own ``--help`` and messages apply.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from django.core.management.base import CommandError

COMMANDS = {
    "view": "benchview.cli.view",
    "serve": "benchview.cli.serve",
    "import": "benchview.cli.import_any",
    "check": "benchview.cli.check",
    "import-harbor": "benchview.cli.passthrough:import_harbor",
    "export": "benchview.cli.passthrough:export",
    "manage": "benchview.cli.passthrough:manage",
}


def _load(target: str):
    module, _, attribute = target.partition(":")
    loaded = import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="benchview",
        description="Browse AI coding-agent benchmark results: leaderboards, attempts, "
        "trajectories.",
    )
    subs = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, target in COMMANDS.items():
        command = _load(target)
        sub = subs.add_parser(
            name,
            help=command.HELP,
            description=command.HELP,
            add_help=getattr(command, "ADD_HELP", True),
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return top


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and getattr(_load(COMMANDS.get(argv[0], "builtins")), "ADD_HELP", True) is False:
        # argparse would take an option such as --help for itself; these pass all on.
        return _load(COMMANDS[argv[0]]).run(argparse.Namespace(rest=argv[1:]))
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except CommandError as exc:
        print(f"benchview {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
