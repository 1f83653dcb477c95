"""One JSON line's last step: U+2028 and U+2029 escaped.

Both are valid raw in JSON, but ``str.splitlines`` (and JavaScript line readers) break a line
there. Their UTF-8 bytes (``E2 80 A8`` / ``E2 80 A9``) can only occur inside a string, where
the escape means the same character. Looking for them is most of the cost on a large line of
real text: ``E2 80`` starts every dash and quotation mark, so the three-byte search runs at
~1 ms a MiB, two of them at ~2. Their last bytes are found by ``memchr`` instead (~0.05 ms a
MiB), each hit checked for the two bytes before it.
"""

from __future__ import annotations

_DENSE = 64
"""Past one hit in this many bytes (text in a script where A8/A9 continue many characters),
the plain replace is as fast."""


def _holds_separator(out: bytes) -> bool:
    limit = len(out) // _DENSE + 16
    seen = 0
    for last in (b"\xa8", b"\xa9"):
        i = out.find(last, 2)
        while i >= 0:
            if out[i - 2] == 0xE2 and out[i - 1] == 0x80:
                return True
            seen += 1
            if seen > limit:
                return True  # dense: let the replace decide
            i = out.find(last, i + 1)
    return False


def separators_escaped(out: bytes) -> bytes:
    """``out`` (UTF-8 JSON) with every U+2028 / U+2029 written as its ``\\u`` escape; ``out``
    itself when it holds none."""
    if out.isascii() or not _holds_separator(out):
        return out
    return out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
