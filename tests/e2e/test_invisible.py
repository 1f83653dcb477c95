"""Issue 25 items 3 and 4: invisible characters decided by Unicode property, not a fixed list, and
look-alike names that fold case in the right order.

The table (``mcp_review/engine/unicode_tables.py``) is generated from the UCD by
``scripts/gen_unicode_tables.py``; it is held here over the whole code space, and each class of
invisible code point is run through the paths an attacker aims at: a description gaining one
(auto-approved under ``compatible`` before), a tool name beside a pinned twin (``review``, not
``block``, before), and every output format (markdown showed two rows reading ``read_file``).
"""

from __future__ import annotations

import html
import io
import itertools
import json
import re
import unicodedata
from contextlib import redirect_stdout
from typing import Any

import pytest
from servers.toolserver import tool as wire_tool

from mcp_review.cli import main
from mcp_review.engine import hidden, unicode_tables
from mcp_review.engine.hidden import (
    find_hidden,
    has_hidden,
    is_confusable_name,
    mark_lookalikes,
    md_text,
    safe_text,
    sarif_text,
    visible,
)
from mcp_review.engine.model import ToolDef
from mcp_review.engine.names import needs_escape
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.policy import TIERS, Outcome, decide, facts_for
from mcp_review.engine.schema_diff import diff_tools
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status
from mcp_review.store.pinfile import save_pins

# One code point of each class the fixed list missed or held, and of each property the table is
# made of: deprecated format controls, interlinear annotations, Mongolian variation selectors,
# musical beams, the Braille blank, Hangul fillers, Khmer inherent vowels, prepended
# concatenation marks, Egyptian hieroglyph format controls, shorthand format controls, the
# unassigned default-ignorables, TAG characters, variation selectors, bidi and zero-width ones.
CLASSES = {
    "inhibit-symmetric-swapping U+206A": 0x206A,
    "nominal-digit-shapes U+206F": 0x206F,
    "interlinear-anchor U+FFF9": 0xFFF9,
    "interlinear-terminator U+FFFB": 0xFFFB,
    "mongolian-fvs1 U+180B": 0x180B,
    "mongolian-fvs4 U+180F": 0x180F,
    "musical-begin-beam U+1D173": 0x1D173,
    "musical-end-phrase U+1D17A": 0x1D17A,
    "braille-blank U+2800": 0x2800,
    "hangul-filler U+3164": 0x3164,
    "hangul-choseong-filler U+115F": 0x115F,
    "hangul-jungseong-filler U+1160": 0x1160,
    "halfwidth-hangul-filler U+FFA0": 0xFFA0,
    "khmer-inherent-aq U+17B4": 0x17B4,
    "arabic-number-sign U+0600": 0x0600,
    "egyptian-joiner U+13430": 0x13430,
    "shorthand-overlap U+1BCA0": 0x1BCA0,
    "unassigned-ignorable U+FFF0": 0xFFF0,
    "unassigned-ignorable U+E0FFF": 0xE0FFF,
    "language-tag U+E0001": 0xE0001,
    "tag-latin-a U+E0061": 0xE0061,
    "variation-selector-16 U+FE0F": 0xFE0F,
    "variation-selector-256 U+E01EF": 0xE01EF,
    "word-joiner U+2060": 0x2060,
    "zero-width-space U+200B": 0x200B,
    "right-to-left-override U+202E": 0x202E,
    "soft-hyphen U+00AD": 0x00AD,
}
_IDS = list(CLASSES)


def _ranges_hold(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


# The table ---------------------------------------------------------------------------------------


def test_the_table_states_its_version_and_is_well_formed():
    assert unicode_tables.UNICODE_VERSION == "17.0.0"
    for ranges in (unicode_tables.INVISIBLE, unicode_tables.SPACE_SEPARATORS):
        flat = [x for r in ranges for x in r]
        assert flat == sorted(flat) and all(lo <= hi for lo, hi in ranges)
        assert all(b[0] > a[1] + 1 for a, b in itertools.pairwise(ranges))  # merged


def test_every_code_point_is_hidden_exactly_when_the_table_or_the_controls_say_so():
    """The whole code space, 0..0x10FFFF (lone surrogates apart: no UTF-8 text holds one)."""
    cps = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
    text = "".join(map(chr, cps))
    got = {ord(h.text) for h in find_hidden(text)}
    controls = {*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)}
    want = controls | {cp for lo, hi in unicode_tables.INVISIBLE for cp in range(lo, hi + 1)}
    assert got == want
    # The classes the issue names are all in it, and no space separator is.
    for lo, hi in ((0x206A, 0x206F), (0xFFF9, 0xFFFB), (0x180B, 0x180F), (0x1D173, 0x1D17A)):
        assert all(cp in got for cp in range(lo, hi + 1))
    assert {0x2800, 0x3164, 0x115F, 0x1160, 0xFFA0, *range(0xE0000, 0xE0080)} <= got
    spaces = {cp for lo, hi in unicode_tables.SPACE_SEPARATORS for cp in range(lo, hi + 1)}
    assert spaces and not spaces & got and 0x20 not in spaces


