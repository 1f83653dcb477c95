"""Issue 30 item 20: the Markdown summary escapes the minimum, and stays inert when rendered.

Rendered by markdown-it-py as GitHub does (tables, strikethrough, raw HTML on) with linkify on
(linkify-it-py, fuzzy links off as in GFM's extended autolinks: a scheme, ``www.``, an e-mail):
hostile tool names and descriptions produce no link, no mention or reference left whole, no
HTML of theirs and no heading, and the raw Markdown reads as written.
"""

from __future__ import annotations

import html.parser
import re

import pytest

from mcp_review.engine.hidden import md_html_text, md_text

pytest.importorskip("linkify_it")

HOSTILE = [
    "https://evil.example/x?a=1",
    "see www.evil.example now",
    "mail ops@evil.example",
    "cc @octocat and @org/team",
    "fixes #123 and GH-7",
    "<https://evil.example>",
    "[click](https://evil.example)",
    "![img](https://evil.example/i.png)",
    "</summary></details><img src=x onerror=alert(1)>",
    "# heading",
    "## heading",
    "a | b | c",
    "`code` *em* _em_ **strong** ~~gone~~ $x^2$",
    "&lt;not an entity&gt; &amp; &#64;",
    "x\\",
    "foo_bar_baz __init__",
]


class _Html(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text += data


def render(md: str) -> _Html:
    from markdown_it import MarkdownIt

    m = MarkdownIt("gfm-like", {"html": True, "linkify": True})
    m.linkify.set({"fuzzy_link": False})  # GFM links a scheme, www. or an e-mail, not a bare host
    p = _Html()
    p.feed(m.render(md))
    return p


_MENTION = re.compile(r"(?<![\w`])@\w")
_REF = re.compile(r"(?<![\w&])#\d")


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_renders_as_itself_and_inert(text):
    doc = (
        f"| tool | why |\n|---|---|\n| {md_text(text)} | {md_text(text)} |\n\n"
        f"<details><summary>{md_html_text(text)}</summary>\n\n</details>\n"
    )
    r = render(doc)
    assert set(r.tags) <= {"table", "thead", "tbody", "tr", "th", "td", "details", "summary"}, (
        r.tags,
        doc,
    )
    cells = r.text
    assert cells.count(text) == 3, (text, cells)  # shown as written, in the cells and summary
    # What GitHub's mention/reference filters read is the raw text node: never whole.
    raw = md_text(text) + md_html_text(text)
    assert not _MENTION.search(raw) and not _REF.search(raw), raw
    assert "http://" not in raw and "https://" not in raw and "www.e" not in raw


def test_the_raw_markdown_reads_cleanly():
    assert md_text("directory_tree") == "directory_tree"
    assert md_text("read_text_file: reads a file (UTF-8)") == "read_text_file: reads a file (UTF-8)"
    assert "&#" not in md_text("a_b:c.d (e) + f = g ^ h ' \" ! # =")
