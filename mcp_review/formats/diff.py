"""Text and JSON reports of `mcp-review diff SERVER TOOL`: one tool, pinned against served.

Text: a header (state, digests, who decided), the definition as a unified diff of pretty-printed,
key-sorted JSON (every line through ``hidden.safe_text``: hidden characters and line breaks are
tokens, never interpreted), then the classified changes and the replay as `gate` prints them,
then the policy outcome with its reasons.

JSON (``"format": "mcp-review-diff"``, ``version`` 1; additions only within a version;
docs/formats.md)::

    {"format", "version", "server", "principal", "tool",
     "status": "pinned" | "new" | "changed" | "broken" | "removed" | "denied",
     "pinned": null | {"decision", "digest", "decided_at", "decided_by", "note",
                       "definition": {...}},
     "live": null | {"digest", "definition": {...}},
     "diff": ["--- pinned", "+++ live", "@@ …", …],      // the unified diff, raw lines
     "policy": {"tier", "outcome", "reasons"},
     "comparison": null | {... as a `status` tool's comparison}}

JSON keeps server strings exactly (hidden and terminal-active characters as ``\\u``
escapes, ``hidden.json_dumps_safe``).
"""

from __future__ import annotations

import difflib
import json
from typing import TYPE_CHECKING, Any

from mcp_review.engine.hidden import json_dumps_safe, mark_lookalikes, safe_text
from mcp_review.engine.names import with_escape
from mcp_review.engine.rules.ui import UI_RULES
from mcp_review.engine.status import ToolStatus
from mcp_review.formats.compare import to_text as comparison_text
from mcp_review.formats.jsonstream import plain
from mcp_review.formats.status import tool_json
from mcp_review.formats.ui_diff import ui_diff_lines

if TYPE_CHECKING:
    from mcp_review.engine.hosts import Targets

FORMAT = "mcp-review-diff"
VERSION = 1


def definition_lines(wire: dict[str, Any] | None) -> list[str]:
    """A definition as pretty-printed, key-sorted JSON lines (empty for None)."""
    if wire is None:
        return []
    return json.dumps(wire, indent=2, sort_keys=True, ensure_ascii=False).splitlines()


def unified(t: ToolStatus) -> list[str]:
    """The unified diff (3 lines of context) from the pinned definition to the served one."""
    old = definition_lines(t.pin.tool_def().wire if t.pin is not None else None)
    new = definition_lines(t.live.wire if t.live is not None else None)
    return list(difflib.unified_diff(old, new, "pinned", "live", lineterm=""))


def to_json(t: ToolStatus, targets: Targets | None = None) -> str:
    """``targets``: the report's target hosts (engine.hosts.Targets): where one cuts the
    description, ``host_cuts`` says so."""
    pin = t.pin
    base = plain(tool_json(t, all_calls=False))
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "server": t.server,
        "principal": t.principal,
        "tool": t.tool,
        "status": str(t.state),
        "pinned": None
        if pin is None
        else {
            "decision": str(pin.decision),
            "digest": pin.digest,
            "decided_at": pin.decided_at,
            "decided_by": pin.decided_by,
            "note": pin.note or None,
            "definition": pin.tool_def().wire,
        },
        "live": None if t.live is None else {"digest": t.live_digest, "definition": t.live.wire},
        "diff": unified(t),
        "policy": t.policy.to_json(),
        "notes": list(t.notes),
        "shadows": list(t.shadows),
        "comparison": base["comparison"],
    }
    cut = _cuts(t, targets)
    if cut:
        # Where a target host (claude-code) cuts the description the model reads.
        doc["host_cuts"] = [c.to_json() for c in cut]
    ui = _ui_diff(t)
    if ui:
        doc["ui_diff"] = ui  # only for a changed UI resource: other documents as before
    return json_dumps_safe(doc, indent=2) + "\n"


def _ui_diff(t: ToolStatus) -> list[str]:
    """The text diff of a changed UI resource (formats/ui_diff.py), lines
    made visible; empty when no UI resource changed."""
    cmp = t.comparison
    if cmp is None or not any(c.rule in UI_RULES for c in cmp.changes):
        return []
    return ui_diff_lines(cmp.old.ui, cmp.new.ui)


def _cuts(t: ToolStatus, targets: Targets | None) -> list[Any]:
    from mcp_review.engine.hosts import cuts

    if not t.hosts or t.live is None or targets is None:
        return []
    return cuts(t.hosts, t.live.wire)


CUT_SHOWN = 60
"""Characters shown on each side of a host's cut."""


def cut_lines(t: ToolStatus, targets: Targets | None) -> list[str]:
    """The cut drawn in the description: the text around it, and what lies past it (every
    line through ``safe_text``)."""
    from mcp_review.engine.hosts import PROFILES

    out: list[str] = []
    d = t.live.description if t.live is not None else None
    for c in _cuts(t, targets):
        if d is None:
            continue
        label = PROFILES[c.profile].label
        past = c.length - c.at
        out.append("")
        out.append(
            f"description as {label} shows it ({c.rule}): {c.length:,} characters, cut at {c.at:,}"
        )
        out.append("  …" + safe_text(d[max(0, c.at - CUT_SHOWN) : c.at]))
        out.append(f"  ──── the model on {label} stops here (character {c.at:,}) ────")
        out.append("  " + safe_text(d[c.at : c.at + CUT_SHOWN]) + ("…" if past > CUT_SHOWN else ""))
        out.append(
            f"  {past:,} character(s) past the cut: the model there never reads them; a cue "
            "past it still counts (other hosts read it)"
        )
    return out


def to_text(t: ToolStatus, targets: Targets | None = None) -> str:
    """``targets``: the report's target hosts: where one cuts the description, the cut is
    drawn in it ("the model on Claude Code stops here")."""
    out: list[str] = []
    # A look-alike letter marked, with the escaped form the commands accept.
    label = with_escape(
        f"{safe_text(t.server)}/{safe_text(t.principal)}/{safe_text(mark_lookalikes(t.tool))}",
        t.tool,
    )
    out.append(f"{label}: {t.state}")
    pin = t.pin
    if pin is not None:
        by = f" by {safe_text(pin.decided_by)}" if pin.decided_by else ""
        at = f" at {safe_text(pin.decided_at)}" if pin.decided_at else ""
        out.append(f"  pinned: {pin.digest} ({pin.decision}{at}{by})")
        if pin.note:
            out.append(f"    note: {safe_text(pin.note)}")
    else:
        out.append("  pinned: none (a new tool)")
    out.append(f"  live:   {t.live_digest}" if t.live is not None else "  live:   not served")
    lines = unified(t)
    out.append("")
    if lines:
        out.extend(safe_text(x) for x in lines)
    else:
        out.append("(definitions identical)")
    out.extend(cut_lines(t, targets))
    if t.comparison is not None:
        out.append("")
        out.extend(comparison_text(t.comparison, byte_pin=False).rstrip("\n").splitlines())
    out.append("")
    reasons = "; ".join(safe_text(r) for r in t.policy.reasons)
    out.append(
        f"policy ({t.policy.tier}): {t.policy.outcome}" + (f": {reasons}" if reasons else "")
    )
    for n in t.notes:
        out.append(f"note: {safe_text(n)}")
    for s in t.shadows:
        out.append(f"shadows: {safe_text(s)}")
    return "\n".join(out) + "\n"