def test_the_table_agrees_with_the_interpreters_unicodedata_where_both_know():
    """An independent oracle for the Cf and Zs parts: every code point the interpreter's
    (older) UCD calls a format character is invisible, every Zs but U+0020 a space separator.
    Characters assigned since keep their category, so the newer table holds the older one."""
    inv = unicode_tables.INVISIBLE
    spaces = unicode_tables.SPACE_SEPARATORS
    for cp in range(0x110000):
        cat = unicodedata.category(chr(cp))
        if cat == "Cf":
            assert _ranges_hold(cp, inv), hex(cp)
        elif cat == "Zs" and cp != 0x20:
            assert _ranges_hold(cp, spaces), hex(cp)


# A description gaining one -------------------------------------------------------------------


def _tool(description: str, name: str = "search") -> dict[str, Any]:
    return wire_tool(name, description, q={"type": "string"})


@pytest.mark.parametrize("cp", CLASSES.values(), ids=_IDS)
@pytest.mark.parametrize("tier", TIERS)
def test_a_description_gaining_an_invisible_character_is_blocked(cp, tier):
    old = ToolDef.from_wire(_tool("Search the index."))
    new = ToolDef.from_wire(_tool(f"Search the{chr(cp)} index."))
    got = decide(tier, facts_for(old, new, diff_tools(old, new)))
    assert got.outcome is Outcome.BLOCK, got
    assert any(f"U+{cp:04X}" in r or "⟨TAG " in r for r in got.reasons), got.reasons


@pytest.mark.parametrize("cp", [0x00A0, 0x202F, 0x2009, 0x3000, 0x1680, 0x205F])
def test_a_space_separator_is_shown_never_blocking(cp):
    """Honest French (« texte » with U+202F) and CJK (U+3000) text: no block; in a name the
    character is marked so two names never read alike."""
    old = ToolDef.from_wire(_tool("Search the index."))
    new = ToolDef.from_wire(_tool(f"Search{chr(cp)}the index{chr(cp)}: « oui »."))
    got = decide("compatible", facts_for(old, new, diff_tools(old, new)))
    assert got.outcome is Outcome.AUTO_APPROVE, got
    assert not has_hidden(chr(cp))
    assert f"⟨U+{cp:04X}⟩" in mark_lookalikes(f"read{chr(cp)}file")
    assert needs_escape(f"read{chr(cp)}file")


# A name beside a pinned twin, and every output ----------------------------------------------------


def _snapshot(names: dict[str, list[str]]) -> Snapshot:
    return Snapshot(
        servers={
            s: ServerSnapshot(s, tools=[ToolDef.from_wire(_tool("Read a file.", n)) for n in ns])
            for s, ns in names.items()
        }
    )


def _pinned() -> PinFile:
    pf = PinFile()
    pf.decide(
        make_pin(
            "files",
            ToolDef.from_wire(_tool("Read a file.", "read_file")),
            Decision.APPROVED,
            by="x",
        )
    )
    return pf


@pytest.mark.parametrize("cp", CLASSES.values(), ids=_IDS)
def test_a_twin_with_an_invisible_character_is_blocked(cp):
    twin = "read_file" + chr(cp)
    assert is_confusable_name(twin, "read_file")
    for snap in (
        _snapshot({"files": ["read_file"], "helper": [twin]}),
        _snapshot({"files": ["read_file", twin]}),
    ):
        r = compute_status(snap, _pinned())
        (t,) = [t for t in r.tools if t.tool == twin]
        assert t.policy.outcome is Outcome.BLOCK, t.policy
        assert any("confusable" in x for x in t.policy.reasons)


@pytest.mark.parametrize("cp", CLASSES.values(), ids=_IDS)
def test_every_sanitiser_shows_the_invisible_character(cp):
    s = "read_file" + chr(cp)
    token = re.compile(rf"⟨[^⟩]*U\+{cp:04X}⟩|⟨TAG [a-z]⟩")
    for f in (visible, safe_text, mark_lookalikes):
        assert chr(cp) not in f(s) and token.search(f(s)), f
    assert chr(cp) not in md_text(s) and token.search(html.unescape(md_text(s)))
    assert chr(cp) not in sarif_text(s) and token.search(sarif_text(s))
    assert needs_escape(s)


def _run(args: list[str]) -> tuple[int, str]:
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(args)
    return rc, buf.getvalue()


