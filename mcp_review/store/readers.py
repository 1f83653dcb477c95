"""Reading the files the engine judges: JSON definitions, snapshots and call logs. The engine
parses what it is handed (``engine.canonical.loads``, ``engine.snapshot.parse_snapshot``,
``engine.calls.parse_calls``); opening files, and naming them in every error, is done here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any

from mcp_review.engine.calls import Call, LoadedCalls, parse_calls
from mcp_review.engine.canonical import loads
from mcp_review.engine.errors import InputError
from mcp_review.engine.status_calls import CallLog, call_log_of

if TYPE_CHECKING:  # a call log's readers (gate) do not import the snapshot's machinery
    from mcp_review.engine.snapshot import Snapshot


def read_bytes(path: str, *, what: str = "a JSON file") -> bytes:
    """A file's bytes; every failure is an InputError naming the file."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, not {what}", source=path) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", source=path) from None


def load_file(path: str) -> Any:
    """Read and parse a JSON file; every failure is an InputError naming the file."""
    return loads(read_bytes(path), source=path)


def load_snapshot(path: str) -> Snapshot:
    from mcp_review.engine.snapshot import parse_snapshot

    return parse_snapshot(load_file(path), source=path)


def open_log(path: str) -> IO[bytes]:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a call log", source=path) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", source=path) from None


def iter_calls(
    path: str, *, tool: str | None = None, strict: bool = True, stats: LoadedCalls | None = None
) -> Iterator[Call]:
    """The calls of a JSONL log file one at a time (``engine.calls.parse_calls``), read a
    chunk at a time: a caller that keeps only some of them holds memory for those only."""
    with open_log(path) as f:
        yield from parse_calls(f, source=path, tool=tool, strict=strict, stats=stats)


def load_calls(path: str, *, tool: str | None = None, strict: bool = True) -> LoadedCalls:
    """Read a JSONL call log (see engine/calls.py for the three accepted line forms).

    Records that name a tool are kept only if it is ``tool`` (when given); bare argument
    objects are always kept. strict: a line that is not JSON is an InputError naming the file
    and line; otherwise it is skipped and counted in ``.skipped``.
    """
    out = LoadedCalls()
    out.extend(iter_calls(path, tool=tool, strict=strict, stats=out))
    return out


def load_call_log(path: str) -> CallLog:
    """Read a server's JSONL call log (lenient: bad lines are counted, not fatal)."""
    log = call_log_of(path, lambda st: iter_calls(path, strict=False, stats=st))
    _note_unrecorded(log)
    return log


def _note_unrecorded(log: CallLog) -> None:
    """The calls a proxy forwarded but could not record in this log (its counter beside it)."""
    from mcp_review.store.calllog import read_unrecorded

    if log.path is not None:
        log.unrecorded, log.unrecorded_last = read_unrecorded(log.path)


def stream_call_log(path: str) -> CallLog:
    """A server's call log to be read while the status is computed (the headless commands):
    the file is opened now, so a missing or unreadable one is an input error here, as with
    :func:`load_call_log`, but nothing is held until ``engine.status.compute_status`` replays it in one
    pass, keeping only the calls the report lists."""
    open_log(path).close()
    log = CallLog(
        path=path,
        streamed=True,
        reader=lambda st: iter_calls(path, strict=False, stats=st),
    )
    _note_unrecorded(log)
    return log
