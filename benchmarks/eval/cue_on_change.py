#!/usr/bin/env python3
"""``bench_cues_eval.py`` with the learned cue counted as **attention on a change**.

``python benchmarks/eval/cue_on_change.py [bench_cues_eval.py's arguments]``

The learned cue (``cue.instruction.reads-as-instruction``, ``engine/cue_model.py``) ships at
info. A rule another engineer is making (docs/cues.md will say it when it lands) raises it to
attention where its sentence is added by a change (a text that had no such cue with the same
key: ``tool_cues`` introduces a cue only then) and keeps it at info at first sight. This
script scores that rule without changing the engine: every cue ``tool_cues(old, new)``
returns for a change (``old`` given) with that rule id is read at attention; a tool at first
sight (``old`` None: honest new tools, the held-out honest set) is scored as shipped. The
scorer's output, flags and limits are ``bench_cues_eval.py``'s own (the frozen set scored by
it counts as one of the two frozen runs issue 39's rules allow).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import bench_cues_eval as ev  # noqa: E402

from mcp_review.engine.rules.cue_families import (  # noqa: E402
    INSTRUCTION_READS_AS_INSTRUCTION as INSTRUCTION_READS,
)


@dataclass(frozen=True)
class OnChange:
    """A learned cue of a change, read at attention (what :func:`ev.level` asks of a cue)."""

    cue: Any
    level: str = "attention"

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cue, name)


def on_change(tool_cues: Any) -> Any:
    def read(old: Any, new: Any, **kw: Any) -> list[Any]:
        cues = tool_cues(old, new, **kw)
        if old is None:
            return list(cues)
        return [OnChange(c) if c.rule == INSTRUCTION_READS else c for c in cues]

    return read


def main(argv: list[str] | None = None) -> int:
    ev.tool_cues = on_change(ev.tool_cues)
    return ev.main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
