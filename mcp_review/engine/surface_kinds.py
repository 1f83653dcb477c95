"""Review by kind for prompts, resources and resource templates (engine/surfaces.py): each
one waiting for a decision is decided on its own (:class:`SurfaceAlone`), with why, and placed
in the engine's one visiting order beside the tools (``engine.kinds.visit_rank``,
``Grouping.surfaces``). They are never grouped: a group id names tools.

Engine layer: no textual, rich or mcp.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mcp_review.engine.cues import Cue, cues_json, is_blocking, needs_attention, severity
from mcp_review.engine.policy import Outcome
from mcp_review.engine.surfaces import first_sight_blocks


class SurfaceReason(StrEnum):
    """Why a prompt, resource or template is decided on its own (the words match
    ``engine.kinds.AloneReason``'s where they mean the same)."""

    BLOCKING_CUE = "blocking cue"
    ATTENTION = "a cue that needs attention"
    BREAKING = "a breaking change for callers"
    """A prompt argument removed or made required, a changed ``uriTemplate``: read with its
    witness."""
    DENIED = "denied before"
    SURFACE = "a prompt, resource or template"
    """Always: decided on its own, as server instructions are (``approve SERVER --prompt
    NAME`` …)."""


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
    """The decision one surface waiting for review needs (``x``: a SurfaceStatus): why it
    stands alone, from the engine's own reading (its policy, its cues, its changes)."""
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
    reasons.append(SurfaceReason.SURFACE)
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
