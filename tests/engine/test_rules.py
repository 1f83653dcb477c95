"""The rule registry: every rule is well-formed, has a fixture pair, and fires exactly there."""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from pathlib import Path

import pytest
from helpers import with_fixture_ui

from mcp_review.engine import rules as rules_pkg
from mcp_review.engine import schema_diff
from mcp_review.engine.model import Change, ChangeClass, Direction, ToolDef
from mcp_review.engine.rules import (
    FAMILIES,
    RULES,
    Effect,
    Witness,
    class_for,
    make,
    quote,
    render_change,
    where,
)
from mcp_review.engine.schema_diff import diff_tools, scan_hidden

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rules"
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _load(path: Path) -> ToolDef:
    tool = ToolDef.from_wire(json.loads(path.read_text(encoding="utf-8")), source=str(path))
    return with_fixture_ui(tool, path)


def _broken_rule(*_args):
    raise ZeroDivisionError("a bug in one rule")


def _fired(rule_dir: Path) -> set[str]:
    old, new = _load(rule_dir / "old.json"), _load(rule_dir / "new.json")
    if rule_dir.name == "engine-error":
        # No schema makes a correct engine fail: plant a bug in one rule (multipleOf) and see
        # it reported as engine-error while the other change is still classified.
        with pytest.MonkeyPatch.context() as mp:
            mp.setitem(schema_diff._HANDLERS, "multipleOf", _broken_rule)
            return {c.rule for c in diff_tools(old, new)}
    changes = diff_tools(old, new)
    if rule_dir.name == "hidden-characters-present":
        changes += scan_hidden(new)
    return {c.rule for c in changes}


def _expected(rule_dir: Path) -> set[str]:
    exp = rule_dir / "expected.json"
    return set(json.loads(exp.read_text())) if exp.exists() else {rule_dir.name}


# The registry itself -------------------------------------------------------------------------


def test_ids_unique_and_kebab_case():
    assert len(RULES) == len(set(RULES))
    for rid, rule in RULES.items():
        assert rule.id == rid
        assert KEBAB.match(rid), rid


@pytest.mark.parametrize("rid", sorted(RULES))
def test_rule_is_complete(rid):
    rule = RULES[rid]
    assert rule.message and rule.purpose and rule.family
    assert isinstance(rule.witness, Witness)
    assert isinstance(rule.cls, ChangeClass)
    assert isinstance(rule.direction, Direction)
    assert (FIXTURES / rid / "old.json").exists() and (FIXTURES / rid / "new.json").exists()
    if rule.effect is not None:
        # The registry class is the input-side class of its effect.
        assert class_for(rule.effect, True) is rule.cls, rid


ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "mcp_review" / "engine" / "rules"


def test_each_rule_is_defined_once_with_a_literal_id_in_its_family_module():
    """One module per family; grep of an id finds its one definition and where it is emitted
    (no id is built with an f-string)."""
    package = {p: p.read_text(encoding="utf-8") for p in (ROOT / "mcp_review").rglob("*.py")}
    # Where each ``_r(`` call names its id (a literal or a constant), read once per module, and
    # the package as one text for counting (modules apart by a NUL, which no token spans): the
    # same answers as searching every module for every rule, at one pass over the package.
    called = {
        p: re.findall(r'_r\(\s*("[^"\n]*"|[A-Z][A-Z0-9_]*\b)', text) for p, text in package.items()
    }
    whole = "\0".join(package.values())
    words = Counter(re.findall(r"\w+", whole))  # a whole word of the package, as \bNAME\b finds it
    seen: dict[str, str] = {}
    for module in FAMILIES:
        family = module.__name__.rsplit(".", 1)[-1]
        assert module.RULES, family
        source = package[RULES_DIR / f"{family}.py"]
        for r in module.RULES:
            assert r.id not in seen, (r.id, seen.get(r.id), family)
            seen[r.id] = family
            assert RULES[r.id].family == family
            # ``_r(`` then the id, on the same line or the next (as ruff format lays it out),
            # or then the family's named constant for it (``NAME = "the-id"``, the one literal,
            # which consumers outside engine/rules/ import).
            literal = f'"{r.id}"'
            const = re.search(r"^([A-Z][A-Z0-9_]*) = " + re.escape(literal) + "$", source, re.M)
            name = literal if const is None else const.group(1)
            defined = [p for p, names in called.items() if name in names]
            assert defined == [RULES_DIR / f"{family}.py"], (r.id, defined)
            assert called[RULES_DIR / f"{family}.py"].count(name) == 1, (r.id, family)
            # Defined, and emitted (or listed in a table of ids the walker emits) by name.
            uses = whole.count(literal)
            if const is not None:
                assert source.count(literal) == 1, (r.id, "one literal, its constant")
                uses += words[const.group(1)] - 2
            assert uses >= 2, r.id
    assert set(seen) == set(RULES)
    assert not [p for p, text in package.items() if re.search(r'(emit|make)\(\s*f"', text)], (
        "a rule id built with an f-string"
    )


