"""Replay: real validator verdicts, the three call-log forms, hostile input handled cleanly."""

from __future__ import annotations

import json
import threading

import pytest

from mcp_review.engine.calls import Call
from mcp_review.engine.errors import InputError
from mcp_review.engine.replay import (
    Issue,
    SchemaError,
    SchemaValidator,
    hit_regex_limit,
    replay,
)
from mcp_review.store.readers import load_calls

# The seed's run_query tool (000): required sql, optional limit, format enum, dry_run, timeout_ms.
OLD = {
    "type": "object",
    "properties": {
        "sql": {"type": "string"},
        "limit": {"type": "integer", "minimum": 1},
        "format": {"type": "string", "enum": ["json", "csv"]},
        "dry_run": {"type": "boolean"},
        "timeout_ms": {"type": "integer"},
    },
    "required": ["sql"],
}
CALLS = [
    {"sql": "select 1"},
    {"sql": "select * from t", "limit": 10},
    {"sql": "select id, email from users", "format": "csv"},
    {"sql": "select 2", "dry_run": True},
]


def _with(schema, **patch):
    s = json.loads(json.dumps(schema))
    for dotted, value in patch.items():
        node = s
        *head, last = dotted.split("__")
        for k in head:
            node = node[k]
        node[last] = value
    return s


