"""Issue 13, CLI: the small things a daily user trips over, each end to end through `main`.

Real files (snapshots, pin files, call logs on disk), a real Streamable HTTP server on
127.0.0.1 and a real refused port for the unreachable one.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import socket
from datetime import datetime
from pathlib import Path

import pytest
from servers.toolserver import ToolServer, serve_http, tool

from mcp_review.cli import build_parser, main
from mcp_review.engine.names import AmbiguousName, escape_name, find_name, suggest, unescape_name
from mcp_review.store.pinfile import load_pins

FIX = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "pins")
V1 = os.path.join(FIX, "snapshot_v1.json")
V2 = os.path.join(FIX, "snapshot_v2.json")

HOMOGLYPH = "r\u0435ad_file"  # Cyrillic е
BROKEN_LINE = "list\nfiles"  # a line break inside a name


def run(capsys, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def usage_error(capsys, *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as ei:
        main(list(argv))
    return int(ei.value.code), capsys.readouterr().err


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --- status and check word an unreachable server the same way ------------------------------


@pytest.fixture(scope="module")
def live():
    ts = ToolServer([tool("search", "Search.", q={"type": "string"})], version="1.0")
    with serve_http(ts.http_app()) as url:
        yield ts, url


@pytest.fixture
def live_project(live, work):
    ts, url = live
    ts.tools = [tool("search", "Search.", q={"type": "string"})]
    (work / "mcp-review.toml").write_text(
        f'timeout = 10\n\n[servers.web]\nurl = "{url}"\n\n'
        f'[servers.gone]\nurl = "http://127.0.0.1:{closed_port()}/mcp"\n'
    )
    assert main(["pin", "-q", "--server", "web"]) == 0
    return ts, work


def _unreachable_lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if "UNREACHABLE" in ln or "unreachable" in ln]


def test_status_and_check_word_an_unreachable_server_the_same(live_project, capsys):
    rc_s, status_out, _ = run(capsys, "status", "-q")
    rc_c, check_out, _ = run(capsys, "check", "-q")
    # Nothing else needs review: both exit 3, the design's "a server could not be reached".
    assert rc_s == rc_c == 3
    s_lines, c_lines = _unreachable_lines(status_out), _unreachable_lines(check_out)
    # The server line: the same words after the server's name.
    s_server = next(ln for ln in s_lines if ln.startswith("UNREACHABLE"))
    c_server = next(ln for ln in c_lines if ln.startswith("gone"))
    assert s_server.startswith("UNREACHABLE  refused: ")
    assert c_server.split(None, 1)[1] == s_server
    # The summary: the same sentence in both.
    phrase = "1 server(s) unreachable (their tools were not checked)"
    assert phrase in status_out and phrase in check_out
    # The verdict word too, in text and JSON.
    assert status_out.rstrip().endswith("status verdict: UNREACHABLE")
    assert check_out.rstrip().splitlines()[-1].startswith("UNREACHABLE: ")
    _, s_json, _ = run(capsys, "status", "-q", "--format", "json")
    _, c_json, _ = run(capsys, "check", "-q", "--format", "json")
    s_doc, c_doc = json.loads(s_json), json.loads(c_json)
    assert s_doc["verdict"] == c_doc["verdict"] == "UNREACHABLE"
    assert s_doc["exit_code"] == c_doc["exit_code"] == 3


def test_pin_warning_gives_the_reason_in_words(live_project, capsys):
    rc, _, err = run(capsys, "pin", "-q")
    assert rc == 3
    line = next(ln for ln in err.splitlines() if "could not be read" in ln)
    assert "(refused: cannot connect to http://127.0.0.1:" in line
    assert "{" not in line and "'kind'" not in line  # not a Python dict


# --- skipped log lines and bad recordings in text ----------------------------------------------


def test_skipped_lines_and_bad_recordings_are_in_text(work, capsys):
    assert main(["pin", "-q", "--snapshot", V1]) == 0
    log = work / "calls.jsonl"
    log.write_text(
        '{"tool": "delete_file", "arguments": {"path": "/tmp/a"}}\n'
        "this line is not JSON\n"
        '{"tool": "delete_file", "arguments": {"path": 5}}\n'  # invalid under the pinned schema
        '{"tool": "delete_file", "arguments" \n'
    )
    calls = f"files={log}"
    _, status_out, _ = run(capsys, "status", "--snapshot", V2, "--calls", calls)
    _, check_out, _ = run(capsys, "check", "--from-snapshot", V2, "--calls", calls)
    skipped = f"2 line(s) in {log} are not valid JSON and were skipped (line 2, 4)"
    assert skipped in status_out
    assert skipped in check_out
    # The bad recording: counted in the replay line of status --verbose (the default text is
    # one line per decision), said in words by check.
    assert "bad recording" not in status_out
    _, status_out, _ = run(capsys, "status", "--snapshot", V2, "--calls", calls, "--verbose")
    assert skipped in status_out
    assert "1 bad recording(s) (invalid under the pinned schema too)" in status_out
    assert "1 bad recording(s): invalid under the pinned schema too" in check_out
    # And the JSON agrees with the words.
    _, s_json, _ = run(capsys, "status", "--snapshot", V2, "--calls", calls, "--format", "json")
    doc = json.loads(s_json)
    assert doc["servers"][0]["calls"]["skipped"] == 2
    delete = next(t for t in doc["tools"] if t["tool"] == "delete_file")
    assert delete["comparison"]["replay"]["bad_recordings"] == 1


# --- help ---------------------------------------------------------------------------------------


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_top_level_help_is_written_for_users(capsys):
    with pytest.raises(SystemExit) as ei:
        main(["--help"])
    assert ei.value.code == 0
    out = capsys.readouterr().out
    assert "dispatch" not in out and "``" not in out and "modules" not in out
    assert out.splitlines()[2] == "Review drift in the tools your MCP servers offer."
    for start in ("mcp-review demo", "mcp-review pin", "mcp-review check"):
        assert start in out
    assert "exit codes: 0 pass · 1 drift that fails the gate" in out


def test_every_subcommand_help_ends_with_an_example(capsys):
    subs = _subparsers()
    assert {"check", "status", "approve", "deny", "watch"} <= set(subs)
    for name, sub in subs.items():
        text = sub.format_help()
        tail = text.rstrip().splitlines()[-2:]
        assert tail[0] == "example:", (name, text[-300:])
        # The example runs this very command.
        assert (
            tail[1].strip().startswith(f"mcp-review {name}" if name != "review" else "mcp-review")
        ), (name, tail)
        # ...and parses: every flag in it is one the command knows.
        argv = [
            a.strip("'\"") for a in re.findall(r"'[^']*'|\"[^\"]*\"|\S+", tail[1].split(">>")[0])
        ][1:]
        if argv and argv[0] != name:
            argv = [name, *argv]
        build_parser().parse_args(argv)


def test_the_proxys_one_line_help_names_every_form_it_takes():
    """A user with a remote server reads `mcp-review --help` and `proxy --help`: the line said
    "stdio pass-through", so a Streamable HTTP server (`--url`, a config `url`) and the HTTP
    front (`--listen`) looked unsupported."""
    top = build_parser().format_help()
    flat = " ".join(top.split())  # the line wraps
    line = flat[flat.index(" proxy ") : flat.index(" login ")]
    text = _subparsers()["proxy"].format_help()
    for help_text in (line, text):
        assert "stdio pass-through" not in help_text
        assert "remote" in help_text and "--listen" in help_text, help_text[:400]


def test_a_bad_flag_prints_the_subcommands_usage(capsys):
    for name in _subparsers():
        code, err = usage_error(capsys, name, "--no-such-flag")
        assert code == 2, name
        assert err.startswith(f"usage: mcp-review {name} "), (name, err[:200])
        # (a command with a required argument names that first: still its own error)
        assert f"mcp-review {name}: error: " in err
    code, err = usage_error(capsys, "status", "--no-such-flag")
    assert "mcp-review status: error: unrecognized arguments: --no-such-flag" in err
    # With no command given, the app's own usage (the default command).
    code, err = usage_error(capsys, "--no-such-flag")
    assert code == 2 and err.startswith("usage: mcp-review review ")


# --- "Did you mean …?" ---------------------------------------------------------------------


def test_did_you_mean_for_a_mistyped_server(work, capsys):
    rc, _, err = run(capsys, "status", "--snapshot", V1, "--server", "fles")
    assert rc == 2 and "Did you mean 'files'?" in err
    rc, _, err = run(capsys, "approve", "fles", "search", "--snapshot", V1)
    assert rc == 2 and "Did you mean 'files'?" in err
    # Nothing close: no guess.
    rc, _, err = run(capsys, "approve", "zzzzzz", "search", "--snapshot", V1)
    assert rc == 2 and "Did you mean" not in err


def test_did_you_mean_for_a_mistyped_tool(work, capsys):
    rc, _, err = run(capsys, "approve", "files", "serch", "--snapshot", V1)
    assert rc == 2 and "Did you mean 'search'?" in err
    assert not (work / "mcp-pins.toml").exists()
    assert main(["pin", "-q", "--snapshot", V1]) == 0
    rc, _, err = run(capsys, "deny", "files", "delet_file")
    assert rc == 2 and "Did you mean 'delete_file'?" in err


# --- tool names nobody can type -------------------------------------------------------------


def _hostile_snapshot(path: Path) -> str:
    doc = json.loads(Path(V1).read_text())
    tools = doc["servers"]["files"]["tools"]
    tools.append({**tools[1], "name": HOMOGLYPH})
    tools.append({**tools[1], "name": BROKEN_LINE})
    path.write_text(json.dumps(doc))
    return str(path)


def test_escaped_form_roundtrips():
    for name in (
        HOMOGLYPH,
        BROKEN_LINE,
        "tab\there",
        "back\\slash",
        "emoji\U0001f600",
        "zero\u200bwidth",
        "plain_name",
    ):
        esc = escape_name(name)
        assert esc.isascii() and esc.isprintable(), esc
        assert unescape_name(esc) == name
    assert escape_name(HOMOGLYPH) == "r\\u0435ad_file"
    assert escape_name(BROKEN_LINE) == "list\\nfiles"
    # A name that reads as two tools (exactly, and unescaped) names neither (issue 40 item 5:
    # the exact match used to win, so the command printed for one decided the other).
    with pytest.raises(AmbiguousName) as e:
        find_name("a\\u0041", ["a\\u0041", "aA"])
    assert e.value.matches == ["a\\u0041", "aA"]
    assert find_name("a\\\\u0041", ["a\\u0041", "aA"]) == "a\\u0041"  # its own escaped form
    assert find_name("a\\u0041", ["aA"]) == "aA"
    assert find_name("nope", ["aA"]) is None


def test_reports_show_the_escaped_form_beside_the_name(work, capsys):
    snap = _hostile_snapshot(work / "snap.json")
    _, status_out, _ = run(capsys, "status", "--snapshot", snap)
    _, check_out, _ = run(capsys, "check", "--from-snapshot", snap)
    for out in (status_out, check_out):
        assert "rе⟨U+0435⟩ad_file (as r\\u0435ad_file)" in out
        assert "list⟨LF⟩files (as list\\nfiles)" in out
        # Plain names get no escaped form.
        assert "search (as" not in out


def test_a_hidden_name_is_addressable_by_its_escaped_form(work, capsys):
    snap = _hostile_snapshot(work / "snap.json")
    rc, out, err = run(capsys, "approve", "files", "r\\u0435ad_file", "--snapshot", snap, "--yes")
    assert rc == 0, err
    assert "(as r\\u0435ad_file)" in out
    pins = load_pins("mcp-pins.toml")
    assert pins.get("files", "default", HOMOGLYPH) is not None
    assert pins.get("files", "default", "read_file") is None  # not its twin
    rc, _, err = run(capsys, "deny", "files", "list\\nfiles", "--snapshot", snap)
    assert rc == 0, err
    assert not load_pins("mcp-pins.toml").get("files", "default", BROKEN_LINE).approved


def test_typing_the_twin_suggests_the_look_alike(work, capsys):
    doc = json.loads(Path(V1).read_text())
    doc["servers"]["files"]["tools"][1]["name"] = HOMOGLYPH  # only the look-alike is served
    (work / "snap.json").write_text(json.dumps(doc))
    rc, _, err = run(capsys, "approve", "files", "read_file", "--snapshot", "snap.json")
    assert rc == 2
    assert "Did you mean 'rе⟨U+0435⟩ad_file' (as r\\u0435ad_file)?" in err
    assert suggest("read_file", [HOMOGLYPH, "search"]) == [HOMOGLYPH]


# --- watch ---------------------------------------------------------------------------------


def test_watch_json_uses_iso_timestamps_and_text_prints_no_none_outcome():
    from mcp_review.commands.watch import DriftPrinter
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, PinFile, make_pin
    from mcp_review.engine.snapshot import ServerSnapshot
    from mcp_review.services.watch import Update

    a1 = tool("a", q={"type": "string"})
    a2 = tool("a", "a tool that now says something else", q={"type": "string"})

    def snap(*tools: dict) -> ServerSnapshot:
        return ServerSnapshot(
            "web", tools=[ToolDef.from_wire(t) for t in tools], protocol_version="2026-07-28"
        )

    pins = PinFile()
    pins.decide(make_pin("web", ToolDef.from_wire(a1), Decision.APPROVED))
    for fmt in ("json", "text"):
        out = io.StringIO()
        p = DriftPrinter(pins, {}, fmt, "review", out)
        p(Update("web", "connected", snap(a1), 1_700_000_000.25))
        p(Update("web", "list-changed", snap(a2), 1_700_000_001.0))
        p(Update("web", "list-changed", snap(a1), 1_700_000_002.0))  # back to the pinned one
        text = out.getvalue()
        if fmt == "json":
            lines = [json.loads(x) for x in text.splitlines()]
            assert lines[0]["at"] == "2023-11-14T22:13:20.250Z"
            for x in lines:
                assert datetime.fromisoformat(x["at"].replace("Z", "+00:00")).tzinfo
            assert [(x.get("tool"), x.get("status")) for x in lines[1:]] == [
                ("a", "changed"),
                ("a", "pinned"),
            ]
        else:
            lines = text.splitlines()
            assert "CHANGED a  [review]" in lines[1]
            assert lines[2].endswith("PINNED a")  # pinned again: no "[none]"
            assert "[none]" not in text


def test_watch_says_how_it_will_notice_changes(live_project, capsys):
    # The start line is written before the first fetch: a short run says it.
    rc, _, err = run(capsys, "watch", "--server", "web", "--duration", "1", "--interval", "30")
    assert rc == 0, err
    start = next(ln for ln in err.splitlines() if ln.startswith("watch: "))
    assert "notifications/tools/list_changed" in start and "ttlMs" in start
    assert "every 30 s (--interval)" in start
    from mcp_review.commands.watch import how_it_notices

    assert "no --interval" in how_it_notices(None)
    code, err = usage_error(capsys, "watch", "--interval", "nope")
    assert code == 2
    rc, _, err = run(capsys, "watch", "--interval", "0")
    assert rc == 2 and "--interval must be positive" in err


def test_diff_and_forget_take_the_escaped_form_and_suggest(work, capsys):
    snap = _hostile_snapshot(work / "snap.json")
    assert main(["pin", "-q", "--snapshot", snap, "--yes"]) == 0
    assert load_pins("mcp-pins.toml").get("files", "default", HOMOGLYPH) is not None
    rc, out, err = run(capsys, "diff", "files", "r\\u0435ad_file", "--snapshot", snap)
    assert rc == 0, err
    # The look-alike's own diff, its letter marked and its escaped form beside it.
    assert out.startswith("files/default/rе⟨U+0435⟩ad_file (as r\\u0435ad_file): pinned")
    rc, _, err = run(capsys, "diff", "files", "serch", "--snapshot", snap)
    assert rc == 2 and "Did you mean 'search'?" in err
    rc, _, err = run(capsys, "forget", "fles", "search")
    assert rc == 2 and "Did you mean 'files'?" in err
    rc, _, err = run(capsys, "forget", "files", "list\\nfiles")
    assert rc == 0, err
    pins = load_pins("mcp-pins.toml")
    assert pins.get("files", "default", BROKEN_LINE) is None
    assert pins.get("files", "default", HOMOGLYPH) is not None  # only the one named went


@pytest.mark.parametrize("verb", ["approve", "deny"])
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--except", "a/b", "s", "t"], "--except leaves a member out of a --group"),
        ([], "name a SERVER and a TOOL, or a --group"),
        (["s"], "name a TOOL, or use --instructions (not both)"),
        (["s", "t", "--instructions"], "name a TOOL, or use --instructions (not both)"),
    ],
)
def test_approve_and_deny_say_what_target_is_missing(tmp_path, verb, args, says):
    """approve and deny check their target the same way (services.inputs.check_one_target):
    exit 2 with the same words, before any file is read."""
    from helpers import run_cli

    proc = run_cli([verb, *args], cwd=tmp_path)
    assert proc.returncode == 2
    assert says in proc.stderr
    assert list(tmp_path.iterdir()) == []
