"""Reports for `mcp-review check`: text (terminal), JSON (stable), Markdown (CI job summary), SARIF.

The gate is decided once by the engine (``StatusReport.gate``, engine/status.py), and every
format shows its answers, so every format agrees:

- ``--fail-on review`` (default): any tool that needs review or is blocked (as ``status``);
- ``--fail-on breaking``: only broken tools (a breaking change or a broken recorded call),
  approved tools no longer served, and blocked tools (an annotation claiming more or less
  power, hidden characters: security findings are never waved through);
- ``--fail-on any``: any drift at all, auto-approvable changes and new tools included.

Exit code: 1 when anything fails, else 3 when a server could not be read, else 0.

JSON (``"format": "mcp-review-check"``, ``version`` 2; additions only within a version;
docs/formats.md)::

    {"format", "version", "verdict": "PASS"|"FAIL"|"UNREACHABLE", "exit_code", "fail_on",
     "candidate": ["time"],   // servers whose candidate was reviewed (--candidate); [] if none
     "counts": {state/outcome: n},
     "servers": [{"server", "principal", "tier", "tools": n | null, "server_version",
                  "protocol_version", "error": null | {"kind", "message"},
                  "candidate": bool}],
     "tools": [{"fails_gate": bool, ... every key of a `status` tool entry
                (formats/status.py: server, principal, tool, status, previously_denied,
                policy, decision, pinned_digest, live_digest, decided_at, decided_by, note,
                calls_recorded, notes, shadows, comparison)}],
     "instructions": [{"fails_gate": bool, "subject": "instructions", "server", "principal",
                       "status", "previously_denied", "policy", "decision", "pinned_digest",
                       "live_digest", "pinned", "live", "hidden_appeared"}]}
                                          # only when a server's instructions are not pinned

Version 2: a comparison's ``replay.calls`` lists broken calls and bad recordings, counting the
rest (``--all-calls``: every call); version 1 listed every call. Written as it goes.

``tools`` lists every tool that is not simply pinned. Server-supplied strings pass through the
one sanitiser, ``hidden.safe_text`` (hidden characters and line breaks as tokens): as is in
text, Markdown-escaped on top (``md_text``: the minimum, so it reads as written; HTML-escaped
only, ``md_html_text``, inside a ``<summary>``) in Markdown, with SARIF's link and placeholder
syntax escaped (``sarif_text``) in SARIF messages. JSON keeps them exactly, as ``\\u`` escapes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, assert_never

from mcp_review.engine.cues import severity
from mcp_review.engine.hidden import (
    json_dumps_safe,
    mark_lookalikes,
    md_html_text,
    md_text,
    safe_text,
    sarif_text,
)
from mcp_review.engine.hosts import effect_words, host_rule
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
from mcp_review.engine.snapshot import version_label
from mcp_review.engine.status import Gate, State, StatusReport, ToolStatus
from mcp_review.engine.verdict import verdict_word
from mcp_review.formats import instructions as instr_fmt
from mcp_review.formats import surfaces as surf_fmt
from mcp_review.formats.compare import replay_lines, show_value
from mcp_review.formats.jsonstream import Doc, DocList, iter_dump, plain
from mcp_review.formats.kinds import CUES_LISTED, markdown_lines, tool_order
from mcp_review.formats.output import CHECK, OutputFormat, choices
from mcp_review.formats.status import (
    call_log_notes,
    candidate_line,
    cue_lines,
    tool_json,
    unreachable_summary,
    unreachable_words,
    waived_label,
)

if TYPE_CHECKING:
    from mcp_review.engine.model import Change
    from mcp_review.engine.waivers import WaiverUse

FORMAT = "mcp-review-check"
VERSION = 2
FORMATS = choices(CHECK)


def _shown(report: StatusReport) -> list[ToolStatus]:
    return [t for t in report.tools if t.state is not State.PINNED]


def _visited(report: StatusReport) -> tuple[list[ToolStatus], Grouping]:
    """The tools text and Markdown list, in the order of review by kind (formats/kinds.py:
    alone and blocked first, then alone with cues, then groups by size), and the grouping."""
    grouping = group_report(report)
    return sorted(_shown(report), key=tool_order(grouping)), grouping


def _tool_counts(report: StatusReport) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in report.tools:
        out[t.server] = out.get(t.server, 0) + (t.state is not State.REMOVED)
    return out


# --- JSON ------------------------------------------------------------------------------------


def report_json(report: StatusReport, fail_on: str, *, all_calls: bool = False) -> dict[str, Any]:
    doc: dict[str, Any] = plain(report_doc(report, fail_on, all_calls=all_calls))
    return doc


def _tool_entry(t: ToolStatus, gate: Gate, all_calls: bool) -> dict[str, Any]:
    d = tool_json(t, all_calls=all_calls)
    d["fails_gate"] = gate.fails(t)
    return d


def report_doc(report: StatusReport, fail_on: str, *, all_calls: bool = False) -> Doc:
    gate = report.gate(fail_on)  # decided once; each entry shows its answer
    counts = _tool_counts(report)
    instr = gate.drifted_instructions
    extra: dict[str, Any] = {}
    if instr:  # present when any server's instructions are not simply pinned
        extra["instructions"] = [
            instr_fmt.json_entry(i, fails_gate=gate.instructions_fail(i)) for i in instr
        ]
    if gate.drifted_surfaces:  # present when any prompt, resource or template is not pinned
        extra["surfaces"] = [
            surf_fmt.json_entry(x, fails_gate=gate.surface_fails(x)) for x in gate.drifted_surfaces
        ]
    # The decisions in the engine's visiting order, as status --groups gives them:
    # ``decisions``, ``groups``, ``alone``.
    extra.update(group_report(report).to_json())
    return Doc(
        {
            "format": FORMAT,
            "version": VERSION,
            "verdict": verdict_word(gate.exit_code),
            "exit_code": gate.exit_code,
            "fail_on": fail_on,
            "candidate": list(report.candidates),
            "counts": report.counts(),
            **({"waivers": [u.to_json() for u in report.waivers]} if report.waivers else {}),
            **({"hosts": report.hosts.to_json()} if report.hosts is not None else {}),
            "servers": [
                {
                    "server": s.name,
                    "principal": s.principal,
                    "tier": s.tier,
                    "tools": None if s.error else counts.get(s.name, 0),
                    "server_version": s.server_version,
                    "protocol_version": s.protocol_version,
                    "error": s.error,
                    "candidate": s.candidate,
                    "notes": list(s.notes),
                }
                for s in report.servers
            ],
            **extra,
            "tools": DocList(_tool_entry(t, gate, all_calls) for t in _shown(report)),
        }
    )


def iter_json(report: StatusReport, fail_on: str, *, all_calls: bool = False) -> Iterator[str]:
    """The JSON report in pieces, written as it goes (replayed calls one line each)."""
    yield from iter_dump(report_doc(report, fail_on, all_calls=all_calls))
    yield "\n"


def to_json(report: StatusReport, fail_on: str, *, all_calls: bool = False) -> str:
    return "".join(iter_json(report, fail_on, all_calls=all_calls))


# --- text ------------------------------------------------------------------------------------

_LABEL = {
    State.NEW: "NEW",
    State.CHANGED: "CHANGED",
    State.BROKEN: "BROKEN",
    State.REMOVED: "REMOVED",
    State.DENIED: "DENIED",
    State.PINNED: "PINNED",
}


def _id(t: ToolStatus) -> str:
    p = "" if t.principal == "default" else f"[{safe_text(t.principal)}]"
    name = safe_text(mark_lookalikes(t.tool)) if t.shadows else safe_text(t.tool)
    # A name with letters nobody can type comes with the form `approve`/`deny` accept.
    return with_escape(f"{safe_text(t.server)}{p}/{name}", t.tool)


def _summary(report: StatusReport, gate: Gate) -> str:
    c = report.counts()
    parts = [
        f"{c[s]} {s}"
        for s in ("pinned", "new", "changed", "broken", "removed", "denied")
        if c.get(s)
    ]
    if gate.n_failing:
        parts.append(f"{gate.n_failing} failing the gate (--fail-on {gate.fail_on})")
    if report.unreachable:
        parts.append(unreachable_summary(len(report.unreachable)))
    return ", ".join(parts) or "no tools"


_Grouped = set[tuple[str, str, str, ChangeKey]]
"""(server, principal, tool, change key) of every change listed once as shared."""


def _text_servers(report: StatusReport) -> list[str]:
    """The head of the text report: the candidate line, which hosts were judged and each
    server's line (reachable or why not, with its notes)."""
    out: list[str] = []
    counts = _tool_counts(report)
    width = max((len(safe_text(s.name)) for s in report.servers), default=6)
    head = candidate_line(report)
    if head:
        out.append(head)
    if report.hosts is not None and report.hosts.names:
        # Which hosts were judged, and where each came from: said in the report
        # itself, not only on stderr (a `-q` run in CI).
        origin = report.hosts.origin
        out.append(
            "hosts judged: "
            + "; ".join(f"{n} ({safe_text(origin.get(n, '?'))})" for n in report.hosts.names)
        )
    out.append("servers:")
    for s in report.servers:
        name = safe_text(s.name).ljust(width)
        if s.error:
            out.append(f"  {name}  {unreachable_words(s.error)}")
        else:
            ver = f"  {safe_text(version_label(s.server_version))}" if s.server_version else ""
            out.append(
                f"  {name}  ok  {counts.get(s.name, 0)} tools  "
                f"{safe_text(s.protocol_version or '?')}  tier {safe_text(s.tier)}{ver}"
            )
            out.extend(f"  {' ' * len(name)}  note: {safe_text(n)}" for n in s.notes)
            out.extend(f"  {' ' * len(name)}  note: {n}" for n in call_log_notes(s))
    return out


