"""Simulated vendor request logs: the calls an agent made and the webhooks it got."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import parse_qsl

from formats.v1 import attempt_files as v1
from samplegen.clock import iso
from samplegen.ids import rand_hex, rand_uuid
from samplegen.pools import EXOTIC

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
        return {"channel": "C0BILLING", "text": vrng.choice(EXOTIC + ["Digest ready"])}
    return {
        "name": vrng.choice(_PEOPLE),
        "email": f"user{vrng.randint(1, 999)}@example.com",
        "external_id": f"ord_{rand_hex(vrng, 8)}",
    }


def build_vendor_log(
    vendor: str, start_ms: int, end_ms: int, vrng: random.Random, token: str
) -> list[dict[str, Any]]:
    # (when, the entry but its id and time)
    entries: list[tuple[int, Callable[..., dict[str, Any]]]] = []
    span = max(1000, end_ms - start_ms)
    auth = _VENDOR_AUTH[vendor].format(t=token)
    for _ in range(vrng.randint(3, 22)):
        method, path, query, kind = vrng.choice(_ENDPOINTS[vendor])
        n = str(vrng.randint(1000, 9999))
        status = vrng.choices([200, 201, 400, 401, 500], weights=[60, 18, 10, 5, 7])[0]
        if status in (200, 201):
            response: Any = {
                "id": f"{vendor[:2]}_{rand_hex(vrng, 10)}",
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
            headers["idempotency-key"] = rand_uuid(vrng)
        entry = partial(
            v1.vendor_entry,
            direction="inbound",
            method=method,
            path=path.replace("{n}", n),
            query={k: v.replace("{n}", n) for k, v in query.items()},
            headers=headers,
            body=_vendor_body(vendor, kind, vrng),
            status=status,
            response=response,
            duration_ms=vrng.randint(3, 900),
        )
        entries.append((start_ms + vrng.randrange(span), entry))
    events = _WEBHOOK_EVENTS[vendor].split()
    hooks: list[tuple[int, Callable[..., dict[str, Any]]]] = []
    for _ in range(vrng.randint(0, 5) if events else 0):
        event = vrng.choice(events)
        at = start_ms + vrng.randrange(span)
        body = {
            "id": f"evt_{rand_hex(vrng, 12)}",
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
                    partial(
                        v1.vendor_entry,
                        direction="webhook",
                        event=event,
                        method="POST",
                        path=f"/webhooks/{vendor}",
                        headers={
                            "content-type": "application/json",
                            "x-sim-signature": f"t={at // 1000},v1={rand_hex(vrng, 64)}",
                        },
                        body=body,
                        status=status,
                        response="Internal Server Error" if status == 500 else {"ok": True},
                        attempt=attempt,
                    ),
                )
            )
    entries.sort(key=lambda pair: pair[0])
    hooks.sort(key=lambda pair: pair[0])
    # The entries are built once ordered: their ids and times follow that order.
    out = []
    for prefix, group in (("req", entries), ("wh", hooks)):
        for i, (at, build) in enumerate(group, start=1):
            out.append((at, build(id=f"{prefix}_{i:04d}", ts=iso(at, millis=False))))
    out.sort(key=lambda pair: (pair[0], pair[1]["id"]))
    return [entry for _, entry in out]
