"""Issue 30 (operator polish, round 2): the CLI's wording and what each command says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import stdio_server_argv

from mcp_review.cli import COMMANDS, build_parser, main


def _snapshot(path: Path, tools: list[dict]) -> str:
    path.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {
                    "fs": {
                        "principal": "default",
                        "server_info": {"name": "fs", "version": "2025.7.29"},
                        "protocol_version": "2025-11-25",
                        "tools": tools,
                    }
                },
            }
        )
    )
    return str(path)


def test_pin_prints_each_tools_protocol_findings_beside_its_approval(tmp_path, monkeypatch, capsys):
    """Item 10: a schema-less tool (``{"$schema": …}`` only) is approved with its finding said."""
    monkeypatch.chdir(tmp_path)
    snap = _snapshot(
        tmp_path / "s.json",
        [
            {
                "name": "directory_tree",
                "description": "Tree.",
                "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"},
            },
            {"name": "ok", "description": "Fine.", "inputSchema": {"type": "object"}},
        ],
    )
    assert main(["pin", "--snapshot", snap]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = lines.index("approved (new): fs/default/directory_tree")
    assert lines[i + 1].startswith("    protocol: protocol-input-schema-type /inputSchema"), lines
    j = lines.index("approved (new): fs/default/ok")
    assert not lines[j + 1].startswith("    protocol"), lines
    (tmp_path / "mcp-pins.toml").unlink()
    assert main(["pin", "--snapshot", snap, "--format", "json"]) == 0
    recs = {r["tool"]: r for r in json.loads(capsys.readouterr().out)["decisions"]}
    assert [f["rule"] for f in recs["directory_tree"]["protocol"]] == ["protocol-input-schema-type"]
    assert "protocol" not in recs["ok"]


def test_pin_is_worded_as_a_baseline_everywhere(capsys):
    """Item 11: ``pin --help`` and docs/pins.md say the same thing."""
    with pytest.raises(SystemExit):
        main(["pin", "--help"])
    out = capsys.readouterr().out
    assert "approve everything" not in out
    assert "baseline, not a blanket approval" in " ".join(out.split())
    docs = (Path(__file__).parent.parent.parent / "docs" / "pins.md").read_text()
    assert "`pin` is a baseline, not a blanket approval" in docs
    top = build_parser().format_help()
    assert "approve what your servers serve" not in top


@pytest.mark.parametrize("command", [c for c, _, _ in COMMANDS])
def test_every_command_help_ends_with_an_example(command, capsys):
    """Item 21: the top-level help promises an example for every command."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    example = out.split("\nexample:\n", 1)
    assert len(example) == 2 and example[1].strip().startswith("mcp-review"), out[-300:]


def test_diff_without_recorded_calls_points_to_the_proxy(tmp_path, monkeypatch, capsys):
    """Item 15: calls get recorded by the proxy, so that is what the hint names."""
    fix = Path(__file__).parent.parent / "fixtures" / "pins"
    monkeypatch.chdir(tmp_path)
    assert main(["pin", "--snapshot", str(fix / "snapshot_v1.json"), "-q"]) == 0
    capsys.readouterr()
    assert main(["diff", "files", "delete_file", "--snapshot", str(fix / "snapshot_v2.json")]) == 0
    out = capsys.readouterr().out
    assert "breaking by schema" in out and "mcp-review proxy" in out, out
    assert "run `gate`" not in out


# --- item 7: a deciding command starts only the servers it names -------------------------------

SERVERS = Path(__file__).parent.parent / "servers"


def _fleet(tmp_path: Path, tools: list[dict]) -> Path:
    """``good``: a real stdio MCP server serving ``tools``; ``other``: a command that leaves a
    marker when it starts and then hangs (never an MCP server), so starting it is seen."""
    import sys

    (tmp_path / "tools.json").write_text(json.dumps(tools))
    marker = tmp_path / "other-started"
    hang = f"open({str(marker)!r}, 'a').write('ran'); import time; time.sleep(120)"
    (tmp_path / "mcp-review.toml").write_text(
        "timeout = 60\n\n[servers.good]\n"
        f"command = {json.dumps(sys.executable)}\n"
        f"args = {json.dumps(stdio_server_argv(SERVERS / 'toolserver.py')[1:])}\n"
        f"env = {{ MCP_REVIEW_TOOLS_FILE = {json.dumps(str(tmp_path / 'tools.json'))} }}\n"
        "\n[servers.other]\n"
        f"command = {json.dumps(sys.executable)}\n"
        f'args = ["-c", {json.dumps(hang)}]\n'
    )
    return marker


