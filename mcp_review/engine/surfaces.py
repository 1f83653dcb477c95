"""Prompts, resources and resource templates pinned per (server, principal), like tools
.

They are server-written text the model or the user reads, so they follow the precedent of
server instructions (engine/instructions.py): never auto-approved, cues read, hidden
characters block. Each is a *surface* of one :data:`KINDS` kind, keyed by its name (a prompt,
a resource template) or its URI (a resource).

- **Digest**: ``sha256:`` over the canonical JSON of the whole object as served (``_meta`` and
  keys the protocol does not know included), verified on load like a tool pin.
- **Classification** (:func:`classify_surface`):

  - a prompt argument removed, made required, or a new required argument: *breaking* for
    callers, with a witness (the ``prompts/get`` arguments that worked before and fail now);
  - a resource template's ``uriTemplate`` changed: *breaking* for callers that fill it;
  - a resource's (or template's) ``mimeType`` changed: *potentially-breaking*;
  - anything else (text: description, title, argument descriptions, annotations, ``_meta``):
    *trust*, with the cues the new text introduces (engine/cues.py, read through the one text
    walk of engine/textwalk.py). A blocking cue blocks in every tier.

- **New** surfaces wait for review in every tier (a blocking first-sight cue blocks).
- **Bounded resources**: a server may list thousands of resources; the fetch keeps a bounded
  selection (:data:`DEFAULT_RESOURCE_LIMIT`) and says so. A pinned resource beyond the bound
  is ``unlisted`` (not seen, not judged), never ``removed``.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.canonical import canonical_bytes, check_json, json_equal
from mcp_review.engine.cue_corroborate import corroborate
from mcp_review.engine.cues import Cue, cues_json, is_blocking, severity, text_cues
from mcp_review.engine.instructions import DecidedPin
from mcp_review.engine.pintoml import layout
from mcp_review.engine.policy import Outcome, PolicyResult, first_sight_blocking
from mcp_review.engine.textwalk import surface_strings

PROMPT = "prompt"
RESOURCE = "resource"
TEMPLATE = "resource-template"
KINDS: tuple[str, ...] = (PROMPT, RESOURCE, TEMPLATE)

TABLE = {PROMPT: "prompts", RESOURCE: "resources", TEMPLATE: "resource_templates"}
"""The pin file's table of each kind (``[servers.S.principals.P.<table>."KEY"]``)."""
KIND_OF_TABLE = {v: k for k, v in TABLE.items()}
KEY_FIELD = {PROMPT: "name", RESOURCE: "uri", TEMPLATE: "name"}
"""The member that names a surface of each kind."""
LIST_METHOD = {
    PROMPT: "prompts/list",
    RESOURCE: "resources/list",
    TEMPLATE: "resources/templates/list",
}
LIST_FIELD = {PROMPT: "prompts", RESOURCE: "resources", TEMPLATE: "resourceTemplates"}
"""The member of each list result that holds the surfaces."""

DEFAULT_RESOURCE_LIMIT = 1000
"""Resources kept per server by default (the first ones listed); the count is recorded."""

SurfaceKey = tuple[str, str, str, str]
"""(server, principal, kind, name or URI)."""


def surface_key(kind: str, wire: Mapping[str, Any]) -> str | None:
    """The name (or URI) of a surface as served, or None when it has none (not pinnable)."""
    v = wire.get(KEY_FIELD[kind])
    return v if isinstance(v, str) and v != "" else None


