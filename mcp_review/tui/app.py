"""ReviewApp: wires the screens to a ReviewSource and carries out the operator's decisions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Header, Static
from textual.worker import Worker, WorkerState

from mcp_review.engine.pins import Decision
from mcp_review.engine.policy import Outcome, approval_allowed, blocked_approval
from mcp_review.engine.status import State
from mcp_review.services.decisions import ChangedMeanwhile
from mcp_review.tui.fetchers import LiveFetcher
from mcp_review.tui.heap import QuietCollector
from mcp_review.tui.messages import (
    AutoApprovalsRequested,
    CompatibleApprovalRequested,
    DecisionRequested,
    GroupDecisionRequested,
    GroupItemRequested,
    GroupRequested,
    GroupsRequested,
    InstructionsDecisionRequested,
    PolicyRequested,
    ReviewRequested,
    SurfaceDecisionRequested,
    SurfaceReviewRequested,
    UndoRequested,
)
from mcp_review.tui.render import name_line, plain_line
from mcp_review.tui.screens.main import MainScreen
from mcp_review.tui.source import ReviewSource
from mcp_review.tui.view import ServerEntry, SurfaceEntry, ToolEntry
from mcp_review.tui.widgets.footer import KeyFooter

# The review screen, the dialogs and what only they use are imported where they are opened:
# nothing of them is on screen before the list, and a fleet's first frame waits for every
# import (benchmarks/README.md, start-up as a user runs it).
if TYPE_CHECKING:
    from mcp_review.engine.kinds import Alone, Group, SurfaceAlone
    from mcp_review.tui.screens.review import ReviewResult
    from mcp_review.tui.widgets.rerun_panel import RerunHook


class LoadingScreen(Screen[None]):
    """What the app shows while the pin file and the tool lists are read (a fleet's take a
    second): a line saying so, and nothing that can decide anything."""

    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(plain_line(f"loading… {self.what}", 300), id="loading", markup=False)
        yield KeyFooter()


class ReviewApp(App[None]):
    """Triage MCP tool drift: ``ReviewApp(source).run()``.

    Screens ask the app for decisions with messages (``tui.messages``: messages up); the
    app asks the operator first, writes each decision at once through the source's session,
    then tells the main screen to recompute (attributes down). No screen writes a file.
    """

    TITLE = "mcp-review"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]

    source: ReviewSource
    """Set at once, or once the function given reads it (nothing reads it before)."""

    def __init__(
        self,
        source: ReviewSource | Callable[[], ReviewSource],
        *,
        subtitle: str = "",
        theme: str | None = None,
        loading: str = "",
    ) -> None:
        """``source``: the source, or a function that reads it (the pin file, the tool lists).
        A function is called in a thread once the app is up, so a fleet's files are read while
        the app shows "loading…" (:class:`LoadingScreen`); the list, and with it every
        decision, comes only once it returned. An exception it raises ends the app and is kept
        in :attr:`load_error` for the caller to report (the `review` command: exit 2 on a bad
        pin file, as before the app opened). ``loading``: what the loading line names."""
        super().__init__()
        self.sub_title = subtitle
        self.main: MainScreen | None = None
        self.heap = QuietCollector()
        """On a big fleet, full garbage collections wait for a pause in the input."""
        self._load: Callable[[], ReviewSource] | None = None
        self._loading = loading
        self.load_error: BaseException | None = None
        """What reading the source raised (the app then exits at once), else None."""
        if isinstance(source, ReviewSource):
            self._use(source)
        else:
            self._load = source
        if theme:
            self.theme = theme

    def _use(self, source: ReviewSource) -> None:
        self.source = source
        if source.candidates:
            # The header says which version is shown: an upgrade preview (--candidate) must
            # never pass for the running servers.
            self.title = "mcp-review · CANDIDATE of " + ", ".join(
                plain_line(n, 40) for n in source.candidates
            )

    def on_mount(self) -> None:
        self.set_interval(self.heap.TICK, self.heap.tick)
        if self._load is None:
            self._show_main()
            return
        self.push_screen(LoadingScreen(self._loading))
        self.run_worker(self._read_source, thread=True, exit_on_error=False, group="load")

    def _read_source(self) -> ReviewSource:
        assert self._load is not None
        return self._load()

    @on(Worker.StateChanged)
    def _on_read(self, event: Worker.StateChanged) -> None:
        # Only the app's own worker (a screen's worker messages do not bubble up here).
        if event.worker.group != "load":
            return
        if event.state is WorkerState.SUCCESS:
            source = event.worker.result
            assert isinstance(source, ReviewSource)
            self._source_read(source)
        elif event.state is WorkerState.ERROR:
            # Reported by the caller once the terminal is restored (exit 2 on an InputError).
            self.load_error = event.worker.error
            self.exit(return_code=2)

    def _source_read(self, source: ReviewSource) -> None:
        self._use(source)
        snap = source.snapshot_given
        if snap is not None:
            # What the fetch would settle in a moment (MainScreen.fetch), settled before the
            # list's screen is built: a full collection walking a fleet's snapshot and pin
            # file meanwhile cost ~60 ms of the first frame (benchmarks/README.md).
            self.heap.settle(sum(len(s.tools) for s in snap.servers.values()))
        self._show_main(replace=True)

    def _show_main(self, *, replace: bool = False) -> None:
        self.main = MainScreen(self.source, self.heap)
        if replace:
            self.switch_screen(self.main)
        else:
            self.push_screen(self.main)
        bad = self.source.unverified_pins()
        if bad:
            # Those tools read as unpinned (review them again to re-pin); say why, and stay up.
            self.notify(
                plain_line(bad, 600), title="pin file", severity="error", markup=False, timeout=30
            )

    def on_unmount(self) -> None:
        self.heap.restore()  # CPython's collection schedule again once the app stops

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            self.heap.input()
        if isinstance(event, events.Key) and not event.is_forwarded and await self._key_now(event):
            return
        await super().on_event(event)

    async def _key_now(self, event: events.Key) -> bool:
        """Handle a key that opens or answers a dialog as it arrives (True: handled).

        Textual routes each key to the focused widget when the app takes it from its queue,
        and runs a screen's binding only when the key has come back up: keys typed in one
        burst were all routed before the first one's dialog existed (``ax``
        left Approve waiting for ``y``, the ``x`` spent on the list; ``asdf`` stacked Deny over
        Approve). So the app itself runs, in order, each key that opens a screen (the screen's
        ``OPENS_A_SCREEN`` actions; the dialog is on top when the call returns, see
        ``messages.ask_app``), and each key a choice dialog answers (``ChoiceDialog.key_now``,
        even while it is still opening); a text dialog still opening gets the keys as its text.
        A field with the focus keeps its keys: typing in the filter decides nothing."""
        from textual.widgets import Input

        from mcp_review.tui.screens.modals import ChoiceDialog, NoteScreen, ReasonScreen

        screen = self.screen
        if isinstance(screen, ChoiceDialog):
            return await screen.key_now(event)
        if isinstance(screen, NoteScreen | ReasonScreen):
            return screen.early_key(event)
        if isinstance(self.focused, Input):
            return False
        actions: frozenset[str] = getattr(screen, "OPENS_A_SCREEN", frozenset())
        for binding in screen._bindings.key_to_bindings.get(event.key, ()):
            if binding.action in actions:
                if not self._decision_dialog_open():
                    await self.run_action(binding.action, screen)
                return True
        return False

    def _decision_dialog_open(self) -> bool:
        """One of the app's dialogs is on the stack (under the top screen too): no second one
        opens. (Textual's own, the command palette, closes before its command runs.)"""
        from mcp_review.tui.screens.modals import ChoiceDialog, NoteScreen, ReasonScreen

        return any(
            isinstance(s, ChoiceDialog | NoteScreen | ReasonScreen) for s in self.screen_stack
        )

    def handle_request(self, message: object) -> None:
        """A screen's request, handled now (``messages.ask_app``): the same handlers as the
        messages, so a dialog it opens is on top when this returns. While a dialog is open, a
        request for another is dropped: no second decision dialog over the first."""
        if self._decision_dialog_open():
            return
        handlers: dict[type, Callable[[Any], None]] = {
            ReviewRequested: self._on_review_requested,
            DecisionRequested: self._on_decision_requested,
            InstructionsDecisionRequested: self._on_instructions_decision_requested,
            SurfaceReviewRequested: self._on_surface_review_requested,
            SurfaceDecisionRequested: self._on_surface_decision_requested,
            GroupRequested: self._on_group_requested,
            GroupsRequested: self._on_groups_requested,
            GroupItemRequested: self._on_group_item_requested,
            GroupDecisionRequested: self._on_group_decision_requested,
            CompatibleApprovalRequested: self._on_compatible_approval_requested,
            AutoApprovalsRequested: self._on_auto_approvals_requested,
            UndoRequested: self._on_undo_requested,
            PolicyRequested: self._on_policy_requested,
        }
        handler = handlers.get(type(message))
        if handler is not None:
            handler(message)

    # Commands ----------------------------------------------------------------------------------
    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.main is None:
            return
        m = self.main
        yield SystemCommand(
            "Next tool needing review", "Jump to the next tool to review", m.action_next_review
        )
        yield SystemCommand("Refresh", "Fetch every server again", m.action_refresh)
        yield SystemCommand(
            "Approve compatible-only changes of this server",
            "Lists them first",
            m.action_approve_compatible,
        )
        yield SystemCommand(
            "Apply auto-approvals",
            "Re-pin every tool the policy tiers auto-approve (lists them first)",
            m.action_auto_approve,
        )
        yield SystemCommand("Undo last decision", "Restores the previous pin", self.undo)
        yield SystemCommand("Filter tools", "By text, status:… or flag:…", m.action_filter)
        yield SystemCommand("Policy tier", "For the selected tool or its server", m.action_policy)
        yield SystemCommand("Help: keys", "Every binding", self.action_help)

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        from mcp_review.tui.screenshot import screenshot_dir

        return super().deliver_screenshot(filename, screenshot_dir(path), time_format)

    def action_help(self) -> None:
        from mcp_review.tui.screens.modals import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    # Messages from the screens -------------------------------------------------------------------
    @on(ReviewRequested)
    def _on_review_requested(self, message: ReviewRequested) -> None:
        self.open_review(message.entry)

    @on(DecisionRequested)
    def _on_decision_requested(self, message: DecisionRequested) -> None:
        self.request_decision(message.entry, message.decision, message.note)

    @on(InstructionsDecisionRequested)
    def _on_instructions_decision_requested(self, message: InstructionsDecisionRequested) -> None:
        self.request_instructions_decision(message.server, message.decision)

    @on(SurfaceReviewRequested)
    def _on_surface_review_requested(self, message: SurfaceReviewRequested) -> None:
        self.open_surface(message.entry)

    @on(SurfaceDecisionRequested)
    def _on_surface_decision_requested(self, message: SurfaceDecisionRequested) -> None:
        self.request_surface_decision(message.entry, message.decision)

    @on(GroupRequested)
    def _on_group_requested(self, message: GroupRequested) -> None:
        self.open_group_of(message.entry)

    @on(GroupsRequested)
    def _on_groups_requested(self, message: GroupsRequested) -> None:
        self.open_groups()

    @on(GroupItemRequested)
    def _on_group_item_requested(self, message: GroupItemRequested) -> None:
        from mcp_review.engine.kinds import Group, SurfaceAlone

        item = message.item
        if isinstance(item, Group):
            self.open_group(item)
        elif isinstance(item, SurfaceAlone):
            self.open_surface_alone(item)
        else:
            self.open_alone(item)

    @on(GroupDecisionRequested)
    def _on_group_decision_requested(self, message: GroupDecisionRequested) -> None:
        self.request_group_decision(message.group, message.decision, message.left_out)

    @on(CompatibleApprovalRequested)
    def _on_compatible_approval_requested(self, message: CompatibleApprovalRequested) -> None:
        self.approve_compatible(message.server)

    @on(AutoApprovalsRequested)
    def _on_auto_approvals_requested(self, message: AutoApprovalsRequested) -> None:
        self.apply_auto_approvals()

    @on(UndoRequested)
    def _on_undo_requested(self, message: UndoRequested) -> None:
        self.request_undo()

    @on(PolicyRequested)
    def _on_policy_requested(self, message: PolicyRequested) -> None:
        server = self._server(message.server)
        if server is not None:
            self.choose_policy(server, message.entry)

    def _server(self, name: str) -> ServerEntry | None:
        """The main screen's row of server ``name`` (None before the first status)."""
        return next((s for s in (self.main.servers if self.main else []) if s.name == name), None)

    # Flow ----------------------------------------------------------------------------------------
    def _pending(self, entry: ToolEntry) -> bool:
        """True (and says so) while ``entry`` is not compared yet: nothing is opened or decided
        on a placeholder status (fail closed: its policy might be block)."""
        if entry.pending:
            self.notify(
                f"{name_line(entry.name)}: still comparing with the pinned definition; "
                "try again when its changes show",
                markup=False,
                timeout=3,
            )
        return entry.pending

    def open_review(self, entry: ToolEntry) -> None:
        if self._pending(entry):
            return
        from mcp_review.tui.screens.review import ReviewScreen

        cmp = None
        if entry.pinned is not None and entry.current is not None:
            cmp = self.source.comparison(entry)

        def done(result: ReviewResult | None) -> None:
            if result is not None:
                self.decide(entry, result.decision, result.note, why=result.why)

        # A removed tool has no comparison: its recorded calls are the calls that would fail.
        removed = self.source.recorded_calls(entry) if entry.status is State.REMOVED else None
        self.push_screen(
            ReviewScreen(entry, cmp, removed_calls=removed, rerun=self._rerun_hook(entry)), done
        )

    def _rerun_hook(self, entry: ToolEntry) -> RerunHook | None:
        """What `b` on the replay tab needs: the live server's config, the pins and its call
        log; None for a snapshot review, a removed tool, or a server without a call log."""
        import os

        from mcp_review.services.rerun import call_log_for
        from mcp_review.tui.widgets.rerun_panel import RerunHook

        if not isinstance(self.source.fetcher, LiveFetcher) or entry.current is None:
            return None
        cfg = self.source.fetcher.config
        try:
            srv = cfg.by_name(entry.server)
        except KeyError:
            return None
        path = call_log_for(srv, cfg.state_dir)
        if not os.path.exists(path):
            return None
        return RerunHook(srv, self.source.pins, path, entry.name)

    def request_decision(self, entry: ToolEntry, decision: Decision | str, note: str = "") -> None:
        """A decision from the main screen always asks first (a stray key must never decide):
        a blocked approval asks for a reason, written to the audit log; any other decision
        asks yes/no, and any key but ``y`` cancels."""
        if self._pending(entry):
            return
        from mcp_review.tui.screens.modals import ConfirmScreen, ask_reason

        decision = Decision(decision)
        if blocked_approval(decision, entry.policy):
            ask_reason(self, entry, lambda why: self.decide(entry, decision, note, why=why))
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.decide(entry, decision, note)

        name = name_line(entry.name, 200)
        if decision is Decision.APPROVED and entry.status is State.REMOVED:
            # Nothing is served to approve: approving a removal acknowledges it (the pin goes),
            # as the audit log words it.
            self.push_screen(
                ConfirmScreen(
                    f"Acknowledge the removal of {name}?",
                    f"{entry.server} › {name} is no longer served. Acknowledging the removal "
                    'drops its pin; the audit log records "removal acknowledged". If the tool '
                    "comes back it is new and reviewed again."
                    + (f"\nnote: {note}" if note else ""),
                    yes="Acknowledge",
                ),
                done,
            )
            return
        verb = "Approve" if decision is Decision.APPROVED else "Deny"
        what = entry.summary or str(entry.status)
        body = (
            f"{entry.server} › {name}: {entry.status}"
            + (f" ({what})" if what != str(entry.status) else "")
            + (
                ". Approving pins the definition served now."
                if decision is Decision.APPROVED
                else ". Denying keeps it withheld until approved."
            )
            + (f"\nnote: {note}" if note else "")
        )
        self.push_screen(ConfirmScreen(f"{verb} {name_line(entry.name)}?", body, yes=verb), done)

    def request_instructions_decision(self, server: ServerEntry, decision: Decision | str) -> None:
        """Approve or deny a server's instructions from its row: the dialog shows what changed
        (the diff, hidden characters as visible tokens) and always asks first."""
        from mcp_review.tui.screens.modals import ConfirmScreen

        decision = Decision(decision)
        st = server.instructions
        if st is None:
            self.notify(
                f"{plain_line(server.name, 30)} sends no instructions", markup=False, timeout=3
            )
            return
        verb = "Approve" if decision is Decision.APPROVED else "Deny"
        blocked = blocked_approval(decision, st.policy.outcome)
        lines = [f"{server.name}: server instructions {st.state}"]
        lines += [f"- {r}" for r in st.policy.reasons]
        lines += st.diff(context=2)[2:] or (st.live or "").splitlines()
        if decision is Decision.APPROVED:
            lines.append("Approving pins exactly these instructions; the proxy passes them on.")
        else:
            lines.append("Denying keeps them from clients behind `proxy --enforce`.")

        def done(ok: bool | None) -> None:
            if not ok:
                return
            why = (
                "approved blocked instructions: " + "; ".join(st.policy.reasons) if blocked else ""
            )
            try:
                self.source.decide_instructions(server, decision, why=why)
            except ChangedMeanwhile as e:
                # Decided on disk since the row was computed: nothing written; the row shows
                # the new state, decided again from there.
                self.notify(plain_line(str(e), 300), severity="warning", markup=False, timeout=10)
                self._reload()
                return
            except Exception as e:
                self.notify(
                    f"could not record {decision}: {plain_line(str(e), 300)}",
                    severity="error",
                    markup=False,
                    timeout=10,
                )
                return
            self.notify(
                f"{decision}: {plain_line(server.name, 30)} › instructions", markup=False, timeout=3
            )
            self._save_notes()
            self._reload()

        self.push_screen(
            ConfirmScreen(
                f"{verb} the instructions of {plain_line(server.name, 60)}?",
                "\n".join(lines),
                yes=f"{verb} anyway" if blocked else verb,
            ),
            done,
        )

    # Prompts, resources and resource templates ---------------------------------------
    def open_surface(self, entry: SurfaceEntry) -> None:
        """Its review screen: the evidence and the diff; a / d there decide (asking first)."""
        from mcp_review.tui.screens.surface import SurfaceScreen

        def done(result: ReviewResult | None) -> None:
            if result is not None:
                self.decide_surface(entry, result.decision, why=result.why)

        self.push_screen(SurfaceScreen(entry), done)

    def surface_entry_for(self, key: tuple[str, str, str, str]) -> SurfaceEntry | None:
        """The list's row of the prompt, resource or template ``key`` (None: not listed)."""
        server = self._server(key[0])
        return next((x for x in (server.surfaces if server else ()) if x.key == key), None)

    def open_surface_alone(self, item: SurfaceAlone) -> None:
        """A prompt, resource or template from the groups view: its review screen."""
        entry = self.surface_entry_for(item.key)
        if entry is None:
            self.notify("that prompt or resource is no longer in the list", markup=False)
            return
        self.open_surface(entry)

    def request_surface_decision(self, entry: SurfaceEntry, decision: Decision | str) -> None:
        """From the list, as for a tool: always asks first; a blocked approval asks for the
        typed reason (``modals.ask_reason``), written to the audit log."""
        from mcp_review.tui.render import name_line
        from mcp_review.tui.screens.modals import ConfirmScreen, ask_reason

        decision = Decision(decision)
        what = name_line(entry.label, 200)
        if decision is Decision.APPROVED and entry.state == "removed":
            self.notify(
                f"{what} is not served: nothing to approve (d denies the pinned one)",
                markup=False,
                timeout=4,
            )
            return
        if blocked_approval(decision, entry.policy):
            ask_reason(self, entry, lambda why: self.decide_surface(entry, decision, why=why))
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.decide_surface(entry, decision)

        verb = "Approve" if decision is Decision.APPROVED else "Deny"
        body = [f"{entry.server} › {what}: {entry.state} ({entry.summary})"]
        body += [f"- {r}" for r in entry.reasons[:6]]
        body.append(
            "Approving pins exactly the definition served now; the proxy passes it on."
            if decision is Decision.APPROVED
            else "Denying keeps it from clients behind `proxy --enforce`."
        )
        self.push_screen(ConfirmScreen(f"{verb} {what}?", "\n".join(body), yes=verb), done)

    def decide_surface(
        self, entry: SurfaceEntry, decision: Decision | str, *, why: str = ""
    ) -> bool:
        """Write one decision about a prompt, resource or template at once (through
        ``services.surface_decisions``); report and redraw."""
        from mcp_review.tui.render import name_line

        what = name_line(entry.label, 80)
        try:
            refused = self.source.decide_surface(entry, decision, why=why)
        except ChangedMeanwhile as e:
            self.notify(plain_line(str(e), 300), severity="warning", markup=False, timeout=10)
            self._reload()
            return False
        except Exception as e:  # unwritable, ...: never lose it silently
            self.notify(
                f"could not record {decision}: {plain_line(str(e), 300)}",
                severity="error",
                markup=False,
                timeout=10,
            )
            return False
        if refused:
            self.notify(
                f"{what} is blocked: not approved without a reason",
                severity="warning",
                markup=False,
                timeout=6,
            )
            return False
        self.notify(f"{decision}: {plain_line(entry.server, 30)} › {what}", markup=False, timeout=3)
        self._save_notes()
        self._reload()
        return True

    def decide(
        self, entry: ToolEntry, decision: Decision | str, note: str = "", *, why: str = ""
    ) -> bool:
        """Write one decision through the core at once; report and redraw. ``why``: the reason
        given for approving a blocked change (the audit log keeps it)."""
        if self._pending(entry):
            return False
        try:
            self.source.decide(entry, decision, note, why=why)
        except ChangedMeanwhile as e:
            # Decided on disk since this screen was computed (the CLI, another app): nothing
            # was written; show the new state and ask again.
            self._reload()
            self._ask_again(entry, Decision(decision), note, why, e)
            return False
        except (
            Exception
        ) as e:  # a pin file changed on disk, unwritable, ...: never lose it silently
            self.notify(
                f"could not record {decision}: {plain_line(str(e), 300)}",
                severity="error",
                markup=False,
                timeout=10,
            )
            return False
        said = (
            "removal acknowledged"
            if decision == Decision.APPROVED and entry.status is State.REMOVED
            else str(decision)
        )
        self.notify(
            f"{said}: {plain_line(entry.server, 30)} › {name_line(entry.name)}",
            markup=False,
            timeout=3,
        )
        self._save_notes()
        if self.main is not None:
            self.main.decided(entry)
        self._reload()
        return True

    def _ask_again(
        self, entry: ToolEntry, decision: Decision, note: str, why: str, e: ChangedMeanwhile
    ) -> None:
        """The pin changed on disk since the row was computed: say what it holds now and who
        decided it, and decide only on a second yes (then against that new state)."""
        import dataclasses

        from mcp_review.tui.screens.modals import ConfirmScreen

        verb = "Approve" if decision is Decision.APPROVED else "Deny"
        name = name_line(entry.name, 200)
        title, question = f"{verb} {name}?", f"{verb} it anyway?"
        if decision is Decision.APPROVED and entry.status is State.REMOVED:
            verb = "Acknowledge"
            title, question = f"Acknowledge the removal of {name}?", "Acknowledge it anyway?"
        body = (
            f"{entry.server} › {name} changed on disk since this screen was computed.\n"
            f"now: {plain_line(e.now, 300)}\n{question}"
        )

        def done(ok: bool | None) -> None:
            if ok:
                self.decide(dataclasses.replace(entry, shown=e.current), decision, note, why=why)

        self.push_screen(ConfirmScreen(f"{title} (changed on disk)", body, yes=verb), done)

    def _save_notes(self) -> None:
        """Say once what a save noted (a pin file rewritten in a newer version)."""
        notes = self.source.save_notes
        while notes:
            self.notify(plain_line(notes.pop(0), 300), title="pin file", markup=False, timeout=10)

    def request_undo(self) -> None:
        """``u`` asks first: an undo writes the pin file too."""
        from mcp_review.tui.screens.modals import ConfirmScreen

        last = self.source.last_decision()
        if last is None:
            self.notify("nothing to undo", markup=False, timeout=3)
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.undo()

        self.push_screen(ConfirmScreen("Undo the last decision?", last, yes="Undo"), done)

    def undo(self) -> None:
        try:
            msg = self.source.undo()
        except ChangedMeanwhile as e:
            # Another writer decided since: its decision stays, the undo wrote nothing.
            self.notify(plain_line(str(e), 300), severity="warning", markup=False, timeout=10)
            self._reload()
            return
        except Exception as e:
            self.notify(
                f"could not undo: {plain_line(str(e), 300)}", severity="error", markup=False
            )
            return
        self.notify(plain_line(msg, 200) if msg else "nothing to undo", markup=False, timeout=3)
        self._reload()

    def approve_compatible(self, server: ServerEntry) -> None:
        from mcp_review.tui.screens.modals import ApproveAllScreen

        entries = [t for t in server.tools if not t.flags and self.source.compatible_only(t)]
        if not entries:
            self.notify(
                f"no compatible-only changes in {plain_line(server.name)}", markup=False, timeout=3
            )
            return

        def done(ok: bool | None) -> None:
            if ok:
                for e in entries:
                    if not self.decide(
                        e, Decision.APPROVED, "approved with all compatible changes"
                    ):
                        break

        self.push_screen(ApproveAllScreen(server.name, entries), done)

    # Review by kind -------------------------------------------------------------------
    def entry_for(self, key: tuple[str, str, str]) -> ToolEntry | None:
        """The list's row of the tool ``key`` (the groups view decides a tool alone on it)."""
        return self._entry(key)

    def _entry(self, key: tuple[str, str, str]) -> ToolEntry | None:
        """The list's row of the tool ``key`` (None when the status shown has none)."""
        server = self._server(key[0])
        if server is None:
            return None
        return next((t for t in server.tools if t.key == key), None)

    def open_groups(self) -> None:
        """The groups view of the whole drift (``G``): groups and tools alone, in visiting
        order."""
        from mcp_review.tui.screens.groups import GroupsScreen

        if self.main is None or not self.main.loaded:
            self.notify("still reading the servers", markup=False, timeout=3)
            return
        self.push_screen(GroupsScreen(self.source.grouping()))

    def open_group_of(self, entry: ToolEntry) -> None:
        """``g`` on a tool: its group's screen (its groups, when it has several pending
        kinds); a tool that stands alone or needs nothing says so."""
        if self._pending(entry):
            return
        from mcp_review.tui.screens.groups import GroupsScreen, alone_why

        grouping = self.source.grouping()
        groups = grouping.groups_of(entry.key)
        name = name_line(entry.name)
        if len(groups) == 1:
            self.open_group(groups[0])
        elif groups:
            self.push_screen(GroupsScreen(grouping, only=groups))
        elif (alone := grouping.alone_of(entry.key)) is not None:
            self.notify(
                f"{name} stands alone ({plain_line(alone_why(alone), 200)}): "
                "decide it on its own (enter reviews it)",
                markup=False,
                timeout=5,
            )
        else:
            self.notify(f"{name} needs no decision", markup=False, timeout=3)

    def open_group(self, group: Group) -> None:
        from mcp_review.tui.screens.groups import GroupScreen

        self.push_screen(GroupScreen(group))

    def open_alone(self, alone: Alone) -> None:
        """A tool that stands alone, from the groups view: its review screen."""
        entry = self._entry(alone.key)
        if entry is None:
            self.notify("that tool is no longer in the list", markup=False, timeout=3)
            return
        self.open_review(entry)

    def request_group_decision(
        self, group: Group, decision: Decision, left_out: frozenset[tuple[str, ...]]
    ) -> None:
        """Approve or deny a group (but the members left out) after ONE confirmation; a
        blocked group's approval then asks for one reason, written in each member's audit
        record with the group's id (``services.decisions.decide_group``)."""
        from mcp_review.tui.screens.modals import ConfirmScreen, ReasonScreen

        decision = Decision(decision)
        members = [m for m in group.members if m.key not in left_out]
        if not members:
            return
        blocked = any(blocked_approval(decision, m.outcome) for m in members)
        verb = "Approve" if decision is Decision.APPROVED else "Deny"
        n = len(members)
        word = group.subject.replace("-", " ")
        tools = f"{n} {word}{'s' if n != 1 else ''}"
        lines = [f"kind: {group.label}", f"{verb.lower()} it on {tools}:"]
        lines += [f"  {m.server} › {name_line(m.tool, 80)}" for m in members[:12]]
        if n > 12:
            lines.append(f"  … and {n - 12} more")
        if left_out:
            lines.append(f"{len(left_out)} left out: nothing is decided for them.")
        if decision is Decision.APPROVED and group.subject != "tool":
            lines.append(f"Each {word} is approved as served now (its whole added text shown).")
            if blocked:
                lines.append("Blocked by policy: you will be asked why, once.")
        elif decision is Decision.APPROVED:
            lines.append(
                "A tool is approved once all its pending kinds are: its pin moves to the "
                "definition served now; one with other kinds pending keeps this approval."
            )
            if blocked:
                lines.append("Blocked by policy: you will be asked why, once.")
        else:
            lines.append(f"Denying the kind denies each {word}: withheld until approved.")

        def decide(why: str = "") -> None:
            self.decide_group(group, decision, left_out, why=why)

        def got_reason(reason: str | None) -> None:
            # A blocked group is approved only with a reason typed (engine.policy decides).
            if reason is not None and approval_allowed(decision, Outcome.BLOCK, reason):
                decide(reason)

        def confirmed(ok: bool | None) -> None:
            if not ok:
                return
            if blocked:
                reasons = {
                    r for m in members if m.status is not None for r in m.status.policy.reasons
                }
                why = "; ".join(sorted(reasons)) or "policy: block"
                self.push_screen(
                    ReasonScreen(
                        f"Why is this kind safe to trust on {tools}?",
                        f"Blocked by policy: {why}. The reason is written to the audit log, "
                        "in each member's record.",
                    ),
                    got_reason,
                )
            else:
                decide()

        self.push_screen(
            ConfirmScreen(
                f"{verb} the group ({tools})?",
                "\n".join(lines),
                yes=f"{verb} anyway" if blocked else verb,
            ),
            confirmed,
        )

    def decide_group(
        self,
        group: Group,
        decision: Decision,
        left_out: frozenset[tuple[str, ...]] = frozenset(),
        *,
        why: str = "",
    ) -> bool:
        """Write a group's decision through the core at once; report, leave the group's
        screen and redraw."""
        from mcp_review.tui.screens.groups import GroupScreen

        try:
            result = self.source.decide_group(group, decision, left_out=left_out, why=why)
        except ChangedMeanwhile as e:
            # A member was decided on disk since the group was computed: nothing written.
            self.notify(
                plain_line(f"nothing decided: {e.subject} changed on disk since ({e.now})", 300),
                severity="warning",
                markup=False,
                timeout=10,
            )
            self._reload()
            return False
        except Exception as e:  # unwritable, ...: never lose it silently
            self.notify(
                f"could not record {decision}: {plain_line(str(e), 300)}",
                severity="error",
                markup=False,
                timeout=10,
            )
            return False
        n = len(result.decided)
        word = group.subject.replace("-", " ")
        said = f"{decision}: {plain_line(group.label, 80)} on {n} {word}{'s' if n != 1 else ''}"
        if result.partial:
            said += f" ({len(result.partial)} keep other kinds pending)"
        self.notify(said, markup=False, timeout=4)
        self._save_notes()
        if self.main is not None:
            for m in result.whole:
                entry = None if m.surface else self._entry((m.server, m.principal, m.tool))
                if entry is not None:
                    self.main.decided(entry)
        if isinstance(self.screen, GroupScreen) and self.screen.group is group:
            self.pop_screen()
        self._reload()
        return True

    def apply_auto_approvals(self) -> None:
        """Re-pin every tool whose policy outcome is auto-approve, after a modal listing them
        (what `check --apply` does headless); each re-pin is undone on its own by `u`."""
        from mcp_review.tui.screens.modals import AutoApproveScreen

        entries = [
            t
            for s in (self.main.servers if self.main else [])
            for t in s.tools
            if t.policy is Outcome.AUTO_APPROVE and t.current is not None
        ]
        if not entries:
            self.notify(
                "nothing to auto-approve: no tool's policy outcome is auto-approve",
                markup=False,
                timeout=3,
            )
            return

        def done(ok: bool | None) -> None:
            if not ok:
                return
            try:
                applied = self.source.apply_auto_approvals(entries)
            except Exception as e:  # as in decide(): never lose a failed write silently
                self.notify(
                    f"could not apply auto-approvals: {plain_line(str(e), 300)}",
                    severity="error",
                    markup=False,
                    timeout=10,
                )
                self._reload()
                return
            n = len(applied)
            msg = f"auto-approved {n} tool{'s' if n != 1 else ''} by policy"
            if n < len(entries):
                msg += f" ({len(entries) - n} changed meanwhile: refresh and look again)"
            self.notify(msg, markup=False, timeout=3)
            self._reload()

        self.push_screen(AutoApproveScreen(entries), done)

    def choose_policy(self, server: ServerEntry, entry: ToolEntry | None) -> None:
        from mcp_review.tui.screens.modals import PolicyScreen

        current = self.source.policy(server.name, entry.name if entry else None)

        def done(choice: tuple[str | None, str] | None) -> None:
            if choice is None:
                return
            tool, tier = choice
            try:
                self.source.set_policy(server.name, tool, tier)
            except Exception as e:
                self.notify(
                    f"could not set policy: {plain_line(str(e), 300)}",
                    severity="error",
                    markup=False,
                )
                return
            where = name_line(tool) if tool else plain_line(server.name)
            self.notify(f"policy {tier} for {where}", markup=False, timeout=3)
            self._reload()

        self.push_screen(PolicyScreen(server.name, entry.name if entry else None, current), done)

    def choose_policy_for(self, entry: ToolEntry) -> None:
        server = self._server(entry.server)
        if server is not None:
            self.choose_policy(server, entry)

    def _reload(self) -> None:
        if self.main is not None:
            self.main.reload()
