"""Recorded calls replayed under the old and new schema; broken ones carry the validator's why."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from mcp_review.tui.render import safe_text

MAX_ROWS = 2000
"""Rows shown: DataTable measures every cell (notes/perf.md); the count says what was left out."""


def _issues(errs: list[Any]) -> str:
    return "; ".join(f"{e.path or '/'}: {e.message}" for e in errs[:3]) + (
        f" (+{len(errs) - 3} more)" if len(errs) > 3 else ""
    )


class ReplayTable(DataTable[Text]):
    """Broken calls first, highlighted, with the validator's path and message."""

    DEFAULT_CSS = """
    ReplayTable { height: 1fr; }
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
        for o in order[:MAX_ROWS]:
            if o.broken:
                verdict, style, why = "BROKEN", "bold red", _issues(o.errors)
            elif o.bad_recording:
                verdict, style, why = "bad recording", "yellow", _issues(o.old_errors)
            elif o.ignored:
                verdict, style = "IGNORED", "bold red"
                why = "argument now ignored: " + ", ".join(o.ignored[:3])
            else:
                verdict, style, why = "ok", "green", ""
            where = f"{o.index}" + (f" (l.{o.line})" if o.line is not None else "")
            args = json.dumps(o.arguments, ensure_ascii=False, sort_keys=True)
            self.add_row(
                Text(where, style=style if o.broken else ""),
                Text(
                    "valid" if o.valid_under_old else "invalid",
                    style="" if o.valid_under_old else "yellow",
                ),
                Text(
                    "valid" if o.valid_under_new else "invalid",
                    style="" if o.valid_under_new else "bold red",
                ),
                Text(verdict, style=style),
                safe_text(why, style="red" if o.broken else "", limit=200),
                safe_text(args, limit=160),
                key=str(o.index),
            )
        return min(len(order), MAX_ROWS)

    def set_removed(self, calls: list[Any]) -> int:
        """Show the recorded calls of a tool no longer served: every one would now fail."""
        self.clear()
        for c in calls[:MAX_ROWS]:
            where = f"{c.index}" + (f" (l.{c.line})" if c.line is not None else "")
            args = json.dumps(c.arguments, ensure_ascii=False, sort_keys=True)
            self.add_row(
                Text(where, style="bold red"),
                Text("—", style="dim"),
                Text("no tool", style="bold red"),
                Text("WOULD FAIL", style="bold red"),
                Text("tool no longer served", style="red"),
                safe_text(args, limit=160),
                key=str(c.index),
            )
        return min(len(calls), MAX_ROWS)