def surface_digest(wire: Mapping[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(canonical_bytes(dict(wire))).hexdigest()


def label(kind: str, key: str) -> str:
    """How a surface is named in words (``prompt "greet"``)."""
    from mcp_review.engine.hidden import safe_text

    return f'{kind} "{safe_text(key)}"'


@dataclass(frozen=True, slots=True)
class SurfacePin(DecidedPin):
    """One decision about one prompt, resource or resource template under one principal."""

    server: str
    principal: str
    kind: str
    name: str
    """The prompt's or template's name, or the resource's URI."""
    decision: str
    """``approved`` | ``denied``."""
    digest: str
    definition: str
    """The decided object as served, as JSON text (the pin file's layout)."""
    decided_at: str
    decided_by: str
    note: str = ""
    server_version: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> SurfaceKey:
        return (self.server, self.principal, self.kind, self.name)

    @property
    def wire(self) -> dict[str, Any]:
        from mcp_review.engine.canonical import loads

        v = loads(self.definition, source=f"the pinned {self.kind} {self.name!r}")
        return v if isinstance(v, dict) else {}

    def integrity_problem(self) -> str | None:
        """Why this pin cannot be trusted (a hand-edited digest or definition), or None."""
        from mcp_review.engine.canonical import loads
        from mcp_review.engine.errors import InputError

        try:
            v = loads(self.definition, source="definition")
        except (InputError, ValueError, RecursionError):
            return "its definition is not JSON"
        if not isinstance(v, dict):
            return "its definition is not a JSON object"
        if (problem := self.digest_problem(surface_digest(v), "definition")) is not None:
            return problem
        if surface_key(self.kind, v) != self.name:
            return f"its definition names another {self.kind}"
        return None


def make_surface_pin(
    server: str,
    kind: str,
    wire: Mapping[str, Any],
    decision: str,
    *,
    principal: str,
    by: str,
    at: str,
    note: str = "",
    server_version: str | None = None,
) -> SurfacePin:
    """A pin binding ``decision`` to exactly this object as served."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    if decision not in ("approved", "denied"):
        raise ValueError(f"unknown decision {decision!r}")
    check_json(dict(wire))
    name = surface_key(kind, wire)
    if name is None:
        raise ValueError(f"a {kind} without a {KEY_FIELD[kind]} cannot be pinned")
    return SurfacePin(
        server=server,
        principal=principal,
        kind=kind,
        name=name,
        decision=decision,
        digest=surface_digest(wire),
        definition=layout(dict(wire)),
        decided_at=at,
        decided_by=by,
        note=note,
        server_version=server_version,
    )


# Classification ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SurfaceChange:
    """One classified difference between a pinned and a live surface."""

    klass: str
    """``breaking`` | ``potentially-breaking`` | ``trust``."""
    pointer: str
    summary: str
    witness: dict[str, Any] | None = None
    """For a breaking prompt change: the ``prompts/get`` arguments that worked against the
    pinned prompt and fail against the live one. For a changed ``uriTemplate``: the pinned
    template (what a caller fills)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "class": self.klass,
            "pointer": self.pointer,
            "summary": self.summary,
        }
        if self.witness is not None:
            out["witness"] = self.witness
        return out


_CLASS_ORDER = {"breaking": 0, "potentially-breaking": 1, "trust": 2}


def _args(wire: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    raw = wire.get("arguments")
    if isinstance(raw, list):
        for a in raw:
            if isinstance(a, dict) and isinstance(a.get("name"), str):
                out.setdefault(a["name"], a)
    return out


def _fill(args: Iterable[str]) -> dict[str, str]:
    """Arguments filled with a sample value (prompt arguments are strings)."""
    return {n: "x" for n in sorted(args)}


def _prompt_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[SurfaceChange]:
    was, now = _args(old), _args(new)
    required_was = {n for n, a in was.items() if a.get("required") is True}
    required_now = {n for n, a in now.items() if a.get("required") is True}
    out: list[SurfaceChange] = []
    for n in sorted(was):
        at = f"/arguments/{n}"
        if n not in now:
            out.append(
                SurfaceChange(
                    "breaking",
                    at,
                    f"argument {n!r} removed: callers that pass it fail",
                    {"arguments": _fill(required_was | {n})},
                )
            )
        elif n in required_now and n not in required_was:
            out.append(
                SurfaceChange(
                    "breaking",
                    at,
                    f"argument {n!r} made required: callers that leave it out fail",
                    {"arguments": _fill(required_was & set(now) - {n})},
                )
            )
    for n in sorted(set(now) - set(was)):
        if n in required_now:
            out.append(
                SurfaceChange(
                    "breaking",
                    f"/arguments/{n}",
                    f"new required argument {n!r}: callers that leave it out fail",
                    {"arguments": _fill(required_was & set(now))},
                )
            )
    return out


def classify_surface(
    kind: str, old: Mapping[str, Any], new: Mapping[str, Any]
) -> list[SurfaceChange]:
    """The classified changes from ``old`` to ``new`` (both as served), most severe first.
    Any difference not named by a structural rule is *trust* (the text the model reads)."""
    if json_equal(dict(old), dict(new)):
        return []
    out: list[SurfaceChange] = []
    if kind == PROMPT:
        out += _prompt_changes(old, new)
    if kind == TEMPLATE and old.get("uriTemplate") != new.get("uriTemplate"):
        out.append(
            SurfaceChange(
                "breaking",
                "/uriTemplate",
                "uriTemplate changed: callers that fill the pinned template read another URI",
                {"uriTemplate": old.get("uriTemplate")},
            )
        )
    if kind in (RESOURCE, TEMPLATE) and old.get("mimeType") != new.get("mimeType"):
        out.append(
            SurfaceChange(
                "potentially-breaking",
                "/mimeType",
                "mimeType changed: readers expecting the pinned type may fail",
            )
        )
    text = [
        p
        for p in sorted({*old, *new})
        if p not in ("uriTemplate", "mimeType") and not json_equal(old.get(p), new.get(p))
    ]
    if kind == PROMPT and "arguments" in text and not _args_text_changed(old, new):
        text.remove("arguments")
    for p in text:
        out.append(SurfaceChange("trust", "/" + p, f"{p} changed (text the model reads)"))
    return sorted(out, key=lambda c: (_CLASS_ORDER[c.klass], c.pointer))


def _args_text_changed(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """Whether the arguments changed beyond what the breaking rules name (their text, their
    order, an optional argument added or made optional)."""
    was, now = _args(old), _args(new)
    for n, a in now.items():
        b = was.get(n)
        if b is None:
            if a.get("required") is not True:
                return True
            if {k: v for k, v in a.items() if k not in ("name", "required")}:
                return True
            continue
        strip = ("required",)
        if not json_equal(
            {k: v for k, v in a.items() if k not in strip},
            {k: v for k, v in b.items() if k not in strip},
        ):
            return True
        if b.get("required") is True and a.get("required") is not True:
            return True  # made optional: nothing breaks, but it is a change to read
    return [n for n in was if n in now] != [n for n in now if n in was] or not json_equal(
        [a for a in (old.get("arguments") or []) if not isinstance(a, dict)],
        [a for a in (new.get("arguments") or []) if not isinstance(a, dict)],
    )


def surface_cues(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> list[Cue]:
    """The cues ``new`` introduces over ``old`` (every cue of ``new`` at first sight), read
    through the one text walk (engine/textwalk.py ``surface_strings``), as
    ``engine/cues.py`` ``tool_cues`` reads a tool: each text is compared with the pinned text
    at the same pointer, a text with no pinned predecessor with every pinned text; at first
    sight through the corroboration step (engine/cue_corroborate.py)."""
    old_map: dict[str, list[str]] = {}
    if old is not None:
        for p, _, o in surface_strings(old):
            old_map.setdefault(p, []).append(o)
    old_texts = {o for texts in old_map.values() for o in texts}
    whole: set[tuple[str, str]] | None = None
    out: list[Cue] = []
    done: set[tuple[str, str, str]] = set()
    for ptr, _, t in surface_strings(new):
        if t in old_texts:
            continue
        cues = text_cues(t, ptr)
        if not cues:
            continue
        before = old_map.get(ptr)
        if before is not None:
            pinned = {(c.rule, c.key) for o in before for c in text_cues(o, ptr)}
        else:
            if whole is None:
                whole = {
                    (c.rule, c.key)
                    for p, olds in old_map.items()
                    for o in olds
                    for c in text_cues(o, p)
                }
            pinned = whole
        for c in cues:
            ident = (c.rule, c.key, c.pointer)
            if (c.rule, c.key) not in pinned and ident not in done:
                done.add(ident)
                out.append(c)
    if old is None:  # first sight, as for a new tool: one reading alone is shown, not blocking
        return corroborate(out, ((p, t) for p, _, t in surface_strings(new)), {})
    return out


# Status --------------------------------------------------------------------------------------


@dataclass(slots=True)
class SurfaceStatus:
    """One prompt, resource or template of one (server, principal) against its pin."""

    server: str
    principal: str
    kind: str
    name: str
    state: str
    """pinned / new / changed / removed / denied / unlisted (beyond the resource bound)."""
    policy: PolicyResult
    live: dict[str, Any] | None = None
    pin: SurfacePin | None = None
    live_digest: str | None = None
    changes: list[SurfaceChange] = field(default_factory=list)
    cues: list[Cue] = field(default_factory=list)
    previously_denied: bool = False

    @property
    def key(self) -> SurfaceKey:
        return (self.server, self.principal, self.kind, self.name)

    @property
    def needs_attention(self) -> bool:
        return self.policy.outcome in (Outcome.REVIEW, Outcome.BLOCK)

    @property
    def breaking(self) -> bool:
        return any(c.klass == "breaking" for c in self.changes)

    def fails_gate(self, fail_on: str) -> bool:
        """As a tool (engine/status.py ``ToolStatus.fails_gate``): ``any`` fails on any drift,
        ``review`` on anything waiting for a decision, ``breaking`` on a block, a breaking
        change or an approved surface no longer served."""
        if fail_on == "any":
            return self.state not in ("pinned", "denied", "unlisted")
        if fail_on == "review":
            return self.needs_attention
        if self.policy.outcome is Outcome.BLOCK or self.breaking:
            return True
        return self.state == "removed" and self.pin is not None and self.pin.approved

    def diff(self, context: int = 2) -> list[str]:
        """Unified diff lines of the definition, pinned → live (callers make them visible)."""
        old = self.pin.definition if self.pin is not None else ""
        new = layout(self.live) if self.live is not None else ""
        return list(
            difflib.unified_diff(
                old.splitlines(), new.splitlines(), "pinned", "live", n=context, lineterm=""
            )
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.kind,
            "server": self.server,
            "principal": self.principal,
            "name": self.name,
            "status": self.state,
            "previously_denied": self.previously_denied,
            "policy": self.policy.to_json(),
            "decision": self.pin.decision if self.pin else None,
            "pinned_digest": self.pin.digest if self.pin else None,
            "live_digest": self.live_digest,
            "changes": [c.to_json() for c in self.changes],
            "cues": cues_json(self.cues),
        }


def first_sight_blocks(c: Cue) -> bool:
    """Whether a cue blocks a surface seen for the first time: as for a new tool
    (``policy.first_sight_blocking``), and hidden characters too (a new tool's block through
    ``policy.hidden_appeared``; a surface's are read as ``hidden`` cues)."""
    return first_sight_blocking(c) or str(c.kind) == "hidden"


def surface_status(
    server: str,
    principal: str,
    kind: str,
    name: str,
    live: Mapping[str, Any] | None,
    pin: SurfacePin | None,
    tier: str,
    *,
    listed_all: bool = True,
) -> SurfaceStatus:
    """The status of one surface (``live``: as served, None when not listed; ``listed_all``:
    False when the server's list was cut at the bound, so an unlisted pin is not removed).
    Never auto-approved by any tier."""
    if live is None:
        assert pin is not None
        if not listed_all:
            return SurfaceStatus(
                server,
                principal,
                kind,
                name,
                "unlisted",
                PolicyResult(
                    tier, Outcome.NONE, (f"not among the {kind}s fetched (bounded list)",)
                ),
                pin=pin,
            )
        outcome = Outcome.REVIEW if pin.approved else Outcome.NONE
        word = "approved" if pin.approved else "denied"
        return SurfaceStatus(
            server,
            principal,
            kind,
            name,
            "removed",
            PolicyResult(tier, outcome, (f"{word} {kind} no longer served",)),
            pin=pin,
        )
    live = dict(live)
    digest = surface_digest(live)
    if pin is not None and pin.digest == digest:
        state = "pinned" if pin.approved else "denied"
        why: tuple[str, ...] = () if pin.approved else ("denied by the operator",)
        return SurfaceStatus(
            server,
            principal,
            kind,
            name,
            state,
            PolicyResult(tier, Outcome.NONE, why),
            live=live,
            pin=pin,
            live_digest=digest,
        )
    old = pin.wire if pin is not None else None
    changes = classify_surface(kind, old, live) if old is not None else []
    cues = surface_cues(old, live)
    denied = pin is not None and not pin.approved
    reasons: list[str] = []
    if pin is None:
        reasons.append(f"new {kind} (text the model or user reads): review needed")
    else:
        reasons += [f"{c.klass}: {c.summary}" for c in changes]
        if not changes:  # the same JSON value written differently: still not the pinned bytes
            reasons.append(f"{kind} changed: review needed")
    if denied:
        reasons.append("previously denied")
    blocks = first_sight_blocks if pin is None else is_blocking
    asked = sorted((c for c in cues if blocks(c)), key=severity)
    outcome = Outcome.REVIEW
    if asked:
        outcome = Outcome.BLOCK
        where = f"new {kind}" if pin is None else "new text"
        reasons += [f"cue in {where}: {c.kind} ({c.rule}): {c.text}" for c in asked]
    return SurfaceStatus(
        server,
        principal,
        kind,
        name,
        "new" if pin is None else "changed",
        PolicyResult(tier, outcome, tuple(reasons)),
        live=live,
        pin=pin,
        live_digest=digest,
        changes=changes,
        cues=cues,
        previously_denied=denied,
    )


def surface_statuses(
    server: str,
    principal: str,
    live: Mapping[str, Iterable[Mapping[str, Any]]],
    pins: Mapping[SurfaceKey, SurfacePin],
    tier: str,
    *,
    truncated: Iterable[str] = (),
) -> list[SurfaceStatus]:
    """Every surface of one (server, principal): ``live`` maps a kind to what the server
    listed (a kind absent from ``live`` was not fetched: its pins are not judged);
    ``truncated``: the kinds whose list was cut at the bound. Sorted by kind, then name."""
    cut = set(truncated)
    out: list[SurfaceStatus] = []
    for kind in KINDS:
        if kind not in live:
            continue
        served: dict[str, dict[str, Any]] = {}
        for w in live[kind]:
            k = surface_key(kind, w)
            if k is not None:
                served.setdefault(k, dict(w))
        mine = {
            k[3]: p
            for k, p in pins.items()
            if k[0] == server and k[1] == principal and k[2] == kind
        }
        for name in sorted(set(served) | set(mine)):
            out.append(
                surface_status(
                    server,
                    principal,
                    kind,
                    name,
                    served.get(name),
                    mine.get(name),
                    tier,
                    listed_all=kind not in cut,
                )
            )
    return out
