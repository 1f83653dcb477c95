"""Issue 10 items 4, 5, 6: no server-written text reaches a terminal, Markdown or SARIF raw.

Every headless command runs against hostile servers (tests/servers/hostile.py, over stdio and
Streamable HTTP on 127.0.0.1) whose names, descriptions, property names, error messages, stderr,
serverInfo and protocol version carry ESC sequences, OSC 52, C1 controls, bidi and TAG
characters, line breaks with a forged ``PASS`` line, HTML and Markdown link syntax.

Two guarantees are checked separately. The commands' own output paths are clean: the terminal
guard (formats/terminal.py) is replaced by a checker that fails the test if it would have had
anything to change. And the real guard, in a real subprocess, leaves no ESC, C1 or bidi byte on
stdout or stderr.
"""

from __future__ import annotations

import html.parser
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import demo_runs
import pytest
from helpers import stdio_server_argv
from servers.hostile import HOSTILE, HOSTILE_NAMES, hostile_http_app
from servers.proxy_harness import mcp_review_argv
from servers.toolserver import serve_http

from mcp_review.cli import main
from mcp_review.engine.hidden import terminal_guard

SERVERS = Path(__file__).parent.parent / "servers"
HOSTILE_PY = SERVERS / "hostile.py"

# What must never be on a terminal: ESC, other C0 but tab/newline, DEL, C1, bidi, TAG, LS/PS.
FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u2028\u2029\ud800-\udfff\U000e0000-\U000e007f]"
)


def assert_inert(text: str, where: str) -> None:
    m = FORBIDDEN.search(text)
    assert m is None, (
        f"{where}: raw U+{ord(m.group()):04X} at {m.start()}: {text[max(0, m.start() - 60) : m.start() + 20]!r}"
    )


@pytest.fixture(scope="module")
def http_urls():
    with (
        serve_http(hostile_http_app("tools")) as tools_url,
        serve_http(hostile_http_app("error")) as error_url,
        serve_http(hostile_http_app("badproto")) as proto_url,
    ):
        yield {"tools": tools_url, "error": error_url, "badproto": proto_url}


def write_config(root: Path, http: dict[str, str]) -> Path:
    def stdio(name: str, mode: str) -> str:
        return (
            f"[servers.{name}]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = {json.dumps(stdio_server_argv(HOSTILE_PY, mode)[1:])}\n"
        )

    text = "timeout = 20\n\n" + "\n".join(
        [
            stdio("evil", "tools"),
            stdio("errs", "error"),
            stdio("crash", "crash"),
            stdio("proto", "badproto"),
            f'[servers.webevil]\nurl = "{http["tools"]}"\n',
            f'[servers.weberrs]\nurl = "{http["error"]}"\n',
            f'[servers.webproto]\nurl = "{http["badproto"]}"\n',
        ]
    )
    path = root / "mcp-review.toml"
    path.write_text(text)
    return path


class StrictGuard:
    """Stands in for the terminal guard: records every chunk the guard would have changed."""

    def __init__(self) -> None:
        self.leaks: list[str] = []

    def __call__(self, text: str) -> str:
        if terminal_guard(text) != text:
            self.leaks.append(text)
        return text


