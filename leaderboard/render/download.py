"""?format=csv and ?format=json on a table page: the same rows, as a file.

A page passes its columns and rows (already filtered and sorted as shown);
the links to these downloads are the page's own address with ``format`` set,
so they keep every filter.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse, JsonResponse

FORMATS = ("csv", "json")


def wanted(request) -> str | None:
    """The download format the request asks for, or None for the page."""
    chosen = request.GET.get("format", "")
    return chosen if chosen in FORMATS else None


def table_response(
    fmt: str, *, name: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """``rows`` as CSV (header line first) or as a JSON list of objects."""
    rows = list(rows)
    if fmt == "json":
        response = JsonResponse(
            [dict(zip(columns, row, strict=True)) for row in rows],
            safe=False,
            json_dumps_params={"indent": 2},
        )
    else:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.{fmt}"'
    return response
