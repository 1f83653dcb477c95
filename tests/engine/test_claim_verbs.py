"""Issue 41 item 1: claims of less power read against the right words.

The name's verb (the first verb once a product or namespace prefix is skipped) and the
description's main verbs, not every word: an idempotent claim is contradicted only by a verb
meaning each call adds something again; a read-only or non-destructive claim by a writing or
destructive verb. Fixtures are the real tools the issue names, from tests/corpus (real captures,
offline), with the claim the issue saw planted where the capture does not make it."""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from typing import Any

import pytest

from mcp_review.engine.kinds import AloneReason, group_report
from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.policy import (
    DESTRUCTIVE_VERBS,
    Outcome,
    claim_contradictions,
    description_verbs,
    name_verbs,
)
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import compute_status

ROOT = Path(__file__).resolve().parents[2]
import corpus_data as cd  # noqa: E402

CAPS = cd.servers()


def _real(server: str, tool: str) -> dict[str, Any]:
    """The newest capture of ``tool`` in ``server``'s corpus."""
    for cap in reversed(CAPS[server]):
        if tool in cap.tools:
            return copy.deepcopy(cap.tools[tool])
    raise KeyError((server, tool))


def _claim(wire: dict[str, Any], old_ann: dict[str, Any], new_ann: dict[str, Any]):
    old = {**copy.deepcopy(wire), "annotations": old_ann}
    new = {**copy.deepcopy(wire), "annotations": new_ann}
    return claim_contradictions(ToolDef.from_wire(old), ToolDef.from_wire(new))


# The name's verb ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "verbs"),
    [
        ("git_reset", ("reset",)),
        ("pg_kill", ("kill",)),
        ("API-delete-a-block", ("delete",)),
        ("getProjectUpdates", ("get",)),
        ("addIssueLabel", ("add",)),
        ("create_directory", ("create",)),
        ("firecrawl_browser_create", ("create",)),
        ("read_neo4j_cypher", ("read",)),
        ("get_and_delete_file", ("get", "delete")),
        ("git_status", ()),
    ],
)
def test_the_name_s_verb_skips_a_product_prefix(name, verbs):
    assert name_verbs(name) == verbs


def test_the_description_s_main_verbs_not_its_nouns():
    fs = _real("server-filesystem", "write_file")["description"]
    assert description_verbs(fs)[:2] == ("create", "overwrite")
    assert description_verbs("Demonstrates a long running operation with progress updates.") == (
        "demonstrate",
    )
    assert description_verbs("List issues (default: created by current user).") == ("list",)
    assert description_verbs("Notion | Retrieve a page as Markdown") == ("retrieve",)


# Honest claims no longer block ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "tool"),
    [
        ("server-filesystem", "create_directory"),
        ("server-filesystem", "write_file"),
        ("mcp-server-git", "git_add"),
        ("server-sequential-thinking", "sequentialthinking"),
    ],
)
def test_an_idempotent_claim_of_a_create_add_or_write_tool_is_not_contradicted(server, tool):
    assert _claim(_real(server, tool), {}, {"idempotentHint": True}) == ()


@pytest.mark.parametrize(
    ("name", "description", "claim"),
    [
        # Linear's tools the issue names (8 addIssueLabel-like claims; update a noun there)
        ("addIssueLabel", "Adds a label to an issue.", {"idempotentHint": True}),
        ("getProjectUpdates", "Gets the updates posted to a project.", {"readOnlyHint": True}),
        ("getProjectUpdates", "Gets the updates posted to a project.", {"idempotentHint": True}),
    ],
)
def test_the_issue_s_linear_tools_are_not_contradicted(name, description, claim):
    wire = {"name": name, "description": description, "inputSchema": {"type": "object"}}
    assert _claim(wire, {}, claim) == ()


@pytest.mark.parametrize(
    ("server", "tool"),
    [
        ("mcp-neo4j-cypher", "read_neo4j_cypher"),  # "Execute a read Cypher query"
        ("desktop-commander", "get_prompts"),  # "...by ID and execute it"; examples below
        ("gitlab-mcp", "list_issues"),  # "(default: created by current user...)"
        ("git-mcp-server", "git_reflog"),  # "...references were updated"
        ("notion-mcp-server", "API-retrieve-page-markdown"),
        ("workspace-mcp", "get_doc_content"),
    ],
)
def test_a_read_verb_claiming_read_only_is_not_contradicted(server, tool):
    assert _claim(_real(server, tool), {}, {"readOnlyHint": True}) == ()


