"""A Web Push service stand-in on loopback, for the push tests: the real pywebpush client talks
to it over HTTPS as to a browser's push service.

It speaks the service's side of RFC 8030 and checks what a real one checks: the VAPID
``Authorization: vapid t=JWT,k=KEY`` header (RFC 8292: an ES256 JWT whose audience is the
endpoint's origin, whose expiry is in the future and within 24 hours, signed by the key ``k``,
which must be the site's public key) and the aes128gcm payload (RFC 8188/8291), which it
decrypts with the browser's private key and auth secret as the browser would (``http_ece``).
It answers 201 and records the payload, or 404/410 for endpoints told to be gone.

Its certificate is self-signed for ``localhost``, made here with ``cryptography``; a test points
REQUESTS_CA_BUNDLE at it, so the site trusts this service and nothing else changes.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import json
import os
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography import x509
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

__all__ = ["BrowserKeys", "PushServiceStandIn", "Received", "push_service", "queued_pushes", "run_queued_pushes"]


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret."""

    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return _b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @property
    def auth(self) -> str:
        return _b64url(self.auth_secret)


@dataclass
class Received:
    """One push the service accepted (or refused: ``status``, ``problem``)."""

    endpoint: str
    status: int
    payload: dict[str, Any] | None
    claims: dict[str, Any] | None
    headers: dict[str, str]
    problem: str = ""


def _self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([
            x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "push-service.pem", folder / "push-service.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


class PushServiceStandIn:
    """``endpoint(name)`` gives a subscription's address; ``keys[name]`` the browser's keys;
    ``answers[name] = 410`` makes that endpoint gone; ``received`` lists every request."""

    def __init__(self, folder: Path, site_public_key: str) -> None:
        self.cert_path, key_path = _self_signed(folder)
        self.site_public_key = site_public_key.rstrip("=")
        self.keys: dict[str, BrowserKeys] = {}
        self.answers: dict[str, int] = {}
        self.received: list[Received] = []
        self._lock = threading.Lock()
        handler = self._handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert_path, key_path)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.origin = f"https://localhost:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> PushServiceStandIn:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def endpoint(self, name: str) -> str:
        self.keys.setdefault(name, BrowserKeys())
        return f"{self.origin}/push/{name}"

    def subscription(self, name: str) -> dict[str, Any]:
        """What the browser's PushSubscription.toJSON() gives for this endpoint."""
        endpoint = self.endpoint(name)
        keys = self.keys[name]
        return {"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": keys.p256dh, "auth": keys.auth}}

    def delivered(self, name: str | None = None) -> list[dict[str, Any]]:
        """The payloads accepted (for one endpoint), in order."""
        with self._lock:
            return [r.payload for r in self.received if r.status == 201 and r.payload is not None
                    and (name is None or r.endpoint.endswith(f"/push/{name}"))]

    def _check_vapid(self, authorization: str) -> dict[str, Any]:
        scheme, _, rest = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"not a vapid Authorization header: {authorization[:30]!r}")
        parts = dict(part.strip().split("=", 1) for part in rest.split(","))
        token, key = parts["t"], parts["k"]
        if key.rstrip("=") != self.site_public_key:
            raise ValueError("k is not the site's public key")
        header_b64, claims_b64, signature_b64 = token.split(".")
        header = json.loads(_unb64url(header_b64))
        if header.get("alg") != "ES256":
            raise ValueError(f"alg {header.get('alg')!r}")
        signature = _unb64url(signature_b64)
        if len(signature) != 64:
            raise ValueError("an ES256 signature is 64 bytes")
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64url(key))
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            public_key.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("the JWT's signature does not verify against k") from None
        claims = json.loads(_unb64url(claims_b64))
        if claims.get("aud") != self.origin:
            raise ValueError(f"aud {claims.get('aud')!r} is not {self.origin}")
        now = time.time()
        if not now < int(claims.get("exp", 0)) <= now + 24 * 3600:
            raise ValueError(f"exp {claims.get('exp')!r} is not within the next 24 hours")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https://")):
            raise ValueError("sub is not a mailto: or https: contact")
        return claims

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                endpoint = f"{service.origin}{self.path}"
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                status, payload, claims, problem = 201, None, None, ""
                try:
                    claims = service._check_vapid(headers.get("authorization", ""))
                except (ValueError, KeyError) as error:
                    status, problem = 403, f"VAPID: {error}"
                if status == 201 and name not in service.keys:
                    status, problem = 404, "no such subscription"
                if status == 201 and name in service.answers:
                    status = service.answers[name]
                if status == 201:
                    try:
                        if headers.get("content-encoding") != "aes128gcm" or "ttl" not in headers:
                            raise ValueError("Content-Encoding aes128gcm and TTL are required")
                        keys = service.keys[name]
                        plain = http_ece.decrypt(body, private_key=keys.private_key,
                                                 auth_secret=keys.auth_secret, version="aes128gcm")
                        payload = json.loads(plain)
                    except (ValueError, KeyError, InvalidTag, http_ece.ECEException) as error:  # unreadable
                        status, problem = 400, f"payload: {error}"
                with service._lock:
                    service.received.append(Received(endpoint, status, payload, claims, headers, problem))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                if status == 201:
                    self.send_header("Location", f"{service.origin}/message/{len(service.received)}")
                self.end_headers()

        return Handler


# The fixture (tests/conftest.py makes it the whole suite's) and the worker's part.


@pytest.fixture
def push_service(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The stand-in, running; the site allowed to post only to it (PUSH_SERVICE_HOSTS) and
    trusting its certificate (REQUESTS_CA_BUNDLE), as a deployment trusts the real ones."""
    service = PushServiceStandIn(tmp_path, settings.VAPID_PUBLIC_KEY).start()
    settings.PUSH_SERVICE_HOSTS = ["localhost"]
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(service.cert_path))
    yield service
    service.stop()


def queued_pushes() -> list[str]:
    """The task paths of the push notices waiting in the database queue, oldest first."""
    return list(
        DBTaskResult.objects.filter(status=TaskResultStatus.READY, task_path__startswith="notices.push.")
        .order_by("enqueued_at").values_list("task_path", flat=True)
    )


def run_queued_pushes() -> list[Any]:
    """Run (and remove) every queued push task as the worker would, oldest first."""
    from notices.push import tasks

    by_path = {task.module_path: task for task in (
        tasks.push_your_turn_notice, tasks.push_new_challenge_notice, tasks.push_message_notice,
        tasks.push_time_warning, tasks.push_game_finished_notice, tasks.push_test_notice)}
    results = []
    queued = DBTaskResult.objects.filter(
        status=TaskResultStatus.READY, task_path__startswith="notices.push."
    ).order_by("enqueued_at")
    for row in queued:
        arguments = row.args_kwargs
        results.append(by_path[row.task_path].call(*arguments["args"], **arguments["kwargs"]))
        row.delete()
    return results
