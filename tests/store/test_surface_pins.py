"""Prompts, resources and templates in the pin file (issue 43 item 2): written as readable
tables, verified on load, and pin files without them read and write as before."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest

from mcp_review.engine.errors import InputError
from mcp_review.engine.pinread import parse_pins
from mcp_review.engine.surfaces import PROMPT, RESOURCE, TEMPLATE, make_surface_pin
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins, save_pins

FIX = Path(__file__).parent.parent / "fixtures" / "surfaces"
PINS = Path(__file__).parent.parent / "fixtures" / "pins"


def fixture(name: str) -> dict:
    return json.loads((FIX / name).read_text())


def sp(kind: str, wire: dict, decision: str = "approved", server: str = "srv"):
    return make_surface_pin(
        server, kind, wire, decision, principal="default", by="alice", at="2026-12-03T10:00:00Z"
    )


def test_round_trip_and_layout(tmp_path):
    path = str(tmp_path / "mcp-pins.toml")
    pf = load_pins(path)
    for kind, name in (
        (PROMPT, "prompt.json"),
        (RESOURCE, "resource.json"),
        (TEMPLATE, "template.json"),
    ):
        pf.decide_surface(sp(kind, fixture(name)), source="test")
    save_pins(pf, path)
    text = Path(path).read_text()
    doc = tomllib.loads(text)
    tables = doc["servers"]["srv"]["principals"]["default"]
    assert set(tables) == {"prompts", "resources", "resource_templates"}
    assert "write_summary" in tables["prompts"]
    assert "file:///project/README.md" in tables["resources"]
    assert "project_file" in tables["resource_templates"]
    # readable: the definition spans lines, one key a line
    assert '\n  "description": "Write a short summary of a topic.",\n' in text
    again = load_pins(path)
    assert again.surfaces == pf.surfaces
    assert again.to_bytes() == Path(path).read_bytes()
    # the audit log names the subject
    recs = audit.read(audit.audit_path_for(path))
    assert {r["subject"] for r in recs} == {PROMPT, RESOURCE, TEMPLATE}


def test_changed_definition_diffs_by_line(tmp_path):
    path = str(tmp_path / "mcp-pins.toml")
    pf = load_pins(path)
    p = fixture("prompt.json")
    pf.decide_surface(sp(PROMPT, p), source="test")
    save_pins(pf, path)
    before = Path(path).read_text().splitlines()
    p2 = copy.deepcopy(p)
    p2["description"] = "Summarise a topic."
    pf.decide_surface(sp(PROMPT, p2), source="test")
    save_pins(pf, path)
    after = Path(path).read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(changed) == 2  # the digest line and the description line
    assert any("Summarise a topic." in b for _, b in changed)


def test_hand_edited_surface_pin_does_not_verify(tmp_path):
    path = str(tmp_path / "mcp-pins.toml")
    pf = load_pins(path)
    pf.decide_surface(sp(PROMPT, fixture("prompt.json")), source="test")
    save_pins(pf, path)
    text = Path(path).read_text().replace("Write a short summary", "Send everything")
    with pytest.raises(InputError, match='prompt "write_summary"'):
        parse_pins(text)
    kept = parse_pins(text, allow_unverified=True)
    assert not kept.surfaces and len(kept.unverified_surfaces) == 1
    # written back as it was
    assert kept.to_bytes().decode() == text


def test_forget_surface(tmp_path):
    path = str(tmp_path / "mcp-pins.toml")
    pf = load_pins(path)
    s = sp(RESOURCE, fixture("resource.json"))
    pf.decide_surface(s, source="test")
    save_pins(pf, path)
    pf.forget_surface(s.key, source="test")
    save_pins(pf, path)
    assert "resources" not in Path(path).read_text()


def test_malformed_surface_table_is_a_clear_error():
    bad = 'version = 2\n[servers.s.principals.default.prompts.p]\ndecision = "maybe"\n'
    with pytest.raises(InputError, match="prompts"):
        parse_pins(bad)


@pytest.mark.parametrize("name", sorted(p.name for p in PINS.glob("*.toml")) or ["-"])
def test_pin_files_without_surfaces_read_and_write_as_before(name):
    if name == "-":
        pytest.skip("no pin fixtures")
    raw = (PINS / name).read_bytes()
    try:
        pf = parse_pins(raw, allow_unverified=True)
    except InputError:
        pytest.skip("a fixture that is refused on purpose")
    assert not pf.surfaces and not pf.unverified_surfaces
    if pf.version == 2:
        assert pf.to_bytes() == raw


def test_verify_counts_and_checks_surface_pins(tmp_path):
    from mcp_review.cli import main

    path = str(tmp_path / "mcp-pins.toml")
    pf = load_pins(path)
    pf.decide_surface(sp(PROMPT, fixture("prompt.json")), source="test")
    save_pins(pf, path)
    assert main(["verify", "--pins", path]) == 0
    Path(path).write_text(Path(path).read_text().replace("Write a short", "Send a short"))
    assert main(["verify", "--pins", path]) != 0
