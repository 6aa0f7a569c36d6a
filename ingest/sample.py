"""A deterministic synthetic release in release format v1.

``generate_release`` writes a complete release folder (manifest, leaderboard,
matrix, model and task documents, attempt evidence) that exercises the awkward
corners of the format: missing verdicts and attempts, very long trajectories,
hostile-looking text, large tool outputs, odd check levels, tied scores. Every
derived figure goes through ``leaderboard.scoring`` so the release always agrees
with its own verdicts.

Determinism: every random draw comes from ``random.Random`` instances seeded
from ``seed`` (and, per attempt, from the attempt's identity so one attempt's
length never shifts another's content); no clock, no uuid4, no set iteration.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shlex
import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from leaderboard.scoring import (
    MISSING_VERDICT,
    SCORING_RULES,
    Cell,
    CheckOutcome,
    competition_ranks,
    count_checks,
    model_figures,
    score_verdict,
)

_SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_FIRST_RELEASE = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
_BATCH_SIZE = 10
_MIN_EVENTS = 4
# Raw transcripts are evidence, not the browsing surface: long runs keep only
# their opening so the release stays small.
_TRANSCRIPT_EVENT_CAP = 240
_CWD = "/workspace/app"
_EXPORTER = "ib-export 1.4.0"
_GRADER = {"name": "ib-grader", "version": "4.2.0"}
HARNESS_TIMEOUT = "harness-timeout"


# --------------------------------------------------------------------------- catalogue


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
_TWIN = ("gemini-4-flash-opencode", "gpt-6-astra-mini")

_HARNESS_VERSION = {
    "claude-code": "claude-code 2.3.14",
    "codex": "codex-cli 0.98.0",
    "opencode": "opencode 1.4.2",
}
_HARNESS_TOOLS = {
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
_TASK_CATALOGUE: tuple[tuple[str, str, str, str, str], ...] = (
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


_ALL_MANDATORY_TASK = "auth0-jwt-verify"
_PERF_TASK = "s3-multipart-upload"
_HOSTILE_TICKET_TASK = "slack-thread-digest"
_UNICODE_TICKET_TASK = "twilio-sms-optout"

_L1_EXTRA = [
    "existing-tests-pass",
    "handles-empty-payload",
    "migration-applies",
    "no-duplicate-records",
    "state-persisted",
    "error-surfaced-to-user",
]
_L2_POOL = [
    "auth-header-sent",
    "idempotency-key-sent",
    "signature-verified",
    "retries-on-5xx",
    "respects-rate-limit",
    "pagination-followed",
    "webhook-acknowledged-2xx",
    "api-version-pinned",
]
_L3_POOL = [
    "tests-added",
    "no-secrets-in-code",
    "errors-logged",
    "lint-clean",
    "config-from-env",
    "small-focused-diff",
]
_MANDATORY_EXTRA = {"existing-tests-pass", "no-secrets-in-code"}


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


@dataclass
class Attempt:
    model: ModelSpec
    task: TaskSpec
    outcomes: list[CheckOutcome] | None
    score: float
    flags: list[str]
    n_events: int = 0
    long: bool = False
    never_returns: bool = False
    big_output: bool = False
    no_patch: bool = False
    problem_differs: bool = False
    start_ms: int = 0
    cost_usd: float = 0.0
    duration_s: float = 0.0


# --------------------------------------------------------------------------- small helpers


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _uuid(rng: random.Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:]}"


_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


# Byte -> base62 character; the slight bias is irrelevant for synthetic ids and
# translating random bytes is far cheaper than one randrange per character.
_B62_TABLE = bytes(ord(_B62[i % 62]) for i in range(256))


def _b62(rng: random.Random, n: int) -> str:
    return rng.getrandbits(8 * n).to_bytes(n, "big").translate(_B62_TABLE).decode("ascii")


def _session_id(harness: str, start_ms: int, rng: random.Random) -> str:
    """A session id shaped like the harness's own (uuid4, uuid7, ``ses_…``)."""
    if harness == "codex":
        h = f"{start_ms:012x}"[-12:] + _hex(rng, 20)
        return f"{h[:8]}-{h[8:12]}-7{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:]}"
    if harness == "opencode":
        return f"ses_{_hex(rng, 12)}{_b62(rng, 14)}"
    return _uuid(rng)