def _text_instructions(gate: Gate) -> list[str]:
    """The servers whose instructions drifted, each with its outcome and diff."""
    out: list[str] = []
    instr = gate.drifted_instructions
    if instr:
        out.append("")
        out.append("server instructions:")
    for i in instr:
        mark = "✗" if gate.instructions_fail(i) else " "
        why = "; ".join(safe_text(r) for r in i.policy.reasons)
        oc = instr_fmt.outcome(i)
        out.append(
            f" {mark} {i.state.upper():8} {instr_fmt.who(i)}"
            + (" (previously denied)" if i.previously_denied else "")
            + (f"  [{oc}]" if oc else "")
            + (f"  {why}" if why else "")
        )
        out.extend(instr_fmt.diff_lines(i))
    return out


def _text_changes(t: ToolStatus, grouped: _Grouped, max_changes: int) -> list[str]:
    """A tool's own changes (the first ``max_changes``), each with its witness, note and
    settlement; the changes it shares with other tools are only counted here."""
    out: list[str] = []
    cmp = t.comparison
    if cmp is None:
        return out
    # A change this tool shares with others of its server is listed once, below.
    changes = [
        ch for ch in cmp.changes if (t.server, t.principal, t.tool, change_key(ch)) not in grouped
    ]
    shared = len(cmp.changes) - len(changes)
    if shared:
        out.append(
            f"      {shared} change(s) shared with other tools: see 'same "
            "change on several tools' below"
        )
    for ch in changes[:max_changes]:
        out.append(
            f"      {ch.cls!s:21} {ch.rule}  {safe_text(ch.pointer)}: "
            f"{safe_text(render_change(ch))}{waived_label(t, ch)}"
        )
        if ch.has_witness and not cmp.broken_calls:
            # No recorded call shows the break: the generated one is the evidence.
            what, rejected = ch.witness_wording
            out.append(
                f"        witness {what}: "
                f"{show_value(ch.witness, 160)} -> {rejected}"
                + (f": {safe_text(ch.witness_error)[:200]}" if ch.witness_error else "")
            )
        if ch.note:
            # Why a breaking change has no witness, what a replayed call showed…
            out.append(
                f"        note: {'promoted to breaking: ' if ch.promoted else ''}"
                f"{safe_text(ch.note)}"
            )
        if ch.settle:
            out.append(f"        settle: {safe_text(ch.settle)}")
    if len(changes) > max_changes:
        out.append(f"      … and {len(changes) - max_changes} more changes")
    return out


