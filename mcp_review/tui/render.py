"""Untrusted strings as data: Content/Text with hidden characters shown, never markup.

Every string a server supplies (names, descriptions, schemas, messages quoting them) reaches the
screen through one of these functions, so no markup is parsed, no action is clickable and no
escape sequence reaches the terminal (sdk-crib §4).
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from mcp_review.tui.diffing import make_visible

HIDDEN_STYLE = "bold $text-warning on $warning-muted"
HIDDEN_RICH = "bold reverse"


def _clip(s: str, one_line: bool, limit: int | None) -> tuple[str, bool]:
    cut = False
    if limit is not None and len(s) > limit:
        s, cut = s[:limit], True
    if one_line:
        s = s.replace("\r\n", "⏎").replace("\n", "⏎").replace("\t", " ")
    return s, cut


def safe_content(s: str | None, *, style: str = "", one_line: bool = False,
                 limit: int | None = None) -> Content:
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


def safe_text(s: str | None, *, style: str = "", one_line: bool = True,
              limit: int | None = 200) -> Text:
    """``s`` as a Rich Text (for DataTable cells, which parse str as Rich markup)."""
    if s is None:
        return Text("")
    s, cut = _clip(s, one_line, limit)
    vt = make_visible(s)
    t = Text(vt.text, style=style, end="", no_wrap=one_line)
    for a, b in vt.hidden:
        t.stylize(HIDDEN_RICH, a, b)
    if cut:
        t.append("…")
    return t


def plain_line(s: str | None, limit: int = 80) -> str:
    """A visible, single-line, bounded str for places that take str (titles, notifications).
    Callers still pass ``markup=False`` where the widget would parse markup."""
    if s is None:
        return ""
    s, cut = _clip(s, True, limit)
    return make_visible(s).text + ("…" if cut else "")
