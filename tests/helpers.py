"""Helpers shared by the test files (one copy each, instead of one per file).

- the app's test helpers: wait for a condition, for the first fetch, for the status computed;
  select a tool's row;
- tool builders: a ``ToolDef`` from a schema, a listed tool with one integer argument.

Waits poll a condition with a short pause; they give up only after many pauses (each pause is
at least its delay, longer on a loaded machine), because a test that waits is not a timing test:
a slow machine must not fail it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_review.engine.model import ToolDef

# --- the review app (Textual's Pilot) ----------------------------------------------------------

STEP = 0.02
"""Seconds each poll pauses (the app runs between polls)."""
TRIES = 1500
"""Polls before a wait gives up: at least 30 s."""


async def until(pilot: Any, cond: Callable[[], object], what: str) -> None:
    """Pause until ``cond()`` is true; fail naming ``what`` if it never is."""
    for _ in range(TRIES):
        await pilot.pause(STEP)
        if cond():
            return
    raise AssertionError(f"never happened: {what}")


async def ready(app: Any, pilot: Any) -> None:
    """Until the main screen has its first fetch (the fetch worker runs on the app loop)."""
    for _ in range(TRIES):
        await pilot.pause(STEP)
        if app.main is not None and app.main.loaded:
            return
    raise AssertionError("fetch never finished")


async def settled(app: Any, pilot: Any) -> None:
    """Until the main screen has its first fetch and no status computation is under way."""
    for _ in range(TRIES):
        await pilot.pause(STEP)
        if app.main is not None and app.main.loaded and not app.main.computing:
            return
    raise AssertionError("never loaded")


async def select(app: Any, pilot: Any, name: str) -> None:
    """Move the list's cursor to the row of the tool ``name``."""
    from mcp_review.tui.screens.main import ToolTable

    table = app.main.query_one("#tools", ToolTable)
    for row in range(table.row_count):
        table.move_cursor(row=row)
        e = app.main.current_entry()
        if e is not None and e.name == name:
            await pilot.pause()
            return
    raise AssertionError(f"no row for {name}")


# --- tools -------------------------------------------------------------------------------------


def tool_def(schema: Any, name: str = "t", **extra: Any) -> ToolDef:
    """A tool named ``name`` (``t``) taking ``schema``; ``extra``: more wire fields."""
    return ToolDef.from_wire({"name": name, "inputSchema": schema, **extra})


def int_tool(name: str, desc: str) -> dict[str, Any]:
    """A listed tool with one integer argument ``a``."""
    return {
        "name": name,
        "description": desc,
        "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}},
    }
