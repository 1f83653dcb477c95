"""`rerun` output: the plan (what will be sent), the text report and the JSON document.

JSON (docs/formats.md): ``{"format": "mcp-review-rerun", "version": 1, "server", "calls": [{"tool", "arguments", "recorded_at",
"outcome", "reason", "differences": [{"pointer", "old", "new"}], "volatile": [pointer, …],
"volatile_reasons": {pointer: why}}],
"counts"}``. ``old`` / ``new`` are absent where the value was absent on that side. Every
server-supplied string goes through ``hidden.safe_text`` in text; JSON escapes hidden
characters (``json_dumps_safe``).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from mcp_review.engine.hidden import json_dumps_safe, safe_text
from mcp_review.engine.rerun import REASON_LIVE, word_diff_text

if TYPE_CHECKING:
    from mcp_review.services.rerun import RerunReport

MAX_SHOWN = 120
"""Characters of an argument object or a value shown per line in text."""


def _short(value: Any, n: int = MAX_SHOWN, *, raw_str: bool = False) -> str:
    try:
        s = (
            value
            if raw_str and isinstance(value, str)
            else json.dumps(value, ensure_ascii=False, sort_keys=True)
        )
    except (TypeError, ValueError):
        s = repr(value)
    s = safe_text(s)
    return s if len(s) <= n else s[:n] + "…"


def plan_text(rep: RerunReport) -> str:
    """What will be sent (each twice) and what will not, one line per call."""
    send = rep.to_send
    lines = [
        f"mcp-review rerun {safe_text(rep.server)}: {len(send)} call(s) to send "
        f"(each twice), {len(rep.calls) - len(send)} not sent"
    ]
    for c in rep.calls:
        head = (
            f"  {'send' if c.will_send else str(c.outcome):18} {safe_text(c.call.tool)} "
            f"{_short(c.call.arguments)}"
        )
        lines.append(head if c.will_send else f"{head}\n      {safe_text(c.reason)}")
    return "\n".join(lines) + "\n"


def to_text(rep: RerunReport) -> str:
    out = [f"mcp-review rerun {safe_text(rep.server)}"]
    for c in rep.calls:
        when = f"  (recorded {safe_text(c.call.time)})" if c.call.time else ""
        if c.outcome is None:
            continue
        out.append(f"  {c.outcome!s:18} {safe_text(c.call.tool)} {_short(c.call.arguments)}{when}")
        if c.reason:
            out.append(f"      {safe_text(c.reason)}")
        cmp = c.comparison
        if cmp is None:
            continue
        for d in cmp.differences:
            if d.text:
                out.append(
                    f"      {safe_text(d.pointer)}: "
                    f"{_short(word_diff_text(str(d.old), str(d.new)), 400, raw_str=True)}"
                )
            else:
                old = _short(d.old) if d.has_old else "(absent)"
                new = _short(d.new) if d.has_new else "(absent)"
                out.append(f"      {safe_text(d.pointer) or '(whole result)'}: {old} → {new}")
        if cmp.differences_total > len(cmp.differences):
            out.append(f"      … {cmp.differences_total - len(cmp.differences)} more")
        by_reason: dict[str, list[str]] = {}
        for p in cmp.volatile:
            by_reason.setdefault(cmp.volatile_reasons.get(p, REASON_LIVE), []).append(p)
        for why, ptrs in by_reason.items():
            out.append(
                f"      volatile ({why}, ignored): "
                + ", ".join(safe_text(p) for p in ptrs[:20])
                + (" …" if len(ptrs) > 20 else "")
            )
    counts = rep.counts()
    out.append("counts: " + " · ".join(f"{k} {v}" for k, v in counts.items()))
    return "\n".join(out) + "\n"


def to_json(rep: RerunReport) -> str:
    return json_dumps_safe(rep.to_json(), indent=2) + "\n"


def ask(planned: RerunReport, *, yes: bool, quiet: bool = False) -> tuple[bool, str]:
    """What `rerun` and `check --rerun` share: show the plan on stderr and ask in a terminal;
    ``--yes`` sends without asking. (ok, why not)."""
    if not quiet or not yes:
        sys.stderr.write(plan_text(planned))
    if yes:
        return True, ""
    if not sys.stdin.isatty():
        return False, "not sent: confirm in a terminal, or pass --yes"
    n = len(planned.to_send)
    sys.stderr.write(f"Send these {n} call(s), each twice? [y/N] ")
    sys.stderr.flush()
    if sys.stdin.readline().strip().lower() in ("y", "yes"):
        return True, ""
    return False, "nothing sent"
