"""Append-only JSONL call log with size-based rotation and recursive redaction of secret keys."""

from __future__ import annotations

import fcntl
import json
import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

try:  # orjson serialises a 10 MB argument object ~10x faster; json is the exact fallback.
    import orjson as _orjson
except ImportError:  # pragma: no cover - orjson ships with every supported setup
    _orjson = None

REDACTED = "[REDACTED]"

DEFAULT_REDACT: tuple[str, ...] = (
    # Token counts (max_tokens, num_tokens, token_limit...) are ordinary LLM parameters, not
    # secrets: redacting them would make every replayed call look like a bad recording.
    r"(?<!max)(?<!min)(?<!num)(?<!total)tokens?(?!count|limit|budget|s?used)",
    r"passw(or)?d",
    r"passphrase",
    r"secret",
    r"api_?key",
    r"access_?key",
    r"private_?key",
    r"authorization",
    r"credential",
    r"cookie",
    r"bearer",
)
"""Default key patterns: regexes searched (case-insensitively) in the key with every character
that is not a letter or digit removed, so ``api_?key`` matches ``apiKey``, ``API-Key`` and
``x_api_key``, and ``max_tokens`` reads as ``maxtokens``."""

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_BACKUPS = 3

_SEP = re.compile(r"[^A-Za-z0-9]+")


def _fold(key: str) -> str:
    return _SEP.sub("", key).lower()


class Redactor:
    """Replaces the values of secret-looking keys, at any depth, keeping the value's JSON type.

    The type is kept (strings become ``"[REDACTED]"``, numbers 0, every leaf of an object or
    array redacted) so a redacted call still has the shape replay validates; a ``pattern`` or
    ``minLength`` on the secret itself may then flag it as a bad recording, which is honest.
    """

    def __init__(self, patterns: Iterable[str] = DEFAULT_REDACT):
        pats = [p for p in patterns if p]
        self._re = re.compile("|".join(f"(?:{p})" for p in pats), re.I) if pats else None

    def secret_key(self, key: str) -> bool:
        return self._re is not None and self._re.search(_fold(key)) is not None

    def __call__(self, value: Any) -> Any:
        if self._re is None:
            return value
        return self._walk(value, False)

    def _walk(self, v: Any, hide: bool) -> Any:
        if isinstance(v, dict):
            return {k: self._walk(x, hide or (isinstance(k, str) and self.secret_key(k)))
                    for k, x in v.items()}
        if isinstance(v, list):
            return [self._walk(x, hide) for x in v]
        if not hide or v is None or isinstance(v, bool):
            return v
        if isinstance(v, str):
            return REDACTED
        return 0  # int or float


def dumps(value: Any) -> bytes:
    """One JSON line (no trailing newline), UTF-8, compact.

    U+2028/U+2029 are escaped: valid raw in JSON, but ``str.splitlines`` (and JavaScript
    line readers) break a line there. Their UTF-8 bytes can only occur inside a string, where
    the escape means the same character.
    """
    out = None
    if _orjson is not None:
        try:
            out = _orjson.dumps(value)
        except TypeError:  # integers beyond 64 bits: the stdlib keeps them exact
            pass
    if out is None:
        out = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    if b"\xe2\x80" in out:
        out = out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return out


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class CallLog:
    """The call log of one server: ``{"time","server","principal","tool","id","arguments"}`` lines.

    Those keys are exactly the ones ``core.replay.load_calls`` accepts as a server-log record.
    Results (``--record-results``) therefore go to a sidecar, ``<path>.results.jsonl``, matched
    by ``time`` + ``id``: a ``result`` key in the call log would make the loader misread every
    line as a bare argument object.

    Each record is one ``write`` to an ``O_APPEND`` file, so two proxies for the same server
    (two clients) never interleave lines. When a write would take the file past ``max_bytes``
    it is renamed to ``.1`` (``.1`` to ``.2``, ... up to ``backups``) first, under an exclusive
    ``flock`` on ``<path>.lock``; a proxy that finds another already rotated just reopens. (A
    proxy still holding the old file may add lines to ``.1`` until it notices, so ``.1`` can
    reach about twice ``max_bytes`` with several writers.)
    """

    def __init__(self, path: str, *, server: str, principal: str = "default",
                 redact: Iterable[str] = DEFAULT_REDACT, max_bytes: int = DEFAULT_MAX_BYTES,
                 backups: int = DEFAULT_BACKUPS, record_results: bool = False):
        self.path = os.path.abspath(path)
        self.results_path = self.path + ".results.jsonl" if record_results else None
        self.server = server
        self.principal = principal
        self.redactor = Redactor(redact)
        self.max_bytes = max_bytes
        self.backups = backups
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._lock_fd = os.open(self.path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
        self._fds: dict[str, int] = {}

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
        if self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = -1

    def record_call(self, tool: str, arguments: Any, rpc_id: Any = None,
                    time: str | None = None) -> str:
        """Append one call; returns its timestamp (the key for a later result record)."""
        t = time or now_iso()
        rec: dict[str, Any] = {"time": t, "server": self.server, "principal": self.principal,
                               "tool": tool}
        if rpc_id is not None:
            rec["id"] = rpc_id
        # MCP makes arguments optional; the loader needs the key, and absent means {}.
        rec["arguments"] = self.redactor({} if arguments is None else arguments)
        self._append(self.path, dumps(rec) + b"\n")
        return t

    def record_result(self, tool: str, rpc_id: Any, call_time: str, response: dict) -> None:
        if self.results_path is None:
            return
        rec: dict[str, Any] = {"time": now_iso(), "call_time": call_time, "server": self.server,
                               "principal": self.principal, "tool": tool, "id": rpc_id}
        if "error" in response:
            rec["error"] = response["error"]
        else:
            # Results can echo secrets back (a "whoami" returning the token): same redaction.
            rec["result"] = self.redactor(response.get("result"))
        self._append(self.results_path, dumps(rec) + b"\n")

    def _append(self, path: str, line: bytes) -> None:
        fd = self._fds.get(path)
        if fd is None:
            fd = self._fds[path] = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        # The hot path is fstat + write: one O_APPEND write() is one whole line even with
        # another proxy appending to the same file. The lock is taken only to rotate.
        size = os.fstat(fd).st_size
        if size and size + len(line) > self.max_bytes:
            fd = self._rotate_locked(path, fd)
        view = memoryview(line)
        while view:  # a short write on a full disk must not leave half a line
            view = view[os.write(fd, view):]

    def _rotate_locked(self, path: str, fd: int) -> int:
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            # Another proxy rotated first: our fd points at the old file, so only reopen.
            if same:
                self._rotate(path)
            os.close(fd)
            fd = self._fds[path] = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            return fd
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _rotate(self, path: str) -> None:
        if self.backups <= 0:
            os.truncate(path, 0)
            return
        for i in range(self.backups - 1, 0, -1):
            src = f"{path}.{i}"
            if os.path.exists(src):
                os.replace(src, f"{path}.{i + 1}")
        os.replace(path, f"{path}.1")


def log_files(path: str, backups: int = DEFAULT_BACKUPS) -> list[str]:
    """The current log and its rotated backups that exist, oldest first (for replay)."""
    out = [f"{path}.{i}" for i in range(backups, 0, -1) if os.path.exists(f"{path}.{i}")]
    if os.path.exists(path):
        out.append(path)
    return out