# What still blocks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "tool", "verb"),
    [
        ("mcp-server-git", "git_reset", "reset"),
        ("heroku-mcp-server", "pg_kill", "kill"),
        ("notion-mcp-server", "API-delete-a-block", "delete"),
    ],
)
@pytest.mark.parametrize("claim", [{"readOnlyHint": True}, {"destructiveHint": False}])
def test_a_prefix_skipped_keeps_the_destructive_verb_contradicted(server, tool, verb, claim):
    found = _claim(_real(server, tool), {}, claim)
    assert found and f"against {verb!r} in the name" in found[0], found


@pytest.mark.parametrize("verb", ["wipe", "purge", "erase", "destroy", "reset", "revoke"])
def test_the_destructive_list_grew(verb):
    assert verb in DESTRUCTIVE_VERBS
    for name in (f"{verb}_all", f"db_{verb}", f"{verb.capitalize()}Records"):
        wire = {"name": name, "description": "Tidies up.", "inputSchema": {"type": "object"}}
        found = _claim(wire, {}, {"readOnlyHint": True})
        assert found and f"against {verb!r} in the name" in found[0], (name, found)


@pytest.mark.parametrize(
    "verb", ["terminate", "transfer", "deploy", "publish", "append", "send", "charge"]
)
def test_verbs_that_add_again_or_destroy_contradict_in_the_description(verb):
    wire = {
        "name": "do_it",
        "description": f"{verb.capitalize()}s the thing.",
        "inputSchema": {"type": "object"},
    }
    hint = {"idempotentHint": True} if verb in ("append", "send", "charge") else {}
    found = _claim(wire, {}, hint or {"readOnlyHint": True})
    assert found and "in the description" in found[0], found


def test_a_read_verb_name_does_not_cover_a_destructive_main_verb():
    """An attacker's read-sounding name over a description that says it deletes: blocked."""
    wire = {
        "name": "get_file",
        "description": "Reads the file and then deletes it.",
        "inputSchema": {"type": "object"},
    }
    found = _claim(wire, {}, {"readOnlyHint": True})
    assert found and "against 'delete' in the description" in found[0]


# On the corpus of real upgrades ------------------------------------------------------------


def _upgrade_status(
    old: cd.Capture, new: cd.Capture, only: set[str] | None = None, *, witnesses: bool = True
):
    """The status of ``new`` over pins of ``old`` (of the tools named in ``only``, if given)."""
    pins = PinFile()
    for name, w in old.tools.items():
        if only is None or name in only:
            pins.decide(make_pin(old.server, ToolDef.from_wire(w), Decision.APPROVED, by="t"))
    snap = Snapshot()
    snap.servers[new.server] = ServerSnapshot(
        name=new.server,
        tools=[
            ToolDef.from_wire(w) for name, w in new.tools.items() if only is None or name in only
        ],
    )
    return compute_status(snap, pins, witnesses=witnesses)


def _claims_moved(old: cd.Capture, new: cd.Capture) -> set[str]:
    """The tools of both versions whose annotations differ: the only ones a claim of less power
    can come from (``annotation_gate_less`` compares the two versions' hints). For every other
    tool the claim reader itself is asked, so a contradiction found without a moved hint would
    still fail the test below."""
    moved = set()
    for name, w in new.tools.items():
        o = old.tools.get(name)
        if o is None:
            continue
        if o.get("annotations") != w.get("annotations"):
            moved.add(name)
        else:
            assert claim_contradictions(ToolDef.from_wire(o), ToolDef.from_wire(w)) == (), name
    return moved


