"""`mcp-review demo`: every v1 → v2 finding reported with the right class and status, nothing written outside the workspace."""

from __future__ import annotations

import asyncio
import json
import tomllib
from pathlib import Path
from typing import Any

import demo_runs
import pytest
from helpers import run_cli

from mcp_review.cli import main
from mcp_review.demo import definitions
from mcp_review.demo.servers import serve_http
from mcp_review.demo.workspace import Workspace
from mcp_review.engine.status import State, compute_status
from mcp_review.services.fetch import fetch_config
from mcp_review.store.pinfile import load_pins

pytestmark = pytest.mark.slow

SHADOW = definitions.SHADOW_NAME

# Per (server, tool): status, policy outcome (tier "tiered"), {rule id: class} that must be
# reported, (broken, total) recorded calls replayed (None: nothing to replay).
EXPECTED: dict[tuple[str, str], tuple[str, str, dict[str, str], tuple[int, int] | None]] = {
    # Seed 000, C3: added required parameter; every recorded call breaks.
    ("warehouse", "run_query"): (
        "broken",
        "review",
        {"property-added-required": "breaking"},
        (4, 4),
    ),
    # C4: enum shrank; only the CSV call breaks.
    ("warehouse", "run_query_export"): ("broken", "review", {"enum-narrowed": "breaking"}, (1, 4)),
    # C5: breaking by schema, no recorded call touched (a witness shows one that would).
    ("warehouse", "run_query_strict"): (
        "broken",
        "review",
        {"property-removed-closed": "breaking"},
        (0, 4),
    ),
    # C6: description rewrite + optional parameter: compatible calls, but text needs review.
    ("warehouse", "run_query_cached"): (
        "changed",
        "review",
        {"tool-description-changed": "trust", "property-added-optional": "compatible"},
        (0, 4),
    ),
    # C2: additive only; the tiered policy re-pins it without a human.
    ("warehouse", "run_query_explain"): (
        "changed",
        "auto-approve",
        {"property-added-optional": "compatible"},
        (0, 4),
    ),
    # outputSchema: what a caller may receive grew (direction flipped: breaking).
    ("warehouse", "table_stats"): (
        "broken",
        "review",
        {"type-widened": "breaking", "required-removed": "breaking"},
        (0, 1),
    ),
    ("warehouse", "export_csv"): ("removed", "review", {}, None),
    ("warehouse", "export_parquet"): ("new", "review", {}, None),
    # Seed 003: the loud rename plus destructiveHint false → true: blocked.
    ("devtools", "deploy"): (
        "broken",
        "block",
        {
            "property-rename-suspected": "breaking",
            "property-added-required": "breaking",
            "annotation-relaxed": "trust",
        },
        (2, 2),
    ),
    # Seed 002: the rug pull, partly hidden: blocked.
    ("devtools", "lint_file"): (
        "changed",
        "block",
        {
            "tool-description-changed": "trust",
            "hidden-characters-added": "trust",
            "property-added-optional": "compatible",
        },
        (0, 2),
    ),
    # The homoglyph twin of read_file: new, and blocked as a shadow.
    ("devtools", SHADOW): ("new", "block", {}, None),
}


