"""Text and JSON reports of a pin-file status (`mcp-review status`, and `check` after it).

JSON (stable; additions only within a ``version``; docs/formats.md)::

    {
      "format": "mcp-review-status",
      "version": 2,                        // 1: every replayed call listed (see below)
      "verdict": "PASS" | "FAIL" | "UNREACHABLE",  // FAIL when any tool needs review or is
                                           // blocked; UNREACHABLE (exit 3) as in `check`
      "exit_code": 0 | 1 | 3,
      "counts": {"pinned": n, "new": n, "changed": n, "broken": n, "removed": n,
                 "denied": n, "auto-approve": n, "review": n, "block": n, "waived": n},
      "applied": ["server/principal/tool", ...],   // auto-approvals written (status --apply)
      "candidate": ["time"],               // servers whose [servers.NAME.candidate] was
                                           // reviewed in their place (--candidate); [] if none
      "waivers"?: [{"server", "principal", "tool", "rule", "reason", "until", "digest", "line",
                    "state": "honoured" | "unbound" | "expired" | "reopened" | "trust" | "unused",
                    "pointers": [...], "message"}],   // [[ignore]] in the config (engine/rulesconfig.py)
      "servers": [
        {"server": "github", "principal": "default", "tier": "tiered",
         "server_version": "1.2.0" | null, "protocol_version": "…" | null,
         "error": null | {"kind": "…", "message": "…"},
         "candidate": false,               // true: the candidate was reviewed (--candidate)
         "calls": null | {"path": "…", "unattributed": n, "skipped": n,
                          "unrecorded": n (only when a proxy forwarded calls unrecorded)}}
      ],
      "instructions": [                     // only when a server sends or has pinned them
        {"subject": "instructions", "server", "principal", "status": "pinned" | "new" |
         "changed" | "removed" | "denied", "previously_denied", "policy", "decision",
         "pinned_digest", "live_digest", "pinned", "live", "hidden_appeared", "cues"}
      ],                                   // cues: what the live text introduces ([] if none)
      "tools": [                            // sorted by server, principal, tool
        {"server": "github", "principal": "default", "tool": "create_issue",
         "status": "pinned" | "new" | "changed" | "broken" | "removed" | "denied",
         "previously_denied": false,
         "policy": {"tier": "tiered", "outcome": "none" | "auto-approve" | "review" | "block"
                    | "waived",
                    "reasons": ["…"]},
         "decision": "approved" | "denied" | null,     // the pin's decision, null when new
         "pinned_digest": "sha256:…" | null,
         "live_digest": "sha256:…" | null,             // null when removed
         "decided_at": "…" | null, "decided_by": "…" | null, "note": "…" | null,
         "calls_recorded": n,                          // calls to this tool in the server log
         "notes": ["…"],
         "protocol": [{"rule", "pointer", "message"}],  // breaks of the MCP schema (as sent)
         "comparison": null | {                        // when the digest changed: as `gate`
            "verdict", "tool", "old_digest", "new_digest", "changes": [{"rule", "class",
            "pointer", "message", "direction", "witness"?, "cues"?}], "counts", "replay"?, …},
         "cues": [{"kind", "text", "pointer", "rule"}],   // what the live definition asks
                                           // that the pin did not (a new tool: every cue, first
                                           // sight); [] when none; docs/cues.md
         "held_by_proxy": null | {"pinned_digest", "live_digest", "since", "pid",
                                  "updated_at"}}   // an enforcing proxy serves the approved
                                           // definition meanwhile (docs/proxy.md, "Hold")
      ]
    }

``comparison.replay`` (version 2): ``{"total", "broken", "bad_recordings", "valid",
"schema_error", "calls_listed": "notable" | "all", "calls": [...]}``: a per-call entry for each
broken call and bad recording, one per line, counts for the rest (``--all-calls``: every call).
Version 1 listed every call. The document is written as it goes (formats/jsonstream.py).

Text (``status --verbose``; the default is formats/status_brief.py, one line per decision): each
tool that is not simply pinned with its reasons and changes, then a summary. Every server-supplied string goes through ``hidden.safe_text`` before it is printed, so
ANSI escapes, invisible characters and line breaks are shown as tokens, never interpreted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from mcp_review.engine.cues import cues_json, severity
from mcp_review.engine.hidden import mark_lookalikes, safe_text
from mcp_review.engine.kinds import Grouping, group_report
from mcp_review.engine.names import with_escape
from mcp_review.engine.policy import Outcome
from mcp_review.engine.rules import render_change
from mcp_review.engine.shared import (
    ChangeKey,
    SharedChange,
    change_key,
    shared_changes,
    shared_keys,
)
from mcp_review.engine.status import State, StatusReport, ToolStatus
from mcp_review.engine.verdict import verdict_word
from mcp_review.formats.compare import comparison_doc, replay_lines, with_change_cues
from mcp_review.formats.jsonstream import Doc, DocList, iter_dump, plain
from mcp_review.formats.kinds import CUES_LISTED, text_lines, tool_order

if TYPE_CHECKING:
    from mcp_review.engine.model import Change
    from mcp_review.engine.status import ServerStatus

FORMAT = "mcp-review-status"
VERSION = 2


def tool_json(t: ToolStatus, *, all_calls: bool = False) -> dict[str, Any]:
    """One tool's entry; a :class:`Doc` with its replayed calls streamed when it has any."""
    pin = t.pin
    cmp = t.comparison
    d: dict[str, Any] = {
        "server": t.server,
        "principal": t.principal,
        "tool": t.tool,
        "status": str(t.state),
        "previously_denied": t.previously_denied,
        "policy": t.policy.to_json(),
        "decision": str(pin.decision) if pin else None,
        "pinned_digest": pin.digest if pin else None,
        "live_digest": t.live_digest,
        "decided_at": pin.decided_at if pin else None,
        "decided_by": pin.decided_by if pin else None,
        "note": (pin.note or None) if pin else None,
        "calls_recorded": t.calls_recorded,
        "notes": list(t.notes),
        "shadows": list(t.shadows),
        "protocol": [f.to_json() for f in t.protocol],
        "comparison": comparison_doc(cmp, all_calls=all_calls) if cmp is not None else None,
        "cues": cues_json(t.cues),
        "held_by_proxy": t.held_by_proxy,
    }
    if t.hosts is not None:
        # What the target hosts (engine/hosts.py) make of the live definition.
        d["hosts"] = [f.to_json() for f in t.hosts]
    if cmp is not None:
        with_change_cues(d["comparison"], cmp, t.cues)
    if t.waivers:
        # [[ignore]] waivers (engine/rulesconfig.py): each one naming this tool, and on each change it
        # covers, the waiver's reason and date.
        d["waivers"] = [u.to_json() for u in t.waivers]
        for c in (d["comparison"] or {}).get("changes", []):
            u = t.waived.get((c["rule"], c["pointer"]))
            if u is not None:
                c["waived"] = {"reason": u.waiver.reason, "until": u.waiver.until.isoformat()}
    return Doc(d) if isinstance(d["comparison"], Doc) else d