def _pin_other(tmp_path: Path, names: list[str]) -> None:
    """``other``'s tools approved earlier (from a snapshot: nothing starts)."""
    snap = tmp_path / "other.json"
    snap.write_text(
        json.dumps(
            {
                "format": "mcp-review-snapshot",
                "version": 1,
                "taken_at": "2026-11-01T00:00:00Z",
                "servers": {
                    "other": {
                        "principal": "default",
                        "server_info": {"name": "other", "version": "1"},
                        "protocol_version": "2025-11-25",
                        "tools": [
                            {"name": n, "description": "x", "inputSchema": {"type": "object"}}
                            for n in names
                        ],
                    }
                },
            }
        )
    )
    assert main(["pin", "--snapshot", str(snap), "-q", "--yes"]) == 0


@pytest.mark.slow
def test_approve_starts_only_the_named_server_and_keeps_the_shadowing_check(
    tmp_path, monkeypatch, capsys
):
    from servers.toolserver import tool

    monkeypatch.chdir(tmp_path)
    marker = _fleet(tmp_path, [tool("read_file", "Read."), tool("list_dir", "List.")])
    _pin_other(tmp_path, ["read_file", "list_dir"])
    capsys.readouterr()
    # The same name as a tool pinned for `other`: blocked, and said to be judged by the pin.
    rc = main(["approve", "good", "read_file", "-q"])
    out, err = capsys.readouterr()
    assert rc == 1, (out, err)
    assert "cross-server shadowing" in err and "not fetched this run" in err, err
    assert not marker.exists()  # `other` was never started
    # A homoglyph of a pinned name on `other` is caught the same way.
    (tmp_path / "tools.json").write_text(json.dumps([tool("l\u0456st_dir", "List.")]))
    rc = main(["approve", "good", "l\\u0456st_dir", "-q"])
    out, err = capsys.readouterr()
    assert rc == 1 and "confusable" in err and "not fetched this run" in err, err
    # --yes approves it; still only `good` started.
    rc = main(["approve", "good", "l\\u0456st_dir", "-q", "--yes"])
    assert rc == 0, capsys.readouterr()
    assert not marker.exists()


@pytest.mark.slow
def test_pin_server_starts_only_the_named_server_and_keeps_the_shadowing_check(
    tmp_path, monkeypatch, capsys
):
    from servers.toolserver import tool

    monkeypatch.chdir(tmp_path)
    marker = _fleet(tmp_path, [tool("read_file", "Read."), tool("grep", "Search.")])
    _pin_other(tmp_path, ["read_file"])
    capsys.readouterr()
    rc = main(["pin", "--server", "good", "-q"])
    out = capsys.readouterr().out
    assert rc == 1, out
    assert "held back" in out and "good/default/read_file" in out and "not fetched" in out, out
    assert "approved (new): good/default/grep" in out, out
    assert not marker.exists()


# --- issue 31 item 2: one audit wording, whichever front end decides ---------------------------


@pytest.mark.parametrize("tool", ["read_file", "delete_file", "search"])
def test_cli_and_app_word_a_decision_alike_in_the_audit_log(tmp_path, monkeypatch, tool):
    """The same drift approved by ``approve --yes --note`` and by the app's session (with the
    same words): the audit ``why`` differs only in how a blocked change was confirmed."""
    from mcp_review.engine.pins import Decision
    from mcp_review.engine.status import compute_status
    from mcp_review.store import audit
    from mcp_review.store.pinfile import load_pins
    from mcp_review.store.readers import load_snapshot
    from mcp_review.tui.session import ReviewSession
    from mcp_review.tui.view import server_entries

    fix = Path(__file__).parent.parent / "fixtures" / "pins"
    v1, v2 = str(fix / "snapshot_v1.json"), str(fix / "snapshot_v2.json")
    whys = {}
    for front in ("cli", "app"):
        d = tmp_path / front
        d.mkdir()
        monkeypatch.chdir(d)
        assert main(["pin", "--snapshot", v1, "-q"]) == 0
        if front == "cli":
            assert main(["approve", "files", tool, "--snapshot", v2, "--yes", "--note", "ok"]) == 0
        else:
            session = ReviewSession(load_pins("mcp-pins.toml"), pins_path="mcp-pins.toml")
            report = compute_status(load_snapshot(v2), session.pins)
            (row,) = server_entries(report, ["files"], lambda _: "tiered")
            entry = next(t for t in row.tools if t.name == tool)
            session.decide(entry, Decision.APPROVED, why="ok" if entry.blocked else "", note="")
            if not entry.blocked:  # an unblocked approval takes the operator's note
                session.undo()
                session.decide(entry, Decision.APPROVED, note="ok")
        rec = [r for r in audit.read("mcp-pins.audit.jsonl") if r.get("tool") == tool][-1]
        whys[front] = rec["why"]
    assert whys["cli"].startswith("approved (") and whys["cli"].endswith(": ok"), whys
    assert whys["cli"].replace("with --yes", "in the review app") == whys["app"], whys


