"""The site's VAPID key pair (RFC 8292) as text: the private key a base64url P-256 scalar of 32
bytes (what web-push tools print), the public key the base64url uncompressed point of 65 bytes
(the browsers' ``applicationServerKey``). Settings check them at start-up with these."""

from __future__ import annotations

import base64
import binascii
import re

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

__all__ = ["b64url_decode", "b64url_encode", "generate_private_key", "public_key_for"]

_B64URL = re.compile(r"[A-Za-z0-9_-]*={0,2}")


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict base64url (padding optional): anything else is a ValueError, never garbage bytes."""
    if not isinstance(text, str) or not _B64URL.fullmatch(text):
        raise ValueError("not base64url")
    bare = text.rstrip("=")
    if len(bare) % 4 == 1:
        raise ValueError("not base64url (a length no encoding gives)")
    try:
        return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except binascii.Error as error:
        raise ValueError(f"not base64url ({error})") from None


def generate_private_key() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return b64url_encode(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key_for(private_key: str) -> str:
    """The public key of a private key given as text; ValueError if it is not one."""
    raw = b64url_decode(private_key.strip())
    if len(raw) != 32:
        raise ValueError("a VAPID private key is 32 bytes, base64url-encoded (43 characters)")
    value = int.from_bytes(raw, "big")
    key = ec.derive_private_key(value, ec.SECP256R1())  # ValueError outside the curve's order
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url_encode(point)