def _iso(ms: int, *, millis: bool = True) -> str:
    stamp = (_EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{stamp}.{ms % 1000:03d}Z" if millis else f"{stamp}Z"


def _epoch_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _dump(obj: Any) -> bytes:
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _line(obj: Any) -> str:
    # Harness CLIs print compact NDJSON; mimic that rather than the pretty form.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _title_of(bench: str) -> str:
    return " ".join(part.capitalize() for part in re.split(r"[-_.]+", bench) if part)


# --------------------------------------------------------------------------- text pools

_EXOTIC = [
    "テストを実行して、失敗したケースを確認します。",
    "顾客的退款请求已经处理完毕 ✅",
    "سأقوم بتحديث معالج الويب هوك الآن.",
    "אני בודק את קובץ ההגדרות לפני השינוי.",
    "All green 🎉🚀 13 passed, 0 failed",
    "The preview renders <img src=x onerror=alert(1)> unescaped; escaping it before posting.",
    "Found <script>alert(1)</script> in the fixture message body, keeping it as a test case.",
    'The template had <a href="javascript:alert(document.cookie)">open</a>; switched to a '
    "safe URL builder.",
    "mixed direction: order 42 עברית 123 العربية xyz",
    "zero-width a\u200bb, combining e\u0301, astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩🏽\u200d💻",
]
_HOSTILE_HTML = (
    "<!doctype html><html><head><title>502 Bad Gateway</title>"
    "<script>alert(1)</script></head><body><h1>Bad gateway</h1>"
    '<img src=x onerror=alert(1)><a href="javascript:alert(1)">retry</a></body></html>'
)
_MESSAGES = [
    "Let me look at {file} first.",
    "I'll run the test suite to see the current state.",
    "The {vendor} client doesn't send an idempotency key; adding one.",
    "Tests pass locally. Let me double-check the webhook path.",
    "I need to check how {file} handles retries.",
    "Updating {file} to verify the signature before parsing the body.",
    "The simulator returned a 400; the payload is missing a required field.",
    "The change for '{title}' needs a test for the failure path too.",
    "Checking the {vendor} simulator log for the last request.",
    "Now I'll wire the handler into the URL configuration.",
]
_REASONING = [
    "The handler in {file} parses the payload before verifying it, so a forged event would "
    "be processed. I should verify first and return 400 on mismatch.",
    "If the {vendor} API returns 5xx we currently drop the job. A bounded retry with "
    "exponential backoff is safer; the simulator probably injects failures.",
    "The ticket asks for '{title}'. The minimal change is in {file}; tests live under tests/.",
    "Pagination: the response has a cursor field; the loop stops after the first page.",
    "Amounts are stored in minor units; JPY has zero decimals, so dividing by 100 is wrong.",
    "I should not log the authorization header; mask it before writing the debug line.",
]
_CODE = [
    "import logging",
    "import time",
    "from decimal import Decimal",
    "logger = logging.getLogger(__name__)",
    "MAX_RETRIES = 5",
    "def handle_event(event: dict) -> None:",
    '    payload = event["data"]["object"]',
    '    if payload.get("status") != "succeeded":',
    "        return",
    "    client = VendorClient.from_env()",
    '    response = client.post("/v1/refunds", data=body, idempotency_key=key)',
    "    response.raise_for_status()",
    '    logger.info("refund %s created", response.json()["id"])',
    "    for attempt in range(MAX_RETRIES):",
    "        time.sleep(backoff(attempt))",
    "    return Decimal(amount) / 100",
    "    # 顧客名は UTF-8 のまま保存する",
    '    subject = f"✅ {order.number} refunded"',
    '    raise WebhookSignatureError("bad signature")',
    "class SyncState(models.Model):",
    "    cursor = models.CharField(max_length=255, blank=True)",
    "    updated_at = models.DateTimeField(auto_now=True)",
    "    html = escape(message.text)  # <script> in user text must not survive",
    '    headers = {"Authorization": f"Bearer {settings.VENDOR_TOKEN}"}',
    "    if not verify_signature(request.body, request.headers, secret):",
    "        return HttpResponse(status=400)",
    '    next_cursor = page.get("paging", {}).get("next")',
    "    while next_cursor:",
    "    key = f\"{event['id']}:{attempt}\"",
    '    return JsonResponse({"ok": True})',
    "",
]


# --------------------------------------------------------------------------- tasks


def _ticket(task: TaskSpec, trng: random.Random) -> str:
    vendors = ", ".join(f"`{v}`" for v in task.vendors) or "no external vendor"
    lines = [
        f"# {task.title}",
        "",
        f"Surface: **{task.surface}**. Vendors: {vendors}.",
        "",
    ]
    if task.vendors:
        lines += [
            f"The app integrates with {task.vendors[0]} through `{task.files[0]}`. "
            f"The {task.vendors[0]} simulator runs at `https://{task.vendors[0]}.sim.test`; "
            "its credentials are in `.env` and are safe to use.",
            "",
        ]
    lines += [
        "## What to do",
        "",
        f"- Implement *{task.title.lower()}* end to end.",
        "- Keep the existing behaviour for other events.",
        "- Add tests under `tests/`.",
        "",
        "## Acceptance",
        "",
    ]
    lines += [f"- `{c['name']}` ({c['level']})" for c in task.checks]
    if task.id == _HOSTILE_TICKET_TASK:
        lines += [
            "",
            "## Note on message content",
            "",
            "Thread messages are user input. Real examples from the workspace:",
            "",
            "<script>alert(1)</script>",
            "",
            "<img src=x onerror=alert(1)> and [the runbook](javascript:alert(1)) must arrive "
            "in the digest as text, never as markup.",
        ]
    if task.id == _UNICODE_TICKET_TASK:
        lines += [
            "",
            "Customers reply in many languages: `STOP`, `停止`, `توقف`, `עצור`, `ストップ` "
            "must all opt out 🚫. Reply bodies may mix directions: «رقم 42 ‏STOP».",
        ]
    if trng.random() < 0.3:
        lines += ["", "```python", "def handler(request):", "    ...", "```"]
    return "\n".join(lines) + "\n"


def _task_checks(task: TaskSpec, trng: random.Random) -> list[dict[str, Any]]:
    n = trng.randint(4, 9)
    checks: list[dict[str, Any]] = [{"name": task.primary, "level": "L1", "mandatory": True}]
    l2 = list(_L2_POOL) if task.vendors else []
    trng.shuffle(l2)
    l1 = list(_L1_EXTRA)
    trng.shuffle(l1)
    l3 = list(_L3_POOL)
    trng.shuffle(l3)
    # Vendor tasks lead with protocol checks: those are what the bench is about.
    if l2:
        checks.append({"name": l2.pop(), "level": "L2", "mandatory": False})
    checks.append({"name": l3.pop(), "level": "L3", "mandatory": False})
    while len(checks) < n:
        pools = [(lvl, p) for lvl, p in (("L1", l1), ("L2", l2), ("L3", l3)) if p]
        level, pool = trng.choice(pools)
        name = pool.pop()
        checks.append({"name": name, "level": level, "mandatory": name in _MANDATORY_EXTRA})
    if task.id == _PERF_TASK:
        checks[-1] = {"name": "throughput-under-load", "level": "L4-perf", "mandatory": False}
    if task.id == _ALL_MANDATORY_TASK:
        for check in checks:
            check["mandatory"] = True
    return checks


def _task_files(task: TaskSpec) -> list[str]:
    slug = task.id.replace("-", "_").replace(".", "_")
    if not task.vendors:
        return ["app/billing/money.py", "app/billing/views.py", f"tests/test_{slug}.py"]
    mod = task.vendors[0].replace("-", "_")
    files = [
        f"app/integrations/{mod}/client.py",
        f"app/integrations/{mod}/webhooks.py",
        f"app/integrations/{mod}/handlers.py",
        "app/models.py",
        "app/settings.py",
        f"tests/test_{slug}.py",
    ]
    if len(task.vendors) > 1:
        files.insert(3, f"app/integrations/{task.vendors[1].replace('-', '_')}/client.py")
    return files


def _build_tasks(seed: int, count: int, released: int) -> list[TaskSpec]:
    tasks: list[TaskSpec] = []
    for i in range(count):
        base = _TASK_CATALOGUE[i % len(_TASK_CATALOGUE)]
        lap = i // len(_TASK_CATALOGUE)
        ident = base[0] if lap == 0 else f"{base[0]}-v{lap + 1}"
        title = base[1] if lap == 0 else f"{base[1]} (variant {lap + 1})"
        task = TaskSpec(ident, title, base[2], tuple(base[3].split()), base[4])
        trng = random.Random(f"{seed}|task|{ident}")
        task.difficulty = trng.uniform(-0.05, 0.3)
        task.files = _task_files(task)
        task.checks = _task_checks(task, trng)
        task.ticket = _ticket(task, trng)
        if i < released:
            task.batch = i // _BATCH_SIZE + 1
        tasks.append(task)
    return tasks


def _build_models(count: int) -> list[ModelSpec]:
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


# --------------------------------------------------------------------------- outcomes


def _outcomes(seed: int, model: ModelSpec, task: TaskSpec) -> list[CheckOutcome]:
    orng = random.Random(f"{seed}|outcomes|{model.id}|{task.id}")
    result = []
    for check in task.checks:
        if check["mandatory"]:
            p = 0.55 + 0.45 * model.skill - task.difficulty / 2
        else:
            p = model.skill - task.difficulty + (0.08 if check["level"] == "L1" else 0.0)
        p = min(0.97, max(0.05, p))
        result.append(
            CheckOutcome(check["name"], check["mandatory"], orng.random() < p, check["level"])
        )
    return result


# --------------------------------------------------------------------------- vendors

_VENDOR_AUTH = {
    "stripe": "Bearer sk_test_sim_{t}",
    "adyen": "ApiKey AQE_sim_{t}",
    "slack": "Bearer xoxb-sim-{t}",
    "twilio": "Basic QUNzaW1fe3R9OnNpbQ==",
    "sendgrid": "Bearer SG.sim_{t}",
    "hubspot": "Bearer pat-sim-{t}",
    "salesforce": "Bearer 00Dsim!{t}",
    "s3": "AWS4-HMAC-SHA256 Credential=AKIASIM{t}/20261102/us-east-1/s3/aws4_request",
    "gcs": "Bearer ya29.sim-{t}",
    "google-calendar": "Bearer ya29.sim-{t}",
    "calendly": "Bearer cal_sim_{t}",
    "auth0": "Bearer eyJhbGciOiJSUzI1NiJ9.sim.{t}",
    "okta": "SSWS sim_{t}",
}
# (method, path, query, body kind) per vendor; body kind None means no body.
# vendor -> (method, path, query, body kind); "{n}" is a number drawn per request.
# fmt: off
_ENDPOINT_ROWS: tuple[tuple[str, str, str, str, str | None], ...] = (
    ("stripe", "POST", "/v1/refunds", "", "form"),
    ("stripe", "GET", "/v1/charges/ch_{n}", "", None),
    ("stripe", "POST", "/v1/customers", "", "form"),
    ("stripe", "GET", "/v1/events", "type=charge.dispute.created&limit=10", None),
    ("stripe", "POST", "/v1/checkout/sessions", "", "form"),
    ("stripe", "GET", "/v1/invoices", "status=open&starting_after=in_{n}", None),
    ("adyen", "POST", "/v71/payments/psp_{n}/captures", "", "json"),
    ("adyen", "POST", "/v71/payments", "", "json"),
    ("slack", "POST", "/api/chat.postMessage", "", "json"),
    ("slack", "GET", "/api/conversations.replies", "channel=C0{n}&ts=1762077600.0001", None),
    ("slack", "GET", "/api/conversations.history", "channel=C0{n}&limit=200", None),
    ("slack", "POST", "/api/chat.unfurl", "", "json"),
    ("twilio", "POST", "/2010-04-01/Accounts/ACsim/Messages.json", "", "form"),
    ("twilio", "GET", "/2010-04-01/Accounts/ACsim/Messages/SM{n}.json", "", None),
    ("sendgrid", "POST", "/v3/mail/send", "", "json"),
    ("sendgrid", "GET", "/v3/suppression/bounces", "start_time=1762041600", None),
    ("hubspot", "POST", "/crm/v3/objects/contacts", "", "json"),
    ("hubspot", "PATCH", "/crm/v3/objects/deals/{n}", "", "json"),
    ("hubspot", "POST", "/crm/v3/objects/companies/search", "", "json"),
    ("hubspot", "GET", "/crm/v3/objects/companies", "limit=100&after={n}", None),
    ("salesforce", "POST", "/services/data/v61.0/composite/sobjects", "", "json"),
    ("salesforce", "GET", "/services/data/v61.0/query", "q=SELECT Id, Email FROM Lead", None),
    ("salesforce", "POST", "/services/oauth2/token", "", "form"),
    ("s3", "PUT", "/exports/report-{n}.csv", "partNumber=1&uploadId=up{n}", "text"),
    ("s3", "POST", "/exports/report-{n}.csv", "uploads=", None),
    ("s3", "GET", "/exports", "list-type=2&prefix=tmp/", None),
    ("s3", "DELETE", "/exports/tmp/{n}.part", "", None),
    ("gcs", "POST", "/upload/storage/v1/b/exports/o", "uploadType=resumable", "json"),
    ("gcs", "PUT", "/upload/storage/v1/b/exports/o", "upload_id=u{n}", "text"),
    ("google-calendar", "GET", "/calendar/v3/calendars/primary/events",
     "syncToken=CP{n}&singleEvents=true", None),
    ("google-calendar", "POST", "/calendar/v3/calendars/primary/events", "", "json"),
    ("google-calendar", "POST", "/calendar/v3/calendars/primary/events/watch", "", "json"),
    ("google-calendar", "POST", "/calendar/v3/freeBusy", "", "json"),
    ("calendly", "GET", "/scheduled_events/{n}", "", None),
    ("calendly", "GET", "/scheduled_events", "user=https://calendly.sim.test/users/U1", None),
    ("auth0", "POST", "/oauth/token", "", "json"),
    ("auth0", "GET", "/.well-known/jwks.json", "", None),
    ("auth0", "GET", "/api/v2/users", "q=email:\"ana@example.com\"", None),
    ("auth0", "PATCH", "/api/v2/users/auth0|{n}", "", "json"),
    ("okta", "PATCH", "/scim/v2/Users/{n}", "", "json"),
    ("okta", "GET", "/api/v1/groups", "", None),
    ("okta", "DELETE", "/api/v1/users/{n}/sessions", "", None),
)
# fmt: on
_ENDPOINTS: dict[str, list[tuple[str, str, dict[str, str], str | None]]] = {}
for _vendor, _method, _path, _query, _kind in _ENDPOINT_ROWS:
    _ENDPOINTS.setdefault(_vendor, []).append(
        (_method, _path, dict(parse_qsl(_query, keep_blank_values=True)), _kind)
    )
_WEBHOOK_EVENTS = {
    "stripe": "charge.dispute.created charge.refunded invoice.payment_failed customer.updated",
    "adyen": "AUTHORISATION CAPTURE",
    "slack": "message app_mention block_actions",
    "twilio": "message.received message.status",
    "sendgrid": "bounce delivered",
    "hubspot": "contact.creation contact.propertyChange",
    "salesforce": "",
    "s3": "s3:ObjectCreated:Put",
    "gcs": "",
    "google-calendar": "sync exists",
    "calendly": "invitee.created invitee.canceled",
    "auth0": "user.created",
    "okta": "user.lifecycle.deactivate",
}
_PEOPLE = [
    "Ana Souza",
    "山田太郎",
    "محمد الأحمد",
    "דנה כהן",
    "José Ñúñez",
    "Zoë Ørsted",
    "Ле Ван Ань",
    "김민준",
]


def _vendor_body(vendor: str, kind: str | None, vrng: random.Random) -> Any:
    if kind is None:
        return None
    if kind == "form":
        amount, order = vrng.randint(100, 99000), vrng.randint(1, 9999)
        return f"amount={amount}&currency=usd&metadata[order]={order}"
    if kind == "text":
        return "id,amount,customer\n" + f"{vrng.randint(1, 999)},{vrng.randint(1, 9999)},cus_1\n"
    if vendor == "slack":
        return {"channel": "C0BILLING", "text": vrng.choice(_EXOTIC + ["Digest ready"])}
    return {
        "name": vrng.choice(_PEOPLE),
        "email": f"user{vrng.randint(1, 999)}@example.com",
        "external_id": f"ord_{_hex(vrng, 8)}",
    }


def _vendor_log(
    vendor: str, start_ms: int, end_ms: int, vrng: random.Random, token: str
) -> list[dict[str, Any]]:
    entries: list[tuple[int, dict[str, Any]]] = []
    span = max(1000, end_ms - start_ms)
    auth = _VENDOR_AUTH[vendor].format(t=token)
    for _ in range(vrng.randint(3, 22)):
        method, path, query, kind = vrng.choice(_ENDPOINTS[vendor])
        n = str(vrng.randint(1000, 9999))
        status = vrng.choices([200, 201, 400, 401, 500], weights=[60, 18, 10, 5, 7])[0]
        if status in (200, 201):
            response: Any = {
                "id": f"{vendor[:2]}_{_hex(vrng, 10)}",
                "object": path.split("/")[-1].replace("{n}", n) or "list",
                "livemode": False,
            }
        elif status == 400:
            response = {
                "error": {
                    "type": "invalid_request_error",
                    "message": "Missing required param: amount.",
                }
            }
        elif status == 401:
            response = "Unauthorized"
        else:
            response = "Internal Server Error"
        headers = {"authorization": auth, "user-agent": "python-httpx/0.28.1"}
        if kind is not None:
            headers["content-type"] = (
                "application/x-www-form-urlencoded"
                if kind == "form"
                else "text/csv"
                if kind == "text"
                else "application/json"
            )
        if vendor == "stripe" and method == "POST" and vrng.random() < 0.6:
            headers["idempotency-key"] = _uuid(vrng)
        entry: dict[str, Any] = {
            "id": "",
            "ts": "",
            "direction": "inbound",
            "method": method,
            "path": path.replace("{n}", n),
            "query": {k: v.replace("{n}", n) for k, v in query.items()},
            "headers": headers,
            "body": _vendor_body(vendor, kind, vrng),
            "status": status,
            "response": response,
            "duration_ms": vrng.randint(3, 900),
        }
        entries.append((start_ms + vrng.randrange(span), entry))
    events = _WEBHOOK_EVENTS[vendor].split()
    hooks: list[tuple[int, dict[str, Any]]] = []
    for _ in range(vrng.randint(0, 5) if events else 0):
        event = vrng.choice(events)
        at = start_ms + vrng.randrange(span)
        body = {
            "id": f"evt_{_hex(vrng, 12)}",
            "type": event,
            "created": at // 1000,
            "data": {"object": {"customer": vrng.choice(_PEOPLE)}},
        }
        failed = vrng.random() < 0.25
        for attempt in (1, 2) if failed else (1,):
            status = 500 if failed and attempt == 1 else 200
            hooks.append(
                (
                    at + (attempt - 1) * 30_000,
                    {
                        "id": "",
                        "ts": "",
                        "direction": "webhook",
                        "event": event,
                        "method": "POST",
                        "path": f"/webhooks/{vendor}",
                        "headers": {
                            "content-type": "application/json",
                            "x-sim-signature": f"t={at // 1000},v1={_hex(vrng, 64)}",
                        },
                        "body": body,
                        "status": status,
                        "response": "Internal Server Error" if status == 500 else {"ok": True},
                        "attempt": attempt,
                    },
                )
            )
    entries.sort(key=lambda pair: pair[0])
    hooks.sort(key=lambda pair: pair[0])
    out = []
    for prefix, group in (("req", entries), ("wh", hooks)):
        for i, (at, entry) in enumerate(group, start=1):
            entry["id"] = f"{prefix}_{i:04d}"
            entry["ts"] = _iso(at, millis=False)
            out.append((at, entry))
    out.sort(key=lambda pair: (pair[0], pair[1]["id"]))
    return [entry for _, entry in out]


# --------------------------------------------------------------------------- trajectories


@dataclass
class _Ctx:
    attempt: Attempt
    rng: random.Random
    problem: str
    vendor: str
    session_id: str
    # Epoch milliseconds of each event, so transcripts need not parse ``ts`` back.
    times: list[int] = field(default_factory=list)


def _fmt(template: str, ctx: _Ctx) -> str:
    task = ctx.attempt.task
    return template.format(file=ctx.rng.choice(task.files), vendor=ctx.vendor, title=task.title)


def _text(pool: list[str], ctx: _Ctx) -> str:
    if ctx.rng.random() < 0.1:
        return ctx.rng.choice(_EXOTIC)
    return _fmt(ctx.rng.choice(pool), ctx)


def _big_output(rng: random.Random) -> str:
    parts = []
    size = 0
    i = 0
    while size < 102_400:
        if i % 97 == 50:
            line = f"WARN payload preview: {rng.choice(_EXOTIC)}"
        else:
            line = (
                f"2026-11-02T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO replay "
                f"evt_{_hex(rng, 12)} status={rng.choice((200, 200, 200, 500))} "
                f"latency_ms={rng.randint(3, 900)}"
            )
        parts.append(line)
        size += len(line) + 1
        i += 1
    return "\n".join(parts) + "\n"


def _bash_action(ctx: _Ctx) -> tuple[str, str, int | None]:
    rng = ctx.rng
    task = ctx.attempt.task
    test_file = task.files[-1]
    roll = rng.random()
    if roll < 0.3:
        failed = rng.random() < 0.4
        if failed:
            return (
                "pytest -q",
                f"..F.....\nFAILED {test_file}::test_{task.primary.replace('-', '_')}"
                f"\n1 failed, {rng.randint(5, 40)} passed in {rng.uniform(0.3, 9):.2f}s",
                1,
            )
        return ("pytest -q", f"{rng.randint(6, 41)} passed in {rng.uniform(0.3, 9):.2f}s", 0)
    if roll < 0.42:
        return ("git status --short", "\n".join(f" M {f}" for f in task.files[:3]), 0)
    if roll < 0.52:
        if rng.random() < 0.3:
            return (
                "ruff check .",
                f"{task.files[0]}:12:5: F401 `time` imported but unused\nFound 1 error.",
                1,
            )
        return ("ruff check .", "All checks passed!", 0)
    if roll < 0.62:
        needle = rng.choice(["Idempotency", "verify_signature", "next_cursor", "retry"])
        if rng.random() < 0.3:
            return (f"grep -rn '{needle}' app/", "", 1)
        return (
            f"grep -rn '{needle}' app/",
            f"{task.files[0]}:{rng.randint(3, 200)}:    {rng.choice(_CODE).strip()}",
            0,
        )
    if roll < 0.7:
        host = f"{ctx.vendor}.sim.test" if task.vendors else "localhost:8000"
        if rng.random() < 0.35:
            return (f"curl -s https://{host}/health", _HOSTILE_HTML, 0)
        return (f"curl -s https://{host}/health", '{"ok":true,"simulator":"' + host + '"}', 0)
    if roll < 0.76:
        return (
            "ls app/integrations",
            "\n".join(
                sorted({f.split("/")[2] for f in task.files if f.startswith("app/integrations/")})
            )
            or "README.md",
            0,
        )
    if roll < 0.8:
        return ("tail -f logs/worker.log", "Command timed out after 2m 0s", None)
    if roll < 0.83:
        return ("make migrate-check", "bash: make: command not found", 127)
    if roll < 0.9:
        return (
            "python -m app.cli replay-webhooks --since 1h",
            f"replayed 3 events\n{rng.choice(_EXOTIC)}",
            0,
        )
    return (
        f"sed -n '1,40p' {rng.choice(task.files)}",
        "\n".join(rng.choice(_CODE) for _ in range(rng.randint(5, 25))),
        0,
    )


def _tool_call(ctx: _Ctx, *, big: bool = False) -> dict[str, Any]:
    rng = ctx.rng
    harness = ctx.attempt.model.harness
    task = ctx.attempt.task
    kind = (
        "bash"
        if big
        else rng.choices(["bash", "read", "edit", "search", "web"], weights=[50, 20, 20, 8, 2])[0]
    )
    rel = rng.choice(task.files)
    abs_path = f"{_CWD}/{rel}"
    if kind == "search" and harness == "codex":
        kind = "bash"
    if kind == "read" and harness == "codex":
        kind = "bash"
    if kind == "bash":
        if big:
            command, output, code = (
                "python -m app.cli replay-webhooks --verbose",
                _big_output(rng),
                0,
            )
        else:
            command, output, code = _bash_action(ctx)
        desc = command.split(" ")[0].capitalize() + " in the workspace"
        if harness == "claude-code":
            tool, inp = "Bash", {"command": command, "description": desc}
        elif harness == "codex":
            tool, inp = "shell", {"command": f"bash -lc {shlex.quote(command)}"}
        else:
            tool, inp = "bash", {"command": command, "description": desc}
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": code == 0, "output": output, "exit_code": code},
        }
    if kind == "read":
        body = "\n".join(f"{i:>6}\t{rng.choice(_CODE)}" for i in range(1, rng.randint(6, 40)))
        ok = rng.random() > 0.05
        output = body if ok else f"File does not exist: {abs_path}"
        if harness == "claude-code":
            tool, inp = "Read", {"file_path": abs_path}
        else:
            tool, inp = "read", {"filePath": abs_path}
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": ok, "output": output, "exit_code": None},
        }
    if kind == "edit":
        old, new = rng.choice(_CODE), rng.choice(_CODE)
        ok = rng.random() > 0.12
        if harness == "claude-code":
            tool, inp = "Edit", {"file_path": abs_path, "old_string": old, "new_string": new}
            output = (
                f"The file {abs_path} has been updated."
                if ok
                else "<tool_use_error>String to replace not found in file.</tool_use_error>"
            )
        elif harness == "codex":
            tool, inp = "apply_patch", {"changes": [{"path": rel, "kind": "update"}]}
            output = (
                f"Success. Updated the following files:\nM {rel}"
                if ok
                else f"apply_patch verification failed: context not found in {rel}"
            )
        else:
            tool, inp = "edit", {"filePath": abs_path, "oldString": old, "newString": new}
            output = "Edit applied successfully." if ok else "oldString not found in content"
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": ok, "output": output, "exit_code": None},
        }
    if kind == "search":
        pattern = rng.choice(["def handle_", "Idempotency-Key", "webhook", "cursor"])
        output = "\n".join(rng.sample(task.files, min(3, len(task.files))))
        if harness == "claude-code":
            tool, inp = (
                "Grep",
                {"pattern": pattern, "path": "app", "output_mode": "files_with_matches"},
            )
        else:
            tool, inp = "grep", {"pattern": pattern, "path": _CWD}
        return {
            "tool": tool,
            "input": inp,
            "result": {"ok": True, "output": output, "exit_code": None},
        }
    url = f"https://docs.{ctx.vendor}.sim.test/api/webhooks"
    if harness == "claude-code":
        tool, inp = "WebFetch", {"url": url, "prompt": "How are webhook signatures computed?"}
    elif harness == "codex":
        tool, inp = "web_search", {"query": f"{ctx.vendor} webhook signature header"}
    else:
        tool, inp = "webfetch", {"url": url, "format": "markdown"}
    return {
        "tool": tool,
        "input": inp,
        "result": {
            "ok": True,
            "output": "Signatures use HMAC-SHA256 over `t.body`.",
            "exit_code": None,
        },
    }