def _sample(field: str) -> object:
    return {
        "old": "before",
        "new": ["after", 2],
        "where": rules_pkg.Raw("input property 'x'"),
        "delta": rules_pkg.Raw('"a[-b-]{+c+}"'),
    }.get(field, f"<{field}>")


@pytest.mark.parametrize("rid", sorted(RULES))
def test_every_message_renders_from_its_template(rid):
    """Every template renders with the parameters it names, each quoted; the app can word a
    change another way from the same parameters."""
    rule = RULES[rid]
    names = {f for _, f, _, _ in string.Formatter().parse(rule.message) if f}
    ch = make(rid, "/inputSchema/properties/x/type", **{n: _sample(n) for n in names})
    params = dict(ch.params)
    assert names <= set(params), rid
    assert render_change(ch) == rule.message.format(**params) == ch.message
    assert "{" + next(iter(names), "where") + "}" not in render_change(ch)
    if "old" in names:
        assert '"before"' in render_change(ch)  # a server value arrives quoted
    mine = render_change(ch, {rid: "[" + rid + "] " + " ".join(f"{{{n}}}" for n in sorted(names))})
    assert mine.startswith(f"[{rid}]"), mine


def test_render_never_raises_on_a_template_the_change_cannot_fill():
    ch = make("enum-narrowed", "/inputSchema/enum", dropped=["a"])
    assert render_change(ch, {"enum-narrowed": "{nope}"}).startswith("allowed values were dropped")
    assert render_change(Change("no-such-rule", ChangeClass.COSMETIC, "")) == "no-such-rule ()"


@pytest.mark.parametrize("rid", sorted(RULES))
def test_witness_strategy_fits_the_rule(rid):
    """A rule that never judges a set of valid values is never searched for a witness; a rule
    that does (an effect, or breaking / potentially-breaking inside a schema) is, unless no
    call can show it (a hint)."""
    rule = RULES[rid]
    values = rule.effect is not None or (
        rule.direction is not Direction.TOOL
        and rule.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING)
    )
    if rule.witness is Witness.NONE:
        assert not values, rid
    else:
        assert values or rule.witness is Witness.OMIT, rid
    if rule.witness in (Witness.OMIT, Witness.OMIT_REQUIRED):
        assert rule.family == "objects", rid


