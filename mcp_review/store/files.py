"""Safe file writes: an exclusive lock beside the file and an atomic replace (a crash leaves
the old file or the new one, never a mix). Used for the pin file and the trust store."""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import tempfile
from collections.abc import Callable, Iterator

from mcp_review.engine.errors import InputError


def user_state_dir() -> str:
    """The user's own state folder for mcp-review: ``$XDG_STATE_HOME/mcp-review``, else
    ``~/.local/state/mcp-review``. A relative ``XDG_STATE_HOME`` is ignored, as the XDG base
    directory specification says (it would name a folder inside whatever project the command
    runs in). The one place this folder is decided: the trust store, the call-log seal key,
    the proxy's default call logs and OAuth tokens all live under it."""
    xdg = os.environ.get("XDG_STATE_HOME", "")
    base = (
        xdg
        if xdg and os.path.isabs(xdg)
        else os.path.join(os.path.expanduser("~"), ".local", "state")
    )
    return os.path.join(base, "mcp-review")


def lock_path(path: str) -> str:
    return path + ".lock"


@contextlib.contextmanager
def locked(path: str) -> Iterator[None]:
    """Exclusive advisory lock for the pin file at ``path`` (``<path>.lock``, never deleted:
    unlinking a lock file races with the next waiter)."""
    try:
        # O_NOFOLLOW: a planted `mcp-pins.toml.lock` link must not create or open its target.
        fd = os.open(lock_path(path), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as e:
        raise InputError(
            f"cannot create the lock file: {e.strerror}", source=lock_path(path)
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock


fault_point: Callable[[str], None] | None = None
"""Fault injection for the crash tests, never set by the product: called with ``"temp-written"``
once the new content is written and synced to the temp file (before the rename) and with
``"renamed"`` after the rename (before the folder is synced). A test's writer stops there so a
SIGKILL lands at a set point instead of after a random sleep."""


def atomic_write(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` so a crash leaves the old file or the new one, never a mix."""
    folder = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(path)
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        if fault_point is not None:
            fault_point("temp-written")
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if fault_point is not None:
        fault_point("renamed")
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)  # make the rename itself durable
    finally:
        os.close(dfd)


def remove_stale_temps(path: str) -> None:
    """Temp files left by a writer that was killed mid-write (we hold the lock, so no live
    writer owns one)."""
    folder = os.path.dirname(os.path.abspath(path))
    pattern = os.path.join(glob.escape(folder), f".{glob.escape(os.path.basename(path))}.*.tmp")
    for p in glob.glob(pattern):
        with contextlib.suppress(OSError):
            os.unlink(p)


def write_secret(path: str, data: bytes) -> None:
    """Write a secret (the HTTP front's bearer token, OAuth tokens) readable by its owner
    alone: created 0600 whatever the umask, in a folder made 0700, through a temp file renamed
    over ``path`` (a reader sees the old secret or the new one). A ``path`` that is a symbolic
    link is refused (OSError), not followed: a planted link must not carry the secret away."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if os.path.islink(path):
        raise OSError(40, "is a symbolic link, refused", path)  # ELOOP
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
