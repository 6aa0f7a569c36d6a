"""How Harbor names become release ids: task and model slugs, and the models file.

``--models FILE`` (or the admin's models field) maps a (model name, agent)
pair to an id, display name and provider; without an entry the id is the
slug of ``<model_name>-<agent>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from formats.sources import ModelEntry
from formats.sources.harbor.errors import HarborError
from formats.sources.harbor.trial import MODEL_NAME_MAX, PROVIDER_MAX, Trial
from formats.v1 import schema
from formats.v1.facts import FIELDS as FACTS
from formats.v1.facts import SPELLINGS
from formats.v1.slugs import is_slug

_NOT_SLUG = re.compile(r"[^a-z0-9._-]+")


def slugify(name: str) -> str:
    """``etl_checkpoint_resume_bug`` -> ``etl-checkpoint-resume-bug``."""
    slug = _NOT_SLUG.sub("-", name.lower().replace("_", "-"))
    slug = re.sub(r"-{2,}", "-", slug).lstrip("._-").rstrip("-")
    return slug[:100].rstrip("-")


def title_of(bench: str) -> str:
    return " ".join(part.capitalize() for part in re.split(r"[-_.]+", bench) if part)


@dataclass
class ModelRule:
    id: str
    display_name: str | None = None
    provider: str | None = None
    # Leaderboard facts (leaderboard.facts), written into models/<model>.json.
    facts: dict[str, Any] = field(default_factory=dict)


TYPE_NAMES = {str: "a string", bool: "true or false"}

# How a models file given as its entries (the admin's field) is named in messages.
MODELS_NAME = "models file"


def models_file(entries: list | None) -> tuple[bytes, str] | None:
    """A models file's entries (the admin's field, a job's ``harbor_models``) as
    ``harbor_release`` takes a file."""
    return None if entries is None else (orjson.dumps(entries), MODELS_NAME)


def read_models_file(data: bytes, name: str) -> dict[tuple[str, str], ModelRule]:
    """--models FILE: a JSON list of {model_name, agent, id, display_name?, provider?}."""
    try:
        doc = schema.parse_json(data)
    except ValueError as exc:
        raise HarborError([f"{name}: {exc}"]) from None
    if not isinstance(doc, list):
        raise HarborError([f"{name}: expected a JSON list of model entries"])
    rules: dict[tuple[str, str], ModelRule] = {}
    problems = []
    for i, entry in enumerate(doc):
        where = f"{name}: [{i}]"
        if not isinstance(entry, dict):
            problems.append(f"{where}: expected an object")
            continue
        for key in ("model_name", "agent", "id"):
            if not isinstance(entry.get(key), str):
                problems.append(f"{where}.{key}: expected a string")
        for key, limit in (("display_name", MODEL_NAME_MAX), ("provider", PROVIDER_MAX)):
            if key in entry and not isinstance(entry[key], str):
                problems.append(f"{where}.{key}: expected a string")
            elif key in entry and len(entry[key]) > limit:
                problems.append(f"{where}.{key}: expected at most {limit} characters")
        for key, value in entry.items():
            kind = FACTS.get(SPELLINGS.get(key, key))
            if kind is not None and not isinstance(value, kind):
                problems.append(f"{where}.{key}: expected {TYPE_NAMES[kind]}")
        if problems:
            continue
        if not is_slug(entry["id"]):
            problems.append(f"{where}.id: {entry['id']!r} is not a valid id")
            continue
        key = (entry["model_name"], entry["agent"])
        if key in rules:
            problems.append(f"{where}: a second entry for model {key[0]!r} in {key[1]!r}")
        facts = {k: v for k, v in entry.items() if SPELLINGS.get(k, k) in FACTS}
        rules[key] = ModelRule(entry["id"], entry.get("display_name"), entry.get("provider"), facts)
    if problems:
        raise HarborError(problems)
    return rules


def model_of(trial: Trial, rules: dict[tuple[str, str], ModelRule]) -> ModelEntry:
    """The model a trial belongs to: its models-file entry, else its names' slug."""
    rule = rules.get((trial.model_name, trial.agent))
    shown = trial.model_name or trial.agent
    if rule is not None:
        return ModelEntry(
            rule.id,
            rule.display_name or shown,
            trial.agent,
            rule.provider if rule.provider is not None else trial.provider,
            dict(rule.facts),
        )
    ident = slugify(f"{trial.model_name}-{trial.agent}" if trial.model_name else trial.agent)
    return ModelEntry(ident, shown, trial.agent, trial.provider)
