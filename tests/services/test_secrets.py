"""Issue 10 item 8: secrets from the environment never reach an output, whole or in part.

Each test puts a secret in the config through ``${VAR}`` (in ``command``, ``args``, ``env``,
``url``) and makes a real server process (or a real loopback HTTP server) push it back at
mcp-review the way the attack pass did: a spawn error quoting the path, a stderr tail whose cut
falls inside the secret, non-JSON on stdout cut at 80 characters, a URL in a connection error.
Then every output is searched for any 8-character piece of the secret: `snapshot`'s file and
the four `check` formats (stdout and stderr).
"""

from __future__ import annotations

import json
import socket
import sys
import textwrap
from pathlib import Path

import pytest
from servers.toolserver import ToolServer, serve_http, tool

from mcp_review.cli import main
from mcp_review.services.config import ServerConfig, load_config
from mcp_review.store.calllog import REDACTED, Redactor

SECRET = "s3cr3t-9f4c1a7e2b6d0c83-QmZx"
ECHO_SERVER = textwrap.dedent("""
    import os, sys
    mode, tok = sys.argv[1], sys.argv[2]
    if mode == "stderr":
        # the secret, then exactly enough text that a 300-character tail cuts it in half
        sys.stderr.write("starting with " + tok + "y" * 290 + "\\n")
    elif mode == "stdout":
        # non-JSON on stdout whose 80-character quote would cut the env secret in half
        sys.stdout.write("A" * 66 + os.environ["API_KEY"] + "\\n")
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(1)
""")


def pieces(secret: str, n: int = 8) -> list[str]:
    return [secret[i : i + n] for i in range(len(secret) - n + 1)]


def assert_clean(text: str, secret: str = SECRET) -> None:
    leaked = [p for p in pieces(secret) if p in text]
    assert not leaked, f"secret leaked ({leaked[:3]}):\n{text[:2000]}"


def every_output(capsys, tmp: Path) -> dict[str, str]:
    """`snapshot` (its file and its stderr) and `check` in every format (stdout + stderr)."""
    outs: dict[str, str] = {}
    capsys.readouterr()
    rc = main(["snapshot", "--out", str(tmp / "snap.json")])
    err = capsys.readouterr().err
    assert rc in (0, 3), err
    outs["snapshot file"] = (tmp / "snap.json").read_text()
    outs["snapshot stderr"] = err
    for fmt in ("text", "json", "markdown", "sarif"):
        rc = main(["check", "--format", fmt])
        o, e = capsys.readouterr()
        assert rc == 3, (fmt, o, e)  # the server could not be listed
        outs[f"check {fmt}"] = o + e
    return outs


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "echo_server.py").write_text(ECHO_SERVER)
    monkeypatch.setenv("TOKEN", SECRET)
    monkeypatch.setenv("API_KEY", SECRET)
    monkeypatch.setenv("BIN", f"/nonexistent/{SECRET}/server")
    return tmp_path


def _config(tmp: Path, body: str) -> None:
    (tmp / "mcp-review.toml").write_text("timeout = 20\n\n" + textwrap.dedent(body))


def test_command_from_a_variable_in_a_spawn_error(project, capsys):
    _config(
        project,
        """
        [servers.s]
        command = "${BIN}"
    """,
    )
    outs = every_output(capsys, project)
    assert "spawn-failed" in outs["check json"] and "cannot start" in outs["check text"]
    for where, text in outs.items():
        assert_clean(text), where


def test_args_secret_in_a_stderr_tail_cut_inside_the_secret(project, capsys):
    py = json.dumps(sys.executable)
    _config(
        project,
        f"""
        [servers.s]
        command = {py}
        args = ["echo_server.py", "stderr", "${{TOKEN}}"]
    """,
    )
    outs = every_output(capsys, project)
    assert "with ***yyy" in outs["check text"]  # the tail is there, the secret is not
    # The server's own stderr log on disk is scrubbed line by line too: the line is there,
    # with the secret replaced.
    logs = list((project / ".mcp-review" / "logs").glob("*.log"))
    assert any("starting with ***yyy" in p.read_text(errors="replace") for p in logs)
    for p in logs:
        assert_clean(p.read_text(errors="replace"))
    for where, text in outs.items():
        assert_clean(text), where


def test_env_secret_printed_on_stdout_and_quoted_cut(project, capsys):
    py = json.dumps(sys.executable)
    _config(
        project,
        f"""
        [servers.s]
        command = {py}
        args = ["echo_server.py", "stdout", "x"]
        env = {{ API_KEY = "${{API_KEY}}" }}
    """,
    )
    outs = every_output(capsys, project)
    # pydantic shortens the line itself ('AAAA...t-9f4c1a7e…'): the fragment is scrubbed too.
    assert "printed non-JSON on stdout" in outs["check text"] and "AAA...***'" in outs["check text"]
    for where, text in outs.items():
        assert_clean(text), where


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_url_secrets_in_connection_errors(project, capsys, monkeypatch):
    monkeypatch.setenv("URL_TOKEN", SECRET)
    _config(
        project,
        f"""
        [servers.s]
        url = "http://127.0.0.1:{_closed_port()}/${{URL_TOKEN}}/mcp"
    """,
    )
    outs = every_output(capsys, project)
    assert "cannot connect to http://127.0.0.1:" in outs["check text"]
    for where, text in outs.items():
        assert_clean(text), where


def test_url_userinfo_and_query_in_an_http_401(project, capsys, monkeypatch):
    monkeypatch.setenv("PW", SECRET)
    ts = ToolServer([tool("t", "d")])
    with serve_http(ts.http_app(token="the-right-token-123")) as url:
        base = url.replace("http://", "")
        _config(
            project,
            f"""
            [servers.s]
            url = "http://bob:${{PW}}@{base}?api_key=${{PW}}"
        """,
        )
        outs = every_output(capsys, project)
    assert "HTTP 401" in outs["check text"]
    for where, text in outs.items():
        assert_clean(text), where


