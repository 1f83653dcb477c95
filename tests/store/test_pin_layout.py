"""Pin file version 2 (issue 19 item 1): each definition is indented JSON in a TOML multi-line
string, so a re-pin reads in git as the lines that changed; still lossless and digest-stable;
version 1 files are read and rewritten on the next save, with a note."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mcp_review.cli import main
from mcp_review.engine import pinread as pins_mod
from mcp_review.engine.errors import InputError
from mcp_review.engine.model import ToolDef, digest_of
from mcp_review.engine.pinread import parse_pins
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.pintoml import toml_multiline
from mcp_review.store import pinfile
from mcp_review.store.pinfile import load_pins, save_pins

FIX = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "pins")
GOLDEN = os.path.join(FIX, "golden.toml")  # a version 1 file, never regenerated


# The multi-line string encoder -------------------------------------------------------------

ADVERSARIAL = [
    "",
    "'",
    "''",
    "'''",
    "x'''y",
    "ends with '",
    '"',
    '"""',
    '""""""',
    'a"',
    "\\",
    "a\\",
    "a\\\n",
    '\\"""\\',
    "\n",
    "\n\nlead",
    "\r\n",
    "\r",
    "\t",
    "\x00\x1b[31m\x7f",
    "\x85\u200b\u202e\U000e0041",
    "é😀",
    "'''\n[servers.evil.principals.default.tools.x]\n",
    '"""\n[servers.evil]\n',
    "]]\n[[x]]",
]


@given(text=st.text(max_size=60))
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_toml_multiline_reads_back_exactly(text):
    for t in [text, *ADVERSARIAL]:
        enc = toml_multiline(t)
        assert tomllib.loads("v = " + enc + "\n") == {"v": t}
        # Never a hidden or control character raw in the file: ASCII, newlines the only control.
        assert enc.isascii()
        assert all(c == "\n" or 0x20 <= ord(c) < 0x7F for c in enc)


def test_literal_form_for_json_and_basic_form_where_a_literal_cannot_hold_it():
    assert toml_multiline('{\n  "a": "\\u202e"\n}') == "'''\n{\n  \"a\": \"\\u202e\"\n}'''"
    for t in ["x'''y", "ends with '", "tab\there", "é", "\r\n", "\x7f"]:
        assert toml_multiline(t).startswith('"""\n'), t
    # The basic form escapes a double quote only where it could end the string.
    assert toml_multiline('"a": "\'\'\'"') == '"""\n"a": "\'\'\'\\""""'


def test_a_lone_surrogate_cannot_be_written_and_is_refused():
    with pytest.raises(ValueError, match="lone surrogate"):
        toml_multiline("a\ud800b")
    pf = PinFile()
    pf.decide(
        make_pin("s", ToolDef.from_wire({"name": "t", "inputSchema": {}}), "approved", by="x")
    )
    key = next(iter(pf.pins))
    pf.pins[key] = pins_mod.replace(pf.pins[key], definition="{\ud800}")
    with pytest.raises(InputError, match="lone surrogate"):
        pf.dumps()


# Lossless, digest-stable -------------------------------------------------------------------

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _compact(v) -> str:
    # Text form, so 1.0 vs 1 and -0.0 vs 0.0 count as different.
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@given(value=_JSON, desc=st.text(max_size=40))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(value={"d": "'''", "e": '"""', "f": -0.0, "g": 2**64, "h": 1.0}, desc="x'''\n\"\"\"")
def test_definitions_round_trip_exactly_with_the_same_digest(value, desc):
    wire = {
        "name": "t",
        "description": desc,
        "inputSchema": {"type": "object", "properties": {"p": {"default": value}}},
    }
    tool = ToolDef.from_wire(wire)
    pf = PinFile()
    pf.decide(make_pin("s", tool, "approved", by="x", at="2026-01-01T00:00:00Z"))
    again = parse_pins(pf.dumps())
    pin = again.get("s", "default", "t")
    assert pin is not None and pin == pf.get("s", "default", "t")
    assert _compact(json.loads(pin.definition)) == _compact(wire)
    assert pin.digest == tool.digest == digest_of(json.loads(pin.definition))


