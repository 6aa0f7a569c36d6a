"""What a leaderboard says about each model beyond its score: when its
results were produced, by which organisation, whether its weights and its
agent system are open, and whether the bench verified the run.

Where each comes from (docs/model-facts.md):

- ``results_date``: the model's extension field of that name if the release
  gives one, else the day its last attempt finished (``summary.json``'s
  ``timing.finished_at``; a Harbor trial's ``finished_at``).
- ``organisation`` (or ``organization``), ``open_weights``, ``open_system``,
  ``verified``, ``site``: extension fields of ``models/<model>.json``'s ``model``
  object (or the document's top level); a Harbor bench takes them from its
  ``--models`` file. Absent means unknown: shown as nothing, never as "no".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from core import jsonsafe
from formats.v1.facts import FIELDS, SPELLINGS
from leaderboard.models import Model

# The board's filters: query parameter -> the fact it asks for.
FLAG_FILTERS = ("open_weights", "open_system", "verified")


@dataclass(frozen=True)
class ModelFacts:
    results_date: str | None = None  # YYYY-MM-DD
    organisation: str | None = None
    open_weights: bool | None = None
    open_system: bool | None = None
    verified: bool | None = None
    site: str | None = None  # the submission's page; linked only when http(s)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def declared(extras: Mapping[str, Any] | None) -> dict[str, Any]:
    """The facts a model's document declares, from its stored extras tree
    (``Model.extras``): the ``model`` object's unknown keys over the top level's."""
    tree = extras or {}
    found: dict[str, Any] = {}
    for level in (tree.get("__extra__"), (tree.get("model") or {}).get("__extra__")):
        for key, value in (jsonsafe.unpack(level) or {}).items():
            name = SPELLINGS.get(key, key)
            if name in FIELDS and isinstance(value, FIELDS[name]):
                found[name] = value
    if "results_date" in found:
        found["results_date"] = found["results_date"][:10]
    if "site" in found and not found["site"].startswith(("https://", "http://")):
        del found["site"]  # a javascript: or relative address is never a link
    return found


def facts_of(model: Model, last_finished: str | None) -> ModelFacts:
    """``last_finished``: the latest ``finished_at`` of the model's attempts."""
    found = declared(model.extras)
    if "results_date" not in found and last_finished:
        found["results_date"] = last_finished[:10]
    return ModelFacts(**found)


def site_link(site: str | None) -> str | None:
    """The site to link to: an http(s) address only (never ``javascript:``)."""
    if site and site.lower().startswith(("https://", "http://")):
        return site
    return None


def wanted(params: Mapping[str, str]) -> dict[str, Any]:
    """The board's fact filters in a query string: ``open_weights=1``,
    ``open_system=1``, ``verified=1``, ``organisation=<name>``; empty means
    no filter."""
    chosen: dict[str, Any] = {k: True for k in FLAG_FILTERS if params.get(k) in ("1", "true")}
    if params.get("organisation"):
        chosen["organisation"] = params["organisation"]
    return chosen


def keep(models: Iterable[Model], facts: Mapping[int, ModelFacts], chosen: Mapping[str, Any]):
    """The models whose facts hold every chosen value."""
    return [m for m in models if all(getattr(facts[m.pk], k) == v for k, v in chosen.items())]
