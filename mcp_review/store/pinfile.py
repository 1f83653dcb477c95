"""The pin file on disk: read it (following a link only to a real pin file), and save
decisions under its lock, merged with what other writers saved meanwhile, with their
audit records appended first (see :mod:`mcp_review.engine.pins` for the format)."""

from __future__ import annotations

import contextlib
import os
import tomllib
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine import pins as model
from mcp_review.engine.errors import InputError
from mcp_review.engine.pinread import parse_pins
from mcp_review.engine.pins import (
    ANY,
    DEFAULT_PATH,
    ChangedMeanwhile,
    Conflict,
    PinFile,
    same_decision,
)
from mcp_review.store import audit
from mcp_review.store.files import atomic_write, locked, remove_stale_temps


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise InputError("is a directory, not a pin file", source=path) from None
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror}", source=path) from None


def load_pins(path: str = DEFAULT_PATH, *, allow_unverified: bool = False) -> PinFile:
    """Read a pin file; a missing file is an empty one. InputError on anything unreadable, and
    on a pin whose digest does not verify unless ``allow_unverified`` (see :func:`parse_pins`).
    A pin file that is a symbolic link is followed only to a file that parses as a pin file
    (see :func:`check_link_target`)."""
    data = _read(path)
    if data is None:
        check_link_target(path, None)
        return PinFile(path=path)
    check_link_target(path, data)
    return parse_pins(data, source=path, allow_unverified=allow_unverified)


