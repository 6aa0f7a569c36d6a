"""Placeholder for routes whose pages are being built; removed when all are."""

from django.http import Http404


def not_built_yet(request, **kwargs):
    raise Http404("This page is not built yet.")
