"""Readings of the text a change adds *as a whole*, against the pinned text it joins.

engine/cue_change.py reads each added sentence on its own. These read the added block at one
pointer beside what was pinned, author-independent and word-list free (benchmarks/README.md,
"change pass 3"); none is evidence alone (honest releases grow texts, start to say "you",
name a path), so ``cue.instruction.change-adds-unlike-text`` asks one of them **and** the
learned model's lean toward an instruction (engine/cue_change.py, ``UNLIKE_THRESHOLD``):

- **longer than what it joins**: the added sentences hold ``LONG_WORDS`` words or more and at
  least twice the words of the pinned text at that pointer (a new text: any length);
- **names what the pinned text never named**: a URL, an e-mail address, a file path, another
  tool (a tool of the fleet by its identifier, "the ... tool / function / API / agent /
  integration" (definite: "a ... tool" names none), a ``SomethingAgent``) absent from every pinned text of the definition;
- **a new voice**: most added sentences address a reader in the first or second person (you,
  your, I, me, my, we, our), while no pinned text of the definition does.

Linear: each pattern runs once over the added block and once over the pinned texts (bounded
repetitions only).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from mcp_review.engine.cue_types import KnownNames

__all__ = ["LONG_WORDS", "unlike_pinned"]

LONG_WORDS = 12
"""Words an added block needs before its length against the pinned text means something."""
_MAX = 200_000
"""Characters of a text read here."""

_URL = re.compile(
    r"\b(?:https?|ftp|wss?)://[^\s<>\"'`)\]]{1,300}|\bwww\.[^\s<>\"'`)\]]{1,300}", re.I
)
_EMAIL = re.compile(r"\b[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}\b")
_PATH = re.compile(
    r"(?:(?<=[\s'\"(`])|^)(?:~|\.{1,2})?/[\w.-]{1,64}(?:/[\w.-]{1,64}){0,12}"
    r"|\b[a-zA-Z]:\\[^\s\"'`]{1,200}"
    r"|(?<![\w/])\.(?:env|ssh|aws|npmrc|netrc|pgpass|bashrc|zshrc|kube|docker|gnupg)\b"
    r"|\b[\w-]{1,64}\.(?:txt|csv|db|json|env|pem|key|sh|py|log)\b"
)
"""A path: rooted (``/x``, ``./x``, ``~/x``, ``C:\\x``), a dot-folder of secrets, or a file
name with a data, key or script extension."""
_TOOL_PHRASE = re.compile(
    r"\bthe\s+(?:[\w-]{1,40}\s+){0,3}?(?:tool|function|api|agent|integration)\b"
    r"|\b[A-Z][a-z]{1,30}Agent\b",
    re.I,
)
"""Another tool named in words: "the analytics tool", "the file-sharing API", "PlanningAgent"
(definite: "a more advanced search tool" names no tool)."""
_IDENT = re.compile(
    r"\b[A-Za-z][A-Za-z0-9]{0,40}(?:[_-][A-Za-z0-9]{1,40}){1,8}\b|\b[a-z]{1,40}(?:[A-Z][a-z0-9]{0,40}){1,8}\b"
)
_WORD = re.compile(r"[^\W\d_]+")
_PERSON = frozenset("you your yours yourself me my mine we us our ours".split())
"""First and second person (``I`` is read in capitals, "MySQL" read whole is no "my")."""


def _refs(text: str) -> set[str]:
    text = text[:_MAX]
    out = {"url " + m.group().lower().rstrip(".,;:") for m in _URL.finditer(text)}
    out |= {"address " + m.group().lower() for m in _EMAIL.finditer(text)}
    out |= {"path " + m.group().lower().rstrip(".,;:") for m in _PATH.finditer(text)}
    out |= {"tool " + " ".join(m.group().lower().split()) for m in _TOOL_PHRASE.finditer(text)}
    return out


def _personal(sentence: str) -> bool:
    raw = _WORD.findall(sentence)
    return "I" in raw or not _PERSON.isdisjoint(w.lower() for w in raw)


def unlike_pinned(
    old_map: Mapping[str, list[str]],
    ptr: str,
    added: list[str],
    names: KnownNames,
    own_names: Iterable[str],
) -> list[str]:
    """How the sentences ``added`` at ``ptr`` are unlike the pinned definition ``old_map``
    (pointer -> pinned texts), as an operator reads it; empty when they are not."""
    out: list[str] = []
    block = " ".join(added)[:_MAX]
    words = len(block.split())
    pinned_here = sum(len(t[:_MAX].split()) for t in old_map.get(ptr, ()))
    if words >= LONG_WORDS and words >= 2 * pinned_here:
        out.append(f"{words} words added to {pinned_here}")
    pinned = " ".join(t[:_MAX] for texts in old_map.values() for t in texts)
    low = pinned.lower()
    fresh = sorted(r for r in _refs(block) if r.partition(" ")[2] not in low)
    own = {n.lower() for n in own_names}
    for m in _IDENT.finditer(block):
        ident = m.group()
        if ident in names.tools and ident.lower() not in own and ident.lower() not in low:
            fresh.append("tool " + ident)
    if fresh:
        out.append("new names: " + ", ".join(r.partition(" ")[2] for r in fresh[:2]))
    if added and 2 * sum(map(_personal, added)) > len(added) and not _personal(pinned):
        out.append("a new voice (first or second person)")
    return out
