"""Real servers' tool lists across released versions, held against an independent oracle.

The captures (tests/corpus/<server>/<version>.json) come from ``scripts/corpus/capture.py``;
the oracle's labels and counterexamples (tests/corpus/labels.json) from
``scripts/corpus/sweep.py`` (hypothesis-jsonschema + python-jsonschema, closed world, K valid
instances per change). This file only reads those committed files: it re-checks every
counterexample with python-jsonschema, runs the engine on every change and holds its verdicts
to the goals of issue 11 (figures: benchmarks/README.md, "Corpus").
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from jsonschema.validators import Draft202012Validator, validator_for

ROOT = Path(__file__).resolve().parents[2]

import corpus_data as cd  # noqa: E402
import evaluate as ev  # noqa: E402

LABELS = ev.load_labels()
ROWS = LABELS["units"]
UNITS = {u.key: u for u in cd.units()}
CRY_WOLF_MAX = 0.01
NO_ANSWER_MAX = 0.05
"""Issue 26's goals. A removed declared property of an open object stays potentially-breaking
by design and is counted apart (``evaluate.REMOVED_DECLARED``), not as "no answer"."""


def _validator(schema):
    if schema is cd.ABSENT:
        schema = True
    cls = (
        validator_for(schema, default=Draft202012Validator)
        if isinstance(schema, dict)
        else Draft202012Validator
    )
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


@pytest.fixture(scope="session")
def verdicts(corpus_pairs):
    """The engine's verdict on every unit, from the corpus compared once (tests/engine/
    conftest.py; session-scoped so these tests join that fixture's xdist group)."""
    compared = {p.key: (p.comparison, p.error) for p in corpus_pairs if p.a.digest != p.b.digest}
    return ev.engine_verdicts(list(UNITS.values()), compared)


@pytest.fixture(scope="session")
def fig(verdicts):
    return ev.figures(verdicts, LABELS)


def _show(items) -> str:
    return "\n".join(f"  {k}: {v}" for k, v in items)


# The corpus itself ----------------------------------------------------------------------------


def test_corpus_has_servers_from_both_registries_most_with_three_versions():
    servers = cd.servers()
    ok = {s: caps for s, caps in servers.items() if len(caps) >= 3}
    assert len(ok) >= 20, sorted(servers)
    assert all(len(caps) >= 2 for caps in servers.values()), sorted(servers)
    # Issue 26 asks for at least 30 published servers, at least 10 from PyPI (benchmarks/
    # README.md, "Corpus"; tried and dropped: the manifest's left_out).
    assert len(servers) >= 30, sorted(servers)
    ecos = Counter(caps[0].manifest["ecosystem"] for caps in servers.values())
    assert ecos["npm"] >= 10 and ecos["pypi"] >= 10, ecos
    # several large servers (most of them SaaS: GitLab, Azure DevOps, Google Workspace, Heroku)
    large = [s for s, caps in servers.items() if max(len(c.tools) for c in caps) >= 20]
    assert len(large) >= 5, large
    for caps in servers.values():
        for c in caps:
            m = c.manifest
            assert c.path.name == f"{m['version']}.json" and c.path.parent.name == m["server"]
            for key in ("package", "version", "captured", "started", "installed_with"):
                assert m.get(key), (c.path, key)
            assert m["started"].startswith("unshare -n "), c.path  # captured with no network
            assert len(m["raw_sha256"]) == m["pages"] >= 1
            assert c.raw_tools, f"{c.path}: no tools"


def test_the_capture_manifest_accounts_for_every_version_tried():
    """tests/corpus/manifest.json: every server's captured versions are its files, and every
    version tried and not captured says why (never a silent gap in a server's history)."""
    doc = json.loads((cd.CORPUS / "manifest.json").read_text(encoding="utf-8"))
    book = doc["servers"]
    servers = cd.servers()
    assert set(servers) <= set(book)
    for name, entry in book.items():
        caps = servers.get(name, [])
        assert entry["captured"] == [c.version for c in caps], name
        assert caps or entry["skipped"], f"{name}: tried, neither captured nor skipped"
        assert all(c.manifest["package"] == entry["package"] for c in caps), name
        for version, why in entry["skipped"].items():
            assert version not in entry["captured"] and why.strip(), (name, version)
    assert all(why.strip() for why in doc["left_out"].values())


def test_corpus_has_churn_on_both_sides():
    """The captures were chosen for schema churn: input and output schema changes both."""
    sides = Counter(u.side for u in UNITS.values())
    assert sides["input"] >= 50 and sides["output"] >= 5, sides


def test_every_change_has_a_current_oracle_label():
    labelled = {r["key"]: r for r in ROWS}
    assert set(labelled) == set(UNITS), (
        "labels.json is stale: rerun scripts/corpus/sweep.py --reuse\n"
        f"unlabelled: {sorted(set(UNITS) - set(labelled))[:10]}\n"
        f"gone: {sorted(set(labelled) - set(UNITS))[:10]}"
    )
    stale = [k for k, u in UNITS.items() if labelled[k]["fingerprint"] != cd.fingerprint(u)]
    assert not stale, stale[:10]
    assert {r["label"] for r in ROWS} <= {"breaking", "compatible", "unsupported"}
    # An oracle that cannot judge most of the corpus proves nothing.
    assert sum(r["label"] == "unsupported" for r in ROWS) <= 0.05 * len(ROWS)
    assert LABELS["oracle"]["K"] >= 100


# (a) every committed counterexample stands on its own -----------------------------------------

BREAKING_ROWS = [r for r in ROWS if r["label"] == "breaking"]


