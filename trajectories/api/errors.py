"""One error shape for every /api/ error.

    {"error": {"status": 400, "code": "invalid", "message": "…",
               "parameters": {"score_min": ["Enter a number."]}}}

``parameters`` is present when the request's query parameters were at fault,
keyed by parameter name.
"""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

log = logging.getLogger(__name__)


def error_body(status_code: int, code: str, message: str, parameters=None) -> dict:
    error = {"status": status_code, "code": code, "message": message}
    if parameters:
        error["parameters"] = parameters
    return {"error": error}


def _flatten(detail) -> list[str]:
    if isinstance(detail, list | tuple):
        return [str(item) for item in detail]
    return [str(detail)]


def exception_handler(exc, context):
    """DRF's EXCEPTION_HANDLER: every exception becomes the one error shape."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        log.exception("unhandled API error", exc_info=exc)
        set_rollback()
        body = error_body(500, "server_error", "The server failed to answer this request.")
        return Response(body, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    headers = {}
    if getattr(exc, "wait", None):
        headers["Retry-After"] = str(int(exc.wait))
    if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict):
        parameters = {str(k): _flatten(v) for k, v in exc.detail.items()}
        message = "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in parameters.items())
        body = error_body(exc.status_code, "invalid", f"Invalid request. {message}", parameters)
    else:
        detail = exc.detail
        message = " ".join(_flatten(detail)) if not isinstance(detail, dict) else str(detail)
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        body = error_body(exc.status_code, code, message)
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)


def not_found(request, *args, **kwargs):
    """Unknown /api/ addresses answer in the same shape as every other error."""
    return JsonResponse(
        error_body(404, "not_found", "No API resource at this address."), status=404
    )