def cue_lines(t: ToolStatus, indent: str = "      ") -> list[str]:
    """What the live definition asks of the model that its pin did not (a new tool: its
    first-sight cues), one line each, most severe first: ``cue kind (rule) at pointer: text``.
    ``Cue.text`` is escaped already (engine/cues.py); the pointer is server text too."""
    cues = sorted(t.cues, key=lambda c: (severity(c), c.pointer, c.rule))
    out = [
        f"{indent}cue {c.kind} ({c.rule}) at {safe_text(c.pointer)}: {safe_text(c.text)}"
        for c in cues[:CUES_LISTED]
    ]
    if len(cues) > CUES_LISTED:
        out.append(f"{indent}… and {len(cues) - CUES_LISTED} more cues")
    return out


def waived_label(t: ToolStatus, c: Change) -> str:
    """`` [waived until DATE: reason]`` for a change an honoured waiver covers, else empty."""
    u = t.waived.get((c.rule, c.pointer))
    return (
        f"  [waived until {u.waiver.until.isoformat()}: {safe_text(u.waiver.reason)}]"
        if u is not None
        else ""
    )


def candidate_line(report: StatusReport, quote: Callable[[str], str] | None = None) -> str:
    """The line every format opens with when it shows an upgrade preview (``--candidate``):
    ``CANDIDATE preview of time (not the running version)``; empty otherwise. ``quote``
    makes the names safe for the format (default: ``safe_text``)."""
    if not report.candidates:
        return ""
    q = quote or safe_text
    names = ", ".join(q(n) for n in report.candidates)
    plural = "s" if len(report.candidates) > 1 else ""
    return f"CANDIDATE preview of {names} (not the running version{plural})"


