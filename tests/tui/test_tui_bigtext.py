"""Big text in the review app (issue 15): a 1 MB description diff opens, shows its hidden
characters as tokens, scrolls, switches tabs and quits. No timing asserted here: the targets
live in benchmarks/bench_bigtext.py and benchmarks/README.md."""

from __future__ import annotations

import itertools
import random

from helpers import press, ready
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.screens.review import ReviewScreen
from mcp_review.tui.source import ReviewSource
from mcp_review.tui.widgets.diff_view import SideBySide, wrap_offsets

WORDS = "read the file from the workspace and return its text only inside allowed roots".split()


def _texts(size: int) -> tuple[str, str]:
    rnd = random.Random(3)
    old = "\n".join(" ".join(rnd.choice(WORDS) for _ in range(12)) for _ in range(10))
    lines = old.split("\n")
    n = len(old)
    while n < size:
        line = " ".join(rnd.choice(WORDS) for _ in range(13))
        if len(lines) % 50 == 7:
            line += " \u200bhidden"
        lines.append(line)
        n += len(line) + 1
    return old, "\n".join(lines)


def _source(old: str, new: str) -> ReviewSource:
    def snap(desc: str) -> Snapshot:
        return Snapshot(
            servers={
                "files": ServerSnapshot(
                    name="files",
                    tools=[
                        ToolDef.from_wire(
                            {
                                "name": "read_file",
                                "description": desc,
                                "inputSchema": {"type": "object"},
                            }
                        )
                    ],
                )
            }
        )

    return ReviewSource.baseline(SnapshotFetcher(snap(new)), snap(old))


async def test_one_megabyte_description_opens_scrolls_switches_tabs_and_quits():
    old, new = _texts(1_000_000)
    app = ReviewApp(_source(old, new))
    async with app.run_test(size=(80, 24), notifications=False) as pilot:
        await ready(app, pilot)
        await press(pilot, "n", "enter")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await press(pilot, "2")
        diff = screen.query_one("#desc-diff", SideBySide)
        body = diff.body
        # Every row laid out (at least one visual line each), the whole text reachable.
        assert len(diff.rows) == new.count("\n") + 1
        assert body.line_count >= len(diff.rows)
        shown = [body.line_text(y) for y in range(body.line_count - 400, body.line_count)]
        assert any("⟨U+200B⟩" in s for s in shown)  # hidden characters still shown as tokens
        assert not any("\u200b" in s for s in shown)
        await press(pilot, "end")
        assert body.scroll_offset.y > 0
        for key in ("1", "3", "2", "pagedown", "home"):
            await press(pilot, key)
        await press(pilot, "escape")
        assert not isinstance(app.screen, ReviewScreen)
        await press(pilot, "q")
    assert app.return_code in (0, None)


_text = st.text(alphabet=st.sampled_from("ab c  de\u4e2d\u200b⟨⟩"), max_size=300)


@settings(max_examples=300, deadline=None)
@given(_text, st.integers(min_value=1, max_value=40))
def test_wrap_covers_the_text_in_order_and_fits_the_width(text, width):
    indent, parts = wrap_offsets(text, width)
    # Consecutive, covering every character once, in order.
    assert parts[0][0] == 0 and parts[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(parts))
    for k, (a, b) in enumerate(parts):
        cap = width - (indent if k else 0)
        seg = text[a:b]
        # Fits, unless one wide character alone is wider than the column.
        assert cell_len(seg) <= cap or len(seg) == 1
        assert b > a or len(text) == 0


def test_wrap_breaks_after_spaces_and_keeps_an_indent():
    assert wrap_offsets("aaa bbb ccc", 8) == (0, [(0, 8), (8, 11)])
    indent, parts = wrap_offsets("    " + "word " * 10, 15)
    assert indent == 0  # 15 - 4 < 12: no room to keep the indent
    indent, parts = wrap_offsets("    " + "word " * 10, 30)
    assert indent == 4 and all(b - a <= 26 for a, b in parts[1:])


def test_word_diff_budget_marks_the_rest_whole_and_keeps_hidden_tokens():
    from mcp_review.tui.diffing import align, align_bounded

    old = "\n".join(f"line {i} alpha beta gamma" for i in range(200))
    new = "\n".join(f"line {i} alpha BETA gamma\u200b" for i in range(200))
    full = align(old, new)
    rows, first = align_bounded(old, new, 10 * 8 * 9)  # about ten lines' worth
    assert first is not None and 0 < first < 200
    for i, (r, f) in enumerate(zip(rows, full, strict=True)):
        assert r.right.hidden == f.right.hidden and r.right.hidden  # tokens marked on every row
        if i < first:
            assert (r.left.changed, r.right.changed) == (f.left.changed, f.right.changed)
        else:
            assert r.right.changed == [(0, len(r.right.text))]
            assert r.left.changed == [(0, len(r.left.text))]
    assert align_bounded(old, new, None) == (full, None)
    assert align_bounded(old, old)[1] is None  # nothing changed, nothing spent


async def test_a_truncated_word_diff_says_so_and_w_shows_the_rest(monkeypatch):
    monkeypatch.setattr(SideBySide, "word_budget", 1_000)  # about two lines of it
    old, new = _texts(100_000)
    new = "\n".join(line.replace("the", "THE") for line in new.split("\n"))
    app = ReviewApp(_source(old, new))
    async with app.run_test(size=(80, 24), notifications=False) as pilot:
        await ready(app, pilot)
        await press(pilot, "n", "enter")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await press(pilot, "2")
        diff = screen.query_one("#desc-diff", SideBySide)
        first = diff.truncated
        assert first is not None
        note = diff.query_one(".diff-note")
        assert note.display
        assert f"word diff truncated after {first} of {len(diff.rows)} lines" in str(note.render())
        assert "\u27e8U+200B" in "".join(
            diff.body.line_text(y) for y in range(diff.body.line_count)
        )
        diff.body.focus()
        await pilot.press("w")
        for _ in range(3000):
            await pilot.pause(0.02)
            if diff.truncated is None:
                break
        assert diff.truncated is None and not note.display
        # every replaced line now has its word spans, not the whole line
        replaced = [r for r in diff.rows if r.kind == "replace"]
        assert replaced and all(
            r.right.changed != [(0, len(r.right.text))]
            for r in replaced
            if "THE" in r.right.text and r.right.text != r.right.text.upper()
        )
        await press(pilot, "1")
        await pilot.press("q")