def test_hostile_names_and_text_stay_data_in_the_toml(tmp_path):
    """Names with quotes, `]]`, newlines, TOML delimiters and hidden characters, and descriptions
    that try to close the string and open a table of their own: the file holds exactly the pins
    written, and every definition line is ASCII."""
    names = [
        'a"]]\n[servers.evil]',
        "x'''y",
        'q"""r',
        "\u202eevil\u200b",
        "tab\tname",
        "]]",
        "'",
        "emoji😀.dot",
    ]
    desc = "'''\n[servers.evil.principals.default.tools.pwn]\ndecision = \"approved\"\n'''"
    pf = PinFile(path=str(tmp_path / "mcp-pins.toml"))
    for n in names:
        for d in [desc, desc.replace("'", '"'), "plain"]:
            tool = ToolDef.from_wire({"name": n + d[:1], "description": d, "inputSchema": {}})
            pf.decide(make_pin(n, tool, "approved", by="x"))
    save_pins(pf)
    raw = (tmp_path / "mcp-pins.toml").read_text("utf-8")
    doc = tomllib.loads(raw)
    assert set(doc["servers"]) == set(names)
    back = load_pins(str(tmp_path / "mcp-pins.toml"))
    assert back.pins == pf.pins and len(back.pins) == len(names) * 3
    start = 0
    while (i := raw.find("\ndefinition = ", start)) >= 0:
        end = raw.find("\n\n", i + 1)
        block = raw[i : end if end > 0 else None]
        assert block.isascii() and "\x1b" not in block
        start = i + 1


# Version 1 files ---------------------------------------------------------------------------


def test_a_version_1_file_is_read_and_rewritten_as_version_2_losslessly(tmp_path):
    p = tmp_path / "mcp-pins.toml"
    shutil.copy(GOLDEN, p)
    v1 = tomllib.loads(p.read_text())
    assert v1["version"] == 1
    pf = load_pins(str(p))
    assert pf.version == 1
    result = save_pins(pf)  # no decision at all: the next save still rewrites the layout
    assert result.upgraded_from == 1
    note = pinfile.upgrade_note(result, str(p))
    assert note and "version 1 to version 2" in note and "refuse" in note
    text = p.read_text()
    assert tomllib.loads(text)["version"] == 2
    assert "definition = '''\n{\n" in text
    again = load_pins(str(p))
    assert again.version == 2 and len(again.pins) == len(pf.pins) > 0
    for (s, pr, t), pin in again.pins.items():
        old = v1["servers"][s]["principals"][pr]["tools"][t]
        assert pin.digest == old["digest"] and pin.digest_scheme == old.get("digest_scheme", 1)
        # Exactly the approved JSON: the one-line text of version 1 comes back byte for byte
        # (9007199254740992.0, -0.0, 1e+300, 5e-324 and 2**63 included).
        assert _compact(json.loads(pin.definition)) == old["definition"]
        assert len(pin.definition.splitlines()) > 3
    assert save_pins(again).upgraded_from is None  # said once


def test_the_cli_says_when_it_rewrote_a_version_1_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    shutil.copy(GOLDEN, tmp_path / "mcp-pins.toml")
    rc = main(["deny", "golden", "numbers", "--principal", "scheme2", "--by", "t"])
    _, err = capsys.readouterr()
    assert rc == 0
    assert "mcp-pins.toml was rewritten from pin file version 1 to version 2" in err
    assert tomllib.loads((tmp_path / "mcp-pins.toml").read_text())["version"] == 2
    assert (
        load_pins("mcp-pins.toml").get("golden", "scheme2", "numbers").decision is Decision.DENIED
    )


