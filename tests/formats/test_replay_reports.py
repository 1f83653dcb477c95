"""Replay reports that scale (issue 15): broken calls and bad recordings listed, the rest
counted, ``--all-calls`` for every one; JSON format version 2 written as it goes; the log read
a chunk at a time. The expected sets come from the Python ``jsonschema`` package, a validator
independent of the jsonschema-rs one the replay uses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from mcp_review.cli import main
from mcp_review.engine import calls as calls_mod
from mcp_review.engine import replay as replay_mod
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.replay import replay
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.store.pinfile import save_pins
from mcp_review.store.readers import iter_calls, load_calls

OLD = {
    "type": "object",
    "properties": {
        "sql": {"type": "string"},
        "limit": {"type": "integer", "maximum": 100},
        "mode": {"enum": ["fast", "safe"]},
    },
    "required": ["sql"],
}
NEW = {**OLD, "properties": {**OLD["properties"], "limit": {"type": "integer", "maximum": 10}}}


def _calls() -> list[dict]:
    """57 calls: 27 broken (limit 11..100), 4 bad recordings (no sql), 26 valid."""
    out: list[dict] = []
    for i in range(57):
        if i % 14 == 13:
            out.append({"limit": 1})  # invalid under old: a bad recording
        elif i % 2:
            out.append({"sql": f"select {i}", "limit": 11 + i})
        else:
            out.append({"sql": f"select {i}", "limit": i % 10, "mode": "fast"})
    return out


def _truth(calls: list[dict]) -> tuple[list[int], list[int]]:
    vo, vn = jsonschema.Draft202012Validator(OLD), jsonschema.Draft202012Validator(NEW)
    broken = [i + 1 for i, c in enumerate(calls) if vo.is_valid(c) and not vn.is_valid(c)]
    bad = [i + 1 for i, c in enumerate(calls) if not vo.is_valid(c)]
    return broken, bad


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    tool = {"name": "q", "description": "query"}
    (tmp_path / "old.json").write_text(json.dumps({**tool, "inputSchema": OLD}))
    (tmp_path / "new.json").write_text(json.dumps({**tool, "inputSchema": NEW}))
    with open(tmp_path / "calls.jsonl", "w") as f:
        f.writelines(json.dumps(c) + "\n" for c in _calls())
    return {
        k: str(tmp_path / f"{k}.json{'l' if k == 'calls' else ''}") for k in ("old", "new", "calls")
    }


def _gate(capsys, files, *extra: str) -> tuple[int, str]:
    code = main(["gate", files["old"], files["new"], files["calls"], *extra])
    return code, capsys.readouterr().out


def test_truth_has_every_kind():
    broken, bad = _truth(_calls())
    assert len(broken) > 20 and len(bad) == 4 and len(broken) + len(bad) < 57


def test_text_lists_first_20_of_each_kind_and_counts_the_rest(files, capsys):
    broken, bad = _truth(_calls())
    code, out = _gate(capsys, files)
    assert code == 1
    listed = [int(m) for m in re.findall(r"^  call#(\d+) ", out, re.M)]
    assert listed == broken[:20] + bad  # per kind, in log order
    valid = 57 - len(broken) - len(bad)
    assert (
        f"{len(broken)} broken, {len(bad)} bad recordings, {valid} valid under old and new" in out
    )
    assert f"… and {len(broken) - 20} more broken calls (--all-calls lists every one)" in out
    assert f"{valid} calls valid under old and new, not listed" in out


def test_text_all_calls_lists_every_call_in_log_order(files, capsys):
    _, out = _gate(capsys, files, "--all-calls")
    assert [int(m) for m in re.findall(r"^  call#(\d+) ", out, re.M)] == list(range(1, 58))
    assert "more broken calls" not in out and "not listed" not in out


def test_json_v2_lists_broken_and_bad_only_with_counts(files, capsys):
    broken, bad = _truth(_calls())
    code, out = _gate(capsys, files, "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["version"] == 2
    r = doc["replay"]
    assert (r["total"], r["broken"], r["bad_recordings"], r["valid"]) == (
        57,
        len(broken),
        len(bad),
        57 - len(broken) - len(bad),
    )
    assert r["calls_listed"] == "notable"
    assert [c["index"] for c in r["calls"]] == sorted(broken + bad)  # every one, not 20
    assert all(c["broken"] for c in r["calls"] if c["index"] in broken)
    assert all(
        c["old_errors"] and not c["valid_under_old"] for c in r["calls"] if c["index"] in bad
    )


def test_json_all_calls_and_streamed_text_is_the_documents_value(files, capsys):
    from mcp_review.engine.compare import compare
    from mcp_review.engine.cues import cues_json, tool_cues
    from mcp_review.services.inputs import load_pair

    _, out = _gate(capsys, files, "--format", "json", "--all-calls")
    doc = json.loads(out)
    assert doc["replay"]["calls_listed"] == "all"
    assert [c["index"] for c in doc["replay"]["calls"]] == list(range(1, 58))
    old, new = load_pair(files["old"], files["new"])
    cmp = compare(old, new, load_calls(files["calls"]))
    whole = cmp.to_json(all_calls=True)
    # gate JSON v2 is the comparison document plus the cues the new definition introduces
    # (docs/formats.md, issue 27): top level, and on each change on the trust axis.
    cues = cues_json(tool_cues(old.wire, new.wire))
    assert not any(c.trust for c in cmp.changes)  # so no change carries its own "cues"
    assert doc == {"version": 2, **json.loads(json.dumps(whole)), "cues": cues}


def test_streamed_json_escapes_hidden_characters_in_arguments(tmp_path, files, capsys):
    # A broken call whose argument carries a bidi override and an ANSI escape.
    with open(files["calls"], "a") as f:
        f.write(json.dumps({"sql": "x\u202eevil\x1b[31m", "limit": 50}) + "\n")
    _, out = _gate(capsys, files, "--format", "json")
    assert "\u202e" not in out and "\x1b" not in out
    assert "\\u202e" in out
    doc = json.loads(out)
    assert doc["replay"]["calls"][-1]["arguments"]["sql"] == "x\u202eevil\x1b[31m"


def test_replay_without_valid_calls_keeps_only_what_a_report_lists():
    def gen():  # a generator: the replay never needs the log as a list
        yield from ({"sql": "s", "limit": 1} for _ in range(5000))
        yield {"sql": "s", "limit": 50}
        yield {"limit": 1}

    r = replay(OLD, NEW, gen(), keep_valid=False)
    assert (r.total, r.broken, r.bad_recordings, r.valid) == (5002, 1, 1, 5000)
    assert not r.keeps_valid
    assert [(o.index, o.broken) for o in r.outcomes] == [(5001, True), (5002, False)]


def test_iter_calls_matches_a_line_by_line_parse_across_chunk_boundaries(tmp_path, monkeypatch):
    monkeypatch.setattr(calls_mod, "_CHUNK", 7)  # every line straddles chunks
    lines = [
        '{"a": 18446744073709551617}',
        "",
        '{"tool": "t", "arguments": {"x": 1}}',
        '{"b": "' + "y" * 40 + '"}',
        '{"c": 1.5}',
    ]
    p = tmp_path / "log.jsonl"
    p.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode())  # BOM, no final newline
    got = [(c.line, c.tool, c.arguments) for c in iter_calls(str(p))]
    want = [
        (1, None, {"a": 18446744073709551617}),
        (3, "t", {"x": 1}),
        (4, None, {"b": "y" * 40}),
        (5, None, {"c": 1.5}),
    ]
    assert got == want
    assert type(got[0][2]["a"]) is int  # beyond 64 bits: the exact parser, no float


def test_iter_calls_errors_name_the_line(tmp_path):
    from mcp_review.engine.errors import InputError

    p = tmp_path / "log.jsonl"
    p.write_text('{"a": 1}\n{nope\n')
    with pytest.raises(InputError) as e:
        list(iter_calls(str(p)))
    assert e.value.line == 2
    loaded = load_calls(str(p), strict=False)
    assert (len(loaded), loaded.skipped, loaded.skipped_lines) == (1, 1, [2])


def _status_files(tmp_path: Path) -> list[str]:
    tool = {"name": "q", "description": "query"}
    snap = Snapshot(
        servers={
            "db": ServerSnapshot(name="db", tools=[ToolDef.from_wire({**tool, "inputSchema": NEW})])
        }
    )
    (tmp_path / "snap.json").write_text(snap.dumps())
    pins = PinFile()
    pins.decide(
        make_pin("db", ToolDef.from_wire({**tool, "inputSchema": OLD}), Decision.APPROVED, by="t")
    )
    save_pins(pins, str(tmp_path / "pins.toml"))
    with open(tmp_path / "log.jsonl", "w") as f:
        f.writelines(json.dumps({"tool": "q", "arguments": c}) + "\n" for c in _calls())
    return ["--pins", str(tmp_path / "pins.toml"), "--calls", f"db={tmp_path / 'log.jsonl'}"]


@pytest.mark.parametrize("command", ["status", "check"])
def test_status_and_check_json_v2_and_text_listing(command, tmp_path, capsys):
    broken, bad = _truth(_calls())
    snap = ["--snapshot" if command == "status" else "--from-snapshot", str(tmp_path / "snap.json")]
    args = [command, *snap, *_status_files(tmp_path)]
    assert main([*args, "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == 2
    (t,) = [t for t in doc["tools"] if t["tool"] == "q"]
    r = t["comparison"]["replay"]
    assert (r["total"], r["broken"], r["valid"]) == (57, len(broken), 57 - len(broken) - len(bad))
    assert [c["index"] for c in r["calls"]] == sorted(broken + bad)
    main([*args, "--format", "json", "--all-calls"])
    r = json.loads(capsys.readouterr().out)["tools"][0]["comparison"]["replay"]
    assert len(r["calls"]) == 57 and r["calls_listed"] == "all"
    main([*args, "--verbose"] if command == "status" else args)  # status: per tool, verbose
    out = capsys.readouterr().out
    assert [int(m) for m in re.findall(r"call#(\d+) ", out)] == broken[:20] + bad
    assert f"… and {len(broken) - 20} more broken calls" in out


def test_calls_sending_an_ignored_argument_are_listed_not_counted_as_valid(tmp_path, capsys):
    # "verbose" removed from an open object: calls that still send it go through, ignored.
    old = {"type": "object", "properties": {"q": {"type": "string"}, "verbose": {}}}
    new = {"type": "object", "properties": {"q": {"type": "string"}}}
    for name, schema in (("old", old), ("new", new)):
        (tmp_path / f"{name}.json").write_text(json.dumps({"name": "t", "inputSchema": schema}))
    calls = [{"q": "a"}, {"q": "b", "verbose": True}, {"q": "c"}] * 10
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(c) + "\n" for c in calls))
    argv = [
        "gate",
        str(tmp_path / "old.json"),
        str(tmp_path / "new.json"),
        str(tmp_path / "c.jsonl"),
    ]
    main([*argv, "--format", "json"])
    r = json.loads(capsys.readouterr().out)["replay"]
    assert (r["ignored"], r["valid"], r["total"]) == (10, 20, 30)
    assert [c["index"] for c in r["calls"]] == list(range(2, 30, 3))
    assert {c["outcome"] for c in r["calls"]} == {"ignored"}
    main(argv)
    out = capsys.readouterr().out
    assert "10 calls sending an argument now ignored:" in out
    assert "20 calls valid under old and new, not listed" in out


def test_report_entries_without_outcome_objects_are_the_outcomes_json():
    """``ReplayResult.iter_json`` (the reports' fast path) gives exactly
    ``CallOutcome.to_json`` of each listed call, for every kind: valid, broken with one and
    with many reasons (past the 100 kept), a bad recording, an ignored argument, too deep, and
    either schema uncompilable."""
    old = {**OLD, "properties": {**OLD["properties"], "gone": {}, "xs": {"type": "array"}}}
    new = {**NEW, "properties": {**NEW["properties"], "xs": {"items": {"type": "integer"}}}}
    removed = [replay_mod.RemovedProperty("/inputSchema/properties/gone", (("gone",),))]
    deep: object = 1
    for _ in range(replay_mod.MAX_DEPTH + 2):
        deep = [deep]
    calls = [
        *_calls(),
        {"sql": "s", "gone": 1},
        {"sql": "s", "xs": ["a"] * 150, "limit": 50},
        {"sql": "s", "xs": deep},
    ]
    for o_schema, n_schema in ((old, new), (old, {"$ref": "#/nope"}), ({"$ref": "#/no"}, new)):
        for keep in (True, False):
            r = replay(o_schema, n_schema, calls, removed, keep_valid=keep)
            for every in (False, True):
                want = [o.to_json() for o in r.iter_outcomes(every)]
                assert list(r.iter_json(every)) == want
                assert [json.dumps(x) for x in r.iter_json(every)] == [json.dumps(x) for x in want]
                if n_schema is new and o_schema is old:  # the many-reasons call is listed
                    assert len(want[-2]["errors"]) == replay_mod.MAX_ISSUES
                    assert {w["outcome"] for w in want} >= {"broken", "bad-recording", "ignored"}
