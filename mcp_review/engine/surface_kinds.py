"""Review by kind for prompts, resources and resource templates (engine/surfaces.py), as for
tools (engine/kinds.py) and by the same rules: honest changes of one kind (a text reworded
with no blocking cue, no cue that needs attention, no hidden character, no full-width or
look-alike letter, nothing breaking, not denied before, at most ``SHOWN_WHOLE`` characters of
added text) are decided in a group (:func:`surface_review` gives a
:class:`SurfaceCandidate`; ``engine.kinds.group_report`` makes the groups, one subject per
group: a group of prompts, of resources or of templates, never mixed with tools); every other
one is decided on its own (:class:`SurfaceAlone`), with why. Both are placed in the engine's
one visiting order beside the tools (``engine.kinds.visit_rank``).

Engine layer: no textual, rich or mcp.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mcp_review.engine.canonical import json_equal
from mcp_review.engine.cues import Cue, cues_json, is_blocking, needs_attention, severity
from mcp_review.engine.kind_text import SHOWN_WHOLE
from mcp_review.engine.policy import Outcome
from mcp_review.engine.rules.render import added_text
from mcp_review.engine.surfaces import KEY_FIELD, RESOURCE, first_sight_blocks
from mcp_review.engine.textwalk import surface_strings


class SurfaceReason(StrEnum):
    """Why a prompt, resource or template is decided on its own (the words match
    ``engine.kinds.AloneReason``'s where they mean the same)."""

    BLOCKING_CUE = "blocking cue"
    ATTENTION = "a cue that needs attention"
    BREAKING = "a breaking change for callers"
    """A prompt argument removed or made required, a changed ``uriTemplate``: read with its
    witness."""
    DENIED = "denied before"
    HIDDEN = "hidden characters"
    LOOKALIKE = "full-width or look-alike letters"
    """Its text holds a letter written full-width (or in another compatibility form) or one
    of another script that looks like an ASCII letter: read alone, never grouped."""
    BEYOND_TEXT = "a change beyond its text"
    """Something other than its title, description (a resource's name) or its arguments'
    titles and descriptions changed (``_meta``, annotations, an argument made optional …)."""
    LONG_TEXT = "added text too long to show whole"
    UNSHARED = "a kind no other prompt, resource or template shares"
    NO_KIND = "no kind to group"
    REMOVED = "no longer served"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class SurfaceAlone:
    """A prompt, resource or resource template that waits for a decision (engine/surfaces.py),
    decided on its own, in the same visiting order as the tools (:func:`visit_rank`)."""

    server: str
    principal: str
    kind: str
    """``prompt`` | ``resource`` | ``resource-template``."""
    name: str
    """The prompt's or template's name, or the resource's URI."""
    outcome: Outcome
    cues: tuple[Cue, ...]
    reasons: tuple[SurfaceReason, ...]
    status: Any = field(default=None, compare=False, repr=False)
    """Its :class:`~mcp_review.engine.surfaces.SurfaceStatus`."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.server, self.principal, self.kind, self.name)

    @property
    def blocking_cue(self) -> bool:
        return SurfaceReason.BLOCKING_CUE in self.reasons

    @property
    def flagged(self) -> bool:
        return bool(self.cues)

    @property
    def attention(self) -> bool:
        """A cue of its text is at level attention (visited before other cues)."""
        return SurfaceReason.ATTENTION in self.reasons

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.kind,
            "server": self.server,
            "principal": self.principal,
            "name": self.name,
            "outcome": str(self.outcome),
            "cues": cues_json(self.cues),
            "reasons": [str(r) for r in self.reasons],
        }


def surface_alone(x: Any) -> SurfaceAlone:
    """The reasons, from the engine's own reading (its policy, its cues, its changes), that
    set the waiting surface ``x`` (a SurfaceStatus) apart whatever its kind (none: see
    :func:`surface_review`)."""
    blocks = first_sight_blocks if x.pin is None else is_blocking
    reasons: list[SurfaceReason] = []
    if x.policy.outcome is Outcome.BLOCK and any(blocks(c) for c in x.cues):
        reasons.append(SurfaceReason.BLOCKING_CUE)
    if any(needs_attention(c) for c in x.cues):
        reasons.append(SurfaceReason.ATTENTION)
    if x.breaking:
        reasons.append(SurfaceReason.BREAKING)
    if x.previously_denied:
        reasons.append(SurfaceReason.DENIED)
    return SurfaceAlone(
        x.server,
        x.principal,
        x.kind,
        x.name,
        x.policy.outcome,
        tuple(sorted(x.cues, key=lambda c: (severity(c), c.pointer))),
        tuple(reasons),
        x,
    )


# Review by kind ------------------------------------------------------------------------------

SURFACE_TEXT = "surface-text"
"""The kind rule of a surface whose only change is its text (title, description, a resource's
name, its arguments' titles and descriptions): one kind per subject and per set of cues."""
SURFACE_NEW = "surface-new"
"""The kind rule of a surface seen for the first time (per subject and set of cues)."""
SURFACE_RULES = frozenset({SURFACE_TEXT, SURFACE_NEW})

_TEXT_FIELDS = ("title", "description")
"""The text members of a surface and of each prompt argument (a resource's ``name`` too: its
key is its URI)."""


def _text_fields(kind: str) -> tuple[str, ...]:
    return (*_TEXT_FIELDS, "name") if kind == RESOURCE else _TEXT_FIELDS


def _shape(kind: str, wire: Mapping[str, Any]) -> dict[str, Any]:
    """``wire`` without its text (the string values of :func:`_text_fields` and of each
    argument's title and description): two surfaces of one shape differ only in text."""
    out = {k: v for k, v in wire.items() if not (k in _text_fields(kind) and isinstance(v, str))}
    args = out.get("arguments")
    if isinstance(args, list):
        out["arguments"] = [
            {k: v for k, v in a.items() if not (k in _TEXT_FIELDS and isinstance(v, str))}
            if isinstance(a, dict)
            else a
            for a in args
        ]
    return out


def _is_text_pointer(kind: str, pointer: str) -> bool:
    from mcp_review.engine.model import pointer_tokens

    toks = pointer_tokens(pointer)
    if len(toks) == 1:
        return toks[0] in _text_fields(kind)
    return len(toks) == 3 and toks[0] == "arguments" and toks[2] in _TEXT_FIELDS


def _texts(kind: str, wire: Mapping[str, Any] | None) -> dict[str, str]:
    """The text strings of ``wire`` by pointer (what :func:`_shape` leaves out)."""
    if wire is None:
        return {}
    return {p: t for p, _, t in surface_strings(wire) if _is_text_pointer(kind, p)}


def _looks_alike(text: str) -> bool:
    """Whether ``text`` holds a letter or digit written in full-width, mathematical or
    another compatibility form (NFKC folds it to an ASCII letter or digit), or a letter of
    another script confusable with an ASCII one (UTS #39)."""
    import unicodedata

    from mcp_review.engine.hidden import latin_lookalike

    if text.isascii():
        return False
    for ch in text:
        if ch.isascii():
            continue
        folded = unicodedata.normalize("NFKC", ch)
        if folded != ch and any(c.isascii() and c.isalnum() for c in folded):
            return True
        if latin_lookalike(ch):
            return True
    return False


@dataclass(frozen=True, slots=True)
class SurfaceCandidate:
    """A surface that may be decided in a group: its kind rule, its cue kinds, the text it
    adds (pointer, whole text), and which text fields changed and how."""

    status: Any
    rule: str
    cues: tuple[str, ...]
    added: tuple[tuple[str, str], ...]
    fields: frozenset[str]
    hows: frozenset[str]


def surface_review(x: Any) -> SurfaceAlone | SurfaceCandidate:
    """Whether the waiting surface ``x`` (a SurfaceStatus) stands alone, and why, or may be
    decided with the others of its kind. The rules of ``engine.kinds`` for tools, none
    loosened: a blocking cue, a cue that needs attention, hidden characters, full-width or
    look-alike letters in its text, a breaking change, a change beyond its text, a denial
    before, more than ``SHOWN_WHOLE`` characters of added text: alone."""
    from mcp_review.engine.hidden import has_hidden

    first = surface_alone(x)
    if first.reasons:
        return first
    if x.policy.outcome is Outcome.BLOCK:
        return set_apart(x, SurfaceReason.BLOCKED)
    if x.state == "removed":
        return set_apart(x, SurfaceReason.REMOVED)
    reasons: list[SurfaceReason] = []
    old = x.pin.wire if x.pin is not None else None
    if x.state == "new" and x.live is not None:
        rule = SURFACE_NEW
        strings = [(p, t) for p, _, t in surface_strings(x.live)]
        added = [(p, t) for p, t in strings if t]
        # Its key too (a resource's URI is no text the walk reads): a look-alike or hidden
        # character there is read alone, as a tool's look-alike name is.
        strings.append(("/" + KEY_FIELD[x.kind], x.name))
        fields: frozenset[str] = frozenset()
        hows: frozenset[str] = frozenset({"new"})
    elif x.state == "changed" and x.live is not None and old is not None:
        rule = SURFACE_TEXT
        if not x.changes or not json_equal(_shape(x.kind, old), _shape(x.kind, x.live)):
            reasons.append(SurfaceReason.BEYOND_TEXT)
        was, now = _texts(x.kind, old), _texts(x.kind, x.live)
        strings = [(p, t) for p, t in now.items() if was.get(p) != t]
        added = []
        names: set[str] = set()
        how: set[str] = set()
        for p in sorted({*was, *now}):
            if was.get(p) == now.get(p):
                continue
            f = p.rsplit("/", 1)[-1]
            names.add(f"argument {f}" if p.startswith("/arguments/") else f)
            how.add("added" if p not in was else "removed" if p not in now else "reworded")
            if p in now:
                text = added_text(was.get(p), now[p])
                if text:
                    added.append((p, text))
        fields, hows = frozenset(names), frozenset(how)
    else:
        return set_apart(x, SurfaceReason.NO_KIND)
    if any(has_hidden(t) for _, t in strings):
        reasons.append(SurfaceReason.HIDDEN)
    if any(_looks_alike(t) for _, t in strings):
        reasons.append(SurfaceReason.LOOKALIKE)
    if sum(len(t) for _, t in added) > SHOWN_WHOLE:
        reasons.append(SurfaceReason.LONG_TEXT)
    if reasons:
        return set_apart(x, *reasons)
    cues = tuple(sorted({str(c.kind) for c in x.cues}))
    return SurfaceCandidate(x, rule, cues, tuple(added), fields, hows)


def set_apart(x: Any, *reasons: SurfaceReason) -> SurfaceAlone:
    return SurfaceAlone(
        x.server,
        x.principal,
        x.kind,
        x.name,
        x.policy.outcome,
        tuple(sorted(x.cues, key=lambda c: (severity(c), c.pointer))),
        tuple(reasons),
        x,
    )
