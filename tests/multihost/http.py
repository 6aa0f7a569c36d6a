"""A small HTTP client for the multi-host test: one source address per client (so the
proxy sees distinct clients), cookies kept, forms and multipart uploads."""

from __future__ import annotations

import http.client
import re
import secrets
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case (HAProxy sends them so)
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


@dataclass
class Client:
    host: str
    port: int
    source: str  # the client's own address
    cookies: dict[str, str] = field(default_factory=dict)
    timeout: float = 30.0

    def request(self, method: str, path: str, *, body: bytes = b"", headers=None) -> Answer:
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=self.timeout, source_address=(self.source, 0)
        )
        sent = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body=body or None, headers=sent)
            response = connection.getresponse()
            answer = Answer(
                response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
            )
            for value in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        finally:
            connection.close()
        return answer

    def get(self, path: str, **kwargs) -> Answer:
        return self.request("GET", path, **kwargs)

    def csrf(self, path: str) -> str:
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)

    def post_form(self, path: str, fields: dict, *, headers=None) -> Answer:
        body = urllib.parse.urlencode(fields).encode()
        sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        return self.request("POST", path, body=body, headers=sent)

    def post_file(self, path: str, fields: dict, file_field: str, file: Path) -> Answer:
        boundary = secrets.token_hex(16)
        parts = []
        for name, value in fields.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; '
            f'filename="{file.name}"\r\nContent-Type: application/gzip\r\n\r\n'.encode()
            + file.read_bytes()
            + b"\r\n"
        )
        parts.append(f"--{boundary}--\r\n".encode())
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self.request("POST", path, body=b"".join(parts), headers=headers)

    def sign_in(self, username: str, password: str, *, headers=None) -> Answer:
        token = self.csrf("/admin/login/")
        fields = {"csrfmiddlewaretoken": token, "username": username, "password": password}
        return self.post_form("/admin/login/?next=/admin/", fields, headers=headers)
