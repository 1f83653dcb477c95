"""Config loading: mcp-review.toml and every mcp.json dialect read into the same server list."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_review.engine.errors import InputError
from mcp_review.services.config import ServerConfig, discover_config, load_config

FIX = Path(__file__).parent.parent / "fixtures" / "config"
ENV = {"TOKEN": "tok-SECRET-123", "HOME_DIR": "/home/op"}
DIALECTS = [
    "mcp-review.toml",
    "claude_desktop_config.json",
    ".mcp.json",
    ".vscode/mcp.json",
    ".cursor/mcp.json",
]


def _shape(s: ServerConfig) -> tuple:
    return (s.name, s.transport, s.command, s.args, dict(s.env), s.url, dict(s.headers))


@pytest.mark.parametrize("name", DIALECTS)
def test_every_dialect_reads_into_the_same_servers(name: str):
    cfg = load_config(FIX / name, environ=ENV)
    assert [_shape(s) for s in cfg.servers] == [
        (
            "files",
            "stdio",
            "npx",
            ("-y", "@modelcontextprotocol/server-filesystem", "/home/op"),
            {"API_TOKEN": "tok-SECRET-123"},
            None,
            {},
        ),
        (
            "remote",
            "http",
            None,
            (),
            {},
            "https://example.test/mcp",
            {"Authorization": "Bearer tok-SECRET-123"},
        ),
    ]


def test_toml_defaults_and_overrides():
    cfg = load_config(FIX / "mcp-review.toml", environ=ENV)
    assert cfg.concurrency == 4
    files, remote = cfg.servers
    assert files.timeout == 20 and files.principal == "default"
    assert remote.timeout == 5 and remote.principal == "ci-bot"
    assert cfg.state_dir == str(FIX.resolve() / ".mcp-review")


def test_vscode_state_dir_is_the_workspace():
    cfg = load_config(FIX / ".vscode" / "mcp.json", environ=ENV)
    assert cfg.state_dir == str(FIX.resolve() / ".mcp-review")


@pytest.mark.parametrize("name", DIALECTS)
def test_unset_variable_names_server_and_key(name: str):
    with pytest.raises(InputError) as ei:
        load_config(FIX / name, environ={"HOME_DIR": "/x"})
    msg = str(ei.value)
    assert "server 'files'" in msg and "env.API_TOKEN" in msg and "TOKEN is not set" in msg
    assert name.split("/")[-1] in msg


def test_unset_variable_in_toml_names_the_line(tmp_path: Path):
    p = tmp_path / "mcp-review.toml"
    p.write_text(
        '[servers.a]\ncommand = "x"\n\n[servers.b]\nurl = "https://h/mcp"\n'
        'headers = { Authorization = "Bearer ${NOPE}" }\n'
    )
    with pytest.raises(InputError) as ei:
        load_config(p, environ={})
    assert f"{p}:6:" in str(ei.value)
    assert "server 'b': headers.Authorization" in str(ei.value)


def test_default_and_workspace_variables(tmp_path: Path):
    (tmp_path / ".vscode").mkdir()
    p = tmp_path / ".vscode" / "mcp.json"
    p.write_text(
        '{"servers": {"s": {"command": "run", "args": ["${workspaceFolder}/x", '
        '"${LEVEL:-info}"], "cwd": "sub"}}}'
    )
    s = load_config(p, environ={}).servers[0]
    assert s.args == (f"{tmp_path.resolve()}/x", "info")
    assert s.cwd == str(tmp_path.resolve() / "sub")


def test_vscode_input_variables_are_refused(tmp_path: Path):
    p = tmp_path / "mcp.json"
    p.write_text(
        '{"servers": {"s": {"type": "http", "url": "https://h", '
        '"headers": {"X-Key": "${input:key}"}}}}'
    )
    with pytest.raises(InputError, match=r"server 's': headers.X-Key: \$\{input:key\} cannot"):
        load_config(p, environ={})


def test_repr_never_shows_secrets():
    cfg = load_config(FIX / "mcp-review.toml", environ=ENV)
    for s in cfg.servers:
        assert "tok-SECRET-123" not in repr(s) and "tok-SECRET-123" not in str(s)
        assert "tok-SECRET-123" not in repr(cfg)
    assert "API_TOKEN" in repr(cfg.servers[0])  # the key is shown, the value is not
    assert cfg.servers[1].scrub("said Bearer tok-SECRET-123!") == "said ***!"


def test_redacts_url_credentials():
    s = ServerConfig("x", transport="http", url="https://u:pw@h/mcp?key=abc&v=1")
    assert "pw" not in repr(s) and "abc" not in repr(s)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('[servers.a]\ncommand = "x"\nbogus = 1\n', ":3: server 'a': bogus: unknown key"),
        ('[servers.a]\nargs = ["x"]\n', ":1: server 'a': needs either 'command'"),
        (
            '[servers.a]\ncommand = "x"\ntimeout = -1\n',
            ":3: server 'a': timeout: must be a positive",
        ),
        ('[servers.a]\ncommand = "x"\nmode = "pinned"\n', ":3: server 'a': mode"),
        ('[servers.a]\nurl = "ftp://x"\n', ":2: server 'a': url: must start with http"),
        ("timeout = 3\n[servers.a\n", ":2: invalid TOML"),
        ("concurrency = 0\n", ":1: 'concurrency' must be a positive number"),
    ],
)
def test_toml_errors_name_file_and_line(tmp_path: Path, text: str, needle: str):
    p = tmp_path / "mcp-review.toml"
    p.write_text(text)
    with pytest.raises(InputError) as ei:
        load_config(p, environ={})
    assert str(ei.value).startswith(str(p)) and needle in str(ei.value)


def test_json_errors_name_file_and_line(tmp_path: Path):
    p = tmp_path / ".mcp.json"
    p.write_text('{\n  "mcpServers": {\n    "a": {"command": 3}\n  }\n}\n')
    with pytest.raises(InputError, match=r"\.mcp\.json:3: server 'a': command: must be a string"):
        load_config(p, environ={})
    p.write_text('{\n  "mcpServers": {,}\n}')
    with pytest.raises(InputError, match=r"\.mcp\.json:2: invalid JSON"):
        load_config(p, environ={})
    p.write_text('{"other": {}}')
    with pytest.raises(InputError, match='no "mcpServers"'):
        load_config(p, environ={})


def test_missing_file():
    with pytest.raises(InputError, match="config file not found"):
        load_config("/nonexistent/mcp-review.toml")


def test_discovery_order(tmp_path: Path):
    # The order only (client configs are trust-gated: tests/services/test_untrusted_configs.py).
    with pytest.raises(InputError, match="no config found"):
        discover_config(tmp_path)
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text("{}")
    assert discover_config(tmp_path, require_trust=False) == tmp_path / ".cursor" / "mcp.json"
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode" / "mcp.json").write_text("{}")
    assert discover_config(tmp_path, require_trust=False) == tmp_path / ".vscode" / "mcp.json"
    (tmp_path / ".mcp.json").write_text("{}")
    assert discover_config(tmp_path, require_trust=False) == tmp_path / ".mcp.json"
    (tmp_path / "mcp-review.toml").write_text("")
    assert discover_config(tmp_path) == tmp_path / "mcp-review.toml"


def test_disabled_and_sse(tmp_path: Path):
    p = tmp_path / "mcp.json"
    p.write_text(
        '{"mcpServers": {"off": {"command": "x", "disabled": true}, '
        '"ev": {"type": "sse", "url": "http://h/sse"}}}'
    )
    cfg = load_config(p, environ={})
    assert [(s.name, s.transport) for s in cfg.servers] == [("ev", "sse")]
