"""Main screen: every server and its tools with status, trust flags and counts."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Header, Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from mcp_review.engine.pins import Decision, PinFile
from mcp_review.tui.counts import Counts, count, counts_line, member_key_of, visit_order
from mcp_review.tui.heap import QuietCollector
from mcp_review.tui.messages import (
    AutoApprovalsRequested,
    CompatibleApprovalRequested,
    DecisionRequested,
    GroupItemRequested,
    GroupRequested,
    GroupsRequested,
    InstructionsDecisionRequested,
    PolicyRequested,
    ReviewRequested,
    SurfaceDecisionRequested,
    SurfaceReviewRequested,
    UndoRequested,
    ask_app,
)
from mcp_review.tui.render import plain_line
from mcp_review.tui.rowlist import Cells
from mcp_review.tui.source import ReviewSource
from mcp_review.tui.view import (
    Computed,
    ServerEntry,
    SurfaceEntry,
    ToolEntry,
    flag_words,
    surface_flag_words,
)
from mcp_review.tui.widgets.footer import KeyFooter

# The list moved to widgets/tool_table.py; its names stay importable from here (tests and
# scripts/screenshots.py import ToolTable, HELD_WORDS and filter_words from this module).
from mcp_review.tui.widgets.tool_table import (
    _NO_RANK,
    CHANGES,
    CHANGES_MIN,
    DECISION_W,
    FLAGS_MAX,
    FLAGS_MIN,
    HELD_WORDS,
    HOSTS_WIDTH,
    ToolTable,
    _key,
    _key_of,
    _look,
    filter_words,
    server_row,
    surface_filter_words,
    surface_key_of,
    surface_row,
    tool_row,
)

if TYPE_CHECKING:
    pass


@dataclass
class Progress(Message):
    """One server's connection state changed (posted by the fetch worker)."""

    server: str
    state: str
    detail: str

    def can_replace(self, message: Message) -> bool:  # only the latest state per server matters
        return isinstance(message, Progress) and message.server == self.server