def _text_calls(t: ToolStatus, all_calls: bool) -> list[str]:
    """What replaying a tool's recorded calls showed: how many break, prove nothing or send an
    argument now ignored, then the calls themselves."""
    out: list[str] = []
    cmp = t.comparison
    if cmp is None:
        return out
    if cmp.broken_calls:
        out.append(f"      {cmp.broken_calls} recorded call(s) would now fail")
    if cmp.replay is not None and cmp.replay.bad_recordings:
        out.append(
            f"      {cmp.replay.bad_recordings} bad recording(s): invalid under "
            "the pinned schema too, so they prove nothing either way"
        )
    if cmp.ignored_calls:
        out.append(
            f"      {cmp.ignored_calls} recorded call(s) send an argument the server now ignores"
        )
    elif cmp.schema_only_split and cmp.replay is not None:  # the split implies a replay
        out.append(f"      breaking by schema, 0 of {cmp.replay.total} recorded calls touched")
    r = cmp.replay
    if r is not None and (r.broken or r.bad_recordings or all_calls):
        # The calls themselves: the first 20 of each kind (every call with --all-calls).
        out.extend(replay_lines(r, all_calls=all_calls, indent="    ", header=False))
    return out


def _text_tool(
    t: ToolStatus,
    gate: Gate,
    grouped: _Grouped,
    max_changes: int,
    all_calls: bool,
) -> list[str]:
    """One tool of the text report: its line (gate mark, state, outcome, reasons), then its
    changes, cues, recorded calls, notes and protocol findings."""
    mark = "✗" if gate.fails(t) else " "
    prev = " (previously denied)" if t.previously_denied else ""
    why = "; ".join(safe_text(r) for r in t.policy.reasons)
    outcome = str(t.policy.outcome) if t.policy.outcome is not Outcome.NONE else ""
    out = [
        f" {mark} {_LABEL[t.state]:8} {_id(t)}{prev}"
        + (f"  [{outcome}]" if outcome else "")
        + (f"  {why}" if why else "")
    ]
    out.extend(_text_changes(t, grouped, max_changes))
    out.extend(cue_lines(t))
    out.extend(_text_calls(t, all_calls))
    for n in t.notes:
        out.append(f"      note: {safe_text(n)}")
    out.extend(f"      {safe_text(f.line())}" for f in t.protocol)
    return out


