"""The app's data adapter: what the screens read (servers, tool rows) and the actions they ask for.

Screens never touch the pin file, the network or the engine directly: they call a
``ReviewSource``. It combines a *fetcher* (current tool lists, with per-server progress) and a
*pin store* (what was approved, decisions, undo). Both are small protocols so the same screens
run on a snapshot file, in-process test servers, or live servers through ``services``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from mcp_review.core.hidden import has_hidden
from mcp_review.core.model import ChangeClass, ToolDef
from mcp_review.core.snapshot import ServerSnapshot, Snapshot


class Status(StrEnum):
    """A tool's standing against the pin file (design.md)."""

    PINNED = "pinned"
    NEW = "new"
    CHANGED = "changed"
    BROKEN = "broken"
    REMOVED = "removed"
    DENIED = "denied"


NEEDS_REVIEW = frozenset({Status.NEW, Status.CHANGED, Status.BROKEN, Status.REMOVED})
STATUS_ORDER = [Status.BROKEN, Status.CHANGED, Status.NEW, Status.REMOVED, Status.DENIED,
                Status.PINNED]

FLAG_TEXT = "text"
FLAG_ANNOTATIONS = "annotations"
FLAG_HIDDEN = "hidden"
FLAG_LABELS = {FLAG_TEXT: "text changed", FLAG_ANNOTATIONS: "annotation relaxed",
               FLAG_HIDDEN: "hidden chars"}
FLAG_SHORT = {FLAG_TEXT: "text", FLAG_ANNOTATIONS: "relaxed", FLAG_HIDDEN: "hidden"}

# Annotation hints whose change in this direction relaxes a safety promise (design.md).
_RELAXING = {"readOnlyHint": (True, False), "destructiveHint": (False, True),
             "idempotentHint": (True, False), "openWorldHint": (False, True)}
# MCP defaults when a hint is absent.
_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
             "openWorldHint": True}


def relaxed_annotations(old: ToolDef | None, new: ToolDef | None) -> list[str]:
    """Names of annotation hints that were relaxed from ``old`` to ``new``."""
    if old is None or new is None:
        return []
    out = []
    for hint, (was, now) in _RELAXING.items():
        a = old.annotations.get(hint, _DEFAULTS[hint])
        b = new.annotations.get(hint, _DEFAULTS[hint])
        if a == was and b == now:
            out.append(hint)
    return out


def _strings(v: Any) -> Iterable[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield str(k)
            yield from _strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x)


def tool_has_hidden(t: ToolDef | None) -> bool:
    return t is not None and any(has_hidden(s) for s in _strings(t.wire))


@dataclass(slots=True)
class Pin:
    """What the pin store holds for one tool."""

    decision: str  # approved | denied
    definition: ToolDef | None
    note: str = ""
    policy: str | None = None


@dataclass(slots=True)
class ToolEntry:
    """One row of the main screen."""

    server: str
    principal: str
    name: str
    status: Status
    pinned: ToolDef | None = None
    current: ToolDef | None = None
    flags: frozenset[str] = frozenset()
    note: str = ""
    policy: str = "review"
    """Policy outcome: auto-approve | review | block."""
    summary: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.server, self.principal, self.name)

    @property
    def needs_review(self) -> bool:
        return self.status in NEEDS_REVIEW

    @property
    def blocked(self) -> bool:
        return self.policy == "block"


@dataclass(slots=True)
class ServerEntry:
    """One server: its connection state and its tools."""

    name: str
    principal: str = "default"
    state: str = "waiting"  # waiting | connecting | ok | failed
    detail: str = ""
    error: str | None = None
    tools: list[ToolEntry] = field(default_factory=list)
    policy: str = "tiered"
    server_version: str | None = None


ProgressFn = Callable[[str, str, str], None]
"""``(server, state, detail)``: state is waiting | connecting | ok | failed."""


class Fetcher(Protocol):
    """Where current tool lists come from."""

    names: list[str]

    def fetch(self, progress: ProgressFn) -> Awaitable[Snapshot]: ...


class PinStore(Protocol):
    """Where decisions live. Implementations write at once (atomically) and keep an audit log."""

    def pins(self, server: str, principal: str) -> dict[str, Pin]: ...
    def servers(self) -> list[tuple[str, str]]: ...
    def record(self, entry: ToolEntry, decision: str, note: str) -> None: ...
    def undo(self) -> str | None: ...
    def set_policy(self, server: str, tool: str | None, tier: str) -> None: ...
    def policy(self, server: str, tool: str | None) -> str: ...


