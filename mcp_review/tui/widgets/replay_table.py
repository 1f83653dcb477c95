"""Recorded calls replayed under the old and new schema; broken ones carry the validator's why."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.text import Text

from mcp_review.tui.render import safe_text
from mcp_review.tui.widgets.marked_table import MarkedTable

MAX_ROWS = 2000
"""Rows shown: DataTable measures every cell (notes/perf.md); the count says what was left out."""


def _issues(errs: list[Any]) -> str:
    return "; ".join(f"{e.path or '/'}: {e.message}" for e in errs[:3]) + (
        f" (+{len(errs) - 3} more)" if len(errs) > 3 else ""
    )


class ReplayTable(MarkedTable):
    """Broken calls first, highlighted, with the validator's path and message."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "replay-table--broken",
        "replay-table--bad",
        "replay-table--ok",
        "replay-table--why",
        "replay-table--none",
    }
    """``--broken``: a call that would now fail (or sends an ignored argument) and its
    invalid-now mark; ``--bad``: a recording invalid under the old schema; ``--ok``: a call
    that still passes; ``--why``: the validator's reason for a broken call; ``--none``: no
    old verdict (the tool is gone)."""

    DEFAULT_CSS = """
    ReplayTable { height: 1fr; }
    ReplayTable > .replay-table--broken { color: ansi_red; text-style: bold; }
    ReplayTable > .replay-table--bad { color: ansi_yellow; }
    ReplayTable > .replay-table--ok { color: ansi_green; }
    ReplayTable > .replay-table--why { color: ansi_red; }
    ReplayTable > .replay-table--none { text-style: dim; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row")

    def on_mount(self) -> None:
        self.add_column("#", key="n")
        self.add_column("old", key="old")
        self.add_column("new", key="new")
        self.add_column("verdict", key="verdict")
        self.add_column("why (validator)", key="why")
        self.add_column("arguments", key="args")

    def set_outcomes(self, outcomes: list[Any]) -> int:
        """Show ``outcomes`` (broken, then bad recordings, then the rest); returns rows shown."""
        self.clear()
        order = sorted(
            outcomes, key=lambda o: (not o.broken, not o.ignored, not o.bad_recording, o.index)
        )
        cs, marks = self.component_style, self.marks
        broken, bad = cs("replay-table--broken"), cs("replay-table--bad")
        for o in order[:MAX_ROWS]:
            if o.broken:
                verdict, style, why = "BROKEN", broken, _issues(o.errors)
            elif o.bad_recording:
                verdict, style, why = "bad recording", bad, _issues(o.old_errors)
            elif o.ignored:
                verdict, style = "IGNORED", broken
                why = "argument now ignored: " + ", ".join(o.ignored[:3])
            else:
                verdict, style, why = "ok", cs("replay-table--ok"), ""
            where = f"{o.index}" + (f" (l.{o.line})" if o.line is not None else "")
            args = json.dumps(o.arguments, ensure_ascii=False, sort_keys=True)
            self.add_row(
                Text(where, style=style if o.broken else ""),
                Text(
                    "valid" if o.valid_under_old else "invalid",
                    style="" if o.valid_under_old else bad,
                ),
                Text(
                    "valid" if o.valid_under_new else "invalid",
                    style="" if o.valid_under_new else broken,
                ),
                Text(verdict, style=style),
                safe_text(
                    why, style=cs("replay-table--why") if o.broken else "", limit=200, marks=marks
                ),
                safe_text(args, limit=160, marks=marks),
                key=str(o.index),
            )
        return min(len(order), MAX_ROWS)

    def set_removed(self, calls: list[Any]) -> int:
        """Show the recorded calls of a tool no longer served: every one would now fail."""
        self.clear()
        cs, marks = self.component_style, self.marks
        broken = cs("replay-table--broken")
        for c in calls[:MAX_ROWS]:
            where = f"{c.index}" + (f" (l.{c.line})" if c.line is not None else "")
            args = json.dumps(c.arguments, ensure_ascii=False, sort_keys=True)
            self.add_row(
                Text(where, style=broken),
                Text("—", style=cs("replay-table--none")),
                Text("no tool", style=broken),
                Text("WOULD FAIL", style=broken),
                Text("tool no longer served", style=cs("replay-table--why")),
                safe_text(args, limit=160, marks=marks),
                key=str(c.index),
            )
        return min(len(calls), MAX_ROWS)
