"""The demo's workspace: a folder holding mcp-review.toml, mcp-pins.toml, call logs and the servers' state.

Everything the demo writes lands under ``root``::

    mcp-review.toml           the config: warehouse over stdio, devtools over Streamable HTTP
    mcp-pins.toml             the pin file: every tool as served at v1, approved
    mcp-pins.audit.jsonl      the audit log of those approvals (engine.pins writes it)
    calls/<server>.jsonl      recorded calls ({"tool": ..., "arguments": ...} per line)
    calls/devtools.jsonl.results.jsonl   a recorded result, for `mcp-review rerun devtools`
    servers.state             "v1" or "v2": what the bundled servers serve right now
    .mcp-review/logs/         the stdio server's stderr (services.fetch writes it)

Use ``with drifted(root) as (ws, urls):`` for the whole set-up (servers up, v1 fetched and
pinned, servers switched to v2), or the steps one by one::

    ws = Workspace.create(root)               # state v1, call logs copied
    ws.write_config({"devtools": url})        # the HTTP server's URL, once it listens
    ws.pin(fetch_config(ws.config()))         # approve what the servers really serve (v1)
    ws.serve("v2")                            # the upstream update
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_review.demo import definitions
from mcp_review.demo.servers import read_state, serve_http, write_state

DATA = Path(__file__).parent
APPROVER = "mcp-review demo"
NOTE = "demo baseline: approved as served at v1"
HEADER = """\
# mcp-review demo workspace: two bundled MCP servers that change under you.
# warehouse runs over stdio (this config starts it); devtools is served over Streamable HTTP
# by `mcp-review demo` while it runs (its port changes on every run).
"""


def package_root() -> str:
    """The folder holding the ``mcp_review`` package (so a stdio server finds it even when
    mcp-review runs from a source tree that is not installed)."""
    return str(DATA.parent.parent)


class Unreachable(Exception):
    """A bundled server could not be read at v1 (nothing was pinned)."""


@dataclass(slots=True)
class Workspace:
    root: Path

    @property
    def config_path(self) -> Path:
        return self.root / "mcp-review.toml"

    @property
    def pins_path(self) -> Path:
        return self.root / "mcp-pins.toml"

    @property
    def state_path(self) -> Path:
        return self.root / "servers.state"

    def calls_path(self, server: str) -> Path:
        return self.root / "calls" / f"{server}.jsonl"

    @classmethod
    def create(cls, root: str | Path) -> Workspace:
        """Lay out a new workspace in ``root`` (created if missing): servers at v1, call logs."""
        ws = cls(Path(root).resolve())
        (ws.root / "calls").mkdir(parents=True, exist_ok=True)
        write_state(ws.state_path, "v1")
        for server in definitions.SERVERS:
            shutil.copyfile(DATA / f"{server}.calls.jsonl", ws.calls_path(server))
        ws._record_read_file()
        return ws

    def _record_read_file(self) -> None:
        """One call the proxy recorded (with its result and the digest of the definition it
        was made against) while devtools served v1: what `mcp-review rerun devtools` re-sends.
        The result is the v1 server's own answer (the same function the server runs)."""
        from mcp_review.engine.model import digest_of
        from mcp_review.store.calllog import SEAL_FIELD, dumps, seal_key, seal_of

        tool = next(t for t in definitions.tools("devtools", "v1") if t["name"] == "read_file")
        args = {"path": definitions.RERUN_PATH}
        when = "2026-11-28T09:14:03.120Z"
        call = {
            "time": when,
            "server": "devtools",
            "principal": "default",
            "tool": "read_file",
            "id": 41,
            "arguments": args,
            "digest": digest_of(tool),
        }
        result = {
            "time": "2026-11-28T09:14:03.131Z",
            "call_time": when,
            "server": "devtools",
            "principal": "default",
            "tool": "read_file",
            "id": 41,
            "result": definitions.call_result("devtools", "v1", "read_file", args),
        }
        # Sealed with this user's key, as the proxy seals what it records: the demo records
        # this call on the user's behalf (rerun re-sends only sealed records).
        try:
            key = seal_key(create=True)
        except OSError:
            key = None  # a key nobody can trust: the call stays unsealed and is not re-sent
        if key is not None:
            call[SEAL_FIELD] = seal_of(call, key)
            result[SEAL_FIELD] = seal_of(result, key)
        path = self.calls_path("devtools")
        with open(path, "ab") as f:
            f.write(dumps(call) + b"\n")
        with open(str(path) + ".results.jsonl", "ab") as f:
            f.write(dumps(result) + b"\n")

    @property
    def version(self) -> str:
        return read_state(self.state_path)

    def serve(self, version: str) -> None:
        """Make every bundled server serve ``version`` from its next ``tools/list`` on."""
        write_state(self.state_path, version)

    def config_dict(self, urls: dict[str, str]) -> dict[str, Any]:
        """The config as TOML data: stdio servers run this interpreter, HTTP ones use ``urls``."""
        servers: dict[str, Any] = {}
        for name in definitions.SERVERS:
            entry: dict[str, Any]
            if definitions.TRANSPORTS[name] == "stdio":
                entry = {
                    "command": sys.executable,
                    "args": [
                        "-m",
                        "mcp_review.demo.servers",
                        "stdio",
                        "--server",
                        name,
                        "--state",
                        str(self.state_path),
                    ],
                    # A stdio server inherits only a small allowlist of variables (PATH, HOME…).
                    "env": {"PYTHONPATH": package_root()},
                    "cwd": str(self.root),
                }
            else:
                entry = {"url": urls[name]}
            entry["calls"] = os.path.relpath(self.calls_path(name), self.root)
            entry["record_results"] = True
            entry["timeout"] = 30
            servers[name] = entry
        return {"servers": servers}

    def write_config(self, urls: dict[str, str]) -> Path:
        import tomli_w

        text = HEADER + "\n" + tomli_w.dumps(self.config_dict(urls))
        self.config_path.write_text(text, encoding="utf-8")
        return self.config_path

    def config(self) -> Any:
        """The workspace config, loaded the way every command loads one."""
        from mcp_review.services.config import load_config

        return load_config(self.config_path)

    def pin(self, snapshot: Any, *, by: str = APPROVER, note: str = NOTE) -> int:
        """Approve every tool ``snapshot`` holds (the live v1 fetch) in the pin file, through
        ``engine.pins`` as `mcp-review pin` does. Returns the number of pins written."""
        from mcp_review.engine.pins import Decision, make_pin
        from mcp_review.store.pinfile import load_pins, save_pins

        bad = {n: s.error for n, s in snapshot.servers.items() if s.error}
        if bad:
            raise Unreachable(
                "; ".join(f"{n}: {e.get('kind')}: {e.get('message')}" for n, e in bad.items())
            )
        pins = load_pins(str(self.pins_path))
        n = 0
        for name, s in snapshot.servers.items():
            for tool in s.tools:
                pins.decide(
                    make_pin(
                        name,
                        tool,
                        Decision.APPROVED,
                        principal=s.principal,
                        by=by,
                        note=note,
                        server_version=s.server_version,
                        protocol_version=s.protocol_version,
                    ),
                    why=note,
                    source="demo",
                )
                n += 1
            for kind, wires in sorted(s.surfaces.items()):  # its prompts too
                from mcp_review.engine.clock import now_utc
                from mcp_review.engine.surfaces import make_surface_pin

                for w in wires:
                    pins.decide_surface(
                        make_surface_pin(
                            name, kind, w, "approved", principal=s.principal, by=by,
                            at=now_utc(), note=note, server_version=s.server_version,
                        ),
                        why=note,
                        source="demo",
                    )  # fmt: skip
        save_pins(pins, str(self.pins_path))
        return n

    def call_logs(self) -> dict[str, Any]:
        from mcp_review.store.readers import load_call_log

        return {name: load_call_log(str(self.calls_path(name))) for name in definitions.SERVERS}


@contextmanager
def drifted(
    root: str | Path,
    *,
    say: Callable[[str], None] | None = None,
) -> Iterator[tuple[Workspace, dict[str, str]]]:
    """A workspace in ``root`` whose pin file approved v1 as fetched live, with the servers
    now serving v2. Yields (workspace, {server: url}); the HTTP server stops when the block ends.
    A bundled server that cannot be read at v1 raises :class:`Unreachable`."""
    from mcp_review.services.fetch import fetch_config

    t0 = time.monotonic()
    ws = Workspace.create(root)
    with serve_http("devtools", ws.state_path) as url:
        urls = {"devtools": url}
        ws.write_config(urls)
        if say is not None:
            say(
                f"servers serving v1: warehouse (stdio), devtools (HTTP {url}); fetching and "
                "pinning…"
            )
        n = ws.pin(fetch_config(ws.config()))
        ws.serve("v2")
        if say is not None:
            say(
                f"pinned {n} tools at v1 in {ws.pins_path.name}; the servers now serve v2 "
                f"({time.monotonic() - t0:.1f} s)"
            )
        yield ws, urls
