"""A list of one-line rows in fixed-width columns, drawn line by line (Textual's Line API).

The servers-and-tools list shows 10,000 rows and redraws on every filter keystroke (at
most 100 ms a keystroke: benchmarks/bench_tui.py). A DataTable measures every cell of every row it
is given and keeps
per-row bookkeeping that ``clear()`` and ``add_row`` walk, so the list reached into its private
fields to stay fast, which pinned ``textual`` to one release. This widget
does what the list needs on public API only (``ScrollView``, ``render_line``, ``Strip``):

- :meth:`show_rows` takes the row keys in order, top to bottom, and a function giving a row's
  cells (or a function that builds them when the row is first read): a row shown once keeps
  its cells until :meth:`forget_rows`, so a keystroke costs an index over the keys it shows;
- columns have fixed widths (:meth:`set_width`): nothing is measured;
- only the lines on screen are drawn.

It looks and behaves as the DataTable did with ``cursor_type="row"`` (a row cursor, header,
one cell of padding on each side, the same component-class look, the same keys, a click moves
the cursor and a click on the cursor row selects it), so the app's snapshots are unchanged.
Its own styles are component classes: ``row-list--header``, ``row-list--cursor``,
``row-list--hover``.

It knows nothing of the app (a generic widget, as harlequin keeps its table in a package of its
own): it sits beside the app's modules, not among ``widgets/``, and its keys are the generic
list keys a DataTable had (the app's help names the ones the app gives a meaning to).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.coordinate import Coordinate
from textual.geometry import Region, Size, Spacing, clamp
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets.data_table import CellKey, ColumnKey, RowKey

Cells = list[Text] | Callable[[], list[Text]]
"""A row's cells, or a function that builds them when the list first reads them."""

_EMPTY = Text(no_wrap=True, end="")


class _Styled:
    """``renderable`` with ``pre`` applied under its own styles and ``post`` over them (the
    layering a DataTable cell gets: the row, the cell's Text, the cursor's colour)."""

    def __init__(self, renderable: RenderableType, pre: Style, post: Style) -> None:
        self.renderable, self.pre, self.post = renderable, pre, post

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        return Segment.apply_style(
            console.render(self.renderable, options), style=self.pre, post_style=self.post
        )


@dataclass
class Column:
    """One column: its key, header label and width in cells (padding not included)."""

    key: str
    label: Text
    width: int


