"""Untrusted strings as data: Content/Text with hidden characters shown, never markup.

Every string a server supplies (names, descriptions, schemas, messages quoting them) reaches the
screen through one of these functions, so no markup is parsed, no action is clickable and no
escape sequence reaches the terminal (sdk-crib §4).

One renderer per kind: :func:`safe_content` (any text) and :func:`name_content` (tool names,
look-alike letters marked too) decide what is shown and which spans are marked. A DataTable
cell (rendered by Rich, which knows no theme variables) is the same Content turned into a Rich
``Text`` by :func:`cell_text`, each mark drawn in the style the table gives it (its component
classes, so CSS and themes restyle them: ``widgets.marked_table``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content

from mcp_review.engine.hidden import is_space_separator
from mcp_review.tui.diffing import Span, make_visible

HIDDEN_STYLE = "bold $text-warning on $warning-muted"
"""The mark on a hidden-character token (``⟨U+200B⟩``) in Content."""
LOOKALIKE_STYLE = "bold $text-error on $error-muted"
"""The mark on a look-alike letter and its ``⟨U+XXXX⟩`` token in Content."""

Marks = Mapping[str, Style]
"""How a table draws each mark of the renderers (``HIDDEN_STYLE`` / ``LOOKALIKE_STYLE``) in a
Rich cell: ``widgets.marked_table.MarkedTable.marks`` (from its component classes)."""

REVERSE_MARKS: Marks = {
    HIDDEN_STYLE: Style(bold=True, reverse=True),
    LOOKALIKE_STYLE: Style(bold=True, reverse=True),
}
"""Marks without a table to ask (a cell built outside one): reversed, in whatever colours the
text has."""


def _clip(s: str, one_line: bool, limit: int | None) -> tuple[str, bool]:
    cut = False
    if limit is not None and len(s) > limit:
        # A cut never ends inside an escape: reasons quote text with "\n" written out.
        s, cut = s[:limit].rstrip("\\"), True
    if one_line:
        s = s.replace("\r\n", "⏎").replace("\n", "⏎").replace("\t", " ")
    return s, cut


def safe_content(
    s: str | None, *, style: str = "", one_line: bool = False, limit: int | None = None
) -> Content:
    """``s`` as plain Content; hidden characters become highlighted ⟨…⟩ tokens."""
    if s is None:
        return Content("")
    s, cut = _clip(s, one_line, limit)
    vt = make_visible(s)
    c = Content(vt.text)
    if style:
        c = c.stylize(style)
    for a, b in vt.hidden:
        c = c.stylize(HIDDEN_STYLE, a, b)
    if cut:
        c = c + Content("…")
    return c


def safe_text(
    s: str | None,
    *,
    style: str | Style = "",
    one_line: bool = True,
    limit: int | None = 200,
    marks: Marks = REVERSE_MARKS,
) -> Text:
    """``s`` as a Rich Text for a DataTable cell (which parses str as Rich markup): the
    :func:`safe_content` of ``s``, its marks drawn as ``marks`` says."""
    return cell_text(
        safe_content(s, one_line=one_line, limit=limit), marks, style=style, no_wrap=one_line
    )


def cell_text(
    content: Content,
    marks: Marks,
    *,
    style: str | Style = "",
    no_wrap: bool = True,
    overflow: Literal["fold", "crop", "ellipsis", "ignore"] | None = None,
) -> Text:
    """``content`` (made by :func:`safe_content` / :func:`name_content` without a style) as a
    Rich Text in ``style``, each marked span drawn in ``marks[its mark]``. A span that is not a
    known mark raises: a cell shows what the renderers decided, nothing else."""
    t = Text(content.plain, style=style, end="", no_wrap=no_wrap, overflow=overflow)
    for span in content.spans:
        mark = span.style
        if not isinstance(mark, str) or mark not in marks:
            raise ValueError(f"not a mark of the renderers: {mark!r}")
        t.stylize(marks[mark], span.start, span.end)
    return t


def plain_line(s: str | None, limit: int = 80) -> str:
    """A visible, single-line, bounded str for places that take str (titles, notifications).
    Callers still pass ``markup=False`` where the widget would parse markup."""
    if s is None:
        return ""
    s, cut = _clip(s, True, limit)
    return make_visible(s).text + ("…" if cut else "")


# Tool names: look-alike letters marked -------------------------------------------------------


@dataclass(slots=True)
class MarkedName:
    """A name made visible, with where its marks are (the text is ``hidden.mark_lookalikes``)."""

    text: str
    hidden: list[Span] = field(default_factory=list)
    """Spans of hidden-character tokens (``⟨U+200B⟩``)."""
    lookalike: list[Span] = field(default_factory=list)
    """Spans of each look-alike letter together with its ``⟨U+XXXX⟩`` token."""


def _odd(c: str) -> bool:
    return ord(c) > 0x7E and c not in "⟨⟩"


def mark_name(name: str) -> MarkedName:
    """``name`` as ``engine.hidden.mark_lookalikes`` shows it (hidden characters as tokens; in an
    otherwise ASCII name each non-ASCII letter followed by its code point, so ``rеad_file``
    with a Cyrillic е reads ``rе⟨U+0435⟩ad_file``), plus the spans to highlight (pure)."""
    vt = make_visible(name)
    shown = vt.text
    odd = sum(1 for c in shown if _odd(c))
    if not odd:
        return MarkedName(shown, list(vt.hidden))
    marked = _odd
    if odd * 2 > len(shown):
        # Another script: only a space other than U+0020 is marked, as in the reports.
        if not any(is_space_separator(c) for c in shown):
            return MarkedName(shown, list(vt.hidden))
        marked = is_space_separator
    out: list[str] = []
    marks: list[Span] = []
    shift: list[int] = []  # shift[i]: how far character i of ``shown`` moved right
    n = 0
    for i, c in enumerate(shown):
        shift.append(n - i)
        if marked(c):
            token = f"{c}⟨U+{ord(c):04X}⟩"
            marks.append((n, n + len(token)))
            out.append(token)
            n += len(token)
        else:
            out.append(c)
            n += 1
    hidden = [(a + shift[a], b + shift[a]) for a, b in vt.hidden]
    return MarkedName("".join(out), hidden, marks)


def _one_line_name(s: str, limit: int | None) -> tuple[MarkedName, bool]:
    # Marked before the line breaks become ⏎ (itself non-ASCII); ⏎ replaces "\n" in place,
    # so the spans still hold.
    s, cut = _clip(s.replace("\r\n", "\n").replace("\t", " "), False, limit)
    m = mark_name(s)
    m.text = m.text.replace("\n", "⏎")
    return m, cut


def name_content(s: str | None, *, style: str = "", limit: int | None = 120) -> Content:
    """A tool name as one-line Content: hidden characters and look-alike letters marked."""
    if s is None:
        return Content("")
    m, cut = _one_line_name(s, limit)
    c = Content(m.text)
    if style:
        c = c.stylize(style)
    for a, b in m.hidden:
        c = c.stylize(HIDDEN_STYLE, a, b)
    for a, b in m.lookalike:
        c = c.stylize(LOOKALIKE_STYLE, a, b)
    return c + Content("…") if cut else c


def name_text(
    s: str | None, *, style: str | Style = "", limit: int | None = 80, marks: Marks = REVERSE_MARKS
) -> Text:
    """A tool name as a one-line Rich Text (DataTable cells): the :func:`name_content` of
    ``s``, its marks drawn as ``marks`` says."""
    return cell_text(name_content(s, limit=limit), marks, style=style)


def name_line(s: str | None, limit: int = 80) -> str:
    """A tool name as a bounded one-line str (titles, notifications), look-alikes marked."""
    if s is None:
        return ""
    m, cut = _one_line_name(s, limit)
    return m.text + ("…" if cut else "")


class WordCutText(Text):
    """A one-line cell's Text that, wider than its cell, is cut after a whole word and ends
    in "…" ("1 potenti" at 80×24). A single word wider than the cell is cut
    inside it, with the "…". The text itself (``plain``, spans) is unchanged: only the drawing
    is cut; the screen shows the whole text elsewhere (the main screen's detail line)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterable[Segment]:
        width = options.max_width
        if self.cell_len <= width:
            yield from super().__rich_console__(console, options)
            return
        yield from word_cut(self, width).__rich_console__(console, options)


def word_cut(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells after its last whole word that fits with a "…"."""
    if text.cell_len <= width:
        return text
    if width <= 1:
        return Text("…"[:width], end="")
    room = width - 1  # the "…"
    plain = text.plain
    end = 0
    for i, ch in enumerate(plain):
        if ch == " " and cell_len(plain[:i].rstrip()) <= room:
            end = i
        elif cell_len(plain[: i + 1]) > room:
            break
    cut = text.copy()
    if end:
        cut.right_crop(len(plain) - end)
        cut.rstrip()
        cut.rstrip_end(room)
    else:  # one word wider than the cell
        cut.truncate(room)
    cut.no_wrap, cut.overflow = True, "crop"
    cut.append("…")
    return cut


def word_cut_cell(text: Text) -> WordCutText:
    """``text`` (a cell made by :func:`safe_text`) drawn cut after a whole word."""
    out = WordCutText(
        text.plain, style=text.style, end=text.end, no_wrap=True, overflow=text.overflow
    )
    out.spans = list(text.spans)
    return out
