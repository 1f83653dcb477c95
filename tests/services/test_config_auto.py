"""Issue 19 item 6: ``--config auto`` reads the client configs on this machine as they are, on
fixture homes (HOME, XDG_CONFIG_HOME and APPDATA point into tmp), and ``--list-configs``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers import stdio_server

from mcp_review.cli import main
from mcp_review.services.config import load_config
from mcp_review.services.discover import list_sources

SERVERS = Path(__file__).parent.parent / "servers"


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    home, appdata, proj = tmp_path / "home", tmp_path / "appdata", tmp_path / "proj"
    for d in (home, appdata, proj):
        d.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("APPDATA", str(appdata))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("USERPROFILE", raising=False)
    monkeypatch.chdir(proj)
    return {"home": home, "appdata": appdata, "proj": proj, "tmp": tmp_path}


def put(path: Path, doc: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


def http(url: str) -> dict:
    return {"type": "http", "url": url}


def marker_server(marker: Path) -> dict:
    return {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'a').write('ran')"]}


def every_client(m: dict[str, Path]) -> None:
    home, appdata, proj = m["home"], m["appdata"], m["proj"]
    put(
        home / "Library/Application Support/Claude/claude_desktop_config.json",
        {"mcpServers": {"mac": http("https://mac.example/mcp")}},
    )
    put(
        home / ".config/Claude/claude_desktop_config.json",
        {"mcpServers": {"linux": http("https://linux.example/mcp")}},
    )
    put(
        appdata / "Claude/claude_desktop_config.json",
        {"mcpServers": {"win": http("https://win.example/mcp")}},
    )
    put(
        home / ".claude.json",
        {
            "numStartups": 7,
            "tipsHistory": {},  # Claude Code's state file: read as it is
            "mcpServers": {
                "user-srv": http("https://user.example/mcp"),
                "same": http("https://user-scope.example/mcp"),
            },
            "projects": {
                str(proj.resolve()): {"mcpServers": {"same": http("https://local.example/mcp")}},
                "/some/other/project": {"mcpServers": {"other": http("https://o.example/mcp")}},
            },
        },
    )
    put(
        home / "Library/Application Support/Code/User/mcp.json",
        {"servers": {"vs-mac": http("https://vsmac.example/mcp")}},
    )
    put(
        home / ".config/Code/User/mcp.json",
        {"servers": {"vs-linux": http("https://vslinux.example/mcp")}, "inputs": []},
    )
    put(appdata / "Code/User/mcp.json", {"servers": {"vs-win": http("https://vswin.example/mcp")}})
    put(home / ".cursor/mcp.json", {"mcpServers": {"cur": http("https://cursor.example/mcp")}})
    put(
        home / ".codeium/windsurf/mcp_config.json",
        {"mcpServers": {"wind": {"serverUrl": "https://windsurf.example/mcp"}}},
    )


@pytest.mark.parametrize("platform, own", [("linux", "linux"), ("darwin", "mac"), ("win32", None)])
def test_every_client_location_read_as_it_is(machine, monkeypatch, platform, own):
    """Each platform reads its own per-user folder (and APPDATA when set), not another's."""
    from mcp_review.services import discover

    monkeypatch.setattr(discover, "PLATFORM", platform)
    every_client(machine)
    cfg = load_config("auto")
    by = {s.name: s for s in cfg.servers}
    own_names = {"claude-desktop:" + own, "vscode:vs-" + own} if own else set()
    assert set(by) == own_names | {
        "claude-desktop:win",
        "claude-code:user-srv",
        "claude-code:same",
        "vscode:vs-win",
        "cursor:cur",
        "windsurf:wind",
    }
    assert by["windsurf:wind"].url == "https://windsurf.example/mcp"  # serverUrl, as it is
    assert by["claude-desktop:win"].source.endswith("claude_desktop_config.json")
    # Claude Code's local scope (this folder's section of ~/.claude.json) wins over user scope,
    # as in Claude Code; another project's section is not this folder's.
    assert by["claude-code:same"].url == "https://local.example/mcp"
    assert "claude-code:other" not in by


