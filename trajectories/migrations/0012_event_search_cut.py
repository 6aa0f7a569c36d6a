"""The events whose indexed text was cut: a partial index of them per attempt.

The full-text index (migrations 0006, 0007) holds the first
``search_index_chars`` of an event's text, output and tool input. The search
inside one attempt (trajectories.search.in_attempt) also reads the rest of the
few events longer than that, so a word past the cut is still found; this index
lists those events, by attempt and position, without reading any event's text
(the database evaluates the condition when an event is written). The query
repeats the condition word for word (trajectories.search.backends.CUT), which
is how both databases know the index answers it.
"""

from django.conf import settings
from django.db import migrations

N = int(settings.BENCHVIEW_LIMITS["search_index_chars"])

CONDITION = {
    "postgresql": (
        f"(length(text) > {N} OR length(output) > {N} OR length(doc ->> 'input') > {N})"
    ),
    "sqlite": (
        f"(length(text) > {N} OR length(output) > {N} "
        f"OR length(json_extract(doc, '$.input')) > {N})"
    ),
}


def forward(apps, schema_editor):
    condition = CONDITION[schema_editor.connection.vendor]
    schema_editor.execute(
        'CREATE INDEX trajectories_event_search_cut ON trajectories_event (attempt_id, "index") '
        f"WHERE {condition}"
    )


def backward(apps, schema_editor):
    schema_editor.execute("DROP INDEX trajectories_event_search_cut")


class Migration(migrations.Migration):
    dependencies = [
        ("trajectories", "0011_evidence_height_lines_for_slice_heights"),
    ]

    operations = [migrations.RunPython(forward, backward)]