# --- item 19: SARIF a code-scanning service can place and track --------------------------------

# The SARIF 2.1.0 schema's required structure for what we emit (no copy of the schema ships on
# PyPI: sarif-om, sarif-tools and jschema-to-python were checked), checked by python-jsonschema.
_SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name", "version", "rules"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string", "minLength": 1},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id", "shortDescription", "help"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "shortDescription": {"$ref": "#/$defs/message"},
                                                "help": {"$ref": "#/$defs/message"},
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["ruleId", "ruleIndex", "message", "locations"],
                            "properties": {
                                "ruleId": {"type": "string", "pattern": "^[a-z0-9-]+$"},
                                "ruleIndex": {"type": "integer", "minimum": 0},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {"$ref": "#/$defs/message"},
                                "partialFingerprints": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string"},
                                },
                                "locations": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {
                                        "type": "object",
                                        "required": ["logicalLocations"],
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "properties": {
                                                    "region": {
                                                        "type": "object",
                                                        "required": ["startLine"],
                                                        "properties": {
                                                            "startLine": {
                                                                "type": "integer",
                                                                "minimum": 1,
                                                            }
                                                        },
                                                    }
                                                },
                                            },
                                            "logicalLocations": {
                                                "type": "array",
                                                "items": {
                                                    "type": "object",
                                                    "required": ["fullyQualifiedName"],
                                                },
                                            },
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
    "$defs": {
        "message": {
            "type": "object",
            "required": ["text"],
            "properties": {"text": {"type": "string"}},
        }
    },
}


def test_sarif_places_each_tool_and_tracks_it_by_its_rule(tmp_path, monkeypatch, capsys):
    import jsonschema

    from mcp_review import __version__

    fix = Path(__file__).parent.parent / "fixtures" / "pins"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mcp-review.toml").write_text(
        '# servers\n\n[servers.other]\ncommand = "false"\n\n[servers.files]\ncommand = "false"\n'
    )
    calls = fix / "calls_files.jsonl"
    assert main(["pin", "--snapshot", str(fix / "snapshot_v1.json"), "-q"]) == 0
    capsys.readouterr()
    argv = ["check", "--from-snapshot", str(fix / "snapshot_v2.json"), "--format", "sarif"]
    rc = main([*argv, "--calls", f"files={calls}", "-q"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1
    jsonschema.validate(doc, _SARIF_SUBSET)
    run = doc["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["version"] == __version__
    ids = [r["id"] for r in driver["rules"]]
    results = run["results"]
    assert all(ids[r["ruleIndex"]] == r["ruleId"] for r in results)
    tools = [r for r in results if r["locations"][0]["logicalLocations"][0]["kind"] == "function"]
    names = [r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] for r in tools]
    assert len(names) == len(set(names))  # one result per tool
    for r in tools:
        loc = r["locations"][0]
        assert loc["physicalLocation"]["region"]["startLine"] == 6  # [servers.files]
        srv, principal, tool = loc["logicalLocations"][0]["fullyQualifiedName"].split("/")
        assert r["partialFingerprints"]["mcpReview/v2"] == f"{srv}/{principal}/{tool}/{r['ruleId']}"
    by = {r["locations"][0]["logicalLocations"][0]["name"]: r for r in tools}
    # Filed under the most severe change's rule, not under its state.
    assert not by["delete_file"]["ruleId"].startswith("tool-"), by["delete_file"]
    assert len({r["ruleId"] for r in results}) > 4
    for rule in driver["rules"]:
        assert rule["help"]["text"] and rule["help"]["text"] != rule["id"], rule
