"""The call log's line seal: an HMAC over the exact bytes of the line as written.

The first seal (``calllog.seal_of``, ``hmac-sha256:``) is over a second, canonical
serialisation of the record (sorted keys, ASCII only, the stdlib's spelling): for a 1 MiB call
that serialisation cost as much as the rest of the record's writing (3 ms a MiB of prose, 17 ms
for a MiB of small records holding floats). The line seal (``hmac-sha256-line:``) is over the
bytes the log holds: the record without its seal, as ``line_bytes`` writes it (orjson, compact,
insertion order, U+2028/9 escaped); the seal is then the line's last member. A reader
recomputes those bytes from the record it parsed, without the seal: orjson writes the same
values the same way (floats in their shortest round-trip spelling, strings as UTF-8, the same
escapes), so a record the writer sealed verifies, and any change to a value, a key, the order
of keys, or an added or removed member breaks it. A record orjson will not write (an integer
past 64 bits, a lone surrogate, nesting past 255 levels) or one holding a NaN or an infinity
(which orjson would write as ``null``) keeps the first seal. Both verify
(``calllog.sealed``): the domain strings differ, so one seal can never pass for the other.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import orjson

from mcp_review.store.jsonline import separators_escaped

LINE_SCHEME = "hmac-sha256-line:"
_DOMAIN = b"mcp-review call log v2, the line's bytes\n"


def line_bytes(value: Any) -> bytes | None:
    """``value`` as the call log writes it (``calllog.dumps``' orjson path), or None when orjson
    refuses it (the stdlib's spelling is then not the line seal's)."""
    try:
        out = orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
    return separators_escaped(out)


def line_seal(body: bytes, key: bytes) -> str:
    """The seal of a line whose bytes without the seal are ``body``."""
    return LINE_SCHEME + hmac.new(key, _DOMAIN + body, hashlib.sha256).hexdigest()


def sealed_line(body: bytes, key: bytes, field: str) -> bytes:
    """The line to write (with its newline): ``body`` (a JSON object's bytes from
    ``line_bytes``) with ``"<field>":"<seal>"`` as its last member."""
    assert body[-1:] == b"}" and body != b"{}"
    seal = line_seal(body, key).encode()
    return b"".join((body[:-1], b',"', field.encode(), b'":"', seal, b'"}\n'))


def line_sealed(rest: dict[str, Any], got: str, key: bytes) -> bool:
    """Whether ``got`` (a ``hmac-sha256-line:`` seal) is the seal of the record ``rest``
    (as read back, without its seal) under ``key``."""
    body = line_bytes(rest)
    if body is None:
        return False
    return hmac.compare_digest(got.encode("utf-8", "replace"), line_seal(body, key).encode())