def _text_shared(groups: list[SharedChange]) -> list[str]:
    """The changes several tools of a server share, each listed once with the tools it is on."""
    out: list[str] = []
    if groups:
        out.append("")
        out.append("same change on several tools:")
    for g in groups:
        ch = g.change
        p = "" if g.principal == "default" else f"[{safe_text(g.principal)}]"
        out.append(
            f"  {safe_text(g.server)}{p}  {ch.cls!s:21} {ch.rule}  {safe_text(ch.pointer)}: "
            f"{safe_text(render_change(ch))}"
        )
        if ch.settle:
            out.append(f"      settle: {safe_text(ch.settle)}")
        out.append(
            f"      on {len(g.tools)} tools: "
            + ", ".join(with_escape(safe_text(mark_lookalikes(n)), n) for n in g.tools)
        )
    return out


def _text_waivers(report: StatusReport) -> list[str]:
    """The ``[[ignore]]`` waivers of the config and what became of each."""
    out: list[str] = []
    if report.waivers:
        out.append("")
        out.append("waivers ([[ignore]] in the config):")
        for u in report.waivers:
            w = u.waiver
            out.append(
                f"  {u.state:9} {safe_text(w.server)}/{safe_text(w.tool)} {w.rule}"
                f" (line {w.line}): {safe_text(u.message)}"
            )
    return out


def to_text(
    report: StatusReport, fail_on: str, *, max_changes: int = 8, all_calls: bool = False
) -> str:
    gate = report.gate(fail_on)
    out = _text_servers(report)
    out.extend(_text_instructions(gate))
    if gate.drifted_surfaces:
        out += ["", "prompts, resources and resource templates:"]
        for x in gate.drifted_surfaces:
            out.extend(surf_fmt.text_lines(x, gate.surface_fails(x)))
    shown, _grouping = _visited(report)
    groups = shared_changes(shown)
    grouped = shared_keys(groups)
    if shown:
        out.append("")
        out.append("tools:")
    for t in shown:
        out.extend(_text_tool(t, gate, grouped, max_changes, all_calls))
    out.extend(_text_shared(groups))
    out.extend(_text_waivers(report))
    out.append("")
    out.append(f"{verdict_word(gate.exit_code)}: {_summary(report, gate)}")
    return "\n".join(out) + "\n"


# --- Markdown (GitHub job summary) -----------------------------------------------------------


def _md(s: object) -> str:
    return md_text(s)


def _md_head(report: StatusReport, gate: Gate) -> list[str]:
    """The top of the job summary: verdict, summary, the candidate line, which hosts were
    judged, and the table of servers."""
    v = verdict_word(gate.exit_code)
    icon = {"PASS": "✅", "FAIL": "❌", "UNREACHABLE": "⚠️"}[v]
    out = [f"## {icon} mcp-review check: {v}", "", _md(_summary(report, gate)), ""]
    head = candidate_line(report, _md)
    if head:  # a preview pasted into a pull request must not read as a live failure
        out = [f"**{head}**", "", *out]
    if report.hosts is not None and report.hosts.names:
        origin = report.hosts.origin
        judged = "; ".join(f"{n} ({origin.get(n, '?')})" for n in report.hosts.names)
        out += [_md(f"hosts judged: {judged}"), ""]
    counts = _tool_counts(report)
    out += ["| server | status | tools | protocol | tier |", "|---|---|---|---|---|"]
    for s in report.servers:
        if s.error:
            status = f"**unreachable** ({_md(s.error.get('kind', ''))}): {_md(s.error.get('message', ''))}"
            out.append(f"| {_md(s.name)} | {status} | | | {_md(s.tier)} |")
        else:
            out.append(
                f"| {_md(s.name)} | ok | {counts.get(s.name, 0)} | "
                f"{_md(s.protocol_version or '?')} | {_md(s.tier)} |"
            )
    return out


def _own_changes(t: ToolStatus, grouped: _Grouped) -> list[Any]:
    """The tool's changes not shared with other tools of its server."""
    return [
        ch
        for ch in (t.comparison.changes if t.comparison is not None else [])
        if (t.server, t.principal, t.tool, change_key(ch)) not in grouped
    ]


