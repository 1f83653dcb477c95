"""A blocking cue on a tool seen the first time needs a second, independent reading to block.

At most 1 % of honest new tools may block (docs/cues.md, "Corroboration at first sight").
The cue readers each read one way: the word rules (``engine/cue_find.py``: a verb class acting on
an object class), the phrase families (``engine/cue_families.py`` and its siblings), the
directive reader (``engine/cue_directive.py``), the goals reader (``engine/cue_goals.py``) and
the learned model (``engine/cue_model.py``). An honest new tool speaks to the model in every way, and one reader
misreading one phrase is what blocks it; an attack asks for something and says so more than
once, or names what it wants (a path to a secret, an address, a command). So at first sight a
blocking cue of kind instruction, concealment, exfiltration or secret stays at ``block`` only
when something independent of its own reading agrees (:func:`evidence`):

- **another reader** of a different kind on the same text: a word rule and a family both at
  block, or the directive reader, the goals reader (each read here again, since they stay
  quiet on a text that already blocks) or the learned model over its own threshold;
- **a payload** beside the cue (within ``_NEAR`` characters): a shell command
  (``cue.instruction.run-command``, when it is not the cue itself), an encoded blob, and for a
  cue that sends, hides or asks for a secret a URL, an e-mail or IP address (``cue_runs``);
- **anywhere in the tool**: hidden characters, a path to a secret location, or a cue of
  another blocking kind not from the same reading (an instruction and a concealment agree: two
  readings of two asks).

A cue with none is shown at ``attention`` under its kind's ``cue.<kind>.uncorroborated`` rule
(``rules/cue_corroborate.py``), its text saying which single reading it rests on: attention
is never approved automatically in any tier, so the tool still waits for a human, alone; only
the typed reason goes. Hidden characters and a path to a secret location are payloads
themselves and keep blocking alone. A change to a pinned tool never comes here
(``tool_cues`` reads a change through ``engine/cue_change.py``): a pinned tool that starts to
speak to the model is the rug pull the pin exists for, and one reading blocks it as before.
Which readings count as independent was chosen on development data
(``benchmarks/eval/block_evidence.py``; docs/cues.md, "Corroboration at first sight").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from mcp_review.engine.cue_directive import directive_sentences
from mcp_review.engine.cue_goals import goal_sentences
from mcp_review.engine.cue_model import job_of, sentence_score, sentences
from mcp_review.engine.cue_model_weights import THRESHOLD
from mcp_review.engine.cue_types import TEXT_CAP, Cue, KnownNames
from mcp_review.engine.rules.cue_corroborate import (
    CONCEALMENT_UNCORROBORATED,
    EXFILTRATION_UNCORROBORATED,
    INSTRUCTION_UNCORROBORATED,
    SECRET_UNCORROBORATED,
)
from mcp_review.engine.rules.cue_families import (
    FAMILY_LEVELS,
    INSTRUCTION_DIRECTIVE_BEYOND_TOOL,
    INSTRUCTION_READS_AS_INSTRUCTION,
    INSTRUCTION_RUN_COMMAND,
)
from mcp_review.engine.rules.cue_goals import GOAL_LEVELS
from mcp_review.engine.rules.cues import (
    CUE_RULES,
    ENCODED_BASE64,
    ENCODED_DATA_URI,
    ENCODED_HEX,
    ENCODED_PERCENT,
    HIDDEN_CHARACTERS,
    URL_EMAIL,
    URL_IP,
    URL_LINK,
    CueKind,
)

__all__ = ["corroborate", "evidence", "reader_of"]

UNCORROBORATED: dict[CueKind, str] = {
    CueKind.INSTRUCTION: INSTRUCTION_UNCORROBORATED,
    CueKind.CONCEALMENT: CONCEALMENT_UNCORROBORATED,
    CueKind.EXFILTRATION: EXFILTRATION_UNCORROBORATED,
    CueKind.SECRET: SECRET_UNCORROBORATED,
}
"""The kinds whose blocking cue a new tool keeps only when corroborated, each with the rule
its cue is shown under otherwise."""

_DESTINATIONS = frozenset({URL_LINK, URL_EMAIL, URL_IP})
"""Where an ask sends something: a payload for a cue that sends, hides or asks for a secret
(exfiltration, concealment, secret). Beside an instruction cue a URL is most often the link it
labels ("[Admins and Super Admins](https://...)", an honest development text): not counted."""
_DESTINATION_KINDS = frozenset({CueKind.EXFILTRATION, CueKind.CONCEALMENT, CueKind.SECRET})
_PAYLOADS = frozenset(
    {INSTRUCTION_RUN_COMMAND, ENCODED_BASE64, ENCODED_HEX, ENCODED_PERCENT, ENCODED_DATA_URI}
)
"""Payloads that corroborate a cue of any kind read beside them: a command, an encoded blob."""

_MAX_READ = 20_000
"""Characters of a text the other readers read again (the first part: where a cue sits in
honest descriptions, and bounded cost)."""


def reader_of(rule: str) -> str:
    """Which reader raises ``rule``: ``families``, ``directive``, ``goals``, ``model`` or
    ``words`` (the word rules and the runs of ``engine/cues.py``)."""
    if rule in GOAL_LEVELS:
        return "goals"
    if rule in FAMILY_LEVELS:
        kind = {
            INSTRUCTION_DIRECTIVE_BEYOND_TOOL: "directive",
            INSTRUCTION_READS_AS_INSTRUCTION: "model",
        }
        return kind.get(rule, "families")
    return "words"


def _demotable(c: Cue) -> bool:
    r = CUE_RULES[c.rule]
    return r.blocking and r.kind in UNCORROBORATED and not r.secret_location


def _same_reading(c: Cue, d: Cue) -> bool:
    """Whether two cues were read in the same place by the same reader (one reading that
    names two kinds, "Get the admin credentials": a secret asked and a secret read), which
    is not two asks agreeing."""
    if c.pointer != d.pointer or reader_of(c.rule) != reader_of(d.rule):
        return False
    if c.span is None or d.span is None:
        return True
    return c.span[0] < d.span[1] and d.span[0] < c.span[1]


_NEAR = 160
"""Characters between a cue and a payload read in the same sentence or the one beside it."""


def _span(c: Cue, texts: Sequence[str]) -> tuple[int, int] | None:
    """Where ``c`` was read in its text: its span, or (a family's cue names no span) where its
    matched text first stands."""
    if c.span is not None:
        return c.span
    head = c.text[:40]
    for t in texts:
        at = t.find(head) if head else -1
        if at >= 0:
            return at, at + len(c.text)
    return None


def _near(a: tuple[int, int] | None, b: tuple[int, int] | None, by: int = _NEAR) -> bool:
    """Whether two spans of one text lie within ``by`` characters of each other."""
    if a is None or b is None:
        return False
    return b[0] < a[1] + by and a[0] < b[1] + by


def _payload(c: Cue, d: Cue) -> bool:
    """Whether ``d`` is a payload for ``c``'s ask (:data:`_PAYLOADS`, or a destination for a
    cue that sends, hides or asks for a secret), not ``c`` itself."""
    if d.rule in _PAYLOADS and d.rule != c.rule:
        return True
    return d.rule in _DESTINATIONS and c.kind in _DESTINATION_KINDS


def _elsewhere(names: KnownNames, server: str) -> Callable[[str], bool] | None:
    if not server or server not in names.servers:
        return None
    tools = names.tools
    return lambda name: server not in tools.get(name, ())


def _other_readers(
    text: str, own_names: frozenset[str], own_tool: str, names: KnownNames, server: str
) -> list[tuple[str, int, int]]:
    """(reader, start, end) of each sentence of ``text`` that the readers which stay quiet on
    a blocking text find when asked: the directive reader, the goals reader, and the learned
    model over its threshold."""
    text = text[:_MAX_READ]
    found: list[tuple[str, int, int]] = [
        ("directive", a, b)
        for a, b, _ in directive_sentences(text, own_names, _elsewhere(names, server))
    ]
    own = frozenset({own_tool.lower()}) if own_tool else frozenset()
    found += [("goals", a, b) for _, a, b, _ in goal_sentences(text, own)]
    cut = list(sentences(text))
    if cut:
        job = job_of(own_names, cut[0][1])
        first = cut[0][0]
        found += [
            ("model", at, at + len(s))
            for at, s in cut
            if sentence_score(s, job, at == first)[0] > THRESHOLD
        ]
    return found


def _agreeing(span: tuple[int, int] | None, found: list[tuple[str, int, int]]) -> list[str]:
    """The readers of ``found`` agreeing with a cue read at ``span``: ``<reader>`` when one
    read the sentence the cue was read in, ``<reader>-elsewhere`` when another sentence of the
    same text."""
    out = {reader if _near(span, (a, b), 0) else f"{reader}-elsewhere" for reader, a, b in found}
    return sorted(out)


def evidence(
    cues: Sequence[Cue],
    texts: Iterable[tuple[str, str]],
    *,
    own_names: frozenset[str] = frozenset(),
    own_tool: str = "",
    names: KnownNames | None = None,
    server: str = "",
) -> dict[int, list[str]]:
    """For each blocking cue of a demoted kind (by its index in ``cues``, a new tool's every
    cue), the evidence beside it, as labels: ``reader: <reader>`` (a blocking cue of another
    reader on the same text), ``directive``, ``goals``, ``model`` (that reader on the cue's
    sentence; ``...-elsewhere`` on another sentence of the text), ``payload: <rule>``,
    ``tool: <rule>`` (hidden characters, a secret path), ``kind: <kind>`` (a blocking cue of
    another kind, not from the same reading); an empty list when there is none.
    :data:`COUNTED` says which labels corroborate."""
    by_ptr: dict[str, list[str]] = {}
    for p, t in texts:
        by_ptr.setdefault(p, []).append(t)
    known = names if names is not None else KnownNames()
    whole = [
        f"tool: {c.rule}"
        for c in cues
        if c.rule == HIDDEN_CHARACTERS or CUE_RULES[c.rule].secret_location
    ]
    read: dict[str, list[tuple[str, int, int]]] = {}
    out: dict[int, list[str]] = {}
    for i, c in enumerate(cues):
        if not _demotable(c):
            continue
        got = list(dict.fromkeys(whole))
        got += sorted(
            {
                f"kind: {d.kind}"
                for d in cues
                if CUE_RULES[d.rule].blocking and d.kind != c.kind and not _same_reading(c, d)
            }
        )
        here = [d for d in cues if d.pointer == c.pointer and d is not c]
        mine = reader_of(c.rule)
        got += sorted(
            {
                f"reader: {reader_of(d.rule)}"
                for d in here
                if CUE_RULES[d.rule].blocking and reader_of(d.rule) != mine
            }
        )
        mine_texts = by_ptr.get(c.pointer, [])
        span = _span(c, mine_texts)
        got += [
            f"payload{'' if _near(span, _span(d, mine_texts)) else '-elsewhere'}: {d.rule}"
            for d in here
            if _payload(c, d)
        ]
        if c.pointer not in read:
            read[c.pointer] = [
                x for t in mine_texts for x in _other_readers(t, own_names, own_tool, known, server)
            ]
        got += _agreeing(span, read[c.pointer])
        out[i] = list(dict.fromkeys(got))
    return out


COUNTED: frozenset[str] = frozenset(
    {
        "reader",
        "directive",
        "directive-elsewhere",
        "goals",
        "goals-elsewhere",
        "model",
        "model-elsewhere",
        "payload",
        "tool",
        "kind",
    }
)
"""The labels (their part before ``:``) that count as corroboration, chosen on development
data (``benchmarks/eval/block_evidence.py``; benchmarks/README.md, "corroboration at first
sight"): another reader anywhere on the same text, a payload beside the cue, hidden characters
or a secret path in the tool, a blocking cue of another kind read apart. Not counted:
``payload-elsewhere``, a URL far from the cue in a long description (honest descriptions link
their documentation: it would keep one more of the nine honest development blocks, execbro's,
and no poisoned development text more)."""


def counts(label: str) -> bool:
    return label.split(":", 1)[0] in COUNTED


def _uncorroborated(c: Cue) -> Cue:
    rule = UNCORROBORATED[c.kind]
    note = f" [one reading only: {c.rule}; nothing independent corroborated it]"
    text = c.text
    if len(text) + len(note) > TEXT_CAP:
        text = text[: max(0, TEXT_CAP - len(note) - 1)] + "\u2026"
    return Cue(c.kind, text + note, c.pointer, rule, c.key, c.span)


def corroborate(
    cues: list[Cue], texts: Iterable[tuple[str, str]], kw: Mapping[str, Any]
) -> list[Cue]:
    """A new tool's cues (``tool_cues(None, ...)``), each blocking cue of a demoted kind that
    nothing independent corroborates shown at ``attention`` under its kind's uncorroborated
    rule. ``kw``: the reading's ``names``, ``own_server``, ``own_tool`` and ``own_names``."""
    if not any(_demotable(c) for c in cues):
        return cues
    found = evidence(
        cues,
        texts,
        own_names=kw.get("own_names", frozenset()),
        own_tool=kw.get("own_tool", ""),
        names=kw.get("names"),
        server=kw.get("own_server", ""),
    )
    return [
        _uncorroborated(c) if i in found and not any(map(counts, found[i])) else c
        for i, c in enumerate(cues)
    ]
