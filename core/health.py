"""/healthz: the cheapest answer the site can give (load balancers, and the
ceiling benchmarks/serve.py compares every page against)."""

from django.http import HttpResponse
from django.views.decorators.http import require_safe


@require_safe
def healthz(request):
    return HttpResponse(b"ok\n", content_type="text/plain; charset=utf-8")
