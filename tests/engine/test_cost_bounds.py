"""Issue 25 item 5: the work one hostile tool can buy is bounded by the budget, in units that
count what each step touches, and grows linearly with the schema, never with its square.

A tool whose 200,000-value ``enum`` lost one value gave no answer in 4 minutes: the witness
budget counted validator calls, but each call (and each proposal) cost the size of the enum,
and the search compared the old enum with the new one value by value against a list. The class:
a huge ``enum``, ``required``, ``properties`` map, ``anyOf`` / ``oneOf`` list, for classify
(``compare``), status (``compute_status``) and the witness search. Counted work, not time:
``witness.Tally`` adds up the validator calls and the units they cost (a call costs 1 + the
largest collection in the schemas it reads; a proposal, 1 per node and per value checked).
Figures from 1,000 to 200,000 values in benchmarks/README.md (bench_cost.py).
"""

from __future__ import annotations

import pytest

from mcp_review.engine import witness
from mcp_review.engine.compare import compare
from mcp_review.engine.model import ChangeClass, ToolDef
from mcp_review.engine.pins import PinFile, make_pin
from mcp_review.engine.schema_diff import diff_tools
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

KINDS = ("enum", "required", "properties", "anyOf", "oneOf")


def hostile_pair(kind: str, n: int) -> tuple[dict, dict]:
    """An input schema with ``n`` values of ``kind``, and the same schema losing one (or, for
    ``required``, gaining one): every pair is a breaking change with a witness to find."""
    if kind == "enum":
        vals = [f"v{i}" for i in range(n)]
        return (
            {"type": "object", "properties": {"f": {"enum": vals}}},
            {"type": "object", "properties": {"f": {"enum": vals[:-1]}}},
        )
    if kind == "required":
        props = {f"p{i}": {"type": "string"} for i in range(n)}
        return (
            {"type": "object", "properties": props, "required": list(props)[:-1]},
            {"type": "object", "properties": props, "required": list(props)},
        )
    if kind == "properties":
        props = {f"p{i}": {"type": "string"} for i in range(n)}
        return (
            {"type": "object", "properties": props, "additionalProperties": False},
            {
                "type": "object",
                "properties": dict(list(props.items())[:-1]),
                "additionalProperties": False,
            },
        )
    branches = [{"const": f"v{i}"} for i in range(n)]
    return (
        {"type": "object", "properties": {"f": {kind: branches}}},
        {"type": "object", "properties": {"f": {kind: branches[:-1]}}},
    )


def tool(schema: dict) -> ToolDef:
    return ToolDef.from_wire({"name": "t", "inputSchema": schema})


def search_work(kind: str, n: int) -> tuple[witness.Tally, list]:
    old, new = hostile_pair(kind, n)
    changes = diff_tools(tool(old), tool(new))
    tally = witness.Tally()
    out = witness.attach_witnesses(tool(old), tool(new), changes, tally=tally)
    return tally, out


SMALL, BIG = 200, 4_000
"""The sizes the suite tries: 20 times apart, and the big one past 2,000, where a step costing
the square of the size (4,000,000 units) no longer fits the tool's budget
(``witness.MAX_TOOL_WORK``), so the bounds below trip on it; larger sizes (up to 200,000) run in
benchmarks/bench_cost.py, whose figures benchmarks/README.md keeps."""


@pytest.mark.parametrize("kind", KINDS)
def test_a_validator_call_costs_what_it_touches(kind):
    """The attack: the same number of calls against a schema 20 times bigger must cost about
    20 times the units (each call is charged 1 + the largest collection it reads), and the
    whole search stays within the tool's work budget whatever the size."""
    small, out_small = search_work(kind, SMALL)
    big, out_big = search_work(kind, BIG)
    for tally in (small, big):
        assert 0 < tally.units <= witness.MAX_TOOL_WORK
    # Each call was charged at least the size of the collection it read.
    assert small.units >= small.calls * SMALL
    assert big.units >= big.calls * BIG
    # A small hostile schema still gets its witness; the big one a witness or the budget note.
    assert all(c.has_witness for c in out_small if c.cls is ChangeClass.BREAKING)
    for c in out_big:
        if c.cls is ChangeClass.BREAKING:
            assert c.has_witness or (c.note and "budget" in c.note), c


@pytest.mark.parametrize("kind", KINDS)
def test_the_search_spends_a_bounded_amount_at_any_size(kind):
    """3,000 values: the search spends no more than the budget (units), no more calls than at
    1,000 values, and still finds its witness. A search that tried the values one by one would
    spend more calls at 3,000 (up to the 1,333 calls of 3,001 units its budget buys) than at
    1,000; a step costing the square of the size would pass the budget from 2,000 values on and
    leave the change without its witness (30,000 and 200,000, linear:
    benchmarks/bench_cost.py)."""
    tally, out = search_work(kind, 3_000)
    assert tally.units <= witness.MAX_TOOL_WORK
    small, _ = search_work(kind, 1_000)
    assert tally.calls <= small.calls
    assert [c.rule for c in out]  # an answer: the change is reported
    assert all(c.has_witness for c in out if c.cls is ChangeClass.BREAKING), out


def _status_of(kind: str, n: int):
    old, new = hostile_pair(kind, n)
    pins = PinFile()
    pins.decide(make_pin("srv", tool(old), "approved", by="alice"))
    snap = Snapshot(
        servers={"srv": ServerSnapshot(name="srv", principal="default", tools=[tool(new)])}
    )
    return compute_status(snap, pins)


@pytest.mark.parametrize("kind", KINDS)
def test_classify_and_status_answer_a_hostile_tool(kind, monkeypatch):
    """classify and status give their answer on a 3,000-value schema (past 2,000, where a step
    costing the square of the size would overrun the budget and lose the witness; 1,000 to
    200,000 in benchmarks/bench_cost.py), with the witness that proves the change breaking, and
    what the witness search behind them spent is counted (a tally through the real entry
    points)."""
    spent: list[witness.Tally] = []
    real = witness.attach_witnesses

    def counted(*a, **kw):
        kw["tally"] = t = witness.Tally()
        spent.append(t)
        return real(*a, **kw)

    monkeypatch.setattr("mcp_review.engine.compare.attach_witnesses", counted)
    old, new = hostile_pair(kind, 3_000)
    cmp = compare(tool(old), tool(new))
    assert cmp.changes and any(c.cls is ChangeClass.BREAKING for c in cmp.changes)
    assert all(c.has_witness for c in cmp.changes if c.cls is ChangeClass.BREAKING), cmp.changes
    report = _status_of(kind, 3_000)
    [t] = report.tools
    assert str(t.state) == "broken", t.state
    assert spent and all(s.units <= witness.MAX_TOOL_WORK for s in spent)