class SnapshotFetcher:
    """A fixed snapshot (a file saved by `mcp-review snapshot`, or built by a test)."""

    def __init__(self, snapshot: Snapshot, *, delay: float = 0.0) -> None:
        self.snapshot = snapshot
        self.names = sorted(snapshot.servers)
        self.delay = delay

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        import asyncio

        for name in self.names:
            progress(name, "connecting", "")
            if self.delay:
                await asyncio.sleep(self.delay)
            s = self.snapshot.servers[name]
            if s.error:
                progress(name, "failed", str(s.error.get("message", s.error)))
            else:
                progress(name, "ok", f"{len(s.tools)} tools")
        return self.snapshot


class MemoryPinStore:
    """Decisions in memory (tests, demos, and a snapshot reviewed without a pin file)."""

    def __init__(self, pins: dict[tuple[str, str], dict[str, Pin]] | None = None) -> None:
        self._pins = pins or {}
        self._history: list[tuple[tuple[str, str, str], Pin | None, str]] = []
        self._policies: dict[tuple[str, str | None], str] = {}
        self.audit: list[dict[str, Any]] = []

    @classmethod
    def from_snapshot(cls, snap: Snapshot) -> MemoryPinStore:
        """Everything in ``snap`` approved: the baseline a later snapshot is reviewed against."""
        return cls({(n, s.principal): {t.name: Pin("approved", t) for t in s.tools}
                    for n, s in snap.servers.items() if not s.error})

    def servers(self) -> list[tuple[str, str]]:
        return sorted(self._pins)

    def pins(self, server: str, principal: str) -> dict[str, Pin]:
        return self._pins.get((server, principal), {})

    def record(self, entry: ToolEntry, decision: str, note: str) -> None:
        table = self._pins.setdefault((entry.server, entry.principal), {})
        before = table.get(entry.name)
        if decision == "approved" and entry.current is None:
            table.pop(entry.name, None)  # approving a removal forgets the pin
        else:
            table[entry.name] = Pin(decision, entry.current or entry.pinned, note)
        self._history.append((entry.key, before, decision))
        self.audit.append({"tool": list(entry.key), "decision": decision, "note": note,
                           "old": entry.pinned.digest if entry.pinned else None,
                           "new": entry.current.digest if entry.current else None,
                           "at": time.time()})

    def undo(self) -> str | None:
        if not self._history:
            return None
        (server, principal, name), before, decision = self._history.pop()
        table = self._pins.setdefault((server, principal), {})
        if before is None:
            table.pop(name, None)
        else:
            table[name] = before
        self.audit.append({"tool": [server, principal, name], "decision": "undo",
                           "undid": decision, "at": time.time()})
        return f"undid {decision} of {name}"

    def set_policy(self, server: str, tool: str | None, tier: str) -> None:
        self._policies[(server, tool)] = tier

    def policy(self, server: str, tool: str | None) -> str:
        if tool is not None and (server, tool) in self._policies:
            return self._policies[(server, tool)]
        return self._policies.get((server, None), "tiered")


def _summary(cmp: Any) -> str:
    parts = [f"{len(cmp.of_class(k))} {k}" for k in ChangeClass if cmp.of_class(k)]
    if cmp.replay is not None and cmp.replay.broken:
        parts.append(f"{cmp.replay.broken}/{cmp.replay.total} calls break")
    return ", ".join(parts)


