"""The main screen's counts line and ``n``'s order, worked out apart from the screen
(tui/counts.py): checked against the engine's own status report and the gate's verdict."""

from __future__ import annotations

import asyncio

import tui_sample as sample

from mcp_review.engine.status import Awaiting, State
from mcp_review.tui.counts import Counts, count, counts_line, visit_order
from mcp_review.tui.view import STATUS_ORDER


def _computed(source):
    asyncio.run(source.fetch(lambda *a: None))
    computed = source.compute()
    source.apply(computed)
    return computed


def test_counts_are_the_engine_status_report_counted_independently():
    computed = _computed(sample.groups_source())
    c = count(computed.servers)
    tools = computed.report.tools
    assert tools, "the sample has tools"
    # The independent truth: the engine's report, each tool's state and what it awaits.
    for state in STATUS_ORDER:
        assert c.by_status[state] == sum(t.state is state for t in tools), state
    assert c.auto == sum(t.awaiting is Awaiting.AUTO for t in tools)
    assert c.waived == sum(t.awaiting is Awaiting.WAIVED for t in tools)
    surfaces = [x for s in computed.servers for x in s.surfaces]
    waiting = sum(t.awaiting is Awaiting.REVIEW for t in tools)
    assert c.review == waiting + sum(x.needs_review for x in surfaces) + sum(
        s.instructions.needs_attention for s in computed.servers if s.instructions is not None
    )
    assert c.review > 0 and c.failed == 0


def test_a_failed_server_is_counted():
    computed = _computed(sample.sample_source())
    assert count(computed.servers).failed == 1  # the sample's server that fails to start


def test_the_line_breaks_between_phrases_never_inside_one():
    c = Counts(
        {k: (3 if k in (State.CHANGED, State.PINNED) else 0) for k in STATUS_ORDER},
        review=12,
        auto=4,
        waived=1,
        failed=2,
        blocked=1,
    )
    phrases = ["3 changed", "│ 1 blocked", "│ 12 to review", "│ 2 servers failed"]
    phrases += ["│ 4 auto-approvable (P)", "│ 1 waived"]
    for width in (20, 30, 48, 80, 200):
        line = counts_line(
            c,
            loaded=True,
            fetch_failed=False,
            servers=3,
            computing=False,
            width=width,
            filter_text="",
        )
        rows = line.plain.split("\n")
        for p in phrases:  # every phrase whole, on one row
            assert sum(p in r for r in rows) == 1, (width, p, rows)
        assert all(len(r) <= width for r in rows if "  " in r), (width, rows)
    assert (
        "\n"
        not in counts_line(
            c,
            loaded=True,
            fetch_failed=False,
            servers=3,
            computing=False,
            width=200,
            filter_text="",
        ).plain
    )


def test_nothing_reads_as_clear_before_the_first_status_and_the_filter_is_literal():
    c = count([])
    line = counts_line(
        c,
        loaded=False,
        fetch_failed=False,
        servers=2,
        computing=False,
        width=80,
        filter_text="[bold]x[/bold]",
    )
    assert "reading 2 servers…" in line.plain
    assert "to review" not in line.plain
    assert line.plain.endswith("filter: [bold]x[/bold]")  # the operator's text, not markup
    failed = counts_line(
        c, loaded=False, fetch_failed=True, servers=2, computing=False, width=80, filter_text=""
    )
    assert "fetch failed: r fetches again" in failed.plain


def test_n_visits_only_shown_rows_each_once_blocked_first():
    source = sample.groups_source()
    computed = _computed(source)
    from mcp_review.tui.widgets.tool_table import _key_of

    by_key = {_key_of(t.key): t for s in computed.servers for t in s.tools}
    keys = list(by_key)
    order = visit_order(computed.servers, keys, by_key, source.grouping())
    visited = [k for k, _ in order]
    assert len(visited) == len(set(visited)) and set(visited) <= set(keys)
    assert any(said.startswith("group: ") for _, said in order)
    # Blocked rows (alone, or a blocked group's first member) come first: a prefix.
    flags = [by_key[k].blocked for k in visited]
    assert any(flags) and flags == sorted(flags, reverse=True), flags
    # Hidden rows (a filter) are never visited.
    shown = keys[: len(keys) // 2]
    assert {k for k, _ in visit_order(computed.servers, shown, by_key, source.grouping())} <= set(
        shown
    )
