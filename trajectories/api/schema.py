"""The OpenAPI schema's error answers: every status the API gives, documented.

drf-spectacular documents each operation's success. The errors come from
elsewhere (the filters, the paginator, content negotiation, the rate limit,
trajectories.api.errors), so this hook adds them to every operation, each in
the one error shape.
"""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "status": {"type": "integer"},
                "code": {"type": "string"},
                "message": {"type": "string"},
                "parameters": {
                    "type": "object",
                    "description": "present when query parameters were at fault, by name",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
            },
            "required": ["status", "code", "message"],
        }
    },
    "required": ["error"],
}

# Status -> when it is answered; "query" ones only by operations that take
# query parameters.
ERRORS: dict[str, tuple[str, bool]] = {
    "400": ("A query parameter is invalid: error.parameters names it.", True),
    "404": ("Nothing at this address, or a page past the last (or page=0).", False),
    "406": ("No representation in the format asked for (Accept, ?format=).", False),
    "429": ("Too many requests from this address: retry after Retry-After seconds.", False),
}


def document_errors(result: dict, generator, request, public) -> dict:
    """drf-spectacular POSTPROCESSING_HOOKS entry: add the error answers."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            takes_query = any(p.get("in") == "query" for p in operation.get("parameters", []))
            responses = operation.setdefault("responses", {})
            for status, (description, query_only) in ERRORS.items():
                if query_only and not takes_query:
                    continue
                responses.setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result