def report_json(
    report: StatusReport,
    *,
    applied: Sequence[ToolStatus] = (),
    all_calls: bool = False,
    grouping: Grouping | None = None,
) -> dict[str, Any]:
    doc: dict[str, Any] = plain(
        report_doc(report, applied=applied, all_calls=all_calls, grouping=grouping)
    )
    return doc


def report_doc(
    report: StatusReport,
    *,
    applied: Sequence[ToolStatus] = (),
    all_calls: bool = False,
    grouping: Grouping | None = None,
) -> Doc:
    from mcp_review.formats import instructions as instr_fmt

    instr = [s.instructions for s in report.servers if s.instructions is not None]
    extra: dict[str, Any] = {}
    if instr:  # present when any server sends instructions or has them pinned
        extra["instructions"] = [instr_fmt.json_entry(i) for i in instr]
    surfaces = [x for s in report.servers for x in s.surfaces]
    if surfaces:  # present when any server serves or has pinned prompts or resources
        from mcp_review.formats import surfaces as surf_fmt

        extra["surfaces"] = [surf_fmt.json_entry(x) for x in surfaces]
    if grouping is not None:  # status --groups: the decisions by kind (engine/kinds.py)
        extra.update(grouping.to_json())
    return Doc(
        {
            "format": FORMAT,
            "version": VERSION,
            "verdict": verdict_word(report.exit_code()),
            "exit_code": report.exit_code(),
            "counts": report.counts(),
            "applied": ["/".join(t.key) for t in applied],
            "candidate": list(report.candidates),
            **({"waivers": [u.to_json() for u in report.waivers]} if report.waivers else {}),
            **({"hosts": report.hosts.to_json()} if report.hosts is not None else {}),
            "servers": [
                {
                    "server": s.name,
                    "principal": s.principal,
                    "tier": s.tier,
                    "server_version": s.server_version,
                    "protocol_version": s.protocol_version,
                    "error": s.error,
                    "candidate": s.candidate,
                    "notes": list(s.notes),
                    "calls": None
                    if s.calls is None
                    else {
                        "path": s.calls.path,
                        "unattributed": s.calls.unattributed,
                        "skipped": s.calls.skipped,
                        # Only when there were any: older reports stay byte-identical.
                        **({"unrecorded": s.calls.unrecorded} if s.calls.unrecorded else {}),
                    },
                }
                for s in report.servers
            ],
            **extra,
            "tools": DocList(tool_json(t, all_calls=all_calls) for t in report.tools),
        }
    )


def iter_json(
    report: StatusReport,
    *,
    applied: Sequence[ToolStatus] = (),
    all_calls: bool = False,
    grouping: Grouping | None = None,
) -> Iterator[str]:
    """The JSON report in pieces, written as it goes (replayed calls one line each)."""
    yield from iter_dump(
        report_doc(report, applied=applied, all_calls=all_calls, grouping=grouping)
    )
    yield "\n"


