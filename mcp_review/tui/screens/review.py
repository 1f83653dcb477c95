"""Tool review screen: the evidence for one tool, and the operator's decision (returned by dismiss)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Header, Static, TabbedContent, TabPane, Tabs

from mcp_review.engine.calls import Call
from mcp_review.engine.compare import Comparison
from mcp_review.engine.hidden import decode_tags, find_hidden
from mcp_review.engine.model import Change, ChangeClass, ToolDef
from mcp_review.engine.pins import Decision
from mcp_review.engine.policy import (
    annotation_gate_less,
    annotation_relaxations,
    blocked_approval,
)
from mcp_review.engine.rules import render_change
from mcp_review.engine.status import State
from mcp_review.tui.diffing import CueText, Field, line_for_pointer, pretty_with_lines
from mcp_review.tui.messages import PolicyRequested, ask_app
from mcp_review.tui.render import name_content, name_line, safe_content
from mcp_review.tui.screens.modals import ask_reason
from mcp_review.tui.view import Flag, ToolEntry, cue_kinds, cue_word
from mcp_review.tui.widgets.change_list import ChangeList
from mcp_review.tui.widgets.diff_view import SideBySide
from mcp_review.tui.widgets.footer import KeyFooter
from mcp_review.tui.widgets.replay_table import ReplayTable
from mcp_review.tui.widgets.rerun_panel import RerunHook, RerunPanel


@dataclass(frozen=True)
class ReviewResult:
    """What the operator decided on the review screen (the app writes it through the core)."""

    decision: Decision
    note: str = ""
    why: str = ""
    """The reason given for approving a blocked change (written to the audit log)."""


def _pretty(schema: Any) -> tuple[str | None, dict[str, int]]:
    if schema is None:
        return None, {}
    return pretty_with_lines(schema)


UI_CUES = "#content"
"""How the pointer of a cue read in a UI resource's content ends (engine/status.ui_cues)."""


def ui_fields(old: Any, new: Any) -> list[Field]:
    """For each UI resource whose served record differs from the approved one: its approved
    and served text as two sides (the changed lines and their context, bounded), each under a
    line naming it; nothing when either side holds no records."""
    from mcp_review.engine.ui_resource import diff_lines, record_of

    out: list[Field] = []
    if old is None or new is None:
        return out
    for r in new:
        was = record_of(old, r.uri)
        if was is not None and was.same_content(r):
            continue
        if r.error is not None:
            out.append((None, f"UI resource {r.uri}: cannot be read: {r.error}"))
            continue
        lines, more = diff_lines(was, r)
        # "(…)" lines are ours (content kept by digest only): on both sides.
        left = [x if x[:1] == "(" else x[1:] for x in lines if x[:1] in (" ", "-", "(")]
        right = [x if x[:1] == "(" else x[1:] for x in lines if x[:1] in (" ", "+", "(")]
        cut = [f"… {more} more lines"] if more else []
        head = f"UI resource {r.uri} ({r.mime_type or 'no MIME type'})"
        was_head = f"UI resource {r.uri} ({was.mime_type or 'no MIME type'})" if was else None
        out.append(
            (
                "\n".join([was_head, *left, *cut]) if was_head is not None else None,
                "\n".join([head, *right, *cut]),
            )
        )
    return out


def _section(pointer: str) -> tuple[str, str]:
    """Which diff a pointer into the tool definition belongs to, and the pointer inside it."""
    for prefix, tab in (
        ("/inputSchema", "schema"),
        ("/outputSchema", "output"),
        ("/annotations", "annotations"),
        ("/execution", "execution"),
    ):
        if pointer == prefix or pointer.startswith(prefix + "/"):
            return tab, pointer[len(prefix) :]
    if pointer.startswith(("/description", "/title")):
        return "description", pointer
    return "", pointer


