"""Drive `mcp-review proxy` over raw pipes from a test: send lines, read lines, watch pids.

The proxy starts warm by default (``warm=True``): forked from the test process's zygote
(tests/servers/zygote.py, which has mcp-review and the mcp SDK imported) instead of a fresh
interpreter. It is still its own process, on the pipes the test made, with its environment,
working directory, signals (SIGTERM/SIGINT/SIGHUP passed on) and exit status; only the
interpreter's start and the imports are shared. ``warm=False`` starts ``python -m mcp_review``
directly: for tests about the proxy's own process (its pid, being killed) or its start-up.
The upstream servers named by ``RAW``/``SDK`` start as named (a fresh interpreter); ``sdk_warm()``
forks the SDK server from the zygote too, for tests where its process life is not what they
check."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVERS = Path(__file__).resolve().parent
RAW = [sys.executable, str(SERVERS / "proxy_raw.py")]
SDK = [sys.executable, str(SERVERS / "proxy_server.py")]

PATIENCE = 120.0
"""Seconds a test waits for what must come (a reply, a notification, the proxy's exit) before
it fails: never waited out when the proxy works, so generous enough for a machine at load 18
(CONTRIBUTING.md, "Timeouts in tests"). A wait the test means to sit
through (nothing must come) passes its own short timeout."""


def sdk_warm() -> list[str]:
    """``SDK`` forked from the zygote: the same script on the pipes the proxy made, without a
    fresh interpreter's ``import mcp`` (1-1.5 s of CPU)."""
    from helpers import stdio_server_argv

    return stdio_server_argv(SERVERS / "proxy_server.py")


def mcp_review_argv(*args: str, warm: bool = True) -> list[str]:
    """``python -m mcp_review ARGS``, through the zygote's launcher when ``warm``."""
    if not warm:
        return [sys.executable, "-m", "mcp_review", *args]
    from helpers import stdio_server_argv

    return stdio_server_argv("-m", "mcp_review", *args)


def proxy_argv(
    tmp: Path,
    *extra: str,
    server: list[str] | None = RAW,
    logs: bool = True,
    warm: bool = False,
) -> list[str]:
    """``server=None``: no ``-- CMD`` (a configured NAME in ``extra``). ``logs=False``: no
    --log/--server-log, so the config's or the default paths are used. ``warm``: see above."""
    argv = mcp_review_argv("proxy", warm=warm)
    if logs:
        argv += ["--log", str(tmp / "calls.jsonl"), "--server-log", str(tmp / "server.log")]
    return argv + list(extra) + (["--", *server] if server is not None else [])


def sdk_proxy_params(
    tmp: Path,
    *extra: str,
    server: list[str] | None = None,
    env: dict[str, str] | None = None,
    wrap: tuple[str, ...] = (),
) -> Any:
    """``StdioServerParameters`` for a real SDK client talking to ``mcp-review proxy EXTRA --
    SERVER`` (a fresh interpreter: the proxy's own start-up is what these tests run), its logs
    in ``tmp``. ``server`` defaults to the SDK test server forked warm (:func:`sdk_warm`);
    ``wrap`` is a command the proxy's argv is appended to (``/bin/sh -c '"$@" | tee F' sh``)."""
    from mcp import StdioServerParameters

    argv = proxy_argv(tmp, *extra, server=server if server is not None else sdk_warm())
    if wrap:
        argv = [*wrap, *argv]
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(ROOT))


class RawClient:
    """The proxy as a subprocess with pipes; a thread collects its stdout lines."""

    def __init__(
        self,
        tmp: Path,
        *extra: str,
        env: dict[str, str] | None = None,
        server: list[str] | None = RAW,
        logs: bool = True,
        warm: bool = True,
    ):
        self.tmp = tmp
        self.stderr_path = tmp / "proxy.log"
        self.proc = subprocess.Popen(
            proxy_argv(tmp, *extra, server=server, logs=logs, warm=warm),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(self.stderr_path, "ab"),
            env={**os.environ, **(env or {})},
            cwd=ROOT,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.all: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self._next = 0
        self.notifications: list[Any] = []

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.all.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj: Any) -> bytes:
        line = json.dumps(obj).encode() + b"\n"
        self.send_raw(line)
        return line

    def recv_line(self, timeout: float = PATIENCE) -> bytes | None:
        return self.lines.get(timeout=timeout)

    def recv(self, timeout: float = PATIENCE) -> Any:
        line = self.recv_line(timeout)
        assert line is not None, f"proxy closed its stdout; stderr:\n{self.stderr()}"
        return json.loads(line)

    def request(self, method: str, params: dict | None = None, timeout: float = PATIENCE) -> Any:
        self._next += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        while True:
            resp = self.recv(timeout)
            if "id" in resp:
                break
            self.notifications.append(resp)  # e.g. tools/list_changed from the proxy
        assert resp.get("id") == self._next, resp
        return resp

    def wait_notification(self, method: str, timeout: float = PATIENCE) -> Any:
        deadline = time.monotonic() + timeout
        while not any(n.get("method") == method for n in self.notifications):
            left = deadline - time.monotonic()
            assert left > 0, f"no {method} within {timeout} s"
            try:
                msg = self.recv(left)
            except queue.Empty:
                continue
            assert "id" not in msg, msg
            self.notifications.append(msg)
        return next(n for n in self.notifications if n.get("method") == method)

    def initialize(self) -> Any:
        r = self.request(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return r

    def close(self, timeout: float = PATIENCE) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        return self.proc.wait(timeout)

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(PATIENCE)


def alive(pid: int) -> bool:
    """True if ``pid`` runs and is not a zombie (a zombie is dead, merely unreaped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def read_jsonl(path: Path) -> list[dict]:
    # split on \n only: str.splitlines would also split inside strings at U+2028
    return [json.loads(x) for x in path.read_text().split("\n") if x.strip()]