_PROVIDER_ERRORS = [
    "overloaded_error: retrying in 4s",
    "rate_limit_error: 429, retry after 12s",
    "stream disconnected before completion; reconnecting 1/5",
    "upstream timeout after 600s",
]
_HARNESS_ERRORS = [
    "command output truncated to 30000 characters",
    "context window 92% full; compacting conversation",
    "tool call rejected by sandbox policy: network access to github.com",
]


def _body_event(ctx: _Ctx, big: bool) -> dict[str, Any]:
    if big:
        return {"type": "tool_call", **_tool_call(ctx, big=True)}
    model = ctx.attempt.model
    weights = [55, 18, 22 if model.thinking else 0, 3]
    kind = ctx.rng.choices(["tool_call", "message", "reasoning", "error"], weights=weights)[0]
    if kind == "tool_call":
        return {"type": "tool_call", **_tool_call(ctx)}
    if kind == "message":
        return {"type": "message", "text": _text(_MESSAGES, ctx)}
    if kind == "reasoning":
        return {"type": "reasoning", "text": _text(_REASONING, ctx)}
    if ctx.rng.random() < 0.6:
        return {"type": "error", "source": "provider", "text": ctx.rng.choice(_PROVIDER_ERRORS)}
    return {"type": "error", "source": "harness", "text": ctx.rng.choice(_HARNESS_ERRORS)}


