"""The groups view's "tools" column fits what it says (the operator's walk, benchmarks/README.md
"The operator's walk on two real upgrades"): server-memory 2026.8.31 adds a resource, which
stands alone, and the column, 9 cells wide, read ``1 resourc``. The column is as wide as its
longest label (9 at least, so the usual view is unchanged). Driven with Textual's pilot on a
real drift: a snapshot pinned as the baseline, the next one (a new resource) reviewed."""

from __future__ import annotations

from typing import Any

from helpers import press, settled
from rich.cells import cell_len

from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.source import ReviewSource

TOOL = {"name": "read_graph", "inputSchema": {"type": "object"}, "description": "Read the graph"}
RESOURCE = {
    "uri": "memory://knowledge-graph",
    "name": "knowledge-graph",
    "description": "The full knowledge graph with all entities and relations",
    "mimeType": "application/json",
}


def _snap(new: bool) -> Snapshot:
    tool = dict(TOOL, title="Read Graph") if new else TOOL
    srv = ServerSnapshot(
        name="memory",
        tools=[ToolDef.from_wire(tool, source="t")],
        surfaces={"resource": [RESOURCE] if new else []},
    )
    return Snapshot({"memory": srv})


async def test_the_size_column_fits_a_lone_resource() -> None:
    from mcp_review.tui.screens.groups import GroupsScreen

    app = ReviewApp(ReviewSource.baseline(SnapshotFetcher(_snap(True)), _snap(False)))
    async with app.run_test(size=(140, 30)) as pilot:
        await settled(app, pilot)
        await press(pilot, "G")
        screen: Any = app.screen
        assert isinstance(screen, GroupsScreen)
        table = screen.query_one("#groups")
        sizes = [table.get_row_at(i)[1].plain for i in range(table.row_count)]
        assert "1 resource" in sizes, sizes
        width = next(c.width for c in table.columns if c.key == "size")
        assert width >= max(cell_len(s) for s in sizes), (width, sizes)
