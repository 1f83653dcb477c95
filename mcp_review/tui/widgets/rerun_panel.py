"""The replay tab's rerun panel (`b`): outcomes of re-sent read-only calls, with the recorded
result beside the live one for a call whose answer changed.

The screen owns the flow (plan → confirm → execute, on a worker); this widget only shows a
``services.rerun.RerunReport``. Every server string passes through ``safe_content``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from mcp_review.tui.render import safe_content
from mcp_review.tui.widgets.diff_view import SideBySide

_STYLE = {
    "same": "$text-success",
    "changed": "bold $text-error",
    "shape-drift": "bold $text-error",
    "now-error": "bold $text-error",
    "skipped": "$text-muted",
    "no-result-recorded": "$text-muted",
}


@dataclass(slots=True)
class RerunHook:
    """What the screen needs to re-run one tool's recorded calls: the live server's config,
    the pin file and the call log (built by the app from its live config)."""

    server: Any
    """services.config.ServerConfig."""
    pins: Any
    calls_path: str
    tool: str

    def settings(self) -> Any:
        from mcp_review.services.rerun import Settings

        return Settings(tools=(self.tool,))

    async def plan(self) -> Any:
        from mcp_review.services.rerun import load_recorded, plan

        st = self.settings()
        recorded = load_recorded(
            self.calls_path,
            server=self.server.name,
            principal=self.server.principal,
            tools=st.tools,
            max_calls=st.max_calls,
        )
        return await plan(self.server, self.pins, recorded, st)

    async def execute(self, planned: Any) -> Any:
        from mcp_review.services.rerun import execute

        return await execute(self.server, self.pins, planned, self.settings())


def _pretty(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class RerunPanel(Vertical):
    """Hidden until `b` is pressed; then the plan, and after sending, each outcome."""

    DEFAULT_CSS = """
    RerunPanel { height: auto; max-height: 24; border-top: solid $primary-muted; }
    RerunPanel #rerun-lines { height: auto; max-height: 10; padding: 0 1; }
    RerunPanel #rerun-diff { height: 14; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rerun-lines"):
            yield Static(id="rerun-text", markup=False)
        yield SideBySide("recorded result", "live result", id="rerun-diff")

    def on_mount(self) -> None:
        self.display = False
        self.query_one("#rerun-diff", SideBySide).display = False

    def message(self, text: str, style: str = "$text-muted") -> None:
        self.display = True
        self.query_one("#rerun-text", Static).update(Content(text).stylize(style))
        self.query_one("#rerun-diff", SideBySide).display = False

    def show_report(self, report: Any, *, planned: bool = False) -> None:
        """One line per call (outcome, arguments, reason, differences); the first call whose
        answer changed is shown beside its recorded result."""
        self.display = True
        lines: list[Content] = []
        first_changed = None
        for c in report.calls:
            outcome = "will send" if c.outcome is None else str(c.outcome)
            lines.append(
                Content.assemble(
                    (f"{outcome:18} ", _STYLE.get(outcome, "bold")),
                    safe_content(
                        json.dumps(c.call.arguments, ensure_ascii=False, sort_keys=True)
                        if not isinstance(c.call.arguments, str)
                        else c.call.arguments,
                        one_line=True,
                        limit=100,
                    ),
                )
            )
            if c.reason:
                lines.append(
                    Content.assemble(
                        "    ",
                        safe_content(c.reason, one_line=True, limit=200, style="$text-muted"),
                    )
                )
            cmp = c.comparison
            for d in cmp.differences if cmp is not None else []:
                old = json.dumps(d.old, ensure_ascii=False) if d.has_old else "(absent)"
                new = json.dumps(d.new, ensure_ascii=False) if d.has_new else "(absent)"
                lines.append(
                    Content.assemble(
                        "    ",
                        safe_content(d.pointer or "(whole result)", one_line=True, limit=80),
                        ": ",
                        safe_content(old, one_line=True, limit=80, style="$text-error"),
                        " → ",
                        safe_content(new, one_line=True, limit=80, style="$text-success"),
                    )
                )
            if cmp is not None and cmp.volatile:
                lines.append(
                    Content.assemble(
                        "    volatile (ignored): ",
                        safe_content(", ".join(cmp.volatile[:10]), one_line=True, limit=200),
                    )
                )
            if (
                first_changed is None
                and c.outcome is not None
                and str(c.outcome) in ("changed", "shape-drift", "now-error")
            ):
                first_changed = c
        if not lines:
            lines.append(Content("no recorded calls of this tool").stylize("$text-muted"))
        if planned:
            lines.insert(0, Content("rerun plan (nothing sent yet)").stylize("bold"))
        counts = report.counts()
        if not planned:
            lines.insert(
                0,
                Content(
                    " · ".join(f"{k} {v}" for k, v in counts.items() if v) or "nothing re-sent"
                ).stylize("bold"),
            )
        self.query_one("#rerun-text", Static).update(Content("\n").join(lines))
        diff = self.query_one("#rerun-diff", SideBySide)
        if first_changed is None:
            diff.display = False
            return
        diff.display = True
        old = (
            first_changed.call.result
            if first_changed.call.result is not None
            else first_changed.call.error
        )
        new = first_changed.live_result
        diff.show(
            _pretty(old) if old is not None else None, _pretty(new) if new is not None else None
        )