@pytest.mark.parametrize("row", BREAKING_ROWS, ids=[r["key"] for r in BREAKING_ROWS])
def test_counterexample_valid_before_and_rejected_after(row):
    u = UNITS[row["key"]]
    # Input: a call the old schema accepts and the new rejects. Output: a result the new
    # schema allows and the old one promised never to produce.
    accept, reject = (
        (u.old_schema, u.new_schema) if u.side == "input" else (u.new_schema, u.old_schema)
    )
    cex = row["counterexample"]
    assert _validator(accept).is_valid(cex), row["key"]
    assert not _validator(reject).is_valid(cex), row["key"]


def test_compatible_labels_say_how_hard_the_oracle_tried():
    for r in ROWS:
        if r["label"] == "compatible" and not r.get("reason"):
            assert r["tries"] >= 1, r["key"]


# (b) the engine on every change ---------------------------------------------------------------


def test_engine_never_raises_on_the_corpus(fig):
    assert not fig["crash"], f"{len(fig['crash'])} tracebacks:\n{_show(fig['crash'])}"


def test_engine_never_raises_on_text_only_changes():
    rows = ev.text_only_verdicts()
    assert rows, "the corpus has text-only changes"
    bad = [(k, v) for k, v in rows if v in (ev.CRASH, ev.BREAKING)]
    assert not bad, _show(bad)


# Engine defects the issue-26 servers brought to light, each checked by hand against the
# schemas; reported, not fixed here (engine code is another item's). A verdict outside these
# lists fails as before; an entry the engine no longer gets wrong costs nothing (drop it).
KNOWN_MISSED = {
    # none: the five of issue 26 are fixed (tests/engine/test_schema_diff_corpus_defects.py)
}
KNOWN_CRY_WOLF = {
    # none: the six of issue 26 are fixed (tests/engine/test_schema_diff_corpus_defects.py)
}


def test_known_engine_defects_name_real_units():
    assert set(KNOWN_MISSED) | set(KNOWN_CRY_WOLF) <= set(UNITS)
    labels = {r["key"]: r["label"] for r in ROWS}
    assert all(labels[k] == "breaking" for k in KNOWN_MISSED)
    assert all(labels[k] == "compatible" for k in KNOWN_CRY_WOLF)


def test_no_breaking_change_called_compatible(fig):
    missed = [(k, r) for k, r in fig["missed_breaking"] if k not in KNOWN_MISSED]
    assert not missed, f"oracle found a call that breaks, engine said compatible:\n{_show(missed)}"


def test_every_breaking_tool_change_is_shown_by_a_witness_or_says_why_not(verdicts):
    """Per unit: at least one of its breaking changes carries a witness, or a note."""
    bad = [
        (v.unit.key, v.rules("breaking"))
        for v in verdicts
        if v.verdict == ev.BREAKING
        and not any(
            c.has_witness or getattr(c, "note", None) for c in v.changes if str(c.cls) == "breaking"
        )
    ]
    assert not bad, f"{len(bad)} breaking verdicts with no witness and no note:\n{_show(bad)}"


def test_every_witness_on_the_whole_corpus_is_an_object(verdicts):
    """Input witnesses are calls (arguments), output witnesses are results' structuredContent:
    objects both, on every server of the corpus (the engine's witnesses of every schema change
    this file judges; tests/engine/test_mcp_verdicts.py checks the 16 SUITE_SERVERS' every changed
    tool by its own search, and each breaking witness there with python-jsonschema)."""
    witnesses = [
        (v.unit.key, c.rule, c.witness) for v in verdicts for c in v.changes if c.has_witness
    ]
    assert len(witnesses) > 1000, len(witnesses)
    bad = [w for w in witnesses if not isinstance(w[2], dict)]
    assert not bad, bad[:10]


def test_every_breaking_change_carries_a_witness_or_says_why_not(fig):
    """Per change: each breaking change carries a witness, or the engine's note on why none."""
    bad = fig["breaking_without_witness"]
    assert not bad, f"{len(bad)} breaking changes with no witness and no note:\n{_show(bad)}"


def test_compatible_changes_are_rarely_called_breaking(fig):
    assert fig["oracle_compatible"] >= 20
    new = [(k, r) for k, r in fig["cry_wolf"] if k not in KNOWN_CRY_WOLF]
    assert not new, f"compatible changes called breaking, not known before:\n{_show(new)}"
    rate = (
        len(fig["cry_wolf"]) - len(set(KNOWN_CRY_WOLF) & {k for k, _ in fig["cry_wolf"]})
    ) / fig["oracle_compatible"]
    assert rate <= CRY_WOLF_MAX, (
        f"{len(fig['cry_wolf'])} of {fig['oracle_compatible']} compatible changes called "
        f"breaking ({fig['cry_wolf_rate']:.1%}):\n{_show(fig['cry_wolf'])}"
    )


def test_nearly_every_breaking_change_on_the_whole_corpus_carries_a_witness(fig):
    """Issue 26 item 6: at least 99 % of the breaking changes on every server of the corpus
    carry a call (or result) that shows them (1295 of 1297 after item 6; 77.3 % before)."""
    assert fig["witness_share"] >= 0.99, (
        f"{fig['breaking_with_witness']} of {fig['breaking_changes']} breaking changes carry "
        f"a witness ({fig['witness_share']:.1%})"
    )


def test_few_changes_get_no_answer(fig):
    assert fig["no_answer_rate"] <= NO_ANSWER_MAX, (
        f"{len(fig['no_answer'])} of {fig['judged']} changes potentially-breaking "
        f"({fig['no_answer_rate']:.1%}):\n{_show(fig['no_answer'])}"
    )
