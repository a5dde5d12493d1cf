"""The server's Web Push key (VAPID, RFC 8292): a P-256 key pair, its private half a
setting (``vapid_private_key``, base64url of the 32-byte number) and its public half what
a browser subscribes with (``GET /api/push/key``).  ``cardtable push-keys`` makes a pair.

>>> private, public = new_keys()
>>> public == public_key(private), len(private), len(public)
(True, 43, 87)
>>> browser_keys(public, "A" * 22), browser_keys("B" * 87, "A" * 22)
(True, False)
>>> public_key("not a key")
Traceback (most recent call last):
ValueError: the VAPID key is not base64url of a 32-byte P-256 private key
"""

from __future__ import annotations

import base64
import binascii

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

__all__ = ["b64url", "browser_keys", "new_keys", "private_key", "public_key", "unb64url"]


def b64url(raw: bytes) -> str:
    """Base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of base64url text, padded or not (``ValueError`` if it is not)."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """The key a ``vapid_private_key`` setting holds."""
    try:
        raw = unb64url(text.strip())
        if len(raw) != 32:
            raise ValueError
        return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except ValueError:
        raise ValueError("the VAPID key is not base64url of a 32-byte P-256 private "
                         "key") from None


def public_key(text: str) -> str:
    """The public half of a ``vapid_private_key``: the uncompressed point, base64url (the
    ``applicationServerKey`` a browser subscribes with)."""
    point = private_key(text).public_key().public_bytes(Encoding.X962,
                                                        PublicFormat.UncompressedPoint)
    return b64url(point)


def new_keys() -> tuple[str, str]:
    """A new (private, public) pair, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    return private, public_key(private)


def browser_keys(p256dh: str, auth: str) -> bool:
    """Whether a subscription's keys can encrypt a push: a point of P-256 (not only 65
    bytes) and a 16-byte secret; a push to keys that cannot would fail every time."""
    try:
        point, secret = unb64url(p256dh), unb64url(auth)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        return False
    return len(secret) == 16
