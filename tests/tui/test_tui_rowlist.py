"""The list widget on Textual's public API (issue 31 item 5, ``tui/rowlist.py``): what the app's
list relied on from DataTable, held on the widget alone: the keys, the mouse, lazy rows, and the
cursor kept in range. Its look is held by the app's snapshots (tests/tui/test_tui_snapshots.py)."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult

from mcp_review.tui.rowlist import RowList

ROWS = 200


class ListApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.built: list[str] = []
        self.selected: list[tuple[int, str | None]] = []

    def compose(self) -> ComposeResult:
        yield RowList(id="list")

    def on_mount(self) -> None:
        table = self.query_one(RowList)
        table.add_column("name", key="name", width=12)
        table.add_column("value", key="value", width=8)
        table.focus()
        table.show_rows([f"k{i}" for i in range(ROWS)], self.cells_for)

    def cells_for(self, key: str):  # type: ignore[no-untyped-def]
        def build() -> list[Text]:
            self.built.append(key)
            return [Text(f"row {key}"), Text(str(len(key)))]

        return build

    def on_row_list_row_selected(self, event: RowList.RowSelected) -> None:
        self.selected.append((event.cursor_row, event.row_key.value))


async def test_keys_move_the_cursor_and_scroll_it_into_view():
    app = ListApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(RowList)
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.press("down", "down")
        assert table.cursor_row == 2
        await pilot.press("up", "up", "up")  # clamped at the first row
        assert table.cursor_row == 0
        await pilot.press("pagedown")
        page = table.cursor_row
        assert page == table.scrollable_content_region.height - 1
        await pilot.press("pageup")
        assert table.cursor_row == 0
        for key, row in (("end", ROWS - 1), ("home", 0), ("ctrl+end", ROWS - 1), ("ctrl+home", 0)):
            await pilot.press(key)
            await pilot.pause()
            assert table.cursor_row == row, key
            visible = range(int(table.scroll_y), int(table.scroll_y) + table.size.height - 1)
            assert row in visible, key  # the cursor's row is on screen, below the header
        await pilot.press("down", "enter")
        assert app.selected == [(1, "k1")]


async def test_a_click_moves_the_cursor_and_a_click_on_the_cursor_selects():
    app = ListApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(RowList)
        await pilot.pause()
        await pilot.click(RowList, offset=(3, 4))  # line 4: the header, then rows 0, 1, 2, 3
        await pilot.pause()
        assert table.cursor_row == 3 and app.selected == []
        await pilot.click(RowList, offset=(3, 4))
        await pilot.pause()
        assert app.selected == [(3, "k3")]
        await pilot.click(RowList, offset=(3, 0))  # the header: nothing moves
        await pilot.pause()
        assert table.cursor_row == 3 and len(app.selected) == 1


async def test_rows_are_built_when_drawn_and_kept():
    app = ListApp()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(RowList)
        await pilot.pause()
        assert 0 < len(app.built) < 20  # the rows on screen, not 200
        assert not table.is_built("k150")
        assert [c.plain for c in table.get_row("k150")] == ["row k150", "4"]
        assert table.is_built("k150")
        built = len(app.built)
        # Shown again in another order: the kept cells are reused, nothing is rebuilt.
        table.show_rows([f"k{i}" for i in reversed(range(ROWS))], app.cells_for)
        await pilot.pause()
        assert table.get_row_at(ROWS - 1 - 150)[0].plain == "row k150"
        assert table.get_row_index("k150") == ROWS - 1 - 150
        assert (
            len(app.built)
            == built
            + len(  # only rows never drawn before are built
                [k for k in app.built[built:] if k not in app.built[:built]]
            )
        )
        assert table.cursor_row == 0 and table.scroll_y == 0
        table.forget_rows(["k199"])
        assert not table.is_built("k199")
        with pytest.raises(ValueError):
            table.show_rows(["a", "a"], app.cells_for)
        table.show_rows([], app.cells_for)
        await pilot.press("down", "enter")
        assert table.cursor_row == 0 and table.row_count == 0 and app.selected == []
