"""Precision pass 5: honest text of published npm and PyPI MCP servers of kinds no earlier
honest set had (``benchmarks/eval/honest_dev8/``: ticketing and project tools, CRM and ERP,
mail and messaging, payments, analytics, maps and travel, finance, health, education,
developer services; each server run and asked for its tools), and the rule fixes it and
``honest_dev7/`` showed. The set's provenance first; then each fix with the real text that
drew a cue before it, beside hostile text of the same shape, which keeps its cue."""

from __future__ import annotations

import re

from test_cues_eval_set import _assert_new_honest_servers, _honest_docs

EARLIER = (
    "honest_dev",
    "honest_dev2",
    "honest_dev3",
    "honest_held8",
    "honest_dev4",
    "honest_dev5",
    "honest_dev6",
    "honest_dev7",
)


def test_honest_dev8_keeps_provenance_and_shares_no_server_with_any_other_honest_set():
    """At least 500 tool definitions of at least 30 published npm and PyPI servers, each run
    and asked for its tools (``collect_npm_honest.py`` / ``collect_pypi_honest.py``), one file
    a server naming its repository, package and version, a 40-digit commit (gitHead or the
    distribution's SHA-1), licence and how it was taken; placeholder settings, where a server
    needs one to start, are named in the note and are never a working credential; no server is
    a corpus server, in another honest set (the held-out one included), held for the
    independent check or on the keep-off list."""
    docs = _honest_docs("honest_dev8")
    assert len(docs) >= 30 and sum(len(d["tools"]) for d in docs) >= 500
    _assert_new_honest_servers(docs, [d for name in EARLIER for d in _honest_docs(name)])
    packages = [d["path"] for d in docs]
    assert all(
        re.fullmatch(r"npm (?:@[\w.-]+/)?[\w.-]+@\d[\w.+-]*|pypi [\w.-]+==\d[\w.+-]*", p)
        for p in packages
    ), packages
    assert len(set(packages)) == len(packages)
    for d in docs:
        if "placeholder" in d["note"]:
            assert "no working credential" in d["note"], d["path"]
    # the kinds the set was chosen for: tickets, mail, payments, maps, finance, analytics
    text = " ".join(t["description"].lower() for d in docs for t in d["tools"])
    for word in ("ticket", "email", "payment", "map", "stock", "analytics", "calendar"):
        assert word in text, word
