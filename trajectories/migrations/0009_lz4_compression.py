"""PostgreSQL: the large columns compressed with lz4 instead of pglz.

An import writes about a gigabyte of raw transcripts (blobs) and long tool
outputs at the seed's scale, and PostgreSQL compresses every value over 2 kB
before storing it. pglz took about 3 s per 180 MB of transcripts on the
server; lz4 took 0.7 s and stored them in 42 MB instead of 52. Values stored
before stay as they are (PostgreSQL reads both). A server built without lz4
keeps pglz. SQLite compresses nothing.
"""

from django.db import migrations, transaction
from django.db.utils import NotSupportedError

COLUMNS = {
    "trajectories_blob": ["data"],
    "trajectories_event": ["text", "output", "doc", "lines"],
    "trajectories_vendorrequest": ["doc"],
}


def _set(method: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table, columns in COLUMNS.items():
            for column in columns:
                try:
                    with transaction.atomic():
                        schema_editor.execute(
                            f'ALTER TABLE "{table}" ALTER COLUMN "{column}" SET COMPRESSION {method}'
                        )
                except NotSupportedError:
                    return  # built without lz4: pglz it is

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("trajectories", "0008_evidence_problems"),
    ]

    operations = [migrations.RunPython(_set("lz4"), _set("pglz"))]