def _md_shared(groups: list[SharedChange]) -> list[str]:
    """The table of changes several tools of a server share, each once with its tools."""
    if not groups:
        return []
    out = [
        "",
        "Same change on several tools:",
        "",
        "| server | class | rule | where | what | tools |",
        "|---|---|---|---|---|---|",
    ]
    for g in groups:
        out.append(
            f"| {_md(g.server)} | {g.change.cls} | {g.change.rule} | "
            f"{_md(g.change.pointer)} | {_md(render_change(g.change))}"
            + (f"<br>settle: {_md(g.change.settle)}" if g.change.settle else "")
            + " | "
            f"{len(g.tools)}: {', '.join(_md(n) for n in g.tools)} |"
        )
    return out


def _md_change_row(t: ToolStatus, ch: Any) -> str:
    """One change of a tool's details: what changed, with its witness, note, settlement and
    the waiver that covers it."""
    what = _md(render_change(ch))
    if ch.has_witness:
        kind, rejected = ch.witness_wording
        what += f"<br>witness {_md(kind)}: {_md(show_value(ch.witness, 160))}: {_md(rejected)}"
    if ch.note:
        what += f"<br>note: {_md(ch.note)}"
    if ch.settle:
        what += f"<br>settle: {_md(ch.settle)}"
    u = t.waived.get((ch.rule, ch.pointer))
    if u is not None:
        what += f"<br>**waived** until {u.waiver.until.isoformat()}: {_md(u.waiver.reason)}"
    return f"| {ch.cls} | {ch.rule} | {_md(ch.pointer)} | {what} |"


def _md_details(t: ToolStatus, changes: list[Any]) -> list[str]:
    """A tool's folded details: its own changes, protocol findings and cues, one row each."""
    what_n = [f"{len(changes)} change(s)"] if changes else []
    if t.protocol:
        what_n.append(f"{len(t.protocol)} protocol finding(s)")
    if t.cues:
        what_n.append(f"{len(t.cues)} cue(s)")
    out = [
        "",
        # An HTML block: Markdown is not parsed in it, so HTML quoting only.
        f"<details><summary>{md_html_text(t.server)}/{md_html_text(t.tool)}: "
        f"{', '.join(what_n)}</summary>",
        "",
        "| class | rule | where | what |",
        "|---|---|---|---|",
    ]
    out += [_md_change_row(t, ch) for ch in changes[:50]]
    # Where the definition, read as sent, breaks the MCP schema (engine/protocol.py).
    out += [f"| protocol | {f.rule} | {_md(f.pointer)} | {_md(f.message)} |" for f in t.protocol]
    # What the live text asks of the model, most severe first.
    cues = sorted(t.cues, key=lambda c: (severity(c), c.pointer, c.rule))
    out += [
        f"| cue: {c.kind} | {c.rule} | {_md(c.pointer)} | {_md(c.text)} |"
        for c in cues[:CUES_LISTED]
    ]
    out += ["", "</details>"]
    return out


def _md_drift(gate: Gate, shown: list[ToolStatus]) -> list[str]:
    """The table of everything that drifted (instructions, surfaces, tools), then the shared
    changes and each tool's details."""
    instr = gate.drifted_instructions
    if not (shown or instr or gate.drifted_surfaces):
        return []
    out = ["", "| | tool | status | outcome | why |", "|---|---|---|---|---|"]
    for i in instr:
        out.append(instr_fmt.md_row(i, "❌" if gate.instructions_fail(i) else ""))
    for x in gate.drifted_surfaces:
        out.append(surf_fmt.md_row(x, "❌" if gate.surface_fails(x) else ""))
    for t in shown:
        mark = "❌" if gate.fails(t) else ""
        why = "; ".join(_md(r) for r in t.policy.reasons)
        out.append(
            f"| {mark} | {_md(t.server)}/{_md(t.tool)} | {t.state} | {t.policy.outcome} | {why} |"
        )
    groups = shared_changes(shown)
    grouped = shared_keys(groups)
    out += _md_shared(groups)
    for t in shown:
        changes = _own_changes(t, grouped)
        if changes or t.protocol or t.cues:
            out += _md_details(t, changes)
    return out


def _md_waivers(report: StatusReport) -> list[str]:
    """The table of the config's ``[[ignore]]`` waivers and what became of each."""
    if not report.waivers:
        return []
    out = [
        "",
        "### Waivers",
        "",
        "| state | tool | rule | until | reason | what |",
        "|---|---|---|---|---|---|",
    ]
    for u in report.waivers:
        w = u.waiver
        out.append(
            f"| {u.state} | {_md(w.server)}/{_md(w.tool)} | {w.rule} | "
            f"{w.until.isoformat()} | {_md(w.reason)} | {_md(u.message)} |"
        )
    return out


def to_markdown(report: StatusReport, fail_on: str) -> str:
    gate = report.gate(fail_on)
    out = _md_head(report, gate)
    shown, grouping = _visited(report)
    decided = markdown_lines(grouping)
    if decided:
        # The decisions the drift needs, by kind: one per group, one per tool alone.
        out += ["", *decided]
    out += _md_drift(gate, shown)
    out += _md_waivers(report)
    return "\n".join(out) + "\n"


