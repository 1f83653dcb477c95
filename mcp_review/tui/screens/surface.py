"""The review screen of one prompt, resource or resource template: what the engine found
(its state, the policy's reasons, its changes with their witnesses, the cues its text brings
in) above the pinned and the served definition side by side, cues marked. ``a`` / ``d``
return the operator's decision (``dismiss``); the app asks first and writes it through
``services.surface_decisions``. A blocked approval asks for the typed reason here, as the
tool review screen does.

Everything the server wrote (names, URIs, descriptions, arguments) is shown as data: plain
Content with hidden characters as visible tokens, never markup."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Header, Static

from mcp_review.engine.hidden import json_dumps_safe
from mcp_review.engine.pins import Decision
from mcp_review.engine.pintoml import layout
from mcp_review.engine.policy import blocked_approval
from mcp_review.tui.render import safe_content
from mcp_review.tui.screens.modals import ask_reason
from mcp_review.tui.screens.review import ReviewResult
from mcp_review.tui.view import SURFACE_WORD, SurfaceEntry, cue_kinds, cue_word
from mcp_review.tui.widgets.diff_view import SideBySide
from mcp_review.tui.widgets.footer import KeyFooter

REASONS_SHOWN = 4
"""The policy's reasons listed in the summary (the cues follow, one line each)."""
CUES_SHOWN = 5
"""The cues listed in the summary, most severe first (the diff marks every one)."""


class SurfaceScreen(Screen[ReviewResult | None]):
    """One prompt, resource or template: the evidence, and the operator's decision."""

    CSS_PATH = "surface.tcss"
    OPENS_A_SCREEN: ClassVar[frozenset[str]] = frozenset({"approve", "deny", "back"})
    """Run as their key arrives (``ReviewApp._key_now``)."""
    BINDINGS = [
        Binding("a", "approve", "Approve", tooltip="Approve exactly this definition (pins it)"),
        Binding("d", "deny", "Deny", tooltip="Deny it: withheld by proxy --enforce"),
        Binding("escape", "back", "Back"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    def __init__(self, entry: SurfaceEntry) -> None:
        super().__init__()
        self.entry = entry

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="surface-summary", markup=False)
        word = SURFACE_WORD[self.entry.kind]
        yield SideBySide(f"pinned {word}", "now", id="surface-diff")
        yield KeyFooter()

    def on_mount(self) -> None:
        e = self.entry
        self.sub_title = f"{e.server} · {word_of(e)}"
        self.query_one("#surface-summary", Static).update(summary(e))
        st = e.status
        old = st.pin.definition if st is not None and st.pin is not None else None
        new = layout(st.live) if st is not None and st.live is not None else None
        self.query_one("#surface-diff", SideBySide).show(
            old,
            new,
            empty="(not served)" if new is None else "(never pinned)",
            cues=[(c.text, cue_word(c), c.blocking) for c in e.cues],
        )
        diff = self.query_one("#surface-diff", SideBySide)
        diff.body.focus()
        self.call_after_refresh(self._to_first_change)

    def _to_first_change(self) -> None:
        """The diff opens on its first changed line (a description under the arguments)."""
        diff = self.query_one("#surface-diff", SideBySide)
        i = diff.first_change()
        if i is None:
            return
        row = diff.rows[i]
        side, line = ("new", row.right.number) if row.right is not None else ("old", 0)
        if row.right is None and row.left is not None:
            line = row.left.number
        diff.reveal(side, line)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_deny(self) -> None:
        self.dismiss(ReviewResult(Decision.DENIED))

    def action_approve(self) -> None:
        e = self.entry
        if e.state == "removed":
            self.notify(
                "not served: nothing to approve (d denies the pinned definition)",
                markup=False,
                timeout=4,
            )
            return
        if not blocked_approval(Decision.APPROVED, e.policy):
            self.dismiss(ReviewResult(Decision.APPROVED))
            return

        def approve(why: str) -> None:
            self.dismiss(ReviewResult(Decision.APPROVED, why=why))

        ask_reason(self.app, e, approve)


def word_of(e: SurfaceEntry) -> str:
    """``prompt "name"`` as a bounded one-line str (titles)."""
    from mcp_review.tui.render import name_line

    return f'{SURFACE_WORD[e.kind]} "{name_line(e.name, 80)}"'


def summary(e: SurfaceEntry) -> Content:
    """The head of the screen: kind, name and state; what it waits for; the policy's reasons;
    the cues by kind; each change with its witness. Server text as data."""
    parts: list[Content | tuple[str, str] | str] = []
    parts.append((f"{SURFACE_WORD[e.kind]} ", "bold"))
    parts.append(safe_content(e.name, style="bold", one_line=True, limit=200))
    parts.append(f"  {e.state}")
    if e.needs_review:
        style = "bold $text-error" if e.blocked else "bold $text-warning"
        parts.append(("  BLOCK: approving asks why" if e.blocked else "  REVIEW", style))
    # The policy's reasons but the cues, which follow one line each (the reasons repeat each
    # cue's whole sentence).
    reasons = [r for r in e.reasons if not r.startswith("cue in ")]
    for r in reasons[:REASONS_SHOWN]:
        parts.append("\n- ")
        parts.append(safe_content(r, one_line=True, limit=160))
    if len(reasons) > REASONS_SHOWN:
        parts.append((f"\n… and {len(reasons) - REASONS_SHOWN} more", "$text-muted"))
    if e.cues:
        parts.append(("\ncues: ", "bold $text-error"))
        parts.append(cue_kinds(e.cues))
        for c in e.cues[:CUES_SHOWN]:
            parts.append((f"\n  {cue_word(c)}", "$text-error" if c.blocking else "$text-warning"))
            parts.append((" at ", "$text-muted"))
            parts.append(safe_content(c.pointer, one_line=True, limit=60))
            parts.append(": ")
            parts.append(safe_content(c.text, one_line=True, limit=64))
        if len(e.cues) > CUES_SHOWN:
            parts.append((f"\n  … and {len(e.cues) - CUES_SHOWN} more cues", "$text-muted"))
    st = e.status
    for ch in st.changes if st is not None else ():
        if ch.witness is None:
            continue
        parts.append((f"\nwitness ({ch.klass}) at ", "$text-muted"))
        parts.append(safe_content(ch.pointer, one_line=True, limit=100))
        parts.append(": ")
        parts.append(safe_content(json_dumps_safe(ch.witness), one_line=True, limit=200))
    return Content.assemble(*parts)