@pytest.fixture(autouse=True)
def _warm_children(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled stdio server and the proxy a demo run in this process starts fork from the
    warm zygote (tests/demo_runs.py ``warm_children``, as the shared headless runs do): their
    start-up is not what these tests are about."""
    demo_runs.warm_children(demo_runs.warm_launcher(), monkeypatch.setattr)


@pytest.mark.xdist_group(demo_runs.GROUP)
def test_headless_json_reports_every_finding() -> None:
    proc = demo_runs.headless("--format", "json")  # shared with test_hostile_output (one run)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    # check's own verdict: v2 drifted, so the gate fails.
    assert doc["format"] == "mcp-review-check"
    assert (doc["verdict"], doc["exit_code"]) == ("FAIL", 1)
    assert doc["demo"]["pinned"] == "v1" and doc["demo"]["serving"] == "v2"
    transports = {s["server"]: s["transport"] for s in doc["demo"]["servers"]}
    assert transports == {"warehouse": "stdio", "devtools": "http"}
    assert all(s["error"] is None for s in doc["servers"])
    versions = {s["server"]: s["server_version"] for s in doc["servers"]}
    assert versions == {"warehouse": "2.4.0", "devtools": "1.8.2"}

    # issue 43: devtools' review prompt was rug-pulled (its description asks for .env and
    # concealment): changed, blocked, with its cues
    [prompt] = doc["surfaces"]
    assert (prompt["subject"], prompt["server"], prompt["name"]) == (
        "prompt",
        "devtools",
        "review_change",
    )
    assert prompt["status"] == "changed" and prompt["policy"]["outcome"] == "block"
    assert prompt["fails_gate"] and {"exfiltration", "concealment"} <= {
        c["kind"] for c in prompt["cues"]
    }
    tools = {(t["server"], t["tool"]): t for t in doc["tools"]}
    assert set(tools) == set(EXPECTED)  # read_file (re-serialized, seed C1) stays pinned
    assert doc["counts"]["pinned"] == 1
    for key, (status, outcome, rules, replay) in EXPECTED.items():
        t = tools[key]
        assert (t["status"], t["policy"]["outcome"]) == (status, outcome), key
        assert t["fails_gate"] is (outcome != "auto-approve"), key
        cmp = t["comparison"]
        if status in ("new", "removed"):
            assert cmp is None, key
            continue
        got = {(c["rule"], c["class"]) for c in cmp["changes"]}
        assert set(rules.items()) <= got, (key, got)
        assert (cmp["replay"]["broken"], cmp["replay"]["total"]) == replay, key
        assert cmp["verdict"] == ("FAIL" if status == "broken" else "PASS"), key

    # C5's split cell, named out loud, with a concrete call that would break.
    strict = tools[("warehouse", "run_query_strict")]["comparison"]
    assert strict["breaking_by_schema_only"] is True
    removed = next(c for c in strict["changes"] if c["rule"] == "property-removed-closed")
    assert "timeout_ms" in removed["witness"]
    # The rug pull: the TAG-smuggled sentence is decoded for the operator; both blocks named.
    lint = tools[("devtools", "lint_file")]
    hidden = next(
        c for c in lint["comparison"]["changes"] if c["rule"] == "hidden-characters-added"
    )
    assert "~/.ssh/id_rsa" in hidden["message"] and "TAG" in hidden["message"]
    assert any(r.startswith("hidden characters") for r in lint["policy"]["reasons"])
    deploy = tools[("devtools", "deploy")]
    assert "annotation claims more power: destructiveHint false→true" in deploy["policy"]["reasons"]
    shadow = tools[("devtools", SHADOW)]
    assert shadow["shadows"] == ["devtools/read_file"]
    assert any("confusable" in r for r in shadow["policy"]["reasons"])
    export = tools[("warehouse", "export_csv")]
    assert "2 recorded call(s) would fail" in export["policy"]["reasons"][0]

    # Seed 003 §3b: read_file is pinned and unchanged (above), yet the recorded read-only
    # call now answers another cluster and strategy; the deploy calls are never re-sent.
    (rerun,) = doc["rerun"]
    assert rerun["server"] == "devtools"
    calls = {(c["tool"], json.dumps(c["arguments"], sort_keys=True)): c for c in rerun["calls"]}
    rf = calls[("read_file", '{"path": "deploy/staging.yaml"}')]
    assert rf["outcome"] == "changed"
    assert [(d["pointer"], d["old"], d["new"]) for d in rf["differences"]] == [
        ("/content/0/text", "eu-west-1/staging-a", "us-east-2/staging-b"),
        ("/content/0/text", "rolling", "recreate"),
    ]
    assert {c["outcome"] for c in rerun["calls"] if c["tool"] != "read_file"} == {"skipped"}
    assert calls[("read_file", '{"path": "README.md"}')]["outcome"] == "skipped"
    assert rerun["counts"]["changed"] == 1

    # Issue 29: what `proxy --enforce` does with the drift. The stdio server's honest change
    # (a reworded description and a new optional parameter) is held: a real client through
    # the proxy lists it exactly as approved and calls it; the new parameter is refused. The
    # rug-pulled lint_file carries hidden characters: withheld.
    verdicts = {(v["server"], v["tool"]): v for v in doc["proxy"]["tools"]}
    assert {k for k, v in verdicts.items() if v["proxy"] == "held"} == {
        ("warehouse", "run_query_cached")
    }
    assert verdicts[("devtools", "lint_file")]["proxy"] == "withheld"
    assert "hidden characters" in verdicts[("devtools", "lint_file")]["why"]
    assert verdicts[("warehouse", "run_query_explain")]["proxy"] == "relayed"
    held = doc["proxy"]["warehouse"]
    assert held["served_as_approved"] is True and held["call"] == "ran"
    assert held["call_with_new_parameter"]["refused"] is True
    assert "/cache" in held["call_with_new_parameter"]["reason"]

    # Nothing outside the (removed) temporary workspace.
    assert proc.left == ()


@pytest.mark.xdist_group(demo_runs.GROUP)
def test_headless_text() -> None:
    proc = demo_runs.headless()  # the default format: text
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "FAIL: 1 pinned, 2 new, 3 changed, 5 broken, 1 removed" in out
    assert "✗ BROKEN   devtools/deploy  [block]" in out
    assert "4 recorded call(s) would now fail" in out
    # Server strings are shown with hidden characters made visible, never raw.
    assert "\u200b" not in out and "\U000e0044" not in out
    assert "id_⟨U+200B⟩rsa" in out
    assert "pinned 10 tools at v1" in proc.stderr
    # C5: no recorded call breaks, so the generated witness is the evidence, and the split
    # between schema and traffic is said out loud.
    assert (
        'witness call: {"sql": "a", "timeout_ms": 0} -> rejected under new: (root): '
        "Additional properties"
    ) in out
    assert "breaking by schema, 0 of 4 recorded calls touched" in out
    # The silent change behind read_file's unchanged schema, shown by rerun.
    assert "`mcp-review rerun devtools --yes` re-sent a recorded read-only call" in out
    assert '  changed            read_file {"path": "deploy/staging.yaml"}' in out
    assert "/content/0/text: [-rolling-]{+recreate+}" in out
    # Issue 29: held and withheld, said.
    assert "  held      warehouse/run_query_cached: served as approved" in out
    assert "  withheld  devtools/lint_file: hidden characters appeared" in out
    assert "run_query_cached is listed exactly as approved; a call valid under it ran" in out
    # The homoglyph twin never prints identically to the tool it imitates.
    # ...and comes with the escaped form approve/deny accept (issue 13).
    assert "devtools/r\u0435⟨U+0435⟩ad_file (as r\\u0435ad_file)  [block]" in out


def test_keep_writes_a_reusable_workspace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    keep = tmp_path / "ws"
    assert main(["demo", "--headless", "--keep", str(keep)]) == 0
    out = capsys.readouterr().out
    assert f"--pins {keep / 'mcp-pins.toml'}" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ws"]
    assert (keep / "servers.state").read_text().strip() == "v2"
    pins = load_pins(str(keep / "mcp-pins.toml"))
    served = {(s, t["name"]) for s in definitions.SERVERS for t in definitions.tools(s, "v1")}
    assert {(k[0], k[2]) for k in pins.pins} == served
    assert all(p.approved and p.decided_by == "mcp-review demo" for p in pins.pins.values())
    assert {p.server_version for p in pins.pins.values() if p.server == "warehouse"} == {"2.3.0"}
    # the prompts are pinned as served at v1 too (issue 43)
    assert {(k[0], k[2], k[3]) for k in pins.surfaces} == {
        (s, "prompt", p["name"]) for s in definitions.SERVERS for p in definitions.prompts(s, "v1")
    }
    audit = (keep / "mcp-pins.audit.jsonl").read_text().splitlines()
    assert len(audit) == len(served) + len(pins.surfaces)
    cfg = tomllib.loads((keep / "mcp-review.toml").read_text())
    assert set(cfg["servers"]) == {"warehouse", "devtools"}
    assert cfg["servers"]["devtools"]["url"].startswith("http://127.0.0.1:")
    # A second run refuses to write into it.
    assert main(["demo", "--headless", "--keep", str(keep)]) == 2
    assert "new or empty folder" in capsys.readouterr().err


def test_pins_match_what_v1_serves(tmp_path: Path) -> None:
    """The pin file approved exactly what the servers serve at v1: no drift before the flip."""
    ws = Workspace.create(tmp_path / "ws")
    with serve_http("devtools", ws.state_path) as url:
        ws.write_config({"devtools": url})
        cfg = ws.config()
        assert ws.pin(fetch_config(cfg)) == 10
        again = fetch_config(cfg)
    report = compute_status(again, load_pins(str(ws.pins_path)), calls=ws.call_logs())
    assert {t.state for t in report.tools} == {State.PINNED}
    assert len(report.tools) == 10
    # And the pins are the bundled v1 definitions, byte for byte in meaning.
    pins = load_pins(str(ws.pins_path))
    for s in definitions.SERVERS:
        for t in definitions.tools(s, "v1"):
            assert pins.get(s, "default", t["name"]).tool_def().wire == t


def test_app_needs_a_terminal(tmp_path: Path) -> None:
    """Without --headless and with no terminal on stdin and stdout: exit 2 before anything
    starts (the check is the command's own isatty test: run in this process, as
    tests/helpers.run_cli gives it a non-terminal stdin and stdout)."""
    proc = run_cli(["demo"], cwd=tmp_path)
    assert proc.returncode == 2
    assert "--headless" in proc.stderr


def test_app_shows_the_drift(tmp_path: Path) -> None:
    """`mcp-review demo` without --headless: the app the command builds, on the same
    workspace, lists every finding with the status and policy the headless report gives."""
    from mcp_review.commands.demo import make_app
    from mcp_review.demo.workspace import drifted

    async def drive(app: Any) -> dict[tuple[str, str], tuple[str, str]]:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(1200):  # the fetch worker runs on the app loop
                await pilot.pause(0.05)
                if app.main is not None and app.main.loaded:
                    break
            else:
                raise AssertionError("the app never finished fetching")
            return {
                (t.server, t.name): (str(t.status), t.policy)
                for s in app.main.servers
                for t in s.tools
            }

    # The set-up fetches synchronously (anyio.run), so the app gets its own loop afterwards.
    with drifted(tmp_path / "ws") as (ws, _):
        got = asyncio.run(drive(make_app(ws)))
    want = {k: (v[0], v[1]) for k, v in EXPECTED.items()}
    want[("devtools", "read_file")] = ("pinned", "none")
    assert got == want