@pytest.fixture
def project(tmp_path: Path, http_urls, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    write_config(tmp_path, http_urls)
    guard = StrictGuard()
    monkeypatch.setattr("mcp_review.formats.terminal.terminal_guard", guard)
    return tmp_path, guard


def run(capfd: pytest.CaptureFixture, guard: StrictGuard, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capfd.readouterr()
    # Checked with the guard out of the way: the command itself wrote nothing active.
    assert not guard.leaks, f"{argv}: output path not sanitised: {guard.leaks[0][:300]!r}"
    assert_inert(out, f"{argv} stdout")
    assert_inert(err, f"{argv} stderr")
    return rc, out, err


def forged_lines(text: str) -> list[str]:
    """Lines that start with a verdict word but are not the command's own verdict line."""
    return [ln for ln in text.splitlines() if ln.lstrip().startswith("PASS: 0 pinned")]


def stop_watch_when_each_was_seen(monkeypatch: pytest.MonkeyPatch, names: set[str]) -> None:
    """`watch` (the real command, printer and services.watch.watch_all) ends as soon as each of
    ``names`` has been reported once (connected, or its error), the way --duration ends it (its
    cancel scope exits; the exit code is computed as after --duration), instead of idling until
    a fixed --duration ran out: first sight is what is checked here, and what watch prints after
    it (retries of the failing server) is more of the same. --duration itself is tested in
    tests/e2e/test_cli_polish.py and tests/services/test_inputs.py."""
    import anyio

    import mcp_review.services.watch as watch_service

    real = watch_service.watch_all

    async def watch_all(configs: Any, on_update: Any, **kw: Any) -> None:
        pending = set(names)
        with anyio.CancelScope() as scope:

            def seen(u: Any) -> Any:
                r = on_update(u)
                pending.discard(u.server)
                if not pending:
                    scope.cancel()
                return r

            await real(configs, seen, **kw)

    monkeypatch.setattr(watch_service, "watch_all", watch_all)


@pytest.mark.slow
def test_every_headless_command_against_hostile_servers(project, capfd, monkeypatch):
    """Item 4 + 6: snapshot, check (4 formats), status, pin, approve, deny, watch, classify,
    gate — stdio and HTTP servers — no ESC/C1/bidi on stdout or stderr, no forged line."""
    root, guard = project
    rc, out, err = run(capfd, guard, "snapshot", "-o", "snap.json")
    assert rc == 3
    # The failures were reported (quoting the server, inertly), not swallowed.
    for name in ("errs", "crash", "proto", "weberrs", "webproto"):
        assert f"  {name}: " in err
    assert "⟨ESC⟩]52;c;ZXZpbA==⟨BEL⟩" in err  # the OSC 52 write is shown as evidence
    snap = json.loads((root / "snap.json").read_text())
    served = {t["name"] for t in snap["servers"]["evil"]["tools"]}
    assert served == set(HOSTILE_NAMES)  # JSON keeps the exact names (as \u escapes)
    assert snap["servers"]["evil"]["server_info"]["version"] == HOSTILE
    assert "\x1b" not in (root / "snap.json").read_text()

    texts: list[str] = []
    for fmt in ("text", "json", "markdown", "sarif"):
        rc, out, err = run(capfd, guard, "check", "--format", fmt)
        assert rc == 1, (fmt, err)
        texts.append(out)
        if fmt == "json":
            doc = json.loads(out)
            assert {t["tool"] for t in doc["tools"] if t["server"] == "evil"} == set(HOSTILE_NAMES)
            errors = {s["server"]: s["error"] for s in doc["servers"] if s["error"]}
            # data kept exactly (as \u escapes), up to the first line break
            assert HOSTILE.split("\x85")[0] in errors["errs"]["message"]
    check_text = texts[0]
    assert "UNREACHABLE  protocol-error" in check_text
    assert not forged_lines(check_text)
    assert check_text.rstrip().splitlines()[-1].startswith("FAIL: ")
    rc, out, _ = run(capfd, guard, "check", "--from-snapshot", "snap.json")
    assert rc == 1 and not forged_lines(out)

    for fmt in ("text", "json"):
        rc, out, _ = run(capfd, guard, "status", "--snapshot", "snap.json", "--format", fmt)
        assert rc == 1
        if fmt == "text":
            assert not forged_lines(out)
            assert out.rstrip().splitlines()[-1] == "status verdict: FAIL"
    rc, out, _ = run(capfd, guard, "pin", "--snapshot", "snap.json", "--yes")
    assert rc == 3 and "decision(s) written" in out and not forged_lines(out)
    rc, out, _ = run(
        capfd,
        guard,
        "deny",
        "evil",
        HOSTILE_NAMES[1],
        "--snapshot",
        "snap.json",
        "--format",
        "json",
    )
    assert rc == 0 and json.loads(out)["decisions"][0]["tool"] == HOSTILE_NAMES[1]
    rc, out, _ = run(
        capfd, guard, "approve", "evil", HOSTILE_NAMES[1], "--snapshot", "snap.json", "--yes"
    )
    assert rc == 0 and not forged_lines(out)
    rc, out, _ = run(capfd, guard, "status", "--snapshot", "snap.json", "--all")
    assert not forged_lines(out)

    # The same decisions live (fetching the hostile servers again), in both formats.
    (root / "mcp-pins.toml").unlink()
    for fmt in ("text", "json"):
        rc, out, _ = run(capfd, guard, "status", "--format", fmt)
        assert rc == 1 and not forged_lines(out)
    rc, out, _ = run(capfd, guard, "pin", "--yes", "--server", "evil", "--server", "webevil")
    assert rc == 0 and "decision(s) written" in out and not forged_lines(out)
    rc, out, _ = run(capfd, guard, "deny", "webevil", HOSTILE_NAMES[0], "--format", "json")
    assert rc == 0 and json.loads(out)["decisions"][0]["tool"] == HOSTILE_NAMES[0]
    rc, out, _ = run(capfd, guard, "approve", "webevil", HOSTILE_NAMES[0], "--yes")
    assert rc == 0 and not forged_lines(out)

    # watch: connects, prints first sight of each server, stops: once all three were reported
    # (stop_watch_when_each_was_seen), --duration only a cap should a server never answer.
    (root / "mcp-pins.toml").unlink()
    stop_watch_when_each_was_seen(monkeypatch, {"evil", "webevil", "errs"})
    for fmt in ("text", "json"):
        rc, out, err = run(
            capfd,
            guard,
            "watch",
            "--duration",
            "30",
            "--format",
            fmt,
            "--server",
            "evil",
            "--server",
            "webevil",
            "--server",
            "errs",
        )
        assert "evil" in out and not forged_lines(out)
        if fmt == "json":
            events = [json.loads(ln) for ln in out.splitlines()]
            assert {e.get("tool") for e in events} >= set(HOSTILE_NAMES)

    # classify and gate on the hostile definitions as files.
    tools = {t["name"]: t for t in snap["servers"]["evil"]["tools"]}
    old = dict(tools[HOSTILE_NAMES[0]])
    new = json.loads(json.dumps(old))
    new["inputSchema"]["required"] = [f"path{HOSTILE}"]
    (root / "old.json").write_text(json.dumps(old))
    (root / "new.json").write_text(json.dumps(new))
    (root / "calls.jsonl").write_text(json.dumps({"q": HOSTILE}) + "\n")
    for fmt in ("text", "json"):
        rc, out, _ = run(capfd, guard, "classify", "old.json", "new.json", "--format", fmt)
        assert rc == 0
        rc, out, _ = run(
            capfd, guard, "gate", "old.json", "new.json", "calls.jsonl", "--format", fmt
        )
        assert rc == 1 and not forged_lines(out)


@pytest.mark.slow
def test_the_real_guard_in_a_subprocess(project):
    """Item 4, end to end: the bytes a terminal would receive from `check` and `snapshot`.

    `check` runs as a fresh `python -m mcp_review` (the interpreter's own start: its stdout and
    stderr streams as a user's shell gets them); `snapshot -o -` and `check --format markdown`
    run as `python -m mcp_review` forked warm from the zygote (tests/servers/zygote.py: a
    separate process on real pipes, with the same environment, whose streams the interpreter
    set up the same way), which spares them only the ~1 s of imports each."""
    root, _ = project
    for argv, cold in (
        (["snapshot", "-o", "-"], False),
        (["check"], True),
        (["check", "--format", "markdown"], False),
    ):
        cmd = mcp_review_argv(*argv, warm=not cold)
        p = subprocess.run(cmd, cwd=root, capture_output=True, timeout=120)
        for stream, data in (("stdout", p.stdout), ("stderr", p.stderr)):
            text = data.decode("utf-8")  # strict: every byte is valid UTF-8
            assert_inert(text, f"{argv} {stream}")
            assert b"\x1b" not in data and b"\xc2\x9b" not in data and b"\xc2\x85" not in data
        assert p.returncode in (1, 3), p.stderr[-500:]


# --- Markdown and SARIF (item 5) -------------------------------------------------------------


class _Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text += data


def render_markdown(md: str) -> _Tags:
    """GitHub-flavoured rendering (tables, autolinks, raw HTML allowed) by markdown-it-py."""
    from markdown_it import MarkdownIt

    html_out = MarkdownIt("gfm-like", {"html": True}).render(md)
    p = _Tags()
    p.feed(html_out)
    return p


OUR_TAGS = {"h2", "p", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "strong"}


@pytest.mark.slow
def test_markdown_summary_renders_no_server_html_or_links(project, capfd):
    """Item 5: the job summary, rendered as GitHub would, has only our own tags: no <img>, no
    link, no closed <details>; the hostile text is shown as text."""
    _root, guard = project
    rc, md, _ = run(capfd, guard, "check", "--format", "markdown")
    assert rc == 1
    rendered = render_markdown(md)
    tags = {t for t, _ in rendered.tags}
    assert tags <= OUR_TAGS, tags - OUR_TAGS
    assert all(not attrs for _, attrs in rendered.tags)
    # Every table row kept its columns: a `|` in a name did not add a cell.
    for line in md.splitlines():
        if line.startswith("| ") and "evil/" in line:
            assert line.count("|") - line.count("\\|") == 6, line
    # Shown, not hidden: the payload is readable text in the rendered page.
    assert "</summary></details><img src=x onerror=alert(1)>" in rendered.text
    assert "[click](https://evil.example)" in rendered.text
    assert rendered.text.count("<details>") == 0


_LIVE_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


@pytest.mark.slow
def test_sarif_messages_are_inert(project, capfd):
    """Item 5: SARIF message texts carry no raw bidi/TAG/ANSI and no embedded link."""
    _root, guard = project
    _rc, out, _ = run(capfd, guard, "check", "--format", "sarif")
    doc = json.loads(out)
    results = doc["runs"][0]["results"]
    assert len(results) >= 6
    for r in results:
        text = r["message"]["text"]
        assert_inert(text, "sarif message")
        assert not _LIVE_LINK.search(text), text
        assert re.fullmatch(r"[a-z0-9-]+", r["ruleId"]), r["ruleId"]
    texts = " ".join(r["message"]["text"] for r in results)
    assert "\\[click\\](https://evil.example)" in texts
    assert "⟨RLO U+202E⟩" in texts and "⟨TAG A⟩" in texts


def test_snapshot_error_kind_and_protocol_version_are_sanitised(tmp_path, capfd, monkeypatch):
    """Item 4: a snapshot file (hand-made or hostile) with an ESC in an error kind and a
    protocol version: every format of check and status shows it inertly; SARIF rule ids are ours."""
    monkeypatch.chdir(tmp_path)
    guard = StrictGuard()
    monkeypatch.setattr("mcp_review.formats.terminal.terminal_guard", guard)
    snap = {
        "format": "mcp-review-snapshot",
        "version": 1,
        "taken_at": "2026-01-01T00:00:00Z",
        "servers": {
            "down": {
                "principal": "default",
                "tools": [],
                "error": {"kind": HOSTILE, "message": HOSTILE},
            },
            "up": {
                "principal": "default",
                "protocol_version": HOSTILE,
                "server_info": {"name": HOSTILE, "version": HOSTILE},
                "tools": [{"name": n, "inputSchema": {"type": "object"}} for n in HOSTILE_NAMES],
            },
        },
    }
    (tmp_path / "snap.json").write_text(json.dumps(snap))
    for fmt in ("text", "json", "markdown", "sarif"):
        rc, out, _ = run(capfd, guard, "check", "--from-snapshot", "snap.json", "--format", fmt)
        assert rc == 1
        if fmt == "sarif":
            rules = {r["ruleId"] for r in json.loads(out)["runs"][0]["results"]}
            assert "server-error" in rules
        if fmt == "markdown":
            assert {t for t, _ in render_markdown(out).tags} <= OUR_TAGS
    for fmt in ("text", "json"):
        rc, out, _ = run(capfd, guard, "status", "--snapshot", "snap.json", "--format", fmt)
        assert rc == 1


@pytest.mark.slow
def test_proxy_diagnostics_are_inert_and_its_server_log_bounded(tmp_path):
    """The proxy's stdout stays the server's JSON-RPC (never rewritten); its stderr (what MCP
    clients keep as the server's log) gets the guard; the server's stderr log is capped."""
    log = tmp_path / "srv.stderr.log"
    msgs = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": HOSTILE_NAMES[0], "arguments": {}},
        },
    ]
    env = {
        "MCP_REVIEW_FLOOD_BYTES": str(3 << 20),
        "PATH": "/usr/bin:/bin",
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    for mode in ("tools", "stderrflood"):
        p = subprocess.run(
            [
                sys.executable,
                "-m",
                "mcp_review",
                "proxy",
                "--enforce",
                "--name",
                "evil",
                "--pins",
                str(tmp_path / "none.toml"),
                "--no-log",
                "--server-log",
                str(log),
                "--",
                sys.executable,
                str(HOSTILE_PY),
                mode,
            ],
            input="".join(json.dumps(m) + "\n" for m in msgs).encode(),
            cwd=tmp_path,
            capture_output=True,
            timeout=120,
            env=env,
        )
        replies = [json.loads(ln) for ln in p.stdout.splitlines()]
        assert [r.get("id") for r in replies] == [1, 2, 3], p.stderr[-500:]
        assert replies[1]["result"]["tools"] == []  # nothing pinned: every tool withheld
        assert "error" in replies[2]
        err = p.stderr.decode("utf-8")
        assert "withheld" in err and "refused" in err
        assert_inert(err, f"proxy {mode} stderr")
    assert log.stat().st_size <= (1 << 20)
    assert "stderr cut at" in log.read_text(errors="replace")


@pytest.mark.slow
@pytest.mark.xdist_group(demo_runs.GROUP)
def test_demo_headless_output_paths_are_clean():
    """demo --headless (its bundled servers smuggle TAG text, zero-width and homoglyphs): every
    format's output is clean before the guard, as for the other commands.

    The runs are tests/demo_runs.py's, shared with test_demo (the costliest command, once per
    format): a real `python -m mcp_review demo --headless` whose terminal guard records every
    chunk it had to change, as StrictGuard does in this process."""
    for args in ((), ("--format", "json")):
        p = demo_runs.headless(*args)
        # Checked as run() checks a command in this process: nothing the guard had to change.
        assert not p.leaks, f"{args}: output path not sanitised: {p.leaks[0][:300]!r}"
        assert_inert(p.stdout, f"demo {args} stdout")
        assert_inert(p.stderr, f"demo {args} stderr")
        assert p.returncode == 0 and "lint_file" in p.stdout
