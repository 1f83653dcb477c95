"""`rerun`'s pure half (engine/rerun.py), the recorder's new fields and the log reader.

Every send condition of issue 18 is checked by flipping exactly one input of an otherwise
sendable call; the comparisons are checked against hand-computed pointers and word hunks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_review.engine import rerun as core
from mcp_review.engine.model import ToolDef
from mcp_review.engine.rerun import RecordedCall, RerunOutcome, compare, send_verdict
from mcp_review.engine.verdict import rerun_exit_code
from mcp_review.services.config import load_config
from mcp_review.services.rerun import load_recorded
from mcp_review.store.calllog import REDACTED, CallLog, seal_key, seal_of

RO = {
    "name": "get_config",
    "inputSchema": {"type": "object"},
    "annotations": {"readOnlyHint": True, "openWorldHint": False},
}
DIGEST = ToolDef.from_wire(RO).digest
RESULT = {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"a": 1}}


def _call(**kw: Any) -> RecordedCall:
    base: dict[str, Any] = {
        "tool": "get_config",
        "arguments": {"env": "staging"},
        "time": "t",
        "rpc_id": 1,
        "digest": DIGEST,
        "result": RESULT,
        "sealed": True,
    }
    base.update(kw)
    return RecordedCall(**base)


def _verdict(call: RecordedCall | None = None, **kw: Any) -> core.SendVerdict:
    base: dict[str, Any] = {
        "pin_decision": "approved",
        "pin_digest": DIGEST,
        "pin_wire": RO,
        "live_wire": RO,
        "live_digest": DIGEST,
    }
    base.update(kw)
    return send_verdict(call or _call(), **base)


def _ann(**a: Any) -> dict[str, Any]:
    return {**RO, "annotations": a}


def test_a_call_meeting_every_condition_is_sent():
    assert _verdict() == core.SendVerdict(True)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"pin_decision": None}, "never approved"),
        ({"pin_decision": "denied"}, "denied in the pin file"),
        ({"pin_problem": "edited by hand"}, "does not verify"),
        ({"live_wire": None, "live_digest": None}, "does not list it"),
        ({"live_digest": "sha256:other"}, "live definition is not the approved one"),
        (
            {"pin_wire": _ann(readOnlyHint=True, destructiveHint=True, openWorldHint=False)},
            "not read-only in the approved definition",
        ),
        (
            {"pin_wire": _ann(readOnlyHint="true", openWorldHint=False)},
            "not read-only in the approved definition",
        ),
        (
            {"live_wire": _ann(readOnlyHint=False, openWorldHint=False)},
            "not read-only in the live definition",
        ),
        ({"pin_wire": _ann(readOnlyHint=True)}, "openWorldHint is not false"),
        ({"live_wire": _ann(readOnlyHint=True, openWorldHint=True)}, "openWorldHint is not false"),
    ],
)
def test_each_failed_condition_skips_with_its_reason(change: dict[str, Any], why: str):
    v = _verdict(**change)
    assert not v.send and v.outcome is RerunOutcome.SKIPPED and why in v.reason


@pytest.mark.parametrize(
    ("call", "why"),
    [
        (_call(digest=None), "recorded without the definition"),
        (_call(digest="sha256:" + "0" * 64), "not the approved one"),
        (_call(redacted=True), "redacted"),
        (_call(arguments={"q": f"token {REDACTED}"}), "redacted"),
        (_call(arguments=["not", "an", "object"]), "not a JSON object"),
    ],
)
def test_each_failed_recording_condition_skips(call: RecordedCall, why: str):
    v = _verdict(call)
    assert not v.send and v.outcome is RerunOutcome.SKIPPED and why in v.reason


def test_no_result_is_its_own_outcome():
    v = _verdict(_call(result=None))
    assert not v.send and v.outcome is RerunOutcome.NO_RESULT


def test_open_world_flag_allows_open_world_tools_only():
    w = _ann(readOnlyHint=True)
    d = ToolDef.from_wire(w).digest
    assert _verdict(
        _call(digest=d), pin_wire=w, live_wire=w, pin_digest=d, live_digest=d, open_world=True
    ).send
    assert not _verdict(_call(digest=d), pin_wire=w, live_wire=w, pin_digest=d, live_digest=d).send


def test_select_calls_newest_distinct_arguments_first_capped():
    calls = [_call(arguments={"n": i % 3}, time=f"t{i}") for i in range(9)]
    got = core.select_calls(calls, max_calls=2)
    assert [(c.arguments, c.time) for c in got] == [({"n": 2}, "t8"), ({"n": 1}, "t7")]
    # The newest call stands for its argument set, result or not.
    got = core.select_calls([_call(time="old"), _call(time="new", result=None)])
    assert [c.time for c in got] == ["new"]


def test_structured_content_differences_at_pointers():
    rec = _call(
        result={
            "content": [],
            "structuredContent": {
                "cluster": "eu",
                "opts": {"strategy": "rolling", "gone": 1},
                "list": [1, 2],
            },
        }
    )
    live = {
        "content": [],
        "structuredContent": {
            "cluster": "us",
            "opts": {"strategy": "rolling", "new/key": True},
            "list": [1],
        },
    }
    c = compare(rec, live, live2=live)
    assert c.outcome is RerunOutcome.CHANGED
    assert [d.to_json() for d in c.differences] == [
        {"pointer": "/structuredContent/cluster", "old": "eu", "new": "us"},
        {"pointer": "/structuredContent/list/1", "old": 2},
        {"pointer": "/structuredContent/opts/gone", "old": 1},
        {"pointer": "/structuredContent/opts/new~1key", "new": True},
    ]


def test_numbers_compare_as_json_and_booleans_are_not_numbers():
    rec = _call(result={"content": [], "structuredContent": {"a": 1, "b": True}})
    assert (
        compare(rec, {"content": [], "structuredContent": {"a": 1.0, "b": True}}).outcome
        is RerunOutcome.SAME
    )
    c = compare(rec, {"content": [], "structuredContent": {"a": 1, "b": 1}})
    assert [d.pointer for d in c.differences] == ["/structuredContent/b"]


def test_volatile_pointers_are_ignored_and_listed_real_changes_kept():
    rec = _call(result={"content": [], "structuredContent": {"ts": 1, "cluster": "eu"}})
    l1 = {"content": [], "structuredContent": {"ts": 2, "cluster": "us"}}
    l2 = {"content": [], "structuredContent": {"ts": 3, "cluster": "us"}}
    c = compare(rec, l1, live2=l2)
    assert c.volatile == ["/structuredContent/ts"]
    assert [d.pointer for d in c.differences] == ["/structuredContent/cluster"]


def test_text_word_diff_hunks_and_volatile_words():
    rec = _call(result={"content": [{"type": "text", "text": "to eu-west-1 at 100"}]})
    l1 = {"content": [{"type": "text", "text": "to us-east-2 at 101"}]}
    l2 = {"content": [{"type": "text", "text": "to us-east-2 at 102"}]}
    c = compare(rec, l1, live2=l2)
    assert [d.to_json() for d in c.differences] == [
        {"pointer": "/content/0/text", "old": "eu-west-1", "new": "us-east-2"}
    ]
    assert c.volatile == ["/content/0/text"]
    assert core.word_diff_text("a b c", "a x c") == "a [-b-]{+x+} c"


def test_rerun_ignore_pointers_bare_or_rooted():
    rec = _call(result={"content": [], "structuredContent": {"generated_at": 1, "x": 1}})
    live = {"content": [], "structuredContent": {"generated_at": 2, "x": 1}}
    assert compare(rec, live, ignore=["/generated_at"]).outcome is RerunOutcome.SAME
    assert (
        compare(rec, live, ignore=["/structuredContent/generated_at"]).outcome is RerunOutcome.SAME
    )
    assert compare(rec, live).outcome is RerunOutcome.CHANGED


def test_text_that_serialises_structured_content_is_compared_once():
    rec = _call(
        result={"content": [{"type": "text", "text": '{"a": 1}'}], "structuredContent": {"a": 1}}
    )
    live = {"content": [{"type": "text", "text": '{"a": 2}'}], "structuredContent": {"a": 2}}
    assert [d.pointer for d in compare(rec, live).differences] == ["/structuredContent/a"]


def test_shape_drift_and_now_error_and_capped_results():
    rec = _call()
    c = compare(rec, {"content": []}, output_schema={"type": "object"})
    assert c.outcome is RerunOutcome.SHAPE_DRIFT and "no structuredContent" in c.reason
    c = compare(
        rec,
        {"content": [], "structuredContent": {"a": "x"}},
        output_schema={"type": "object"},
        shape_errors=[("/a", "not an integer")],
    )
    assert c.outcome is RerunOutcome.SHAPE_DRIFT
    assert c.differences[0].to_json() == {
        "pointer": "/structuredContent/a",
        "new": "not an integer",
    }
    c = compare(rec, None, {"code": -32603, "message": "boom"})
    assert c.outcome is RerunOutcome.NOW_ERROR and "boom" in c.reason
    c = compare(rec, {"content": [{"type": "text", "text": "no"}], "isError": True})
    assert c.outcome is RerunOutcome.NOW_ERROR
    capped = _call(result=None, result_digest=core.result_digest(RESULT), result_bytes=9)
    assert compare(capped, dict(RESULT)).outcome is RerunOutcome.SAME
    assert (
        compare(capped, {**RESULT, "structuredContent": {"a": 2}}).outcome is RerunOutcome.CHANGED
    )
    # _meta and an explicit isError false are not the answer: same digest.
    assert core.result_digest(
        {**RESULT, "_meta": {"x": 1}, "isError": False}
    ) == core.result_digest(RESULT)


def test_recorded_redacted_value_is_not_a_change():
    rec = _call(result={"content": [], "structuredContent": {"token": REDACTED}})
    live = {"content": [], "structuredContent": {"token": "fresh-secret"}}
    assert compare(rec, live).outcome is RerunOutcome.SAME


def test_exit_codes_and_counts():
    assert rerun_exit_code([RerunOutcome.SAME, RerunOutcome.SKIPPED, RerunOutcome.NO_RESULT]) == 0
    for o in (RerunOutcome.CHANGED, RerunOutcome.SHAPE_DRIFT, RerunOutcome.NOW_ERROR):
        assert rerun_exit_code([RerunOutcome.SAME, o]) == 1
    assert core.counts([RerunOutcome.SAME, RerunOutcome.SAME])["same"] == 2


def test_deep_hostile_result_does_not_blow_the_stack():
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    rec = _call(result={"content": [], "structuredContent": {"d": deep}})
    c = compare(rec, {"content": [], "structuredContent": {"d": [[0]]}})
    assert c.outcome is RerunOutcome.CHANGED


# The recorder -------------------------------------------------------------------------------


def _jsonl(p: Path) -> list[Any]:
    return [json.loads(x) for x in p.read_text().splitlines()]


def test_calllog_records_digest_redacted_flag_and_caps_large_results(tmp_path: Path):
    log = CallLog(str(tmp_path / "c.jsonl"), server="s", record_results=True, max_result_bytes=200)
    t1 = log.record_call("get_config", {"env": "x"}, 1, digest=DIGEST)
    t2 = log.record_call("whoami", {"password": "hunter22"}, 2)
    big = {"content": [{"type": "text", "text": "y" * 1000}], "structuredContent": {"a": 1}}
    log.record_result("get_config", 1, t1, {"result": big})
    log.record_result(
        "whoami", 2, t2, {"error": {"code": 1, "message": "Bearer abcdefghijklmnopqrstu"}}
    )
    log.close()
    calls = _jsonl(tmp_path / "c.jsonl")
    assert calls[0]["digest"] == DIGEST and "redacted" not in calls[0]
    assert calls[1]["redacted"] is True and "digest" not in calls[1]
    res = _jsonl(tmp_path / "c.jsonl.results.jsonl")
    assert "result" not in res[0] and res[0]["result_truncated"] is True
    assert res[0]["result_digest"] == core.result_digest(big)
    assert res[0]["result_bytes"] > 1000 and len(res[0]["result_head"]) <= 200
    assert "abcdefghijklmnopqrstu" not in json.dumps(res[1])  # errors are redacted too
    # The reader pairs them, and the capped result compares by digest.
    rec = load_recorded(str(tmp_path / "c.jsonl"))
    assert rec[0].result_digest == core.result_digest(big) and rec[0].digest == DIGEST
    assert rec[1].redacted and rec[1].error is not None


def test_old_logs_without_results_or_digests_stay_valid(tmp_path: Path):
    p = tmp_path / "old.jsonl"
    p.write_text(
        '{"time":"t","server":"s","principal":"default","tool":"get_config",'
        '"id":1,"arguments":{"env":"x"}}\n'
    )
    from mcp_review.store.readers import load_calls

    assert [c.tool for c in load_calls(str(p))] == ["get_config"]
    rec = load_recorded(str(p))
    assert rec[0].digest is None and not rec[0].has_result
    v = _verdict(rec[0])
    assert not v.send and "recorded without the definition" in v.reason


def test_attacker_id_type_trick_cannot_pair_a_result_with_another_call(tmp_path: Path):
    """Call 7 (deploy) and call "7" (get_config) at the same millisecond: the result written
    for id 7 must never become get_config's recorded result (ids keep their JSON type), and a
    result claimed twice for one call counts for nothing."""
    p = tmp_path / "c.jsonl"
    lines = [
        {
            "time": "T",
            "server": "s",
            "principal": "default",
            "tool": "deploy",
            "id": 7,
            "arguments": {},
            "digest": DIGEST,
        },
        {
            "time": "T",
            "server": "s",
            "principal": "default",
            "tool": "get_config",
            "id": "7",
            "arguments": {},
            "digest": DIGEST,
        },
    ]
    # Sealed with this user's key, as the proxy would: the trick is judged on ids alone.
    key = seal_key(create=True)
    p.write_text("".join(json.dumps({**x, "seal": seal_of(x, key)}) + "\n" for x in lines))
    res = [
        {"call_time": "T", "tool": "get_config", "id": 7, "result": {"content": []}},
        {"call_time": "T", "tool": "deploy", "id": "7", "result": {"content": []}},
    ]
    Path(str(p) + ".results.jsonl").write_text(
        "".join(json.dumps({**x, "seal": seal_of(x, key)}) + "\n" for x in res)
    )
    rec = load_recorded(str(p))
    assert [r.sealed for r in rec] == [True, True]
    assert [r.has_result for r in rec] == [False, False]
    # The same call claimed by two result lines: dropped, not guessed.
    res2 = [{"call_time": "T", "tool": "get_config", "id": "7", "result": {"content": []}}] * 2
    Path(str(p) + ".results.jsonl").write_text(
        "".join(json.dumps({**x, "seal": seal_of(x, key)}) + "\n" for x in res2)
    )
    assert [r.has_result for r in load_recorded(str(p))] == [False, False]
    # The control: one sealed result line for get_config does pair.
    Path(str(p) + ".results.jsonl").write_text(
        "".join(json.dumps({**x, "seal": seal_of(x, key)}) + "\n" for x in res2[:1])
    )
    assert [r.has_result for r in load_recorded(str(p))] == [False, True]


def test_config_record_results_and_rerun_ignore(tmp_path: Path):
    cfg = tmp_path / "mcp-review.toml"
    cfg.write_text(
        '[servers.a]\ncommand = "x"\nrecord_results = true\n'
        '[servers.a.tools.get_config]\nrerun_ignore = ["/generated_at"]\n'
    )
    s = load_config(str(cfg)).by_name("a")
    assert s.record_results is True and s.rerun_ignore == {"get_config": ("/generated_at",)}
    from mcp_review.engine.errors import InputError

    for bad in (
        'record_results = "yes"',
        '[servers.a.tools.t]\nrerun_ignore = ["x"]',
        "[servers.a.tools.t]\nrerun_ignor = []",
    ):
        cfg.write_text(f'[servers.a]\ncommand = "x"\n{bad}\n')
        with pytest.raises(InputError):
            load_config(str(cfg))


def test_bounded_loading_picks_what_select_calls_picks(tmp_path: Path):
    """With max_calls the reader keeps only what rerun could send (memory bounded by that),
    and picks exactly the calls select_calls picks from the whole log."""
    import random

    rng = random.Random(7)
    log = CallLog(str(tmp_path / "c.jsonl"), server="s", record_results=True)
    for i in range(400):
        tool = rng.choice(["a", "b", "c"])
        t = log.record_call(
            tool, {"n": rng.randrange(12)}, i, time=f"2026-01-01T00:{i:04d}Z", digest=DIGEST
        )
        if rng.random() < 0.6:
            log.record_result(
                tool, i, t, {"result": {"content": [], "structuredContent": {"i": i}}}
            )
    log.close()
    whole = core.select_calls(load_recorded(str(tmp_path / "c.jsonl")), max_calls=5)
    bounded = core.select_calls(load_recorded(str(tmp_path / "c.jsonl"), max_calls=5), max_calls=5)
    key = [(c.tool, c.time, c.arguments, c.result) for c in whole]
    assert key == [(c.tool, c.time, c.arguments, c.result) for c in bounded]
    assert len(whole) == 15 and any(c.result is None for c in whole)
    assert all(c.result is None or c.result["structuredContent"]["i"] == c.rpc_id for c in bounded)


def test_attacker_deep_json_text_and_capped_digest_do_not_crash_the_comparison():
    deep = "[" * 900 + "]" * 900
    rec = _call(result={"content": [{"type": "text", "text": deep}], "structuredContent": {"d": 1}})
    live = {"content": [{"type": "text", "text": deep + " "}], "structuredContent": {"d": 1}}
    assert compare(rec, live).outcome is RerunOutcome.CHANGED
    nested: Any = 1
    for _ in range(600):
        nested = [nested]
    capped = _call(result=None, result_digest="sha256:" + "0" * 64, result_bytes=10)
    c = compare(capped, {"content": [], "structuredContent": {"d": nested}})
    assert c.outcome is RerunOutcome.CHANGED and c.differences[0].new == "(cannot be hashed)"
