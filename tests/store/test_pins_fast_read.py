"""A pin table is read by a quick check of every field at once (issue 15 item 4: 10,000 pins on
a fleet); anything it does not accept is read field by field. The two readers must agree: the
same Pin for every table the quick one accepts, the same error for every table it refuses."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_review.engine import pinread as P
from mcp_review.engine.errors import InputError

KEY = ("srv", "default", "add")
GOOD = {
    "decision": "approved",
    "digest": "sha256:" + "0" * 64,
    "definition": '{"name":"add"}',
    "decided_at": "2026-12-01T00:00:00Z",
    "decided_by": "alice",
}


def _read(reader, table):
    try:
        return dataclasses.asdict(reader(KEY, table, "pins.toml"))
    except InputError as e:
        return ("error", str(e))


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.text(max_size=8),
    st.sampled_from(["approved", "denied", "sha256:ab", "Approved"]),
    st.lists(st.sampled_from(["name", "description", 1]), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
FIELDS = st.sampled_from([*P._TOOL_KEYS, "also_approved", "extra_key"])


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(FIELDS, VALUES, max_size=6), st.booleans())
def test_the_quick_reader_agrees_with_the_field_by_field_one(fields, from_good):
    table = {**GOOD, **fields} if from_good else fields
    assert _read(P._parse_pin, table) == _read(P._parse_pin_slowly, table)


@pytest.mark.parametrize(
    "table",
    [
        GOOD,
        {**GOOD, "decision": "denied", "note": "n", "server_version": "1"},
        {**GOOD, "digest_scheme": 1, "hashed_fields": ["name", "description"]},
        {**GOOD, "also_approved": [{"digest": "sha256:1"}], "decided_at": 5},
        {**GOOD, "decision": "maybe"},
        {**GOOD, "digest": "md5:x"},
        {**GOOD, "digest_scheme": True},
        {**GOOD, "hashed_fields": "name"},
        {**GOOD, "note": 3},
        "not a table",
        {k: v for k, v in GOOD.items() if k != "definition"},
    ],
)
def test_known_tables_read_alike(table):
    assert _read(P._parse_pin, table) == _read(P._parse_pin_slowly, table)


def test_a_good_table_takes_the_quick_reader(monkeypatch):
    monkeypatch.setattr(P, "_parse_pin_slowly", lambda *a: pytest.fail("slow reader used"))
    pin = P._parse_pin(KEY, {**GOOD, "also_approved": [1]}, "pins.toml")
    assert pin.decision is P.Decision.APPROVED and pin.extra == {"also_approved": [1]}
    assert pin.hashed_fields == P.DIGEST_SCHEMES[1]
