"""JSON bytes made by orjson, respelled: U+2028 and U+2029 escaped for a line, and every
non-ASCII character escaped as ``json.dumps(ensure_ascii=True)`` escapes it for a seal.

Both are valid raw in JSON, but ``str.splitlines`` (and JavaScript line readers) break a line
there. Their UTF-8 bytes (``E2 80 A8`` / ``E2 80 A9``) can only occur inside a string, where
the escape means the same character. Looking for them is most of the cost on a large line of
real text: ``E2 80`` starts every dash and quotation mark, so the three-byte search runs at
~1 ms a MiB, two of them at ~2. Their last bytes are found by ``memchr`` instead (~0.05 ms a
MiB), each hit checked for the two bytes before it.
"""

from __future__ import annotations

from json.encoder import encode_basestring_ascii

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


_HIGH = bytes(0x80 if b >= 0x80 else 0 for b in range(256))
"""A ``bytes.translate`` table: 0x80 for every non-ASCII byte, 0 for every other."""
_SAMPLE = 1 << 16
_RUN_BYTES = 1024
"""Run by run while runs are fewer than one in this many bytes: each costs ~1.3 us, where the
stdlib's encoder costs ~3 ms a MiB of text whatever it holds (and more per small node: a
record of 100,000 keys and short strings takes it ~14 ms, orjson plus this ~4)."""

_HIGH_SHARE = 16
"""... and while fewer than one byte in this many is non-ASCII: long runs (a page of CJK text)
cost their bytes, escaped either way, plus this pass's own."""


def ascii_spelled(out: bytes) -> bytes | None:
    """orjson's UTF-8 JSON ``out`` with each run of non-ASCII characters escaped as
        ``json.dumps(..., ensure_ascii=True)`` escapes it (``\\u00e9``, a surrogate pair past
        U+FFFF; the C escaper of the stdlib itself, on the run alone), so the bytes are the
        stdlib's. A maximal run of bytes >= 0x80 in valid UTF-8 is whole characters (ASCII ends a
        sequence), and JSON puts them only inside strings, where nothing else needs escaping
        beside them. None when runs are dense (the stdlib's whole-document encoder is as fast
        there, or most of the text is non-ASCII): judged on the first 64 KiB, and given up at
    twice the rate of runs over the whole."""
    n = len(out)
    head = out[:_SAMPLE].translate(_HIGH)
    if head.count(b"\x00\x80") * _RUN_BYTES > len(head) or head.count(b"\x80") * _HIGH_SHARE > len(
        head
    ):
        return None
    marks = out.translate(_HIGH)
    budget = 2 * n // _RUN_BYTES + 2
    parts: list[bytes] = []
    pos = 0
    find = marks.find
    i = find(b"\x80")
    while i >= 0:
        budget -= 1
        if budget < 0:
            return None
        j = find(b"\x00", i)
        if j < 0:
            j = n
        parts.append(out[pos:i])
        parts.append(encode_basestring_ascii(out[i:j].decode("utf-8"))[1:-1].encode("ascii"))
        pos = j
        i = find(b"\x80", j)
    parts.append(out[pos:])
    return b"".join(parts)