def run_with_timeout(fn, seconds=30.0):
    """Run fn in a thread; fail (not hang) if it does not finish. Generous on purpose."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as e:  # re-raised in the test thread
            box["error"] = e

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"did not finish within {seconds}s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(p)


# Seed cases ---------------------------------------------------------------------------------


def test_seed_c1_identical_passes():
    r = replay(OLD, json.loads(json.dumps(OLD)), CALLS)
    assert (r.total, r.broken, r.bad_recordings) == (4, 0, 0)
    assert all(o.valid_under_old and o.valid_under_new for o in r.outcomes)


def test_seed_c3_added_required_breaks_every_call_with_validator_path_and_message():
    new = _with(OLD, required=["sql", "tenant_id"])
    new["properties"]["tenant_id"] = {"type": "string"}
    r = replay(OLD, new, CALLS)
    assert (r.total, r.broken) == (4, 4)
    for o in r.outcomes:
        assert o.broken and o.valid_under_old and not o.valid_under_new
        assert o.errors == [Issue("", '"tenant_id" is a required property', "/required")]


def test_seed_c4_enum_shrank_breaks_only_the_csv_call():
    new = _with(OLD, properties__format__enum=["json"])
    r = replay(OLD, new, CALLS)
    assert r.broken == 1
    (o,) = r.broken_calls
    assert o.index == 3 and o.arguments["format"] == "csv"
    assert o.errors[0].path == "/format"
    assert o.errors[0].schema_path == "/properties/format/enum"
    assert "csv" in o.errors[0].message


def test_seed_c5_removed_optional_under_closed_object_touches_no_call():
    new = _with(OLD, additionalProperties=False)
    del new["properties"]["timeout_ms"]
    r = replay(OLD, new, CALLS)
    assert (r.broken, r.bad_recordings) == (0, 0)


def test_bad_recording_is_reported_not_hidden():
    calls = [*CALLS, {"limit": 5}, {"sql": 3}]
    r = replay(OLD, OLD, calls)
    assert r.bad_recordings == 2 and r.broken == 0
    bad = [o for o in r.outcomes if o.bad_recording]
    assert [o.index for o in bad] == [5, 6]
    assert bad[0].old_errors[0].message == '"sql" is a required property'
    assert bad[1].old_errors[0].path == "/sql"
    # invalid under old and under new: not broken (it never worked), but both reasons kept
    assert not bad[1].broken and bad[1].errors


def test_nested_path_is_a_json_pointer_with_escaping():
    schema = {
        "type": "object",
        "properties": {
            "a/b": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"x~y": {"type": "integer", "maximum": 3}},
                },
            }
        },
    }
    new = json.loads(json.dumps(schema))
    new["properties"]["a/b"]["items"]["properties"]["x~y"]["maximum"] = 2
    r = replay(schema, new, [{"a/b": [{"x~y": 1}, {"x~y": 3}]}])
    (o,) = r.broken_calls
    assert o.errors[0].path == "/a~1b/1/x~0y"
    assert o.errors[0].schema_path.endswith("/maximum")


def test_to_json_shape():
    new = _with(OLD, properties__format__enum=["json"])
    r = replay(OLD, new, [*CALLS, {"limit": 0}])
    d = r.to_json()
    assert {"total", "broken", "bad_recordings", "valid", "calls_listed", "calls"} <= d.keys()
    assert d["total"] == 5 and d["broken"] == 1 and d["bad_recordings"] == 1 and d["valid"] == 3
    # Format 2: per-call entries for the broken call and the bad recording only, in log order.
    assert d["calls_listed"] == "notable"
    assert [(c["index"], c["broken"], c["valid_under_old"]) for c in d["calls"]] == [
        (3, True, True),
        (5, False, False),
    ]
    every = r.to_json(all_calls=True)
    assert every["calls_listed"] == "all" and [c["index"] for c in every["calls"]] == [
        1,
        2,
        3,
        4,
        5,
    ]
    c = every["calls"][2]
    # "outcome" (issue 11: ok / broken / ignored / bad-recording) joined the per-call shape.
    assert set(c) == {
        "index",
        "line",
        "arguments",
        "outcome",
        "valid_under_old",
        "valid_under_new",
        "broken",
        "errors",
        "old_errors",
    }
    assert c["outcome"] == "broken" and d["ignored"] == 0
    assert c["broken"] is True and c["errors"][0]["path"] == "/format"
    assert set(c["errors"][0]) == {"path", "message"}
    json.dumps(d)  # serialisable as is


# Dialects, formats, schema errors ---------------------------------------------------------


def test_dialect_from_dollar_schema_draft7_vs_default_2020():
    # prefixItems means nothing in draft 7 (ignored), and constrains in 2020-12.
    s = {"prefixItems": [{"type": "integer"}]}
    assert not SchemaValidator(s).is_valid(["x"])
    d7 = {"$schema": "http://json-schema.org/draft-07/schema#", **s}
    assert SchemaValidator(d7).is_valid(["x"])


def test_formats_are_asserted():
    v = SchemaValidator({"type": "string", "format": "email"})
    assert v.is_valid("a@example.com") and not v.is_valid("not an email")


def test_ecma_regex_semantics_digits_are_ascii():
    v = SchemaValidator({"type": "string", "pattern": r"^\d+$"})
    assert v.is_valid("123")
    assert not v.is_valid("١٢٣")  # Python re would accept Arabic-Indic digits


@pytest.mark.parametrize(
    "schema, fragment",
    [
        ({"type": "string", "pattern": "(("}, "regex"),
        ({"$ref": "#/$defs/nope"}, "/$defs/nope"),
        ({"type": "frobnicate"}, "anyOf"),
        ({"$schema": "http://example.com/unknown"}, "Unknown meta-schema"),
        (5, "must be an object or a boolean"),
        (None, "null"),
    ],
)
def test_schema_that_cannot_compile_is_a_clear_schema_error(schema, fragment):
    with pytest.raises(SchemaError) as ei:
        SchemaValidator(schema)
    assert fragment in ei.value.reason
    assert "\n" not in ei.value.reason
    assert isinstance(ei.value, InputError)  # maps to exit code 2 if it escapes


def test_remote_ref_is_not_fetched(monkeypatch):
    import socket

    def no_network(*a, **k):
        raise AssertionError("network touched")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    with pytest.raises(SchemaError) as ei:
        SchemaValidator({"$ref": "https://example.com/schemas/evil.json"})
    assert "Retrieval is disabled" in ei.value.reason


def test_replay_with_uncompilable_new_schema_fails_closed_without_raising():
    r = replay(OLD, {"type": "string", "pattern": "(("}, CALLS)
    assert r.schema_error and r.schema_error.startswith("new inputSchema:")
    assert r.broken == 4
    assert all("new schema cannot be compiled" in o.errors[0].message for o in r.outcomes)
    assert r.to_json()["schema_error"] == r.schema_error


def test_replay_with_uncompilable_old_schema_reports_bad_recordings():
    r = replay({"$ref": "#/nowhere"}, OLD, CALLS)
    assert r.schema_error.startswith("old inputSchema:")
    assert (r.broken, r.bad_recordings) == (0, 4)
    assert "old schema cannot be compiled" in r.outcomes[0].old_errors[0].message


# Hostile input ----------------------------------------------------------------------------


@pytest.mark.parametrize("pattern", [r"^(a+)+$", r"(a|a)*\1", r"^(a|a)*\1$", r"^(\w+\s?)*\1$"])
def test_hostile_pattern_during_replay_finishes(pattern):
    old = {"type": "object", "properties": {"q": {"type": "string"}}}
    new = {"type": "object", "properties": {"q": {"type": "string", "pattern": pattern}}}
    calls = [{"q": "a" * n + "!"} for n in (10, 30, 100, 1000, 5000)] * 20
    r = run_with_timeout(lambda: replay(old, new, calls))
    assert r.total == 100


def test_backtrack_limit_exceeded_is_visible_in_the_issue():
    v = SchemaValidator({"type": "string", "pattern": r"^(a|a)*\1$"})
    issues = v.errors("a" * 40 + "!")
    assert issues and hit_regex_limit(issues)


def test_ten_thousand_deep_instance_refused_cleanly():
    deep: object = 1
    for _ in range(10_000):
        deep = [deep]
    recursive = {"type": "array", "items": {"$ref": "#"}}
    v = SchemaValidator(recursive)
    assert v.is_valid(deep) is False
    (issue,) = v.errors(deep)
    assert "deeper than" in issue.message
    r = replay(recursive, recursive, [deep])
    assert r.bad_recordings == 1 and "deeper than" in r.outcomes[0].old_errors[0].message


def test_deep_schema_refused():
    s: dict = {"type": "array"}
    for _ in range(2_000):
        s = {"items": s}
    with pytest.raises(SchemaError, match="deeper than"):
        SchemaValidator(s)


def test_hundred_thousand_deep_line_in_a_log_is_refused(tmp_path):
    p = write(tmp_path, "deep.jsonl", ['{"sql":"x"}', "[" * 100_000 + "]" * 100_000])
    with pytest.raises(InputError) as ei:
        load_calls(p)
    assert ei.value.line == 2
    loaded = load_calls(p, strict=False)
    assert len(loaded) == 1 and loaded.skipped == 1 and loaded.skipped_lines == [2]


# Call logs --------------------------------------------------------------------------------


def test_three_call_log_forms(tmp_path):
    p = write(
        tmp_path,
        "calls.jsonl",
        [
            '{"sql": "select 1"}',
            "",
            '{"tool": "run_query", "arguments": {"sql": "select 2"}, "ts": "2026-07-01T00:00:00Z",'
            ' "server": "db", "principal": "default", "id": 7}',
            '{"jsonrpc": "2.0", "id": 3, "method": "tools/call",'
            ' "params": {"name": "run_query", "arguments": {"sql": "select 3"}}}',
            '{"tool": "other_tool", "arguments": {"x": 1}}',
            '{"jsonrpc": "2.0", "id": 4, "method": "tools/list"}',
            '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "run_query"}}',
            "   ",
        ],
    )
    every = load_calls(p)
    assert [c.tool for c in every] == [None, "run_query", "run_query", "other_tool", "run_query"]
    assert every.ignored == 1  # tools/list
    calls = load_calls(p, tool="run_query")
    assert [(c.index, c.line, c.tool) for c in calls] == [
        (1, 1, None),
        (2, 3, "run_query"),
        (3, 4, "run_query"),
        (4, 7, "run_query"),
    ]
    assert [c.arguments for c in calls] == [
        {"sql": "select 1"},
        {"sql": "select 2"},
        {"sql": "select 3"},
        {},
    ]
    assert calls.ignored == 2 and calls.skipped == 0


def test_record_with_unknown_keys_is_a_bare_argument_object(tmp_path):
    # A tool whose own parameters are named "tool" and "arguments" must not be misread.
    p = write(tmp_path, "c.jsonl", ['{"tool": "hammer", "arguments": [], "force": 3}'])
    (c,) = load_calls(p, tool="run_query")
    assert c.tool is None and c.arguments == {"tool": "hammer", "arguments": [], "force": 3}


def test_strict_invalid_json_names_file_and_line(tmp_path):
    p = write(tmp_path, "calls.jsonl", ['{"sql": "a"}', '{"sql": "b"}', '{"sql": '])
    with pytest.raises(InputError) as ei:
        load_calls(p)
    msg = str(ei.value)
    assert msg.startswith(f"{p}:3: invalid JSON")
    assert ei.value.line == 3 and ei.value.source == p


def test_non_strict_skips_and_counts(tmp_path):
    p = write(tmp_path, "calls.jsonl", ['{"sql": "a"}', "nope", '{"x": NaN}', '{"sql": "b"}'])
    loaded = load_calls(p, strict=False)
    assert [c.arguments["sql"] for c in loaded] == ["a", "b"]
    assert loaded.skipped == 2 and loaded.skipped_lines == [2, 3]
    assert [c.index for c in loaded] == [1, 2]


def test_missing_file_is_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_calls(str(tmp_path / "absent.jsonl"))


def test_big_integers_are_exact(tmp_path):
    big = 2**64 + 1
    p = write(tmp_path, "calls.jsonl", [json.dumps({"n": big}), '{"n": 18446744073709551615}'])
    calls = load_calls(p)
    assert calls[0].arguments["n"] == big and isinstance(calls[0].arguments["n"], int)
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert replay(schema, schema, calls).bad_recordings == 0


def test_crlf_and_bom(tmp_path):
    p = tmp_path / "c.jsonl"
    p.write_bytes(b'\xef\xbb\xbf{"sql": "a"}\r\n{"sql": "b"}\r\n')
    assert [c.arguments for c in load_calls(str(p))] == [{"sql": "a"}, {"sql": "b"}]


def test_replay_accepts_loaded_calls_and_bare_values(tmp_path):
    p = write(tmp_path, "calls.jsonl", [json.dumps(c) for c in CALLS])
    new = _with(OLD, properties__format__enum=["json"])
    r = replay(OLD, new, load_calls(p))
    assert r.broken == 1 and r.broken_calls[0].line == 3
    r2 = replay(OLD, new, [Call(9, None, CALLS[2])])
    assert r2.broken_calls[0].index == 9


def test_replay_and_rerun_read_records_by_one_set_of_keys():
    """A record key the proxy writes (the seal, ``held``) is one both readers accept: rerun
    reads the engine's set, and the store's seal field is in it."""
    from mcp_review.engine.calls import LOG_KEYS
    from mcp_review.services import rerun
    from mcp_review.store.calllog import SEAL_FIELD

    assert rerun._KEYS is LOG_KEYS
    assert {SEAL_FIELD, "held", "digest", "redacted", "tool", "arguments"} <= LOG_KEYS
