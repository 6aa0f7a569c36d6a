"""Evidence.problems: the attempt page's first failures and errors, kept at import.

The page used to read every error and failed tool call of the attempt on each
view, which grew with the trajectory. Existing attempts are filled here from
their events in one ordered pass, with the same caps the import uses.
"""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Q


def fill(apps, schema_editor):
    Evidence = apps.get_model("trajectories", "Evidence")
    Event = apps.get_model("trajectories", "Event")
    limits = settings.BENCHVIEW_LIMITS
    first_failures, first_errors = limits["attempt_first_failures"], limits["attempt_first_errors"]
    found: dict[int, dict] = {}
    rows = (
        Event.objects.filter(
            Q(type="error") | Q(type="tool_call", ok=False) | Q(type="tool_call", ok__isnull=True)
        )
        .order_by("attempt_id", "index")
        .values_list("attempt_id", "index", "type", "tool", "ok")
    )
    for attempt_id, index, event_type, tool, ok in rows.iterator(chunk_size=5000):
        problems = found.setdefault(
            attempt_id, {"failures": {}, "never_returned": {}, "errors": []}
        )
        if event_type == "error":
            if len(problems["errors"]) < first_errors:
                problems["errors"].append(index)
            continue
        kept = problems["failures" if ok is False else "never_returned"].setdefault(tool, [])
        if len(kept) < first_failures:
            kept.append(index)
    empty = {"failures": {}, "never_returned": {}, "errors": []}
    changed = []
    for evidence in Evidence.objects.only("pk", "attempt_id").iterator(chunk_size=2000):
        evidence.problems = found.get(evidence.attempt_id, empty)
        changed.append(evidence)
    Evidence.objects.bulk_update(changed, ["problems"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("trajectories", "0007_cheaper_search_vector")]

    operations = [
        migrations.AddField(
            model_name="evidence",
            name="problems",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
