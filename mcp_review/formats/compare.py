"""Text and JSON reports for `classify` and `gate` (one tool pair).

JSON (stable; documented in the README):
``{"verdict": "PASS"|"FAIL", "tool", "old_digest", "new_digest", "changes": [{"rule", "class",
"pointer", "message", "direction", "witness"?, "witness_error"?, "promoted_by_witness"?}],
"counts": {class: n}, "replay"?: {"total", "broken", "bad_recordings", "calls": [...]},
"breaking_by_schema_only"?: bool, "cues": [{"kind", "text", "pointer", "rule"}]}``: each change
that brings in text the model reads (on the trust axis) carries the cues its text introduces as
``"cues"`` too (docs/cues.md).

Every server-supplied string goes through ``hidden.safe_text`` before it reaches the terminal, so
ANSI escapes, invisible characters and line breaks are shown as tokens, never interpreted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from mcp_review.engine.compare import Comparison
from mcp_review.engine.cues import Cue, cues_json, tool_cues
from mcp_review.engine.hidden import safe_text
from mcp_review.engine.model import ChangeClass
from mcp_review.engine.replay import KINDS, REPORT_LIMIT
from mcp_review.engine.rules import render_change
from mcp_review.engine.rules.ui import UI_RULES
from mcp_review.formats.jsonstream import Doc, Stream, iter_dump
from mcp_review.formats.replay_json import iter_entries
from mcp_review.formats.ui_diff import ui_diff_lines

_LABEL = {
    ChangeClass.BREAKING: "BREAKING",
    ChangeClass.POTENTIALLY_BREAKING: "POTENTIALLY-BREAKING",
    ChangeClass.COMPATIBLE: "COMPATIBLE",
    ChangeClass.TRUST: "TRUST",
    ChangeClass.COSMETIC: "COSMETIC",
}

MAX_SHOWN = 300


def show_value(value: Any, limit: int = MAX_SHOWN) -> str:
    """A JSON value as one visible, bounded line for the terminal."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = safe_text(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


VERSION = 2
"""JSON report version of `classify` / `gate` (docs/formats.md). 1 (no ``version`` key) listed
every replayed call; 2 lists broken calls and bad recordings, counts the rest, and every call
with ``--all-calls``."""

_KIND_LABEL = {
    "broken": ("broken call", "broken calls"),
    "bad_recording": ("bad recording", "bad recordings"),
    "ignored": ("call sending an argument now ignored", "calls sending an argument now ignored"),
}


def to_json(cmp: Comparison, *, all_calls: bool = False) -> str:
    return "".join(iter_json(cmp, all_calls=all_calls))


def comparison_doc(cmp: Comparison, *, all_calls: bool = False) -> dict[str, Any]:
    """``cmp.to_json(all_calls=...)`` with the replayed calls as a stream (jsonstream)."""
    d = cmp.to_json(replay_calls=False, all_calls=all_calls)
    if cmp.replay is None:
        return d
    d = Doc(d)
    r = cmp.replay
    calls = Stream(r.iter_json(all_calls), texts=iter_entries(r, all_calls))
    d["replay"] = Doc({**d["replay"], "calls": calls})
    return d


def iter_json(cmp: Comparison, *, all_calls: bool = False) -> Iterator[str]:
    """The JSON report in pieces, written as it goes: each listed call's entry is built,
    serialised (one line per call) and dropped before the next, so a 100,000-call replay
    never holds its report in memory. ``cmp.to_json(all_calls=...)`` and the cues the new
    definition introduces: per text change, and their union at the top level."""
    d = comparison_doc(cmp, all_calls=all_calls)
    cues = tool_cues(cmp.old.wire, cmp.new.wire) if cmp.digest_changed else []
    with_change_cues(d, cmp, cues)
    yield from iter_dump(Doc({"version": VERSION, **d, "cues": cues_json(cues)}))
    yield "\n"


def with_change_cues(d: dict[str, Any], cmp: Comparison, cues: Sequence[Cue]) -> None:
    """Give each change of ``d`` (``comparison_doc(cmp)``) that brings in text the model reads
    the cues of its own text (``"cues"``, ``[]`` when none), in place."""
    changes = list(d["changes"])
    for i, c in enumerate(cmp.changes):
        if c.trust:
            changes[i] = {**changes[i], "cues": cues_json(_of_change(cues, c.pointer, c.new_text))}
    d["changes"] = changes


def _of_change(cues: Sequence[Cue], pointer: str, new_text: Any) -> list[Cue]:
    """The cues in the text a change is about: at its pointer, under it, or in a text it
    brings in."""
    at = {pointer, *(t.pointer for t in new_text)}
    return [c for c in cues if c.pointer in at or any(c.pointer.startswith(p + "/") for p in at)]


def _call_lines(o: Any) -> Iterator[str]:
    where = f" line {o.line}" if o.line is not None else ""
    flag = ""
    if not o.valid_under_old:
        flag = " [BAD RECORDING: invalid under old]"
    elif not o.valid_under_new:
        flag = " [BROKEN]"
    elif o.ignored:
        flag = " [IGNORED: argument now ignored]"
    yield (
        f"  call#{o.index}{where} valid_under_old={o.valid_under_old} "
        f"valid_under_new={o.valid_under_new}{flag} {show_value(o.arguments, 160)}"
    )
    for at in o.ignored[:5]:
        yield f"        -> {safe_text(at)}: no longer declared; the server now ignores it"
    errs = o.old_errors if not o.valid_under_old else o.errors
    for e in errs[:5]:
        path = "$" + "".join(f".{p}" for p in e.path.split("/")[1:]) if e.path else "$"
        yield f"        -> {safe_text(path)}: {safe_text(e.message)[:MAX_SHOWN]}"
    if len(errs) > 5:
        yield f"        -> … {len(errs) - 5} more"