class ReviewScreen(Screen[ReviewResult | None]):
    """Description, schema, replay, annotations and output diffs of one tool, side by side."""

    CSS_PATH = "review.tcss"
    OPENS_A_SCREEN: ClassVar[frozenset[str]] = frozenset(
        {"approve", "deny", "note", "policy", "rerun", "back"}
    )
    """Actions that open a dialog or close this screen: run as their key arrives
    (``ReviewApp._key_now``), so the keys after it reach what comes next."""
    BINDINGS = [
        Binding("a", "approve", "Approve", tooltip="Approve this definition (pins it)"),
        Binding("d", "deny", "Deny", tooltip="Deny this tool"),
        Binding("e", "note", "Note", tooltip="Write a note kept with the decision"),
        Binding("p", "policy", "Policy", tooltip="Policy tier for this tool or its server"),
        # Listed in the help screen, not the footer (already full at 80 columns).
        Binding(
            "b",
            "rerun",
            "Rerun",
            show=False,
            tooltip="Re-send recorded read-only calls of this tool and compare the "
            "results (asks first)",
        ),
        Binding("escape", "back", "Back"),
        Binding("1", "tab('tab-schema')", "Schema", show=False),
        Binding("2", "tab('tab-description')", "Description", show=False),
        Binding("3", "tab('tab-replay')", "Replay", show=False),
        Binding("4", "tab('tab-annotations')", "Annotations", show=False),
        Binding("5", "tab('tab-output')", "Output", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit", show=False),
    ]

    note: var[str] = var("", init=False)
    """The operator's note for this decision (setting it redraws the summary). ``entry.note``
    explained the previous decision: it is shown, never carried into the new one."""
    tab: var[str] = var("", init=False, always_update=True)
    """The open tab (``tab-schema``, ``tab-description``, ``tab-replay``,
    ``tab-annotations``, ``tab-output``): setting it opens that tab and moves the focus into
    it (``1``–``5`` set it, once the tab is known to be shown)."""
    schema_diff_shows: var[str] = var("schema", init=False)
    """Which section the Schema tab's diff shows (it follows the highlighted change; setting
    it redraws that diff): schema, output, annotations or description."""

    def __init__(
        self,
        entry: ToolEntry,
        comparison: Comparison | None,
        *,
        removed_calls: list[Call] | None = None,
        rerun: RerunHook | None = None,
    ) -> None:
        super().__init__()
        self.rerun = rerun
        """How to re-run this tool's recorded calls (None: no live config to run them on)."""
        self.entry = entry
        self.comparison = comparison
        self.removed_calls = removed_calls
        """For a removed tool, its recorded calls (None when the server has no call log)."""
        self.draft = ""
        """Text typed in the note dialog and closed with esc (shown again when it reopens)."""
        self._old_lines: dict[str, dict[str, int]] = {}
        self._tabs_ready = False
        """Set once the tabs have mounted (``_focus_pane``); a tab key before that waits."""
        self._pending_tab: str | None = None
        self._new_lines: dict[str, dict[str, int]] = {}
        self._diff_texts: dict[str, tuple[list[Field], str]] = {}
        """Per section (schema, output, annotations, description): the pinned and current
        text of each field it shows and the empty marker, so the Schema tab's diff can show
        the highlighted change's."""

    @property
    def old(self) -> ToolDef | None:
        return self.entry.pinned

    @property
    def new(self) -> ToolDef | None:
        return self.entry.current

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="summary", markup=False)
        # A tab key that arrived before this ran (the screen was pushed, not yet composed) is
        # the tab to open on; the Output tab may be hidden, so it waits for _focus_pane.
        first = self._pending_tab if self._pending_tab not in (None, "tab-output") else None
        if first is not None:
            self._pending_tab = None
        with TabbedContent(id="tabs", initial=first or self._first_tab()):
            with TabPane("1 Schema", id="tab-schema"):
                yield ChangeList(id="changes")
                # The highlighted change in full, wrapped: the list's message column is cut.
                yield Static(id="change-detail", markup=False)
                yield SideBySide("pinned inputSchema", "now", id="schema-diff")
            with TabPane("2 Description", id="tab-description"):
                yield Static(id="text-notes", markup=False)
                yield SideBySide("pinned description", "now", id="desc-diff")
            with TabPane("3 Replay", id="tab-replay"):
                yield Static(id="replay-summary", markup=False)
                yield ReplayTable(id="replay")
                with VerticalScroll(id="witness-box"):
                    yield Static(id="witnesses", markup=False)
                yield RerunPanel(id="rerun-panel")
            with TabPane("4 Annotations", id="tab-annotations"):
                yield Static(id="ann-summary", markup=False)
                yield SideBySide("pinned annotations", "now", id="ann-diff")
            with TabPane("5 Output", id="tab-output"):
                yield SideBySide("pinned outputSchema", "now", id="output-diff")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = "mcp-review"
        self.sub_title = f"{name_line(self.entry.server, 30)} › {name_line(self.entry.name, 50)}"
        self._fill_summary()
        self._fill_schema()
        self._fill_description()
        self._fill_replay()
        self._fill_annotations()
        self._fill_output()
        self.call_after_refresh(self._focus_pane)

    def _focus_pane(self) -> None:
        self._tabs_ready = True
        if self._pending_tab is not None:
            # A tab key pressed while the screen was still mounting: honoured now.
            tab, self._pending_tab = self._pending_tab, None
            self.action_tab(tab)
            return
        tabs = self.query_one("#tabs", TabbedContent)
        pane = tabs.get_pane(tabs.active)
        target = next((w for w in pane.query("*") if w.focusable and w.display), None)
        if target is not None:
            target.focus()

    def _first_tab(self) -> str:
        """The tab of the most severe change: a blocking cue's text, then
        hidden characters, a contradicted annotation claim, broken recorded calls, another
        cue's text, then where the changes are."""
        cmp, e = self.comparison, self.entry
        if e.status is State.REMOVED and self.removed_calls:
            return "tab-replay"
        blocking = [c for c in e.cues if c.blocking]
        if blocking:
            return _cue_tab(blocking[0].pointer)  # the cues are most severe first
        if Flag.HIDDEN in e.flags and e.flags & {Flag.MORE_POWER, Flag.LESS_POWER}:
            return "tab-description"
        if e.blocked and e.flags & {Flag.MORE_POWER, Flag.LESS_POWER}:
            return "tab-annotations"
        if cmp is not None and cmp.replay is not None and cmp.replay.broken:
            return "tab-replay"
        if e.cues:
            return _cue_tab(e.cues[0].pointer)
        sections = {_section(c.pointer)[0] for c in cmp.changes} if cmp is not None else set()
        if sections == {"annotations"}:
            return "tab-annotations"  # every change is in the annotations
        if "schema" in sections:
            return "tab-schema"
        old_text = (self.old.title, self.old.description) if self.old else (None, None)
        new_text = (self.new.title, self.new.description) if self.new else (None, None)
        if Flag.HIDDEN in self.entry.flags or old_text != new_text:
            return "tab-description"
        if self.entry.flags & {Flag.MORE_POWER, Flag.LESS_POWER}:
            return "tab-annotations"
        if cmp is not None and any(_section(c.pointer)[0] == "output" for c in cmp.changes):
            return "tab-output"  # e.g. every change is in the outputSchema
        return "tab-schema"

    # Filling ---------------------------------------------------------------------------------
    def _fill_summary(self) -> None:
        e, cmp = self.entry, self.comparison
        parts: list[Content | tuple[str, str] | str] = [
            safe_content(e.server, style="bold", one_line=True, limit=60),
            " › ",
            name_content(e.name, style="bold", limit=120),
            "  ",
            (f" {e.status.value.upper()} ", "bold reverse"),
            "  ",
        ]
        if e.blocked:
            # What the operator must do comes first; the schema verdict after it.
            parts.append(("blocked: needs an explicit approval", "bold $text-error"))
            if cmp is not None:
                parts.append(" · ")
        if cmp is not None:
            counts = [f"{len(cmp.of_class(k))} {k}" for k in ChangeClass if cmp.of_class(k)]
            parts.append(
                (
                    f"{'schema ' if e.blocked or e.flags - {Flag.TEXT} else ''}verdict {cmp.verdict}",
                    "bold $text-error" if cmp.verdict == "FAIL" else "$text-success",
                )
            )
            if counts:
                parts.append(" · " + ", ".join(counts))
            if cmp.replay is not None:
                parts.append(f" · {cmp.replay.broken}/{cmp.replay.total} recorded calls break")
        for f in sorted(e.flags):
            if f is Flag.CUE:
                # What the live text asks of the model: the kinds, most severe
                # first (each marked where it stands in the diffs; blocking ones are reasons).
                parts.append(("  ⚠ cues: " + cue_kinds(e.cues), "bold $text-warning"))
                continue
            parts.append(("  ⚠ " + f.label, "bold $text-warning"))
        for n in e.notes:  # what the engine noticed beyond the diff (a homoglyph twin, …)
            parts.append(("\n⚠ ", "bold $text-warning"))
            parts.append(safe_content(n, style="bold $text-warning", one_line=True, limit=200))
        if e.blocked:
            parts.append(("\nblocked by policy", "bold $text-error"))
            for i, r in enumerate(e.reasons):
                parts.append(("; " if i else ": ", "$text-error"))
                parts.append(safe_content(r, style="$text-error", one_line=True, limit=90))
            parts.append((" (approving asks for confirmation)", "$text-muted"))
        if self.note:
            parts.append(Content("\nnote: ").stylize("$text-muted"))
            parts.append(safe_content(self.note, one_line=True, limit=200))
        elif e.note:
            parts.append(Content("\nprevious decision's note: ").stylize("$text-muted"))
            parts.append(safe_content(e.note, style="$text-muted", one_line=True, limit=200))
        self.query_one("#summary", Static).update(Content.assemble(*parts))

    def _cue_texts(self, where: Callable[[str], bool]) -> list[CueText]:
        """The cues of the texts at pointers ``where`` accepts, to mark in a diff."""
        return [(c.text, cue_word(c), c.blocking) for c in self.entry.cues if where(c.pointer)]

    def _section_cues(self, section: str) -> list[CueText]:
        """The cues read in the text ``section``'s diff shows (its tab marks them, and so does
        the Schema tab's diff when it follows a change there)."""
        if section == "description":
            return self._cue_texts(lambda p: p in ("/description", "/title") or p.endswith(UI_CUES))
        return self._cue_texts(lambda p: _section(p)[0] == section)

    def _fill_schema(self) -> None:
        old_text, self._old_lines["schema"] = _pretty(self.old.input_schema if self.old else None)
        new_text, self._new_lines["schema"] = _pretty(self.new.input_schema if self.new else None)
        self._diff_texts["schema"] = ([(old_text, new_text)], "(absent)")
        # The tool's `execution` field has no tab of its own: the Schema tab's diff shows it
        # when one of its changes is highlighted.
        old_x, self._old_lines["execution"] = _pretty(
            self.old.wire.get("execution") if self.old else None
        )
        new_x, self._new_lines["execution"] = _pretty(
            self.new.wire.get("execution") if self.new else None
        )
        self._diff_texts["execution"] = ([(old_x, new_x)], "(no execution field)")
        self.query_one("#schema-diff", SideBySide).show(
            old_text, new_text, cues=self._section_cues("schema")
        )
        changes = list(self.comparison.changes) if self.comparison is not None else []
        self.query_one("#changes", ChangeList).set_changes(changes)
        if not changes:
            self.query_one("#changes", ChangeList).display = False
            self.query_one("#change-detail", Static).display = False
        else:
            self._show_detail(changes[0])

    def _fill_description(self) -> None:
        old_d = self.old.description if self.old else None
        new_d = self.new.description if self.new else None
        diff = self.query_one("#desc-diff", SideBySide)
        old_t = self.old.title if self.old else None
        new_t = self.new.title if self.new else None
        fields: list[Field] = [(old_d, new_d)]
        if old_t != new_t:
            # The title is shown above the description when it changed: both are trust text.
            # Each is diffed against its own (a title added in the same
            # release stood beside the old description, and a sentence planted in the new
            # one was not marked inside it).
            fields.insert(
                0,
                (
                    f"title: {old_t}" if old_t is not None else None,
                    f"title: {new_t}" if new_t is not None else None,
                ),
            )
        # A changed UI resource is shown below, as text: its changed lines
        # with their context, bounded (engine/ui_resource.diff_lines).
        fields += ui_fields(self.old.ui if self.old else None, self.new.ui if self.new else None)
        self._diff_texts["description"] = (fields, "(no description)")
        diff.show_fields(
            fields,
            empty="(no description)",
            cues=self._section_cues("description"),
        )
        notes: list[Content | tuple[str, str] | str] = []
        served = "\n\n".join(n for _, n in fields if n is not None)
        hidden = find_hidden(served)
        if hidden:
            kinds = Counter(h.kind for h in hidden)
            notes.append(
                (
                    f"⚠ {len(hidden)} hidden characters in the served text: "
                    + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())),
                    "bold $text-warning",
                )
            )
            secret = decode_tags(served)
            if secret:
                notes.append(("\nTAG characters spell: ", "bold $text-warning"))
                notes.append(safe_content(secret, one_line=True, limit=500))
        elif not diff.changed:
            notes.append(("description unchanged", "$text-muted"))
        notes.extend(self._cut_notes(new_d))
        self.query_one("#text-notes", Static).update(Content.assemble(*notes))

    def _cut_notes(self, text: str | None) -> list[Content | tuple[str, str] | str]:
        """Where a target host cuts the description (Claude Code reads the first
        2,048 characters): the words before the cut, and what lies past it."""
        from mcp_review.engine.hosts import PROFILES

        out: list[Content | tuple[str, str] | str] = []
        for c in self.entry.cuts:
            if text is None:
                break
            label = PROFILES[c.profile].label
            past = c.length - c.at
            out.append((f"\n✂ the model on {label} stops here: character {c.at:,} of ", "bold"))
            out.append((f"{c.length:,}, after “…", "bold"))
            out.append(safe_content(text[max(0, c.at - 40) : c.at], one_line=True, limit=60))
            out.append(
                (
                    f"”; {past:,} character(s) past it are never read there (a cue past it "
                    "still counts: other hosts read it)",
                    "$text-warning",
                )
            )
        return out

    def _fill_replay(self) -> None:
        cmp = self.comparison
        summary = self.query_one("#replay-summary", Static)
        table = self.query_one("#replay", ReplayTable)
        r = cmp.replay if cmp is not None else None
        if self.entry.status is State.REMOVED and self.removed_calls:
            shown = table.set_removed(self.removed_calls)
            n = len(self.removed_calls)
            parts: list[Content | tuple[str, str] | str] = [
                (f"{n} recorded call{'s' if n != 1 else ''} would now fail", "bold $text-error"),
                " · the server no longer serves this tool",
            ]
            if shown < n:
                parts.append(f" · showing {shown}")
            summary.update(Content.assemble(*parts))
        elif self.entry.status is State.REMOVED and self.removed_calls is not None:
            summary.update(
                Content("no recorded calls for this tool: none known to fail").stylize(
                    "$text-muted"
                )
            )
            table.display = False
        elif r is None:
            summary.update(
                Content(
                    "no recorded calls for this tool: the proxy records them "
                    "(`mcp-review proxy SERVER`, docs/proxy.md), then this shows which break"
                ).stylize("$text-muted")
            )
            table.display = False
        else:
            shown = table.set_outcomes(r.outcomes)
            parts = [
                (
                    f"{r.broken} of {r.total} recorded calls break",
                    "bold $text-error" if r.broken else "bold $text-success",
                ),
                f" · {r.bad_recordings} bad recordings (invalid under old)",
            ]
            if r.ignored:
                parts.append((f" · {r.ignored} send an argument now ignored", "bold $text-error"))
            if shown < r.total:
                parts.append(f" · showing {shown}")
            if r.schema_error:
                parts.append(("\n" + "schema: ", "bold $text-error"))
                parts.append(safe_content(r.schema_error, one_line=True, limit=300))
            summary.update(Content.assemble(*parts))
        self._fill_witnesses(r is not None and r.broken > 0)

    # Rerun (`b`): plan on one connection, ask, send on another (services.rerun) ---------------

    def action_rerun(self) -> None:
        panel = self.query_one("#rerun-panel", RerunPanel)
        self.action_tab("tab-replay")
        if self.query_one("#tabs", TabbedContent).active != "tab-replay":
            # The replay pane holds nothing focusable (no calls): switch without focus.
            self.query_one("#tabs", TabbedContent).active = "tab-replay"
            self.set_focus(None)
        if self.rerun is None:
            panel.message(
                "rerun needs the live server from a config and its call log (not a "
                "snapshot, not a removed tool)"
            )
            return
        panel.message("listing the live tools to decide what may be re-sent…")
        self.run_worker(self._rerun_plan(), exclusive=True, exit_on_error=False, group="rerun")

    async def _rerun_plan(self) -> None:
        from mcp_review.engine.errors import InputError
        from mcp_review.formats.rerun import plan_text
        from mcp_review.services.rerun import RerunUnreachable
        from mcp_review.tui.screens.modals import ConfirmScreen

        assert self.rerun is not None
        panel = self.query_one("#rerun-panel", RerunPanel)
        try:
            planned = await self.rerun.plan()
        except RerunUnreachable as e:
            panel.message(f"the server could not be reached: {e}", "$text-error")
            return
        except InputError as e:  # a call log or seal key refused (a link, another owner…)
            panel.message(f"nothing can be re-sent: {e}", "$text-error")
            return
        panel.show_report(planned, planned=True)
        if not planned.to_send:
            return

        def done(ok: bool | None) -> None:
            if ok:
                panel.message("sending each call twice…")
                self.run_worker(
                    self._rerun_send(planned), exclusive=True, exit_on_error=False, group="rerun"
                )
            else:
                panel.message("nothing sent")

        self.app.push_screen(
            ConfirmScreen(
                f"Re-send {len(planned.to_send)} recorded call(s), each twice?",
                plan_text(planned),
                yes="Send",
            ),
            done,
        )

    async def _rerun_send(self, planned: Any) -> None:
        from mcp_review.services.rerun import RerunUnreachable

        assert self.rerun is not None
        panel = self.query_one("#rerun-panel", RerunPanel)
        try:
            report = await self.rerun.execute(planned)
        except RerunUnreachable as e:
            panel.message(f"the server could not be reached: {e}", "$text-error")
            return
        panel.show_report(report)

    def _fill_witnesses(self, calls_break: bool) -> None:
        cmp = self.comparison
        lines: list[Content] = []
        for c in cmp.changes if cmp is not None else []:
            if not c.has_witness:
                continue
            what, rejected = c.witness_wording
            head = Content.assemble(
                ("witness ", "bold"),
                (c.rule, "$text-accent"),
                " at ",
                safe_content(c.pointer, one_line=True, limit=120),
                (" (promoted to breaking)" if c.promoted else "", "bold"),
            )
            lines.append(head)
            lines.append(
                Content.assemble(
                    f"  {what}: ",
                    safe_content(
                        json.dumps(c.witness, ensure_ascii=False, sort_keys=True),
                        one_line=True,
                        limit=400,
                    ),
                )
            )
            if c.witness_error:
                lines.append(
                    Content.assemble(
                        (f"  {rejected}: ", "$text-error"),
                        safe_content(c.witness_error, one_line=True, limit=400),
                    )
                )
        box = self.query_one("#witness-box")
        if not lines:
            box.display = False
            return
        title = (
            "generated witnesses (evidence: no recorded call breaks)"
            if not calls_break
            else "generated witnesses"
        )
        self.query_one("#witnesses", Static).update(
            Content("\n").join([Content(title).stylize("bold underline"), *lines])
        )

    def _fill_annotations(self) -> None:
        old_a = self.old.wire.get("annotations") if self.old else None
        new_a = self.new.wire.get("annotations") if self.new else None
        old_text, self._old_lines["annotations"] = _pretty(old_a)
        new_text, self._new_lines["annotations"] = _pretty(new_a)
        self._diff_texts["annotations"] = ([(old_text, new_text)], "(no annotations)")
        self.query_one("#ann-diff", SideBySide).show(
            old_text, new_text, empty="(no annotations)", cues=self._section_cues("annotations")
        )
        relaxed: tuple[str, ...] = ()
        less: tuple[str, ...] = ()
        if self.old is not None and self.new is not None:
            relaxed = annotation_relaxations(self.old, self.new)
            less = annotation_gate_less(self.old, self.new)
        warn = [
            x
            for x in (
                "claims more power: " + ", ".join(relaxed) if relaxed else "",
                "claims less power (clients gate it less): " + ", ".join(less) if less else "",
            )
            if x
        ]
        msg = (
            Content.assemble(
                ("⚠ " + "; ".join(warn), "bold $text-error"), " (no policy tier auto-approves this)"
            )
            if warn
            else Content("no annotation claims more or less power").stylize("$text-muted")
        )
        self.query_one("#ann-summary", Static).update(msg)

    def _fill_output(self) -> None:
        old_o = self.old.output_schema if self.old else None
        new_o = self.new.output_schema if self.new else None
        old_text, self._old_lines["output"] = _pretty(old_o)
        new_text, self._new_lines["output"] = _pretty(new_o)
        self._diff_texts["output"] = ([(old_text, new_text)], "(no outputSchema)")
        if old_o is None and new_o is None:
            self.query_one("#tabs", TabbedContent).hide_tab("tab-output")
            return
        self.query_one("#output-diff", SideBySide).show(
            old_text, new_text, empty="(no outputSchema)", cues=self._section_cues("output")
        )

    # Change list → diff -----------------------------------------------------------------------
    @on(ChangeList.Selected)
    def _reveal_change(self, event: ChangeList.Selected) -> None:
        # Moving the cursor scrolls the diff in place; enter on a change whose diff lives on
        # another tab (an outputSchema change: the Output tab) shows that diff.
        self._show_detail(event.change)
        self.reveal(event.change.pointer, switch=event.chosen)

    def _show_detail(self, c: Change) -> None:
        """The highlighted change in full under the list: rule, where, and the whole message
        wrapped (the list's message column cuts a long one)."""
        parts: list[Content | tuple[str, str] | str] = [
            (c.rule, "bold $text-accent"),
            " at ",
            safe_content(c.pointer, one_line=True, limit=200),
            "\n",
            safe_content(render_change(c), one_line=True, limit=1200),
        ]
        if c.note:
            parts += ["\n", safe_content(c.note, style="$text-muted", one_line=True, limit=400)]
        if c.settle:
            parts += [
                "\n",
                ("settle: ", "bold $text-warning"),
                safe_content(c.settle, one_line=True, limit=600),
            ]
        self.query_one("#change-detail", Static).update(Content.assemble(*parts))

    _SECTION_TITLE = {
        "schema": "pinned inputSchema",
        "output": "pinned outputSchema",
        "annotations": "pinned annotations",
        "description": "pinned description",
        "execution": "pinned execution",
    }

    def _schema_diff_to(self, section: str) -> SideBySide:
        """The Schema tab's diff, showing ``section`` (the highlighted change's part of the
        definition: an output-side change shows the outputSchema diff right there)."""
        if section in self._diff_texts:
            self.schema_diff_shows = section
        return self.query_one("#schema-diff", SideBySide)

    def watch_schema_diff_shows(self, section: str) -> None:
        fields, empty = self._diff_texts[section]
        diff = self.query_one("#schema-diff", SideBySide)
        diff.old_title = self._SECTION_TITLE[section]
        diff.show_fields(fields, empty=empty, cues=self._section_cues(section))

    def watch_note(self) -> None:
        self._fill_summary()

    def reveal(self, pointer: str, *, switch: bool = True) -> bool:
        """Scroll the diff holding ``pointer`` to it: on its own tab if ``switch``, else on the
        Schema tab, whose diff follows the highlighted change."""
        section, inner = _section(pointer)
        if not section:
            return False
        if section == "execution":  # no tab of its own: the Schema tab's diff shows it
            diff = self._schema_diff_to("execution")
            line = line_for_pointer(self._new_lines.get(section, {}), inner)
            return line is not None and diff.reveal("new", line)
        if section == "description":
            if switch:
                self.action_tab("tab-description")
            else:
                self._schema_diff_to("description")
            return True
        diff_id = {"schema": "#schema-diff", "output": "#output-diff", "annotations": "#ann-diff"}[
            section
        ]
        new_line = line_for_pointer(self._new_lines.get(section, {}), inner)
        old_line = line_for_pointer(self._old_lines.get(section, {}), inner)
        if section != "schema" and switch:
            self.action_tab(f"tab-{section}")
        # The change's own diff (on its tab) is scrolled to it; unless the operator switched
        # there, the Schema tab's diff shows it too.
        diffs = (
            [self._schema_diff_to(section)]
            if section == "schema"
            else [self.query_one(diff_id, SideBySide)]
        )
        if section != "schema" and not switch:
            diffs.append(self._schema_diff_to(section))
        exact_new = inner in self._new_lines.get(section, {})
        found = False
        for diff in diffs:
            if exact_new or old_line is None:
                found = new_line is not None and diff.reveal("new", new_line)
            else:
                found = diff.reveal("old", old_line)
        return found

    # Actions ------------------------------------------------------------------------------------
    def action_tab(self, tab: str) -> None:
        if not self._tabs_ready:
            # A key that reaches the screen before its tabs have mounted (NoMatches), or before
            # TabbedContent has applied its initial tab (which would undo this one): the last
            # one is remembered, opened on by compose or applied once mounted (_focus_pane).
            self._pending_tab = tab
            return
        tabs = self.query_one("#tabs", TabbedContent)
        try:
            pane = tabs.get_pane(tab)
            shown = tabs.get_tab(tab).display
        except NoMatches:
            return
        if pane is None or shown is False:
            # The only tab ever hidden: say why instead of doing nothing.
            self.notify(
                "this tool has no output schema, pinned or now: no Output tab",
                markup=False,
                timeout=3,
            )
            return
        self.tab = tab

    def watch_tab(self, tab: str) -> None:
        tabs = self.query_one("#tabs", TabbedContent)
        pane = tabs.get_pane(tab)
        # Focus moves into the new pane first: TabbedContent switches back to the pane that
        # holds the focused widget otherwise.
        target = next((w for w in pane.query("*") if w.focusable and w.display), None)
        if target is not None:
            target.focus()
        else:
            tabs.query_one(Tabs).focus()
        tabs.active = tab

    @on(TabbedContent.TabActivated, "#tabs")
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        # A tab opened another way (a click, the replay pane opened without focus): the
        # attribute follows, without opening it again.
        if event.pane.id is not None:
            self.set_reactive(ReviewScreen.tab, event.pane.id)

    def action_back(self) -> None:
        self.dismiss(None)

    def action_deny(self) -> None:
        self.dismiss(ReviewResult(Decision.DENIED, self.note))

    def action_approve(self) -> None:
        if not blocked_approval(Decision.APPROVED, self.entry.policy):
            self.dismiss(ReviewResult(Decision.APPROVED, self.note))
            return

        def approve(why: str) -> None:
            self.dismiss(ReviewResult(Decision.APPROVED, self.note, why=why))

        ask_reason(self.app, self.entry, approve)

    def action_note(self) -> None:
        from mcp_review.tui.screens.modals import NoteResult, NoteScreen

        def done(result: NoteResult | None) -> None:
            if result is None:
                return
            if result.saved:
                self.note, self.draft = result.text, ""
            else:
                self.draft = result.text  # esc closes; the typed text is not lost

        self.app.push_screen(NoteScreen(self.draft or self.note), done)

    def action_policy(self) -> None:
        ask_app(self, PolicyRequested(self.entry.server, self.entry))


def _cue_tab(pointer: str) -> str:
    """The tab that shows the text at ``pointer``."""
    if pointer in ("/description", "/title") or not pointer:
        return "tab-description"
    if pointer.startswith("/annotations"):
        return "tab-annotations"
    if pointer.startswith("/outputSchema"):
        return "tab-output"
    return "tab-schema"
