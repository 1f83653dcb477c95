"""The cycle collector paused while the proxy holds a large parsed line.

A MiB of JSON records parses into ~12,000 dicts and lists. Each 700 of them start a young
collection, which finds all of them alive (the proxy still holds the line's value) and moves
them on; every tenth moves them into the old generation, whose full collection then walks
them again beside the proxy's own heap. Measured in the record-only proxy over 20 pipelined
MiB records calls: ~5.7 ms of collector CPU a call (3 full collections of ~19 ms), a third of
the proxy's CPU, to find nothing (under ``--enforce`` ~14-17 ms of ~71-79): the value is
acyclic and freed by its reference counts as soon as the batch is forwarded and handed on
(benchmarks/README.md, the seventh pass on 1 MiB calls, "the cycle collector paused").

While paused, nothing is lost: CPython counts container allocations less deallocations, so
once the line's value is freed the count is back near where it was, and any cycle made
meanwhile (by the proxy's other tasks too) is collected at the first collection after the
pause. Pauses nest (two relays of one process, each in a batch): the collector is enabled
again when the last ends, and only if it was enabled when the first began (``gc.disable()``
by someone else is kept). A pause lasts one batch of client lines holding a line of 64 KiB or
more, and at most ``PAUSE_LIMIT`` seconds (a batch can wait on a server's stdin); in the
recorder process, one frame.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from contextlib import contextmanager

PAUSE_LIMIT = 2.0
"""Seconds an awaiting pause lasts at most: a batch can wait on a server that stops reading
its stdin, and the collector must not stay off while the proxy's other tasks run on."""

_depth = 0
_was_enabled = False


@contextmanager
def collector_paused(when: bool = True, limit: float | None = None) -> Iterator[None]:
    """Within the block the cyclic collector does not run (if ``when``); see the module. With
    ``limit`` (in an event loop), the collector runs again after that many seconds anyway."""
    global _depth, _was_enabled
    if not when:
        yield
        return
    if _depth == 0:
        _was_enabled = gc.isenabled()
        gc.disable()
    _depth += 1
    timer = asyncio.get_running_loop().call_later(limit, _release) if limit is not None else None
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
        _depth -= 1
        if _depth == 0 and _was_enabled:
            gc.enable()


def _release() -> None:
    """End the pause early (its time limit): the blocks still in it run with the collector."""
    global _was_enabled
    if _depth and _was_enabled:
        gc.enable()
        _was_enabled = False
