"""Helpers shared by the test files (one copy each, instead of one per file).

- the app's test helpers: wait for a condition, for the first fetch, for the status computed;
  select a tool's row;
- tool builders: a ``ToolDef`` from a schema, a listed tool with one integer argument;
- the command line run in this process (``run_cli``), where the process boundary is not what
  a test is about;
- a stdio server's command through the warm zygote (``stdio_server_argv``): a real process on
  real pipes without its 1-2 s of ``import mcp``.

Waits poll a condition with a short pause; they give up only after many pauses (each pause is
at least its delay, longer on a loaded machine), because a test that waits is not a timing test:
a slow machine must not fail it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
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


def _busy(app: Any) -> bool:
    """Work the app has queued or under way: a worker (a thread's too) not finished, a
    message not yet handled by the app or a screen, a callback waiting for the repaint."""
    from textual.worker import WorkerState

    if any(w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in app.workers):
        return True
    if any(not p._message_queue.empty() for p in (app, *app.screen_stack)):
        return True
    return bool(app.screen._callbacks)


async def settle(pilot: Any, *, repaint: bool = True) -> None:
    """Until the app has handled every key and message sent so far and everything they
    started (screens pushed or popped, workers, callbacks after the repaint), then (as
    ``pilot.pause`` does) lay out and paint the screen now: what a fixed
    ``pilot.pause(0.05)`` hoped for, returning as soon as it holds. Twice in a row quiet,
    with the same screens, so a screen just pushed has its own messages handled."""
    app = pilot.app
    quiet = 0
    deadline = time.monotonic() + STEP * TRIES  # a worker may run long on a loaded machine
    while time.monotonic() < deadline:
        for _ in range(3):  # a delivery in flight (the driver's send_message) reaches a queue
            await asyncio.sleep(0)
        stack = list(app.screen_stack)
        await pilot._wait_for_screen()
        await app._animator.wait_until_complete()
        if not _busy(app) and stack == app.screen_stack:
            quiet += 1
            if quiet == 2:
                if repaint:
                    app.screen._on_timer_update()
                return
        else:
            quiet = 0
            await asyncio.sleep(STEP / 4)
    raise AssertionError("the app never settled")


def key_event(app: Any, key: str) -> Any:
    """The ``events.Key`` that ``pilot.press(key)`` hands the driver for ``key`` (a
    character or a key name such as ``"escape"``), sent by ``app``."""
    import unicodedata

    from textual import events
    from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    original = REPLACED_KEYS.get(key, key)
    char: str | None
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    return event


async def press(pilot: Any, *keys: str) -> None:
    """``pilot.press(*keys)``, each key waited for with :func:`settle` instead of Textual's
    ``wait_for_idle`` (at least 40 ms a key, however little the key does): the same key
    events (:func:`key_event`), through the same driver, each one handled with all it
    started before the next."""
    app = pilot.app
    driver = app._driver
    assert driver is not None
    for key in keys:
        driver.send_message(key_event(app, key))
        await settle(pilot, repaint=False)  # as Pilot.press: the app paints when it would


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


def published_tool(path: str, name: str) -> dict[str, Any]:
    """The tool ``name`` of a published server's file under ``benchmarks/eval/`` (``path``,
    e.g. ``honest_dev7/npm_digitalocean_mcp.json``), as the server listed it."""
    doc = json.loads(
        (Path(__file__).resolve().parents[1] / "benchmarks/eval" / path).read_text("utf-8")
    )
    return next(t for t in doc["tools"] if t["name"] == name)  # type: ignore[no-any-return]


# --- the command line, in this process ---------------------------------------------------------


def run_cli(
    args: Sequence[str],
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m mcp_review ARGS`` (as ``subprocess.run(..., capture_output=True,
    text=True)`` would answer it) run in this process through ``cli.main``: no interpreter
    start-up and no second ``import mcp`` (1-2 s of CPU each). For tests where the process
    boundary is not what is tested; the exit status, the guarded stdout and stderr, the
    working directory, the environment (``env`` replaces it, as for a subprocess, and is
    inherited by the servers the command starts) and a non-terminal stdin holding ``input``
    are the command's, and are restored afterwards."""
    from mcp_review.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd, saved_in = dict(os.environ), os.getcwd(), sys.stdin
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = io.StringIO(input or "")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse's usage errors, --help, --version
                if isinstance(e.code, str):
                    print(e.code, file=sys.stderr)
                code = e.code if isinstance(e.code, int) else int(e.code is not None)
    finally:
        sys.stdin = saved_in
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["mcp-review", *args], code, out.getvalue(), err.getvalue())


# --- stdio servers, warm ------------------------------------------------------------------------

ZYGOTE = Path(__file__).resolve().parent / "servers" / "zygote.py"
_zygote: tuple[subprocess.Popen[bytes], str] | None = None


def stdio_server_argv(script: str | os.PathLike[str], *args: str) -> list[str]:
    """The command line (``[python, ...]``) of a stdio server that runs ``python SCRIPT ARGS``
    forked from a zygote that has the mcp SDK imported (tests/servers/zygote.py): the same
    script, a separate process on the pipes the client made, its environment, working
    directory and exit status, at a fraction of the start-up. For servers whose process
    start-up is not what the test is about."""
    return [sys.executable, str(ZYGOTE), "--launch", _zygote_socket(), str(script), *args]


def stdio_server(script: str | os.PathLike[str], *args: str) -> dict[str, Any]:
    """``{"command": ..., "args": [...]}`` of :func:`stdio_server_argv`, for a client config
    (``.mcp.json`` and the like) or ``ServerConfig(name, **stdio_server(...))``."""
    argv = stdio_server_argv(script, *args)
    return {"command": argv[0], "args": argv[1:]}


def _zygote_socket() -> str:
    global _zygote
    if _zygote is None or _zygote[0].poll() is not None:
        d = tempfile.mkdtemp(prefix="mcpz-")  # short: a Unix socket path has ~100 bytes
        path = os.path.join(d, "s")
        p = subprocess.Popen(
            [sys.executable, str(ZYGOTE), path, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        atexit.register(_stop_zygote, p, d)
        _zygote = (p, path)
    return _zygote[1]


def _stop_zygote(p: subprocess.Popen[bytes], d: str) -> None:
    p.kill()
    p.wait()
    shutil.rmtree(d, ignore_errors=True)


def with_fixture_ui(tool: ToolDef, path: Path) -> ToolDef:
    """``tool`` (a rule fixture's ``old.json`` / ``new.json`` at ``path``) carrying the UI
    resources of its sidecar ``old.ui.json`` / ``new.ui.json`` (``{uri: resources/read
    result}``), as a listing reads them (issue 42 item 3); as it is without one."""
    import dataclasses
    import json

    from mcp_review.engine.ui_resource import from_read_result

    side = path.with_name(path.stem + ".ui.json")
    if not side.exists():
        return tool
    reads = json.loads(side.read_text(encoding="utf-8"))
    return dataclasses.replace(
        tool, ui=tuple(from_read_result(uri, result) for uri, result in reads.items())
    )
