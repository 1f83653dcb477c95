"""Compare two definitions of one tool: classified changes, replay, witnesses, verdict.

This is the one entry point the CLI, the pin-file status, the proxy and the app all call, so
they can never disagree about a tool.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.calls import Call
from mcp_review.engine.locate import instance_paths
from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import CLASS_ORDER, Change, ChangeClass, ToolDef
from mcp_review.engine.replay import RemovedProperty, Replayer, ReplayResult
from mcp_review.engine.rules.objects import PROPERTY_REMOVED_OPEN
from mcp_review.engine.schema_diff import diff_tools
from mcp_review.engine.witness import attach_witnesses


@dataclass(slots=True)
class Comparison:
    old: ToolDef
    new: ToolDef
    changes: list[Change] = field(default_factory=list)
    replay: ReplayResult | None = None

    @property
    def digest_changed(self) -> bool:
        return self.old.digest != self.new.digest

    def of_class(self, cls: ChangeClass) -> list[Change]:
        return [c for c in self.changes if c.cls is cls]

    @property
    def breaking(self) -> list[Change]:
        return self.of_class(ChangeClass.BREAKING)

    @property
    def broken_calls(self) -> int:
        return self.replay.broken if self.replay is not None else 0

    @property
    def verdict(self) -> str:
        """The seed's gate: FAIL on any breaking change or any broken recorded call."""
        return "FAIL" if self.breaking or self.broken_calls else "PASS"

    @property
    def ignored_calls(self) -> int:
        """Recorded calls that still validate but send an argument the server now ignores."""
        return self.replay.ignored if self.replay is not None else 0

    @property
    def schema_only_split(self) -> bool:
        """Breaking by schema while no recorded call breaks (the seed's C5 cell)."""
        return (
            bool(self.breaking)
            and self.replay is not None
            and self.broken_calls == 0
            and self.ignored_calls == 0
        )

    def classes(self) -> set[ChangeClass]:
        return {c.cls for c in self.changes}

    def to_json(self, *, all_calls: bool = False, replay_calls: bool = True) -> dict[str, Any]:
        """The report of one tool pair; the replay lists broken calls and bad recordings
        (every call with ``all_calls``; none, only counts, with ``replay_calls=False``)."""
        d: dict[str, Any] = {
            "verdict": self.verdict,
            "tool": self.new.name,
            "old_digest": self.old.digest,
            "new_digest": self.new.digest,
            "changes": [c.to_json() for c in self.changes],
            "counts": {str(k): len(self.of_class(k)) for k in ChangeClass},
        }
        if self.replay is not None:
            d["replay"] = (
                self.replay.to_json(all_calls)
                if replay_calls
                else self.replay.summary_json(all_calls)
            )
            d["breaking_by_schema_only"] = self.schema_only_split
        return d


def compare(
    old: ToolDef,
    new: ToolDef,
    calls: Iterable[Call] | None = None,
    *,
    witnesses: bool = True,
    keep_valid: bool = True,
    memo: CompareMemo | None = None,
) -> Comparison:
    """Classify every change from ``old`` to ``new``; replay ``calls`` if given; find witnesses
    for breaking / potentially-breaking input changes that no recorded call demonstrates.
    ``memo``: schema walks and witness searches of this run, reused (engine/memo.py)."""
    pending = PendingComparison(old, new, memo)
    if calls is not None:
        r = pending.replayer(keep_valid=keep_valid)
        r.feed(calls)
        return pending.finish(r.result(), witnesses=witnesses)
    return pending.finish(None, witnesses=witnesses)


class PendingComparison:
    """:func:`compare` in two halves around the replay, for callers that replay many tools in
    one pass over a log (``engine.status`` streaming a server's calls): the changes first, then
    :meth:`replayer` fed with this tool's calls, then :meth:`finish`. Same answer as
    :func:`compare`."""

    __slots__ = ("changes", "memo", "new", "old")

    def __init__(self, old: ToolDef, new: ToolDef, memo: CompareMemo | None = None):
        self.old, self.new = old, new
        self.memo = memo
        self.changes = diff_tools(old, new, memo)

    def replayer(self, *, keep_valid: bool = True) -> Replayer:
        return Replayer(
            self.old.input_schema,
            self.new.input_schema,
            _removed_open(self.old.input_schema, self.changes),
            keep_valid=keep_valid,
        )

    def finish(self, result: ReplayResult | None, *, witnesses: bool = True) -> Comparison:
        changes = self.changes
        if result is not None and result.ignored:
            changes = [_promote_ignored(c, result) for c in changes]
        if witnesses and any(
            c.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING) for c in changes
        ):
            changes = attach_witnesses(self.old, self.new, changes, memo=self.memo)
        changes.sort(key=lambda c: (CLASS_ORDER[c.cls], c.pointer, c.rule))
        return Comparison(old=self.old, new=self.new, changes=changes, replay=result)


def watcher(cmp: Comparison) -> Replayer:
    """A replayer for calls recorded after ``cmp`` was made (the enforcing proxy judges a
    drifted tool incrementally): fed only the new calls, its
    :meth:`~Replayer.turned_since` says whether one of them could change the verdict (a broken
    call, a removed property still sent), so the whole log is replayed again only then."""
    return Replayer(
        cmp.old.input_schema,
        cmp.new.input_schema,
        _removed_open(cmp.old.input_schema, cmp.changes),
        keep_valid=False,
    )


def _removed_open(old_schema: Any, changes: list[Change]) -> list[RemovedProperty]:
    """Properties removed from open input objects, with where calls would send them."""
    out = []
    for c in changes:
        if c.rule == IGNORED_RULE and c.pointer.startswith("/inputSchema/"):
            paths = instance_paths(old_schema, c.pointer[len("/inputSchema") :])
            if paths:
                out.append(RemovedProperty(c.pointer, paths))
    return out


IGNORED_RULE = PROPERTY_REMOVED_OPEN


def _promote_ignored(c: Change, result: ReplayResult) -> Change:
    """A recorded call that still sends a removed property is evidence, like a witness: the
    argument is now silently ignored, so the change is breaking."""
    if c.rule != IGNORED_RULE or c.cls is not ChangeClass.POTENTIALLY_BREAKING:
        return c
    hits = result.ignoring(c.pointer)
    if not hits:
        return c
    first = hits[0]
    where = f"call {first.index}" + (f" (line {first.line})" if first.line is not None else "")
    more = f" and {len(hits) - 1} more still send" if len(hits) > 1 else " still sends"
    return dataclasses.replace(
        c,
        cls=ChangeClass.BREAKING,
        promoted=True,
        note=f"recorded {where}{more} it: argument now ignored",
    )
