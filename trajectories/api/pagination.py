from django.conf import settings
from rest_framework.pagination import CursorPagination, PageNumberPagination


class _Limits:
    """Page sizes from BENCHVIEW_LIMITS, read per request so tests can change them."""

    page_size_query_param = "page_size"

    def __init__(self):
        limits = settings.BENCHVIEW_LIMITS
        self.page_size = limits["api_page_size"]
        self.max_page_size = limits["api_max_page_size"]


class PagePagination(_Limits, PageNumberPagination):
    pass


class EventCursorPagination(_Limits, CursorPagination):
    """Cursor pages: there are millions of events, and an offset would scan them all."""

    ordering = "pk"
