"""An attempt's evidence in the admin: browse only, like the scoreboard (leaderboard.admin)."""

from __future__ import annotations

from django.contrib import admin

from leaderboard.admin import ReadOnlyAdmin
from trajectories.models import Event, Evidence, VendorRequest

ATTEMPT_SEARCH = ["attempt__model__slug", "attempt__task__slug"]
ATTEMPT_JOINS = ["attempt__model", "attempt__task"]


@admin.register(Evidence)
class EvidenceAdmin(ReadOnlyAdmin):
    bench_path = "attempt__bench"
    list_display = ["attempt", "events_total", "requests_total"]
    list_filter = ["attempt__bench"]
    search_fields = ATTEMPT_SEARCH
    list_select_related = ATTEMPT_JOINS
    exclude = ["trajectory", "vendor_log"]  # served whole by the mirror; too big to show here


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    bench_path = "attempt__bench"
    list_display = ["attempt", "index", "type", "tool", "ok", "exit_code", "ts"]
    # No search over text and output: they are large, and the attempt page searches them.
    list_filter = ["type", "ok"]
    search_fields = [*ATTEMPT_SEARCH, "tool"]
    list_select_related = ATTEMPT_JOINS


@admin.register(VendorRequest)
class VendorRequestAdmin(ReadOnlyAdmin):
    bench_path = "attempt__bench"
    list_display = ["attempt", "vendor", "request_id", "direction", "method", "path", "status"]
    list_filter = ["vendor", "direction", "method"]
    search_fields = [*ATTEMPT_SEARCH, "request_id", "path"]
    list_select_related = ATTEMPT_JOINS
