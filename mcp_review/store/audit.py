"""Append-only JSONL audit log of every decision, auto-approval and policy change.

One JSON object per line, beside the pin file (``mcp-pins.toml`` → ``mcp-pins.audit.jsonl``)::

    {"ts": "2026-11-29T22:00:00Z", "who": "alice", "event": "decision",
     "server": "github", "principal": "default", "tool": "create_issue",
     "decision": "approved", "old_decision": "approved",
     "old_digest": "sha256:…", "new_digest": "sha256:…", "decided_at": "2026-11-29T22:00:00Z",
     "why": "reviewed the new description", "source": "approve"}

``ts`` is when the record is written (read with the pin file's lock held, so the log is in time
order); ``decided_at`` (decision records) is the decision's own time, earlier than ``ts`` when a
decision made before is written again (an undo, ``pin`` after a ``--candidate`` approval).

``event`` is ``decision`` (``decision`` = approved/denied), ``forget`` (a pin dropped) or
``policy`` (``policy`` / ``old_policy`` = the tier; ``tool`` null for a server-wide tier).
``source`` names what made the decision (``approve``, ``deny``, ``pin``, ``policy tiered`` …).
Auto-approvals have ``who`` = ``"mcp-review (policy <tier>)"``. Nothing from the server config
(env values, headers, commands) is ever written here. Lines are only ever appended, each with
one ``write`` on an ``O_APPEND`` descriptor and fsynced; a reader skips a torn last line.

A torn last line (a writer killed mid-append, a full disk) never swallows the next record: an
append to a file that does not end with a newline starts with one. The log is never written
through a symbolic link (``O_NOFOLLOW``) nor to anything but a regular file, so a planted
``mcp-pins.audit.jsonl -> ~/.bashrc`` cannot make a decision append text to another file. A
failed write is an InputError (exit 2) naming the log, never a traceback.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any

from mcp_review.engine.errors import InputError


def audit_path_for(pin_path: str) -> str:
    """``mcp-pins.toml`` → ``mcp-pins.audit.jsonl`` (same folder)."""
    root, ext = os.path.splitext(pin_path)
    return (root if ext == ".toml" else pin_path) + ".audit.jsonl"


def append(path: str, records: list[dict[str, Any]]) -> None:
    """Append records durably. One write call: concurrent appenders never interleave a line."""
    if not records:
        return
    data = "".join(json.dumps(r, ensure_ascii=True) + "\n" for r in records).encode("ascii")
    try:
        # O_NONBLOCK: a FIFO planted as the log must not hang the command (it is refused below).
        fd = os.open(
            path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644
        )
    except OSError as e:
        if os.path.islink(path):
            raise InputError(
                "the audit log is a symbolic link; refusing to write through it (remove the link)",
                source=path,
            ) from None
        raise InputError(f"cannot open the audit log: {e.strerror}", source=path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(
                "the audit log is not a regular file; refusing to write to it", source=path
            )
        # Callers hold the pin file's lock, so no other appender runs between this read of the
        # last byte and the write.
        if st.st_size and os.pread(fd, 1, st.st_size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    except OSError as e:
        raise InputError(
            f"cannot write the audit log ({e.strerror or e}); the pin file was not changed",
            source=path,
        ) from None
    finally:
        os.close(fd)


def read(path: str) -> list[dict[str, Any]]:
    """All records of an audit log; lines that do not parse (a torn tail) are skipped."""
    out = []
    try:
        with open(path, "rb") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict):
                    out.append(rec)
    except FileNotFoundError:
        return []
    return out
