"""Server instructions pinned per (server, principal), like a tool description.

A server's ``instructions`` (the ``initialize`` / ``server/discover`` result) reach the model as
a tool description does, so they sit on the trust axis: new or changed instructions always
wait for review (no tier auto-approves them), and hidden characters that appear in them block.

- **No instructions**: a server that sends none and one that sends ``""`` are the same: nothing
  reaches the model, nothing needs a decision, and no pin is written. A server that stops
  sending approved instructions is ``removed`` (review: a dropped caveat is worth a reader).
- **First sight**: instructions never decided under this (server, principal) are ``new`` and
  need an approval, like a new tool.
- **Digest**: ``sha256:`` over the canonical JSON of ``{"instructions": text}`` (exact code
  points, no normalisation), verified on load like a tool pin.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass, field
from typing import Any

from mcp_review.engine.canonical import canonical_bytes
from mcp_review.engine.cue_corroborate import corroborate
from mcp_review.engine.cues import Cue, cues_json, introduced, is_blocking, severity
from mcp_review.engine.policy import Outcome, PolicyResult, first_sight_blocking

SUBJECT = "instructions"
INSTRUCTIONS_POINTER = "/instructions"
"""The pointer a cue in server instructions carries (the ``initialize`` result's member)."""
"""What the audit log and JSON outputs call this subject (``"subject": "instructions"``)."""


def live_text(value: Any) -> str | None:
    """The instructions a server sent, or None for none (absent, ``null``, ``""`` or not a
    string: a non-string never reaches a client's model as text)."""
    return value if isinstance(value, str) and value != "" else None


def instructions_digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(canonical_bytes({"instructions": text})).hexdigest()


class DecidedPin:
    """What an instructions pin and a prompt/resource pin (engine/surfaces.py) share: the
    decision's reading and the words for a digest that does not match what is stored."""

    __slots__ = ()
    decision: str
    digest: str

    @property
    def approved(self) -> bool:
        return self.decision == "approved"

    def digest_problem(self, digest: str, stored: str) -> str | None:
        """Why the pin cannot be trusted when ``digest`` (of its stored ``stored``) is not
        its recorded digest, or None."""
        if digest != self.digest:
            return (
                f"its digest is not the digest of its stored {stored} (the file was "
                "edited by hand or is corrupted)"
            )
        return None


@dataclass(frozen=True, slots=True)
class InstructionsPin(DecidedPin):
    """One decision about one server's instructions under one principal."""

    server: str
    principal: str
    decision: str
    """``approved`` | ``denied``."""
    digest: str
    text: str
    decided_at: str
    decided_by: str
    note: str = ""
    server_version: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> tuple[str, str]:
        return (self.server, self.principal)

    def integrity_problem(self) -> str | None:
        """Why this pin cannot be trusted (a hand-edited digest or text), or None."""
        return self.digest_problem(instructions_digest(self.text), "instructions")


@dataclass(slots=True)
class InstructionsStatus:
    """The instructions of one (server, principal) against their pin."""

    server: str
    principal: str
    state: str
    """pinned / new / changed / removed / denied (the tool states' words)."""
    policy: PolicyResult
    live: str | None = None
    pin: InstructionsPin | None = None
    live_digest: str | None = None
    previously_denied: bool = False
    hidden_appeared: tuple[str, ...] = ()

    @property
    def needs_attention(self) -> bool:
        return self.policy.outcome in (Outcome.REVIEW, Outcome.BLOCK)

    def fails_gate(self, fail_on: str) -> bool:
        """Instructions are on the trust axis: ``review`` fails on new, changed or removed
        ones; ``breaking`` only on blocked ones (hidden characters); ``any`` on any drift."""
        if fail_on == "any":
            return self.state not in ("pinned", "denied")
        if fail_on == "review":
            return self.needs_attention
        return self.policy.outcome is Outcome.BLOCK

    def diff(self, context: int = 2) -> list[str]:
        """Unified diff lines, pinned → live (the text as is: callers make it visible)."""
        old = self.pin.text if self.pin is not None else ""
        new = self.live or ""
        return list(
            difflib.unified_diff(
                old.splitlines(), new.splitlines(), "pinned", "live", n=context, lineterm=""
            )
        )

    @property
    def cues(self) -> list[Cue]:
        """What the live instructions ask of the model that the pinned text did not
        (engine/cues.py ``introduced``; every cue of new instructions); none when they are
        pinned, denied unchanged or removed."""
        if self.live is None or self.state not in ("new", "changed"):
            return []
        return instructions_cues(self.pin.text if self.pin else None, self.live)

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": SUBJECT,
            "server": self.server,
            "principal": self.principal,
            "status": self.state,
            "previously_denied": self.previously_denied,
            "policy": self.policy.to_json(),
            "decision": self.pin.decision if self.pin else None,
            "pinned_digest": self.pin.digest if self.pin else None,
            "live_digest": self.live_digest,
            "pinned": self.pin.text if self.pin else None,
            "live": self.live,
            "hidden_appeared": list(self.hidden_appeared),
            "cues": cues_json(self.cues),
        }