class ReviewSource:
    """Fetcher + pin store + recorded calls: everything the screens need."""

    def __init__(self, fetcher: Fetcher, store: PinStore,
                 calls: dict[tuple[str, str], list[Any]] | None = None) -> None:
        self.fetcher = fetcher
        self.store = store
        self.calls = calls or {}
        self.snapshot: Snapshot | None = None
        self._cmp_cache: dict[tuple[str, str, str, str, str], Any] = {}

    @property
    def server_names(self) -> list[str]:
        return list(self.fetcher.names)

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        self.snapshot = await self.fetcher.fetch(progress)
        return self.snapshot

    def comparison(self, entry: ToolEntry) -> Any:
        """The engine's Comparison of pinned vs current (cached per digest pair)."""
        try:
            from mcp_review.core.compare import compare
        except ImportError:  # TEMP until core/schema_diff lands: replay only, no classified changes
            compare = _replay_only
        old = entry.pinned or entry.current
        new = entry.current or entry.pinned
        assert old is not None and new is not None
        key = (*entry.key, old.digest, new.digest)
        if key not in self._cmp_cache:
            calls = self.calls.get((entry.server, entry.name))
            self._cmp_cache[key] = compare(old, new, calls)
        return self._cmp_cache[key]

    def _entry(self, server: ServerSnapshot | None, name: str, principal: str,
               srv_name: str, pin: Pin | None, cur: ToolDef | None) -> ToolEntry:
        old = pin.definition if pin else None
        e = ToolEntry(srv_name, principal, name, Status.PINNED, old, cur,
                      note=pin.note if pin else "")
        flags: set[str] = set()
        if pin is None:
            e.status = Status.NEW
        elif cur is None:
            e.status = Status.REMOVED
        elif pin.decision == "denied" and old is not None and old.digest == cur.digest:
            e.status = Status.DENIED
        elif old is not None and old.digest == cur.digest:
            e.status = Status.PINNED
        else:
            cmp = self.comparison(e)
            e.status = Status.BROKEN if cmp.verdict == "FAIL" else Status.CHANGED
            e.summary = _summary(cmp)
            if old is not None and (old.description != cur.description
                                    or old.title != cur.title):
                flags.add(FLAG_TEXT)
            if relaxed_annotations(old, cur):
                flags.add(FLAG_ANNOTATIONS)
        if e.status not in (Status.PINNED, Status.DENIED) and tool_has_hidden(cur):
            flags.add(FLAG_HIDDEN)
        e.flags = frozenset(flags)
        e.policy = self._policy_outcome(e, flags)
        return e

    def _policy_outcome(self, e: ToolEntry, flags: set[str]) -> str:
        """auto-approve | review | block, per the tier (design.md, Policy tiers)."""
        if FLAG_ANNOTATIONS in flags or FLAG_HIDDEN in flags:
            return "block"  # no tier ever auto-approves these
        if e.status is not Status.CHANGED:
            return "review"
        tier = self.store.policy(e.server, e.name)
        if tier == "compatible":
            return "auto-approve"
        if tier == "tiered" and not flags and self.compatible_only(e):
            return "auto-approve"
        return "review"

    def compatible_only(self, e: ToolEntry) -> bool:
        """Changed, and every change compatible or cosmetic, with no broken call."""
        if e.status is not Status.CHANGED or e.pinned is None or e.current is None:
            return False
        cmp = self.comparison(e)
        ok = {ChangeClass.COMPATIBLE, ChangeClass.COSMETIC}
        return bool(cmp.changes) and cmp.classes() <= ok and not cmp.broken_calls

    def entries(self) -> list[ServerEntry]:
        """Every server (fetched or only pinned) with its tools, status computed."""
        snap = self.snapshot or Snapshot()
        names = dict.fromkeys([*self.fetcher.names, *(s for s, _ in self.store.servers())])
        out: list[ServerEntry] = []
        for name in sorted(names):
            s = snap.servers.get(name)
            principal = s.principal if s else "default"
            se = ServerEntry(name, principal, policy=self.store.policy(name, None))
            pins = self.store.pins(name, principal)
            if s is None:
                se.state = "waiting"
            elif s.error:
                se.state = "failed"
                se.error = str(s.error.get("message") or s.error.get("kind") or s.error)
            else:
                se.state = "ok"
                se.server_version = s.server_version
                current = {t.name: t for t in s.tools}
                for tname in sorted(set(current) | set(pins)):
                    se.tools.append(self._entry(s, tname, principal, name, pins.get(tname),
                                                current.get(tname)))
            out.append(se)
        return out

    def decide(self, entry: ToolEntry, decision: str, note: str = "") -> None:
        self.store.record(entry, decision, note)

    def undo(self) -> str | None:
        return self.store.undo()


def _replay_only(old: ToolDef, new: ToolDef, calls: Any = None) -> Any:
    from types import SimpleNamespace

    from mcp_review.core.replay import replay

    r = replay(old.input_schema, new.input_schema, calls) if calls is not None else None
    return SimpleNamespace(old=old, new=new, changes=[], replay=r,
                           verdict="FAIL" if r and r.broken else "PASS",
                           of_class=lambda k: [], classes=lambda: set(),
                           broken_calls=r.broken if r else 0)


def snapshot_from_json(data: dict[str, Any]) -> Snapshot:
    from mcp_review.core.snapshot import parse_snapshot

    return parse_snapshot(data)


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
