"""Upgrade preview (issue 14 item 2): ``[servers.NAME.candidate]`` and ``--candidate``.

Two versions of one local stdio server (tests/servers/toolserver.py, started through a launcher
that records which version ran): the candidate is reviewed against the server's pins, an
approval made while previewing it lands under the server's name and keeps the running
version's, and without ``--candidate`` the candidate never runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest
from helpers import stdio_server_argv
from servers.toolserver import tool

from mcp_review.cli import main
from mcp_review.engine.candidate import ALSO_KEY, PREVIEW_KEY
from mcp_review.store.pinfile import load_pins

SERVERS = Path(__file__).parent.parent / "servers"
V1 = [
    tool("read_file", "Read a file.", path={"type": "string"}),
    tool("list_dir", "List a folder.", path={"type": "string"}),
]
V2 = [
    {
        **tool("read_file", "Read a file."),
        "inputSchema": {
            "type": "object",
            "required": ["path", "encoding"],
            "properties": {"path": {"type": "string"}, "encoding": {"type": "string"}},
        },
    },
    tool("list_dir", "List a folder.", path={"type": "string"}),
]

LAUNCH = """\
import os, runpy, sys
with open(os.environ["LAUNCH_LOG"], "a") as f:
    f.write(sys.argv[1] + "\\n")
