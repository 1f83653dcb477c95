"""Secrets a server echoes back never reach mcp-review's own outputs (issue 10 item 8, loose
ends): the proxy's log (MCP clients keep its stderr as the server's log file), and what the
server says about itself (serverInfo, error messages) in snapshots, pin files,
audit logs and every report format.

The server (tests/servers/echo_secret.py, a real stdio process) gets its token as an argument
and in its environment and pushes both back on every channel it has. Every output is then
searched for any 8-character piece of each secret; each test also checks that the server really
echoed the secret where an attacker would see it (the control).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from servers.proxy_harness import RawClient

from mcp_review.cli import main

ECHO = Path(__file__).parent.parent / "servers" / "echo_secret.py"
ARG_SECRET = "argtok-5b1e9c0d7a3f2e46-ZpQw"
ENV_SECRET = "envtok-c83a0f9e1d6b2475-LmNr"
SECRETS = (ARG_SECRET, ENV_SECRET)


def pieces(secret: str, n: int = 8) -> list[str]:
    return [secret[i : i + n] for i in range(len(secret) - n + 1)]


def leaks(text: str) -> list[str]:
    return [p for s in SECRETS for p in pieces(s) if p in text]


def assert_clean(text: str, where: str) -> None:
    found = leaks(text)
    assert not found, f"{where}: secret leaked ({found[:3]}):\n{text[:3000]}"


def _session(c: RawClient) -> list[bytes]:
    """initialize, tools/list, an unknown method, a ping; what the client received."""
    c.initialize()
    c.request("tools/list")
    c.request("resources/list")
    c.request("ping")
    assert c.close() == 0
    return c.all


# --- the proxy's log ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("enforce", [False, True])
def test_proxy_log_never_shows_a_secret_given_after_double_dash(tmp_path: Path, enforce: bool):
    """`proxy -- CMD --api-key X` with the client's `API_KEY` in the environment: the server
    echoes both on stdout as noise (logged by the proxy), in serverInfo and in errors."""
    flags = (
        ("--enforce", "--pins", str(tmp_path / "none.toml"), "--name", "echo")
        if enforce
        else ("--name", "echo")
    )
    with RawClient(
        tmp_path,
        *flags,
        env={"API_KEY": ENV_SECRET},
        server=[sys.executable, str(ECHO), "noise", "--api-key", ARG_SECRET],
    ) as c:
        got = b"".join(_session(c)).decode()
    log = c.stderr()
    # The control: the server really echoed both, and the proxy logged its noise lines.
    assert ARG_SECRET in got and ENV_SECRET in got
    assert log.count("dropped server stdout line") >= 4
    assert "debug: key=*** env=***" in log
    assert_clean(log, "proxy stderr")
    # The server's own stderr, which the proxy keeps in a log file: the line, scrubbed.
    server_log = (tmp_path / "server.log").read_text()
    assert "starting with key *** and env ***" in server_log
    assert_clean(server_log, "server stderr log")


@pytest.mark.slow
def test_proxy_log_never_shows_a_secret_from_the_config(tmp_path: Path, monkeypatch):
    """A configured server whose args and env come from `${TOKEN}`/`${ENVTOK}`, and one whose
    command does (it cannot start: the proxy says so without the path)."""
    (tmp_path / "mcp-review.toml").write_text(
        textwrap.dedent(f"""
        [servers.echo]
        command = {json.dumps(sys.executable)}
        args = [{json.dumps(str(ECHO))}, "noise", "--api-key", "${{TOKEN}}"]
        env = {{ API_KEY = "${{ENVTOK}}" }}

        [servers.gone]
        command = "/nonexistent/${{TOKEN}}/server"
    """)
    )
    env = {"TOKEN": ARG_SECRET, "ENVTOK": ENV_SECRET}
    cfg = ("--config", str(tmp_path / "mcp-review.toml"))
    with RawClient(tmp_path, "echo", *cfg, env=env, server=None) as c:
        got = b"".join(_session(c)).decode()
    assert ARG_SECRET in got and ENV_SECRET in got
    assert "dropped server stdout line" in c.stderr()
    assert_clean(c.stderr(), "proxy stderr (echo)")
    assert "starting with key ***" in (tmp_path / "server.log").read_text()
    assert_clean((tmp_path / "server.log").read_text(), "server stderr log (echo)")
    (tmp_path / "proxy.log").unlink()
    with RawClient(tmp_path, "gone", *cfg, env=env, server=None) as c:
        assert c.proc.wait(30) == 3
    assert "cannot start" in c.stderr()
    assert_clean(c.stderr(), "proxy stderr (gone)")


@pytest.mark.slow
def test_call_log_and_results_log_never_hold_a_secret_from_the_config(tmp_path: Path):
    """`proxy NAME --record-results`: the client sends the server's own token in arguments
    (in a value and as a key, under names no key pattern calls secret), the server returns both
    secrets in a result (text, a key, nested) and in an error. On disk, the call log and the
    results log hold `***` for each; the client still got them (the relay is untouched)."""
    (tmp_path / "mcp-review.toml").write_text(
        textwrap.dedent(f"""
        [servers.echo]
        command = {json.dumps(sys.executable)}
        args = [{json.dumps(str(ECHO))}, "ok", "--api-key", "${{TOKEN}}", "${{WORKDIR}}"]
        env = {{ API_KEY = "${{ENVTOK}}" }}
    """)
    )
    # A `${VAR}` that is a folder on disk is a path, not a secret: calls naming files under it
    # stay replay evidence (the control for over-scrubbing).
    env = {"TOKEN": ARG_SECRET, "ENVTOK": ENV_SECRET, "WORKDIR": str(tmp_path)}
    cfg = ("--config", str(tmp_path / "mcp-review.toml"), "--record-results")
    with RawClient(tmp_path, "echo", *cfg, env=env, server=None) as c:
        c.initialize()
        c.request("tools/list")
        got = c.request(
            "tools/call",
            {
                "name": "whoami",
                "arguments": {
                    "note": f"use {ARG_SECRET} please",
                    ENV_SECRET: {"deep": [ARG_SECRET[:20]]},
                },
            },
        )
        err = c.request(
            "tools/call", {"name": "nope", "arguments": {"q": str(tmp_path / "notes.txt")}}
        )
        assert c.close() == 0
    # The control: the secrets really travelled both ways through the proxy.
    sent = json.dumps(got)
    assert ARG_SECRET in sent and ENV_SECRET in sent
    assert ARG_SECRET in err["error"]["message"]
    calls = (tmp_path / "calls.jsonl").read_text()
    results = (tmp_path / "calls.jsonl.results.jsonl").read_text()
    assert_clean(calls, "call log")
    assert_clean(results, "results log")
    recs = [json.loads(line) for line in calls.splitlines()]
    assert [r["tool"] for r in recs] == ["whoami", "nope"]
    assert recs[0]["arguments"] == {"note": "use *** please", "***": {"deep": ["***"]}}
    # A call that lost a value can never be rebuilt, so rerun never re-sends it.
    assert recs[0]["redacted"] is True and "redacted" not in recs[1]
    assert recs[1]["arguments"] == {"q": str(tmp_path / "notes.txt")}
    res = [json.loads(line) for line in results.splitlines()]
    assert res[0]["result"]["content"][0]["text"] == "you are *** (env ***)"
    assert res[0]["result"]["structuredContent"]["whoami"] == {"***": "the key", "env": ["***"]}
    assert res[1]["error"]["message"] == "no tools/call for key ***"
    assert_clean(c.stderr(), "proxy stderr")


@pytest.mark.slow
def test_call_log_after_double_dash_scrubs_secret_flags_and_env_but_keeps_evidence(tmp_path: Path):
    """`proxy -- CMD … --api-key X` with `API_KEY` in the environment: both are scrubbed from
    the call log and results log; the server's path and an ordinary word argument (`ok`) are
    not secrets there, so a call naming them is kept as it was sent (replay evidence)."""
    with RawClient(
        tmp_path,
        "--name",
        "echo",
        "--record-results",
        env={"API_KEY": ENV_SECRET},
        server=[sys.executable, str(ECHO), "ok", "--api-key", ARG_SECRET],
    ) as c:
        c.initialize()
        got = c.request("tools/call", {"name": "whoami", "arguments": {"q": ARG_SECRET}})
        plain = {"path": str(ECHO), "mode": "ok please"}
        c.request("tools/call", {"name": "whoami", "arguments": plain})
        assert c.close() == 0
    assert ARG_SECRET in json.dumps(got) and ENV_SECRET in json.dumps(got)  # the control
    calls = (tmp_path / "calls.jsonl").read_text()
    results = (tmp_path / "calls.jsonl.results.jsonl").read_text()
    assert_clean(calls, "call log")
    assert_clean(results, "results log")
    recs = [json.loads(line) for line in calls.splitlines()]
    assert recs[0]["arguments"] == {"q": "***"} and recs[0]["redacted"] is True
    assert recs[1]["arguments"] == plain and "redacted" not in recs[1]


def test_server_stderr_log_scrubs_a_secret_split_across_reads(tmp_path: Path):
    """The copy thread scrubs whole lines: a secret written in two pieces, the first shorter
    than any fragment the scrubber would match alone, is still replaced whole."""
    import os
    import time

    from mcp_review.services.config import ServerConfig
    from mcp_review.services.fetch import ServerStderr

    cfg = ServerConfig("s", command="x", env={"API_KEY": ARG_SECRET})
    sink = open(tmp_path / "s.stderr.log", "a+b")
    err = ServerStderr(sink, scrub=cfg.scrub)
    os.write(err.fileno(), b"token: " + ARG_SECRET[:5].encode())
    time.sleep(0.3)  # the copy thread reads the first piece on its own
    os.write(err.fileno(), ARG_SECRET[5:].encode() + b" ok\nnext line\n")
    assert "token: *** ok" in err.text()
    err.close()
    data = (tmp_path / "s.stderr.log").read_text()
    assert data == "token: *** ok\nnext line\n"
    assert_clean(data, "stderr log")


# --- what the server says about itself ----------------------------------------------------------


@pytest.mark.slow
def test_server_echoing_its_secrets_reaches_no_file_and_no_report(
    tmp_path: Path, capsys, monkeypatch
):
    """serverInfo (name, title, version, description, websiteUrl), stderr, and a `tools/list`
    error quoting the secrets: snapshot, check (four formats), status, pin,
    approve, deny, watch; then every file mcp-review wrote is searched."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOKEN", ARG_SECRET)
    monkeypatch.setenv("ENVTOK", ENV_SECRET)

    def server(name: str, mode: str) -> str:
        return textwrap.dedent(f"""
            [servers.{name}]
            command = {json.dumps(sys.executable)}
            args = [{json.dumps(str(ECHO))}, "{mode}", "--api-key", "${{TOKEN}}"]
            env = {{ API_KEY = "${{ENVTOK}}" }}
        """)

    (tmp_path / "mcp-review.toml").write_text(
        "timeout = 20\n" + server("echo", "ok") + server("broken", "listerror")
    )
    outs: dict[str, str] = {}

    def run(*argv: str) -> int:
        rc = main(list(argv))
        o, e = capsys.readouterr()
        outs[" ".join(argv)] = o + e
        return rc

    assert run("snapshot", "--out", "snap.json") == 3
    snap = json.loads((tmp_path / "snap.json").read_text())
    # The control: the server did answer with its secrets there; they were replaced.
    assert snap["servers"]["echo"]["server_info"]["version"] == "***"
    assert snap["servers"]["echo"]["server_info"]["name"] == "echo-***"
    assert "bad key ***" in snap["servers"]["broken"]["error"]["message"]
    for fmt in ("text", "json", "markdown", "sarif"):
        assert run("check", "--format", fmt) in (1, 3)
    for fmt in ("text", "json"):
        assert run("status", "--format", fmt, "--server", "echo") == 1
    assert run("pin", "--yes", "--server", "echo") == 0
    assert run("deny", "echo", "whoami", "--format", "json") == 0
    assert run("approve", "echo", "whoami", "--yes") == 0
    assert run("status", "--snapshot", "snap.json", "--format", "json") == 3  # broken: down
    # The echo server has no SDK to import (~50 ms to its first answer): 1.5 s sees it.
    assert run("watch", "--duration", "1.5", "--format", "json", "--server", "echo") in (0, 1)
    assert '"server": "echo"' in outs["watch --duration 1.5 --format json --server echo"]
    for where, text in outs.items():
        assert_clean(text, where)
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "mcp-review.toml"]
    names = {p.name for p in written}
    assert {"snap.json", "mcp-pins.toml", "mcp-pins.audit.jsonl", "echo.stderr.log"} <= names
    for p in written:
        assert_clean(p.read_text(errors="replace"), str(p.relative_to(tmp_path)))


def test_double_dash_scrubber_takes_secret_names_and_arguments_only(monkeypatch):
    """Which values `proxy -- CMD` treats as secrets: arguments (not flags, not existing paths;
    the value of `--flag=value`), env values under secret-looking names; not the shell's cwd."""
    from mcp_review.commands.proxy import _argv_scrubber

    monkeypatch.setenv("GITHUB_TOKEN", ENV_SECRET)
    monkeypatch.setenv("PWD", "/home/someone/projects/app")
    monkeypatch.setenv("EDITOR", "/usr/bin/vim-enhanced")
    scrub = _argv_scrubber("srv", ["npx", "--token=" + ARG_SECRET, str(ECHO), "--verbose"])
    assert scrub(f"a {ARG_SECRET} b {ENV_SECRET} c") == "a *** b *** c"
    for kept in (
        "/home/someone/projects/app/.mcp-review",
        str(ECHO),
        "--verbose",
        "/usr/bin/vim-enhanced",
    ):
        assert scrub(f"see {kept}") == f"see {kept}"
    assert scrub("auth ghp_" + "a" * 36) == "auth [REDACTED]"
