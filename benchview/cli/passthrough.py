"""Subcommands that are a management command under another name: their
arguments (``--help`` too) go to it unchanged."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from benchview.cli import site


@dataclass(frozen=True)
class Passthrough:
    command: str | None  # None: the first argument names it (``manage``)
    HELP: str
    ADD_HELP = False

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def run(self, args: argparse.Namespace) -> int:
        from django.core.management import execute_from_command_line

        site.setup()
        rest = list(args.rest)
        if self.command is None and not rest:
            rest = ["help"]
        head = [self.command] if self.command else []
        execute_from_command_line(["benchview", *head, *rest])
        return 0


import_harbor = Passthrough("import_harbor", "import Harbor jobs as a bench (import_harbor)")
export = Passthrough("export_release", "export a bench as a release folder (export_release)")
manage = Passthrough(None, "run any management command (benchview manage help lists them)")
