"""Side-by-side diff: aligned rows, word-level highlights, hidden characters marked.

The body is a line-API scroll view (:class:`DiffLines`): a row's height is computed with a
linear greedy wrap (break after the last space that fits, fold longer words; continuation lines
keep a pretty-JSON indent), and only the lines on screen are turned into styled strips when
Textual asks for them. A 1 MB description therefore costs one pass over its text to lay out,
never a styled render of the whole of it. Both columns scroll together: every row is padded to
the height of its taller side. Rows are laid out for the current width, again on resize.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, ClassVar, cast

from rich.cells import _is_single_cell_widths, get_character_cell_size
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import RenderOptions
from textual.widgets import Static

if TYPE_CHECKING:
    from textual.css.styles import RulesMap

from mcp_review.tui.diffing import (
    WORD_DIFF_BUDGET,
    CueText,
    Field,
    Row,
    Side,
    align_fields,
    mark_cues,
)
from mcp_review.tui.render import HIDDEN_STYLE

_STYLE = {
    "old_line": "on $error-muted",
    "old_word": "bold $text on $error 60%",
    "new_line": "on $success-muted",
    "new_word": "bold $text on $success 60%",
    "gutter": "$text-muted",
    "mark": "bold reverse $accent",
}


Wrap = tuple[int, list[tuple[int, int]]]
"""(continuation indent, [(start, end) of each visual line in the side's text])."""


def wrap_offsets(text: str, width: int) -> Wrap:
    """Greedy word wrap of one line into ``width`` cells, linear in the text: each visual line
    ends after the last space that fits, or is folded where no space does. Continuation lines
    of an indented line (pretty JSON) keep the indent when at least 12 cells remain."""
    n = len(text)
    width = max(width, 1)
    # Every character one cell wide (ASCII, the ⟨U+…⟩ tokens): offsets are cells. A set test
    # in C, as rich's own cell_len fast path; anything else is measured per character.
    narrow = text.isascii() or _is_single_cell_widths(text)
    if narrow and n <= width:
        return 0, [(0, n)]
    indent = n - len(text.lstrip(" "))
    if not (indent and width - indent >= 12):
        indent = 0
    out: list[tuple[int, int]] = []
    pos = 0
    cap = width
    while pos < n:
        if narrow:
            end = pos + cap
            if end < n:
                j = text.rfind(" ", pos, end)
                if j >= pos and j + 1 > pos and text[pos : j + 1].strip():
                    end = j + 1
        else:  # wide characters: count cells one by one
            used = 0
            end = pos
            last_space = -1
            while end < n:
                w = get_character_cell_size(text[end])
                if used + w > cap and end > pos:
                    break
                used += w
                if text[end] == " ":
                    last_space = end
                end += 1
            if end < n and last_space >= pos and text[pos : last_space + 1].strip():
                end = last_space + 1
        out.append((pos, min(end, n)))
        pos = min(end, n)
        cap = width - indent
    return indent, out or [(0, 0)]


class DiffLines(ScrollView, can_focus=True):
    """The rows of a side-by-side diff, rendered a visible line at a time (line API).

    A cue's span (``diffing.mark_cues``) and the label naming its kind are drawn in component
    classes (as MarkedTable's marks), a blocking cue apart: a theme restyles them."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "diff-lines--cue",
        "diff-lines--cue-blocking",
        "diff-lines--cue-label",
    }

    DEFAULT_CSS = """
    DiffLines { height: 1fr; scrollbar-gutter: stable; }
    DiffLines > .diff-lines--cue { text-style: underline; }
    DiffLines > .diff-lines--cue-blocking { text-style: bold underline; color: $text-error; }
    DiffLines > .diff-lines--cue-label { text-style: bold reverse; color: $text-warning; }
    """

    def __init__(self, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.rows: list[Row] = []
        self.empty = ""
        self.marked: int | None = None
        self.row_y: list[int] = []
        self._wraps: list[tuple[Wrap | None, Wrap | None, int]] = []
        self._col = 4
        self._digits = 2
        self._total = 0
        self._cache: dict[int, Strip] = {}

    def set_rows(self, rows: list[Row], empty: str) -> None:
        self.rows, self.empty, self.marked = rows, empty, None
        self.relayout(force=True)

    @property
    def is_empty(self) -> bool:
        if not self.rows:
            return True
        only = self.rows[0]
        return len(self.rows) == 1 and only.kind == "equal" and not (only.left and only.left.text)

    def widths(self) -> tuple[int, int, int]:
        total = max(self.size.width - 2, 20)  # 2: the stable scrollbar gutter
        digits = max(2, len(str(len(self.rows) + 1)))
        col = max((total - 2 * (digits + 2) - 1) // 2, 4)
        return total, digits, col

    def on_resize(self, event: Resize) -> None:
        self.relayout()

    def relayout(self, force: bool = False) -> None:
        """Wrap every row for the current width (one linear pass) and size the scroll area.
        Nothing is laid out while the view has no size (a tab that is not shown)."""
        if not self.size.width:
            self._wraps = []
            return
        total, digits, col = self.widths()
        if not force and col == self._col and digits == self._digits and self._wraps:
            return
        self._col, self._digits = col, digits
        self._cache.clear()
        wraps: list[tuple[Wrap | None, Wrap | None, int]] = []
        row_y: list[int] = []
        y = 0
        if self.is_empty:
            self._wraps, self.row_y = [], [0]
            self._total = 1
            self.virtual_size = Size(total, 1)
            self.refresh()
            return
        for row in self.rows:
            lw = wrap_offsets(row.left.text, col) if row.left is not None else None
            rw = wrap_offsets(row.right.text, col) if row.right is not None else None
            h = max(len(lw[1]) if lw else 1, len(rw[1]) if rw else 1)
            row_y.append(y)
            wraps.append((lw, rw, h))
            y += h
        self._wraps, self.row_y, self._total = wraps, row_y, y
        self.virtual_size = Size(total, y)
        self.refresh()

    def mark(self, i: int | None) -> None:
        self.marked = i
        self._cache.clear()
        self.refresh()

    def _side_line(self, side: Side | None, wrap: Wrap | None, k: int, old: bool) -> Content:
        col = self._col
        if side is None or wrap is None or k >= len(wrap[1]):
            return Content(" " * col)
        indent, parts = wrap
        a, b = parts[k]
        c = Content(side.text[a:b])
        if side.changed:
            c = c.stylize(_STYLE["old_line" if old else "new_line"])
            word = _STYLE["old_word" if old else "new_word"]
            for x, y in side.changed:
                if x < b and y > a:
                    c = c.stylize(word, max(x, a) - a, min(y, b) - a)
        for x, y in side.hidden:
            if x < b and y > a:
                c = c.stylize(HIDDEN_STYLE, max(x, a) - a, min(y, b) - a)
        for m in side.cues:
            for (x, y), cls in (
                (m.span, "diff-lines--cue-blocking" if m.blocking else "diff-lines--cue"),
                (m.label, "diff-lines--cue-label"),
            ):
                if x < b and y > a:
                    c = c.stylize(
                        self.get_visual_style(cls, partial=True), max(x, a) - a, min(y, b) - a
                    )
        if k and indent:
            c = Content(" " * indent) + c
        return c.pad_right(max(col - c.cell_length, 0))

    def _line(self, y: int) -> Content:
        if self.is_empty:
            return Content(self.empty)
        i = bisect_right(self.row_y, y) - 1
        row = self.rows[i]
        lw, rw, _ = self._wraps[i]
        k = y - self.row_y[i]
        digits = self._digits
        gutter = _STYLE["gutter"]
        ln = row.left.number if row.left and k == 0 else None
        rn = row.right.number if row.right and k == 0 else None
        lmark = "-" if row.left and row.left.changed and k == 0 else " "
        rmark = "+" if row.right and row.right.changed and k == 0 else " "
        lg = Content((str(ln) if ln else "").rjust(digits) + lmark + " ")
        rg = Content((str(rn) if rn else "").rjust(digits) + rmark + " ")
        style = _STYLE["mark"] if i == self.marked and k == 0 else gutter
        return Content.assemble(
            lg.stylize(style),
            self._side_line(row.left, lw, k, True),
            Content("│").stylize(gutter),
            rg.stylize(style),
            self._side_line(row.right, rw, k, False),
        )

    def line_text(self, y: int) -> str:
        """The plain text of visual line ``y`` (for tests and copy)."""
        self.relayout()
        return self._line(y).plain if 0 <= y < self._total else ""

    @property
    def line_count(self) -> int:
        return self._total

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        at = scroll_y + y
        width = self.size.width
        strip = self._cache.get(at)
        if strip is None:
            if at >= self._total:
                strip = Strip.blank(width, self.visual_style.rich_style)
            else:
                content = self._line(at)
                strips = content.render_strips(
                    self.virtual_size.width,
                    1,
                    self.visual_style,
                    # As Textual's own visual.py passes them: the styles are the rules map.
                    RenderOptions(self._get_style, cast("RulesMap", self.styles)),
                )
                strip = strips[0] if strips else Strip.blank(width)
            if len(self._cache) > 2000:
                self._cache.clear()
            self._cache[at] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, self.visual_style.rich_style)


def truncation_note(rows: list[Row], first: int) -> str:
    """The marker shown when the word diff stopped at row ``first``."""
    row = rows[first]
    side = row.right or row.left
    line = side.number if side is not None else first + 1
    return (
        f"word diff truncated after {first} of {len(rows)} lines: from line {line} on, "
        "changed lines are marked whole · w: full word diff"
    )


class SideBySide(Vertical):
    """Two texts side by side; ``show(old, new)`` renders them, ``reveal(side, line)`` scrolls.

    The word diff is bounded (``diffing.WORD_DIFF_BUDGET``): past it, changed lines are marked
    whole and a line under the header says from which line; ``w`` computes the full word diff
    (in a worker thread: the keys stay live)."""

    DEFAULT_CSS = """
    SideBySide { height: 1fr; }
    SideBySide > .diff-header { height: 1; color: $text-muted; text-style: bold; }
    SideBySide > .diff-note { height: 1; color: $text-warning; display: none; }
    SideBySide.-truncated > .diff-note { display: block; }
    """
    BINDINGS = [Binding("w", "full_word_diff", "Full word diff", show=False)]

    def __init__(
        self,
        old_title: str = "pinned",
        new_title: str = "now",
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.old_title = old_title
        self.new_title = new_title
        self.rows: list[Row] = []
        self._empty = ""
        self.truncated: int | None = None
        """Index of the first row the word diff did not reach (None: the whole diff)."""
        self._texts: tuple[Field, ...] = ()
        self._cues: list[CueText] = []

    def compose(self) -> ComposeResult:
        yield Static(classes="diff-header", markup=False)
        yield Static(classes="diff-note", markup=False)
        yield DiffLines(classes="diff-body")

    @property
    def body(self) -> DiffLines:
        return self.query_one(DiffLines)

    @property
    def _marked(self) -> int | None:
        return self.body.marked if self.is_mounted else None

    word_budget: int | None = WORD_DIFF_BUDGET
    """Token-count products word-diffed before the rest is marked whole (None: no bound)."""

    def show(
        self,
        old: str | None,
        new: str | None,
        *,
        empty: str = "(absent)",
        cues: list[CueText] | None = None,
    ) -> None:
        """Diff ``old`` against ``new`` (None: absent on that side) and render."""
        self.show_fields([(old, new)], empty=empty, cues=cues)

    def show_fields(
        self, fields: list[Field], *, empty: str = "(absent)", cues: list[CueText] | None = None
    ) -> None:
        """Several text fields shown as one (a title, then a description), each diffed against
        its own counterpart only (``diffing.align_fields``), and render; ``cues`` are marked
        on the new side with their kind (``diffing.mark_cues``)."""
        self._texts = tuple(fields)
        self._cues = list(cues or [])
        self._set(*align_fields(list(fields), self.word_budget))
        self._empty = empty
        if self.is_mounted:
            self.body.set_rows(self.rows, empty)
            self._header()

    def _set(self, rows: list[Row], truncated: int | None) -> None:
        if self._cues:
            mark_cues(rows, self._cues)
        self.rows, self.truncated = rows, truncated
        self.set_class(truncated is not None, "-truncated")

    def on_mount(self) -> None:
        self.body.set_rows(self.rows, self._empty)
        self._header()

    def action_full_word_diff(self) -> None:
        if self.truncated is None:
            return
        self.query_one(".diff-note", Static).update(Content("computing the full word diff…"))
        self._full_word_diff(self._texts)

    @work(thread=True, exclusive=True, exit_on_error=False, group="word-diff")
    def _full_word_diff(self, texts: tuple[Field, ...]) -> None:
        rows, _ = align_fields(list(texts), None)
        self.app.call_from_thread(self._show_full, texts, rows)

    def _show_full(self, texts: tuple[Field, ...], rows: list[Row]) -> None:
        if self._texts != texts:
            return  # another diff is shown by now
        self._set(rows, None)
        self.body.set_rows(rows, self._empty)
        self._header()

    @property
    def changed(self) -> bool:
        return any(r.kind != "equal" for r in self.rows)

    def on_resize(self, event: Resize) -> None:
        self._header()

    def _header(self) -> None:
        _, digits, col = self.body.widths()
        self.query_one(".diff-header", Static).update(
            Content(
                " " * (digits + 2)
                + self.old_title.ljust(col)[:col]
                + " "
                + " " * (digits + 2)
                + self.new_title[:col]
            )
        )
        if self.truncated is not None:
            self.query_one(".diff-note", Static).update(
                Content(truncation_note(self.rows, self.truncated))
            )

    def row_for_line(self, side: str, line: int) -> int | None:
        for i, row in enumerate(self.rows):
            s = row.right if side == "new" else row.left
            if s is not None and s.number == line:
                return i
        return None

    def reveal(self, side: str, line: int) -> bool:
        """Scroll so line ``line`` of ``side`` ("old"/"new") is near the top, and mark it."""
        i = self.row_for_line(side, line)
        if i is None:
            i = self.row_for_line("old" if side == "new" else "new", line)
        if i is None:
            return False
        body = self.body
        body.mark(i)
        body.relayout()
        y = body.row_y[i] if i < len(body.row_y) else 0
        body.scroll_to(y=max(y - 1, 0), animate=False, immediate=True)
        return True

    def first_change(self) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r.kind != "equal"), None)