def _trajectory(ctx: _Ctx) -> tuple[list[dict[str, Any]], int]:
    """The attempt's events, with their ``ts``; returns them and the run's end (ms)."""
    attempt = ctx.attempt
    rng = ctx.rng
    n = attempt.n_events
    model = attempt.model
    raw: list[dict[str, Any]] = [
        {
            "type": "system",
            "model": model.model_version,
            "tool_count": len(_HARNESS_TOOLS[model.harness]),
            "session_id": ctx.session_id,
            "cwd": _CWD,
        },
        {"type": "user", "text": ctx.problem},
    ]
    big_at = rng.randrange(2, n - 1) if attempt.big_output else -1
    while len(raw) < n - 1:
        raw.append(_body_event(ctx, len(raw) == big_at))
    if attempt.never_returns:
        final = {"type": "tool_call", **_tool_call(ctx)}
        final["result"] = None
    elif MISSING_VERDICT in attempt.flags:
        final = {
            "type": "error",
            "source": "provider",
            "text": "API Error: 529 overloaded_error after 5 retries; giving up",
        }
    else:
        final = {
            "type": "message",
            "text": f"Done: {attempt.task.title}. Summary of the change in "
            f"{attempt.task.files[0]} and a new test in {attempt.task.files[-1]}.",
        }
    raw.append(final)

    events = []
    clock = attempt.start_ms
    fast = attempt.long
    opencode = model.harness == "opencode"
    for index, item in enumerate(raw):
        event: dict[str, Any] = {"index": index, "type": item.pop("type"), "ts": _iso(clock)}
        event.update(item)
        step = rng.randint(150, 1500) if fast else rng.randint(400, 9000)
        returned = event["type"] == "tool_call" and event["result"] is not None
        if returned and rng.random() < 0.8:
            took = rng.randint(20, 4000) if not fast else rng.randint(10, 600)
            event["duration_ms"] = took
            step += took
        if opencode and event["type"] in ("message", "reasoning", "tool_call"):
            event["tokens"] = {"input": rng.randint(800, 60000), "output": rng.randint(5, 1800)}
        events.append(event)
        ctx.times.append(clock)
        clock += step
    return events, clock


# --------------------------------------------------------------------------- transcripts


