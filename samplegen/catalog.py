"""The models, harnesses and tasks a synthetic release draws from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ModelSpec:
    id: str
    display_name: str
    harness: str
    provider: str
    model_version: str
    skill: float
    # US dollars per million tokens: input, output, cache read.
    prices: tuple[float, float, float]
    thinking: bool = True


# The catalogue tables are kept one entry per line pair for reading.
# fmt: off
_BASE_MODELS: tuple[ModelSpec, ...] = (
    # id, display name, harness, provider, model version, skill,
    # $/Mtok (input, output, cache read), exposes reasoning
    ModelSpec("claude-opus-5-5-high", "Claude Opus 5.5 (high)", "claude-code", "anthropic",
              "claude-opus-5-5-20261001", 0.84, (15, 75, 1.5), True),
    ModelSpec("gpt-6-astra-high", "GPT-6 Astra (high)", "codex", "openai",
              "gpt-6-astra-2026-10-01", 0.82, (10, 40, 1), True),
    ModelSpec("qwen4-coder-opencode", "Qwen4 Coder (OpenCode)", "opencode", "alibaba",
              "qwen4-coder-480b-a35b", 0.55, (0, 0, 0), False),
    ModelSpec("claude-sonnet-5-5", "Claude Sonnet 5.5", "claude-code", "anthropic",
              "claude-sonnet-5-5-20260915", 0.74, (3, 15, 0.3), True),
    ModelSpec("gemini-4-pro-opencode", "Gemini 4 Pro (OpenCode)", "opencode", "google",
              "gemini-4-pro-preview-10-2026", 0.76, (2.5, 15, 0.25), True),
    ModelSpec("gpt-6-astra-medium", "GPT-6 Astra (medium)", "codex", "openai",
              "gpt-6-astra-2026-10-01", 0.72, (10, 40, 1), True),
    ModelSpec("claude-opus-5-5-medium", "Claude Opus 5.5 (medium)", "claude-code", "anthropic",
              "claude-opus-5-5-20261001", 0.78, (15, 75, 1.5), True),
    ModelSpec("deepseek-v5-opencode", "DeepSeek V5 (OpenCode)", "opencode", "deepseek",
              "deepseek-v5-chat", 0.62, (0.6, 2.2, 0.06), True),
    ModelSpec("gpt-6-codex-max", "GPT-6 Codex Max", "codex", "openai",
              "gpt-6-codex-max-2026-09-12", 0.80, (12, 48, 1.2), True),
    ModelSpec("claude-haiku-5", "Claude Haiku 5", "claude-code", "anthropic",
              "claude-haiku-5-20260801", 0.50, (1, 5, 0.1), False),
    ModelSpec("kimi-k3-opencode", "Kimi K3 (OpenCode)", "opencode", "moonshot",
              "kimi-k3-0905", 0.60, (0.6, 2.5, 0.15), False),
    ModelSpec("gpt-6-astra-mini", "GPT-6 Astra mini", "codex", "openai",
              "gpt-6-astra-mini-2026-10-01", 0.52, (1.1, 4.4, 0.11), True),
    ModelSpec("glm-5.1-opencode", "GLM-5.1 (OpenCode)", "opencode", "zhipu",
              "glm-5.1", 0.58, (0.6, 2.2, 0.11), False),
    ModelSpec("claude-sonnet-5-5-thinking", "Claude Sonnet 5.5 (thinking)", "claude-code",
              "anthropic", "claude-sonnet-5-5-20260915", 0.77, (3, 15, 0.3), True),
    ModelSpec("gemini-4-flash-opencode", "Gemini 4 Flash (OpenCode)", "opencode", "google",
              "gemini-4-flash-10-2026", 0.56, (0.3, 2.5, 0.03), True),
    ModelSpec("gpt-5-9-codex", "GPT-5.9 Codex", "codex", "openai",
              "gpt-5.9-codex-2026-06-30", 0.66, (1.25, 10, 0.125), True),
    ModelSpec("claude-opus-5-1", "Claude Opus 5.1", "claude-code", "anthropic",
              "claude-opus-5-1-20260514", 0.70, (15, 75, 1.5), True),
)
# fmt: on

# The second model of this pair copies the first one's outcomes on every task,
# so the leaderboard always carries an exact tie (competition ranks 1, 2, 2, 4).
TWIN = ("gemini-4-flash-opencode", "gpt-6-astra-mini")

HARNESS_VERSION = {
    "claude-code": "claude-code 2.3.14",
    "codex": "codex-cli 0.98.0",
    "opencode": "opencode 1.4.2",
}
HARNESS_TOOLS = {
    "claude-code": [
        "Task",
        "Bash",
        "Glob",
        "Grep",
        "LS",
        "Read",
        "Edit",
        "MultiEdit",
        "Write",
        "NotebookEdit",
        "WebFetch",
        "TodoWrite",
        "WebSearch",
        "BashOutput",
    ],
    "codex": ["shell", "apply_patch", "web_search", "update_plan", "view_image"],
    "opencode": [
        "bash",
        "read",
        "write",
        "edit",
        "list",
        "glob",
        "grep",
        "webfetch",
        "todowrite",
        "todoread",
        "task",
    ],
}

# The first ten tasks are batch 1 and were picked to cover every surface, a
# vendor-less task and a two-vendor task.
# fmt: off
TASK_CATALOGUE: tuple[tuple[str, str, str, str, str], ...] = (
    # id, title, surface, vendors (space-separated), primary check
    ("stripe-refund-webhook", "Refund on dispute webhook", "payments",
     "stripe", "refund-created"),
    ("slack-thread-digest", "Daily digest of unresolved threads", "messaging",
     "slack", "digest-posted"),
    ("hubspot-contact-dedupe", "Deduplicate contacts by e-mail", "crm",
     "hubspot", "duplicates-merged"),
    ("s3-multipart-upload", "Multipart upload for large exports", "storage",
     "s3", "export-uploaded"),
    ("google-calendar-sync-token", "Incremental sync with sync tokens", "calendar",
     "google-calendar", "incremental-sync"),
    ("auth0-jwt-verify", "Verify access tokens with JWKS", "identity",
     "auth0", "invalid-token-rejected"),
    ("currency-rounding-fix", "Fix rounding for zero-decimal currencies", "payments",
     "", "yen-amounts-exact"),
    ("stripe-dispute-slack-alert", "Alert #billing on new disputes", "payments",
     "stripe slack", "alert-posted"),
    ("twilio-sms-optout", "Honour STOP replies for SMS", "messaging",
     "twilio", "optout-recorded"),
    ("okta-scim-deprovision", "Deprovision users via SCIM", "identity",
     "okta", "user-deactivated"),
    ("stripe-idempotent-checkout", "Idempotent checkout session creation", "payments",
     "stripe", "single-session-created"),
    ("slack-slash-command", "Slash command for on-call lookup", "messaging",
     "slack", "command-responds"),
    ("salesforce-lead-import", "Import leads in bulk", "crm",
     "salesforce", "leads-imported"),
    ("s3-presigned-download", "Presigned download links", "storage",
     "s3", "link-downloads"),
    ("google-calendar-recurring", "Expand recurring events", "calendar",
     "google-calendar", "occurrences-expanded"),
    ("auth0-user-provisioning", "Provision users on first login", "identity",
     "auth0", "user-provisioned"),
    ("stripe-subscription-proration", "Prorate subscription upgrades", "payments",
     "stripe", "proration-applied"),
    ("sendgrid-bounce-handling", "Suppress addresses after hard bounces", "messaging",
     "sendgrid", "address-suppressed"),
    ("hubspot-deal-stage-sync", "Sync deal stages from orders", "crm",
     "hubspot", "stage-updated"),
    ("s3-lifecycle-cleanup", "Expire temporary uploads", "storage",
     "s3", "temporary-objects-expired"),
    ("calendly-webhook-booking", "Create bookings from Calendly webhooks", "calendar",
     "calendly", "booking-created"),
    ("okta-group-sync", "Sync Okta groups to roles", "identity",
     "okta", "roles-synced"),
    ("stripe-invoice-retry", "Retry failed invoice payments", "payments",
     "stripe", "invoice-retried"),
    ("slack-interactive-approval", "Approve refunds from a Slack button", "messaging",
     "slack stripe", "approval-refunds"),
    ("hubspot-webhook-batch", "Process batched contact webhooks", "crm",
     "hubspot", "batch-processed"),
    ("s3-event-thumbnail", "Generate thumbnails on upload events", "storage",
     "s3", "thumbnail-written"),
    ("google-calendar-timezone", "Store event times with time zones", "calendar",
     "google-calendar", "times-zone-aware"),
    ("auth0-mfa-enrollment", "Enforce MFA enrollment", "identity",
     "auth0", "mfa-required"),
    ("stripe-webhook-signature", "Verify webhook signatures", "payments",
     "stripe", "forged-webhook-rejected"),
    ("twilio-delivery-status", "Track SMS delivery receipts", "messaging",
     "twilio", "status-recorded"),
    ("salesforce-oauth-refresh", "Refresh expired OAuth tokens", "crm",
     "salesforce", "token-refreshed"),
    ("s3-checksum-verify", "Verify checksums after upload", "storage",
     "s3", "checksum-compared"),
    ("google-calendar-watch-renew", "Renew push-notification channels", "calendar",
     "google-calendar", "channel-renewed"),
    ("auth0-password-reset", "Password reset e-mails", "identity",
     "auth0", "reset-ticket-created"),
    ("adyen-capture-delayed", "Delayed capture for authorised payments", "payments",
     "adyen", "payment-captured"),
    ("sendgrid-template-i18n", "Localised transactional e-mail templates", "messaging",
     "sendgrid", "locale-template-used"),
    ("hubspot-custom-properties", "Create custom properties on demand", "crm",
     "hubspot", "property-created"),
    ("gcs-resumable-upload", "Resumable uploads to GCS", "storage",
     "gcs", "upload-resumed"),
    ("calendly-cancel-sync", "Cancel bookings on invitee cancellation", "calendar",
     "calendly", "booking-cancelled"),
    ("auth0-token-cache", "Cache management API tokens", "identity",
     "auth0", "token-reused"),
    ("stripe-customer-sync", "Sync customers to the local ledger", "payments",
     "stripe", "customers-synced"),
    ("slack-rate-limit-backoff", "Back off on Slack 429s", "messaging",
     "slack", "retry-after-honoured"),
    ("salesforce-case-escalation", "Escalate cases past SLA", "crm",
     "salesforce", "case-escalated"),
    ("s3-retry-throttling", "Retry throttled S3 requests", "storage",
     "s3", "throttled-request-retried"),
    ("google-calendar-freebusy", "Find free slots with freebusy", "calendar",
     "google-calendar", "free-slots-found"),
    ("okta-session-revoke", "Revoke sessions on password change", "identity",
     "okta", "sessions-revoked"),
    ("stripe-payout-reconcile", "Reconcile payouts with bank deposits", "payments",
     "stripe", "payouts-matched"),
    ("slack-unfurl-links", "Unfurl order links in Slack", "messaging",
     "slack", "link-unfurled"),
    ("hubspot-pagination-export", "Export every company (pagination)", "crm",
     "hubspot", "all-pages-exported"),
    ("s3-versioned-restore", "Restore a previous object version", "storage",
     "s3", "version-restored"),
    ("google-calendar-attendees", "Invite attendees without duplicate e-mails", "calendar",
     "google-calendar", "single-invite-sent"),
    ("auth0-social-link", "Link social accounts by verified e-mail", "identity",
     "auth0", "accounts-linked"),
    ("twilio-verify-otp", "Phone verification with one-time codes", "messaging",
     "twilio", "code-verified"),
    ("salesforce-field-mapping", "Map custom fields on lead conversion", "crm",
     "salesforce", "fields-mapped"),
    ("gcs-signed-url-expiry", "Short-lived signed URLs", "storage",
     "gcs", "url-expires"),
    ("calendly-rate-limit", "Handle Calendly rate limits", "calendar",
     "calendly", "requests-throttled"),
    ("auth0-rbac-scopes", "Enforce RBAC scopes on the API", "identity",
     "auth0", "scope-enforced"),
    ("hubspot-association-fix", "Associate contacts with companies", "crm",
     "hubspot", "association-created"),
    ("google-calendar-all-day", "All-day events across DST", "calendar",
     "google-calendar", "all-day-preserved"),
    ("s3-cors-policy", "Configure CORS for browser uploads", "storage",
     "s3", "cors-applied"),
)
# fmt: on


@dataclass
class TaskSpec:
    id: str
    title: str
    surface: str
    vendors: tuple[str, ...]
    primary: str
    difficulty: float = 0.0
    checks: list[dict[str, Any]] = field(default_factory=list)
    ticket: str = ""
    files: list[str] = field(default_factory=list)
    batch: int | None = None


def build_models(count: int) -> list[ModelSpec]:
    models = list(_BASE_MODELS[:count])
    lap = 2
    while len(models) < count:
        for base in _BASE_MODELS:
            if len(models) == count:
                break
            models.append(
                ModelSpec(
                    f"{base.id}-r{lap}",
                    f"{base.display_name} r{lap}",
                    base.harness,
                    base.provider,
                    base.model_version,
                    max(0.2, base.skill - 0.03 * lap),
                    base.prices,
                    base.thinking,
                )
            )
        lap += 1
    return models