def test_no_fixture_without_a_rule():
    dirs = {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert dirs == set(RULES)


@pytest.mark.parametrize("rid", sorted(RULES))
def test_fixture_yields_exactly_its_rules(rid):
    assert _fired(FIXTURES / rid) == _expected(FIXTURES / rid)


def test_class_for_flips_on_output():
    assert class_for(Effect.NARROW, True) is ChangeClass.BREAKING
    assert class_for(Effect.NARROW, False) is ChangeClass.COMPATIBLE
    assert class_for(Effect.WIDEN, False) is ChangeClass.BREAKING
    assert class_for(Effect.BOTH, False) is ChangeClass.BREAKING
    assert class_for(Effect.UNKNOWN, False) is ChangeClass.POTENTIALLY_BREAKING
    assert class_for(Effect.MAYBE_NARROW, False) is ChangeClass.COMPATIBLE


# Output mirror: a schema rule fired inside outputSchema has the flipped class -----------------

MIRRORED = [
    # rule ids whose fixture is an inputSchema change, and the class expected on output
    ("type-narrowed", ChangeClass.COMPATIBLE),
    ("type-widened", ChangeClass.BREAKING),
    ("enum-narrowed", ChangeClass.COMPATIBLE),
    ("enum-widened", ChangeClass.BREAKING),
    ("required-removed", ChangeClass.BREAKING),
    ("property-added-required", ChangeClass.COMPATIBLE),
    ("additional-properties-closed", ChangeClass.COMPATIBLE),
    ("maximum-increased", ChangeClass.BREAKING),
    ("pattern-removed", ChangeClass.POTENTIALLY_BREAKING),
    ("pattern-added", ChangeClass.COMPATIBLE),
    ("one-of-branch-added", ChangeClass.POTENTIALLY_BREAKING),
    ("type-changed", ChangeClass.BREAKING),
    ("schema-description-changed", ChangeClass.TRUST),
    # Text is text on either side: the model reads an output schema too.
    ("schema-comment-changed", ChangeClass.TRUST),
    ("schema-examples-changed", ChangeClass.TRUST),
    ("schema-text-added", ChangeClass.TRUST),
    ("property-added-optional", ChangeClass.COMPATIBLE),  # closed world holds for outputs too
]


@pytest.mark.parametrize(("rid", "cls"), MIRRORED)
def test_rule_flips_in_output_schema(rid, cls):
    old = json.loads((FIXTURES / rid / "old.json").read_text())
    new = json.loads((FIXTURES / rid / "new.json").read_text())
    placeholder = {"type": "object"}
    old_t = {"name": "t", "inputSchema": placeholder, "outputSchema": old["inputSchema"]}
    new_t = {"name": "t", "inputSchema": placeholder, "outputSchema": new["inputSchema"]}
    changes = [
        c for c in diff_tools(ToolDef.from_wire(old_t), ToolDef.from_wire(new_t)) if c.rule == rid
    ]
    assert changes, rid
    for c in changes:
        assert c.cls is cls, (rid, c)
        assert c.direction is Direction.OUTPUT
        assert c.pointer.startswith("/outputSchema")


def test_optional_property_added_to_closed_output_is_breaking():
    """Where old outputs could not carry the key, a new one may: outputs widened."""
    old = {"type": "object", "properties": {"a": {}}, "additionalProperties": False}
    new = {**old, "properties": {"a": {}, "b": {}}}
    t = {"name": "t", "inputSchema": {}}
    changes = diff_tools(
        ToolDef.from_wire({**t, "outputSchema": old}), ToolDef.from_wire({**t, "outputSchema": new})
    )
    assert [(c.rule, c.cls) for c in changes] == [("property-added-optional", ChangeClass.BREAKING)]


def test_not_flips_polarity_again():
    old = {"type": "object", "properties": {"x": {"not": {"type": "integer"}}}}
    new = {"type": "object", "properties": {"x": {"not": {"type": "number"}}}}
    changes = diff_tools(
        ToolDef.from_wire({"name": "t", "inputSchema": old}),
        ToolDef.from_wire({"name": "t", "inputSchema": new}),
    )
    # not number rejects 1.5, which not integer accepted: the input narrowed.
    assert [(c.rule, c.cls) for c in changes] == [("type-widened", ChangeClass.BREAKING)]


# Messages ------------------------------------------------------------------------------------


def test_make_quotes_and_bounds_server_strings():
    evil = "\u202eevil\x1b[31m" + "x" * 10_000_000
    ch = make("enum-narrowed", "/inputSchema/properties/a/enum", dropped=[evil])
    assert len(ch.message) < 600
    assert "\u202e" not in ch.message and "\x1b" not in ch.message
    assert "⟨RLO U+202E⟩" in ch.message and "…" in ch.message


def test_quote_lone_surrogate_and_nested_values():
    assert "⟨U+D800⟩" in quote("a\ud800b")
    assert len(quote({"k": ["v" * 1000] * 1000})) <= 201
    assert quote(True) == "true" and quote(1) == "1" and quote(None) == "null"
    assert quote(list(range(1000))).endswith("more]")


def test_where_labels():
    assert where("/inputSchema/properties/a/properties/b/enum") == "input property 'a.b'"
    assert where("/inputSchema/properties/tags/items/type") == "input property 'tags[]'"
    assert where("/outputSchema") == "output schema"
    assert "⟨U+200B⟩" in where("/inputSchema/properties/a\u200b/type")


def test_missing_parameter_never_loses_the_change():
    ch = make("enum-narrowed", "/inputSchema/enum")
    assert ch.rule == "enum-narrowed" and ch.message