def test_no_corpus_upgrade_blocks_an_honest_create_add_write_or_read_claim():
    """Every real upgrade of the corpus (consecutive and oldest → newest): no tool is blocked on
    an idempotent claim against a create/add/write verb, nor on any claim of a tool whose name's
    verb is a reading (a read-only, non-destructive or idempotent claim). Before issue 41 this found write_file, create_directory, git_add,
    list_issues, git_reflog, read_neo4j_cypher and more. The claim reader is asked directly for
    the tools whose hints moved (a quarter of them; the rest cannot carry the reason, see
    ``_claims_moved``): each contradiction it words is a BLOCK step of the policy
    (``policy.decide``), and the status path from pin to that step is held by
    ``test_the_three_reference_servers_honest_upgrade_puts_the_claims_in_one_group`` and
    ``test_the_status_blocks_on_exactly_the_claims_the_reader_words`` below; a full status per
    upgrade (cues, texts, schemas) cost ten times as much and read nothing more here."""
    bad = []
    seen = 0
    for caps in CAPS.values():
        pairs = [*itertools.pairwise(caps), *([(caps[0], caps[-1])] if len(caps) > 2 else [])]
        for old, new in pairs:
            for name in sorted(_claims_moved(old, new)):
                seen += 1
                a, b = ToolDef.from_wire(old.tools[name]), ToolDef.from_wire(new.tools[name])
                for why in claim_contradictions(a, b):
                    verb = (name_verbs(name) or ("",))[0]
                    hint = why.split(" ", 1)[0]
                    create = any(f"against {w!r}" in why for w in ("create", "add", "write"))
                    reads = verb in ("get", "list", "read", "search", "retrieve")
                    # openWorldHint is about reach, not writing: web_search_exa claiming a
                    # closed world stays contradicted by "web" in its name.
                    if (hint == "idempotentHint" and create) or (reads and hint != "openWorldHint"):
                        bad.append((new.server, name, why))
    assert bad == []
    assert seen > 500  # not vacuous: the corpus moves hundreds of hints


def test_the_status_blocks_on_exactly_the_claims_the_reader_words():
    """The status of real upgrades whose hints moved (witnesses off): each tool's claim reasons
    are the reader's contradictions, each one a BLOCK, so the corpus test above may ask the
    reader alone. The one corpus upgrade whose moved claim is contradicted (exa's
    web_search_exa claiming a closed world), and honest ones beside it."""
    checked = contradicted = 0
    for server, o, n in (
        ("exa-mcp-server", "3.0.5", "3.2.1"),
        ("server-filesystem", "2025.7.29", "2025.11.25"),
        ("mcp-server-git", "2025.12.18", "2026.10.19"),
        ("playwright-mcp", "0.0.10", "0.0.30"),
    ):
        by = {c.version: c for c in CAPS[server]}
        old, new = by[o], by[n]
        moved = _claims_moved(old, new)
        for t in _upgrade_status(old, new, moved, witnesses=False).tools:
            want = claim_contradictions(
                ToolDef.from_wire(old.tools[t.tool]), ToolDef.from_wire(new.tools[t.tool])
            )
            got = tuple(
                r.split(": ", 1)[1]
                for r in t.policy.reasons
                if r.startswith("annotation claims less power, contradicted: ")
            )
            assert got == want, (server, t.tool, got, want)
            if want:
                assert t.policy.outcome is Outcome.BLOCK, (server, t.tool)
                contradicted += 1
            checked += 1
    assert checked > 40 and contradicted >= 1, (checked, contradicted)


def test_the_three_reference_servers_honest_upgrade_puts_the_claims_in_one_group():
    """create_directory and write_file join the claims' group (they stood alone, blocked)."""
    ups = [
        ("server-filesystem", "2025.7.29", "2026.8.31"),
        ("server-memory", "0.6.2", "2026.8.31"),
        ("mcp-server-time", "0.6.2", "2026.10.19"),
    ]
    tools = []
    for server, o, n in ups:
        by = {c.version: c for c in CAPS[server]}
        tools += _upgrade_status(by[o], by[n]).tools
    g = group_report(tools)
    claims = next(x for x in g.groups if x.label == "annotations claim less power")
    assert {"create_directory", "write_file"} <= {m.tool for m in claims.members}
    assert not any(AloneReason.CONTRADICTION in a.reasons for a in g.alone)
