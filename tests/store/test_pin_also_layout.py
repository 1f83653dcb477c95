"""``also_approved`` in the pin file (issue 30 item 14): the definitions an upgrade preview
keeps approved beside a candidate's are written like ``definition`` (an array of multi-line
strings, one JSON key per line), not one escaped line each, so a pull request diffs them line
by line. A file written the old way reads as it did (the same TOML value) and ``verify`` says
it is in the old layout; hostile text in a kept definition stays data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import tomli_w

from mcp_review.cli import main
from mcp_review.engine.candidate import ALSO_KEY, also_digests, keep_running
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pinread import parse_pins
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.store.pinfile import load_pins, save_pins


def _tool(desc: str, **props: object) -> ToolDef:
    return ToolDef.from_wire(
        {
            "name": "read_file",
            "description": desc,
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, **props}},
        }
    )


def _kept_pin(running: list[ToolDef], candidate: ToolDef) -> PinFile:
    """A pin file whose read_file pin approves ``candidate`` and keeps ``running`` approved
    beside it (decisions made with ``--candidate``, one preview after another)."""
    pf = PinFile()
    before = None
    for d in [*running, candidate]:
        pin = make_pin("files", d, Decision.APPROVED, by="t", at="2026-12-01T00:00:00Z")
        pin = keep_running(pin, before, candidate=True)
        before = pin
    assert before is not None
    pf.decide(before)
    return pf


def _tools_table(text: str) -> dict:
    return tomllib.loads(text)["servers"]["files"]["principals"]["default"]["tools"]["read_file"]


# --- the layout --------------------------------------------------------------------------------


def test_kept_definitions_are_written_one_key_per_line_and_read_back_exactly():
    v1, v2 = _tool("Read a file."), _tool("Read a file from the workspace.")
    v3 = _tool("Read a file.", encoding={"type": "string"})
    pf = _kept_pin([v1, v2], v3)
    text = pf.dumps()
    # An array of multi-line literal strings, each definition one JSON key per line.
    assert "also_approved = [\n'''\n{\n" in text
    assert '\\"' not in text and "\\n" not in text
    assert '  "description": "Read a file from the workspace.",\n' in text
    again = parse_pins(text)
    pin = again.get("files", "default", "read_file")
    assert pin is not None and pin == pf.get("files", "default", "read_file")
    assert also_digests(pin) == {v1.digest, v2.digest}
    assert [json.loads(t) for t in pin.extra[ALSO_KEY]] == [v2.wire, v1.wire]
    assert parse_pins(again.dumps()).dumps() == text  # written the same way again


def test_a_kept_definition_in_another_layout_is_written_like_definition(tmp_path: Path):
    """A kept definition of a version 1 file (compact JSON) is laid out as ``definition`` is:
    the same JSON value, so the same digest."""
    v1, v2 = _tool("Read a file."), _tool("Read a whole file.")
    pf = _kept_pin([v1], v2)
    key = ("files", "default", "read_file")
    compact = json.dumps(v1.wire, separators=(",", ":"), sort_keys=True)
    pf.pins[key] = pf.pins[key].__class__(
        **{**_fields(pf.pins[key]), "extra": {ALSO_KEY: [compact]}}
    )
    text = pf.dumps()
    kept = _tools_table(text)[ALSO_KEY]
    assert len(kept) == 1 and kept[0] != compact and len(kept[0].splitlines()) > 3
    assert json.loads(kept[0]) == json.loads(compact)
    assert also_digests(parse_pins(text).get(*key)) == {v1.digest}


def _fields(pin) -> dict:
    import dataclasses

    return {f.name: getattr(pin, f.name) for f in dataclasses.fields(pin)}


# --- files written the old way -----------------------------------------------------------------


def _old_style(pf: PinFile) -> str:
    """The file as mcp-review wrote it before item 14: ``also_approved`` through tomli-w, one
    escaped string per definition (``definition`` already multi-line)."""
    new = pf.dumps()
    table = _tools_table(new)
    old_line = tomli_w.dumps({ALSO_KEY: table[ALSO_KEY]}).rstrip("\n")
    start = new.index("also_approved = [")
    end = new.index("\n]", start) + 2
    text = new[:start] + old_line + new[end:]
    assert tomllib.loads(text) == tomllib.loads(new)  # the same TOML value
    return text


def test_a_file_written_the_old_way_reads_the_same_and_is_rewritten_the_new_way(tmp_path: Path):
    v1, v2 = _tool("Read a file."), _tool("Read a file, up to 1 MB.")
    pf = _kept_pin([v1], v2)
    old = _old_style(pf)
    assert 'also_approved = [\n    "{\\n  \\"description\\"' in old  # what it looked like
    path = tmp_path / "mcp-pins.toml"
    path.write_text(old)
    back = load_pins(str(path))
    pin = back.get("files", "default", "read_file")
    assert pin == pf.get("files", "default", "read_file")
    assert also_digests(pin) == {v1.digest}
    save_pins(back)  # the next save writes the new layout, decisions unchanged
    assert path.read_text() == pf.dumps()


def test_verify_says_a_file_is_in_the_old_layout_and_fix_rewrites_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    monkeypatch.chdir(tmp_path)
    pf = _kept_pin([_tool("Read a file.")], _tool("Read a file, up to 1 MB."))
    (tmp_path / "mcp-pins.toml").write_text(_old_style(pf))
    assert main(["verify"]) == 1
    err = capsys.readouterr().err
    assert "also_approved" in err and "verify --fix" in err
    assert main(["verify", "--fix"]) == 0
    assert (tmp_path / "mcp-pins.toml").read_text() == pf.dumps()
    capsys.readouterr()
    assert main(["verify"]) == 0  # what mcp-review writes is its canonical form
    assert "canonical form" in capsys.readouterr().out


# --- what a pull request shows -----------------------------------------------------------------


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_diff_of_a_kept_definition_reads_as_the_lines_that_changed(tmp_path: Path):
    """Two pin files that differ in one kept definition's description: ``git diff`` shows
    that JSON line (and no escaped newline), each changed line short."""
    cand = _tool("Read a file.", encoding={"type": "string"})
    a = _kept_pin([_tool("Read a file.")], cand).dumps()
    b = _kept_pin([_tool("Read a file (text only).")], cand).dumps()
    (tmp_path / "a.toml").write_text(a)
    (tmp_path / "b.toml").write_text(b)
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    out = subprocess.run(
        ["git", "diff", "--no-index", "-U0", "a.toml", "b.toml"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    changed = [
        ln for ln in out.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))
    ]
    assert changed == [
        '-  "description": "Read a file.",',
        '+  "description": "Read a file (text only).",',
    ], out


# --- hostile text ------------------------------------------------------------------------------

HOSTILE = [
    "'''\n[servers.evil.principals.default.tools.pwn]\ndecision = \"approved\"\n'''",
    '"""\n[servers.evil]\n"""',
    "line one\nline two\r\nthree\rfour",
    'quote " and \\" and \\\\',
    "\x00\x1b[31mred\x1b[0m\x7f\x85\u202e\u200b",
    "ends with '",
    "],\n[servers.evil]\nx = [",
]


def test_hostile_text_in_a_kept_definition_stays_data(tmp_path: Path):
    running = [_tool(d) for d in HOSTILE[:4]]
    pf = PinFile(path=str(tmp_path / "mcp-pins.toml"))
    before = None
    for d in [*running, _tool("Read a file.")]:
        pin = keep_running(make_pin("files", d, Decision.APPROVED, by="t"), before, candidate=True)
        before = pin
    assert before is not None
    # Beside definitions, entries that are not JSON at all (a hand edit): kept as text.
    raw_entries = HOSTILE[4:]
    pf.decide(
        before.__class__(
            **{
                **_fields(before),
                "extra": {ALSO_KEY: [*before.extra[ALSO_KEY], *raw_entries]},
            }
        )
    )
    save_pins(pf)
    raw = (tmp_path / "mcp-pins.toml").read_text("utf-8")
    doc = tomllib.loads(raw)
    assert list(doc["servers"]) == ["files"]  # no table of a server's making
    assert list(doc["servers"]["files"]["principals"]["default"]["tools"]) == ["read_file"]
    back = load_pins(str(tmp_path / "mcp-pins.toml"))
    pin = back.get("files", "default", "read_file")
    assert pin == pf.get("files", "default", "read_file")
    assert pin.extra[ALSO_KEY][-len(raw_entries) :] == raw_entries  # exactly, not laid out
    assert also_digests(pin) == {d.digest for d in running}
    # Every line of the array is ASCII with no control character: nothing raw reaches a
    # terminal that shows the file, and nothing closes a string early.
    start = raw.index("also_approved = [")
    block = raw[start : raw.index("\n]", start) + 2]
    assert block.isascii()
    assert all(c == "\n" or 0x20 <= ord(c) < 0x7F for c in block)
