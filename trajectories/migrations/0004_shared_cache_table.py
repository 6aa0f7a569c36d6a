"""The database cache's table (the "shared" cache on PostgreSQL), so `migrate` alone makes it.

createcachetable creates a table only for caches configured with the database
backend and skips tables that exist, so this does nothing where the shared
cache is Redis or a folder. Changing the cache's table name later needs
`manage.py createcachetable`.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("trajectories", "0003_attempt_indexes_from_constraints")]

    operations = [migrations.RunPython(create_cache_tables, migrations.RunPython.noop)]