def to_json(
    report: StatusReport,
    *,
    applied: Sequence[ToolStatus] = (),
    all_calls: bool = False,
    grouping: Grouping | None = None,
) -> str:
    return "".join(iter_json(report, applied=applied, all_calls=all_calls, grouping=grouping))


def groups_text(
    report: StatusReport, grouping: Grouping, *, applied: Sequence[ToolStatus] = ()
) -> str:
    """``status --groups`` as text: the decisions in the order to visit them (formats/kinds.py),
    then the summary and the verdict as ``status`` says them."""

    out: list[str] = []
    head_line = candidate_line(report)
    if head_line:
        out.append(head_line)
    for s in report.servers:
        if s.error:
            out.append(f"server {safe_text(s.name)}  {unreachable_words(s.error)}")
    for s in report.servers:
        i = s.instructions
        if i is not None and i.needs_attention:
            from mcp_review.formats import instructions as instr_fmt

            out.append(
                f"[{_MARK[i.policy.outcome]}] {instr_fmt.label(i)}: server instructions "
                "(decided on their own: mcp-review approve SERVER --instructions)"
            )
        # Prompts, resources and templates are in the grouping's order (engine/kinds.py).
    out.extend(text_lines(grouping, also=" --candidate" if report.candidates else ""))
    out.append("")
    out.extend(_summary_lines(report, applied))
    return "\n".join(out) + "\n"


def unreachable_words(error: dict[str, Any] | None) -> str:
    """How every text report words a server it could not read (``status`` and ``check`` the
    same): ``UNREACHABLE  refused: connection refused``."""
    e = error or {}
    return (
        f"UNREACHABLE  {safe_text(str(e.get('kind') or 'error'))}: "
        f"{safe_text(str(e.get('message') or ''))}"
    )


def unreachable_summary(n: int) -> str:
    """The summary's words for ``n`` unreachable servers (``status`` and ``check`` the same)."""
    return f"{n} server(s) unreachable (their tools were not checked)"


def call_log_notes(s: ServerStatus) -> list[str]:
    """What a server's call log held that was not replayed, in words (``status`` and ``check``
    text): lines that are not JSON, and records that name no tool."""
    c = s.calls
    if c is None:
        return []
    where = safe_text(c.path or "the call log")
    out = []
    sur = getattr(c, "surrogates", 0)
    bad = c.skipped - sur
    if bad:
        lines = [n for n in c.skipped_lines if n not in c.surrogate_lines]
        at = ", ".join(str(n) for n in lines)
        more = ", …" if bad > len(lines) else ""
        out.append(
            f"{bad} line(s) in {where} are not valid JSON and were skipped"
            + (f" (line {at}{more})" if at else "")
        )
    if sur:
        at = ", ".join(str(n) for n in c.surrogate_lines)
        more = ", …" if sur > len(c.surrogate_lines) else ""
        out.append(
            f"{sur} record(s) in {where} hold a lone surrogate escape (\\ud800-\\udfff), "
            f"which no validator reads, and were skipped (line {at}{more})"
        )
    if c.unattributed:
        out.append(f"{c.unattributed} call(s) in {where} name no tool and were not replayed")
    if getattr(c, "unrecorded", 0):
        last = f", the last at {safe_text(c.unrecorded_last)}" if c.unrecorded_last else ""
        out.append(
            f"{c.unrecorded} call(s) were forwarded by the proxy but not recorded in {where}: "
            f"it could not be written{last}; those calls cannot be replayed"
        )
    return out


_MARK = {
    Outcome.BLOCK: "BLOCK",
    Outcome.REVIEW: "REVIEW",
    Outcome.AUTO_APPROVE: "AUTO",
    Outcome.WAIVED: "WAIVED",
    Outcome.NONE: "ok",
}


