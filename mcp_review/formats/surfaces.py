"""Prompts, resources and resource templates in every report format: text lines,
JSON entries, Markdown rows, SARIF results.

Their names, URIs and texts are server-written: shown through the one sanitiser
(``safe_text`` / ``md_text`` / ``sarif_text``), never raw; JSON keeps them exactly."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcp_review.engine.hidden import md_text, safe_text
from mcp_review.engine.policy import Outcome
from mcp_review.engine.surfaces import KINDS, SurfaceStatus

if TYPE_CHECKING:
    from mcp_review.services.surface_decisions import SurfaceDecision

DIFF_LINES = 40
"""Diff lines shown per prompt, resource or template in text reports."""

OPTION = {
    "prompt": "--prompt",
    "resource": "--resource",
    "resource-template": "--resource-template",
}
"""The approve/deny option that decides each kind."""

SARIF_HELP = {
    f"{k}-{state}": text.format(k=k)
    for k in KINDS
    for state, text in (
        ("new", "A {k} never approved (text the model or the user reads): review it."),
        ("changed", "The {k} changed since it was approved: review it (mcp-review diff)."),
        ("removed", "An approved {k} is no longer served: clients using it will fail."),
        ("denied", "A denied {k} is still served (withheld by the proxy)."),
    )
}


def who(s: SurfaceStatus) -> str:
    p = "" if s.principal == "default" else f"[{safe_text(s.principal)}]"
    return f'{safe_text(s.server)}{p} {s.kind} "{safe_text(s.name)}"'


def outcome(s: SurfaceStatus) -> str:
    return str(s.policy.outcome) if s.policy.outcome is not Outcome.NONE else ""


def diff_lines(s: SurfaceStatus, indent: str = "      ") -> list[str]:
    """The pinned → live diff of the definition, each line made visible."""
    if s.state not in ("new", "changed"):
        return []
    lines = s.diff()[2:]
    out = [indent + safe_text(ln) for ln in lines[:DIFF_LINES]]
    if len(lines) > DIFF_LINES:
        out.append(f"{indent}… {len(lines) - DIFF_LINES} more diff line(s) (diff truncated)")
    return out


def text_lines(s: SurfaceStatus, failing: bool, *, diff: bool = True) -> list[str]:
    """One surface in a text report: its state, outcome and reasons, its cues, each witness,
    and its diff."""
    mark = "✗" if failing else " "
    why = "; ".join(safe_text(r) for r in s.policy.reasons)
    oc = outcome(s)
    out = [
        f" {mark} {s.state.upper():8} {who(s)}"
        + (" (previously denied)" if s.previously_denied else "")
        + (f"  [{oc}]" if oc else "")
        + (f"  {why}" if why else "")
    ]
    from mcp_review.engine.cues import severity

    for c in sorted(s.cues, key=severity):
        out.append(f"      cue: {c.kind} ({c.rule}) at {safe_text(c.pointer)}: {c.text}")
    for ch in s.changes:
        if ch.witness is not None:
            from mcp_review.engine.hidden import json_dumps_safe

            out.append(f"      witness ({safe_text(ch.pointer)}): {json_dumps_safe(ch.witness)}")
    if diff:
        out.extend(diff_lines(s))
    return out


def json_entry(s: SurfaceStatus, *, fails_gate: bool | None = None) -> dict[str, Any]:
    d = s.to_json()
    if fails_gate is not None:
        d["fails_gate"] = fails_gate
    return d


def md_row(s: SurfaceStatus, mark: str) -> str:
    why = "; ".join(md_text(r) for r in s.policy.reasons)
    cues = "; ".join(md_text(f"cue: {c.kind} ({c.rule}): {c.text}") for c in s.cues)
    why = "; ".join(x for x in (why, cues) if x)
    return (
        f"| {mark} | {md_text(s.server)} ({s.kind} {md_text(s.name)}) | {s.state} | "
        f"{s.policy.outcome} | {why} |"
    )


def sarif_result(
    s: SurfaceStatus,
    failing: bool,
    *,
    text: Callable[[str], str],
    where: Callable[[str, str, str, str], list[dict[str, Any]]],
    prints: Callable[..., dict[str, str]],
) -> dict[str, Any]:
    why = "; ".join(text(r) for r in s.policy.reasons) or s.state
    rule = f"{s.kind}-{s.state}"
    logical = f"{s.server}/{s.principal}/({s.kind})/{s.name}"
    return {
        "ruleId": rule,
        "level": "error" if failing else "note",
        "message": {"text": f"{text(s.server)} ({s.kind} {text(s.name)}): {s.state} — {why}"},
        "locations": where(s.server, logical, s.name, "member"),
        "partialFingerprints": prints(s.server, s.principal, f"({s.kind})", s.name, rule),
    }


def show_surface_decision(d: SurfaceDecision, fmt: str, path: str) -> None:
    """A decision about a prompt, resource or template (services/surface_decisions.py):
    nothing to write, refused (stderr, with the reasons), or the record written."""
    import sys

    from mcp_review.formats.decisions import print_records, report_save

    if d.unchanged:
        print(f"{d.label} is already {d.decision} as served; nothing written")
    elif d.blocked:
        print(f"mcp-review: {d.label} is blocked and was not approved:", file=sys.stderr)
        for r in d.blocked:
            print(f"  - {safe_text(r)}", file=sys.stderr)
        print("review it (mcp-review status, or the app), then rerun with --yes", file=sys.stderr)
    else:
        assert d.result is not None  # neither unchanged nor blocked: saved
        report_save(d.result, path)
        print_records(d.result.audit_records, fmt, {})