def _claude_transcript(events: list[dict[str, Any]], ctx: _Ctx, summary: dict[str, Any]) -> str:
    rng = ctx.rng
    model = ctx.attempt.model
    sid = ctx.session_id
    lines: list[str] = []
    last_text = ""
    turns = 0
    for event in events[:_TRANSCRIPT_EVENT_CAP]:
        kind = event["type"]
        if kind == "system":
            lines.append(
                _line(
                    {
                        "type": "system",
                        "subtype": "init",
                        "cwd": event["cwd"],
                        "session_id": sid,
                        "tools": _HARNESS_TOOLS["claude-code"],
                        "mcp_servers": [],
                        "model": event["model"],
                        "permissionMode": "bypassPermissions",
                        "slash_commands": ["compact", "cost", "review"],
                        "apiKeySource": "none",
                        "claude_code_version": _HARNESS_VERSION["claude-code"].split()[-1],
                        "output_style": "default",
                        "agents": ["general-purpose"],
                        "skills": [],
                        "plugins": [],
                        "uuid": _uuid(rng),
                    }
                )
            )
            continue
        if kind == "user":
            lines.append(
                _line(
                    {
                        "type": "user",
                        "message": {
                            "role": "user",
                            "content": [{"type": "text", "text": event["text"]}],
                        },
                        "parent_tool_use_id": None,
                        "session_id": sid,
                        "uuid": _uuid(rng),
                    }
                )
            )
            continue
        if kind == "error" and event.get("source") == "harness":
            lines.append(
                _line(
                    {
                        "type": "system",
                        "subtype": "status",
                        "status": "warning",
                        "message": event["text"],
                        "session_id": sid,
                        "uuid": _uuid(rng),
                    }
                )
            )
            continue
        usage = {
            "input_tokens": rng.randint(3, 400),
            "cache_creation_input_tokens": rng.randint(0, 4000),
            "cache_read_input_tokens": rng.randint(0, 90000),
            "output_tokens": rng.randint(4, 1200),
            "service_tier": "standard",
        }
        message: dict[str, Any] = {
            "id": f"msg_01{_b62(rng, 22)}",
            "type": "message",
            "role": "assistant",
            "model": model.model_version,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage,
        }
        line: dict[str, Any] = {
            "type": "assistant",
            "message": message,
            "parent_tool_use_id": None,
            "session_id": sid,
            "uuid": _uuid(rng),
            "timestamp": event["ts"],
        }
        turns += 1
        if kind == "error":
            message["model"] = "<synthetic>"
            message["content"] = [{"type": "text", "text": f"API Error: {event['text']}"}]
            line["error"] = "server_error"
            lines.append(_line(line))
            continue
        if kind == "reasoning":
            message["content"] = [
                {"type": "thinking", "thinking": event["text"], "signature": _b62(rng, 48)}
            ]
            lines.append(_line(line))
            continue
        if kind == "message":
            message["content"] = [{"type": "text", "text": event["text"]}]
            message["stop_reason"] = "end_turn"
            last_text = event["text"]
            lines.append(_line(line))
            continue
        call_id = f"toolu_01{_b62(rng, 22)}"
        message["content"] = [
            {"type": "tool_use", "id": call_id, "name": event["tool"], "input": event["input"]}
        ]
        message["stop_reason"] = "tool_use"
        lines.append(_line(line))
        result = event["result"]
        if result is None:
            continue
        content = result["output"]
        if event["tool"] == "Bash" and result["exit_code"] not in (0, None):
            content = f"Exit code {result['exit_code']}\n{content}"
        reply: dict[str, Any] = {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call_id,
                        "content": [{"type": "text", "text": content}],
                        "is_error": not result["ok"],
                    }
                ],
            },
            "parent_tool_use_id": None,
            "session_id": sid,
            "uuid": _uuid(rng),
            "timestamp": event["ts"],
        }
        if event["tool"] == "Bash":
            reply["tool_use_result"] = {
                "stdout": result["output"],
                "stderr": "",
                "interrupted": result["exit_code"] is None,
                "isImage": False,
            }
        lines.append(_line(reply))
    cost = summary["cost"]
    failed = MISSING_VERDICT in summary["flags"]
    lines.append(
        _line(
            {
                "type": "result",
                "subtype": "error_during_execution" if failed else "success",
                "is_error": failed,
                "duration_ms": int(summary["timing"]["duration_s"] * 1000),
                "duration_api_ms": int(summary["timing"]["duration_s"] * 700),
                "num_turns": turns,
                "result": last_text,
                "session_id": sid,
                "total_cost_usd": cost["usd"],
                "usage": {
                    "input_tokens": cost["input_tokens"],
                    "output_tokens": cost["output_tokens"],
                    "cache_read_input_tokens": cost.get("cache_read_tokens", 0),
                    "cache_creation_input_tokens": cost.get("cache_write_tokens", 0),
                    "service_tier": "standard",
                },
                "modelUsage": {
                    model.model_version: {
                        "inputTokens": cost["input_tokens"],
                        "outputTokens": cost["output_tokens"],
                        "cacheReadInputTokens": cost.get("cache_read_tokens", 0),
                        "cacheCreationInputTokens": cost.get("cache_write_tokens", 0),
                        "webSearchRequests": 0,
                        "costUSD": cost["usd"],
                    }
                },
                "permission_denials": [],
                "uuid": _uuid(rng),
            }
        )
    )
    return "\n".join(lines) + "\n"


def _codex_transcript(events: list[dict[str, Any]], ctx: _Ctx, summary: dict[str, Any]) -> str:
    lines = [
        _line({"type": "thread.started", "thread_id": ctx.session_id}),
        _line({"type": "turn.started"}),
    ]
    item = 0
    for event in events[:_TRANSCRIPT_EVENT_CAP]:
        kind = event["type"]
        if kind in ("system", "user"):
            # codex exec prints neither the session header nor the prompt.
            continue
        if kind == "error":
            if event.get("source") == "provider":
                lines.append(
                    _line({"type": "error", "message": f"Reconnecting... 1/5 ({event['text']})"})
                )
            else:
                lines.append(
                    _line(
                        {
                            "type": "item.completed",
                            "item": {
                                "id": f"item_{item}",
                                "type": "error",
                                "message": event["text"],
                            },
                        }
                    )
                )
                item += 1
            continue
        if kind in ("reasoning", "message"):
            lines.append(
                _line(
                    {
                        "type": "item.completed",
                        "item": {
                            "id": f"item_{item}",
                            "type": "reasoning" if kind == "reasoning" else "agent_message",
                            "text": event["text"],
                        },
                    }
                )
            )
            item += 1
            continue
        result = event["result"]
        ident = f"item_{item}"
        item += 1
        if event["tool"] == "shell":
            command = event["input"]["command"]
            lines.append(
                _line(
                    {
                        "type": "item.started",
                        "item": {
                            "id": ident,
                            "type": "command_execution",
                            "command": command,
                            "aggregated_output": "",
                            "exit_code": None,
                            "status": "in_progress",
                        },
                    }
                )
            )
            if result is not None:
                lines.append(
                    _line(
                        {
                            "type": "item.completed",
                            "item": {
                                "id": ident,
                                "type": "command_execution",
                                "command": command,
                                "aggregated_output": result["output"],
                                "exit_code": result["exit_code"],
                                "status": "completed" if result["ok"] else "failed",
                            },
                        }
                    )
                )
        elif event["tool"] == "apply_patch":
            if result is not None:
                lines.append(
                    _line(
                        {
                            "type": "item.completed",
                            "item": {
                                "id": ident,
                                "type": "file_change",
                                "changes": event["input"]["changes"],
                                "status": "completed" if result["ok"] else "failed",
                            },
                        }
                    )
                )
        elif result is not None:
            lines.append(
                _line(
                    {
                        "type": "item.completed",
                        "item": {
                            "id": ident,
                            "type": "web_search",
                            "query": event["input"]["query"],
                        },
                    }
                )
            )
    cost = summary["cost"]
    if MISSING_VERDICT in summary["flags"]:
        lines.append(
            _line(
                {
                    "type": "turn.failed",
                    "error": {"message": "stream disconnected before completion: 529 overloaded"},
                }
            )
        )
    else:
        lines.append(
            _line(
                {
                    "type": "turn.completed",
                    "usage": {
                        "input_tokens": cost["input_tokens"],
                        "cached_input_tokens": cost.get("cache_read_tokens", 0),
                        "output_tokens": cost["output_tokens"],
                    },
                }
            )
        )
    return "\n".join(lines) + "\n"


