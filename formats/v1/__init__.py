"""Release format v1 (docs/release-format.md): its one version constant, its
paths and attempt files (``files``), its identifier rule (``slugs``), its JSON
decoder (``jsondoc``), one builder per derived document (``documents``) and
one per attempt file (``attempt_files``).

Every writer of a release (the database export and mirror, the adapters of
formats/sources/, the sample generator) builds its documents here, so they
cannot drift apart.
"""

# The "schema" every v1 document carries.
SCHEMA = "v1"
