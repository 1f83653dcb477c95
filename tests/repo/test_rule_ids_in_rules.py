"""Consumers ask the rule, not its id: outside ``engine/rules/`` no module names a rule id as a
string literal. The kinds, the policy, enforcement, the proxy's hold, the app and the formats ask
a rule's taxonomy (``Rule.text``, ``Rule.claim``, ``Rule.holdable``, ``Rule.hidden``, ...;
``catalog.rule_of``); a site that must name one rule (the walker emitting ``schema-too-deep``,
the cue finder's patterns) imports the named constant its family module defines, the one
literal of that id.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

from mcp_review.engine.rules.catalog import RULES, rule_of
from mcp_review.engine.rules.cues import CUE_RULES, SECRET_PATH_RULE
from mcp_review.engine.rules.outside import OUTSIDE_RULES
from mcp_review.engine.rules.registry import Claim

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mcp_review"
RULES_DIR = PACKAGE / "engine" / "rules"

NOT_YET_CONVERTED: frozenset[str] = frozenset()
"""Modules (relative to the package) still naming rule ids: to shrink to nothing, never grow."""


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        body = body if isinstance(body, list) else []  # (a lambda's body is an expression)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            out.add(id(body[0].value))
        # An attribute docstring: a string statement right after an assignment.
        for prev, stmt in itertools.pairwise(body):
            if (
                isinstance(prev, (ast.Assign, ast.AnnAssign))
                and isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
            ):
                out.add(id(stmt.value))
    return out


def id_literals(source: str | ast.Module, ids: frozenset[str]) -> list[tuple[int, str]]:
    """(line, id) of every string constant in ``source`` (or its parsed tree) equal to one of
    ``ids`` (docstrings skipped; comments are not in the tree)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    docs = _docstrings(tree)
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in ids
        and id(node) not in docs
    )


ALL_IDS = frozenset(RULES) | frozenset(CUE_RULES) | OUTSIDE_RULES


def test_no_module_outside_engine_rules_names_a_rule_id(package_tree):
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if RULES_DIR in path.parents:
            continue
        rel = str(path.relative_to(PACKAGE))
        hits = id_literals(package_tree(path), ALL_IDS)
        if hits and rel not in NOT_YET_CONVERTED:
            found[rel] = hits
    assert not found, (
        "rule ids named outside engine/rules/ (ask the rule's taxonomy, or import the family "
        f"module's named constant): {found}"
    )
    # The list of modules left to convert only shrinks: each entry must still need it.
    stale = {
        rel for rel in NOT_YET_CONVERTED if not id_literals(package_tree(PACKAGE / rel), ALL_IDS)
    }
    assert not stale, f"converted, drop from NOT_YET_CONVERTED: {stale}"


def test_the_scan_finds_an_id_in_code_and_skips_docstrings_and_comments():
    """The check can fail: an id in an expression is found wherever it sits, in a docstring or
    a comment it is not."""
    source = (
        '"""Mentions \'annotation-relaxed\' in prose."""\n'
        "X = 1\n"
        '"""An attribute docstring naming "schema-too-deep"."""\n'
        "# schema-too-deep in a comment\n"
        "def f(c):\n"
        '    """annotation-relaxed"""\n'
        '    return c.rule == "annotation-relaxed" or c.rule in {"cue.url.link"}\n'
    )
    assert id_literals(source, ALL_IDS) == [(7, "annotation-relaxed"), (7, "cue.url.link")]


def test_the_taxonomy_the_consumers_ask_is_on_the_rules():
    """The facts once written as id lists in the consumers, now on the rules (an independent
    statement of them: changing a rule's taxonomy must be deliberate)."""
    text = {r.id for r in RULES.values() if r.text}
    assert text == {
        "tool-description-changed",
        "tool-title-changed",
        "annotation-title-changed",
        "schema-description-changed",
        "schema-title-changed",
        "schema-comment-changed",
        "schema-examples-changed",
        "schema-text-added",
    }
    claims = {r.id: r.claim for r in RULES.values() if r.claim is not None}
    assert claims == {
        "annotation-relaxed": Claim.ANNOTATION_MORE,
        "annotation-gates-less": Claim.ANNOTATION_LESS,
        "annotation-other-changed": Claim.ANNOTATION_OTHER,
        "meta-visibility-model": Claim.META_MORE,
        "meta-csp-widened": Claim.META_MORE,
    }
    assert {r.id for r in RULES.values() if r.claim and r.claim.more_power} == {
        "annotation-relaxed",
        "meta-visibility-model",
        "meta-csp-widened",
    }
    assert {r.id for r in RULES.values() if not r.holdable} == {
        "annotation-relaxed",
        "hidden-characters-added",
        "meta-visibility-model",
        "meta-csp-widened",
    }
    assert {r.id for r in RULES.values() if r.hidden} == {"hidden-characters-added"}
    assert {r.id for r in RULES.values() if r.adds_required} == {
        "property-added-required",
        "required-added",
    }
    assert {r.id for r in RULES.values() if r.title} == {
        "tool-title-changed",
        "annotation-title-changed",
        "schema-title-changed",
    }
    assert {r.id for r in RULES.values() if r.text_added} == {"schema-text-added"}
    assert {r.id for r in RULES.values() if r.unjudged} == {"engine-error", "schema-too-deep"}
    # Every rule is text or structure, on one side; an id the registry does not hold (a kind's
    # own rule) has no taxonomy.
    assert all(r.text is (r.id in text) for r in RULES.values())
    assert rule_of("text").claim is None and not rule_of("tool-new").text
    assert rule_of("tool-new").holdable


def test_the_cue_taxonomy_the_consumers_ask_is_on_the_cue_rules():
    """The ranking, the first-sight block and the app's wording of a path to a secret location
    ask ``CueRule.secret_location``: exactly that one rule has it."""
    assert {r.id for r in CUE_RULES.values() if r.secret_location} == {SECRET_PATH_RULE}
