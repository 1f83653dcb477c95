"""Server instructions in every report format (text lines, JSON entries, Markdown rows).

Instructions are server-written text: shown through the one sanitiser (``safe_text``: hidden
characters and control characters as visible tokens), never raw; JSON keeps them exactly (as
``\\u`` escapes, through ``json_dumps_safe``)."""

from __future__ import annotations

from typing import Any

from mcp_review.engine.hidden import md_text, safe_text
from mcp_review.engine.instructions import InstructionsStatus
from mcp_review.engine.policy import Outcome

DIFF_LINES = 40
"""Diff lines shown per server in text reports (the JSON has both texts in full)."""


def label(i: InstructionsStatus) -> str:
    s = i.state
    if i.previously_denied:
        s += " (previously denied)"
    return s


def who(i: InstructionsStatus) -> str:
    p = "" if i.principal == "default" else f"[{safe_text(i.principal)}]"
    return f"{safe_text(i.server)}{p} instructions"


def diff_lines(i: InstructionsStatus, indent: str = "      ") -> list[str]:
    """The pinned → live diff, each line made visible (hidden characters as tokens)."""
    if i.state not in ("new", "changed", "removed"):
        return []
    lines = i.diff()[2:]  # the ---/+++ header says nothing here
    out = [indent + safe_text(ln) for ln in lines[:DIFF_LINES]]
    if len(lines) > DIFF_LINES:
        out.append(f"{indent}… {len(lines) - DIFF_LINES} more diff line(s) (diff truncated)")
    return out


def json_entry(i: InstructionsStatus, *, fails_gate: bool | None = None) -> dict[str, Any]:
    d = i.to_json()
    if fails_gate is not None:
        d["fails_gate"] = fails_gate
    return d


def outcome(i: InstructionsStatus) -> str:
    return str(i.policy.outcome) if i.policy.outcome is not Outcome.NONE else ""


def md_row(i: InstructionsStatus, mark: str) -> str:
    why = "; ".join(md_text(r) for r in i.policy.reasons)
    return (
        f"| {mark} | {md_text(i.server)} (server instructions) | {i.state} | "
        f"{i.policy.outcome} | {why} |"
    )