def _opencode_transcript(events: list[dict[str, Any]], ctx: _Ctx, summary: dict[str, Any]) -> str:
    rng = ctx.rng
    sid = ctx.session_id
    lines: list[str] = []
    step: dict[str, Any] | None = None
    per_token = summary["cost"]["usd"] / max(1, summary["cost"]["input_tokens"])

    def envelope(kind: str, at: int, **rest: Any) -> str:
        return _line({"type": kind, "timestamp": at, "sessionID": sid, **rest})

    def open_step(at: int) -> dict[str, Any]:
        message_id = f"msg_{_hex(rng, 12)}{_b62(rng, 14)}"
        lines.append(
            envelope(
                "step_start",
                at,
                part={
                    "id": f"prt_{_hex(rng, 12)}{_b62(rng, 14)}",
                    "sessionID": sid,
                    "messageID": message_id,
                    "type": "step-start",
                    "snapshot": _hex(rng, 40),
                },
            )
        )
        return {"message_id": message_id, "input": 0, "output": 0}

    def close_step(at: int, reason: str) -> None:
        assert step is not None
        lines.append(
            envelope(
                "step_finish",
                at,
                part={
                    "id": f"prt_{_hex(rng, 12)}{_b62(rng, 14)}",
                    "sessionID": sid,
                    "messageID": step["message_id"],
                    "type": "step-finish",
                    "reason": reason,
                    "snapshot": _hex(rng, 40),
                    "cost": round(step["input"] * per_token, 6),
                    "tokens": {
                        "input": step["input"],
                        "output": step["output"],
                        "reasoning": 0,
                        "cache": {"read": 0, "write": 0},
                    },
                },
            )
        )

    for event in events[:_TRANSCRIPT_EVENT_CAP]:
        kind = event["type"]
        if kind in ("system", "user"):
            # opencode run emits no session or prompt line.
            continue
        at = ctx.times[event["index"]]
        if kind == "error":
            lines.append(
                envelope(
                    "error",
                    at,
                    error={
                        "name": "APIError" if event.get("source") == "provider" else "UnknownError",
                        "data": {"message": event["text"], "isRetryable": True},
                    },
                )
            )
            continue
        if step is None:
            step = open_step(at)
        tokens = event.get("tokens", {"input": 0, "output": 0})
        step["input"] += tokens["input"]
        step["output"] += tokens["output"]
        part: dict[str, Any] = {
            "id": f"prt_{_hex(rng, 12)}{_b62(rng, 14)}",
            "sessionID": sid,
            "messageID": step["message_id"],
        }
        if kind in ("message", "reasoning"):
            part.update(
                {
                    "type": "text" if kind == "message" else "reasoning",
                    "text": event["text"],
                    "time": {"start": at, "end": at},
                }
            )
            lines.append(envelope("text" if kind == "message" else "reasoning", at, part=part))
            continue
        result = event["result"]
        if result is None:
            # Only finished tool parts reach the stream; this one never finished.
            continue
        end = at + event.get("duration_ms", 0)
        state: dict[str, Any]
        if result["ok"] or event["tool"] == "bash":
            metadata: dict[str, Any] = {}
            if event["tool"] == "bash":
                metadata = {
                    "output": result["output"],
                    "exit": result["exit_code"],
                    "description": event["input"].get("description", ""),
                }
            state = {
                "status": "completed",
                "input": event["input"],
                "output": result["output"],
                "title": event["input"].get("description", event["tool"]),
                "metadata": metadata,
                "time": {"start": at, "end": end},
            }
        else:
            state = {
                "status": "error",
                "input": event["input"],
                "error": result["output"],
                "time": {"start": at, "end": end},
            }
        part.update(
            {"type": "tool", "callID": _b62(rng, 16), "tool": event["tool"], "state": state}
        )
        lines.append(envelope("tool_use", end, part=part))
        close_step(end, "tool-calls")
        step = None
    if step is not None:
        close_step(ctx.times[min(len(events), _TRANSCRIPT_EVENT_CAP) - 1], "stop")
    return "\n".join(lines) + "\n"


_TRANSCRIBERS = {
    "claude-code": _claude_transcript,
    "codex": _codex_transcript,
    "opencode": _opencode_transcript,
}


# --------------------------------------------------------------------------- patches


# The file every patch edits: hunks cut consecutive windows out of it so the
# diffs read like real edits rather than shuffled lines.
_BASE_SOURCE = """import json
import logging
import time

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from .client import VendorClient

logger = logging.getLogger(__name__)
MAX_RETRIES = 3
HANDLED_EVENTS = {"charge.dispute.created", "charge.refunded"}


def backoff(attempt: int) -> float:
    return min(30.0, 0.5 * 2**attempt)


def handle_event(request):
    payload = json.loads(request.body)
    event = payload["type"]
    if event not in HANDLED_EVENTS:
        return HttpResponse(status=204)
    obj = payload["data"]["object"]
    client = VendorClient(settings.VENDOR_API_KEY)
    body = {"charge": obj["id"], "amount": obj["amount"]}
    response = client.post("/v1/refunds", data=body)
    if response.status_code >= 500:
        logger.warning("vendor error %s", response.status_code)
        return HttpResponse(status=502)
    logger.info("refund %s created", response.json()["id"])
    return JsonResponse({"ok": True})


def sync_page(client, cursor=None):
    page = client.get("/v1/customers", params={"starting_after": cursor})
    for item in page["data"]:
        upsert_customer(item)
    return page.get("next")


def render_preview(message):
    return f"<p>{message.text}</p>"
""".splitlines()
_ADD_BLOCKS = [
    [
        "    if not verify_signature(request.body, request.headers, settings.WEBHOOK_SECRET):",
        '        logger.warning("rejected webhook with a bad signature")',
        "        return HttpResponse(status=400)",
    ],
    [
        "    key = f\"refund:{obj['id']}\"",
        '    response = client.post("/v1/refunds", data=body, idempotency_key=key)',
    ],
    [
        "    for attempt in range(MAX_RETRIES):",
        '        response = client.post("/v1/refunds", data=body)',
        "        if response.status_code < 500:",
        "            break",
        "        time.sleep(backoff(attempt))",
    ],
    ["    while cursor:", "        cursor = sync_page(client, cursor)"],
    [
        "    # Message text is user input: it may carry <script> tags.",
        '    return format_html("<p>{}</p>", message.text)',
    ],
    [
        "    # 顧客名は UTF-8 のまま保存する (customer names stay UTF-8) ✅",
        '    name = obj.get("name", "").strip()',
    ],
    [
        "    if response.status_code == 429:",
        '        time.sleep(float(response.headers.get("retry-after", "1")))',
    ],
]


def _test_source(task: TaskSpec) -> list[str]:
    vendor = task.vendors[0] if task.vendors else "billing"
    return [
        "import pytest",
        "",
        "",
        "@pytest.mark.django_db",
        f"def test_{task.primary.replace('-', '_')}(client, simulator):",
        f'    simulator.queue("{vendor}", status=200)',
        f'    response = client.post("/webhooks/{vendor}", data=simulator.event(),'
        ' content_type="application/json")',
        "    assert response.status_code == 200",
        f'    assert simulator.last_request("{vendor}").headers["idempotency-key"]',
        "",
        "",
        "def test_rejects_forged_signature(client):",
        f'    response = client.post("/webhooks/{vendor}", data="{{}}",'
        ' content_type="application/json")',
        "    assert response.status_code == 400",
    ]


def _hunk_context(start: int) -> str:
    for line in reversed(_BASE_SOURCE[:start]):
        if line.startswith("def "):
            return " " + line.rstrip(":") + ":"
    return ""


