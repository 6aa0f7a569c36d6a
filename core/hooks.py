"""The apps' answers core needs, reached through settings (``BENCHVIEW_HOOKS``:
name -> dotted path of a function) so that core imports no app."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string


@cache
def _load(path: str) -> Callable:
    return import_string(path)


def hook(name: str) -> Callable:
    """The function settings name for ``name`` (imported once per path)."""
    return _load(settings.BENCHVIEW_HOOKS[name])
