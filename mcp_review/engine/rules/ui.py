"""A tool's UI resource changed behind its URI: ``meta-ui-content-changed``.

The content, MIME type or content ``_meta`` of a UI resource the tool's ``_meta`` names
(read with ``resources/read``, engine/ui_resource.py) differs from the approved record, or it
can no longer be read. The UI the user sees (scripts, forms, the CSP it asks for) is the
server's words: trust, and never approved automatically in any tier (engine/policy.py). A pin
written before UI resources were pinned holds no record: nothing is judged until the tool's
next decision records it (``verify`` says so).
"""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import Change, ChangeClass, Direction, pointer_escape
from mcp_review.engine.rules.registry import Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import Raw, make, new_text, quote, with_new_text
from mcp_review.engine.ui_resource import UIResource, added_text, differs, record_of

RULES: tuple[Rule, ...] = (
    _r(
        "meta-ui-content-changed",
        ChangeClass.TRUST,
        Direction.TOOL,
        "the content, MIME type or _meta of a UI resource the tool renders (ui://, read with "
        "resources/read) changed, or it can no longer be read: the UI the user sees, never "
        "approved automatically",
        "UI resource {uri}: {what} (the UI the user sees; never approved automatically)",
    ),
)

UI_RULES = frozenset({"meta-ui-content-changed"})
"""Rules that no tier approves automatically (engine/policy.py)."""


def _pointer(wire: Any, uri: str) -> str:
    """The pointer of the ``_meta`` key that names ``uri`` (``/_meta`` when none does)."""
    meta = wire.get("_meta") if isinstance(wire, dict) else None
    if isinstance(meta, dict):
        ui = meta.get("ui")
        if isinstance(ui, dict) and ui.get("resourceUri") == uri:
            return "/_meta/ui/resourceUri"
        for k in ("ui/resourceUri", "openai/outputTemplate"):
            if meta.get(k) == uri:
                return "/_meta/" + pointer_escape(k)
    return "/_meta"


def _q(v: str | None) -> str:
    return "(none)" if v is None else quote(v)


def _what(old: UIResource | None, new: UIResource) -> str:
    if new.error is not None:
        return "cannot be read now (the tool's notes say why)"
    if old is None:
        return "first read (no approved content)"
    if old.error is not None:
        return "readable now (it could not be read when approved)"
    parts = []
    if old.digest != new.digest:
        kind = "binary content" if new.binary or old.binary else "content"
        parts.append(f"{kind} changed ({old.size} -> {new.size} bytes)")
    if old.mime_type != new.mime_type:
        # Server strings: quoted (visible, one line, bounded) inside our words.
        parts.append(f"MIME type {_q(old.mime_type)} -> {_q(new.mime_type)}")
    if old.meta != new.meta:
        parts.append("its content _meta (CSP, domain) changed")
    return "; ".join(parts) or "changed"


def judge_ui(
    old: tuple[UIResource, ...] | None, new: tuple[UIResource, ...] | None, new_wire: Any
) -> list[Change]:
    """The changes of the UI resources from the approved records ``old`` to the served ``new``
    (nothing when either side holds no records)."""
    if old is None or new is None or not differs(old, new):
        return []
    out: list[Change] = []
    for r in new:
        was = record_of(old, r.uri)
        if was is not None and was.same_content(r):
            continue
        if r.error is not None and (was is None or was.error is not None):
            continue  # unreadable now and never approved readable: the status notes say so
        ptr = _pointer(new_wire, r.uri)
        c = make("meta-ui-content-changed", ptr, uri=r.uri, what=Raw(_what(was, r)))
        text = added_text(was, r)
        if text:
            c = with_new_text(c, [new_text(ptr, "UI resource", text)])
        out.append(c)
    return out
