"""Prompts, resources and resource templates: digest, classification, cues, status (issue 43)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mcp_review.engine.policy import Outcome
from mcp_review.engine.surfaces import (
    PROMPT,
    RESOURCE,
    TEMPLATE,
    classify_surface,
    make_surface_pin,
    surface_digest,
    surface_status,
    surface_statuses,
)

FIX = Path(__file__).parent.parent / "fixtures" / "surfaces"


def fixture(name: str) -> dict:
    return json.loads((FIX / name).read_text())


def pin(kind: str, wire: dict, decision: str = "approved"):
    return make_surface_pin(
        "s", kind, wire, decision, principal="default", by="t", at="2026-12-03T00:00:00Z"
    )


def test_digest_covers_meta_and_unknown_keys():
    p = fixture("prompt.json")
    d = surface_digest(p)
    q = copy.deepcopy(p)
    q["_meta"] = {"x": 1}
    assert surface_digest(q) != d
    q = copy.deepcopy(p)
    q["somethingNew"] = True
    assert surface_digest(q) != d
    # key order is not content
    assert surface_digest(dict(reversed(list(p.items())))) == d


def test_unchanged_prompt_is_pinned():
    p = fixture("prompt.json")
    st = surface_status("s", "default", PROMPT, p["name"], p, pin(PROMPT, p), "tiered")
    assert st.state == "pinned" and st.policy.outcome is Outcome.NONE
    assert not st.fails_gate("any")


def test_argument_made_required_is_breaking_with_witness():
    old = fixture("prompt.json")
    new = copy.deepcopy(old)
    new["arguments"][1]["required"] = True  # "style" was optional
    changes = classify_surface(PROMPT, old, new)
    assert [c.klass for c in changes] == ["breaking"]
    assert changes[0].witness == {"arguments": {"topic": "x"}}
    # the witness is an independent truth: it satisfies the old prompt's required set and not
    # the new one's
    wit = set(changes[0].witness["arguments"])
    req = lambda w: {a["name"] for a in w["arguments"] if a.get("required")}  # noqa: E731
    assert req(old) <= wit and not req(new) <= wit
    st = surface_status("s", "default", PROMPT, old["name"], new, pin(PROMPT, old), "compatible")
    assert st.state == "changed" and st.breaking
    assert st.fails_gate("breaking") and st.policy.outcome is Outcome.REVIEW


def test_argument_removed_and_new_required_argument_are_breaking():
    old = fixture("prompt.json")
    new = copy.deepcopy(old)
    del new["arguments"][1]
    new["arguments"].append({"name": "lang", "required": True})
    changes = classify_surface(PROMPT, old, new)
    assert [(c.klass, c.pointer) for c in changes] == [
        ("breaking", "/arguments/lang"),
        ("breaking", "/arguments/style"),
    ]
    removed = next(c for c in changes if c.pointer == "/arguments/style")
    assert removed.witness == {"arguments": {"style": "x", "topic": "x"}}


def test_optional_argument_added_is_trust_not_breaking():
    old = fixture("prompt.json")
    new = copy.deepcopy(old)
    new["arguments"].append({"name": "tone", "description": "Tone of voice"})
    changes = classify_surface(PROMPT, old, new)
    assert [c.klass for c in changes] == ["trust"]


def test_prompt_description_rug_pull_blocks_with_cues_in_every_tier():
    old = fixture("prompt.json")
    new = copy.deepcopy(old)
    new["description"] = fixture("rugpull.json")["description"]
    for tier in ("strict", "tiered", "compatible"):
        st = surface_status("s", "default", PROMPT, old["name"], new, pin(PROMPT, old), tier)
        assert st.state == "changed"
        assert st.policy.outcome is Outcome.BLOCK, tier
        assert st.cues and all(c.pointer == "/description" for c in st.cues)
        assert st.fails_gate("breaking")


def test_argument_description_cue_is_read():
    old = fixture("prompt.json")
    new = copy.deepcopy(old)
    new["arguments"][0]["description"] = fixture("rugpull.json")["description"]
    st = surface_status("s", "default", PROMPT, old["name"], new, pin(PROMPT, old), "compatible")
    assert st.policy.outcome is Outcome.BLOCK
    assert {c.pointer for c in st.cues} == {"/arguments/0/description"}


def test_honest_text_change_is_review_never_auto():
    old = fixture("resource.json")
    new = copy.deepcopy(old)
    new["description"] = "The project's README, in Markdown."
    st = surface_status("s", "default", RESOURCE, old["uri"], new, pin(RESOURCE, old), "compatible")
    assert st.policy.outcome is Outcome.REVIEW and not st.cues
    assert [c.klass for c in st.changes] == ["trust"]
    assert st.fails_gate("review") and not st.fails_gate("breaking")


def test_resource_mime_type_change_is_potentially_breaking():
    old = fixture("resource.json")
    new = dict(old, mimeType="text/html")
    assert [c.klass for c in classify_surface(RESOURCE, old, new)] == ["potentially-breaking"]


def test_template_uri_template_change_is_breaking():
    old = fixture("template.json")
    new = dict(old, uriTemplate="file:///v2/{path}")
    changes = classify_surface(TEMPLATE, old, new)
    assert changes[0].klass == "breaking" and changes[0].witness == {
        "uriTemplate": old["uriTemplate"]
    }


def test_new_surface_waits_and_new_rugpull_blocks():
    p = fixture("prompt.json")
    st = surface_status("s", "default", PROMPT, p["name"], p, None, "compatible")
    assert st.state == "new" and st.policy.outcome is Outcome.REVIEW
    bad = dict(p, description=fixture("rugpull.json")["description"])
    st = surface_status("s", "default", PROMPT, p["name"], bad, None, "compatible")
    assert st.policy.outcome is Outcome.BLOCK


def test_removed_and_unlisted():
    r = fixture("resource.json")
    pins = {("s", "default", RESOURCE, r["uri"]): pin(RESOURCE, r)}
    [st] = surface_statuses("s", "default", {RESOURCE: []}, pins, "tiered")
    assert st.state == "removed" and st.fails_gate("breaking")
    [st] = surface_statuses("s", "default", {RESOURCE: []}, pins, "tiered", truncated=[RESOURCE])
    assert st.state == "unlisted" and not st.fails_gate("any")
    # a kind not fetched judges nothing
    assert surface_statuses("s", "default", {}, pins, "tiered") == []


def test_pin_integrity():
    p = fixture("prompt.json")
    good = pin(PROMPT, p)
    assert good.integrity_problem() is None
    from dataclasses import replace

    assert replace(good, definition=good.definition.replace("Write", "Wrote")).integrity_problem()
    assert replace(good, name="other").integrity_problem()


@pytest.mark.parametrize("kind", [PROMPT, RESOURCE, TEMPLATE])
def test_hidden_characters_block(kind):
    w = fixture({PROMPT: "prompt.json", RESOURCE: "resource.json", TEMPLATE: "template.json"}[kind])
    new = dict(w, description=w["description"] + "\u200b\U000e0041")
    key = w["uri"] if kind == RESOURCE else w["name"]
    st = surface_status("s", "default", kind, key, new, pin(kind, w), "compatible")
    assert st.policy.outcome is Outcome.BLOCK
