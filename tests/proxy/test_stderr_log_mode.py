"""A server's stderr log holds what the server printed (tokens, paths, its users' data): like the
call log it is the user's alone (0600), whatever the umask and whatever the file was before."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from servers.proxy_harness import RawClient

from mcp_review.services.transport import STDERR_FILE_CAP, open_stderr_log


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask", [0o022, 0o000], ids=["umask-022", "umask-000"])
def test_a_new_stderr_log_is_created_0600(tmp_path: Path, mask: int):
    path = tmp_path / "logs" / "srv.stderr.log"
    with _umask(mask):
        with open_stderr_log(path) as f:
            f.write(b"token=abc\n")
    assert _mode(path) == 0o600
    assert _mode(path.parent) == 0o700  # the folder it made is the user's too


def test_an_existing_readable_stderr_log_is_tightened_and_kept(tmp_path: Path):
    path = tmp_path / "srv.stderr.log"
    path.write_bytes(b"old line\n")
    path.chmod(0o644)  # written by an earlier version, or under umask 000
    with open_stderr_log(path) as f:
        f.write(b"new line\n")
    assert _mode(path) == 0o600
    assert path.read_bytes() == b"old line\nnew line\n"


def test_a_rotated_stderr_log_is_0600_too(tmp_path: Path):
    path = tmp_path / "srv.stderr.log"
    path.write_bytes(b"x" * STDERR_FILE_CAP)
    path.chmod(0o666)
    with _umask(0o000):
        with open_stderr_log(path) as f:
            f.write(b"fresh\n")
    rotated = path.with_name(path.name + ".1")
    assert rotated.stat().st_size == STDERR_FILE_CAP
    assert _mode(rotated) == 0o600 and _mode(path) == 0o600
    assert path.read_bytes() == b"fresh\n"


@pytest.mark.slow
def test_the_proxy_creates_the_servers_stderr_log_0600_under_umask_000(tmp_path: Path):
    with _umask(0o000):  # inherited by the proxy subprocess
        c = RawClient(tmp_path)
    with c:
        c.initialize()
        assert "result" in c.request("tools/call", {"name": "echo", "arguments": {}})
        assert c.close() == 0
    log = tmp_path / "server.log"
    assert "proxy_raw: started" in log.read_text()
    assert _mode(log) == 0o600
    assert _mode(tmp_path / "calls.jsonl") == 0o600  # as the call log always was