os.environ["MCP_REVIEW_TOOLS_FILE"] = sys.argv[1] + ".json"
sys.argv = [sys.argv[0]]
runpy.run_path(os.environ["TOOLSERVER"], run_name="__main__")
"""


def _server(version: str) -> str:
    argv = stdio_server_argv("launch.py", version)  # warm: a real process without import mcp
    return f"command = {json.dumps(argv[0])}\nargs = {json.dumps(argv[1:])}\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v1.json").write_text(json.dumps(V1))
    (tmp_path / "v2.json").write_text(json.dumps(V2))
    (tmp_path / "launch.py").write_text(LAUNCH)
    env = (
        f"env = {{ LAUNCH_LOG = {json.dumps(str(tmp_path / 'launches.log'))}, "
        f"TOOLSERVER = {json.dumps(str(SERVERS / 'toolserver.py'))} }}\n"
    )
    (tmp_path / "mcp-review.toml").write_text(
        "timeout = 60\n\n[servers.files]\n"
        + _server("v1")
        + f'cwd = "{tmp_path}"\n'
        + env
        + f"\n[servers.files.candidate]\nargs = {json.dumps(stdio_server_argv('launch.py', 'v2')[1:])}\n"
        + 'env = { EXTRA = "candidate only" }\n'
    )
    return tmp_path


def _run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(list(args))
    return rc, capsys.readouterr().out


def _launches(root: Path) -> list[str]:
    p = root / "launches.log"
    return p.read_text().split() if p.exists() else []


@pytest.mark.slow
def test_preview_review_approve_then_switch(project: Path, capsys):
    assert main(["pin", "--yes", "-q"]) == 0
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS: 2 pinned" in out, out
    assert _launches(project) == ["v1", "v1"]  # pin and check: the candidate never ran

    # The candidate, judged by the server's pins: its breaking change, under the server's name.
    rc, out = _run(capsys, "check", "-q", "--candidate")
    assert rc == 1, out
    assert "BROKEN   files/read_file" in out and "required-added" in out
    assert _launches(project)[-1] == "v2"
    rc, out = _run(capsys, "status", "-q", "--candidate", "--format", "json")
    doc = json.loads(out)
    assert rc == 1 and {t["tool"]: t["status"] for t in doc["tools"]} == {
        "list_dir": "pinned",
        "read_file": "broken",
    }

    # Approved while previewing: the pin is the candidate's definition, the running one kept.
    assert main(["approve", "files", "read_file", "--candidate", "--yes", "-q"]) == 0
    pin = load_pins("mcp-pins.toml").get("files", "default", "read_file")
    assert json.loads(pin.definition) == V2[0]
    assert [json.loads(t) for t in pin.extra[ALSO_KEY]] == [V1[0]]
    rc, out = _run(capsys, "check", "-q", "--candidate")
    assert rc == 0 and "PASS: 2 pinned" in out, out
    # ... and the running version is still approved: nothing it serves is withheld.
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS: 2 pinned" in out, out

    # Switching the config to the candidate is a no-op for the pins.
    before = (project / "mcp-pins.toml").read_bytes()
    text = (project / "mcp-review.toml").read_text()
    (project / "mcp-review.toml").write_text(
        text.split("\n[servers.files.candidate]")[0].replace('"v1"]', '"v2"]')
    )
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS: 2 pinned" in out, out
    assert _launches(project)[-1] == "v2"
    assert (project / "mcp-pins.toml").read_bytes() == before
    rc, out = _run(capsys, "check", "-q", "--candidate")
    assert rc == 2  # no candidate left in the config: an input error, not a silent review


@pytest.mark.slow
def test_candidate_option_needs_a_candidate_and_no_snapshot(project: Path, capsys):
    (project / "mcp-review.toml").write_text(
        (project / "mcp-review.toml").read_text().split("\n[servers.files.candidate]")[0]
    )
    capsys.readouterr()
    assert main(["check", "-q", "--candidate"]) == 2
    assert "no server reviewed names a candidate" in capsys.readouterr().err
    assert main(["status", "--candidate", "--snapshot", "x.json"]) == 2
    assert _launches(project) == []


# --- the config -----------------------------------------------------------------------------


def test_candidate_keys_replace_env_and_headers_merge(tmp_path: Path):
    from mcp_review.services.config import load_config

    p = tmp_path / "mcp-review.toml"
    p.write_text(
        '[servers.fs]\ncommand = "npx"\nargs = ["-y", "fs@1", "/srv"]\n'
        'env = { A = "1", B = "2" }\n\n[servers.fs.candidate]\n'
        'args = ["-y", "fs@2", "/srv"]\nenv = { B = "3" }\n\n'
        '[servers.web]\nurl = "http://127.0.0.1:1/mcp"\n'
        'headers = { Authorization = "Bearer t0k3n-abcdef" }\n'
        '[servers.web.candidate]\nheaders = { X-Trace = "1" }\n'
        '[servers.plain]\ncommand = "x"\n'
    )
    fs, web, plain = load_config(p).servers
    assert fs.args == ("-y", "fs@1", "/srv") and dict(fs.env) == {"A": "1", "B": "2"}
    c = fs.candidate
    assert c is not None and (c.name, c.principal, c.command) == ("fs", "default", "npx")
    assert c.args == ("-y", "fs@2", "/srv") and dict(c.env) == {"A": "1", "B": "3"}
    assert dict(web.candidate.headers) == {"Authorization": "Bearer t0k3n-abcdef", "X-Trace": "1"}
    assert plain.candidate is None
    assert "t0k3n-abcdef" not in repr(web.candidate)  # its secrets are redacted like a server's


@pytest.mark.parametrize(
    ("candidate", "line", "message"),
    [
        ('args = "no"', 6, "server 'fs': candidate.args: must be a list of strings"),
        (
            'principal = "ops"',
            6,
            "candidate.principal: unknown key 'principal' (a candidate is "
            "reviewed under its server's principal)",
        ),
        ("nope = 1", 6, "candidate.nope: unknown key 'nope'"),
        ("timeout = -1", 6, "candidate.timeout: must be a positive number"),
        ('url = "ftp://x"', 6, "candidate.url: must start with http:// or https://"),
    ],
)
def test_candidate_errors_name_file_and_line(
    tmp_path: Path, candidate: str, line: int, message: str
):
    from mcp_review.engine.errors import InputError
    from mcp_review.services.config import load_config

    p = tmp_path / "mcp-review.toml"
    p.write_text(
        f'[servers.fs]\ncommand = "x"\nargs = ["a"]\n\n[servers.fs.candidate]\n{candidate}\n'
    )
    with pytest.raises(InputError) as e:
        load_config(p)
    assert str(e.value).startswith(f"{p}:{line}: ") and message in str(e.value), str(e.value)


# --- approvals kept while previewing ------------------------------------------------------------


def test_keep_running_carries_only_approved_definitions_and_fails_closed():
    from mcp_review.engine.candidate import also_digests, keep_running
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin

    old, new = ToolDef.from_wire(V1[0]), ToolDef.from_wire(V2[0])
    before = make_pin("files", old, Decision.APPROVED, by="t")
    pin = make_pin("files", new, Decision.APPROVED, by="t")
    kept = keep_running(pin, before, candidate=True)
    assert also_digests(kept) == {old.digest}
    assert ALSO_KEY not in keep_running(pin, before, candidate=False).extra
    # A later decision without --candidate drops what was kept.
    assert (
        ALSO_KEY
        not in keep_running(
            make_pin("files", new, Decision.APPROVED, by="t"), kept, candidate=False
        ).extra
    )
    # ... unless the running version still serves it (a fetch of the running server lists it).
    again = keep_running(
        make_pin("files", new, Decision.APPROVED, by="t"),
        kept,
        candidate=False,
        served={old.digest},
    )
    assert also_digests(again) == {old.digest}
    assert (
        ALSO_KEY
        not in keep_running(
            make_pin("files", new, Decision.APPROVED, by="t"),
            kept,
            candidate=False,
            served={new.digest},
        ).extra
    )
    # A denial made without --candidate denies the tool: nothing stays approved beside it.
    assert (
        ALSO_KEY
        not in keep_running(
            make_pin("files", new, Decision.DENIED, by="t"),
            kept,
            candidate=False,
            served={old.digest},
        ).extra
    )
    denied = make_pin("files", old, Decision.DENIED, by="t")
    assert ALSO_KEY not in keep_running(pin, denied, candidate=True).extra
    # Entries that do not parse, or define another tool, approve nothing.
    import dataclasses

    other = json.dumps(V1[1])
    forged = dataclasses.replace(kept, extra={ALSO_KEY: ["{not json", other, 7]})
    assert also_digests(forged) == set()


def test_a_denial_from_the_pin_file_alone_denies_the_running_version_too(tmp_path: Path):
    """`deny` with the server down turns the pin into a denial (with_decision): a definition
    an upgrade preview kept approved beside it must not stay approved (the status of the
    running version's definition is computed from the file read back)."""
    from mcp_review.engine.candidate import keep_running
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin, with_decision
    from mcp_review.engine.snapshot import parse_snapshot
    from mcp_review.engine.status import State, compute_status
    from mcp_review.store.pinfile import save_pins

    old, new = ToolDef.from_wire(V1[0]), ToolDef.from_wire(V2[0])
    path = tmp_path / "mcp-pins.toml"
    pf = load_pins(str(path))
    pf.decide(
        keep_running(
            make_pin("files", new, Decision.APPROVED, by="t"),
            make_pin("files", old, Decision.APPROVED, by="t"),
            candidate=True,
        )
    )
    save_pins(pf, str(path))
    running = parse_snapshot(
        {
            "format": "mcp-review-snapshot",
            "version": 1,
            "servers": {"files": {"principal": "default", "tools": [V1[0]], "error": None}},
        }
    )

    def state() -> State:
        (t,) = compute_status(running, load_pins(str(path))).tools
        return t.state

    assert state() is State.PINNED  # kept beside the candidate's approval
    pf = load_pins(str(path))
    pf.decide(with_decision(pf.get("files", "default", "read_file"), Decision.DENIED, by="t"))
    save_pins(pf, str(path))
    assert ALSO_KEY not in load_pins(str(path)).get("files", "default", "read_file").extra
    assert state() is not State.PINNED


def _review_args(*, candidate: bool) -> argparse.Namespace:
    """The arguments `mcp-review review [--candidate]` parses to in the project folder."""
    return argparse.Namespace(
        config=None,
        pins=None,
        snapshot=None,
        server=None,
        timeout=None,
        calls=[],
        quiet=True,
        candidate=candidate,
    )


@pytest.fixture
def pinned(project: Path) -> Path:
    assert main(["pin", "--yes", "-q"]) == 0
    return project


@pytest.mark.slow
async def test_app_header_says_the_candidate_is_shown_and_keeps_the_running_approval(pinned: Path):
    from textual.widgets import Header

    from mcp_review.cli_args import input_options
    from mcp_review.engine.status import State
    from mcp_review.services.inputs import resolve
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.source import ReviewSource

    ns = _review_args(candidate=True)
    app = ReviewApp(ReviewSource.from_inputs(resolve(input_options(ns))), subtitle="mcp-pins.toml")
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(1200):
            await pilot.pause(0.05)
            if app.main is not None and app.main.loaded:
                break
        assert "CANDIDATE of files" in str(app.screen.query_one(Header).format_title())
        entry = next(t for s in app.main.servers for t in s.tools if t.name == "read_file")
        assert entry.status is State.BROKEN
        assert app.decide(entry, "approved", why="previewed")
    assert _launches(pinned)[-1] == "v2"
    pin = load_pins("mcp-pins.toml").get("files", "default", "read_file")
    assert json.loads(pin.definition) == V2[0]
    assert [json.loads(t) for t in pin.extra[ALSO_KEY]] == [V1[0]]
    # Without --candidate the app shows the running servers under the plain title.
    plain = ReviewApp(
        ReviewSource.from_inputs(resolve(input_options(_review_args(candidate=False))))
    )
    assert plain.title == "mcp-review"


@pytest.mark.slow
@pytest.mark.parametrize(("served", "relayed"), [("v1", True), ("v2", True), ("v3", False)])
def test_proxy_relays_both_approved_versions_and_nothing_else(
    tmp_path: Path, served: str, relayed: bool
):
    """After an approval made with --candidate, clients still on the running version keep
    their tool; the candidate's is allowed too; any third definition is withheld."""
    from servers.proxy_harness import RawClient

    from mcp_review.engine.candidate import keep_running
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin
    from mcp_review.store.pinfile import save_pins

    v3 = {**V2[0], "description": "Read a file. Also uploads it."}
    pins_path = tmp_path / "mcp-pins.toml"
    pf = load_pins(str(pins_path))
    before = make_pin("srv", ToolDef.from_wire(V1[0]), Decision.APPROVED, by="t")
    pf.decide(
        keep_running(
            make_pin("srv", ToolDef.from_wire(V2[0]), Decision.APPROVED, by="t"),
            before,
            candidate=True,
        )
    )
    save_pins(pf, str(pins_path))
    tool_def = {"v1": V1[0], "v2": V2[0], "v3": v3}[served]
    (tmp_path / "tools.json").write_text(json.dumps([tool_def]))
    env = {
        "HOSTILE_RECORD": str(tmp_path / "received.jsonl"),
        "HOSTILE_TOOLS": str(tmp_path / "tools.json"),
        "HOSTILE_FLAGS": "",
    }
    with RawClient(
        tmp_path,
        "--enforce",
        "--pins",
        str(pins_path),
        "--name",
        "srv",
        env=env,
        server=[sys.executable, str(SERVERS / "proxy_hostile.py")],
    ) as c:
        c.initialize()
        listed = c.request("tools/list")["result"]["tools"]
        assert listed == ([tool_def] if relayed else [])
        assert c.close() == 0


def _also(root: Path, tool: str = "read_file") -> list[dict]:
    pin = load_pins(str(root / "mcp-pins.toml")).get("files", "default", tool)
    return [json.loads(t) for t in pin.extra.get(ALSO_KEY, [])]


def _switch(root: Path, version: str) -> None:
    """The config's running version becomes ``version`` (the candidate table is kept)."""
    text = (root / "mcp-review.toml").read_text()
    head, cand = text.split("\n[servers.files.candidate]")
    head = head.replace('"v1"]', f'"{version}"]').replace('"v2"]', f'"{version}"]')
    (root / "mcp-review.toml").write_text(head + "\n[servers.files.candidate]" + cand)


@pytest.mark.slow
def test_pin_and_deny_candidate_keep_the_running_approval_until_it_is_no_longer_served(
    project: Path, capsys
):
    """deny --candidate and pin --candidate land under the server's name and keep the running
    version's approval; a later baseline made without --candidate keeps it while the running
    server still lists it, and drops it once a fetch of the running server no longer does."""
    assert main(["pin", "--yes", "-q"]) == 0

    # Deny the candidate's read_file: the running version's stays approved beside the denial.
    assert main(["deny", "files", "read_file", "--candidate", "-q"]) == 0
    assert _launches(project)[-1] == "v2"
    pin = load_pins("mcp-pins.toml").get("files", "default", "read_file")
    assert not pin.approved and json.loads(pin.definition) == V2[0]
    assert _also(project) == [V1[0]]
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS: 2 pinned" in out, out
    rc, out = _run(capsys, "check", "-q", "--candidate")
    assert "DENIED   files/read_file" in out and "1 denied" in out, out  # withheld, as denied

    # Baseline the candidate (--yes: its read_file is a breaking change, previously denied
    # needs --force): the candidate's definition approved, the running one kept.
    rc, out = _run(capsys, "pin", "--candidate", "--yes", "--force")
    assert rc == 0, out
    assert _launches(project)[-1] == "v2"
    pin = load_pins("mcp-pins.toml").get("files", "default", "read_file")
    assert pin.approved and json.loads(pin.definition) == V2[0]
    assert _also(project) == [V1[0]]
    assert main(["check", "-q", "--candidate"]) == 0
    assert main(["check", "-q"]) == 0

    # A baseline without --candidate while v1 still runs: v1 still lists read_file as pinned
    # beside the candidate's approval, so nothing is dropped (not one byte written).
    before = (project / "mcp-pins.toml").read_bytes()
    rc, out = _run(capsys, "pin")
    assert rc == 0, out
    assert _launches(project)[-1] == "v1"
    assert (project / "mcp-pins.toml").read_bytes() == before
    assert _also(project) == [V1[0]]

    # The config switched to v2: the running server no longer lists v1's read_file, so the
    # next baseline ends that approval (audited), and a server serving v1 again is reviewed.
    _switch(project, "v2")
    rc, out = _run(capsys, "pin")
    assert rc == 0, out
    assert _launches(project)[-1] == "v2"
    assert _also(project) == []
    audit = (project / "mcp-pins.audit.jsonl").read_text().splitlines()
    assert "no longer served by the running version" in audit[-1]
    _switch(project, "v1")
    rc, out = _run(capsys, "check", "-q")
    assert rc == 1 and "BROKEN   files/read_file" not in out and "files/read_file" in out, out


GREP = tool("grep", "Search files.", pattern={"type": "string"})


@pytest.mark.slow
def test_a_tool_new_in_the_candidate_approved_while_previewing_is_not_removed_from_the_running(
    project: Path, capsys
):
    """The candidate adds ``grep``; approving it with ``--candidate`` pins it, but the running
    version never served it: the running servers' report must not call it removed (a removed
    approved tool fails the gate), and once the running version serves it, it is pinned."""
    (project / "v2.json").write_text(json.dumps([*V1, GREP]))
    assert main(["pin", "--yes", "-q"]) == 0
    rc, out = _run(capsys, "check", "-q", "--candidate")
    assert rc == 1 and "NEW" in out and "files/grep" in out, out
    assert main(["approve", "files", "grep", "--candidate", "--yes", "-q"]) == 0
    rc, out = _run(capsys, "check", "-q", "--candidate")
    assert rc == 0 and "PASS: 3 pinned" in out, out
    # A baseline of the running version keeps it (the running version never served it).
    assert main(["pin", "--yes", "-q"]) == 0
    assert load_pins("mcp-pins.toml").get("files", "default", "grep") is not None
    # The running version: still passes, and says why grep is not there.
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS" in out, out
    rc, out = _run(capsys, "status", "--format", "json")
    doc = json.loads(out)
    assert rc == 0, out
    grep = next(t for t in doc["tools"] if t["tool"] == "grep")
    assert grep["policy"]["outcome"] == "none", grep
    assert any("candidate" in r for r in grep["policy"]["reasons"]), grep
    # The upgrade: the running version now serves the candidate's tools.
    (project / "v1.json").write_text(json.dumps([*V1, GREP]))
    rc, out = _run(capsys, "check", "-q")
    assert rc == 0 and "PASS: 3 pinned" in out, out
    # Approving the running version's grep ends the preview's mark: a removal then counts.
    assert load_pins("mcp-pins.toml").get("files", "default", "grep").extra.get(PREVIEW_KEY)
    rc, out = _run(capsys, "approve", "files", "grep", "--yes", "-q")
    assert rc == 0 and "nothing written" not in out, out
    assert PREVIEW_KEY not in load_pins("mcp-pins.toml").get("files", "default", "grep").extra
    (project / "v1.json").write_text(json.dumps(V1))
    rc, out = _run(capsys, "check", "-q")
    assert rc == 1 and "approved tool no longer served" in out, out


def test_the_preview_mark_is_set_only_for_a_new_approval_and_pruned_once_served():
    from mcp_review.engine.candidate import awaiting_upgrade, keep_running, prune
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import Decision, make_pin

    d = ToolDef.from_wire(GREP)
    new = make_pin("files", d, Decision.APPROVED)
    marked = keep_running(new, None, candidate=True)
    assert awaiting_upgrade(marked)
    assert awaiting_upgrade(keep_running(new, marked, candidate=True))  # previewed again
    assert not awaiting_upgrade(keep_running(new, None, candidate=False))
    assert not awaiting_upgrade(keep_running(new, marked, candidate=False))
    denied = make_pin("files", d, Decision.DENIED)
    assert not awaiting_upgrade(keep_running(denied, None, candidate=True))
    running = make_pin("files", ToolDef.from_wire(V1[0]), Decision.APPROVED)
    assert not awaiting_upgrade(
        keep_running(
            make_pin("files", ToolDef.from_wire(V2[0]), Decision.APPROVED), running, candidate=True
        )
    )  # the running version serves it: its approval is kept instead
    assert prune(marked, set()) is None  # not served yet: the mark stays
    pruned = prune(marked, {d.digest})
    assert pruned is not None and not awaiting_upgrade(pruned)
    # A forged mark on a denial approves nothing and hides nothing.
    assert not awaiting_upgrade(
        type(denied)(
            **{
                **{f: getattr(denied, f) for f in denied.__dataclass_fields__},
                "extra": {PREVIEW_KEY: True},
            }
        )
    )


@pytest.mark.slow
def test_the_app_counts_to_review_exactly_the_removed_tools_check_fails_on(project: Path):
    """One drift, the app and ``check`` alike: a denied tool no longer served and a tool
    awaiting the upgrade (approved while previewing the candidate) pass ``check``, so the app
    must neither count them "to review" nor stop on them with ``n``; an approved tool no
    longer served fails ``check`` and is counted."""
    import asyncio

    from textual.widgets import Static

    from mcp_review.cli_args import input_options
    from mcp_review.engine.status import State
    from mcp_review.services.inputs import resolve
    from mcp_review.tui.app import ReviewApp
    from mcp_review.tui.source import ReviewSource

    (project / "v2.json").write_text(json.dumps([*V1, GREP]))
    assert main(["pin", "--yes", "-q"]) == 0
    assert main(["approve", "files", "grep", "--candidate", "--yes", "-q"]) == 0
    assert main(["deny", "files", "list_dir", "-q"]) == 0
    (project / "v1.json").write_text(json.dumps(V1[:1]))  # list_dir (denied) no longer served

    async def app_view() -> tuple[str, list[tuple[str, str]], str | None]:
        app = ReviewApp(
            ReviewSource.from_inputs(resolve(input_options(_review_args(candidate=False))))
        )
        async with app.run_test(size=(120, 36)) as pilot:
            for _ in range(1200):
                await pilot.pause(0.05)
                if app.main is not None and app.main.loaded:
                    break
            main_screen = app.main
            removed = [
                (t.name, str(t.policy))
                for s in main_screen.servers
                for t in s.tools
                if t.status is State.REMOVED
            ]
            await pilot.press("n")
            landed = main_screen.current_entry()
            counts = str(main_screen.query_one("#counts", Static).render())
            await pilot.press("q")
        return counts, sorted(removed), landed.name if landed and landed.needs_review else None

    assert main(["check", "-q"]) == 0
    counts, removed, landed = asyncio.run(app_view())
    assert removed == [("grep", "none"), ("list_dir", "none")]
    assert "0 to review" in counts and landed is None, (counts, landed)

    (project / "v1.json").write_text(json.dumps([]))  # read_file (approved) gone too
    assert main(["check", "-q"]) == 1
    counts, removed, landed = asyncio.run(app_view())
    assert ("read_file", "review") in removed
    assert "1 to review" in counts and landed == "read_file", (counts, landed)


@pytest.mark.slow
def test_a_denied_candidate_is_said_denied_and_pin_prints_one_line_per_tool(project: Path, capsys):
    """Issue 30 items 2 and 4: after ``deny --candidate`` the running version's note must not
    say the candidate's definition was approved; once the running version serves the denied
    definition, ``pin`` says once that it stays denied (no ``denied:`` record line beside
    ``held back (denied)``), and every approval line carries its class."""
    assert main(["pin", "--yes", "-q"]) == 0
    assert main(["deny", "files", "read_file", "--candidate", "-q"]) == 0
    _, out = _run(capsys, "status", "-q", "--all")
    line = next(ln for ln in out.splitlines() if "approved before" in ln or "candidate" in ln)
    assert "denied" in line and "approved before the candidate" not in line, out

    _switch(project, "v2")
    _, out = _run(capsys, "pin", "-q")
    lines = [ln for ln in out.splitlines() if "read_file" in ln]
    assert [ln for ln in lines if ln.startswith("held back (denied)")], out
    assert not [ln for ln in lines if ln.startswith(("denied", "approved"))], out
    assert [ln for ln in lines if ln.startswith("dropped (an earlier approved")], out
    for ln in out.splitlines():
        if ln.startswith("approved"):
            assert ln.startswith("approved ("), out


@pytest.mark.slow
def test_every_format_says_it_shows_a_candidate_in_its_first_line(project: Path, capsys):
    """Issue 30 item 5: a preview pasted into a pull request must not read as a live failure."""
    assert main(["pin", "--yes", "-q"]) == 0
    for cmd in ("check", "status"):
        _, out = _run(capsys, cmd, "-q", "--candidate")
        assert out.splitlines()[0].startswith(
            "CANDIDATE preview of files (not the running version)"
        ), out
        _, out = _run(capsys, cmd, "-q", "--candidate", "--format", "json")
        doc = json.loads(out)
        assert doc["candidate"] == ["files"], doc.keys()
        assert all(s["candidate"] is True for s in doc["servers"]), doc["servers"]
        _, out = _run(capsys, cmd, "-q")  # the running version: no such mark
        assert "CANDIDATE" not in out
        _, out = _run(capsys, cmd, "-q", "--format", "json")
        doc = json.loads(out)
        assert doc.get("candidate", []) == [] and not any(
            s.get("candidate") for s in doc["servers"]
        )
    _, out = _run(capsys, "check", "-q", "--candidate", "--format", "markdown")
    assert out.splitlines()[0].startswith(
        "CANDIDATE preview of files (not the running version)"
    ) or out.splitlines()[0].lstrip("#* ").startswith("CANDIDATE preview of files"), out
    _, out = _run(capsys, "check", "-q", "--candidate", "--format", "sarif")
    assert json.loads(out)["runs"][0]["properties"]["candidate"] == ["files"]


@pytest.mark.slow
def test_diff_shows_a_candidate(project: Path, capsys):
    """Issue 30 item 6: ``diff SERVER TOOL --candidate`` diffs the candidate's definition
    against the server's pin (and runs the candidate, not the running version)."""
    assert main(["pin", "--yes", "-q"]) == 0
    rc, out = _run(capsys, "diff", "files", "read_file", "--candidate", "-q")
    assert rc == 0 and "required-added" in out and "encoding" in out, out
    assert _launches(project)[-1] == "v2"
    assert out.splitlines()[0].startswith("CANDIDATE preview of files"), out
    rc, out = _run(capsys, "diff", "files", "read_file", "-q")
    assert rc == 0 and "required-added" not in out, out


def test_the_decide_hints_of_a_preview_carry_candidate_and_work_as_printed(project: Path, capsys):
    """The operator's walk (benchmarks/README.md): `status --candidate --groups` printed
    `decide: mcp-review approve …` without `--candidate`; run as printed it reviewed the running
    version, where that decision does not exist (exit 2, "no group …"). Each hint of a preview
    says `--candidate`, and the printed command works."""
    import shlex

    assert main(["pin", "--yes", "-q"]) == 0
    rc, brief = _run(capsys, "status", "-q", "--candidate")
    assert rc == 1
    decide = [ln for ln in brief.splitlines() if ln.startswith("decide: ")]
    assert decide and all("--candidate" in ln for ln in decide), brief
    rc, out = _run(capsys, "status", "-q", "--candidate", "--groups")
    hints = [ln.strip() for ln in out.splitlines() if ln.strip().startswith("decide: ")]
    assert hints, out
    for h in hints:
        approve, deny = h.removeprefix("decide: ").split("  |  ")
        assert approve.endswith("--candidate") or " --candidate " in approve, h
        assert "--candidate" in deny, h
    # Without a preview the hints are as before: no --candidate.
    rc, out = _run(capsys, "status", "-q", "--groups")
    assert "--candidate" not in out, out
    # The first hint, run as printed (with -q), decides the previewed tool.
    approve = hints[0].removeprefix("decide: ").split("  |  ")[0]
    argv = shlex.split(approve)[1:]
    assert main([*argv, "-q"]) == 0, approve
    pin = load_pins("mcp-pins.toml").get("files", "default", "read_file")
    assert json.loads(pin.definition) == V2[0]
