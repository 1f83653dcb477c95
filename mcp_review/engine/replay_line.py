"""One call-log line read as :func:`~mcp_review.engine.replay.parse_calls` reads it, without a
reader per line: the enforcing proxy reads its own last recorded call this way
(services/proxy/enforce.py), where that reader cost more than the call's judgement."""

from __future__ import annotations

from mcp_review.engine.replay import _DIGIT_MASK, _MIN_DEEP_BYTES, LOG_KEYS, Call, _orjson


def one_call(line: bytes) -> Call | None:
    """The call ``parse_calls`` reads from ``line``, one server-log record with its ``\\n``
    (as the recording proxy appends them), when it takes none of that reader's slow paths;
    None when it might (a long digit run, a line long enough to nest deeply, anything orjson
    refuses, any other form of record): ``parse_calls`` must read it then."""
    if (
        _orjson is None
        or len(line) > _MIN_DEEP_BYTES
        or line.count(b"\n") != 1
        or not line.endswith(b"\n")
        or line.startswith(b"\xef\xbb\xbf")
        or b"0" * 19 in line.translate(_DIGIT_MASK)
    ):
        return None
    try:
        rec = _orjson.loads(line)
    except ValueError:
        return None
    if type(rec) is not dict or "jsonrpc" in rec:
        return None
    name = rec.get("tool")
    if type(name) is not str or "arguments" not in rec or not rec.keys() <= LOG_KEYS:
        return None
    return Call(1, 1, rec["arguments"], name, True)