def _hidden_appeared(old: str | None, new: str) -> tuple[str, ...]:
    from collections import Counter

    from mcp_review.engine.hidden import find_hidden

    now = Counter(h.label for h in find_hidden(new))
    was = Counter(h.label for h in find_hidden(old or ""))
    diff = now - was
    return tuple(f"{label} ×{n}" if n > 1 else label for label, n in sorted(diff.items()))


def instructions_cues(pinned: str | None, live: str) -> list[Cue]:
    """The cues ``live`` introduces over the ``pinned`` text; new instructions' every cue,
    through the corroboration step a new tool's cues go through (engine/cue_corroborate.py:
    a single reading alone is shown at ``attention``)."""
    found = introduced(pinned, live, INSTRUCTIONS_POINTER)
    if pinned is None:
        return corroborate(found, ((INSTRUCTIONS_POINTER, live),), {})
    return found


def instructions_status(
    server: str, principal: str, live: str | None, pin: InstructionsPin | None, tier: str
) -> InstructionsStatus | None:
    """The status of a server's instructions (``live``: see :func:`live_text`), or None when
    the server sends none and none were ever decided. Never auto-approved by any tier."""
    if live is None and pin is None:
        return None
    if live is None:
        assert pin is not None
        if pin.approved:
            return InstructionsStatus(
                server,
                principal,
                "removed",
                PolicyResult(
                    tier, Outcome.REVIEW, ("approved server instructions no longer sent",)
                ),
                pin=pin,
            )
        return InstructionsStatus(
            server,
            principal,
            "removed",
            PolicyResult(tier, Outcome.NONE, ("denied server instructions no longer sent",)),
            pin=pin,
        )
    digest = instructions_digest(live)
    if pin is not None and pin.digest == digest:
        if pin.approved:
            return InstructionsStatus(
                server,
                principal,
                "pinned",
                PolicyResult(tier, Outcome.NONE),
                live=live,
                pin=pin,
                live_digest=digest,
            )
        return InstructionsStatus(
            server,
            principal,
            "denied",
            PolicyResult(tier, Outcome.NONE, ("denied by the operator",)),
            live=live,
            pin=pin,
            live_digest=digest,
        )
    hidden = _hidden_appeared(pin.text if pin else None, live)
    denied = pin is not None and not pin.approved
    if pin is None:
        reasons = ["new server instructions (text the model reads): review needed"]
    else:
        reasons = ["server instructions changed (text the model reads): review needed"]
    if denied:
        reasons.append("previously denied")
    outcome = Outcome.REVIEW
    if hidden:
        outcome = Outcome.BLOCK
        reasons.append("hidden characters appeared in the instructions: " + ", ".join(hidden))
    # What the new text asks, as for a tool: a blocking cue the change
    # introduces blocks in every tier; new instructions block only for the first-sight kinds.
    # Hidden characters have their own reason above.
    blocks = first_sight_blocking if pin is None else is_blocking
    asked = [
        c
        for c in instructions_cues(pin.text if pin else None, live)
        if blocks(c) and c.kind != "hidden"
    ]
    if asked:
        outcome = Outcome.BLOCK
        where = "new instructions" if pin is None else "new text"
        reasons += [
            f"cue in {where}: {c.kind} ({c.rule}): {c.text}" for c in sorted(asked, key=severity)
        ]
    return InstructionsStatus(
        server,
        principal,
        "new" if pin is None else "changed",
        PolicyResult(tier, outcome, tuple(reasons)),
        live=live,
        pin=pin,
        live_digest=digest,
        previously_denied=denied,
        hidden_appeared=hidden,
    )
