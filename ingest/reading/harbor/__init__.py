"""A release built from a source of results, and the bench's models it keeps.

The adapters (``formats.sources``: Harbor jobs, ...) read and check; what
needs the database is here: ``existing`` (the bench's other models, read back
from the rows), ``build`` (``release_of``: the release of a source, merged with
the models kept; ``harbor_release``) and ``source`` (``HarborSource``, the
release, its attempt folders read back from where the check pass spooled
them).
"""
