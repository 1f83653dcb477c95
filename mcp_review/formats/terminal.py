"""The guard on a headless command's stdout and stderr: nothing terminal-active gets through.

Every format already passes server text through ``hidden.safe_text`` (or escapes it as JSON);
this wrapper is the last line of defence for a path that forgot (an exception message, a
library's warning): ESC, C0/C1 controls, bidi and TAG characters and lone surrogates are written
as visible tokens, and a character the stream's encoding cannot hold is backslash-escaped
instead of crashing the command. Not for the app (it draws with escape sequences), nor for the
proxy's stdout (JSON-RPC, relayed byte-exact); the proxy's stderr, its diagnostics, is guarded.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from mcp_review.engine.hidden import terminal_guard


class GuardedStream:
    """A text stream whose ``write`` passes through ``terminal_guard``; the rest is delegated."""

    def __init__(self, inner: TextIO):
        self._inner = inner
        with contextlib.suppress(AttributeError, ValueError, OSError):
            inner.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]

    def write(self, s: str) -> int:
        self._inner.write(terminal_guard(s))
        return len(s)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextlib.contextmanager
def guarded_output(*, stdout: bool = True, stderr: bool = True) -> Iterator[None]:
    """Wrap ``sys.stdout`` and/or ``sys.stderr`` for the duration (restored afterwards)."""
    out, err = sys.stdout, sys.stderr
    if stdout:
        sys.stdout = GuardedStream(out)
    if stderr:
        sys.stderr = GuardedStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
