"""The cue type, its levels and severity, its JSON, and the known names (docs/design.md, "Cues").

Split from ``engine/cues.py``, which finds the cues and re-exports these names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from mcp_review.engine.rules.cues import CUE_RULES, SEVERITY, CueKind, Level

TEXT_CAP = 200
"""Most characters of a cue's matched text (after escaping)."""

REASONS = (" [added by this change", " [reads as an instruction, ", " [one reading only: ")
"""How a reader's reason opens after the text it read: a change reader's ("... [added by this
change; ...]", engine/cue_notes.py's ``added_cue``, engine/cue_change.py), the learned reader's
(engine/cue_model.py) and corroboration's (engine/cue_corroborate.py)."""


def matched_text(text: str) -> str:
    """A cue's text without the reason a reader wrote after it: the server's own words, as a
    diff finds them in the text (a sentence cut at 110 characters keeps its "…")."""
    cut = min((i for i in (text.find(r) for r in REASONS) if i >= 0), default=-1)
    return text if cut < 0 else text[:cut]


@dataclass(frozen=True, slots=True)
class Cue:
    kind: CueKind
    text: str
    """The matched text, escaped (``safe_text``) and at most ``TEXT_CAP`` characters."""
    pointer: str
    rule: str
    key: str = field(default="", compare=False, repr=False)
    """The cue's identity with ``rule`` (see the module docstring); not shown."""
    span: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    """Where in the original text the cue was read ([start, end) offsets), whichever
    normalised copy it was read in (engine/readas.py); None when it names no one place."""

    @property
    def blocking(self) -> bool:
        return is_blocking(self)

    @property
    def level(self) -> Level:
        """``block``, ``attention`` or ``info`` (the rule's; docs/cues.md, "Levels")."""
        return CUE_RULES[self.rule].level

    def to_json(self) -> dict[str, str]:
        return {
            "kind": str(self.kind),
            "level": str(self.level),
            "text": self.text,
            "pointer": self.pointer,
            "rule": self.rule,
        }


def is_blocking(cue: Cue) -> bool:
    """Whether a cue blocks the change that introduces it (docs/design.md: instruction, concealment,
    secret, exfiltration, hidden, and a path to a secret location)."""
    return CUE_RULES[cue.rule].blocking


def _rank(cue: Cue) -> str:
    return "secret-path" if CUE_RULES[cue.rule].secret_location else str(cue.kind)


def severity(cue: Cue) -> int:
    """0 for the most severe (hidden), growing down docs/design.md's order."""
    return SEVERITY.index(_rank(cue))


def most_severe(cues: Iterable[Cue]) -> Cue | None:
    return min(cues, key=severity, default=None)


def needs_attention(cue: Cue) -> bool:
    """Whether a cue sets its tool apart, never auto-approved and never grouped, with no
    typed reason needed (level ``attention``)."""
    return CUE_RULES[cue.rule].level is Level.ATTENTION


def cues_json(cues: Iterable[Cue]) -> list[dict[str, str]]:
    """The JSON contract: ``[{"kind", "level", "text", "pointer", "rule"}]``, most severe
    first."""
    return [c.to_json() for c in sorted(cues, key=lambda c: (severity(c), c.pointer, c.rule))]


@dataclass(frozen=True, slots=True)
class KnownNames:
    """The names a text may refer to: every configured server's tools and the servers."""

    tools: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """tool name -> the servers that have a tool of that name."""
    servers: frozenset[str] = frozenset()

    @classmethod
    def of(cls, fleet: Mapping[str, Iterable[str]]) -> KnownNames:
        """From server name -> its tool names."""
        tools: dict[str, set[str]] = {}
        for server, names in fleet.items():
            for n in names:
                tools.setdefault(n, set()).add(server)
        return cls({k: frozenset(v) for k, v in tools.items()}, frozenset(fleet))


_NO_NAMES = KnownNames()