@pytest.mark.parametrize("cp", [0x206A, 0xFFF9, 0x180B, 0x1D173, 0x2800, 0xE0001, 0x0600], ids=hex)
def test_no_output_shows_two_rows_reading_read_file(cp, tmp_path, monkeypatch):
    """check over a snapshot in every format: the twin is blocked and its name shows the
    character, so no report holds two tools that read ``read_file``."""
    monkeypatch.chdir(tmp_path)
    twin = "read_file" + chr(cp)
    pf = _pinned()
    pf.path = str(tmp_path / "mcp-pins.toml")
    save_pins(pf)
    (tmp_path / "s.json").write_text(_snapshot({"files": ["read_file", twin]}).dumps())
    rc, out = _run(["check", "--from-snapshot", "s.json", "--format", "json"])
    by = {t["tool"]: t for t in json.loads(out)["tools"]}
    assert rc == 1 and by[twin]["policy"]["outcome"] == "block"
    for fmt in ("text", "markdown", "sarif"):
        rc, out = _run(["check", "--from-snapshot", "s.json", "--format", fmt])
        assert chr(cp) not in out, fmt
        readable = html.unescape(out) if fmt == "markdown" else out
        if fmt == "sarif":  # the messages a reader sees (keys stay \u-escaped JSON)
            readable = "\n".join(
                r["message"]["text"] for run in json.loads(out)["runs"] for r in run["results"]
            )
        assert f"U+{cp:04X}" in readable, fmt


# Item 4: look-alikes fold case in the right order ---------------------------------------------


@pytest.mark.parametrize(
    "a, b",
    [
        ("READ_FILE", "read_file"),  # its own skeleton is read_flle: casefold first
        ("Read_File", "read_file"),
        ("rEaD_fIlE", "read_file"),
        ("READ_FILE", "READ_FlLE"),  # small L for capital I
        ("Read_FiIe", "read_file"),  # case and a capital I for l at once
        ("\uff32\uff25\uff21\uff24\uff3f\uff26\uff29\uff2c\uff25", "read_file"),  # fullwidth
        ("\uff52\uff45\uff41\uff44_\uff46\uff49\uff4c\uff45", "read_file"),
        ("READ_\u0406LE", "read_ile"),  # Cyrillic І in a capital name
        ("R\u0415AD_FILE", "read_file"),  # Cyrillic Е
        ("gro\u00df", "GROSS"),  # ß folds to ss
        ("\u212aill", "kill"),  # Kelvin sign
        ("\u017fend", "send"),  # long s
        ("READ-FILE", "read_file"),
        ("READ_FILE\u206a", "read_file"),
    ],
)
def test_case_and_width_variants_look_alike(a, b):
    assert is_confusable_name(a, b) and is_confusable_name(b, a)
    ka, kb = hidden.lookalike_keys(a), hidden.lookalike_keys(b)
    assert ka[0] == kb[0] or ka[1] == kb[1]


@pytest.mark.parametrize(
    "a, b", [("READ_FILE", "read_files"), ("LIST", "lost"), ("Deploy", "redeploy")]
)
def test_case_folding_does_not_merge_different_names(a, b):
    assert not is_confusable_name(a, b)


@pytest.mark.parametrize("twin", ["READ_FILE", "Read_File", "\uff32\uff25\uff21\uff24_FILE"])
def test_a_case_variant_beside_a_pinned_tool_is_blocked(twin):
    r = compute_status(_snapshot({"files": ["read_file"], "helper": [twin]}), _pinned())
    (t,) = [t for t in r.tools if t.tool == twin]
    assert t.policy.outcome is Outcome.BLOCK and t.shadows == ["files/read_file"], t.policy


@pytest.mark.parametrize("cp", CLASSES.values(), ids=_IDS)
def test_an_invisible_character_in_a_new_property_name_or_enum_value_is_blocked(cp):
    old = ToolDef.from_wire(_tool("Search the index."))
    for new_wire in (
        wire_tool("search", "Search the index.", q={"type": "string"}, **{f"q{chr(cp)}": {}}),
        wire_tool("search", "Search the index.", q={"type": "string", "enum": [f"a{chr(cp)}"]}),
    ):
        new = ToolDef.from_wire(new_wire)
        got = decide("compatible", facts_for(old, new, diff_tools(old, new)))
        assert got.outcome is Outcome.BLOCK, got


@pytest.mark.parametrize("cp", [0x00A0, 0x3000, 0x2007])
def test_a_space_separator_is_marked_in_a_name_written_in_another_script(cp):
    # A name mostly in a non-Latin script is left as written, but for its odd spaces.
    name = f"読む{chr(cp)}ファイル"
    assert mark_lookalikes(name) == f"読む{chr(cp)}⟨U+{cp:04X}⟩ファイル"
    assert mark_lookalikes("読むファイル") == "読むファイル"