# --- SARIF 2.1.0 (code scanning) -------------------------------------------------------------


_SARIF_HELP = {
    "tool-new": "A tool never approved: review its definition and approve or deny it "
    "(mcp-review approve SERVER TOOL).",
    "tool-changed": "The tool's definition changed since it was approved, with no change the "
    "engine could name: review it (mcp-review diff SERVER TOOL).",
    "tool-broken": "Recorded calls would now fail: the server narrowed what it accepts.",
    "tool-removed": "An approved tool is no longer served: clients calling it will fail.",
    "tool-denied": "A denied tool is still served (withheld by the proxy).",
    "instructions-new": "The server sends instructions never approved (text the model reads).",
    "instructions-changed": "The server's instructions changed since they were approved.",
    "instructions-removed": "Approved server instructions are no longer sent.",
    "instructions-denied": "Denied server instructions are still sent.",
}
"""Help for the rule ids that are not change rules (engine/rules) or protocol rules."""


def _sarif_rule(rule_id: str) -> dict[str, Any]:
    """A ``reportingDescriptor``: the rule's purpose and help, from the engine's registries."""
    from mcp_review.engine.protocol import RULES as PROTOCOL
    from mcp_review.engine.rules import RULES

    r = RULES.get(rule_id)
    if r is not None:
        short = r.purpose
        help_text = f"{r.purpose} (class {r.cls}, {r.family} rules; mcp-review diff shows it)."
    elif rule_id in PROTOCOL:
        short = PROTOCOL[rule_id]
        help_text = f"{short}: the definition breaks the MCP schema (docs/formats.md)."
    elif (found := host_rule(rule_id)) is not None:
        profile, hr = found
        short = f"{profile.label}: {hr.message}"
        help_text = (
            f"{short} (effect {hr.effect}, scope {hr.scope}, {hr.confidence}; profile as of "
            f"{profile.as_of}; sources: {', '.join(hr.sources or profile.sources)})."
        )
    elif rule_id in _SARIF_HELP:
        short = help_text = _SARIF_HELP[rule_id]
    elif rule_id in surf_fmt.SARIF_HELP:
        short = help_text = surf_fmt.SARIF_HELP[rule_id]
    elif rule_id.startswith("server-"):
        short = help_text = "A server could not be read: its tools were not checked."
    else:
        short = help_text = rule_id
    return {
        "id": rule_id,
        "shortDescription": {"text": short},
        "help": {"text": help_text},
    }


def _worst_rule(t: ToolStatus) -> str:
    """The rule a tool's result is filed under: its most severe change's (breaking first; in a
    class, a change a cue points into before the others, so a rug pull is not filed under the
    honest annotation change beside it), else its state (``tool-new``, ``tool-removed`` ...)."""
    from mcp_review.engine.model import CLASS_ORDER

    changes = t.comparison.changes if t.comparison is not None else []
    if changes:
        cued = [c.pointer for c in sorted(t.cues, key=lambda c: (severity(c), c.pointer, c.rule))]

        def cue_rank(ch: Change) -> int:
            at = [
                i for i, p in enumerate(cued) if p == ch.pointer or p.startswith(ch.pointer + "/")
            ]
            return at[0] if at else len(cued)

        worst: str = min(changes, key=lambda c: (CLASS_ORDER[c.cls], cue_rank(c), c.rule)).rule
        return worst
    return f"tool-{t.state}"


_Where = Callable[[str, str, str, str], list[dict[str, Any]]]
"""Where a SARIF result points: ``(server, logical name, short name, kind) -> locations``."""


def _prints(*parts: str) -> dict[str, str]:
    """Partial fingerprints from the parts that name a finding, so an alert stays one alert."""
    return {"mcpReview/v2": "/".join(parts)}


def _locator(config_path: str | None, lines: Mapping[str, int]) -> _Where:
    """The ``where`` of every result: the logical location, plus the config file (and the line of
    the server's table) as physical location when the config is known."""

    def where(server: str, logical: str, name: str, kind: str) -> list[dict[str, Any]]:
        loc: dict[str, Any] = {
            "logicalLocations": [{"name": name, "fullyQualifiedName": logical, "kind": kind}]
        }
        if config_path:
            phys: dict[str, Any] = {"artifactLocation": {"uri": config_path}}
            if server in lines:
                phys["region"] = {"startLine": lines[server]}
            loc["physicalLocation"] = phys
        return [loc]

    return where