def test_xdg_config_home_moves_the_linux_locations(machine, monkeypatch):
    xdg = machine["tmp"] / "xdg"
    put(xdg / "Claude/claude_desktop_config.json", {"mcpServers": {"x": http("https://x.e/mcp")}})
    put(
        machine["home"] / ".config/Claude/claude_desktop_config.json",
        {"mcpServers": {"not-read": http("https://n.e/mcp")}},
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    names = [s.name for s in load_config("auto").servers]
    assert names == ["claude-desktop:x"]


def test_list_configs_lists_each_source(machine, capsys, monkeypatch):
    from mcp_review.services import discover

    monkeypatch.setattr(discover, "PLATFORM", "linux")
    every_client(machine)
    assert main(["check", "--list-configs"]) == 0
    out = capsys.readouterr().out
    assert "Library" not in out  # issue 30 item 22: macOS's folder is not Linux's
    for where in (
        ".config/Claude/claude_desktop_config.json",
        "appdata/Claude",
        ".claude.json",
        ".mcp.json",
        ".vscode/mcp.json",
        "Code/User/mcp.json",
        ".cursor/mcp.json",
        ".codeium/windsurf/mcp_config.json",
    ):
        assert where in out, where
    assert "claude-code (local)" in out and "claude-code (user)" in out
    assert "skipped same: shadowed by" in out
    assert "cursor (project)       .cursor/mcp.json  [absent]" in out
    assert "    windsurf:wind" in out
    # The same list from every command that reads a config, and nothing is fetched.
    assert main(["status", "--list-configs"]) == 0
    assert capsys.readouterr().out == out


def test_project_configs_need_trust_and_never_run_untrusted(machine, capsys, monkeypatch):
    """The repository's .mcp.json / .vscode/mcp.json / .cursor/mcp.json: skipped, not run,
    until trusted; the home configs are read."""
    marker = machine["tmp"] / "ran"
    proj = machine["proj"]
    put(proj / ".mcp.json", {"mcpServers": {"repo": marker_server(marker)}})
    put(proj / ".vscode/mcp.json", {"servers": {"repo": marker_server(marker)}})
    put(proj / ".cursor/mcp.json", {"mcpServers": {"repo": marker_server(marker)}})
    tools = machine["tmp"] / "tools.json"
    tools.write_text(json.dumps([{"name": "t", "inputSchema": {"type": "object"}}]))
    put(
        machine["home"] / ".cursor/mcp.json",
        {
            "mcpServers": {
                "mine": {
                    **stdio_server(SERVERS / "toolserver.py"),
                    "env": {"MCP_REVIEW_TOOLS_FILE": str(tools)},
                }
            }
        },
    )
    rc = main(["check", "--config", "auto", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 1  # cursor:mine's tool is new
    assert [t["tool"] for t in json.loads(out)["tools"]] == ["t"]
    assert {t["server"] for t in json.loads(out)["tools"]} == {"cursor:mine"}
    assert not marker.exists()
    assert "never trusted: not run" in err and "mcp-review trust" in err
    assert main(["check", "--list-configs"]) == 0
    listed = capsys.readouterr().out
    assert listed.count("[untrusted: never trusted") == 3

    # Trusted as it is: read (and run).
    assert main(["trust", ".vscode/mcp.json"]) == 0
    capsys.readouterr()
    names = {s.name for s in load_config("auto").servers}
    assert "vscode:repo" in names and "claude-code:repo" not in names
    # A change after trusting asks again.
    put(
        proj / ".vscode/mcp.json",
        {"servers": {"repo": marker_server(marker), "more": marker_server(marker)}},
    )
    assert "vscode:repo" not in {s.name for s in load_config("auto").servers}
    # In CI the pipeline already runs the repository's code.
    monkeypatch.setenv("CI", "true")
    names = {s.name for s in load_config("auto").servers}
    assert {"claude-code:repo", "vscode:repo", "vscode:more", "cursor:repo"} <= names
    assert not marker.exists()  # loading never starts anything


@pytest.mark.slow
def test_auto_end_to_end_with_a_real_stdio_server(machine, capsys):
    tools = machine["tmp"] / "tools.json"
    tools.write_text(
        json.dumps(
            [{"name": "query", "description": "Run a query.", "inputSchema": {"type": "object"}}]
        )
    )
    put(
        machine["home"] / ".config/Claude/claude_desktop_config.json",
        {
            "mcpServers": {
                "db": {
                    **stdio_server(SERVERS / "toolserver.py"),
                    "env": {"MCP_REVIEW_TOOLS_FILE": str(tools)},
                }
            }
        },
    )
    assert main(["pin", "--config", "auto", "-q"]) == 0
    assert main(["check", "--config", "auto", "-q"]) == 0
    capsys.readouterr()
    from mcp_review.store.pinfile import load_pins

    pf = load_pins("mcp-pins.toml")
    assert pf.get("claude-desktop:db", "default", "query") is not None
    tools.write_text(
        json.dumps(
            [
                {
                    "name": "query",
                    "description": "Run any query you like.",
                    "inputSchema": {"type": "object"},
                }
            ]
        )
    )
    assert main(["check", "--config", "auto", "-q"]) == 1
    assert "claude-desktop:db/query" in capsys.readouterr().out
    assert main(["diff", "claude-desktop:db", "query", "--config", "auto", "-q"]) == 0
    assert "Run any query you like." in capsys.readouterr().out


def test_unreadable_entries_are_skipped_and_named(machine, capsys):
    home = machine["home"]
    put(
        home / ".cursor/mcp.json",
        {
            "mcpServers": {
                "ok": http("https://ok.example/mcp"),
                "needs-input": {"type": "http", "url": "https://x.example/${input:token}"},
                "off": {**http("https://off.example/mcp"), "disabled": True},
            }
        },
    )
    (home / ".codeium/windsurf").mkdir(parents=True)
    (home / ".codeium/windsurf/mcp_config.json").write_text("{not json")
    cfg = load_config("auto")
    assert [s.name for s in cfg.servers] == ["cursor:ok"]
    notes = "\n".join(cfg.notes)
    assert "needs-input" in notes and "cannot be resolved outside the editor" in notes
    assert "mcp_config.json: not JSON" in notes
    srcs = {(s.client, s.scope): s for s in list_sources()}
    assert srcs[("windsurf", "user")].state == "error"
    assert any(x.startswith("off: disabled") for x in srcs[("cursor", "user")].skipped)


def test_nothing_found_is_exit_2(machine, capsys):
    assert main(["check", "--config", "auto"]) == 2
    err = capsys.readouterr().err
    assert "--config auto found no server to review" in err and "--list-configs" in err


def test_listed_names_are_data(machine, capsys):
    put(
        machine["home"] / ".cursor/mcp.json",
        {"mcpServers": {"a\u001b[2Jb\u202e": http("https://h.example/mcp")}},
    )
    assert main(["check", "--list-configs"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert "cursor:a⟨ESC⟩[2Jb⟨RLO U+202E⟩" in out