def _patch(task: TaskSpec, rng: random.Random) -> str:
    count = rng.randint(min(2, len(task.files)), min(5, len(task.files)))
    files = sorted(rng.sample(task.files, count))
    out: list[str] = []
    for path in files:
        out.append(f"diff --git a/{path} b/{path}")
        if path.startswith("tests/") and rng.random() < 0.6:
            body = _test_source(task)
            out += ["new file mode 100644", f"index 0000000..{_hex(rng, 7)}", "--- /dev/null"]
            out += [f"+++ b/{path}", f"@@ -0,0 +1,{len(body)} @@"]
            out += [f"+{line}" for line in body]
            continue
        out += [f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644", f"--- a/{path}", f"+++ b/{path}"]
        base = _BASE_SOURCE
        position = rng.randint(0, 8)
        delta = 0
        for _ in range(rng.randint(1, 3)):
            # 3 lines of context, then what is removed, then 3 more lines of context.
            removed = rng.randint(0, 3)
            if position + 6 + removed > len(base):
                break
            added = [] if removed and rng.random() < 0.15 else rng.choice(_ADD_BLOCKS)
            old = base[position : position + 6 + removed]
            before, gone, after = old[:3], old[3 : 3 + removed], old[3 + removed :]
            old_len = len(old)
            new_len = old_len - removed + len(added)
            out.append(
                f"@@ -{position + 1},{old_len} +{position + 1 + delta},{new_len} @@"
                + _hunk_context(position)
            )
            out += [f" {line}" for line in before]
            out += [f"-{line}" for line in gone]
            out += [f"+{line}" for line in added]
            out += [f" {line}" for line in after]
            delta += new_len - old_len
            position += old_len + rng.randint(1, 8)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- verdicts


_PASS_DETAIL = {
    "L1": "observed the expected outcome in the simulator state",
    "L2": "every request matched the vendor's protocol requirements",
    "L3": "static review found no issues",
}


def _verdict(
    attempt: Attempt, vendor_logs: dict[str, list[dict[str, Any]]], rng: random.Random
) -> dict[str, Any]:
    assert attempt.outcomes is not None
    inbound = [
        (vendor, entry)
        for vendor, log in vendor_logs.items()
        for entry in log
        if entry["direction"] == "inbound"
    ]
    checks = []
    for outcome in attempt.outcomes:
        entry: dict[str, Any] = {
            "name": outcome.name,
            "level": outcome.level,
            "mandatory": outcome.mandatory,
            "passed": outcome.passed,
        }
        refs: list[tuple[str, dict[str, Any]]] = []
        if outcome.level == "L2" and inbound and rng.random() < 0.75:
            refs = rng.sample(inbound, min(len(inbound), rng.randint(1, 3)))
            refs.sort(key=lambda pair: (pair[0], pair[1]["id"]))
        if outcome.passed:
            detail = _PASS_DETAIL.get(outcome.level, "within budget")
        elif refs:
            vendor, first = refs[0]
            detail = (
                f"{first['method']} {first['path']} ({vendor}) returned {first['status']}"
                f" and was sent without the expected {outcome.name.split('-')[0]} handling"
            )
        elif outcome.level == "L1":
            detail = f"expected outcome '{outcome.name}' not observed after the run"
        else:
            detail = f"{outcome.name}: failed ({rng.choice(['2 findings', 'see grader log'])})"
        entry["detail"] = detail
        if refs:
            entry["requests"] = [f"{vendor}:{e['id']}" for vendor, e in refs]
        checks.append(entry)
    return {
        "schema": "v1",
        "model": attempt.model.id,
        "task": attempt.task.id,
        "grader": dict(_GRADER),
        "checks": checks,
    }


# --------------------------------------------------------------------------- allocation


def _allocate_events(
    rng: random.Random, n: int, long_set: set[int], target: int | None
) -> list[int]:
    weights = [
        rng.randint(5000, 6500) if i in long_set else int(rng.triangular(20, 300, 60))
        for i in range(n)
    ]
    if target is None or n == 0:
        return weights
    scale = target / sum(weights)
    exact = [w * scale for w in weights]
    sizes = [max(_MIN_EVENTS, int(x)) for x in exact]
    diff = target - sum(sizes)
    # Largest-remainder rounding, so the release hits the target exactly when it can.
    order = sorted(range(n), key=lambda i: (-(exact[i] - int(exact[i])), i))
    i = 0
    while diff > 0:
        sizes[order[i % n]] += 1
        diff -= 1
        i += 1
    # The per-attempt floor can overshoot a small target; take it back from the longest.
    by_size = sorted(range(n), key=lambda i: (-sizes[i], i))
    while diff < 0:
        reducible = [j for j in by_size if sizes[j] > _MIN_EVENTS]
        if not reducible:
            break
        for j in reducible[:-diff]:
            sizes[j] -= 1
            diff += 1
    return sizes


# --------------------------------------------------------------------------- output folder


_RELEASE_ENTRIES = (
    "manifest.json",
    "leaderboard.json",
    "matrix.json",
    "models",
    "tasks",
    "attempts",
)


def _prepare_root(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise FileExistsError(f"{root} exists and is not a folder")
    if root.is_dir() and any(root.iterdir()):
        # Only ever clear what an earlier run of this generator wrote.
        if not (root / "manifest.json").is_file():
            raise FileExistsError(f"{root} is not empty and holds no release; refusing to write")
        for name in _RELEASE_ENTRIES:
            target = root / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
    root.mkdir(parents=True, exist_ok=True)


def _pick(rng: random.Random, pool: list[Any], k: int) -> list[Any]:
    return rng.sample(pool, min(k, len(pool)))


# --------------------------------------------------------------------------- entry point


def generate_release(
    root: Path,
    *,
    models: int = 17,
    tasks: int = 60,
    released: int = 10,
    events: int | None = None,
    seed: int = 7,
    bench: str = "integration-bench",
    scoring_rule: str = "task-score-v4-mandatory-gated",
    long_every: int | None = None,
) -> dict[str, int]:
    """Write a synthetic release at ``root``; same arguments give identical bytes."""
    if not _SLUG_RE.fullmatch(bench):
        raise ValueError(f"bench {bench!r} is not a slug")
    if scoring_rule not in SCORING_RULES:
        raise ValueError(
            f"unknown scoring rule {scoring_rule!r}; known: {', '.join(sorted(SCORING_RULES))}"
        )
    if models < 1 or tasks < 1:
        raise ValueError("a release needs at least one model and one task")
    if released < 0 or events is not None and events < 0:
        raise ValueError("--released and --events cannot be negative")
    if long_every is not None and long_every < 1:
        raise ValueError("long_every must be at least 1")
    released = min(released, tasks)
    root = Path(root)
    _prepare_root(root)

    rng = random.Random(seed)
    model_specs = _build_models(models)
    task_specs = _build_tasks(seed, tasks, released)
    by_model = {m.id: m for m in model_specs}
    task_by_id = {t.id: t for t in task_specs}
    released_tasks = [t for t in task_specs if t.batch is not None]
    unreleased_tasks = [t for t in task_specs if t.batch is None]
    model_ids = sorted(by_model)

    twin_source = {_TWIN[1]: _TWIN[0]} if all(t in by_model for t in _TWIN) else {}
    special_models = [m for m in model_ids if m not in _TWIN]

    # Which (model, task) pairs are special. Twins are left out so the tie holds.
    no_cell: set[tuple[str, str]] = set()
    for task in _pick(rng, unreleased_tasks, 2):
        no_cell.add((rng.choice(special_models or model_ids), task.id))
    # A lone model keeps its attempts: a release with no attempt at all tests nothing.
    if released_tasks and len(model_ids) > 1:
        no_cell.add((rng.choice(special_models or model_ids), rng.choice(released_tasks).id))
    pairs = [(m, t.id) for t in released_tasks for m in model_ids if (m, t.id) not in no_cell]
    eligible = [p for p in pairs if p[0] not in _TWIN] or pairs
    specials = _pick(rng, eligible, 5)
    missing_verdict = set(specials[:3])
    never_returns = set(specials[3:5])
    big_output = set(_pick(rng, pairs, 3))
    no_patch = {p for p in pairs if rng.random() < 0.08}
    problem_differs = {p for p in pairs if rng.random() < 0.04}
    if long_every is not None:
        long_idx = {i for i in range(len(pairs)) if (i + 1) % long_every == 0}
    else:
        # Three long runs at full size; small test releases get fewer (none under
        # fifty attempts) so fixtures built from them stay quick to import, unless
        # the caller asked for an event volume, which always includes a long run.
        n_long = min(3, len(pairs) // 50)
        if events is not None:
            n_long = max(1, n_long)
        long_idx = set(_pick(rng, list(range(len(pairs))), n_long))
    sizes = _allocate_events(rng, len(pairs), long_idx, events)

    # Outcomes for every cell, released or not; unreleased ones only feed the matrix.
    outcomes: dict[tuple[str, str], list[CheckOutcome]] = {}
    for m in model_ids:
        for task in task_specs:
            if (m, task.id) not in no_cell:
                source = by_model[twin_source.get(m, m)]
                outcomes[(m, task.id)] = _outcomes(seed, source, task)

    attempts: dict[tuple[str, str], Attempt] = {}
    for position, (m, t) in enumerate(pairs):
        task = task_by_id[t]
        assert task.batch is not None
        flags: list[str] = []
        checks: list[CheckOutcome] | None = outcomes[(m, t)]
        if (m, t) in missing_verdict:
            checks = None
            flags.append(MISSING_VERDICT)
        if (m, t) in never_returns:
            flags.append(HARNESS_TIMEOUT)
        attempt = Attempt(by_model[m], task, checks, score_verdict(scoring_rule, checks), flags)
        attempt.n_events = max(_MIN_EVENTS, sizes[position])
        attempt.long = position in long_idx
        attempt.never_returns = (m, t) in never_returns
        attempt.big_output = (m, t) in big_output and attempt.n_events > 3
        attempt.no_patch = (m, t) in no_patch
        attempt.problem_differs = (m, t) in problem_differs
        # Runs happen in the weeks before their batch is published.
        batch_base = _FIRST_RELEASE + timedelta(days=7 * (task.batch - 1) - 18)
        offset = timedelta(
            minutes=41 * model_ids.index(m) + 7 * task_specs.index(task),
            seconds=rng.randint(0, 3599),
        )
        attempt.start_ms = _epoch_ms(batch_base + offset)
        attempts[(m, t)] = attempt

    total_events = 0
    total_requests = 0
    for attempt in attempts.values():
        events_written, requests_written = _write_attempt(root, bench, scoring_rule, seed, attempt)
        total_events += events_written
        total_requests += requests_written

    _write_derived(root, bench, scoring_rule, model_specs, task_specs, attempts, outcomes, no_cell)
    return {
        "models": len(model_specs),
        "tasks": len(task_specs),
        "released_tasks": len(released_tasks),
        "attempts": len(attempts),
        "events": total_events,
        "vendor_requests": total_requests,
    }


def _write_attempt(
    root: Path, bench: str, scoring_rule: str, seed: int, attempt: Attempt
) -> tuple[int, int]:
    model, task = attempt.model, attempt.task
    arng = random.Random(f"{seed}|attempt|{model.id}|{task.id}")
    folder = root / "attempts" / model.id / task.id
    problem = task.ticket
    if attempt.problem_differs:
        problem += (
            "\n> Note from the harness: the sandbox has no network access beyond the "
            "vendor simulators (`*.sim.test`).\n"
        )
    session_id = _session_id(model.harness, attempt.start_ms, arng)
    # Vendor-less tasks still get a word for the text templates to name.
    ctx = _Ctx(attempt, arng, problem, task.vendors[0] if task.vendors else "billing", session_id)
    events, end_ms = _trajectory(ctx)
    duration_s = float(-(-(end_ms - attempt.start_ms) // 1000) + arng.randint(2, 40))
    finished_ms = attempt.start_ms + int(duration_s * 1000)

    vendor_logs: dict[str, list[dict[str, Any]]] = {}
    token = _hex(arng, 10)
    for vendor in task.vendors:
        vendor_logs[vendor] = _vendor_log(vendor, attempt.start_ms, finished_ms, arng, token)

    n_events = len(events)
    price_in, price_out, price_cache = model.prices
    # Long runs are mostly quick tool loops, so they use less context per event.
    per_event = 0.3 if attempt.long else 1.0
    input_tokens = int(n_events * arng.randint(400, 2500) * per_event)
    output_tokens = int(n_events * arng.randint(60, 260) * per_event)
    cost: dict[str, Any] = {
        "usd": 0.0,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
    }
    cache_read = cache_write = 0
    if model.harness != "opencode" or arng.random() < 0.4:
        cache_read = int(input_tokens * arng.uniform(2.0, 6.0))
        cost["cache_read_tokens"] = cache_read
        if model.harness == "claude-code":
            cache_write = int(input_tokens * arng.uniform(0.2, 0.8))
            cost["cache_write_tokens"] = cache_write
    # Cache writes bill at 1.25x input, as Anthropic prices them.
    usd = (
        input_tokens * price_in
        + output_tokens * price_out
        + cache_read * price_cache
        + cache_write * price_in * 1.25
    ) / 1e6
    cost["usd"] = round(usd, 4)
    attempt.cost_usd = cost["usd"]
    attempt.duration_s = duration_s

    patch = None if attempt.no_patch else _patch(task, arng).encode("utf-8")
    hashes = {
        "task_tree": _sha256(f"{bench}/{task.id}/{task.ticket}".encode()),
        "harness_tree": _sha256(_HARNESS_VERSION[model.harness].encode()),
    }
    if patch is not None:
        hashes["patch"] = _sha256(patch)
    counts = count_checks(attempt.outcomes or [])
    summary = {
        "schema": "v1",
        "bench": bench,
        "model": model.id,
        "task": task.id,
        "harness": model.harness,
        "score": attempt.score,
        "scoring_rule": scoring_rule,
        "checks": {
            "total": counts.total,
            "passed": counts.passed,
            "failed": counts.failed,
            "mandatory_failed": counts.mandatory_failed,
        },
        "flags": list(attempt.flags),
        "cost": cost,
        "timing": {
            "started_at": _iso(attempt.start_ms, millis=False),
            "finished_at": _iso(finished_ms, millis=False),
            "duration_s": duration_s,
        },
        "hashes": hashes,
        "provenance": {
            "harness_version": _HARNESS_VERSION[model.harness],
            "model_version": model.model_version,
            "run_id": f"run_{_hex(arng, 8)}",
            "exporter": _EXPORTER,
        },
    }

    folder.mkdir(parents=True, exist_ok=True)
    _write(folder / "summary.json", _dump(summary))
    if attempt.outcomes is not None:
        _write(folder / "verdict.json", _dump(_verdict(attempt, vendor_logs, arng)))
    _write(
        folder / "trajectory.json",
        _dump({"schema": "v1", "harness": model.harness, "model": model.id, "events": events}),
    )
    if vendor_logs:
        _write(folder / "vendor-requests.json", _dump({"schema": "v1", "vendors": vendor_logs}))
    if patch is not None:
        _write(folder / "patch.diff", patch)
    transcript = _TRANSCRIBERS[model.harness](events, ctx, summary)
    _write(folder / "transcript.jsonl", transcript.encode("utf-8"))
    _write(folder / "problem.md", problem.encode("utf-8"))
    return n_events, sum(len(log) for log in vendor_logs.values())


def _write_derived(
    root: Path,
    bench: str,
    scoring_rule: str,
    model_specs: list[ModelSpec],
    task_specs: list[TaskSpec],
    attempts: dict[tuple[str, str], Attempt],
    outcomes: dict[tuple[str, str], list[CheckOutcome]],
    no_cell: set[tuple[str, str]],
) -> None:
    model_ids = sorted(m.id for m in model_specs)
    by_model = {m.id: m for m in model_specs}
    task_ids = [t.id for t in task_specs]
    surfaces = {t.id: t.surface for t in task_specs}

    cells: dict[str, dict[str, Cell]] = {m: {} for m in model_ids}
    for m in model_ids:
        for task in task_specs:
            key = (m, task.id)
            if key in no_cell:
                continue
            if key in attempts:
                a = attempts[key]
                cells[m][task.id] = Cell(a.score, tuple(a.flags), True, a.cost_usd, a.duration_s)
            else:
                cells[m][task.id] = Cell(score_verdict(scoring_rule, outcomes[key]))
    figures = {m: model_figures(cells[m], surfaces, task_ids) for m in model_ids}
    ranked = competition_ranks([(m, figures[m].score) for m in model_ids])

    def aggregate(m: str) -> dict[str, Any]:
        f = figures[m]
        return {
            "score": f.score,
            "tasks": f.tasks,
            "flagged": f.flagged,
            "cost_usd": f.cost_usd,
            "duration_s": f.duration_s,
            "by_surface": f.by_surface,
        }

    rows = []
    for m, rank in ranked:
        spec = by_model[m]
        rows.append(
            {
                "rank": rank,
                "model": m,
                "display_name": spec.display_name,
                "harness": spec.harness,
                "provider": spec.provider,
                **aggregate(m),
            }
        )
    head = {"schema": "v1", "bench": bench, "revision": "01"}
    _write(root / "leaderboard.json", _dump({**head, "scoring_rule": scoring_rule, "rows": rows}))

    matrix = {
        **head,
        "tasks": [
            {"id": t.id, "title": t.title, "surface": t.surface, "released": t.batch is not None}
            for t in task_specs
        ],
        "models": [m for m, _ in ranked],
        "cells": {
            m: {t: {"score": c.score, "flags": list(c.flags)} for t, c in cells[m].items()}
            for m, _ in ranked
        },
    }
    _write(root / "matrix.json", _dump(matrix))

    for m in model_ids:
        spec = by_model[m]
        rows_for_model = []
        for t in sorted(t for (mm, t) in attempts if mm == m):
            a = attempts[(m, t)]
            counts = count_checks(a.outcomes or [])
            rows_for_model.append(
                {
                    "task": t,
                    "score": a.score,
                    "checks_passed": counts.passed,
                    "checks_total": counts.total,
                    "mandatory_failed": counts.mandatory_failed,
                    "cost_usd": a.cost_usd,
                    "duration_s": a.duration_s,
                    "flags": list(a.flags),
                }
            )
        _write(
            root / "models" / f"{m}.json",
            _dump(
                {
                    "schema": "v1",
                    "bench": bench,
                    "model": {
                        "id": m,
                        "display_name": spec.display_name,
                        "harness": spec.harness,
                        "provider": spec.provider,
                    },
                    "aggregate": aggregate(m),
                    "attempts": rows_for_model,
                }
            ),
        )

    batches: dict[int, list[str]] = {}
    for task in task_specs:
        if task.batch is None:
            continue
        batches.setdefault(task.batch, []).append(task.id)
        results = []
        for m in model_ids:
            a = attempts.get((m, task.id))
            if a is None:
                continue
            results.append(
                {
                    "model": m,
                    "score": a.score,
                    "checks": {c.name: c.passed for c in a.outcomes or []},
                    "flags": list(a.flags),
                }
            )
        _write(
            root / "tasks" / f"{task.id}.json",
            _dump(
                {
                    "schema": "v1",
                    "bench": bench,
                    "task": {
                        "id": task.id,
                        "title": task.title,
                        "surface": task.surface,
                        "vendors": list(task.vendors),
                        "batch": task.batch,
                    },
                    "ticket": task.ticket,
                    "checks": [dict(c) for c in task.checks],
                    "results": results,
                }
            ),
        )

    def released_at(batch: int) -> str:
        return _iso(_epoch_ms(_FIRST_RELEASE + timedelta(days=7 * (batch - 1))), millis=False)

    last_batch = max(batches, default=1)
    manifest = {
        "schema": "v1",
        "bench": bench,
        "title": _title_of(bench),
        "revision": "01",
        "generated_at": released_at(last_batch),
        "scoring_rule": scoring_rule,
        "models": model_ids,
        "tasks": task_ids,
        "batches": [
            {"id": b, "released_at": released_at(b), "tasks": batches[b]} for b in sorted(batches)
        ],
        "counts": {
            "models": len(model_ids),
            "tasks": len(task_ids),
            "released_tasks": sum(len(v) for v in batches.values()),
            "attempts": len(attempts),
        },
    }
    _write(root / "manifest.json", _dump(manifest))
