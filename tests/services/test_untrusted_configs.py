"""Issue 10 item 10: a cloned repository's client config never runs until the user trusts it.

The hostile repository ships ``.vscode/mcp.json`` (and friends) whose "server" is a command
that leaves a marker file; the test looks for the marker to know whether it ran. HOME and
XDG_STATE_HOME point into tmp (tests/conftest.py and below), so the real trust store is never
touched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.services import trust
from mcp_review.services.config import UntrustedConfigError, discover_config, load_config

ROOT = Path(__file__).resolve().parent.parent.parent


def payload(marker: Path) -> dict:
    code = f"open({str(marker)!r}, 'a').write('ran\\n')"
    return {"command": sys.executable, "args": ["-c", code]}


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A freshly cloned hostile repository, the working directory of every command."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    r = tmp_path / "cloned"
    (r / ".vscode").mkdir(parents=True)
    marker = tmp_path / "PWNED"
    (r / ".vscode" / "mcp.json").write_text(json.dumps({"servers": {"s": payload(marker)}}))
    (r / "snap.json").write_text(
        json.dumps({"format": "mcp-review-snapshot", "version": 1, "servers": {"s": {"tools": []}}})
    )
    monkeypatch.chdir(r)
    return r, marker


COMMANDS = [
    ["check"],
    ["snapshot", "--out", "out.json"],
    ["status"],
    ["pin", "--yes"],
    ["approve", "s", "t"],
    ["deny", "s", "t"],
    ["watch"],
    ["review"],
    ["status", "--snapshot", "snap.json"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_no_command_runs_a_discovered_client_config(repo, capsys, argv):
    _r, marker = repo
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2, err
    assert ".vscode/mcp.json (never trusted)" in err
    assert "mcp-review trust .vscode/mcp.json" in err and "--config .vscode/mcp.json" in err
    assert not marker.exists()


def test_every_client_config_found_is_listed(repo, capsys):
    r, marker = repo
    (r / ".mcp.json").write_text(json.dumps({"mcpServers": {"a": payload(marker)}}))
    (r / ".cursor").mkdir()
    (r / ".cursor" / "mcp.json").write_text(json.dumps({"mcpServers": {"b": payload(marker)}}))
    assert main(["check"]) == 2
    err = capsys.readouterr().err
    assert all(
        f"{p} (never trusted)" in err for p in (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")
    )
    assert not marker.exists()


def test_trust_once_then_runs_until_the_file_changes(repo, capsys):
    r, marker = repo
    assert main(["trust"]) == 0
    out = capsys.readouterr().out
    assert "trusted " in out and "s: " in out and sys.executable in out  # what it will run
    store = trust.store_path()
    assert store.is_file() and str(store).startswith(os.environ["XDG_STATE_HOME"])
    assert not any(p.name == trust.STORE_NAME for p in r.rglob("*"))  # nothing in the repo
    assert main(["snapshot", "--out", "out.json", "-q"]) in (0, 3)
    assert marker.exists()  # trusted: it ran
    marker.unlink()

    # `git pull` changes the file: asked again, nothing runs.
    cfg = r / ".vscode" / "mcp.json"
    cfg.write_text(cfg.read_text().replace('"s"', '"s2"'))
    capsys.readouterr()
    assert main(["check"]) == 2
    assert ".vscode/mcp.json (changed since it was trusted)" in capsys.readouterr().err
    assert not marker.exists()


def test_trust_is_per_path(repo, tmp_path, monkeypatch, capsys):
    """The same bytes in another clone are another decision."""
    r, _marker = repo
    assert main(["trust", ".vscode/mcp.json"]) == 0
    other = tmp_path / "other-clone"
    (other / ".vscode").mkdir(parents=True)
    (other / ".vscode" / "mcp.json").write_bytes((r / ".vscode" / "mcp.json").read_bytes())
    with pytest.raises(UntrustedConfigError):
        discover_config(other)


def test_named_with_config_it_runs(repo, capsys):
    _r, marker = repo
    assert main(["snapshot", "--config", ".vscode/mcp.json", "--out", "o.json", "-q"]) in (0, 3)
    assert marker.exists()


def test_ci_true_is_unaffected(repo, monkeypatch):
    _r, marker = repo
    monkeypatch.setenv("CI", "true")
    assert main(["snapshot", "--out", "o.json", "-q"]) in (0, 3)
    assert marker.exists()


def test_the_projects_own_toml_is_unaffected(repo, capsys):
    r, marker = repo
    (r / "mcp-review.toml").write_text(
        "[servers.own]\n"
        + "\n".join(f"{k} = {json.dumps(v)}" for k, v in payload(marker).items())
        + "\n"
    )
    assert main(["snapshot", "--out", "o.json", "-q"]) in (0, 3)
    assert marker.exists()


def test_the_proxy_the_client_launches_is_unaffected(repo):
    r, marker = repo
    p = subprocess.run(
        [sys.executable, "-m", "mcp_review", "proxy", "s", "--no-log"],
        cwd=r,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert "not trusted" not in p.stderr, p.stderr
    assert marker.exists(), p.stderr


def test_bytes_swapped_after_trust_are_caught_at_load(repo, monkeypatch):
    """The check is made on the bytes that are parsed: a file swapped between discovery and
    load (or trusted, then edited) is refused by load_config itself."""
    r, marker = repo
    cfg = r / ".vscode" / "mcp.json"
    trust.trust(cfg, cfg.read_bytes(), by="test")
    assert load_config(None).servers[0].name == "s"
    found = discover_config()  # a caller that discovers first and loads later
    cfg.write_text(json.dumps({"servers": {"evil": payload(marker)}}))
    with pytest.raises(UntrustedConfigError):
        load_config(None)
    with pytest.raises(UntrustedConfigError):
        discover_config()
    assert found.as_posix() == ".vscode/mcp.json"


def test_trust_list_and_revoke(repo, capsys):
    assert main(["trust"]) == 0
    capsys.readouterr()
    assert main(["trust", "--list"]) == 0
    assert "mcp.json" in capsys.readouterr().out
    assert main(["trust", "--revoke", ".vscode/mcp.json"]) == 0
    capsys.readouterr()
    assert main(["check"]) == 2


def test_a_corrupt_trust_store_is_exit_2_and_left_alone(repo, capsys):
    store = trust.store_path()
    store.parent.mkdir(parents=True)
    store.write_text("{not json")
    assert main(["trust"]) == 2
    assert "trust store is not valid JSON" in capsys.readouterr().err
    assert store.read_text() == "{not json"