def _unreachable_results(report: StatusReport, where: _Where) -> list[dict[str, Any]]:
    """One warning per server that could not be read, filed under ``server-KIND``."""
    results: list[dict[str, Any]] = []
    for s in report.unreachable:
        kind = str((s.error or {}).get("kind", "unreachable"))
        # The kind comes from a snapshot file too: a rule id is ours, never the file's text.
        rule = f"server-{kind}" if re.fullmatch(r"[a-z][a-z0-9-]{0,40}", kind) else "server-error"
        results.append(
            {
                "ruleId": rule,
                "level": "warning",
                "message": {
                    "text": f"{sarif_text(s.name)}: "
                    f"{sarif_text((s.error or {}).get('message', ''))}"
                },
                "locations": where(s.name, f"{s.name}/{s.principal}", s.name, "module"),
                "partialFingerprints": _prints(s.name, s.principal, rule),
            }
        )
    return results


def _tool_result(t: ToolStatus, gate: Gate, loc: list[dict[str, Any]]) -> dict[str, Any]:
    """A tool's own result: under its worst rule, every change listed in the message, with how
    each change settles and the cues as properties, suppressed when a waiver decided it."""
    level = "error" if gate.fails(t) else "note"
    why = "; ".join(sarif_text(r) for r in t.policy.reasons) or str(t.state)
    changes = t.comparison.changes if t.comparison is not None else []
    wit = next((ch for ch in changes if ch.has_witness), None)
    if wit is not None:
        kind, rejected = wit.witness_wording
        why += f" — witness {kind}: {sarif_text(show_value(wit.witness, 160))}: {rejected}"
    listed = "".join(f"; {ch.cls} {ch.rule} at {sarif_text(ch.pointer)}" for ch in changes[:20]) + (
        f"; … and {len(changes) - 20} more" if len(changes) > 20 else ""
    )
    rule = _worst_rule(t)
    result: dict[str, Any] = {
        "ruleId": rule,
        "level": level,
        "message": {
            "text": f"{sarif_text(t.server)}/{sarif_text(t.tool)}: {t.state} — {why}{listed}"
        },
        "locations": loc,
        "partialFingerprints": _prints(t.server, t.principal, t.tool, rule),
        "properties": {"status": str(t.state)},  # the tool's status (`status`, JSON)
    }
    settle = [
        {"rule": ch.rule, "pointer": sarif_text(ch.pointer), "settle": sarif_text(ch.settle)}
        for ch in (t.comparison.changes if t.comparison is not None else [])
        if ch.settle
    ]
    if settle:
        # How each potentially-breaking change of this tool would be settled.
        result.setdefault("properties", {})["settle"] = settle
    if t.cues:
        # What the live text asks of the model (the JSON's "cues", escaped).
        result["properties"]["cues"] = [
            {**c.to_json(), "text": sarif_text(c.text), "pointer": sarif_text(c.pointer)}
            for c in sorted(t.cues, key=lambda c: (severity(c), c.pointer, c.rule))[:CUES_LISTED]
        ]
    if t.policy.outcome is Outcome.WAIVED:
        result["suppressions"] = [_suppression(u) for u in t.waivers if u.state == "honoured"]
    return result


