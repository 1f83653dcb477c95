"""Modals: confirm a decision, a reason for approving a blocked change, approve all compatible,
apply auto-approvals, policy tier, note, help.

Keys never decide by accident: a choice dialog acts only on its own keys (shown in it) and is
cancelled by any other key, so stray typing cancels rather than confirms; in a text dialog keys
are text (enter confirms, esc cancels, and the typed text is kept for next time); ``q`` quits
outside text fields, deciding nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from textual import events, on
from textual.app import App, ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from mcp_review.engine.pins import Decision
from mcp_review.engine.policy import approval_allowed
from mcp_review.tui.render import name_content, name_line, safe_content
from mcp_review.tui.view import SurfaceEntry, ToolEntry

TIERS = ("strict", "tiered", "compatible")
TIER_HELP = {
    "strict": "every change waits for review",
    "tiered": "compatible-only changes re-pinned automatically; text waits; relaxations blocked",
    "compatible": "anything not breaking re-pinned automatically (servers you control)",
}


NAV_KEYS = frozenset(
    {"tab", "shift+tab", "left", "right", "up", "down", "home", "end", "pageup", "pagedown"}
)
"""Keys that move within a dialog without choosing anything."""


ChoiceResult = TypeVar("ChoiceResult")
"""What a :class:`ChoiceDialog` answers (None when cancelled)."""


class ChoiceDialog(ModalScreen[ChoiceResult | None]):
    """A dialog answered by a few keys (``CHOICE_KEYS``): every other key cancels it, except
    ``q``, which quits the app (deciding nothing), and the keys that move the focus.

    Answered once: a second answer (a button pressed with enter, then a key that cancels,
    both in one burst) is ignored, never dismissing the screen under it."""

    CHOICE_KEYS: frozenset[str] = frozenset({"escape", "enter"})
    answered = False

    def cancel(self) -> None:
        self.dismiss(None)

    def dismiss(self, result: ChoiceResult | None = None) -> AwaitComplete:
        if self.answered:
            return AwaitComplete(_nothing())
        self.answered = True
        return super().dismiss(result)

    async def key_now(self, event: events.Key) -> bool:
        """Answer ``event`` as it arrives, before the app routes the next key, even while this
        dialog is still opening (no widget focused yet): its own keys run
        their action, ``q`` quits, any other key cancels; True when done. The keys that move
        the focus, and enter (the focused button), go the usual way (False)."""
        key = event.key
        if self.answered:
            return True  # a key after the answer, before the dialog is gone: it was for this one
        if key in NAV_KEYS or key == "enter":
            return False
        if key == "q":
            self.app.exit()
            return True
        for binding in self._bindings.key_to_bindings.get(key, ()):
            await self.app.run_action(binding.action, self)
            return True
        if key in self.CHOICE_KEYS:
            return False
        self.cancel()
        return True

    def on_key(self, event: events.Key) -> None:
        if event.key in self.CHOICE_KEYS or event.key in NAV_KEYS:
            return
        event.stop()
        event.prevent_default()
        if event.key == "q":
            self.app.exit()
            return
        self.cancel()


async def _nothing() -> None:
    return None


def key_hint(*parts: tuple[str, str]) -> Content:
    """``y approve · n/esc cancel · any other key cancels``: a dialog shows its keys."""
    out: list[Content | tuple[str, str] | str] = []
    for key, what in parts:
        if out:
            out.append(("  ·  ", "$text-muted"))
        out.append((key, "bold $text-accent"))
        out.append((f" {what}", "$text-muted"))
    return Content.assemble(*out)


class _YesNoScreen(ChoiceDialog[bool]):
    """A modal answered by a #yes / #no button pair; No has the focus, the safe default.
    ``y`` is yes, ``n`` and ``esc`` no, enter presses the focused button; any other key is no."""

    CHOICE_KEYS = frozenset({"y", "n", "escape", "enter"})

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # the safe default

    def cancel(self) -> None:
        self.dismiss(False)

    def hint(self, yes: str) -> Static:
        return Static(
            key_hint(("y", yes), ("n/esc", "cancel"), ("any other key", "cancels")),
            classes="dialog-keys",
        )

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)


class ConfirmScreen(_YesNoScreen):
    """Yes/no; the body is plain text (it may quote a tool name)."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape,n", "no", "Cancel"), Binding("y", "yes", "Yes", show=False)]

    def __init__(self, title: str, body: str, *, yes: str = "Yes", no: str = "Cancel") -> None:
        super().__init__()
        self.title_text, self.body, self.yes, self.no = title, body, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -warning"):
            yield Static(
                safe_content(self.title_text, style="bold", one_line=True, limit=200),
                classes="dialog-title",
            )
            yield Static(safe_content(self.body, limit=2000), classes="dialog-body")
            yield self.hint(self.yes.lower())
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="yes")
                yield Button(f"{self.no} (n)", id="no")


