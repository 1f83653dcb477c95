"""Main screen: every server and its tools with status, trust flags and counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static
from textual.widgets.data_table import RowKey
from textual.worker import Worker, WorkerState

from mcp_review.engine.pins import Decision, PinFile
from mcp_review.tui.messages import (
    AutoApprovalsRequested,
    CompatibleApprovalRequested,
    DecisionRequested,
    InstructionsDecisionRequested,
    PolicyRequested,
    ReviewRequested,
    SameChangeRequested,
    UndoRequested,
)
from mcp_review.tui.render import name_text, plain_line, safe_text
from mcp_review.tui.source import ReviewSource
from mcp_review.tui.view import (
    FLAG_SHORT,
    STATUS_ORDER,
    Computed,
    ServerEntry,
    Status,
    ToolEntry,
)
from mcp_review.tui.widgets.marked_table import MarkedTable

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

STATUS_STYLE = {
    Status.BROKEN: "tool-table--broken",
    Status.CHANGED: "tool-table--changed",
    Status.NEW: "tool-table--new",
    Status.REMOVED: "tool-table--removed",
    Status.DENIED: "tool-table--denied",
    Status.PINNED: "tool-table--pinned",
}
"""The component class (of :class:`ToolTable`) each status is drawn in."""
STATE_TEXT = {"waiting": "waiting", "connecting": "connecting…", "ok": "", "failed": "FAILED"}


FREEZE_TOOLS = 2_000
"""From this many tools the app takes what is alive out of the cyclic collector's reach
(:func:`_settle_heap`)."""


def _settle_heap(tools: int) -> None:
    """On a big fleet, move every object alive now out of the cyclic garbage collector's reach
    (``gc.freeze``).

    A status shown is kept until the next one: on a 10,000-tool fleet that is over a million
    objects, and full collections walked all of them while a filter keystroke or the next
    computation allocated (most of a keystroke's time, bench_tui.py). Frozen objects are
    still freed by reference counting when the next status replaces them (a computation makes
    no reference cycles: tests/test_tui_fleet.py); only cyclic garbage alive at this moment
    stays. A small review (every test's sample) never freezes anything."""
    if tools >= FREEZE_TOOLS:
        import gc

        gc.freeze()


def _key(e: ToolEntry) -> str:
    return "tool\x00" + "\x00".join(e.key)


class _LazyCells(dict[Any, Any]):
    """A row's cells (column key -> cell) built on first read by ``build``; DataTable reads a
    row's cells by key (``get_row``, ``get_cell``, drawing), which fills them all."""

    __slots__ = ("_build", "_keys")

    def __init__(self, build: Callable[[], list[Text]], keys: tuple[Any, ...]) -> None:
        super().__init__()
        self._build: Callable[[], list[Text]] | None = build
        self._keys = keys

    def _fill(self) -> None:
        build = self._build
        if build is None:
            return
        self._build = None
        cells = build()
        if len(cells) > len(self._keys):
            raise ValueError("More values provided than there are columns.")
        for k, cell in zip(self._keys, cells, strict=False):
            dict.__setitem__(self, k, cell)
        for k in self._keys[len(cells) :]:
            dict.__setitem__(self, k, None)

    def __missing__(self, key: Any) -> Any:
        if self._build is None:
            raise KeyError(key)
        self._fill()
        return dict.__getitem__(self, key)

    # Every other way of reading the row sees it built.
    def get(self, key: Any, default: Any = None) -> Any:
        self._fill()
        return dict.get(self, key, default)

    def __iter__(self) -> Iterator[Any]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def keys(self) -> dict_keys[Any, Any]:
        self._fill()
        return dict.keys(self)

    def values(self) -> dict_values[Any, Any]:
        self._fill()
        return dict.values(self)

    def items(self) -> dict_items[Any, Any]:
        self._fill()
        return dict.items(self)


class ToolTable(MarkedTable):
    """The servers-and-tools list: Home and End go to the first and last row (a DataTable's
    own Home/End move between columns, which a row cursor does not have).

    Its colours are component classes (``tool-table--…``; the defaults are the terminal's
    ANSI colours), so an app stylesheet or a theme restyles the list.

    A DataTable whose columns all have fixed widths (set on resize) and whose rows are one
    line, so adding rows measures nothing.

    DataTable measures every cell of every new row to size auto-width columns
    (``_update_dimensions``): 10,000 rows took seconds. With no auto-width column and no row
    labels nothing it measures is used, so only the virtual size is updated; otherwise
    DataTable's own measuring runs."""

    BINDINGS = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *STATUS_STYLE.values(),
        "tool-table--server",
        "tool-table--pending",
        "tool-table--failed",
        "tool-table--failure",
        "tool-table--muted",
        "tool-table--flags",
        "tool-table--blocked",
        "tool-table--review",
    }
    """Besides each status: ``--server`` a server's name; ``--pending`` waiting / connecting;
    ``--failed`` and ``--failure`` a failed server's word and cause; ``--muted`` the tree rule,
    counts, policy and summaries; ``--flags`` trust flags; ``--blocked`` a tool blocked by
    policy; ``--review`` server instructions waiting for a decision (``--failed`` when the
    policy blocks them)."""

    DEFAULT_CSS = """
    ToolTable > .tool-table--broken { color: ansi_red; text-style: bold; }
    ToolTable > .tool-table--changed { color: ansi_yellow; text-style: bold; }
    ToolTable > .tool-table--new { color: ansi_cyan; text-style: bold; }
    ToolTable > .tool-table--removed { color: ansi_magenta; }
    ToolTable > .tool-table--denied { color: ansi_red; text-style: dim; }
    ToolTable > .tool-table--pinned { color: ansi_green; }
    ToolTable > .tool-table--server { text-style: bold; }
    ToolTable > .tool-table--pending { text-style: italic; }
    ToolTable > .tool-table--failed { color: ansi_red; text-style: bold; }
    ToolTable > .tool-table--failure { color: ansi_red; }
    ToolTable > .tool-table--muted { text-style: dim; }
    ToolTable > .tool-table--flags { color: ansi_red; text-style: bold; }
    ToolTable > .tool-table--blocked { color: ansi_red; }
    ToolTable > .tool-table--review { color: ansi_yellow; text-style: bold; }
    """

    def add_rows_fast(self, rows: list[tuple[str, list[Text] | Callable[[], list[Text]]]]) -> None:
        """``add_row(*cells, key=key)`` for each of ``rows``, at once: DataTable.add_row
        re-assigns the cursor (a reactive: validate, watch, refresh) and re-sorts the columns
        for every row, which was most of the 3 s that 10,000 rows took. Same bookkeeping,
        once; rows one line high, no labels (textual pinned at 8.2.8).

        A row's cells may be given as a function: they are built when the table first reads
        them (it reads the rows it draws), so a 10,000-row list builds the cells of the rows
        on screen, not of every row (issue 15 item 4)."""
        from itertools import zip_longest

        from textual.widgets._data_table import DuplicateKey, Row, RowKey

        cols = self.ordered_columns
        col_keys = tuple(c.key for c in cols)
        locations, data, table_rows, new = (
            self._row_locations,
            self._data,
            self.rows,
            self._new_rows,
        )
        n = start = self.row_count
        for key, cells in rows:
            row_key = RowKey(key)
            if row_key in locations:
                raise DuplicateKey(f"The row key {row_key!r} already exists.")
            if callable(cells):
                data[row_key] = _LazyCells(cells, col_keys)
            else:
                if len(cells) > len(cols):
                    raise ValueError("More values provided than there are columns.")
                data[row_key] = {c.key: cell for c, cell in zip_longest(cols, cells)}
            locations[row_key] = n
            table_rows[row_key] = Row(row_key, 1, None, False)
            new.add(row_key)
            n += 1
        if n == start:
            return
        self._require_update_dimensions = True
        self.cursor_coordinate = self.cursor_coordinate
        if start == 0 and len(self.columns) > 0 and self.show_cursor and self.cursor_type != "none":
            self._highlight_cursor()
        self._update_count += n - start
        self.check_idle()

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        if self._labelled_row_exists or any(c.auto_width for c in self.columns.values()):
            super()._update_dimensions(new_rows)
            return
        from textual.geometry import Size

        width = sum(c.get_render_width(self) for c in self.columns.values())
        header = self.header_height if self.show_header else 0
        self.virtual_size = Size(
            width + self._row_label_column_width, self._total_row_height + header
        )


@dataclass
class Statuses(Message):
    """A status computation finished in a worker thread (after a decision, an undo, a policy
    change or a fetch). ``generation``: only the latest request's result is shown."""

    generation: int
    computed: Computed


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
    BINDINGS = [
        Binding("enter", "open", "Review", tooltip="Open the selected tool"),
        Binding("n", "next_review", "Next", tooltip="Next tool needing review"),
        Binding("slash", "filter", "Filter", key_display="/"),
        Binding("a", "approve", "Approve", tooltip="Approve the selected tool (asks first)"),
        Binding("d", "deny", "Deny", tooltip="Deny the selected tool (asks first)"),
        Binding("e", "note", "Note", tooltip="A note kept with the selected tool's next decision"),
        Binding(
            "g",
            "approve_same",
            "Approve same change",
            show=False,
            tooltip="Approve every tool of this server changed exactly like this one",
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
    for 300 tools with 30 changed); above it, in a worker thread (bench_tui.py, issue 15)."""

    filter_text: var[str] = var("", init=False)
    """What the list shows: tools whose name contains it, ``status:…`` or ``flag:…`` (the
    filter box sets it; setting it redraws the list)."""
    computing: var[bool] = var(False, init=False)
    """True while a status computation runs in a worker (the counts line says so)."""

    def watch_filter_text(self) -> None:
        self.rebuild()

    def watch_computing(self) -> None:
        self._update_counts()

    def __init__(self, source: ReviewSource) -> None:
        super().__init__()
        self.source = source
        self.servers: list[ServerEntry] = [ServerEntry(n) for n in source.server_names]
        """Current view of every server (replaced as a whole after each fetch or decision)."""
        self.progress: dict[str, tuple[str, str]] = {}
        self.loaded = False
        self.notes: dict[tuple[str, str, str], str] = {}
        """Notes saved with ``e`` for a tool's next decision (by tool key)."""
        self.drafts: dict[tuple[str, str, str], str] = {}
        """Text typed in the note dialog and closed with esc: shown again, never lost."""
        self._by_key: dict[str, ToolEntry] = {}
        self._keys: dict[int, str] = {}
        self._server_rows: list[Any] = []
        self._rebuild_queued = False
        """The server rows' cells as drawn (plain text, style, spans), to tell a redraw that
        changes nothing."""
        """Row key of each tool entry (by id) of the computation shown."""
        """Every tool entry by its row key (rebuilt with :attr:`servers`)."""
        self._row_keys: list[str] = []
        """The table's row keys in order, as last drawn."""
        self._status_gen = 0
        """Bumped by every status request; a worker's result for an older one is dropped."""
        self._status_running = False
        self._status_shown = 0
        self._cells: dict[str, list[Text]] = {}
        self._cells_for: list[ServerEntry] | None = None
        """The computation (its server list) whose rows ``_cells`` holds."""
        """A tool row's cells by row key, for the entries in :attr:`servers` (a filter
        keystroke redraws rows without re-styling them)."""
        """The generation whose result is on screen."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="counts", markup=False)
        yield Input(placeholder="filter: text, or status:changed / flag:hidden", id="filter")
        yield ToolTable(id="tools", cursor_type="row", zebra_stripes=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#tools", DataTable)
        # Fixed widths: a hostile 100 KB name must not push every other column off screen.
        table.add_column("tool", key="tool", width=30)
        table.add_column("status", key="status", width=11)
        table.add_column("flags", key="flags", width=16)
        table.add_column("changes", key="changes", width=40)  # resized by on_resize
        self.rebuild()
        self.action_refresh()

    def on_resize(self) -> None:
        # Columns follow the width: the name column grows up to 40 cells and the last column
        # takes the rest, so nothing scrolls sideways at 80×24.
        table = self.query_one("#tools", DataTable)
        width = self.size.width
        tool_w = max(16, min(40, int(width * 0.3)))
        flags_w = 14
        for key, col in table.columns.items():
            col.auto_width = False
            if key.value == "tool":
                col.width = tool_w
            elif key.value == "flags":
                col.width = flags_w
            elif key.value == "changes":
                col.width = max(width - tool_w - 11 - flags_w - 2 * 4 - 2, 10)
        table._require_update_dimensions = True  # no public API to resize a column
        table.refresh(layout=True)

    # Fetch ----------------------------------------------------------------------------------
    def action_refresh(self) -> None:
        """Fetch every server again (a new fetch cancels one in flight)."""
        for s in self.servers:
            self.progress[s.name] = ("waiting", "")
        self.rebuild()
        self.fetch()

    @work(exclusive=True, exit_on_error=False, group="fetch")
    async def fetch(self) -> tuple[int, Computed, bool]:
        import asyncio

        def progress(server: str, state: str, detail: str) -> None:
            self.post_message(Progress(server, state, detail))

        self._status_gen += 1  # a status computed before this fetch is stale now
        generation = self._status_gen
        snap = await self.source.fetch(progress)
        # the snapshot stays: no collection walks it while its status is built
        _settle_heap(sum(len(s.tools) for s in snap.servers.values()))
        pins = self.source.pins_view()
        # Comparing changed tools is CPU work: keep it off the event loop. A big fleet is
        # shown first by digests alone (changed tools "comparing…", nothing decidable on them),
        # then, once that frame is drawn, with every comparison (a status worker).
        big = sum(len(s.tools) for s in snap.servers.values()) > self.SYNC_TOOLS
        computed = await asyncio.to_thread(self.source.compute, pins, snap, compare=not big)
        return generation, computed, big

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
        if event.worker.group == "status" and event.state is WorkerState.ERROR:
            self._status_running = False
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
            generation, computed, partial = result
            self.progress.clear()
            self.loaded = True
            if generation != self._status_gen:
                self.reload()  # a decision came in meanwhile: recompute on this fetch
            elif partial:
                # Digests only: drawn now; the comparisons start once this frame is out, so
                # they never compete with it for the interpreter.
                self._status_shown = generation
                self.computing = True
                self.servers = self.source.apply(computed)
                self.rebuild()
                _settle_heap(len(self._by_key))
                self.call_after_refresh(self._compare_after_first_frame, generation)
            else:
                self._show(computed)
        elif event.state is WorkerState.ERROR:
            err = event.worker.error
            self.notify(
                plain_line(f"fetch failed: {type(err).__name__}: {err}", 300),
                severity="error",
                markup=False,
            )

    def reload(self) -> None:
        """Recompute statuses after a decision (no network), in a worker thread: the keys stay
        live meanwhile. The pin state is copied on the UI thread when a computation starts,
        so it sees exactly the decisions made so far. Requests coalesce: while one runs,
        later decisions only mark its result stale; when it ends, one more computation runs
        with all of them, and the stale result is never shown (see :class:`Statuses`)."""
        self._status_gen += 1
        if not self._status_running and sum(len(s.tools) for s in self.servers) <= self.SYNC_TOOLS:
            self._show(self.source.compute())  # a few ms: no worker, no "updating…" flicker
            return
        self.computing = True
        if not self._status_running:
            self._start_recompute()

    def _start_recompute(self) -> None:
        self._status_running = True
        self._recompute(self._status_gen, self.source.pins_view())

    @work(thread=True, exit_on_error=False, group="status")
    def _recompute(self, generation: int, pins: PinFile) -> None:
        computed = self.source.compute(pins)
        self.post_message(Statuses(generation, computed))

    def _compare_after_first_frame(self, generation: int) -> None:
        if generation == self._status_gen and not self._status_running:
            self._status_gen += 1  # the digest-only status shown is now the stale one
            self._start_recompute()

    @on(Statuses)
    def _on_statuses(self, event: Statuses) -> None:
        self._status_running = False
        if event.generation == self._status_gen:
            self._show(event.computed)
        elif self._status_shown != self._status_gen:
            self._start_recompute()  # decisions came in meanwhile: compute with them

    def _show(self, computed: Computed) -> None:
        self._status_shown = self._status_gen
        self.computing = False
        self.servers = self.source.apply(computed)
        self.rebuild()
        _settle_heap(len(self._by_key))

    # Table --------------------------------------------------------------------------------------
    def visible_tools(self, s: ServerEntry) -> Sequence[ToolEntry]:
        f = self.filter_text.strip().lower()
        if not f:
            return s.tools
        if f.startswith("status:"):
            want = f[7:]
            return [t for t in s.tools if t.status.value.startswith(want)]
        if f.startswith("flag:"):
            want = f[5:]
            return [t for t in s.tools if any(x.startswith(want) for x in t.flags)]
        if f in s.name.lower():
            return s.tools
        return [t for t in s.tools if f in t.name.lower()]

    def _server_row(self, s: ServerEntry) -> list[Text]:
        table = self.query_one("#tools", MarkedTable)
        cs, marks = table.component_style, table.marks
        state, detail = self.progress.get(s.name, (s.state, s.detail))
        bold = cs("tool-table--server")
        name = Text("▪ ", style=bold, no_wrap=True, overflow="ellipsis")
        name.append_text(safe_text(s.name, style=bold, limit=80, marks=marks))
        if state == "failed":
            cause = detail or s.error or "unreachable"
            return [
                name,
                Text("failed", style=cs("tool-table--failed")),
                Text(""),
                safe_text(cause, style=cs("tool-table--failure"), limit=300, marks=marks),
            ]
        if state in ("waiting", "connecting"):
            return [
                name,
                Text(STATE_TEXT[state], style=cs("tool-table--pending")),
                Text(""),
                safe_text(detail, marks=marks),
            ]
        counts: dict[Status, int] = {}
        for t in s.tools:
            counts[t.status] = counts.get(t.status, 0) + 1
        summary = ", ".join(f"{counts[k]} {k}" for k in STATUS_ORDER if counts.get(k))
        ver = f"v{s.server_version} · " if s.server_version else ""
        muted = cs("tool-table--muted")
        last = safe_text(f"{ver}{summary}", style=muted, marks=marks)
        i = s.instructions
        if i is not None:
            # Server instructions reach the model like a description: their state on the row;
            # a / d on this row decide them (after a dialog showing the diff).
            attention = i.policy.outcome in ("review", "block")
            style = (
                cs("tool-table--failed")
                if i.policy.outcome == "block"
                else cs("tool-table--review")
                if attention
                else muted
            )
            last.append(" · " if len(last) else "", style=muted)
            last.append(
                f"instructions {i.state}"
                + (f" ({i.policy.outcome}: a/d on this row)" if attention else ""),
                style=style,
            )
        # The tools the server serves now: a removed tool is listed (it needs review) but is
        # not served, so it is not counted here.
        served = sum(1 for t in s.tools if t.status is not Status.REMOVED)
        return [
            name,
            Text(f"{served} tool{'s' if served != 1 else ''}", style=muted),
            Text(f"policy {s.policy}", style=muted),
            last,
        ]

    def _tool_row(self, t: ToolEntry) -> list[Text]:
        table = self.query_one("#tools", MarkedTable)
        cs = table.component_style
        flags = Text(
            " ".join(FLAG_SHORT[f] for f in sorted(t.flags)), style=cs("tool-table--flags")
        )
        if t.blocked and t.needs_review and not t.flags:
            flags.append("blocked", style=cs("tool-table--blocked"))
        muted = cs("tool-table--muted")
        name = Text("│ ", style=muted, no_wrap=True, overflow="ellipsis")
        name.append_text(name_text(t.name, limit=80, marks=table.marks))
        return [
            name,
            Text(t.status.value, style=cs(STATUS_STYLE[t.status])),
            flags,
            safe_text(t.summary or t.note, style=muted, limit=120, marks=table.marks),
        ]

    def rebuild(self) -> None:
        """Redraw the table and the counts, keeping the cursor on the same row."""
        table = self.query_one("#tools", DataTable)
        keep = None
        if table.row_count:
            try:
                keep = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            except Exception:
                keep = None
        rows: list[str] = []
        batch: list[tuple[str, list[Text] | Callable[[], list[Text]]]] = []
        cells = self._cells
        same_rows = self._cells_for is self.servers
        if not same_rows:  # rows drawn for another computation
            cells.clear()
            self._cells_for = self.servers
            every = [t for s in self.servers for t in s.tools]
            self._keys = {id(t): _key(t) for t in every}
            self._by_key = {self._keys[id(t)]: t for t in every}
        keys = self._keys
        lazy = self._lazy_row
        server_rows = []
        for s in self.servers:
            key = "server\x00" + s.name
            row = self._server_row(s)
            server_rows.append([(c.plain, str(c.style), c.spans) for c in row])
            batch.append((key, row))
            rows.append(key)
            for t in self.visible_tools(s):
                key = keys[id(t)]
                # Cells are built when the row is first drawn, then kept for this
                # computation (filter keystrokes redraw the same rows).
                cached = cells.get(key)
                batch.append((key, cached if cached is not None else partial(lazy, key, t)))
                rows.append(key)
        if (
            same_rows
            and rows == self._row_keys
            and server_rows == self._server_rows
            and table.row_count == len(rows)
        ):
            # The same rows with the same cells (a filter keystroke that hides nothing more,
            # progress that changed no row): nothing to redraw in a 10,000-row table.
            self._update_counts()
            return
        self._row_keys, self._server_rows = rows, server_rows
        table.clear()
        if isinstance(table, ToolTable):
            table.add_rows_fast(batch)
        else:
            for key, cells_or_build in batch:
                table.add_row(
                    *(cells_or_build() if callable(cells_or_build) else cells_or_build), key=key
                )
        if keep is not None:
            try:
                table.move_cursor(row=table.get_row_index(keep), animate=False)
            except Exception:
                pass
        self._update_counts()

    def _lazy_row(self, key: str, t: ToolEntry) -> list[Text]:
        row = self._cells.get(key)
        if row is None:
            row = self._cells[key] = self._tool_row(t)
        return row

    def _update_counts(self) -> None:
        counts = {k: 0 for k in STATUS_ORDER}
        review = 0
        for s in self.servers:
            for t in s.tools:
                counts[t.status] += 1
                review += t.needs_review
            if s.instructions is not None:  # server instructions waiting for a decision
                review += s.instructions.needs_attention
        failed = sum(1 for s in self.servers if s.state == "failed")
        parts: list[Content | tuple[str, str] | str] = []
        styles = {
            Status.BROKEN: "$text-error",
            Status.CHANGED: "$text-warning",
            Status.NEW: "$text-accent",
            Status.REMOVED: "$text-secondary",
            Status.DENIED: "$text-muted",
            Status.PINNED: "$text-success",
        }
        for k in STATUS_ORDER:
            if counts[k] or k in (Status.BROKEN, Status.CHANGED):
                parts.append((f"{counts[k]} {k}  ", styles[k]))
        parts.append((f"│ {review} to review", "bold"))
        if self.computing:
            parts.append(("  │ updating…", "italic $text-muted"))
        if failed:
            parts.append(
                (f"  │ {failed} server{'s' if failed > 1 else ''} failed", "bold $text-error")
            )
        if self.filter_text:
            parts.append(Content("  filter: ").stylize("$text-muted"))
            parts.append(Content(self.filter_text))
        self.query_one("#counts", Static).update(Content.assemble(*parts))

    # Selection ------------------------------------------------------------------------------
    def _entry_for(self, key: str | None) -> ToolEntry | None:
        if not key or not key.startswith("tool\x00"):
            return None
        return self._by_key.get(key)

    def current_key(self) -> str | None:
        table = self.query_one("#tools", DataTable)
        if not table.row_count:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def current_entry(self) -> ToolEntry | None:
        return self._entry_for(self.current_key())

    def current_server(self) -> ServerEntry | None:
        key = self.current_key()
        if not key:
            return None
        name = key.split("\x00")[1]
        return next((s for s in self.servers if s.name == name), None)

    @on(DataTable.RowSelected, "#tools")
    def _on_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        entry = self.current_entry()
        if entry is not None:
            self.post_message(ReviewRequested(entry))
        elif (s := self._instructions_row()) is not None:
            self.post_message(InstructionsDecisionRequested(s, Decision.APPROVED))

    def _instructions_row(self) -> ServerEntry | None:
        """The server under the cursor when it is a server row with instructions."""
        key = self.current_key()
        if not key or not key.startswith("server\x00"):
            return None
        s = self.current_server()
        return s if s is not None and s.instructions is not None else None

    def action_next_review(self) -> None:
        """Move to the next tool (or server row whose instructions wait for a decision) needing
        review, after the cursor, wrapping around."""
        table = self.query_one("#tools", DataTable)
        rows = self._row_keys
        n = len(rows)
        start = table.cursor_row
        waiting = {
            "server\x00" + s.name
            for s in self.servers
            if s.instructions is not None and s.instructions.needs_attention
        }
        by_key = self._by_key
        for step in range(1, n + 1):
            i = (start + step) % n
            key = rows[i]
            e = by_key.get(key)
            if (e is not None and e.needs_review) or key in waiting:
                table.move_cursor(row=i, animate=False)
                return
        self.notify("nothing needs review", timeout=3)

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
        self.query_one("#tools", DataTable).focus()

    def action_clear_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.display = False
        if self.filter_text:
            self.filter_text = ""
            box.value = ""
        self.query_one("#tools", DataTable).focus()

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
            self.post_message(DecisionRequested(e, decision, self.notes.get(e.key, "")))
        elif (s := self._instructions_row()) is not None:
            self.post_message(InstructionsDecisionRequested(s, decision))

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
            self.post_message(CompatibleApprovalRequested(s))

    def action_approve_same(self) -> None:
        e = self.current_entry()
        if e is not None:
            self.post_message(SameChangeRequested(e))

    def action_auto_approve(self) -> None:
        self.post_message(AutoApprovalsRequested())

    def action_policy(self) -> None:
        s = self.current_server()
        if s is not None:
            self.post_message(PolicyRequested(s.name, self.current_entry()))

    def action_undo(self) -> None:
        self.post_message(UndoRequested())
