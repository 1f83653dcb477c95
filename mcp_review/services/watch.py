"""Stay connected to servers and re-list tools on tools/list_changed, on ttlMs expiry, or on a timer.

``await watch_all(configs, on_update=...)`` runs until cancelled. For each server it connects,
lists every page (cache bypassed) and calls ``on_update(Update)``; then waits for a trigger:

- 2026-07-28 connections: a ``subscriptions/listen`` stream (``ToolsListChanged``);
- legacy connections: the ``notifications/tools/list_changed`` notification;
- ``ttlMs`` from the last list (when > 0): the server said the list may change after that;
- ``interval`` seconds, if given (for servers that announce nothing).

A lost connection is reported as an ``Update`` with an error and retried with backoff; one
server's trouble never stops the others.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mcp_review.engine.snapshot import ServerSnapshot
from mcp_review.services.config import DEFAULT_MAX_PAGES, DEFAULT_MAX_TOOLS, ServerConfig
from mcp_review.services.fetch import list_all_tools
from mcp_review.services.transport import (
    Probe,
    classify,
    connect,
    open_errlog,
    scrub_json,
    server_info_of,
    stderr_tail,
)

_log = logging.getLogger(__name__)


@dataclass(slots=True)
class Update:
    """A fresh list of one server (or why it could not be had)."""

    server: str
    reason: str
    """``connected`` · ``list-changed`` · ``ttl-expired`` · ``interval`` · ``disconnected``."""
    snapshot: ServerSnapshot
    at: float
    """``time.time()`` of the update."""


UpdateFn = Callable[[Update], Any]


LIST_CHANGED = frozenset(
    {
        "notifications/tools/list_changed",
        "notifications/prompts/list_changed",  # Prompts and resources re-listed too
        "notifications/resources/list_changed",
    }
)


async def watch_server(
    cfg: ServerConfig,
    on_update: UpdateFn,
    *,
    log_dir: str | os.PathLike[str] | None = None,
    interval: float | None = None,
    min_ttl: float = 1.0,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_pages: int = DEFAULT_MAX_PAGES,
    retry_initial: float = 1.0,
    retry_max: float = 60.0,
) -> None:
    """Watch one server until cancelled (see the module docstring)."""
    import anyio
    import mcp_types as t

    backoff = retry_initial
    while True:
        send, receive = anyio.create_memory_object_stream[str](16)

        async def on_message(message: Any, send: Any = send) -> None:
            if (
                isinstance(
                    message,
                    (
                        t.ToolListChangedNotification,
                        t.PromptListChangedNotification,
                        t.ResourceListChangedNotification,
                    ),
                )
                or getattr(getattr(message, "root", None), "method", None) in LIST_CHANGED
            ):
                try:
                    send.send_nowait("list-changed")
                except anyio.WouldBlock:  # a burst: one re-list covers them all
                    pass
            await anyio.lowlevel.checkpoint()

        probe = Probe()
        errlog = open_errlog(cfg, log_dir)
        try:
            # One scope around the whole connection (a scope must not close before the
            # Client's own task group): a connect deadline first, lifted once connected.
            with anyio.CancelScope(deadline=anyio.current_time() + cfg.timeout) as scope:
                async with connect(
                    cfg, errlog=errlog, message_handler=on_message, probe=probe
                ) as client:
                    scope.deadline = float("inf")
                    backoff = retry_initial
                    await _serve(
                        cfg,
                        client,
                        send,
                        receive,
                        on_update,
                        interval,
                        min_ttl,
                        max_tools,
                        max_pages,
                    )
            if scope.cancelled_caught:
                raise TimeoutError
        except Exception as e:  # cancellation propagates; everything else is reported
            kind, message = classify(e, cfg, probe)
            tail = stderr_tail(errlog, scrub=cfg.scrub)
            if tail and kind in ("exited", "timed-out", "protocol-error"):
                message += f"; stderr: {tail}"
            snap = ServerSnapshot(
                name=cfg.name,
                principal=cfg.principal,
                error={"kind": kind, "message": cfg.scrub(message)},
            )
            await _emit(on_update, Update(cfg.name, "disconnected", snap, time.time()))
        finally:
            if errlog is not None:
                errlog.close()
        await anyio.sleep(backoff)
        backoff = min(retry_max, backoff * 2)


def _next_wait(
    ttl_ms: int | None, interval: float | None, min_ttl: float
) -> tuple[float, str] | None:
    choices = []
    if ttl_ms:
        # ttlMs 0 means "do not cache", not "poll continuously": only a positive ttl re-checks.
        choices.append((max(min_ttl, ttl_ms / 1000), "ttl-expired"))
    if interval:
        choices.append((interval, "interval"))
    return min(choices) if choices else None


async def _serve(
    cfg: ServerConfig,
    client: Any,
    send: Any,
    receive: Any,
    on_update: UpdateFn,
    interval: float | None,
    min_ttl: float,
    max_tools: int,
    max_pages: int,
) -> None:
    import anyio
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    reason = "connected"
    async with anyio.create_task_group() as tg:
        if client.protocol_version in MODERN_PROTOCOL_VERSIONS:
            tg.start_soon(_listen, client, send)
        while True:
            with anyio.fail_after(cfg.timeout):
                listing = await list_all_tools(client, max_tools=max_tools, max_pages=max_pages)
            snap = ServerSnapshot(
                name=cfg.name,
                principal=cfg.principal,
                tools=listing.tools,
                server_info=server_info_of(client, cfg),
                protocol_version=scrub_json(client.protocol_version, cfg.scrub),
                ttl_ms=listing.ttl_ms,
                cache_scope=listing.cache_scope,
            )
            with anyio.fail_after(cfg.timeout):
                await _surfaces(client, snap, cfg)
            await _emit(on_update, Update(cfg.name, reason, snap, time.time()))
            wait = _next_wait(listing.ttl_ms, interval, min_ttl)
            with anyio.move_on_after(wait[0] if wait else float("inf")) as waited:
                reason = await receive.receive()
                # Drain a burst of notifications into one re-list.
                while True:
                    try:
                        receive.receive_nowait()
                    except anyio.WouldBlock:
                        break
            if waited.cancelled_caught and wait:
                reason = wait[1]


async def _surfaces(client: Any, snap: ServerSnapshot, cfg: ServerConfig) -> None:
    """Prompts, resources and templates of the watched server, as ``fetch`` lists
    them; a list that fails is a note, the tools stand."""
    from mcp_review.services.surfaces_fetch import list_surfaces

    try:
        got = await list_surfaces(client)
    except Exception as e:  # cancellation propagates
        snap.notes.append(cfg.scrub(f"prompts and resources not read ({type(e).__name__}: {e})"))
        return
    snap.surfaces, snap.surfaces_listed = got.surfaces, got.listed
    for kind, why in sorted(got.failed.items()):
        snap.notes.append(cfg.scrub(f"{kind}s not read ({why})"))


async def _listen(client: Any, send: Any) -> None:
    from mcp.client.subscriptions import ListenNotSupportedError

    try:
        async with client.listen(
            tools_list_changed=True, prompts_list_changed=True, resources_list_changed=True
        ) as sub:
            async for _ev in sub:
                try:
                    send.send_nowait("list-changed")
                except Exception:
                    pass
    except ListenNotSupportedError:
        return
    except Exception as e:
        # A server that does not serve listen streams still gets ttl/interval re-checks.
        _log.debug("listen stream ended: %r", e)


async def _emit(on_update: UpdateFn, u: Update) -> None:
    try:
        r = on_update(u)
        if hasattr(r, "__await__"):
            await r
    except Exception:
        _log.exception("on_update failed")


async def watch_all(
    configs: Sequence[ServerConfig],
    on_update: UpdateFn,
    *,
    log_dir: str | os.PathLike[str] | None = None,
    interval: float | None = None,
    min_ttl: float = 1.0,
    max_tools: int = DEFAULT_MAX_TOOLS,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> None:
    """Watch every server at once until cancelled."""
    import anyio

    async with anyio.create_task_group() as tg:
        for cfg in configs:
            tg.start_soon(
                functools.partial(
                    watch_server,
                    cfg,
                    on_update,
                    log_dir=log_dir,
                    interval=interval,
                    min_ttl=min_ttl,
                    max_tools=max_tools,
                    max_pages=max_pages,
                )
            )