class ApproveListScreen(_YesNoScreen):
    """Lists tools before approving them together (base of the approve-all modals): a title,
    an optional line under it, one row per tool, and Approve / Cancel (Cancel focused)."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape,n", "no", "Cancel"), Binding("y", "yes", "Yes", show=False)]
    YES = "Approve all"

    def __init__(self, entries: list[ToolEntry]) -> None:
        super().__init__()
        self.entries = entries

    def heading(self) -> Content:
        raise NotImplementedError

    def explanation(self) -> Content | None:
        return None

    def row(self, e: ToolEntry) -> Content:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.heading(), classes="dialog-title")
            explanation = self.explanation()
            if explanation is not None:
                yield Static(explanation, classes="dialog-body")
            with VerticalScroll(classes="dialog-list"):
                for e in self.entries:
                    yield Static(self.row(e))
            yield self.hint(self.YES.lower())
            with Horizontal(classes="dialog-buttons"):
                yield Button(f"{self.YES} (y)", variant="success", id="yes")
                yield Button("Cancel (n)", id="no")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class ApproveAllScreen(ApproveListScreen):
    """Lists the compatible-only changes of one server before approving them together."""

    def __init__(self, server: str, entries: list[ToolEntry]) -> None:
        super().__init__(entries)
        self.server = server

    def heading(self) -> Content:
        return Content.assemble(
            (f"Approve {_plural(len(self.entries), 'compatible-only change')} of ", "bold"),
            safe_content(self.server, style="bold", one_line=True, limit=80),
            "?",
        )

    def row(self, e: ToolEntry) -> Content:
        return Content.assemble(
            "• ",
            name_content(e.name, limit=100),
            safe_content("  " + e.summary, style="$text-muted", one_line=True, limit=200),
        )


class AutoApproveScreen(ApproveListScreen):
    """Lists every tool whose policy outcome is auto-approve before re-pinning them."""

    YES = "Apply"

    def heading(self) -> Content:
        return Content(f"Apply {_plural(len(self.entries), 'auto-approval')}?").stylize("bold")

    def explanation(self) -> Content:
        return Content(
            "Each tool's policy tier allows its change: it is re-pinned to the "
            'definition served now, decided by "mcp-review (policy <tier>)" and '
            "logged. u undoes one at a time."
        ).stylize("$text-muted")

    def row(self, e: ToolEntry) -> Content:
        why = "; ".join(e.reasons) or "policy: auto-approve"
        parts: list[Content | str | tuple[str, str]] = [
            "• ",
            safe_content(e.server, one_line=True, limit=40),
            " › ",
            name_content(e.name, limit=80),
            "\n    ",
            safe_content(why, style="$text-muted", one_line=True, limit=200),
        ]
        if e.summary:
            parts.append(
                safe_content(f" · {e.summary}", style="$text-muted", one_line=True, limit=120)
            )
        return Content.assemble(*parts)


class PolicyScreen(ChoiceDialog[tuple[str | None, str]]):
    """Choose a policy tier for a tool or its whole server; returns (tool or None, tier).
    ↑/↓ move, enter chooses; esc or any other key cancels."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, server: str, tool: str | None, current: str) -> None:
        super().__init__()
        self.server, self.tool, self.current = server, tool, current

    def compose(self) -> ComposeResult:
        options: list[Option] = []
        scopes: list[tuple[str | None, Content]] = [
            (None, Content.assemble("server ", safe_content(self.server, one_line=True, limit=40)))
        ]
        if self.tool is not None:
            # A look-alike letter is marked here as everywhere (rе⟨U+0435⟩ad_file).
            scopes.insert(
                0, (self.tool, Content.assemble("tool ", name_content(self.tool, limit=40)))
            )
        for tool, label in scopes:
            for tier in TIERS:
                mark = " (current)" if tier == self.current and tool == scopes[0][0] else ""
                options.append(
                    Option(
                        Content.assemble(
                            label,
                            " → ",
                            (tier, "bold"),
                            (mark, "$text-accent"),
                            "\n  ",
                            (TIER_HELP[tier], "$text-muted"),
                        ),
                        id=f"{tier}\x00{tool or ''}",
                    )
                )
        with Vertical(classes="dialog"):
            yield Label("Policy tier", classes="dialog-title")
            yield OptionList(*options, id="tiers")
            yield Static(
                key_hint(("↑↓", "move"), ("enter", "choose"), ("esc / any other key", "cancels")),
                classes="dialog-keys",
            )

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        tier, tool = (event.option.id or "").split("\x00", 1)
        self.dismiss((tool or None, tier))

    def action_cancel(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class NoteResult:
    """What the note dialog returns: ``saved`` on enter; on esc the typed ``text`` comes back
    unsaved, so reopening the dialog shows it again (a typed note is never lost)."""

    text: str
    saved: bool


class DialogInput(Input):
    """A dialog's text field that takes enter in turn with the other keys. Input submits on
    enter through a binding, which runs only once the key has come back up to the app: in a
    burst (``enter`` then ``d``) the ``d`` was typed first and submitted with it (a blocked
    tool approved with the reason "d"). Here enter submits what was typed
    before it, and nothing typed after."""

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            await self.action_submit()
            return
        await super()._on_key(event)


class _TextDialog:
    """A dialog whose keys are text: those that arrive while it is still opening (typed in
    the burst that opened it, before its field has the focus) are its text too, never lost
    and never a command. ``DRAFT``: the attribute its field starts from."""

    DRAFT = ""
    answered = False

    def early_key(self, event: events.Key) -> bool:
        """True when ``event`` was taken as text (or dropped) here; False once the field has
        the focus (it types as usual). Enter never confirms from here: nothing is decided by
        a key the operator could not see land."""
        screen = cast(ModalScreen[Any], self)
        try:
            field: Input | None = screen.query_one(Input)
        except NoMatches:  # not composed yet: the field will start from the draft
            field = None
        if field is not None and screen.app.focused is field:
            return False
        if event.key == "escape":
            return False  # the dialog's own binding: cancel, as usual
        if event.is_printable and event.character:
            if field is None:
                setattr(self, self.DRAFT, getattr(self, self.DRAFT) + event.character)
            else:
                field.insert_text_at_cursor(event.character)
        return True


class NoteScreen(_TextDialog, ModalScreen[NoteResult]):
    """A free note kept with the next decision. While the field has focus keys are text:
    enter saves, esc closes without saving (the draft is kept)."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DRAFT = "note"

    def __init__(
        self, note: str = "", *, title: str = "Note (kept with the next decision)"
    ) -> None:
        super().__init__()
        self.note = note
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(
                safe_content(self.title_text, one_line=True, limit=200), classes="dialog-title"
            )
            # Not selected on focus: typing must add to a kept draft, never replace it.
            yield DialogInput(self.note, id="note", select_on_focus=False)
            yield Static(
                key_hint(("enter", "save"), ("esc", "close without saving (the text is kept)")),
                classes="dialog-keys",
            )

    @on(Input.Submitted)
    def _save(self, event: Input.Submitted) -> None:
        self.dismiss(NoteResult(event.value, True))

    def action_cancel(self) -> None:
        self.dismiss(NoteResult(self.query_one("#note", Input).value, False))


class ReasonScreen(_TextDialog, ModalScreen[str | None]):
    """Approving a blocked change: the operator says why (written to the audit log). Keys are
    text while the field has focus; enter approves once a reason is typed; esc cancels."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DRAFT = "draft"

    def __init__(self, title: str, body: str, draft: str = "") -> None:
        super().__init__()
        self.title_text, self.body, self.draft = title, body, draft

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -warning"):
            yield Static(
                safe_content(self.title_text, style="bold", one_line=True, limit=200),
                classes="dialog-title",
            )
            yield Static(safe_content(self.body, limit=2000), classes="dialog-body")
            yield DialogInput(
                self.draft,
                placeholder="why this blocked change is safe to trust",
                id="reason",
                select_on_focus=False,
            )
            yield Static(
                key_hint(("enter", "approve with this reason"), ("esc", "cancel")),
                classes="dialog-keys",
            )

    @on(Input.Submitted)
    def _approve(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            self.notify(
                "a reason is needed to approve a blocked change",
                severity="warning",
                markup=False,
                timeout=3,
            )
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


HELP = [
    (
        "Main screen",
        [
            ("enter", "review the selected tool"),
            ("n", "next decision: blocked first, then cued tools alone, then groups by size"),
            ("home/end", "first / last row"),
            ("/", "filter (text, status:changed, decision:block, flag:hidden); esc clears"),
            ("a / d", "approve / deny the selected tool (asks first; blocked: asks why)"),
            ("e", "write a note for the selected tool's next decision"),
            ("A", "approve every compatible-only change of the server (lists them first)"),
            ("g", "the group of alike changes the tool is in (review by kind)"),
            (
                "G",
                "groups: every decision the drift needs, groups of alike changes and tools alone",
            ),
            ("P", "apply auto-approvals: re-pin what the policy tiers allow (lists them first)"),
            ("p", "policy tier for the tool or its server"),
            ("u", "undo the last decision (asks first)"),
            ("r", "refresh: re-read the pins, fetch every server again"),
            ("q", "quit"),
        ],
    ),
    (
        "Review screen",
        [
            ("1 – 5", "schema · description · replay · annotations · output tabs"),
            (
                "↑ ↓",
                "move through changes: the diff below shows each (input or output schema, "
                "annotations, description), the whole message above it",
            ),
            ("enter", "on a change: its diff (an output change opens the Output tab)"),
            ("w", 'on a diff cut short for size ("word diff truncated"): compute the rest'),
            ("a", "approve (a blocked change asks for a reason, kept in the audit log)"),
            ("d", "deny"),
            ("e", "write a note"),
            ("p", "policy tier"),
            ("esc", "back"),
            ("b", "rerun: re-send recorded read-only calls, compare results (asks first)"),
        ],
    ),
    (
        "Groups",
        [
            ("enter", "groups view: open the group, or the review of a tool alone"),
            ("space", "group screen: leave the member out of the decision (again: take it back)"),
            ("a / d", "approve / deny the group's kind on its members (asks once; blocked: why)"),
            ("esc", "back"),
        ],
    ),
    (
        "Dialogs",
        [
            ("y / n", "yes / no; esc cancels; any other key cancels"),
            ("text", "keys are text; enter confirms, esc cancels (a note is kept)"),
        ],
    ),
    (
        "Everywhere",
        [
            ("ctrl+p", "command palette (actions, theme)"),
            ("?", "this help"),
            ("q", "quit (outside text fields); nothing is decided by quitting"),
        ],
    ),
]


class HelpScreen(ModalScreen[None]):
    """Every binding, grouped by screen."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape,question_mark", "close", "Close"), Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        parts: list[Content] = []
        for group, rows in HELP:
            parts.append(Content(group).stylize("bold underline"))
            for key, what in rows:
                parts.append(Content.assemble((f"  {key:<8} ", "bold $text-accent"), what))
            parts.append(Content(""))
        parts.append(
            Content("hidden characters show as ⟨U+200B⟩, ⟨ESC⟩, ⟨TAG a⟩").stylize("$text-muted")
        )
        with Vertical(classes="dialog help"):
            yield Label("mcp-review: keys", classes="dialog-title")
            with VerticalScroll(classes="dialog-list"):
                yield Static(Content("\n").join(parts))

    def action_close(self) -> None:
        self.dismiss(None)


def ask_reason(
    app: App[Any], entry: ToolEntry | SurfaceEntry, then: Callable[[str], object]
) -> None:
    """Approving a blocked change: first a yes/no (any key but ``y`` cancels, so stray
    typing never lands in the reason field), then the reason; ``then(reason)`` runs only
    with one. The reason goes to the audit log. The app (a decision from the list) and the
    review screen (whose dismiss carries the reason) ask the same way."""
    why = "; ".join(entry.reasons) or ", ".join(sorted(entry.flags)) or "policy: block"
    # A prompt, resource or template is named with its kind (``prompt review_change``).
    what = name_line(entry.label if isinstance(entry, SurfaceEntry) else entry.name)

    def got_reason(reason: str | None) -> None:
        # Approved only with a reason typed (engine.policy decides; cancelled: None).
        if reason is not None and approval_allowed(Decision.APPROVED, entry.policy, reason):
            then(reason)

    def confirmed(ok: bool | None) -> None:
        if ok:
            app.push_screen(
                ReasonScreen(
                    f"Why is {what} safe to trust?",
                    f"Blocked by policy: {why}. The reason is written to the audit log.",
                ),
                got_reason,
            )

    app.push_screen(
        ConfirmScreen(
            f"Approve {what}?",
            f"This change is blocked by policy ({why}). Approving pins it as trusted; you "
            "will be asked why.",
            yes="Approve anyway",
        ),
        confirmed,
    )