def replay_lines(
    r: Any,
    *,
    all_calls: bool = False,
    limit: int = REPORT_LIMIT,
    indent: str = "",
    header: bool = True,
) -> Iterator[str]:
    """A replay for the terminal: the counts, then per kind (broken calls, bad recordings) the
    first ``limit`` calls and "… and K more"; the calls valid under old and new are counted.
    ``all_calls``: every call, in log order."""
    if header:
        if getattr(r, "schema_error", None):
            yield f"{indent}replay: schema could not be compiled: {safe_text(str(r.schema_error))}"
        yield (
            f"{indent}replay: {r.total} recorded call{'s' if r.total != 1 else ''}, "
            f"{r.broken} broken, {r.bad_recordings} bad recording"
            f"{'s' if r.bad_recordings != 1 else ''}"
            + (f", {r.ignored} sending an argument now ignored" if r.ignored else "")
            + f", {r.valid} valid under old and new"
        )
    if all_calls and r.keeps_valid:
        for o in r.iter_outcomes(all_calls=True):
            yield from (indent + x for x in _call_lines(o))
        return
    for kind in KINDS:
        where = r.positions(kind)
        if not where:
            continue
        one, many = _KIND_LABEL.get(kind, (kind, kind))
        yield f"{indent}  {len(where)} {one if len(where) == 1 else many}:"
        for i in where[:limit]:
            yield from (indent + x for x in _call_lines(r.outcome_at(i)))
        if len(where) > limit:
            yield (
                f"{indent}  … and {len(where) - limit} more {many} (--all-calls lists every one)"
            )
    if r.valid:
        yield (
            f"{indent}  {r.valid} call{'s' if r.valid != 1 else ''} valid under old and new, "
            "not listed (--all-calls lists every call)"
        )


def to_text(cmp: Comparison, *, byte_pin: bool = True, all_calls: bool = False) -> str:
    out: list[str] = []
    name = safe_text(cmp.new.name)
    n = len(cmp.changes)
    counts = ", ".join(f"{len(cmp.of_class(k))} {k}" for k in ChangeClass if cmp.of_class(k))
    out.append(
        f"tool {name}: {n} change{'s' if n != 1 else ''}" + (f" ({counts})" if counts else "")
    )
    if byte_pin:
        out.append(
            f"byte-pin: {'BLOCK' if cmp.digest_changed else 'ok'}"
            f"   ({cmp.old.digest[:19]}… → {cmp.new.digest[:19]}…)"
            if cmp.digest_changed
            else "byte-pin: ok"
        )
    for c in cmp.changes:
        out.append(f"  [{_LABEL[c.cls]}] {c.rule}  {safe_text(c.pointer)}")
        out.append(f"      {safe_text(render_change(c))}")
        if c.has_witness:
            what, rejected = c.witness_wording
            tag = "witness" if c.witness_kind == "call" else f"witness ({what})"
            tag += " (promoted to breaking)" if c.promoted else ""
            out.append(f"      {tag}: {show_value(c.witness)}")
            if c.witness_error:
                out.append(f"        -> {rejected}: {safe_text(c.witness_error)}")
            elif c.witness_kind == "result":
                out.append(f"        -> {rejected}")
        if c.note:
            out.append(f"      {'promoted to breaking: ' if c.promoted else ''}{safe_text(c.note)}")
        if c.settle:
            out.append(f"      settle: {safe_text(c.settle)}")
    if any(c.rule in UI_RULES for c in cmp.changes):
        out.append("")
        out.extend(ui_diff_lines(cmp.old.ui, cmp.new.ui))
    r = cmp.replay
    if r is not None:
        out.append("")
        out.extend(replay_lines(r, all_calls=all_calls))
    out.append("")
    verdict = f"compat verdict: {cmp.verdict}"
    if r is not None:
        verdict += f"   breaks={r.broken}/{r.total}"
    out.append(verdict)
    if cmp.schema_only_split:
        out.append(
            "  note: breaking by schema, 0 recorded calls touched: silent on your traffic, "
            "failing closed because the schema narrowed"
            + (
                (
                    " (the witness above is a call that would break)"
                    if any(c.has_witness and c.witness_kind == "call" for c in cmp.breaking)
                    else " (the witness above is a result the server may now return that the old schema "
                    "rejects)"
                )
                if any(c.has_witness for c in cmp.breaking)
                else ""
            )
        )
    elif cmp.breaking and r is None:
        out.append(
            "  note: breaking by schema; no recorded calls to replay: the proxy records "
            "them (`mcp-review proxy SERVER`, docs/proxy.md), then this shows which break"
        )
    pb = cmp.of_class(ChangeClass.POTENTIALLY_BREAKING)
    if pb and cmp.verdict == "PASS":
        out.append(
            f"  note: {len(pb)} potentially-breaking change(s) need a human: "
            "no recorded call or generated witness shows them breaking"
        )
    return "\n".join(out) + "\n"