def check_link_target(path: str, data: bytes | None) -> None:
    """A pin file may be a symbolic link (dotfile repositories keep it elsewhere) only when the
    link resolves to an existing, non-empty file with a pin file's integer ``version`` key:
    a link to ``~/.bashrc``, to an empty file or to nowhere would otherwise be overwritten or
    created with TOML. Refused with an InputError; the target is never written."""
    if not os.path.islink(path):
        return
    target = os.path.realpath(path)
    if data is None:
        raise InputError(
            f"is a symbolic link to {target}, which does not exist; refusing to "
            "create a file through a link (point it at an existing pin file)",
            source=path,
        )
    ok = False
    with contextlib.suppress(UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        doc = tomllib.loads(data.decode("utf-8"))
        ver = doc.get("version")
        ok = isinstance(ver, int) and not isinstance(ver, bool)
    if not ok:
        raise InputError(
            f"is a symbolic link to {target}, which is not an mcp-review pin file "
            "(no integer 'version' key); refusing to read or write through it "
            "(the target was left unchanged)",
            source=path,
        )


@dataclass(slots=True)
class SaveResult:
    pins: PinFile
    """The state now on disk (this session's decisions merged onto the latest file)."""
    merged: bool
    """True when the file had changed on disk since it was read."""
    conflicts: list[Conflict]
    """Tools decided both by another writer (since our read) and by us: ours won."""
    audit_records: list[dict[str, Any]]
    replaced: list[Any] = field(default_factory=list)
    """Per mutation saved, in order: the decision it replaced on disk, read under the lock
    (an undo restores exactly this)."""
    upgraded_from: int | None = None
    """The older format version the file had on disk, now rewritten as :data:`~mcp_review.engine.pins.VERSION` (the
    caller tells the operator: older mcp-review releases refuse the new version)."""


def save_pins(pf: PinFile, path: str | None = None, *, audit_path: str | None = None) -> SaveResult:
    """Persist the mutations recorded on ``pf`` (atomic, locked, merging concurrent writes).

    Under the lock: re-read the file (refusing if it no longer parses or is a newer version),
    replay ``pf``'s mutations onto it, append their audit records (fsynced, before the pin file
    is replaced, so no decision can land without its audit line), then write atomically.
    ``pf`` is updated in place to the saved state and its pending mutations are cleared.

    A mutation made against a decision (its ``expect``: an undo, the app's decision on what
    its screen showed) is a compare-and-set: when the file holds another decision for its key
    at that point, nothing at all is written, ``pf`` is reset to the file as it is on disk
    (its pending mutations dropped) and :class:`~mcp_review.engine.pins.ChangedMeanwhile`
    says what is there and who decided it. Each audit record's ``ts`` is read here, with the
    lock held.
    """
    path = path or pf.path or DEFAULT_PATH
    real = os.path.realpath(path)  # write through a symlink, don't replace it
    audit_path = audit_path or audit.audit_path_for(path)
    with locked(real):
        data = _read(real)
        check_link_target(path, data)
        fresh = (
            parse_pins(data, source=path, allow_unverified=True)
            if data is not None
            else PinFile(path=path)
        )
        merged = data != pf.read_bytes
        conflicts: list[Conflict] = []
        if merged:
            ours = {op.pin.key: op.pin for op in pf._ops if op.kind == "decide" and op.pin}
            for key, pin in ours.items():
                theirs = fresh.pins.get(key)
                if theirs != pf._base.get(key):  # another writer touched it since our read
                    conflicts.append(Conflict(key, theirs, pin))
        records: list[dict[str, Any]] = []
        replaced: list[Any] = []
        for op in pf._ops:
            now = fresh.current_of(op) if op.kind != "policy" else None
            if op.expect is not ANY and not same_decision(now, op.expect):
                refused = ChangedMeanwhile(op.target, op.expect, now)
                if now is None:  # dropped: the audit log says who
                    last = _last_record(audit_path, op.target)
                    refused.by, refused.at = last.get("who"), last.get("ts")
                _reset(pf, parse_pins(data, source=path, allow_unverified=True) if data else None)
                raise refused
            replaced.append(now)
            if pf.sign is not None:  # signed here: chained to what it replaces on disk now
                if op.kind == "decide" and op.pin is not None:
                    op.pin = pf.sign(op.pin, now)
                elif op.kind == "instructions" and op.ipin is not None:
                    op.ipin = pf.sign(op.ipin, now)
                elif op.kind == "surface" and op.spin is not None:
                    op.spin = pf.sign(op.spin, now)
            records.append(fresh._apply(op))
        text = fresh.to_bytes()
        if records:
            audit.append(audit_path, records)
        if data is None or text != data:
            remove_stale_temps(real)
            try:
                atomic_write(real, text)
            except OSError as e:  # disk full, read-only folder: the old file is intact
                with contextlib.suppress(InputError, OSError):  # say so in the log, if we can
                    audit.append(
                        audit_path,
                        [
                            {**r, "event": "aborted", "why": f"pin file not written: {e.strerror}"}
                            for r in records
                        ],
                    )
                raise InputError(
                    f"cannot write the pin file ({e.strerror}); the file on disk is unchanged",
                    source=path,
                ) from None
        fresh.read_bytes = text
        fresh.path = path
    pf.pins, pf.server_policy, pf.tool_policy = fresh.pins, fresh.server_policy, fresh.tool_policy
    pf.extra, pf.read_bytes, pf._ops, pf._base = fresh.extra, text, [], dict(fresh.pins)
    pf.unverified = fresh.unverified
    pf.instructions = fresh.instructions
    pf.unverified_instructions = fresh.unverified_instructions
    pf.surfaces, pf.unverified_surfaces = fresh.surfaces, fresh.unverified_surfaces
    pf.kinds = fresh.kinds
    upgraded = fresh.version if data is not None and fresh.version < model.VERSION else None
    pf.version = model.VERSION
    return SaveResult(
        pins=pf,
        merged=merged,
        conflicts=conflicts,
        audit_records=records,
        replaced=replaced,
        upgraded_from=upgraded,
    )


def reread_pins(pf: PinFile, path: str) -> bool:
    """``pf`` as the file at ``path`` now is, when another writer (the CLI, a ``git pull``)
    changed it since ``pf`` was read or saved: True when it changed. Only a ``pf`` with no
    pending mutation is re-read (the app saves each decision at once, so it has none); one
    with pending mutations is left as it is (False). InputError when the file no longer
    reads (as :func:`load_pins`)."""
    if pf._ops:
        return False
    data = _read(path)
    check_link_target(path, data)
    if data == pf.read_bytes or (data is None and pf.read_bytes is None):
        return False  # unchanged, or no file yet and none read (state made in memory stays)
    _reset(pf, parse_pins(data, source=path, allow_unverified=True) if data is not None else None)
    pf.path = path
    return True


def _reset(pf: PinFile, fresh: PinFile | None) -> None:
    """``pf`` as the file is on disk (``fresh``; None: no file), its pending mutations dropped."""
    if fresh is None:
        fresh = PinFile(path=pf.path)
    pf.pins, pf.server_policy, pf.tool_policy = fresh.pins, fresh.server_policy, fresh.tool_policy
    pf.extra, pf.read_bytes, pf._ops, pf._base = fresh.extra, fresh.read_bytes, [], dict(fresh.pins)
    pf.unverified = fresh.unverified
    pf.instructions = fresh.instructions
    pf.unverified_instructions = fresh.unverified_instructions
    pf.surfaces, pf.unverified_surfaces = fresh.surfaces, fresh.unverified_surfaces
    pf.kinds = fresh.kinds
    pf.version = fresh.version


def _last_record(audit_path: str, key: tuple[str, str, str]) -> dict[str, Any]:
    """The audit log's last record about ``key`` (``(server, principal, "")``: instructions)."""
    tool = key[2] or None
    records: list[dict[str, Any]] = audit.read(audit_path)
    for r in reversed(records):
        if (r.get("server"), r.get("principal"), r.get("tool")) == (key[0], key[1], tool):
            found: dict[str, Any] = r
            return found
    return {}


def upgrade_note(result: SaveResult, path: str) -> str | None:
    """What to tell the operator when a save rewrote an older pin file version (the CLI and the
    app say the same), or None."""
    if result.upgraded_from is None:
        return None
    return (
        f"{path} was rewritten from pin file version {result.upgraded_from} to version "
        f"{model.VERSION} (each definition now spans lines, so re-pins read as line diffs); "
        f"mcp-review releases older than the one that writes version {model.VERSION} refuse it"
    )
