"""Side-by-side diff: aligned rows, word-level highlights, hidden characters marked.

One scroll container holds both columns, so the two sides never drift apart when a line wraps
on one side only: every row is padded to the height of its taller side. Rows are laid out for
the current width, again on resize.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.widgets import Static

from mcp_review.tui.diffing import Row, Side, align
from mcp_review.tui.render import HIDDEN_STYLE

_STYLE = {
    "old_line": "on $error-muted",
    "old_word": "bold $text on $error 60%",
    "new_line": "on $success-muted",
    "new_word": "bold $text on $success 60%",
    "gutter": "$text-muted",
    "mark": "bold reverse $accent",
}


class SideBySide(Vertical):
    """Two texts side by side; ``show(old, new)`` renders them, ``reveal(side, line)`` scrolls."""

    DEFAULT_CSS = """
    SideBySide { height: 1fr; }
    SideBySide > .diff-header { height: 1; color: $text-muted; text-style: bold; }
    SideBySide > VerticalScroll { height: 1fr; scrollbar-gutter: stable; }
    SideBySide > VerticalScroll > Static { width: 100%; }
    """

    def __init__(self, old_title: str = "pinned", new_title: str = "now", *,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.old_title = old_title
        self.new_title = new_title
        self.rows: list[Row] = []
        self._row_y: list[int] = []
        self._marked: int | None = None
        self._empty = ""
        self._laid_width = 0

    def compose(self) -> ComposeResult:
        yield Static(classes="diff-header", markup=False)
        with VerticalScroll():
            yield Static(markup=False, classes="diff-body")

    def show(self, old: str | None, new: str | None, *, empty: str = "(absent)") -> None:
        """Diff ``old`` against ``new`` (None: absent on that side) and render."""
        self.rows = align(old, new)
        self._marked = None
        self._empty = empty
        self._layout(force=True)

    @property
    def changed(self) -> bool:
        return any(r.kind != "equal" for r in self.rows)

    def on_resize(self, event: Resize) -> None:
        self._layout()

    def _widths(self) -> tuple[int, int, int]:
        total = max(self.size.width - 2, 20)  # 2: the stable scrollbar gutter
        digits = max(2, len(str(len(self.rows) + 1)))
        col = max((total - 2 * (digits + 2) - 1) // 2, 4)
        return total, digits, col

    def _side(self, side: Side | None, old: bool, width: int) -> list[Content]:
        if side is None:
            return [Content(" " * width)]
        c = Content(side.text)
        if side.changed:
            c = c.stylize(_STYLE["old_line" if old else "new_line"])
            for a, b in side.changed:
                c = c.stylize(_STYLE["old_word" if old else "new_word"], a, b)
        for a, b in side.hidden:
            c = c.stylize(HIDDEN_STYLE, a, b)
        # Content.wrap drops leading spaces, which is the indentation of pretty JSON: wrap the
        # rest and put the indent back on every line (continuations stay under their parent).
        indent = len(side.text) - len(side.text.lstrip(" "))
        if indent and width - indent >= 12:
            lines = [Content(" " * indent) + ln
                     for ln in (c[indent:].wrap(width - indent, overflow="fold")
                                or [Content("")])]
        else:
            lines = c.wrap(width, overflow="fold") or [Content("")]
        return [ln.pad_right(max(width - ln.cell_length, 0)) for ln in lines]

    def _layout(self, force: bool = False) -> None:
        if not self.is_mounted:
            return
        total, digits, col = self._widths()
        if not force and total == self._laid_width:
            return
        self._laid_width = total
        header = self.query_one(".diff-header", Static)
        header.update(Content(" " * (digits + 2) + self.old_title.ljust(col)[:col] + " "
                              + " " * (digits + 2) + self.new_title[:col]))
        body = self.query_one(".diff-body", Static)
        if not self.rows or (len(self.rows) == 1 and self.rows[0].kind == "equal"
                             and not self.rows[0].left.text):  # type: ignore[union-attr]
            body.update(Content(self._empty))
            self._row_y = [0]
            return
        out: list[Content] = []
        self._row_y = []
        gutter = _STYLE["gutter"]
        for i, row in enumerate(self.rows):
            self._row_y.append(len(out))
            left = self._side(row.left, True, col)
            right = self._side(row.right, False, col)
            height = max(len(left), len(right))
            blank = Content(" " * col)
            for k in range(height):
                ln = row.left.number if row.left and k == 0 else None
                rn = row.right.number if row.right and k == 0 else None
                lmark = "-" if row.left and row.left.changed and k == 0 else " "
                rmark = "+" if row.right and row.right.changed and k == 0 else " "
                lg = Content((str(ln) if ln else "").rjust(digits) + lmark + " ")
                rg = Content((str(rn) if rn else "").rjust(digits) + rmark + " ")
                style = _STYLE["mark"] if i == self._marked and k == 0 else gutter
                out.append(Content.assemble(
                    lg.stylize(style), left[k] if k < len(left) else blank,
                    Content("│").stylize(gutter),
                    rg.stylize(style), right[k] if k < len(right) else blank,
                ))
        body.update(Content("\n").join(out))

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
        self._marked = i
        self._layout(force=True)
        y = self._row_y[i] if i < len(self._row_y) else 0
        self.query_one(VerticalScroll).scroll_to(y=max(y - 1, 0), animate=False, immediate=True)
        return True

    def first_change(self) -> int | None:
        return next((i for i, r in enumerate(self.rows) if r.kind != "equal"), None)
