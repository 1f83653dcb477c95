"""Big text in the review app: a tool whose description grew to SIZE (a README pasted into a
description; what a hostile server sends to wear the reviewer down). Measures, in the real app
(Textual headless, 120x40): time from `enter` on the tool to the first frame of the review
screen, switching to the description tab, and key-to-frame while the diff is shown (scrolling
the diff down a page, `1`/`2` tab switches). Targets: 100 KB opens <= 1 s, 1 MB <= 3 s,
keys <= 50 ms.

    python benchmarks/bench_bigtext.py [--sizes 20000,100000,1000000] [--shape readme|line]

Shapes: ``readme`` (lines of prose, ~80 characters, every 7th edited between old and new),
``line`` (the whole description on one line, one word changed every ~500 characters).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual import events

from mcp_review.engine.model import ToolDef
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.tui.app import ReviewApp
from mcp_review.tui.fetchers import SnapshotFetcher
from mcp_review.tui.source import ReviewSource

WORDS = (
    "the tool reads files from the workspace and returns their content as text when the "
    "caller asks for a path inside the allowed roots only never outside them"
).split()


def texts(size: int, shape: str, seed: int = 7) -> tuple[str, str]:
    """(old, new): old is a 1 KB description, new grew to ``size`` characters, with zero-width
    spaces and a bidi override sprinkled in (the hidden-character tokens must still show)."""
    rnd = random.Random(seed)
    old_lines = [" ".join(rnd.choice(WORDS) for _ in range(12)) for _ in range(12)]
    old = "\n".join(old_lines)
    new_lines = list(old_lines)
    n = len(old)
    while n < size:
        line = " ".join(rnd.choice(WORDS) for _ in range(13))
        if len(new_lines) % 7 == 3:
            line = line.replace(" ", " \u200b", 1)
        if len(new_lines) % 97 == 5:
            line += " \u202eevil"
        new_lines.append(line)
        n += len(line) + 1
    new = "\n".join(new_lines) if shape == "readme" else " ".join(new_lines)
    return old, new


def source(old: str, new: str) -> ReviewSource:
    def snap(desc: str) -> Snapshot:
        tool = {
            "name": "read_file",
            "description": desc,
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        }
        return Snapshot(
            servers={
                "files": ServerSnapshot(
                    name="files",
                    server_info={"name": "files", "version": "1"},
                    tools=[ToolDef.from_wire(tool)],
                )
            }
        )

    return ReviewSource.baseline(SnapshotFetcher(snap(new)), snap(old))


async def measure(size: int, shape: str) -> dict[str, float]:
    old, new = texts(size, shape)
    app = ReviewApp(source(old, new))
    out: dict[str, float] = {}
    async with app.run_test(size=(120, 40), notifications=False) as pilot:
        while not (app.main is not None and app.main.loaded):
            await asyncio.sleep(0.001)
        await pilot.pause()
        frames: list[float] = []
        display = app._display

        def timed_display(screen, renderable):
            if renderable is not None:
                frames.append(time.perf_counter())
            return display(screen, renderable)

        app._display = timed_display  # type: ignore[method-assign]

        async def key_to_frame(key: str, until=None) -> float:
            await pilot.pause()
            frames.clear()
            k0 = time.perf_counter()
            app.post_message(events.Key(key, None))
            while True:
                while not frames:
                    if time.perf_counter() - k0 > 60:
                        raise SystemExit(f"no frame 60 s after {key!r}")
                    await asyncio.sleep(0)
                if until is None or until():
                    return frames[-1] - k0
                frames.clear()
                await asyncio.sleep(0)

        from mcp_review.tui.screens.review import ReviewScreen

        await key_to_frame("n")  # the cursor onto the tool (it needs review)

        def shown() -> bool:  # the review screen, with the description diff laid out
            return (
                isinstance(app.screen, ReviewScreen)
                and app.screen.query_one("#desc-diff").body.line_count > 0
            )

        out["open"] = await key_to_frame("enter", shown)
        out["tab 2 (description)"] = await key_to_frame("2")
        lat = []
        for key in ["pagedown"] * 10 + ["down"] * 10 + ["end", "home"]:
            lat.append(await key_to_frame(key))
        out["keys median"] = statistics.median(lat)
        out["keys max"] = max(lat)
        out["tab 1 (schema)"] = await key_to_frame("1")
        out["tab 2 again"] = await key_to_frame("2")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="20000,100000,1000000")
    ap.add_argument("--shape", choices=("readme", "line"), default="readme")
    args = ap.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        r = asyncio.run(measure(size, args.shape))
        print(
            f"{args.shape} {size / 1000:,.0f} KB: "
            + ", ".join(f"{k} {v * 1000:,.0f} ms" for k, v in r.items())
        )


if __name__ == "__main__":
    main()
