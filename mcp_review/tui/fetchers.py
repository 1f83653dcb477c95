"""Where the app's current tool lists come from: a snapshot, or live servers through services.

Fetchers are a small protocol, so the same screens run on a snapshot file, in-process test
servers, or live servers (``services.fetch``), each reporting per-server progress.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from mcp_review.engine.snapshot import Snapshot
from mcp_review.tui.view import Connection

if TYPE_CHECKING:
    from mcp_review.services.config import Config
    from mcp_review.services.fetch import Progress as FetchProgress

ProgressFn = Callable[[str, Connection, str], None]
"""``(server, state, detail)``."""


class Fetcher(Protocol):
    """Where current tool lists come from."""

    names: list[str]

    def fetch(self, progress: ProgressFn) -> Awaitable[Snapshot]: ...


class SnapshotFetcher:
    """A fixed snapshot (a file saved by `mcp-review snapshot`, or built by a test)."""

    def __init__(self, snapshot: Snapshot, *, delay: float = 0.0) -> None:
        self.snapshot = snapshot
        self.names = sorted(snapshot.servers)
        self.delay = delay

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        import asyncio

        for name in self.names:
            progress(name, Connection.CONNECTING, "")
            if self.delay:
                await asyncio.sleep(self.delay)
            s = self.snapshot.servers[name]
            if s.error:
                progress(name, Connection.FAILED, str(s.error.get("message", s.error)))
            else:
                progress(name, Connection.OK, f"{len(s.tools)} tools")
        return self.snapshot


_STATES = {
    "queued": Connection.WAITING,
    "connecting": Connection.CONNECTING,
    "listing": Connection.CONNECTING,
    "done": Connection.OK,
    "failed": Connection.FAILED,
}
"""services.fetch's progress states (``Progress.state``) as the app shows them."""


class LiveFetcher:
    """Live servers from a config, fetched concurrently through ``services.fetch``."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.names = [c.name for c in config.servers]

    async def fetch(self, progress: ProgressFn) -> Snapshot:
        from pathlib import Path

        from mcp_review.services.fetch import fetch_all

        def on_progress(p: FetchProgress) -> None:
            detail = p.detail
            if p.state == "listing":
                detail = f"listing… {p.tools} tools" if p.tools else "listing…"
            elif p.state == "failed" and p.snapshot is not None and p.snapshot.error:
                detail = str(p.snapshot.error.get("message") or p.snapshot.error.get("kind"))
            progress(p.server, _STATES[p.state], detail)

        cfg = self.config
        log_dir = Path(cfg.state_dir) / "logs" if cfg.state_dir else None
        return await fetch_all(
            cfg.servers,
            concurrency=cfg.concurrency,
            log_dir=log_dir,
            max_tools=cfg.max_tools,
            max_pages=cfg.max_pages,
            on_progress=on_progress,
        )