# What is scrubbed, and what is not -------------------------------------------------------------


def test_scrubbing_is_by_value_and_spares_ordinary_words(tmp_path, monkeypatch):
    (tmp_path / "mcp-review.toml").write_text(
        textwrap.dedent("""
        [servers.s]
        command = "${BIN}"
        args = ["--mode", "${MODE}", "--level", "${LEVEL}", "--key", "${KEY}"]
        env = { NODE_ENV = "production", DEBUG = "1" }
    """)
    )
    cfg = load_config(
        tmp_path / "mcp-review.toml",
        environ={"BIN": "/opt/tools/srv", "MODE": "production", "LEVEL": "dev", "KEY": SECRET},
    )
    s = cfg.servers[0]
    msg = (
        f"cannot start '/opt/tools/srv' in production mode at level dev: the key "
        f"{SECRET!r} / {json.dumps(SECRET)} was refused; production is up"
    )
    out = s.scrub(msg)
    assert SECRET not in out and "/opt/tools/srv" not in out
    assert "production mode" in out and "level dev" in out and "production is up" in out
    assert s.display_target == "***" and "/opt" not in repr(s)


def test_a_secret_with_quotes_is_scrubbed_in_its_quoted_forms():
    tricky = "pa'ss\"wo\\rd-77"
    s = ServerConfig(name="s", command="x", expanded=(tricky,))
    for quoted in (repr(tricky), json.dumps(tricky), tricky):
        assert "wo" not in s.scrub(f"argument {quoted} rejected")


# Call-log redaction ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        "auth",
        "pwd",
        "pass",
        "jwt",
        "ssh_key",
        "session_id",
        "privkey",
        "sessionId",
        "APIKey",
        "x-api-key",
        "clientSecret",
        "access_token",
        "Authorization",
        "db-password",
        "privKey",
    ],
)
def test_secret_key_names_by_whole_segment(key):
    assert Redactor()({key: "v", "n": 1}) == {key: REDACTED, "n": 1}


@pytest.mark.parametrize(
    "key",
    [
        "author",
        "compass",
        "passport",
        "max_tokens",
        "prompt_tokens",
        "tokenCount",
        "keyboard",
        "secretary",
        "oauth_provider",
        "bypass",
        "session",
        "key",
    ],
)
def test_ordinary_key_names_are_kept(key):
    assert Redactor()({key: "value"}) == {key: "value"}


JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"


@pytest.mark.parametrize(
    "text, kept",
    [
        (f"use {JWT} for this", "use [REDACTED] for this"),
        (f"key:\n{PEM}\nend", "key:\n[REDACTED]\nend"),
        (
            "clone https://alice:hunter2hunter2@github.com/a/b",
            "clone https://alice:[REDACTED]@github.com/a/b",
        ),
        (
            "GET https://api.example.com/v1?access_token=abc123&page=2",
            "GET https://api.example.com/v1?access_token=[REDACTED]&page=2",
        ),
        ("token ghp_" + "A1b2C3d4" * 5, "token [REDACTED]"),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED]"),
        ("sk-proj-" + "x" * 40, "[REDACTED]"),
        ("xoxb-123456789012-abcdefABCDEF", "[REDACTED]"),
        ("aws AKIAIOSFODNN7EXAMPLE here", "aws [REDACTED] here"),
        ("glpat-abcdefghij0123456789", "[REDACTED]"),
        ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz", "Authorization: Bearer [REDACTED]"),
    ],
)
def test_secret_values_are_redacted_in_any_string_keeping_the_rest(text, kept):
    assert Redactor()({"q": text}) == {"q": kept}


@pytest.mark.parametrize(
    "text",
    [
        "ask-me-anything",
        "task-list",
        "desk-lamp 2000",
        "https://example.com/a?page=2&q=cats",
        "ssh://git@github.com/a/b",
        "the word eyJ alone",
        "Bearer short",
        "AKIA is a prefix",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    ],
)
def test_ordinary_values_are_replay_evidence_and_kept(text):
    assert Redactor()({"q": text}) == {"q": text}


def test_recorded_call_keeps_its_evidence(tmp_path):
    """A real recording through CallLog: secrets gone, the shape and the rest kept."""
    from mcp_review.store.calllog import CallLog

    log = CallLog(str(tmp_path / "calls.jsonl"), server="s")
    log.record_call(
        "clone",
        {
            "url": "https://bob:hunter2hunter2@git.example/r.git",
            "author": "Ann",
            "auth": {"user": "ann", "pass": "pw"},
            "max_tokens": 5,
            "header": f"Bearer {JWT}",
        },
        rpc_id=1,
    )
    log.close()
    rec = json.loads((tmp_path / "calls.jsonl").read_text())
    assert rec["arguments"] == {
        "url": "https://bob:[REDACTED]@git.example/r.git",
        "author": "Ann",
        "auth": {"user": REDACTED, "pass": REDACTED},
        "max_tokens": 5,
        "header": "Bearer [REDACTED]",
    }


def test_a_planted_call_log_link_is_refused(tmp_path):
    from mcp_review.store.calllog import CallLog

    rc = tmp_path / ".bashrc"
    rc.write_text("# rc\n")
    (tmp_path / "calls.jsonl").symlink_to(rc)
    with pytest.raises(OSError, match="symbolic link"):
        CallLog(str(tmp_path / "calls.jsonl"), server="s")
    assert rc.read_text() == "# rc\n"
