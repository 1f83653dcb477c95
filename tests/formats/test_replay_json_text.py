"""A replay's JSON entries written from a template (formats/replay_json.py) are the text the
dict path writes (``jsonstream.dumps`` of ``ReplayResult.iter_json``'s dicts), byte for byte,
for every kind of entry and every text that takes another branch: non-ASCII, hidden and
terminal-active characters, integers orjson cannot write, calls with no line, more distinct
reasons than the writer keeps. A whole ``gate --format json`` report equals the report the
dict path writes, and parses to the materialised document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.engine import replay as replay_mod
from mcp_review.engine.calls import Call
from mcp_review.engine.compare import Comparison, compare
from mcp_review.engine.cues import cues_json, tool_cues
from mcp_review.engine.replay import replay
from mcp_review.formats import compare as fmt
from mcp_review.formats import replay_json
from mcp_review.formats.compare import comparison_doc
from mcp_review.formats.jsonstream import Doc, dumps, iter_dump
from mcp_review.services.inputs import load_pair

OLD = {
    "type": "object",
    "properties": {
        "q": {"type": "string"},
        "n": {"type": "integer"},
        "mode": {"enum": ["fast", "safe", "x\u202ey"]},
        "gone": {},
        "xs": {"type": "array"},
    },
    "required": ["q"],
}
NEW = {
    **OLD,
    "properties": {
        **{k: v for k, v in OLD["properties"].items() if k != "gone"},  # type: ignore[attr-defined]
        "n": {"type": "integer", "maximum": 10},
        "mode": {"enum": ["fast"]},
        "xs": {"items": {"type": "integer"}},
    },
}


def _calls() -> list[object]:
    deep: object = 1
    for _ in range(replay_mod.MAX_DEPTH + 2):
        deep = [deep]
    texts = ["plain", "café ☕", "bidi \u202e txt", "zero\u200bwidth", "del\x7f", "esc\x1b[31m"]
    out: list[object] = []
    for i, t in enumerate(texts):
        out += [
            {"q": t},  # valid under both
            {"q": t, "n": 11 + i},  # broken: maximum
            {"q": t, "mode": "safe", "n": 50},  # broken: two reasons
            {"q": t, "mode": "x\u202ey"},  # broken: the reason quotes a bidi control
            {"n": 1},  # a bad recording
            {"q": t, "gone": 1},  # sends an argument now ignored
            {t: 1, "q": "k"},  # a hidden character in a key
        ]
    out += [
        {"q": "big", "n": 2**70},  # orjson cannot write it: the dict path's stdlib spelling
        {"q": "big", "n": 2**70, "mode": "safe"},  # broken, and beyond 64 bits
        {"q": "s", "xs": ["a"] * 150},  # broken past the reasons kept per call
        {"q": "s", "xs": deep},  # too deep: refused unvalidated
        {"q": "\ud800"},  # a lone surrogate: no validator reads it
        {"q": "s", "n": 2**63},  # the largest integers orjson writes
        {"q": "s", "n": -(2**63) - 1, "mode": "safe"},
    ]
    # More distinct reason lists than the writer keeps (the enum message quotes the value).
    out += [{"q": "r", "mode": f"m{i}"} for i in range(replay_json._REASONS_KEPT + 40)]
    return out


def _by_dicts(r: replay_mod.ReplayResult, every: bool) -> list[str]:
    return [dumps(e, indent=False) for e in r.iter_json(every)]


@pytest.mark.parametrize("schemas", ["both", "new uncompilable", "old uncompilable"])
def test_entries_are_the_dict_paths_text(schemas):
    o, n = {
        "both": (OLD, NEW),
        "new uncompilable": (OLD, {"$ref": "#/nope"}),
        "old uncompilable": ({"$ref": "#/no"}, NEW),
    }[schemas]
    removed = [replay_mod.RemovedProperty("/inputSchema/properties/gone", (("gone",),))]
    calls = _calls()
    # Call objects with a line, and bare values (no line: ``"line":null``).
    with_lines = [Call(i + 1, 10 * (i + 1), c) for i, c in enumerate(calls)]
    for given in (with_lines, calls):
        for keep in (True, False):
            r = replay(o, n, given, removed, keep_valid=keep)
            for every in (False, True):
                got = list(replay_json.iter_entries(r, every))
                want = _by_dicts(r, every)
                assert got == want
                assert [json.loads(t) for t in got] == list(r.iter_json(every))
                if schemas == "both":
                    kinds = {json.loads(t)["outcome"] for t in got}
                    assert kinds >= {"broken", "bad-recording", "ignored"}
                    assert ("ok" in kinds) == (every and keep)
                    # each branch of the writer is taken: non-ASCII escaped, stdlib spelling
                    assert any("\\u202e" in t for t in got)
                    assert any("café" in t for t in got)
                    assert any('"index": ' in t for t in got)  # json.dumps' separators
                    assert any('"line":null' in t for t in got) == (given is calls)


def test_a_gate_report_is_the_dict_paths_report(tmp_path: Path, capsys):
    tool = {"name": "t", "description": "d"}
    (tmp_path / "old.json").write_text(json.dumps({**tool, "inputSchema": OLD}))
    (tmp_path / "new.json").write_text(json.dumps({**tool, "inputSchema": NEW}))
    # Not the lone surrogate (skipped and noted) nor the too-deep call (a strict read refuses it)
    lines = [json.dumps(c) for c in _calls() if c != {"q": "\ud800"} and "[[[" not in str(c)]
    lines.insert(3, json.dumps({"q": "naïve ☕", "n": 99}, ensure_ascii=False))  # raw UTF-8
    (tmp_path / "c.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    old, new = load_pair(str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    calls = [Call(i + 1, i + 1, json.loads(x)) for i, x in enumerate(lines)]
    argv = ["gate", *(str(tmp_path / f) for f in ("old.json", "new.json", "c.jsonl"))]
    for every in (False, True):
        assert main([*argv, "--format", "json", *(["--all-calls"] if every else [])]) == 1
        out = capsys.readouterr().out
        cmp = compare(old, new, calls, keep_valid=every)
        assert comparison_doc(cmp, all_calls=every)["replay"]["calls"].texts is not None
        assert out == _report_by_dicts(cmp, every)
        listed = json.loads(out)["replay"]["calls"]
        assert listed == list(cmp.replay.iter_json(every))  # type: ignore[union-attr]
        assert len(listed) > 30 and any(c["outcome"] == "ok" for c in listed) == every


def _report_by_dicts(cmp: Comparison, every: bool) -> str:
    """``formats.compare.iter_json`` with the replay's entries written from their dicts, as
    before the template."""
    d = comparison_doc(cmp, all_calls=every)
    d["replay"]["calls"].texts = None
    cues = tool_cues(cmp.old.wire, cmp.new.wire) if cmp.digest_changed else []
    fmt.with_change_cues(d, cmp, cues)
    doc = Doc({"version": fmt.VERSION, **d, "cues": cues_json(cues)})
    return "".join(iter_dump(doc)) + "\n"