class MainScreen(Screen[None]):
    """Servers and tools; Enter opens the tool review screen."""

    CSS_PATH = "main.tcss"
    AUTO_FOCUS = "#tools"
    OPENS_A_SCREEN: ClassVar[frozenset[str]] = frozenset(
        {
            "open",
            "approve",
            "deny",
            "note",
            "group",
            "groups",
            "approve_compatible",
            "auto_approve",
            "policy",
            "undo",
        }
    )
    """Actions that open a dialog or a screen: the app runs them as their key arrives, so the
    keys after it reach what they open (``ReviewApp._key_now``)."""
    BINDINGS = [
        Binding("enter", "open", "Review", tooltip="Open the selected tool"),
        Binding("n", "next_review", "Next", tooltip="Next tool needing review"),
        Binding(
            "G",
            "groups",
            "Groups",
            tooltip="The decisions the drift needs: groups of alike changes, tools alone",
        ),
        Binding("slash", "filter", "Filter", key_display="/"),
        Binding("a", "approve", "Approve", tooltip="Approve the selected tool (asks first)"),
        Binding("d", "deny", "Deny", tooltip="Deny the selected tool (asks first)"),
        Binding("e", "note", "Note", tooltip="A note kept with the selected tool's next decision"),
        Binding(
            "g",
            "group",
            "Group",
            show=False,
            tooltip="Open the group of alike changes the selected tool is in",
        ),
        Binding(
            "A",
            "approve_compatible",
            "Approve compatible",
            show=False,
            tooltip="Approve every compatible-only change of this server",
        ),
        Binding(
            "P",
            "auto_approve",
            "Apply auto-approvals",
            show=False,
            tooltip="Re-pin every tool the policy tiers auto-approve",
        ),
        Binding("p", "policy", "Policy", show=False),
        Binding("u", "undo", "Undo"),
        Binding("r", "refresh", "Refresh"),
        Binding("escape", "clear_filter", "Clear filter", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    SYNC_TOOLS = 300
    """Up to this many tools a recomputation runs at once on the UI thread (measured: ~10 ms
    for 300 tools with 30 changed); above it, in a worker thread (bench_tui.py)."""

    filter_text: var[str] = var("", init=False)
    """What the list shows: tools whose name contains it, ``status:…`` or ``flag:…`` (the
    filter box sets it; setting it redraws the list)."""
    computing: var[bool] = var(False, init=False)
    """True while a status computation runs in a worker (the counts line says so)."""

    def watch_filter_text(self) -> None:
        self.rebuild()

    def watch_computing(self) -> None:
        self._update_counts()

    def __init__(self, source: ReviewSource, heap: QuietCollector | None = None) -> None:
        super().__init__()
        self.source = source
        self.heap = heap if heap is not None else QuietCollector()
        """Freezes a big fleet's status out of the cyclic collector (the app's, shared)."""
        self.servers: list[ServerEntry] = [ServerEntry(n) for n in source.server_names]
        """Current view of every server (replaced as a whole after each fetch or decision)."""
        self.progress: dict[str, tuple[str, str]] = {}
        self.loaded = False
        self.fetch_failed = False
        """The last fetch raised (nothing shown yet can be trusted as a status)."""
        self.notes: dict[tuple[str, str, str], str] = {}
        """Notes saved with ``e`` for a tool's next decision (by tool key)."""
        self.drafts: dict[tuple[str, str, str], str] = {}
        """Text typed in the note dialog and closed with esc: shown again, never lost."""
        self._by_key: dict[str, ToolEntry] = {}
        """Every tool entry by its row key (rebuilt with :attr:`servers`)."""
        self._surface_by_key: dict[str, SurfaceEntry] = {}
        """Every prompt, resource and template row by its row key (rebuilt with it too)."""
        self._visited: set[str] = set()
        """Row keys `n` has visited (action_next_review), so it goes on from the first not
        visited when the cursor moved elsewhere."""
        self._visited_last: str | None = None
        """The row `n` last landed on."""
        self._visits: tuple[tuple[Any, ...], list[tuple[str, str]]] | None = None
        """``n``'s order and what it was worked out for (rows, their order, the grouping)."""
        self._keys: dict[int, str] = {}
        """Row key of each tool entry (by id) of the computation shown."""
        self._server_rows: dict[str, tuple[str, str]] = {}
        """The progress (state, detail) each server row was last built with."""
        self._rebuild_queued = False
        self._row_keys: list[str] = []
        """The table's row keys in order, as last drawn."""
        self._status_worker: Worker[Computed | None] | None = None
        """The latest status computation (an exclusive worker: starting one cancels the one
        before, whose result is never shown)."""
        self._compute_lock = threading.Lock()
        """Held by the status worker thread computing: a cancelled thread (Textual cannot stop
        a thread) finishes before the next starts, so a burst of decisions computes one at a
        time and the threads never compete for the interpreter."""
        self._cells: dict[str, list[Text]] = {}
        """The server rows' cells by row key, as drawn (a tool row's are kept by the table)."""
        self._hosts_column = False
        """The hosts column is shown (a target host refuses a tool; never taken away)."""
        self._cells_for: list[ServerEntry] | None = None
        """The computation (its server list) whose rows the table and ``_cells`` hold."""
        self._server_keys: dict[str, list[str]] = {}
        """Each server's tool row keys in order, for that computation."""
        self._flags_width: tuple[list[ServerEntry], int] | None = None
        self._rank: dict[str, tuple[int, int]] = {}
        """Row key -> its place in the engine's visiting order: rows
        that need a human first; a tool in no decision is not in it."""
        self._server_order: list[ServerEntry] = []
        self._counted: tuple[list[ServerEntry], Counts] | None = None
        """The counts line's figures (``tui.counts``) for that computation."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="counts", markup=False)
        yield Input(
            placeholder="filter: text, or status:changed / decision:block / flag:hidden",
            id="filter",
        )
        yield ToolTable(id="tools")
        # The highlighted row's "changes" in full: the column cuts it after a whole word.
        yield Static(id="row-detail", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one("#tools", ToolTable)
        # Fixed widths: a hostile 100 KB name must not push every other column off screen.
        table.add_column("tool", key="tool", width=30)
        table.add_column("status", key="status", width=11)
        # What the row waits for (block / held / review / auto).
        table.add_column("decision", key="decision", width=DECISION_W)
        table.add_column("flags", key="flags", width=16)
        table.add_column("changes", key="changes", width=40)  # resized by on_resize
        self.rebuild()
        self.action_refresh()

    def on_screen_resume(self) -> None:
        # Back on the list (from a review, a dialog): decisions made outside the app meanwhile
        # show without `r`.
        if self._reread_pins() and self.loaded:
            self.reload()

    def _reread_pins(self) -> bool:
        try:
            return self.source.reread_pins()
        except Exception as e:  # a pin file that no longer reads: said, the last state kept
            self.notify(
                plain_line(f"could not re-read the pin file: {e}", 300),
                severity="error",
                markup=False,
            )
            return False

    def on_resize(self) -> None:
        # Columns follow the width: the name column grows up to 40 cells and the last column
        # takes the rest, so nothing scrolls sideways at 80×24. The counts line breaks between
        # its phrases at the new width.
        self._update_counts()
        table = self.query_one("#tools", ToolTable)
        width = self.size.width
        tool_w = max(16, min(40, int(width * 0.3)))
        # A tool the proxy holds says so in its status cell ("changed · held by the proxy"):
        # the column grows to show it whole, taken from the name column when narrow.
        status_w = 11
        if any(t.held_by_proxy for s in self.servers for t in s.tools):
            status_w = len(f"changed · {HELD_WORDS}")
        hosts_w = HOSTS_WIDTH + 2 if self._hosts_column else 0
        fixed = status_w + DECISION_W + hosts_w + 2 * 5 + 2
        # The flags as wide as the widest row needs, as far as the width
        # allows: taken from the name column down to 16 cells, then from the flags themselves
        # down to FLAGS_MIN, so the changes column keeps CHANGES_MIN cells.
        flags_w = max(FLAGS_MIN, min(self._flags_need(), FLAGS_MAX))
        short = CHANGES_MIN - (width - tool_w - fixed - flags_w)
        if short > 0:
            give = min(short, tool_w - 16)
            tool_w -= give
            short -= give
        if short > 0:
            flags_w = max(FLAGS_MIN, flags_w - short)
        # Still too narrow (a held tool's long status at 80 columns): the flags give way, so
        # nothing scrolls sideways.
        over = tool_w + fixed + flags_w + 10 - width
        if over > 0:
            flags_w = max(6, flags_w - over)
        rest = width - tool_w - fixed - flags_w
        if rest < 10:
            tool_w = max(16, tool_w - (10 - rest))
        table.set_width("tool", tool_w)
        table.set_width("status", status_w)
        table.set_width("decision", DECISION_W)
        table.set_width("flags", flags_w)
        table.set_width("changes", max(width - tool_w - fixed - flags_w, 10))

    def _flags_need(self) -> int:
        """The widest flags cell of this computation's rows (worked out once per status)."""
        cached = self._flags_width
        if cached is not None and cached[0] is self.servers:
            return cached[1]
        need = len("policy compatible")  # a server row's policy, in the flags column
        for s in self.servers:
            for t in s.tools:
                if t.flags:
                    need = max(need, len(" ".join(flag_words(t))))
            for x in s.surfaces:
                need = max(need, len(" ".join(surface_flag_words(x))))
        self._flags_width = (self.servers, need)
        return need

    # Fetch ----------------------------------------------------------------------------------
    def action_refresh(self) -> None:
        """Re-read the pin file and fetch every server again (a new fetch cancels one in
        flight): what the CLI decided meanwhile shows."""
        self._reread_pins()
        self.fetch_failed = False
        for s in self.servers:
            self.progress[s.name] = ("waiting", "")
        self.rebuild()
        self.fetch()

    @work(exclusive=True, exit_on_error=False, group="fetch")
    async def fetch(self) -> tuple[PinFile, Computed, bool]:
        import asyncio

        def progress(server: str, state: str, detail: str) -> None:
            self.post_message(Progress(server, state, detail))

        self.workers.cancel_group(self, "status")  # a status computed before this fetch is stale
        snap = await self.source.fetch(progress)
        # the snapshot stays: no collection walks it while its status is built
        self.heap.settle(sum(len(s.tools) for s in snap.servers.values()))
        pins = self.source.pins_view()
        # Comparing changed tools is CPU work: keep it off the event loop. A big fleet is
        # shown first by digests alone (changed tools "comparing…", nothing decidable on them),
        # then, once that frame is drawn, with every comparison (a status worker).
        big = sum(len(s.tools) for s in snap.servers.values()) > self.SYNC_TOOLS
        computed = await asyncio.to_thread(self.source.compute, pins, snap, compare=not big)
        return pins, computed, big

    @on(Progress)
    def _on_progress(self, event: Progress) -> None:
        self.progress[event.server] = (event.state, event.detail)
        if (
            not self.loaded or event.state in ("connecting", "failed")
        ) and not self._rebuild_queued:
            # One redraw for the progress messages already queued (50 servers answering at
            # once are one redraw, not 50).
            self._rebuild_queued = True
            self.call_later(self._queued_rebuild)

    def _queued_rebuild(self) -> None:
        self._rebuild_queued = False
        self.rebuild()

    @on(Worker.StateChanged)
    def _on_worker(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "status":
            if event.worker is not self._status_worker:
                return  # an older computation: a newer one cancelled it
            if event.state is WorkerState.SUCCESS:
                computed = event.worker.result
                assert computed is not None  # only a cancelled one returns None
                self._show(computed)
            elif event.state is WorkerState.ERROR:
                self.computing = False
                err = event.worker.error
                self.notify(
                    plain_line(f"could not recompute status: {type(err).__name__}: {err}", 300),
                    severity="error",
                    markup=False,
                )
            return
        if event.worker.group != "fetch":
            return
        if event.state is WorkerState.SUCCESS:
            result = event.worker.result
            assert result is not None  # a fetch worker that succeeded returned its triple
            pins, computed, partial = result
            self.progress.clear()
            self.loaded = True
            if pins != self.source.pins_view():
                self.reload()  # a decision came in meanwhile: recompute on this fetch
            elif partial:
                # Digests only: drawn now; the comparisons start once this frame is out, so
                # they never compete with it for the interpreter.
                self._show(computed, computing=True)
                self.call_after_refresh(self._compare_after_first_frame, self.servers)
            else:
                self._show(computed)
        elif event.state is WorkerState.ERROR:
            err = event.worker.error
            self.fetch_failed = True
            self._update_counts()
            self.notify(
                plain_line(f"fetch failed: {type(err).__name__}: {err}", 300),
                severity="error",
                markup=False,
            )

    def _status_busy(self) -> bool:
        w = self._status_worker
        return w is not None and not w.is_finished

    def reload(self) -> None:
        """Recompute statuses after a decision (no network), in a worker thread: the keys stay
        live meanwhile. The pin state is copied on the UI thread when a computation starts,
        so it sees exactly the decisions made so far. The worker is exclusive: a newer
        computation cancels the one running, whose (stale) result is never shown."""
        if not self._status_busy() and sum(len(s.tools) for s in self.servers) <= self.SYNC_TOOLS:
            self._show(self.source.compute())  # a few ms: no worker, no "updating…" flicker
            return
        self.computing = True
        self._status_worker = self._recompute(self.source.pins_view())

    @work(thread=True, exclusive=True, exit_on_error=False, group="status")
    def _recompute(self, pins: PinFile) -> Computed | None:
        with self._compute_lock:
            if get_current_worker().is_cancelled:
                return None  # a newer computation was asked for while this one waited
            return self.source.compute(pins)

    def _compare_after_first_frame(self, servers: list[ServerEntry]) -> None:
        # Unless something newer is shown or on its way (a decision's computation compares).
        if self.servers is servers and not self._status_busy():
            self._status_worker = self._recompute(self.source.pins_view())

    def _show(self, computed: Computed, *, computing: bool = False) -> None:
        """Show ``computed`` (``computing``: digests only, the comparisons follow)."""
        self.workers.cancel_group(self, "status")  # anything still computing is older
        self._status_worker = None
        self.computing = computing
        self.servers = self.source.apply(computed)
        self.rebuild()
        self.heap.settle(len(self._by_key))
        # A groups view open over the list follows the new status (grouped only then).
        for screen in self.app.screen_stack:
            follow = getattr(screen, "refresh_grouping", None)
            if callable(follow):
                follow(self.source.grouping())

    # Table --------------------------------------------------------------------------------------
    def visible_tools(self, s: ServerEntry) -> Sequence[ToolEntry]:
        return self.visible_tools_for(s, self.filter_text)

    @staticmethod
    def visible_tools_for(s: ServerEntry, text: str) -> Sequence[ToolEntry]:
        """``s``'s tools the filter ``text`` keeps: ``status:WORD`` / ``flag:WORD`` compare the
        words the row's status / flags cell shows (:func:`filter_words`, a prefix matches),
        anything else the server's or the tool's name."""
        f = text.strip().lower()
        if not f:
            return s.tools
        for kind in ("status", "flag", "decision"):
            if f.startswith(kind + ":"):
                want = f[len(kind) + 1 :]
                return [
                    t for t in s.tools if any(w.startswith(want) for w in filter_words(t)[kind])
                ]
        if f in s.name.lower():
            return s.tools
        return [t for t in s.tools if f in t.name.lower()]

    def visible_surfaces(self, s: ServerEntry) -> Sequence[SurfaceEntry]:
        """``s``'s prompt, resource and template rows the filter keeps (as tools: the words
        of their cells for ``status:``/``flag:``/``decision:``, else the name or the kind)."""
        f = self.filter_text.strip().lower()
        if not f:
            return s.surfaces
        for kind in ("status", "flag", "decision"):
            if f.startswith(kind + ":"):
                want = f[len(kind) + 1 :]
                return [
                    x
                    for x in s.surfaces
                    if any(w.startswith(want) for w in surface_filter_words(x)[kind])
                ]
        if f in s.name.lower():
            return s.surfaces
        return [x for x in s.surfaces if f in x.name.lower() or f in x.kind]

    def _surface_row(self, x: SurfaceEntry) -> list[Text]:
        return surface_row(self.query_one("#tools", ToolTable), x)

    def _server_row(self, s: ServerEntry) -> list[Text]:
        table = self.query_one("#tools", ToolTable)
        state, detail = self.progress.get(s.name, (s.state, s.detail))
        return server_row(table, s, state, detail)

    def _tool_row(self, t: ToolEntry) -> list[Text]:
        return tool_row(self.query_one("#tools", ToolTable), t, self._hosts_column)

    def rebuild(self) -> None:
        """Redraw the table and the counts, keeping the cursor on the same row.

        The table keeps every row it has shown for the computation on screen (ToolTable
        .show_rows), so a filter keystroke costs the filter and the order of the rows it
        shows; a server row is rebuilt only when its progress changed."""
        table = self.query_one("#tools", ToolTable)
        keep = table.row_key_at(table.cursor_row) if table.row_count else None
        same_rows = self._cells_for is self.servers
        if (
            not same_rows
            and not self._hosts_column
            and any(t.hosts for s in self.servers for t in s.tools)
        ):
            # A target host refuses a tool: the hosts column, last and narrow.
            self._hosts_column = True
            table.add_column("hosts", key="hosts", width=HOSTS_WIDTH)
            self.on_resize()
        if not same_rows:  # rows drawn for another computation
            self._cells_for = self.servers
            self._cells, self._server_rows = {}, {}
            every = [t for s in self.servers for t in s.tools]
            self._keys = {id(t): _key(t) for t in every}
            self._by_key = {self._keys[id(t)]: t for t in every}
            self._surface_by_key = {
                surface_key_of(x.key): x for s in self.servers for x in s.surfaces
            }
            self._order_rows()
            rank, keys_of = self._rank, self._keys
            # Each server's tools, then its prompts, resources and templates, in the engine's
            # visiting order (a row in no decision after those in one).
            self._server_keys = {
                s.name: sorted(
                    [
                        *(keys_of[id(t)] for t in s.tools),
                        *(surface_key_of(x.key) for x in s.surfaces),
                    ],
                    key=lambda k: rank.get(k, _NO_RANK),
                )
                for s in self.servers
            }
            table.forget_rows()
            self.on_resize()  # the status column fits "held by the proxy" when one is held
        keys, cells, drawn = self._keys, self._cells, self._server_rows
        order: list[str] = []
        changed: list[str] = []
        rank = self._rank
        for s in self._server_order:
            key = "server\x00" + s.name
            state = self.progress.get(s.name, (s.state, s.detail))
            if drawn.get(key) != state:
                drawn[key] = state
                row = self._server_row(s)
                old = cells.get(key)
                if old is None or [_look(c) for c in row] != [_look(c) for c in old]:
                    cells[key] = row
                    changed.append(key)
            order.append(key)
            shown = self.visible_tools(s)
            shown_s = self.visible_surfaces(s)
            order.extend(
                self._server_keys[s.name]
                if shown is s.tools and shown_s is s.surfaces
                else sorted(
                    [
                        *(keys[id(t)] for t in shown),
                        *(surface_key_of(x.key) for x in shown_s),
                    ],
                    key=lambda k: rank.get(k, _NO_RANK),
                )
            )
        if same_rows and not changed and order == self._row_keys and table.row_count == len(order):
            # The same rows with the same cells (a filter keystroke that hides nothing more,
            # progress that changed no row): nothing to redraw in a 10,000-row table.
            self._update_counts()
            return
        self._row_keys = order
        table.forget_rows(changed)
        by_key, tool_row = self._by_key, self._tool_row
        surfaces = self._surface_by_key

        def cells_for(key: str) -> Cells:
            # A tool row's cells are built when the row is first drawn, then kept by the
            # table for this computation (filter keystrokes show the same rows again).
            row = cells.get(key)
            if row is not None:
                return row
            if key in surfaces:
                return partial(self._surface_row, surfaces[key])
            return partial(tool_row, by_key[key])

        table.show_rows(order, cells_for)
        if keep is not None:
            try:
                table.move_cursor(row=table.get_row_index(keep), animate=False)
            except KeyError:
                pass  # the row is not shown now
        self._update_counts()
        self._show_row_detail()  # the row under the cursor may be new or redrawn

    def _order_rows(self) -> None:
        """Rows that need a human first: each server's tools in the engine's
        visiting order (``engine.kinds.visit_rank``: blocked, then attention, then the groups
        by size, then the rest alone; a group's members at the group's place), the tools in no
        decision after them in the report's order; the servers by their first such tool, the
        others after them in the configured order. The first tool row is the first decision."""
        rank: dict[str, tuple[int, int]] = {}
        if any(t.needs_review for s in self.servers for t in s.tools) or any(
            x.needs_review for s in self.servers for x in s.surfaces
        ):
            from mcp_review.engine.kinds import Alone, SurfaceAlone

            for i, item in enumerate(self.source.grouping().ordered()):
                if isinstance(item, Alone):
                    rank.setdefault(_key_of(item.key), (i, 0))
                elif isinstance(item, SurfaceAlone):
                    rank.setdefault(surface_key_of(item.key), (i, 0))
                else:
                    for j, m in enumerate(item.members):
                        rank.setdefault(member_key_of(m), (i, j))
        self._rank = rank
        keys = self._keys

        def first(s: ServerEntry) -> tuple[int, int]:
            return min(
                [
                    *(rank.get(keys[id(t)], _NO_RANK) for t in s.tools),
                    *(rank.get(surface_key_of(x.key), _NO_RANK) for x in s.surfaces),
                ],
                default=_NO_RANK,
            )

        self._server_order = sorted(self.servers, key=first)

    def _update_counts(self) -> None:
        counted = self._counted
        if counted is None or counted[0] is not self.servers:  # counted once a computation
            counted = self._counted = (self.servers, count(self.servers))
        line = self.query_one("#counts", Static)
        line.update(
            counts_line(
                counted[1],
                loaded=self.loaded,
                fetch_failed=self.fetch_failed,
                servers=len(self.servers),
                computing=self.computing,
                width=max(self.size.width - 2, 20),  # the line's padding
                filter_text=self.filter_text,
            )
        )
        # Measured again once the frame is out (else sometimes one line tall where it wraps).
        self.call_after_refresh(line.refresh, layout=True)

    # Selection ------------------------------------------------------------------------------
    def _entry_for(self, key: str | None) -> ToolEntry | None:
        if not key or not key.startswith("tool\x00"):
            return None
        return self._by_key.get(key)

    def current_key(self) -> str | None:
        table = self.query_one("#tools", ToolTable)
        if not table.row_count:
            return None
        return table.row_key_at(table.cursor_row)

    def current_entry(self) -> ToolEntry | None:
        return self._entry_for(self.current_key())

    def current_surface(self) -> SurfaceEntry | None:
        """The prompt, resource or template under the cursor (None on any other row)."""
        key = self.current_key()
        return self._surface_by_key.get(key) if key else None

    def current_server(self) -> ServerEntry | None:
        key = self.current_key()
        if not key:
            return None
        name = key.split("\x00")[1]
        return next((s for s in self.servers if s.name == name), None)

    @on(ToolTable.RowHighlighted, "#tools")
    def _on_highlighted(self, event: ToolTable.RowHighlighted) -> None:
        self._show_row_detail()

    def _show_row_detail(self) -> None:
        table = self.query_one("#tools", ToolTable)
        text = Text("")
        if table.row_count:
            try:
                cells = table.get_row_at(table.cursor_row)
            except IndexError:
                cells = []
            if len(cells) > CHANGES:
                text = Text(cells[CHANGES].plain, end="", no_wrap=True, overflow="ellipsis")
                text.spans = list(cells[CHANGES].spans)
        self.query_one("#row-detail", Static).update(text)

    @on(ToolTable.RowSelected, "#tools")
    def _on_selected(self, event: ToolTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        entry = self.current_entry()
        if entry is not None:
            ask_app(self, ReviewRequested(entry))
        elif (x := self.current_surface()) is not None:
            ask_app(self, SurfaceReviewRequested(x))
        elif (s := self._instructions_row()) is not None:
            ask_app(self, InstructionsDecisionRequested(s, Decision.APPROVED))

    def _instructions_row(self) -> ServerEntry | None:
        """The server under the cursor when it is a server row with instructions."""
        key = self.current_key()
        if not key or not key.startswith("server\x00"):
            return None
        s = self.current_server()
        return s if s is not None and s.instructions is not None else None

    def action_next_review(self) -> None:
        """Move to the next decision the drift needs, in the visiting order of review by kind
        : blocked tools that stand alone first (blocking cues first, the most
         severe kind first), then tools alone for review with cues, server instructions waiting
         for a decision, the groups by size (the cursor lands on a member: ``g`` opens the
         group), the other tools alone, then the tools waiting for ``P`` or waived. From a row
         of that order, the next one; from any other row, the first not visited yet; wrapping
         around. Rows the filter hides are skipped."""
        table = self.query_one("#tools", ToolTable)
        order = self._visit_order()
        if not order:
            self.notify("nothing needs review", timeout=3)
            return
        keys = [k for k, _ in order]
        cur = self.current_key()
        if cur in keys and cur == self._visited_last:
            i = (keys.index(cur) + 1) % len(keys)
        else:
            i = next((j for j, k in enumerate(keys) if k not in self._visited), 0)
            if len(self._visited) >= len(keys):
                self._visited.clear()
        key, said = order[i]
        self._visited.add(key)
        self._visited_last = key
        table.move_cursor(row=table.get_row_index(key), animate=False)
        if said:
            self.notify(said, markup=False, timeout=4)

    def _visit_order(self) -> list[tuple[str, str]]:
        """The rows ``n`` visits, in order, each with what to say on landing (a group's kind
        and size), only rows shown; worked out once per status and filter (``n`` held down
        on a 10,000-tool fleet costs a lookup)."""
        grouping = self.source.grouping()
        key = (self.servers, self._row_keys, grouping)
        cached = self._visits
        if cached is not None and all(a is b for a, b in zip(cached[0], key, strict=True)):
            return cached[1]
        order = visit_order(self.servers, self._row_keys, self._by_key, grouping)
        self._visits = (key, order)
        return order

    # Filter -----------------------------------------------------------------------------------
    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.display = True
        box.value = self.filter_text
        box.focus()

    @on(Input.Changed, "#filter")
    def _on_filter(self, event: Input.Changed) -> None:
        self.filter_text = event.value

    @on(Input.Submitted, "#filter")
    def _on_filter_done(self, event: Input.Submitted) -> None:
        self.query_one("#filter", Input).display = False
        self.query_one("#tools", ToolTable).focus()

    def action_clear_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.display = False
        if self.filter_text:
            self.filter_text = ""
            box.value = ""
        self.query_one("#tools", ToolTable).focus()

    # Decisions (messages up: the app, which owns the source, asks first and writes them) -------
    def action_approve(self) -> None:
        self._decide(Decision.APPROVED)

    def action_deny(self) -> None:
        self._decide(Decision.DENIED)

    def _decide(self, decision: Decision) -> None:
        """Ask the app to decide the selected tool (with its kept note), or the instructions
        of the selected server row."""
        e = self.current_entry()
        if e is not None:
            ask_app(self, DecisionRequested(e, decision, self.notes.get(e.key, "")))
        elif (x := self.current_surface()) is not None:
            ask_app(self, SurfaceDecisionRequested(x, decision))
        elif (s := self._instructions_row()) is not None:
            ask_app(self, InstructionsDecisionRequested(s, decision))

    def decided(self, e: ToolEntry) -> None:
        """A decision on ``e`` was written: its note went with it."""
        self.notes.pop(e.key, None)
        self.drafts.pop(e.key, None)

    def action_note(self) -> None:
        from mcp_review.tui.render import name_line
        from mcp_review.tui.screens.modals import NoteResult, NoteScreen

        e = self.current_entry()
        if e is None:
            self.notify("select a tool to write a note for", timeout=3)
            return
        key = e.key

        def done(result: NoteResult | None) -> None:
            if result is None:
                return
            if result.saved:
                self.notes[key] = result.text
                self.drafts.pop(key, None)
                self.notify(
                    f"note kept for the next decision on {name_line(e.name)}",
                    markup=False,
                    timeout=3,
                )
            else:
                self.drafts[key] = result.text

        self.app.push_screen(
            NoteScreen(
                self.drafts.get(key, self.notes.get(key, "")),
                title=f"Note for {name_line(e.name)} (kept with its next decision)",
            ),
            done,
        )

    def action_approve_compatible(self) -> None:
        s = self.current_server()
        if s is not None:
            ask_app(self, CompatibleApprovalRequested(s))

    def action_group(self) -> None:
        e = self.current_entry()
        if e is not None:
            ask_app(self, GroupRequested(e))
        elif (x := self.current_surface()) is not None:
            # A prompt, resource or template: its group of honest changes of one kind, or
            # decided on its own (engine.kinds.SurfaceAlone).
            groups = self.source.grouping().groups_of(x.key)
            if groups:
                ask_app(self, GroupItemRequested(groups[0]))
            else:
                self.notify(
                    "this prompt or resource is decided on its own: enter reviews it", timeout=4
                )
        else:
            self.notify("select a tool to open its group (G: every group)", timeout=3)

    def action_groups(self) -> None:
        ask_app(self, GroupsRequested())

    def action_auto_approve(self) -> None:
        ask_app(self, AutoApprovalsRequested())

    def action_policy(self) -> None:
        s = self.current_server()
        if s is not None:
            ask_app(self, PolicyRequested(s.name, self.current_entry()))

    def action_undo(self) -> None:
        ask_app(self, UndoRequested())