def _tool_finding_results(
    t: ToolStatus, gate: Gate, loc: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The results beside a tool's own: each waived change (suppressed), each host finding and
    each protocol finding on its own, so each has its own rule and alert."""
    results: list[dict[str, Any]] = []
    for u in t.waivers:
        if u.state != "honoured":
            continue
        # Each waived change on its own, suppressed with the waiver's reason.
        results.append(
            {
                "ruleId": u.waiver.rule,
                "level": "note",
                "message": {
                    "text": f"{sarif_text(t.server)}/{sarif_text(t.tool)}: "
                    f"{u.waiver.rule} at "
                    f"{', '.join(sarif_text(p) for p in u.pointers)}"
                },
                "locations": loc,
                "partialFingerprints": _prints(
                    t.server, t.principal, t.tool, u.waiver.rule, *u.pointers
                ),
                "suppressions": [_suppression(u)],
            }
        )
    for hf in t.hosts or ():  # what a target host refuses, drops, degrades or cuts
        results.append(
            {
                "ruleId": hf.rule,
                "level": "error" if gate.fails(t) and hf.refuses else "note",
                "message": {
                    "text": f"{sarif_text(t.server)}/{sarif_text(t.tool)}: "
                    f"{effect_words(hf.profile, hf.effect)} ({hf.confidence}): "
                    f"{sarif_text(hf.message)} ({sarif_text(hf.pointer)})"
                },
                "locations": loc,
                "partialFingerprints": _prints(t.server, t.principal, t.tool, hf.rule, hf.pointer),
            }
        )
    for f in t.protocol:  # a protocol rule the definition breaks, one result each
        results.append(
            {
                "ruleId": f.rule,
                "level": "note",
                "message": {
                    "text": f"{sarif_text(t.server)}/{sarif_text(t.tool)}: "
                    f"{sarif_text(f.message)} ({f.pointer})"
                },
                "locations": loc,
                "partialFingerprints": _prints(t.server, t.principal, t.tool, f.rule, f.pointer),
            }
        )
    return results


def _instruction_results(gate: Gate, where: _Where) -> list[dict[str, Any]]:
    """One result per server whose instructions drifted from the pinned ones."""
    results: list[dict[str, Any]] = []
    for i in gate.drifted_instructions:
        why = "; ".join(sarif_text(r) for r in i.policy.reasons) or i.state
        rule = f"instructions-{i.state}"
        results.append(
            {
                "ruleId": rule,
                "level": "error" if gate.instructions_fail(i) else "note",
                "message": {
                    "text": f"{sarif_text(i.server)} (server instructions): {i.state} — {why}"
                },
                "locations": where(
                    i.server, f"{i.server}/{i.principal}/(instructions)", "(instructions)", "member"
                ),
                "partialFingerprints": _prints(i.server, i.principal, "(instructions)", rule),
            }
        )
    return results


def _sarif_log(report: StatusReport, results: list[dict[str, Any]]) -> dict[str, Any]:
    """The SARIF log around the results: each result's ``ruleIndex`` into the driver's rules,
    which are every rule a result is filed under, in order."""
    from mcp_review import __version__

    rules = sorted({r["ruleId"] for r in results})
    index = {r: n for n, r in enumerate(rules)}
    for r in results:
        r["ruleIndex"] = index[r["ruleId"]]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mcp-review",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/mcp-review/",
                        "rules": [_sarif_rule(r) for r in rules],
                    }
                },
                "results": results,
                # An upgrade preview (--candidate) says so before any result is read.
                "properties": {"candidate": list(report.candidates)},
            }
        ],
    }


def to_sarif(
    report: StatusReport,
    fail_on: str,
    *,
    config_path: str | None = None,
    config_lines: Mapping[str, int] | None = None,
) -> str:
    """SARIF 2.1.0 for code scanning: **one result per tool** (and per server instructions,
    unreachable server, protocol finding and waived change), filed under the tool's most severe
    rule, its message listing every change. Each result has the tool as logical location
    (``server/principal/tool``), the config as physical location with the line of the server's
    ``[servers.NAME]`` table when the config is TOML (``config_lines``), and partial
    fingerprints from server, principal, tool and rule, so an alert stays one alert while the
    tool fails by the same rule (docs/formats.md)."""
    gate = report.gate(fail_on)
    where = _locator(config_path, config_lines or {})
    results = _unreachable_results(report, where)
    for t in _visited(report)[0]:
        loc = where(t.server, f"{t.server}/{t.principal}/{t.tool}", t.tool, "function")
        results.append(_tool_result(t, gate, loc))
        results.extend(_tool_finding_results(t, gate, loc))
    results.extend(_instruction_results(gate, where))
    for x in gate.drifted_surfaces:
        results.append(
            surf_fmt.sarif_result(
                x, gate.surface_fails(x), text=sarif_text, where=where, prints=_prints
            )
        )
    return json_dumps_safe(_sarif_log(report, results), indent=2) + "\n"


def _suppression(u: WaiverUse) -> dict[str, Any]:
    """A SARIF suppression for an honoured ``[[ignore]]`` waiver."""
    w = u.waiver
    return {
        "kind": "external",
        "status": "accepted",
        "justification": f"{sarif_text(w.reason)} (until {w.until.isoformat()}, "
        f"mcp-review.toml [[ignore]])",
    }


def render(
    report: StatusReport,
    fmt: str,
    fail_on: str,
    *,
    config_path: str | None = None,
    all_calls: bool = False,
    config_lines: Mapping[str, int] | None = None,
) -> str:
    return "".join(
        iter_render(
            report,
            fmt,
            fail_on,
            config_path=config_path,
            all_calls=all_calls,
            config_lines=config_lines,
        )
    )


def iter_render(
    report: StatusReport,
    fmt: OutputFormat | str,
    fail_on: str,
    *,
    config_path: str | None = None,
    all_calls: bool = False,
    config_lines: Mapping[str, int] | None = None,
) -> Iterator[str]:
    """The report in ``fmt`` in pieces (JSON is written as it goes): the one dispatch on the
    format."""
    form = OutputFormat(fmt)
    match form:
        case OutputFormat.JSON:
            yield from iter_json(report, fail_on, all_calls=all_calls)
        case OutputFormat.MARKDOWN:
            yield to_markdown(report, fail_on)
        case OutputFormat.SARIF:
            yield to_sarif(report, fail_on, config_path=config_path, config_lines=config_lines)
        case OutputFormat.TEXT:
            yield to_text(report, fail_on, all_calls=all_calls)
        case _:
            assert_never(form)
