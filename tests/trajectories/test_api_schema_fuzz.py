"""The API answers what its OpenAPI schema says: a bounded, seeded schemathesis run.

Every operation of /api/schema/ is called with requests generated from the
schema (``MAX_EXAMPLES`` each, derandomized: the same requests every run)
against the small release, which holds unreleased tasks, so the answers
include the rows whose evidence is hidden. Each answer must be one the schema
declares: its status, content type, headers and body. Two of schemathesis'
default checks are left out, since they judge what the API accepts rather than
what the schema says of its answers: that every schema-valid request succeeds
(an unknown bench is schema-valid and answers 400) and that every
schema-invalid one is refused (DRF ignores a malformed ``page_size``).
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

from config.wsgi import application

MAX_EXAMPLES = 15
schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
schema.app = application


@pytest.fixture(autouse=True)
def _release(bench):
    """The small release; requests go straight to the WSGI application, which
    would close the test's database connection after each one (Django's test
    client keeps it open the same way)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield bench
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_the_api_answers_as_its_schema_says(case):
    case.call_and_validate(
        # Uncompressed, as the schema's content types say (GZip answers otherwise).
        headers={"Accept-Encoding": "identity"},
        excluded_checks=[positive_data_acceptance, negative_data_rejection],
    )
