"""Seed 000's C1–C6 table, reproduced end to end through the `gate` command.

Each row runs ``mcp-review gate OLD NEW CALLS --format json`` in a real subprocess-free CLI call
and checks the verdict, the broken-call count, the byte-pin column (digest changed?) and the
class of the changes, exactly as the seed's table reads:

    change                                   byte-pin   compat   breaks
    C1 identical (re-serialized)             ok         PASS     0/4
    C2 real MCP additive diff                BLOCK      PASS     0/3
    C3 added required param 'tenant_id'      BLOCK      FAIL     4/4
    C4 enum shrank on 'format'               BLOCK      FAIL     1/4
    C5 removed optional 'timeout_ms'         BLOCK      FAIL     0/4   <- breaking by schema, 0 calls touched
    C6 desc rewrite + added optional 'cache' BLOCK      PASS     0/4
    byte-pin fired: 5/6   |   compat-gate fired: 3/6
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_review.cli import main

SEED = Path(__file__).parent.parent / "fixtures" / "seed"
CALLS = SEED / "calls.jsonl"

CASES = {
    "C1": (SEED / "c1_old.json", SEED / "c1_new.json", CALLS, "ok", "PASS", (0, 4)),
    "C2": (
        SEED / "c2" / "implementation-2025-06-18.json",
        SEED / "c2" / "implementation-2025-11-25.json",
        SEED / "c2" / "calls.jsonl",
        "BLOCK",
        "PASS",
        (0, 3),
    ),
    "C3": (SEED / "c3_old.json", SEED / "c3_new.json", CALLS, "BLOCK", "FAIL", (4, 4)),
    "C4": (SEED / "c4_old.json", SEED / "c4_new.json", CALLS, "BLOCK", "FAIL", (1, 4)),
    "C5": (SEED / "c5_old.json", SEED / "c5_new.json", CALLS, "BLOCK", "FAIL", (0, 4)),
    "C6": (SEED / "c6_old.json", SEED / "c6_new.json", CALLS, "BLOCK", "PASS", (0, 4)),
}


def run_gate(capsys, old, new, calls, fmt="json"):
    code = main(["gate", str(old), str(new), str(calls), "--format", fmt])
    out = capsys.readouterr().out
    return code, (json.loads(out) if fmt == "json" else out)


@pytest.mark.parametrize("case", sorted(CASES))
def test_seed_row(case, capsys):
    old, new, calls, byte_pin, verdict, (broken, total) = CASES[case]
    code, report = run_gate(capsys, old, new, calls)
    pin = "BLOCK" if report["old_digest"] != report["new_digest"] else "ok"
    assert (pin, report["verdict"]) == (byte_pin, verdict)
    assert (report["replay"]["broken"], report["replay"]["total"]) == (broken, total)
    assert code == (0 if verdict == "PASS" else 1)
    # Negative control: every recorded call is valid under the schema it was recorded against.
    assert report["replay"]["bad_recordings"] == 0
    assert all(c["valid_under_old"] for c in report["replay"]["calls"])


def rules(report, cls=None):
    return {c["rule"] for c in report["changes"] if cls is None or c["class"] == cls}


def test_c1_reserialised_is_not_a_change(capsys):
    _, r = run_gate(capsys, *CASES["C1"][:3])
    assert r["changes"] == []
    # and the two files really differ as text (keys reordered, whitespace changed)
    assert CASES["C1"][0].read_text() != CASES["C1"][1].read_text()


def test_c2_real_spec_diff_is_compatible_plus_description_trust(capsys):
    _, r = run_gate(capsys, *CASES["C2"][:3])
    assert {c["class"] for c in r["changes"]} == {"compatible", "trust"}
    added = {c["pointer"] for c in r["changes"] if c["rule"] == "property-added-optional"}
    assert added == {"/inputSchema/properties/" + p for p in ("description", "icons", "websiteUrl")}


def test_c3_c4_name_the_breaking_rule_and_the_broken_call(capsys):
    _, r3 = run_gate(capsys, *CASES["C3"][:3])
    assert "property-added-required" in rules(r3, "breaking")
    errs = [e["message"] for c in r3["replay"]["calls"] for e in c["errors"]]
    assert len(errs) == 4 and all("tenant_id" in m for m in errs)
    _, r4 = run_gate(capsys, *CASES["C4"][:3])
    assert rules(r4, "breaking") == {"enum-narrowed"}
    broken = [c for c in r4["replay"]["calls"] if c["broken"]]
    assert [c["arguments"]["format"] for c in broken] == ["csv"]
    assert broken[0]["errors"][0]["path"] == "/format"


def test_c5_names_the_split_out_loud(capsys):
    code, r = run_gate(capsys, *CASES["C5"][:3])
    assert code == 1 and rules(r, "breaking") == {"property-removed-closed"}
    assert r["breaking_by_schema_only"] is True
    # A witness shows the call that would break, though none of the recorded ones does.
    (change,) = [c for c in r["changes"] if c["rule"] == "property-removed-closed"]
    assert "timeout_ms" in change["witness"]
    code, text = run_gate(capsys, *CASES["C5"][:3], fmt="text")
    assert "breaking by schema, 0 recorded calls touched" in text
    assert "breaks=0/4" in text


def test_c6_description_rewrite_is_trust_not_breaking(capsys):
    _, r = run_gate(capsys, *CASES["C6"][:3])
    assert rules(r, "trust") == {"tool-description-changed"}
    assert rules(r, "compatible") == {"property-added-optional"}


def test_table_totals(capsys):
    """byte-pin fired 5/6, compat-gate fired 3/6: the two false alarms removed are C2 and C6."""
    pin_fired = gate_fired = 0
    for case in sorted(CASES):
        code, r = run_gate(capsys, *CASES[case][:3])
        pin_fired += r["old_digest"] != r["new_digest"]
        gate_fired += code == 1
    assert (pin_fired, gate_fired) == (5, 3)


def test_gate_input_errors_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x",\n "inputSchema": {\n')
    assert main(["gate", str(bad), str(CASES["C3"][1]), str(CALLS)]) == 2
    err = capsys.readouterr().err
    assert "bad.json:3" in err
    assert main(["gate", str(tmp_path / "missing.json"), str(CASES["C3"][1]), str(CALLS)]) == 2
    assert "no such file" in capsys.readouterr().err
    arr = tmp_path / "arr.json"
    arr.write_text("[1, 2]")
    assert main(["classify", str(arr), str(CASES["C3"][1])]) == 2
    assert "must be a JSON object" in capsys.readouterr().err
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"sql": "select 1"}\n{"sql": \n')
    assert main(["gate", str(CASES["C3"][0]), str(CASES["C3"][1]), str(calls)]) == 2
    assert "calls.jsonl:2" in capsys.readouterr().err