def test_an_mcp_review_that_knows_only_version_1_refuses_a_version_2_file(tmp_path, monkeypatch):
    """What an older release does with the new file: its loader (the same check, with
    VERSION = 1) refuses it naming the version, and leaves it unchanged."""
    p = tmp_path / "mcp-pins.toml"
    pf = PinFile(path=str(p))
    pf.decide(
        make_pin("s", ToolDef.from_wire({"name": "t", "inputSchema": {}}), "approved", by="x")
    )
    save_pins(pf)
    before = p.read_bytes()
    monkeypatch.setattr(pins_mod, "VERSION", 1)
    with pytest.raises(InputError, match="pin file version 2 is newer"):
        load_pins(str(p))
    monkeypatch.chdir(tmp_path)
    assert main(["deny", "s", "t", "--by", "x"]) == 2
    assert p.read_bytes() == before


# What a pull request shows -----------------------------------------------------------------


def _snapshot(path, tools):
    path.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {
                    "files": {
                        "principal": "default",
                        "server_info": {"name": "files", "version": "1.0.0"},
                        "protocol_version": "2025-11-25",
                        "ttl_ms": None,
                        "cache_scope": None,
                        "tools": tools,
                        "error": None,
                    }
                },
            }
        )
    )


def _git(repo, *args) -> str:
    env = {"PATH": os.environ["PATH"], "HOME": str(repo), "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C"}
    return subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "core.autocrlf=false",
            *args,
        ],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_diff_of_a_repin_shows_the_added_limit_property(tmp_path, monkeypatch, capsys):
    """Must show (issue 19): approve a change that adds an optional `limit` property; `git
    diff -U0` of the pin file shows lines naming `limit`, none longer than 200 characters."""
    monkeypatch.chdir(tmp_path)
    _git(tmp_path, "init", "-q")
    search = {
        "name": "search",
        "description": "Search the workspace index for documents matching a query. Results "
        "are ranked by relevance and include the path and a short excerpt.",
        "inputSchema": {
            "type": "object",
            "required": ["q"],
            "properties": {
                "q": {"type": "string", "description": "The query text"},
                "path": {"type": "string", "description": "Only search under this folder"},
                "kinds": {"type": "array", "items": {"enum": ["md", "py", "txt", "json"]}},
            },
        },
        "annotations": {"readOnlyHint": True},
    }
    _snapshot(tmp_path / "before.json", [search])
    assert main(["pin", "--snapshot", "before.json", "--by", "alice", "--note", "baseline"]) == 0
    _git(tmp_path, "add", "mcp-pins.toml")
    _git(tmp_path, "commit", "-q", "-m", "baseline")

    after = json.loads(json.dumps(search))
    after["inputSchema"]["properties"]["limit"] = {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "description": "Most results to return",
    }
    _snapshot(tmp_path / "after.json", [after])
    assert (
        main(
            [
                "approve",
                "files",
                "search",
                "--snapshot",
                "after.json",
                "--by",
                "bob",
                "--note",
                "new optional limit",
            ]
        )
        == 0
    )
    capsys.readouterr()

    diff = _git(tmp_path, "diff", "-U0", "--", "mcp-pins.toml")
    changed = [
        ln for ln in diff.splitlines() if ln[:1] in "+-" and not ln.startswith(("+++", "---"))
    ]
    added = [ln for ln in changed if ln.startswith("+")]
    assert any("limit" in ln for ln in added), diff
    assert max(len(ln) for ln in diff.splitlines()) <= 200, diff
    # The property's own lines, each on its line, and nothing of the unchanged schema.
    for want in [
        '"limit": {',
        '"maximum": 100,',
        '"minimum": 1,',
        '"type": "integer"',
        '"description": "Most results to return",',
    ]:
        assert any(ln.strip() == "+" + want or ln[1:].strip() == want for ln in added), want
    assert not any('"q"' in ln or "workspace index" in ln for ln in changed), diff
    # digest, decided_at, decided_by and note change too; the rest is the property.
    assert len(changed) <= 8 + 6 * 2, diff