def held_line(held: dict[str, Any]) -> str:
    """The line that says an enforcing proxy holds a tool (docs/proxy.md, "Hold")."""
    return (
        f"held by the proxy (pid {safe_text(str(held.get('pid')))}): serving the approved "
        f"definition {safe_text(str(held.get('pinned_digest')))} since "
        f"{safe_text(str(held.get('since')))} while {safe_text(str(held.get('live_digest')))} "
        "waits for review"
    )


def _state_label(t: ToolStatus) -> str:
    s = str(t.state)
    if t.previously_denied:
        s += " (previously denied)"
    return s


def _server_head(s: ServerStatus, verbose: bool) -> list[str]:
    """A server's heading line, why it could not be read, or its notes and the drift of its
    instructions, prompts and resources (all of them with ``verbose``)."""
    head = f"server {safe_text(s.name)}"
    if s.principal != "default":
        head += f" (principal {safe_text(s.principal)})"
    head += f"  tier={safe_text(s.tier)}"
    if s.server_version:
        head += f"  version={safe_text(s.server_version)}"
    out = [head]
    if s.error:
        out.append(f"  {unreachable_words(s.error)}")
        return out
    out.extend(f"  note: {safe_text(n)}" for n in s.notes)
    i = s.instructions
    if i is not None and (i.state != "pinned" or verbose):
        from mcp_review.formats import instructions as instr_fmt

        out.append(f"  [{_MARK[i.policy.outcome]}] {instr_fmt.label(i)}: server instructions")
        out.extend(f"      - {safe_text(r)}" for r in i.policy.reasons)
        out.extend(instr_fmt.diff_lines(i))
    for x in s.surfaces:
        if x.state != "pinned" or verbose:
            from mcp_review.formats import surfaces as surf_fmt

            out.append(f"  [{_MARK[x.policy.outcome]}] {x.state}: {surf_fmt.who(x)}")
            out.extend(f"      - {safe_text(r)}" for r in x.policy.reasons)
            out.extend(surf_fmt.text_lines(x, False)[1:])
    return out


def _own_change_lines(t: ToolStatus, grouped: set[tuple[str, str, str, ChangeKey]]) -> list[str]:
    """A tool's changes that no other listed tool shares (those are only counted here, and
    listed once after the tools), each with its message, note and settlement."""
    cmp = t.comparison
    if cmp is None:
        return []
    out: list[str] = []
    own = [c for c in cmp.changes if (t.server, t.principal, t.tool, change_key(c)) not in grouped]
    if len(own) < len(cmp.changes):
        out.append(
            f"      {len(cmp.changes) - len(own)} change(s) shared with "
            "other tools: see 'same change on several tools' below"
        )
    for c in own:
        out.append(f"      {c.cls.value}: {c.rule} {safe_text(c.pointer)}{waived_label(t, c)}")
        out.append(f"          {safe_text(render_change(c))}")
        if c.note:
            out.append(f"          {safe_text(c.note)}")
        if c.settle:
            out.append(f"          settle: {safe_text(c.settle)}")
    return out


def _replay_summary(t: ToolStatus, all_calls: bool) -> list[str]:
    """What replaying the tool's recorded calls against the live schema showed, and the calls."""
    r = t.comparison.replay if t.comparison is not None else None
    if r is None:
        return []
    out = [
        f"      replay: {r.total} recorded call(s), {r.broken} broken"
        + (
            f", {r.bad_recordings} bad recording(s) (invalid under the pinned schema too)"
            if r.bad_recordings
            else ""
        )
        + (f", {r.ignored} sending an argument now ignored" if r.ignored else "")
    ]
    out.extend(replay_lines(r, all_calls=all_calls, indent="      ", header=False))
    return out


