"""Replay evidence for removed properties: a recorded call that still sends a property removed
from an open object is "argument now ignored" (outcome ``ignored``), and like a witness it
promotes property-removed-open to breaking (seed 003's fail-open break)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from helpers import tool_def as tool

from mcp_review.engine.compare import compare
from mcp_review.engine.locate import instance_paths
from mcp_review.engine.model import ChangeClass
from mcp_review.engine.replay import RemovedProperty, ReplayOutcome, replay
from mcp_review.engine.status import State, compute_status
from mcp_review.formats.compare import to_text as render_text
from mcp_review.store.readers import load_call_log

OLD = {
    "type": "object",
    "properties": {
        "q": {"type": "string"},
        "verbose": {"type": "boolean"},
        "opts": {"$ref": "#/$defs/Opts"},
        "list": {"type": "array", "items": {"$ref": "#/$defs/Opts"}},
        "pick": {
            "anyOf": [
                {"type": "object", "properties": {"mode": {}}},
                {"type": "object", "properties": {"mode": {}, "x": {}}},
            ]
        },
    },
    "required": ["q"],
    "$defs": {"Opts": {"type": "object", "properties": {"mode": {"type": "string"}, "k": {}}}},
}


def without(*paths: tuple[str, ...]) -> dict:
    s = copy.deepcopy(OLD)
    for p in paths:
        node = s
        for k in p[:-1]:
            node = node[k]
        del node[p[-1]]
    return s


def test_a_call_still_sending_a_removed_property_is_ignored_and_promotes():
    new = without(("properties", "verbose"))
    calls = [{"q": "a"}, {"q": "a", "verbose": True}, {"q": 1, "verbose": True}]
    cmp = compare(tool(OLD), tool(new), calls=calls)
    (ch,) = cmp.changes
    assert ch.rule == "property-removed-open"
    assert ch.cls is ChangeClass.BREAKING and ch.promoted and not ch.has_witness
    assert ch.note == "recorded call 2 still sends it: argument now ignored"
    assert ch.to_json()["promoted_by_replay"] is True
    r = cmp.replay
    assert [o.outcome for o in r.outcomes] == [
        ReplayOutcome.OK,
        ReplayOutcome.IGNORED,
        ReplayOutcome.BAD_RECORDING,
    ]
    assert (r.total, r.broken, r.ignored, r.bad_recordings) == (3, 0, 1, 1)
    assert r.outcomes[1].ignored == ["/verbose"]
    js = cmp.to_json()
    assert js["verdict"] == "FAIL" and js["breaking_by_schema_only"] is False
    assert js["replay"]["ignored"] == 1
    # Report format 2 (issue 15): the listed calls; the ok one is counted ("valid").
    assert [c["outcome"] for c in js["replay"]["calls"]] == ["ignored", "bad-recording"]
    assert js["replay"]["valid"] == 1
    assert [c["outcome"] for c in cmp.to_json(all_calls=True)["replay"]["calls"]] == [
        "ok",
        "ignored",
        "bad-recording",
    ]
    assert js["replay"]["calls"][0]["ignored"] == ["/verbose"]


def test_no_call_sends_it_stays_potentially_breaking():
    new = without(("properties", "verbose"))
    cmp = compare(tool(OLD), tool(new), calls=[{"q": "a"}])
    (ch,) = cmp.changes
    assert ch.cls is ChangeClass.POTENTIALLY_BREAKING and not ch.promoted and ch.note is None
    assert cmp.replay.ignored == 0 and cmp.verdict == "PASS"


def test_removed_inside_a_shared_definition_is_found_through_every_ref_site():
    new = without(("$defs", "Opts", "properties", "mode"))
    calls = [
        {"q": "a", "opts": {"k": 1}},
        {"q": "a", "opts": {"mode": "x"}},
        {"q": "a", "list": [{}, {"mode": "y"}, {"mode": "z"}]},
    ]
    cmp = compare(tool(OLD), tool(new), calls=calls)
    (ch,) = cmp.changes
    assert ch.pointer == "/inputSchema/$defs/Opts/properties/mode"
    assert ch.cls is ChangeClass.BREAKING
    assert ch.note == "recorded call 2 and 1 more still send it: argument now ignored"
    assert [o.ignored for o in cmp.replay.outcomes] == [
        [],
        ["/opts/mode"],
        ["/list/1/mode", "/list/2/mode"],
    ]


def test_a_branch_that_may_not_apply_is_never_guessed():
    """Only one anyOf branch lost ``x``: a call sending x may match the other: no evidence."""
    new = copy.deepcopy(OLD)
    del new["properties"]["pick"]["anyOf"][1]["properties"]["x"]
    assert instance_paths(OLD, "/properties/pick/anyOf/1/properties/x") == ()
    cmp = compare(tool(OLD), tool(new), calls=[{"q": "a", "pick": {"mode": 1, "x": 2}}])
    assert cmp.replay.ignored == 0
    assert all(not c.promoted for c in cmp.changes)


def test_closed_object_removal_is_broken_not_ignored():
    old = {**OLD, "additionalProperties": False}
    new = without(("properties", "verbose"))
    new["additionalProperties"] = False
    cmp = compare(tool(old), tool(new), calls=[{"q": "a", "verbose": True}])
    assert [c.rule for c in cmp.changes] == ["property-removed-closed"]
    assert cmp.replay.broken == 1 and cmp.replay.ignored == 0
    assert cmp.replay.outcomes[0].outcome is ReplayOutcome.BROKEN


def test_replay_core_counts_stay_exact_with_ignored_calls():
    rp = RemovedProperty("/inputSchema/properties/a", (("a",),))
    r = replay(
        {"type": "object"},
        {"type": "object", "properties": {"b": {"type": "integer"}}},
        [{"a": 1}, {"b": "x"}, {}, {"a": 2, "b": 1}],
        [rp],
    )
    assert (r.total, r.broken, r.ignored, r.bad_recordings) == (4, 1, 2, 0)
    assert [str(o.outcome) for o in r.outcomes] == ["ignored", "broken", "ok", "ignored"]
    assert [c.index for c in r.ignoring("/inputSchema/properties/a")] == [1, 4]
    assert r.ignoring("/inputSchema/properties/zzz") == []


def test_a_huge_array_lists_a_bounded_number_of_ignored_arguments():
    rp = RemovedProperty("/inputSchema/properties/l/items/properties/m", (("l", None, "m"),))
    r = replay({}, {}, [{"l": [{"m": i} for i in range(10_000)]}], [rp])
    (o,) = r.outcomes
    assert o.outcome is ReplayOutcome.IGNORED and 0 < len(o.ignored) <= 20


def test_gate_text_shows_the_ignored_call():
    new = without(("properties", "verbose"))
    cmp = compare(tool(OLD), tool(new), calls=[{"q": "a", "verbose": True}])
    text = render_text(cmp)
    assert "[IGNORED: argument now ignored]" in text
    assert "/verbose: no longer declared; the server now ignores it" in text
    assert "promoted to breaking: recorded call 1 still sends it" in text
    assert "1 sending an argument now ignored" in text


def test_gate_cli_fails_on_an_ignored_argument(tmp_path):
    old_f, new_f, calls_f = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "c.jsonl"
    old_f.write_text(json.dumps({"name": "t", "inputSchema": OLD}))
    new_f.write_text(json.dumps({"name": "t", "inputSchema": without(("properties", "verbose"))}))
    calls_f.write_text('{"q": "a"}\n{"q": "b", "verbose": false}\n')
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "mcp_review",
            "gate",
            str(old_f),
            str(new_f),
            str(calls_f),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 1, p.stderr
    out = json.loads(p.stdout)
    assert out["verdict"] == "FAIL"
    calls = out["replay"]["calls"]
    # Report format 2 (issue 15): the ignored call is listed, the ok one counted.
    assert [c["outcome"] for c in calls] == ["ignored"] and out["replay"]["valid"] == 1
    assert calls[0]["ignored"] == ["/verbose"] and calls[0]["line"] == 2


@pytest.mark.parametrize("send", [True, False])
def test_status_marks_the_tool_broken_only_when_a_call_sends_it(tmp_path, send):
    from mcp_review.engine.pins import PinFile, make_pin
    from mcp_review.engine.snapshot import ServerSnapshot, Snapshot

    old, new = tool(OLD, "search"), tool(without(("properties", "verbose")), "search")
    pf = PinFile()
    pf.decide(make_pin("srv", old, "approved", by="alice"))
    log = tmp_path / "calls.jsonl"
    args = {"q": "x", "verbose": True} if send else {"q": "x"}
    log.write_text(json.dumps({"tool": "search", "arguments": args}) + "\n")
    snap = Snapshot(servers={"srv": ServerSnapshot(name="srv", principal="default", tools=[new])})
    r = compute_status(snap, pf, calls={"srv": load_call_log(str(log))})
    (s,) = r.tools
    assert s.state is (State.BROKEN if send else State.CHANGED)
    assert s.comparison.replay.ignored == (1 if send else 0)


async def test_the_apps_replay_tab_lists_an_ignored_call_first():
    from textual.app import App

    from mcp_review.tui.widgets.replay_table import ReplayTable

    class Host(App):
        def compose(self):
            yield ReplayTable(id="replay")

    new = without(("properties", "verbose"))
    cmp = compare(tool(OLD), tool(new), calls=[{"q": "a"}, {"q": "b", "verbose": True}])
    async with Host().run_test() as pilot:
        table = pilot.app.query_one(ReplayTable)
        assert table.set_outcomes(cmp.replay.outcomes) == 2
        first = table.get_row_at(0)
        assert first[0].plain == "2" and first[3].plain == "IGNORED"
        assert first[4].plain == "argument now ignored: /verbose"
        assert table.get_row_at(1)[3].plain == "ok"
