"""Golden digests: a committed pin file whose digests must stay valid forever.

``tests/fixtures/pins/golden.toml`` was written once (2026-11-30) by mcp-review under digest
schemes 1 and 2: edge numbers (``1.0``, ``2**63``, ``-0.0``, ``1e300``, ``5e-324``, 2**53 + 1),
keys outside the BMP and in the private-use area (code point order differs from UTF-16 order
there), NFC/NFD look-alikes, hidden characters, a NUL, ``execution``/``icons``/``_meta``.

**Never regenerate it.** If this test fails, the canonical form or the hashed fields changed
silently, and every pin file on disk would be orphaned (every tool re-quarantined). A change of
canonical form needs a new digest scheme in ``engine/model.DIGEST_SCHEMES`` that leaves the old
ones computing exactly what they computed, plus a migration.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from mcp_review.engine.model import (
    DIGEST_SCHEME,
    DIGEST_SCHEMES,
    HASHED_FIELDS,
    HASHED_FIELDS_V1,
    ToolDef,
    digest_under,
)
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import State, compute_status
from mcp_review.store.pinfile import load_pins

GOLDEN = Path(__file__).parent.parent / "fixtures" / "pins" / "golden.toml"

GOLDEN_FILE_SHA256 = "c47ff5ea41fe7d06328e29f20d8a93b219572d78f4444db61e6d1aa7c514f163"
"""The fixture's own bytes: regenerating it instead of fixing the code fails here first."""

# (principal = scheme, tool) -> digest, written out so the fixture cannot drift with the code.
EXPECTED = {
    ("scheme1", "numbers"): "36fa4c0177db48d19fe62171545136ae22f882a8531161bf88c54defa4809f87",
    ("scheme1", "run_query"): "1596122e85a5145213e58c914595c8f14fee14c3fa697242661384e9eaaa6ab5",
    ("scheme1", "tasks"): "77441d3521e2db3c23ff018db97f2286243ce70ce951c1ac25dcc0472e151bf6",
    ("scheme1", "unicode_keys"): "8e9ebae8e1de4071bdd36790fbcc5d12c9dafd6f4947fe8e15628512f613ca27",
    ("scheme2", "numbers"): "36fa4c0177db48d19fe62171545136ae22f882a8531161bf88c54defa4809f87",
    ("scheme2", "run_query"): "1596122e85a5145213e58c914595c8f14fee14c3fa697242661384e9eaaa6ab5",
    ("scheme2", "tasks"): "34cb4958d09a30acdd4e21e2e77bd8895d392661a13e33ef3225034f0a3c8c08",
    ("scheme2", "unicode_keys"): "8e9ebae8e1de4071bdd36790fbcc5d12c9dafd6f4947fe8e15628512f613ca27",
}


def test_the_golden_file_is_the_one_committed():
    assert hashlib.sha256(GOLDEN.read_bytes()).hexdigest() == GOLDEN_FILE_SHA256


def _pins():
    pf = load_pins(str(GOLDEN))
    return {(p.principal, p.tool): p for p in pf.pins.values()}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_every_golden_digest_still_verifies_under_its_own_scheme(key):
    pin = _pins()[key]
    assert pin is not None
    assert pin.digest == "sha256:" + EXPECTED[key]
    scheme = int(key[0].removeprefix("scheme"))
    assert pin.digest_scheme == scheme
    assert pin.hashed_fields == DIGEST_SCHEMES[scheme]
    wire = pin.tool_def().wire
    assert digest_under(wire, pin.digest_scheme, pin.hashed_fields) == pin.digest


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_a_live_tool_equal_to_a_golden_pin_is_pinned_under_the_current_scheme(key):
    """Scheme-1 pins migrate: recomputed from their definition, never re-quarantined."""
    pin = _pins()[key]
    live = pin.tool_def()
    assert pin.current_digest() == live.digest
    from mcp_review.engine.pins import PinFile

    pf = PinFile()
    pf.decide(pin)
    snap = Snapshot(
        servers={"golden": ServerSnapshot(name="golden", principal=key[0], tools=[live])}
    )
    (st,) = compute_status(snap, pf).tools
    assert st.state is State.PINNED


def test_schemes_differ_only_where_execution_or_icons_are_declared():
    pins = _pins()
    for tool in ("numbers", "run_query", "unicode_keys"):
        assert pins[("scheme1", tool)].digest == pins[("scheme2", tool)].digest
    assert pins[("scheme1", "tasks")].digest != pins[("scheme2", "tasks")].digest


def test_scheme_two_hashed_execution_and_icons_but_never_meta():
    base = {"name": "t", "inputSchema": {"type": "object"}}
    v2 = DIGEST_SCHEMES[2]
    assert v2 == (*HASHED_FIELDS_V1, "execution", "icons")
    d = digest_under(base, 2, v2)
    assert digest_under({**base, "_meta": {"k": "v"}}, 2, v2) == d
    assert digest_under({**base, "execution": {"taskSupport": "required"}}, 2, v2) != d
    assert digest_under({**base, "icons": [{"src": "https://x/i.png"}]}, 2, v2) != d


def test_current_scheme_is_three_the_whole_tool_and_agrees_where_nothing_else_is_served():
    """Issue 42: ``_meta`` and unknown keys are in the digest; a tool that serves only the
    fields scheme 2 named keeps its digest value, so every golden digest of such a tool is
    also its scheme-3 digest (no pin, snapshot or golden output moves)."""
    assert DIGEST_SCHEME == 3 and DIGEST_SCHEMES[3] == HASHED_FIELDS == ("*",)
    base = {"name": "t", "inputSchema": {"type": "object"}}
    d = ToolDef.from_wire(base).digest
    assert d == digest_under(base, 2, DIGEST_SCHEMES[2]) == digest_under(base, 1, HASHED_FIELDS_V1)
    assert ToolDef.from_wire({**base, "_meta": {"k": "v"}}).digest != d
    assert ToolDef.from_wire({**base, "x-unknown": 1}).digest != d
    for (scheme, tool), pin in _pins().items():
        wire = pin.tool_def().wire
        served_only_named = set(wire) <= set(DIGEST_SCHEMES[2])
        same = ToolDef.from_wire(wire).digest == digest_under(wire, 2, DIGEST_SCHEMES[2])
        assert same == served_only_named, (scheme, tool)


def test_an_unknown_scheme_is_refused_not_guessed():
    with pytest.raises(ValueError, match="unknown"):
        digest_under({"name": "t"}, 4, HASHED_FIELDS)
    with pytest.raises(ValueError, match="unknown"):
        digest_under({"name": "t"}, True, HASHED_FIELDS)  # type: ignore[arg-type]