class RowList(ScrollView, can_focus=True):
    """One-line rows in fixed-width columns with a row cursor (see the module)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("ctrl+home", "scroll_top", "Top", show=False),
        Binding("ctrl+end", "scroll_bottom", "Bottom", show=False),
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "row-list--header",
        "row-list--cursor",
        "row-list--hover",
    }
    """``--header`` the column labels, ``--cursor`` the row under the cursor, ``--hover`` the
    row under the mouse."""

    DEFAULT_CSS = """
    RowList {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;

        &:focus {
            background-tint: $foreground 5%;
            & > .row-list--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .row-list--header {
                background-tint: $foreground 5%;
            }
        }
        & > .row-list--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .row-list--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .row-list--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .row-list--hover {
            background: $block-hover-background;
        }
    }
    """

    cursor_row: reactive[int] = reactive(0, repaint=False, always_update=True)
    """The row under the cursor (0 when the list is empty)."""

    PADDING = 1
    """Cells of padding on each side of a cell."""

    @dataclass
    class RowHighlighted(Message):
        """The cursor moved onto row ``cursor_row`` (key ``row_key``)."""

        row_list: RowList
        cursor_row: int
        row_key: RowKey

        @property
        def control(self) -> RowList:
            return self.row_list

    @dataclass
    class RowSelected(Message):
        """Row ``cursor_row`` (key ``row_key``) was chosen: enter, or a click on the cursor."""

        row_list: RowList
        cursor_row: int
        row_key: RowKey

        @property
        def control(self) -> RowList:
            return self.row_list

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns: list[Column] = []
        self._order: list[str] = []
        """The row keys shown, top to bottom."""
        self._index: dict[str, int] | None = None
        """Row key -> its place in :attr:`_order` (built when first asked)."""
        self._kept: dict[str, Cells] = {}
        """Every row's cells read since :meth:`forget_rows` (or the function building them)."""
        self._cells_for: Callable[[str], Cells] = lambda key: []
        self._lines: dict[tuple[str, int, bool, bool], list[Segment]] = {}
        """Drawn rows (key, place, cursor, hover) for the current look and widths."""
        self._hover_row = 0
        self._show_hover = False

    # Columns ----------------------------------------------------------------------------
    def add_column(self, label: str, *, key: str, width: int) -> None:
        self.columns.append(Column(key, Text(label), width))
        self._changed_shape()

    def set_width(self, key: str, width: int) -> None:
        """Set column ``key``'s width (cells, padding not included)."""
        for c in self.columns:
            if c.key == key and c.width != width:
                c.width = width
                self._changed_shape()

    def _changed_shape(self) -> None:
        self._lines = {}
        self._update_size()
        self.refresh()

    def _update_size(self) -> None:
        width = sum(c.width + 2 * self.PADDING for c in self.columns)
        self.virtual_size = Size(width, len(self._order) + 1)

    # Rows -------------------------------------------------------------------------------
    @property
    def row_count(self) -> int:
        return len(self._order)

    def forget_rows(self, keys: Iterable[str] | None = None) -> None:
        """Drop the cells kept for :meth:`show_rows`: all of them (a new computation), or those
        of ``keys`` (rows whose cells changed)."""
        if keys is None:
            self._kept = {}
        else:
            for key in keys:
                self._kept.pop(key, None)
        self._lines = {}

    def show_rows(self, order: list[str], cells_for: Callable[[str], Cells]) -> None:
        """Show the rows of ``order`` (row keys, top to bottom, each once), cursor on the first
        row, scrolled to the top. ``cells_for(key)`` gives the cells of a row not kept (since
        :meth:`forget_rows`), or a function building them when the row is first read (it
        reads the rows it draws): a 10,000-row list builds the cells of the rows on screen."""
        if len(set(order)) != len(order):
            raise ValueError("a row key is shown twice")
        self._order = order
        self._index = None
        self._cells_for = cells_for
        self._lines = {}
        self._update_size()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.set_reactive(RowList.cursor_row, 0)  # the message below says it once
        if order:
            self.post_message(self.RowHighlighted(self, 0, RowKey(order[0])))
        self.refresh()

    def cells(self, key: str) -> list[Text]:
        """Row ``key``'s cells (built now if they were not yet)."""
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept[key] = self._cells_for(key)
        if callable(kept):
            kept = self._kept[key] = kept()
        if len(kept) > len(self.columns):
            raise ValueError("more cells than columns")
        return kept

    def is_built(self, key: str) -> bool:
        """Whether row ``key``'s cells were built (a lazy row not yet read is not)."""
        kept = self._kept.get(key)
        return kept is not None and not callable(kept)

    def row_keys(self) -> list[str]:
        """The keys of the rows shown, top to bottom."""
        return list(self._order)

    def row_key_at(self, row: int) -> str:
        return self._order[row]

    def get_row(self, key: str | RowKey) -> list[Text]:
        name = key.value if isinstance(key, RowKey) else key
        if name is None or name not in self._places():
            raise KeyError(key)
        return list(self.cells(name))

    def get_row_at(self, row: int) -> list[Text]:
        if not 0 <= row < len(self._order):
            raise IndexError(row)
        return list(self.cells(self._order[row]))

    def get_row_index(self, key: str | RowKey) -> int:
        name = key.value if isinstance(key, RowKey) else key
        place = self._places().get(name or "")
        if place is None:
            raise KeyError(key)
        return place

    def coordinate_to_cell_key(self, coordinate: Coordinate | tuple[int, int]) -> CellKey:
        """The keys of the cell at ``(row, column)``, as a DataTable gives them."""
        row, column = coordinate
        if not (0 <= row < len(self._order) and 0 <= column < len(self.columns)):
            raise IndexError(coordinate)
        return CellKey(RowKey(self._order[row]), ColumnKey(self.columns[column].key))

    def _places(self) -> dict[str, int]:
        if self._index is None:
            self._index = {key: i for i, key in enumerate(self._order)}
        return self._index

    # Cursor -----------------------------------------------------------------------------
    def validate_cursor_row(self, row: int) -> int:
        return clamp(row, 0, len(self._order) - 1) if self._order else 0

    def watch_cursor_row(self, old: int, new: int) -> None:
        if old == new:
            return
        self._refresh_row(old)
        self._refresh_row(new)
        if self._order:
            self.post_message(self.RowHighlighted(self, new, RowKey(self._order[new])))
        self._scroll_cursor_into_view()

    def move_cursor(
        self, *, row: int | None = None, animate: bool = False, scroll: bool = True
    ) -> None:
        """Move the cursor to ``row`` (clamped to the rows shown)."""
        if row is None:
            return
        if scroll:
            self._scroll_cursor_into_view(animate=animate, row=self.validate_cursor_row(row))
        self.cursor_row = row

    def _row_region(self, row: int) -> Region:
        width = sum(c.width + 2 * self.PADDING for c in self.columns)
        return Region(0, row + 1, max(self.size.width, width), 1)

    def _refresh_row(self, row: int) -> None:
        if 0 <= row < len(self._order):
            region = self._row_region(row)
            if self.window_region.overlaps(region):
                self.refresh(region.translate(-self.scroll_offset))

    def _scroll_cursor_into_view(self, animate: bool = False, row: int | None = None) -> None:
        if not self._order:
            return
        row = self.cursor_row if row is None else row
        _, y, width, height = self._row_region(row)
        region = Region(int(self.scroll_x), y, width, height)
        self.scroll_to_region(region, animate=animate, spacing=Spacing(1, 0, 0, 0), force=True)

    # Keys and mouse ---------------------------------------------------------------------
    def _select(self) -> None:
        if self._order:
            row = self.cursor_row
            self.post_message(self.RowSelected(self, row, RowKey(self._order[row])))

    def _set_hover(self, active: bool) -> None:
        self._show_hover = active
        self._refresh_row(self._hover_row)

    def action_select_cursor(self) -> None:
        self._set_hover(False)
        self._select()

    def action_cursor_up(self) -> None:
        self._set_hover(False)
        self.cursor_row -= 1

    def action_cursor_down(self) -> None:
        self._set_hover(False)
        self.cursor_row += 1

    def _page_height(self) -> int:
        return self.scrollable_content_region.height - 1

    def action_page_down(self) -> None:
        self._set_hover(False)
        height = self._page_height()
        rows = min(len(self._order) - self.cursor_row, height + 1)
        self.scroll_relative(y=height, animate=False, force=True)
        self.move_cursor(row=self.cursor_row + rows - 1, scroll=False)

    def action_page_up(self) -> None:
        self._set_hover(False)
        height = self._page_height()
        rows = min(self.cursor_row + 1, height + 1)
        self.scroll_relative(y=-height, animate=False)
        self.move_cursor(row=self.cursor_row - rows + 1, scroll=False)

    def action_scroll_top(self) -> None:
        self._set_hover(False)
        self.cursor_row = 0

    def action_scroll_bottom(self) -> None:
        self._set_hover(False)
        self.cursor_row = len(self._order) - 1

    def _meta_row(self, style: Style) -> int | None:
        row = style.meta.get("row")
        return row if isinstance(row, int) else None

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._meta_row(event.style)
        if row is None or row < 0:  # the header is never hovered
            self._set_hover(False)
            return
        self._show_hover = True
        old, self._hover_row = self._hover_row, row
        self._refresh_row(old)
        self._refresh_row(row)

    def _on_leave(self, _: events.Leave) -> None:
        self._set_hover(False)

    async def _on_click(self, event: events.Click) -> None:
        self._set_hover(True)
        row = self._meta_row(event.style)
        if row is None or row < 0:
            return  # the header (no sorting here) or outside the rows
        chosen = row == self.cursor_row
        self.cursor_row = row
        if chosen:
            self._select()
        self._scroll_cursor_into_view(animate=True)
        event.stop()

    # Drawing ----------------------------------------------------------------------------
    def notify_style_update(self) -> None:
        self._lines = {}
        super().notify_style_update()

    def _on_focus(self, event: events.Focus) -> None:
        self._lines = {}
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self._lines = {}
        self.refresh()

    def _draw(
        self, row: int, cells: list[Text] | list[RenderableType], cursor: bool, hover: bool
    ) -> list[Segment]:
        """One line of the list: ``row`` -1 is the header (drawn as a DataTable draws one)."""
        component = self.get_component_rich_style
        base = self.rich_style
        if row == -1:
            row_style = self.get_component_styles("row-list--header").rich_style
        else:
            row_style = base
        style = Style()
        if hover and self._show_hover:
            style += component("row-list--hover")
        if cursor:
            style += component("row-list--cursor")
        post = Style.from_color(color=style.color)
        console = self.app.console
        segments: list[Segment] = []
        for i, column in enumerate(self.columns):
            cell = cells[i] if i < len(cells) else _EMPTY
            width = column.width + 2 * self.PADDING
            options = self.app.console_options.update_dimensions(width, 1).update(no_wrap=True)
            pre = row_style + Style.from_meta({"row": row, "column": i}) + style
            lines = console.render_lines(
                _Styled(Padding(cell, (0, self.PADDING)), pre, post), options
            )
            segments.extend(lines[0])
        table_width = sum(c.width + 2 * self.PADDING for c in self.columns)
        rest = max(0, self.size.width - table_width)
        extend = (
            row_style + style + Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
        )
        segments.append(Segment(" " * rest, extend))
        return segments

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        base = self.rich_style
        if y == 0:
            line = self._draw(-1, [c.label for c in self.columns], False, False)
        else:
            row = y - 1 + scroll_y
            if not 0 <= row < len(self._order):
                return Strip.blank(width, base)
            key = self._order[row]
            cursor, hover = row == self.cursor_row, row == self._hover_row and self._show_hover
            cached = (key, row, cursor, hover)
            drawn = self._lines.get(cached)
            if drawn is None:
                drawn = self._lines[cached] = self._draw(row, self.cells(key), cursor, hover)
            line = drawn
        return (
            Strip(line).crop(scroll_x, scroll_x + width).adjust_cell_length(width, base).simplify()
        )
