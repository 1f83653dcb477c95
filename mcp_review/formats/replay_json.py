"""A replay's listed calls as JSON text, one compact entry per call, written from a template.

The text of each entry is exactly ``jsonstream.dumps(entry, indent=False)`` of the entry dict
``ReplayResult.iter_json`` gives (orjson's compact form, every hidden or terminal-active
character escaped). For the two common kinds, a broken call and (with ``--all-calls``) a call
valid under both, every member but the arguments and the reasons is fixed, so the entry is
spliced from orjson's bytes of those two instead of building a dict (and a dict per reason)
and serialising it whole; a run of broken calls rejected for the same reasons shares one
serialised reason list. Anything orjson cannot write (an integer beyond 64 bits) takes the
dict path, whose stdlib fallback spells the entry its own way, as before.
"""

from __future__ import annotations

from collections.abc import Iterator

from mcp_review.engine.hidden import escape_hidden_json
from mcp_review.engine.replay import ReplayResult, entry_dict
from mcp_review.formats.jsonstream import dumps

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a dependency
    _orjson = None  # type: ignore[assignment]

_BROKEN = (
    b'{"index":%d,"line":%b,"arguments":%b,"outcome":"broken","valid_under_old":true,'
    b'"valid_under_new":false,"broken":true,"errors":%b,"old_errors":[]}'
)
_OK = (
    b'{"index":%d,"line":%b,"arguments":%b,"outcome":"ok","valid_under_old":true,'
    b'"valid_under_new":true,"broken":false,"errors":[],"old_errors":[]}'
)
_REASONS_KEPT = 256
"""Serialised reason lists kept for reuse (a log of distinct reasons must not grow it)."""


def iter_entries(r: ReplayResult, all_calls: bool = False) -> Iterator[str]:
    """``dumps(e, indent=False) for e in r.iter_json(all_calls)``, the same text."""
    if _orjson is None:  # pragma: no cover - orjson is installed in every supported setup
        for part in r.iter_json_parts(all_calls):
            yield dumps(part if isinstance(part, dict) else entry_dict(*part), indent=False)
        return
    to_bytes = _orjson.dumps
    reasons: dict[tuple[tuple[str, str], ...], bytes] = {}
    for part in r.iter_json_parts(all_calls):
        if isinstance(part, dict):
            yield dumps(part, indent=False)
            continue
        c, errs = part
        line = b"null" if c.line is None else b"%d" % c.line
        try:
            args = to_bytes(c.arguments)
            if errs is None:
                raw = _OK % (c.index, line, args)
            else:
                why = reasons.get(errs)
                if why is None:
                    why = to_bytes([{"path": p, "message": m} for p, m in errs])
                    if len(reasons) >= _REASONS_KEPT:
                        reasons.clear()
                    reasons[errs] = why
                raw = _BROKEN % (c.index, line, args, why)
        except (TypeError, ValueError):  # what jsonstream.dumps falls back on, whole
            yield dumps(entry_dict(c, errs), indent=False)
            continue
        yield escape_hidden_json(raw.decode("utf-8"))
