"""The search query language: words, "exact phrases", -excluded, field:value.

    rm -rf "git push --force" -test tool:bash ok:false model:alpha

Words and phrases must all occur in one event (any of its text, output, tool
name or input); ``-word`` and ``-"a phrase"`` must not. Fields filter events
or their attempts; a field given twice matches either value. Matching is on
words: case and punctuation are ignored, so ``"git push --force"`` also finds
``git push -force`` (see docs/search.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.conf import settings

# Field name -> what it filters (the engine knows how).
FIELDS: dict[str, str] = {
    "type": "event type (tool_call, message, reasoning, error, user, system)",
    "tool": "tool name, normalised (bash also finds Bash and shell)",
    "ok": "tool call outcome: true or false",
    "exit": "tool call exit code (an integer)",
    "model": "model id",
    "harness": "harness of the attempt",
    "task": "task id",
    "surface": "task surface",
    "check": "attempts that failed this check (its name)",
}
BOOLEANS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}

# One piece of a query: an optional "-", then field:"quoted", field:value,
# "a phrase", or a bare word (anything up to the next space).
PIECE = re.compile(
    r'(?P<neg>-)?(?:(?P<field>[a-z]+):(?:"(?P<fquoted>[^"]*)"?|(?P<fvalue>\S*))'
    r'|"(?P<phrase>[^"]*)"?|(?P<word>\S+))'
)
# Runs of letters and digits: the words both databases index (unicode61 and
# PostgreSQL's parser over text with punctuation turned into spaces).
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The indexed words of ``text`` in order, as typed (each database folds case)."""
    return _WORD.findall(text)


@dataclass
class Query:
    terms: list[str] = field(default_factory=list)  # each a phrase of indexed words
    excluded: list[str] = field(default_factory=list)
    filters: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    # Why the query is not run at all (it asks more than a search may), or None.
    refusal: str | None = None

    @property
    def is_empty(self) -> bool:
        return not (self.terms or self.excluded or self.filters)

    @property
    def highlight_words(self) -> list[str]:
        found = {w.casefold() for term in self.terms for w in term.split()}
        return sorted(found, key=lambda w: (-len(w), w))

    def add_filter(self, name: str, value: str) -> None:
        value = value.strip()
        if not value:
            return
        problem = _check_value(name, value)
        if problem:
            self.problems.append(problem)
            return
        values = self.filters.setdefault(name, [])
        if value not in values:
            values.append(value)

    def describe(self) -> dict:
        """The parsed query as plain data (for the API and the JSON download)."""
        return {
            "words": self.terms,
            "excluded": self.excluded,
            "filters": self.filters,
            "problems": self.problems,
        }


def _check_value(name: str, value: str) -> str | None:
    if "\x00" in value:
        # No database column can hold it (PostgreSQL refuses it outright).
        return f"{name}: takes no NUL character."
    if name == "ok" and value.lower() not in BOOLEANS:
        return f"ok: takes true or false, not {value!r}."
    if name == "exit" and not re.fullmatch(r"-?\d{1,9}", value):
        return f"exit: takes an integer exit code, not {value!r}."
    return None


def _refusal(q: str, query: Query) -> str | None:
    """Why ``query`` asks more than one search may (the limits in
    BENCHVIEW_LIMITS, stated in docs/search.md), or None."""
    limits = settings.BENCHVIEW_LIMITS
    most_chars = limits["search_query_max_chars"]
    most_terms, most_excluded = limits["search_max_terms"], limits["search_max_excluded"]
    if len(q) > most_chars:
        return f"The query is {len(q):,} characters long; at most {most_chars:,} are searched."
    if len(query.terms) > most_terms:
        return (
            f"The query asks for {len(query.terms)} words or phrases; "
            f"at most {most_terms} are searched at once."
        )
    if len(query.excluded) > most_excluded:
        return (
            f"The query excludes {len(query.excluded)} words or phrases; "
            f"at most {most_excluded} can be excluded at once."
        )
    return None


def parse(q: str, params: dict[str, list[str]] | None = None) -> Query:
    """Parse ``q``; ``params`` adds field filters from form controls (name -> values).
    A query past the limits is parsed no further than it takes to say so
    (``refusal``)."""
    query = Query()
    q = q or ""
    if len(q) > settings.BENCHVIEW_LIMITS["search_query_max_chars"]:
        query.refusal = _refusal(q, query)
        return query
    for match in PIECE.finditer(q):
        negated = bool(match["neg"])
        name = match["field"]
        if name is not None and name in FIELDS:
            value = match["fquoted"] if match["fquoted"] is not None else match["fvalue"]
            if negated:
                query.problems.append(f"-{name}: is not supported; only words can be excluded.")
                continue
            query.add_filter(name, value)
            continue
        text = match.group(0)[1:] if negated else match.group(0)
        if match["phrase"] is not None:
            text = match["phrase"]
        phrase = " ".join(words(text))
        if not phrase:
            continue
        target = query.excluded if negated else query.terms
        if phrase.casefold() not in {t.casefold() for t in target}:
            target.append(phrase)
    for name, values in (params or {}).items():
        if name in FIELDS:
            for value in values:
                query.add_filter(name, value)
    query.refusal = _refusal(q, query)
    return query
