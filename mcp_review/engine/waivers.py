"""A waiver (an ``[[ignore]]`` table, engine/rulesconfig.py) and what it did in one report.

Data only, below the status: ``engine.status_tool.ToolStatus`` and ``engine.status.StatusReport``
hold :class:`WaiverUse` values that ``engine.rulesconfig.govern`` (above the status) makes, so
the class lives here, where both layers may name it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Waiver:
    server: str
    tool: str
    rule: str
    reason: str
    until: dt.date
    digest: str | None
    """None until the team adds it: the waiver is then reported ``unbound`` with the served
    digest to paste, and honours nothing (a waiver must name the definition it accepts)."""
    principal: str | None = None
    line: int | None = None
    """Where the ``[[ignore]]`` table starts in the config (reports point at it)."""

    @property
    def label(self) -> str:
        return f"{self.server}/{self.tool} {self.rule}"

    def to_json(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "principal": self.principal,
            "tool": self.tool,
            "rule": self.rule,
            "reason": self.reason,
            "until": self.until.isoformat(),
            "digest": self.digest,
            "line": self.line,
        }


@dataclass(slots=True)
class WaiverUse:
    """What one waiver did in one report."""

    waiver: Waiver
    state: str = "unused"
    """``honoured`` · ``unbound`` (no ``digest`` yet: the message names the served one) ·
    ``expired`` (past ``until``) · ``reopened`` (the definition changed since
    it was waived) · ``trust`` (the rule's changes here carry text the model reads) ·
    ``unused`` (no such change on a served tool)."""
    pointers: list[str] = field(default_factory=list)
    """The changes it matched (JSON pointers)."""
    live_digest: str | None = None

    @property
    def message(self) -> str:
        w = self.waiver
        until = w.until.isoformat()
        return {
            "honoured": f"waived until {until}: {w.reason}",
            "unbound": (
                f"waiver of {w.rule} not applied: it names no definition; to waive "
                f'this one add digest = "{self.live_digest or ""}" (the definition '
                "served now) to its [[ignore]]"
            ),
            "expired": f"waiver expired on {until} (it said: {w.reason})",
            "reopened": (
                f"waiver of {w.rule} no longer applies: the definition changed since "
                f"it was waived ({(w.digest or '')[:19]}…, now {(self.live_digest or '')[:19]}…)"
                "; review again"
            ),
            "trust": (
                f"waiver of {w.rule} not applied: the change brings in text the model "
                "reads (trust axis)"
            ),
            "unused": "no such change on a served tool",
        }[self.state]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.waiver.to_json(),
            "state": self.state,
            "pointers": list(self.pointers),
            "message": self.message,
        }