def _tool_text(
    t: ToolStatus,
    grouped: set[tuple[str, str, str, ChangeKey]],
    applied_keys: set[tuple[str, str, str]],
    all_calls: bool,
) -> list[str]:
    """One listed tool: its mark (RE-PINNED when --apply just wrote it), reasons, proxy hold,
    notes, protocol findings, own changes, cues and replayed calls."""
    mark = _MARK[t.policy.outcome]
    if t.key in applied_keys:
        mark = "RE-PINNED"
    out = [
        f"  [{mark}] {_state_label(t)}: " + with_escape(safe_text(mark_lookalikes(t.tool)), t.tool)
    ]
    for r in t.policy.reasons:
        out.append(f"      - {safe_text(r)}")
    if t.held_by_proxy is not None:
        out.append(f"      {held_line(t.held_by_proxy)}")
    for n in t.notes:
        out.append(f"      note: {safe_text(n)}")
    out.extend(f"      {safe_text(f.line())}" for f in t.protocol)
    out.extend(_own_change_lines(t, grouped))
    out.extend(cue_lines(t))
    out.extend(_replay_summary(t, all_calls))
    return out


def _shared_text(groups: list[SharedChange]) -> list[str]:
    """The changes several listed tools of a server share, each once with the tools it is on."""
    out: list[str] = []
    if groups:
        out.append("  same change on several tools:")
    for g in groups:
        c = g.change
        out.append(f"      {c.cls.value}: {c.rule} {safe_text(c.pointer)}")
        out.append(f"          {safe_text(c.message)}")
        if c.note:
            out.append(f"          {safe_text(c.note)}")
        if c.settle:
            out.append(f"          settle: {safe_text(c.settle)}")
        out.append(
            f"          on {len(g.tools)} tools: "
            + ", ".join(with_escape(safe_text(mark_lookalikes(n)), n) for n in g.tools)
        )
    return out


def to_text(
    report: StatusReport,
    *,
    applied: Sequence[ToolStatus] = (),
    verbose: bool = False,
    all_calls: bool = False,
) -> str:
    out: list[str] = []
    head_line = candidate_line(report)
    if head_line:
        out.append(head_line)
    by_server: dict[tuple[str, str], list[ToolStatus]] = {}
    for t in report.tools:
        by_server.setdefault((t.server, t.principal), []).append(t)
    applied_keys = {t.key for t in applied}
    # Each server's tools in the order of review by kind (formats/kinds.py).
    order = tool_order(group_report(report))
    for s in report.servers:
        out.extend(_server_head(s, verbose))
        if s.error:
            continue
        tools = sorted(by_server.get((s.name, s.principal), []), key=order)
        quiet = sum(1 for t in tools if t.state is State.PINNED and not verbose)
        # A change several listed tools share is listed once, after them.
        groups = shared_changes(t for t in tools if verbose or t.state is not State.PINNED)
        grouped = shared_keys(groups)
        for t in tools:
            if t.state is State.PINNED and not verbose:
                continue
            out.extend(_tool_text(t, grouped, applied_keys, all_calls))
        out.extend(_shared_text(groups))
        if quiet:
            out.append(f"  {quiet} tool(s) pinned and unchanged")
        out.extend(f"  note: {n}" for n in call_log_notes(s))
    out.append("")
    out.extend(_summary_lines(report, applied))
    return "\n".join(out) + "\n"


def _summary_lines(report: StatusReport, applied: Sequence[ToolStatus]) -> list[str]:
    out: list[str] = []
    c = report.counts()
    out.append(
        "summary: "
        + ", ".join(f"{c[str(k)]} {k}" for k in State)
        + f"  |  {c['auto-approve']} auto-approve, {c['review']} review, {c['block']} block"
        + (f", {c['waived']} waived" if c.get("waived") else "")
    )
    if report.unreachable:
        out.append(unreachable_summary(len(report.unreachable)))
    if applied:
        out.append(f"re-pinned {len(applied)} tool(s) by policy (logged in the audit log)")
    elif report.auto_approvals:
        out.append(
            "auto-approvable changes are not written by `status`; "
            "run `mcp-review status --apply` to re-pin them"
        )
    out.append(f"status verdict: {verdict_word(report.exit_code())}")
    return out


summary_lines = _summary_lines
"""The summary and the verdict as every ``status`` text says them (formats/status_brief.py)."""
