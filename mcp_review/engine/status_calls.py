"""A server's recorded calls (:class:`CallLog`) and one streamed pass replaying them, split from
engine/status.py, which re-exports these names."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_review.engine.memo import CompareMemo
from mcp_review.engine.model import ToolDef

if TYPE_CHECKING:  # types only: a gate reads calls without importing the pin machinery
    from mcp_review.engine.calls import Call, LoadedCalls
    from mcp_review.engine.pins import Pin

CallReader = Callable[["LoadedCalls"], Iterable["Call"]]
"""Yields a log's calls, counting skipped and ignored lines in the LoadedCalls given."""


@dataclass(slots=True)
class CallLog:
    """A server's recorded calls grouped by tool (``store.readers.load_call_log``), or a log
    to be streamed (``store.readers.stream_call_log``): read once, by :func:`compute_status`, keeping only the
    calls its report lists."""

    path: str | None = None
    by_tool: dict[str, list[Any]] = field(default_factory=dict)
    unattributed: int = 0
    """Records that name no tool (bare argument objects): cannot be replayed per tool."""
    skipped: int = 0
    """Lines that were not JSON."""
    skipped_lines: list[int] = field(default_factory=list)
    """The first few of those lines' numbers (for the report)."""
    surrogates: int = 0
    """Of ``skipped``, the records skipped for a lone surrogate escape (engine.replay
    LONE_SURROGATE: JSON, but not Unicode text, so no validator reads them)."""
    surrogate_lines: list[int] = field(default_factory=list)
    unrecorded: int = 0
    """Calls a record-only proxy forwarded while it could not write this log (a full disk),
    from its counter beside the log (store.calllog.read_unrecorded); their arguments are lost."""
    unrecorded_last: str | None = None
    streamed: bool = False
    """True: ``by_tool`` stays empty; the file is read when the status is computed, and
    ``counts`` then holds the number of calls per tool."""
    counts: dict[str, int] = field(default_factory=dict)
    reader: CallReader | None = field(default=None, repr=False, compare=False)
    """For a streamed log: yields its calls, counting bad and ignored lines in the
    ``LoadedCalls`` it is given (the store opens the file; the engine never does)."""

    def for_tool(self, tool: str) -> list[Any]:
        if self.streamed:
            raise ValueError(
                "a streamed call log keeps no calls: read it with store.readers.load_call_log"
            )
        return self.by_tool.get(tool, [])

    def count(self, tool: str) -> int:
        """Calls recorded for ``tool``."""
        if self.streamed:
            return self.counts.get(tool, 0)
        return len(self.by_tool.get(tool, ()))


def call_log_of(path: str | None, read: CallReader) -> CallLog:
    """A server's recorded calls grouped by tool, from ``read`` (lenient: bad lines are counted
    in the ``LoadedCalls`` it is given, not fatal). ``store.readers.load_call_log`` reads a file
    this way."""
    from mcp_review.engine.calls import LoadedCalls

    loaded = LoadedCalls()
    log = CallLog(path=path)
    by_tool = log.by_tool
    for c in read(loaded):
        if c.tool is None:
            log.unattributed += 1
        else:
            calls = by_tool.get(c.tool)
            if calls is None:
                calls = by_tool[c.tool] = []
            # Numbered per tool (call 1, 2, … of this tool); the file line stays in .line.
            # (A fresh Call from the reader: renumbered in place, no copy per call.)
            c.index = len(calls) + 1
            calls.append(c)
    log.skipped = loaded.skipped
    log.skipped_lines = loaded.skipped_lines[:5]
    log.surrogates = len(loaded.surrogate_lines)
    log.surrogate_lines = loaded.surrogate_lines[:5]
    return log


_BATCH = 2048


def stream_replay(log: CallLog, replayers: Mapping[str, Any]) -> None:
    """One pass over a streamed log: counts per tool, and each tool in ``replayers`` fed its
    calls (numbered per tool as :func:`call_log_of` does), a batch at a time."""
    from mcp_review.engine.calls import LoadedCalls

    if log.reader is None:
        raise ValueError("a streamed call log needs its reader (store.readers.stream_call_log)")
    loaded = LoadedCalls()
    counts: dict[str, int] = {}
    pending: dict[str, list[Any]] = {name: [] for name in replayers}
    unattributed = 0
    get = counts.get
    for c in log.reader(loaded):
        name = c.tool
        if name is None:
            unattributed += 1
            continue
        n = counts[name] = get(name, 0) + 1
        batch = pending.get(name)
        if batch is not None:
            c.index = n
            batch.append(c)
            if len(batch) >= _BATCH:
                replayers[name].feed(batch)
                batch.clear()
    for name, batch in pending.items():
        if batch:
            replayers[name].feed(batch)
    log.counts = counts
    log.unattributed = unattributed
    log.skipped = loaded.skipped
    log.skipped_lines = loaded.skipped_lines[:5]
    log.surrogates = len(loaded.surrogate_lines)
    log.surrogate_lines = loaded.surrogate_lines[:5]


def replay_streamed(
    calls: CallLog,
    by_name: Mapping[str, list[ToolDef]],
    pinned: Mapping[str, Pin],
    keep_valid: bool,
    memo: CompareMemo | None = None,
) -> dict[str, Any]:
    """{tool: (PendingComparison, Replayer)} for every tool whose digest differs from its
    pin, replayed in one pass over the streamed log (which also counts every tool's calls)."""
    from mcp_review.engine.compare import PendingComparison

    plan: dict[str, Any] = {}
    for name, defs in by_name.items():
        pin = pinned.get(name)
        if pin is not None and pin.current_digest() != defs[0].digest:
            pending = PendingComparison(pin.tool_def(), defs[0], memo)
            plan[name] = (pending, pending.replayer(keep_valid=keep_valid))
    stream_replay(calls, {name: r for name, (_, r) in plan.items()})
    return plan
