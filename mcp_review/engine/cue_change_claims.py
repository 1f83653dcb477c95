"""Three change readers of what an added sentence *claims*, read only on a change (never at first
sight) and raised at **attention**, never a block (docs/cues.md, "Levels"; the recall pass):

- ``cue.tool-reference.change-redirects-from-parameter`` (:func:`redirects_from_parameter`): a
  sentence a change adds to a **parameter's** description that settles which tool is used: a
  relation of one tool standing in for another ("instead of", "overrides", "takes priority over",
  "replaces", "intercepts", "supersedes", "in place of", "rather than") with a tool, a function,
  an endpoint or an API named in the same sentence. A parameter's description is about the value
  the caller passes; which tool answers a request is never the parameter's business, so the
  reading is confined to parameter descriptions, where honest text says it of other parameters
  ("use instead of ``expression``"), never of tools. At the tool's own description a tool's
  preference for itself stays what it is everywhere (``cue.tool-preference.prefer-this``, info).
- ``cue.instruction.change-lifts-check`` (:func:`lifts_check`): an added sentence that lets the
  model skip a check it would make, on the strength of a claim about authority or safety: a
  licence ("feel free to", "you can safely", "you can assume", "no risk", "no need to check",
  "without verification / confirmation / approval / restriction / asking", "must be safe") and,
  outside the licence's own words, a claim of permission, approval, authorisation, trust, an
  official or verified standing, read-only or admin status. Honest text does say "without
  confirmation" or "you can safely retry", of what the tool itself does; it does not rest a
  licence on a claim about who approved or what the tool may do.

- ``cue.instruction.change-adds-command-to-parameter`` (:func:`command_in_parameter`): a
  sentence a change adds to a parameter's description that opens with a command (a verb in its
  base form, then its object's determiner: "Retry the ...", "Develop a ...") or speaks of the
  model's own reply ("In your response, ...", "... in your summary") and is not about the
  parameter: it shares no word with the parameter's name or its pinned
  description, refers back to nothing ("this", "it", "the field", "the value", ...) and names
  no identifier. Honest parameter descriptions command too ("Ask the user if not given"), but
  about the value they describe; a caution ("Never ...", "Don't ...") is left alone. The
  off-topic reader (engine/cue_change.py) asks the same of the whole tool and its server,
  where one generic shared word ("the search API", "records") hides the command.

``engine/cues.py``'s ``tool_cues`` calls :func:`change_cues` here on a change only: the change
readers of ``engine/cue_change.py`` and then these, on the same added sentences
(``added_sentences``) and pinned texts. Linear: one pass of a few bounded
patterns over each added sentence (``_MAX_SENTENCE`` characters of it), the words of a
parameter's pinned description stemmed once per pointer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from mcp_review.engine import cue_change as cc
from mcp_review.engine.cue_handover import handover_cues
from mcp_review.engine.cue_notes import added_cue, as_read, note_cues
from mcp_review.engine.cue_pitch import pitch_cues
from mcp_review.engine.cue_types import Cue
from mcp_review.engine.rules.cue_change import (
    CHANGE_ADDS_COMMAND_TO_PARAMETER,
    CHANGE_LIFTS_CHECK,
    CHANGE_REDIRECTS_FROM_PARAMETER,
)
from mcp_review.engine.rules.cues import CueKind

__all__ = [
    "change_cues",
    "claim_cues",
    "command_in_parameter",
    "lifts_check",
    "redirects_from_parameter",
]

_MAX_SENTENCE = 2_000
"""Characters of one added sentence read (an added sentence past it is read to this length)."""

_PARAMETER_TEXT = re.compile(r"/properties/([^/]+)/description$")
"""A parameter's description: the text of one property of an input schema."""

_REFERS_BACK = frozenset(
    """this it its these them here field fields parameter parameters param params
    value values option options flag flags argument arguments setting settings one given
    provided specified supplied passed omitted missing unset empty blank""".split()
)
"""Words by which a sentence in a parameter's description speaks of the parameter without naming
it ("Omit it to ...", "Use this for ...", "Set the field to ...", "Ask the user if not
given")."""

_STANDS_IN = re.compile(
    r"\binstead of\b|\boverrides\b|\btakes? (?:priority|precedence) over\b|\breplaces\b|"
    r"\bintercepts\b|\bsupersedes\b|\bin place of\b|\brather than\b",
    re.IGNORECASE,
)
"""One thing standing in for another (a verb in the third person: "override" and "replace" in
their base form describe what a parameter does to a value, "replaces existing")."""

_A_TOOL = re.compile(
    r"\b(?:tools?|functions?|endpoints?)\b|\bapis?(?=\s*(?:[.,;:!?)]|$))",
    re.IGNORECASE,
)
"""A tool named as one ("the search_web tool", "this function", "the file_read api"). "API" names a
tool only as the last word of its phrase: "API key", "the Slides API Page resource", "the
Calendar API's semantics" name a credential, a resource or a product."""

_LICENCE = re.compile(
    r"\bfeel free\b|\byou (?:can|may) (?:safely|assume)\b|\bno risk\b|"
    r"\bno need to (?:check|verify|confirm|ask)\b|\bmust be safe\b|"
    r"\bwithout (?:any )?(?:verification|verifying|restrictions?|confirmation|confirming|"
    r"approval|checking|asking)\b",
    re.IGNORECASE,
)
"""Words that let the model skip a check."""

_STANDING = re.compile(
    r"\b(?:permissions?|authori[sz]ed|approved|approval|official|trusted|verified|read-only|"
    r"admin|privileges?)\b",
    re.IGNORECASE,
)
"""A claim about who allowed what, or what the tool may do (read outside the licence's own
words: "without approval prompts" alone is no claim of approval)."""


_YOUR_REPLY = re.compile(
    r"\byour (?:final )?(?:responses?|replies|reply|answers?|summary|summaries|output)\b",
    re.IGNORECASE,
)
"""The model's own reply to the user, which a parameter's value never shapes (no sentence of the
12,803 in the development honest sets' parameter descriptions speaks of it)."""


def redirects_from_parameter(added: Iterable[tuple[str, str]]) -> list[Cue]:
    """``cue.tool-reference.change-redirects-from-parameter`` for the added sentences."""
    out: list[Cue] = []
    seen: set[str] = set()
    for ptr, s in added:
        if not _PARAMETER_TEXT.search(ptr):
            continue
        text = s[:_MAX_SENTENCE]
        rel = _STANDS_IN.search(text)
        if rel is None or _A_TOOL.search(text) is None:
            continue
        why = (
            f"added by this change to a parameter's description; it settles which tool is used "
            f'("{rel.group(0).lower()}" a tool), which a parameter does not'
        )
        cue = added_cue(CueKind.TOOL_REFERENCE, CHANGE_REDIRECTS_FROM_PARAMETER, ptr, s, why, seen)
        if cue is not None:
            out.append(cue)
    return out


def lifts_check(added: Iterable[tuple[str, str]]) -> list[Cue]:
    """``cue.instruction.change-lifts-check`` for the added sentences."""
    out: list[Cue] = []
    seen: set[str] = set()
    for ptr, s in added:
        text = s[:_MAX_SENTENCE]
        licences = [m.group(0) for m in _LICENCE.finditer(text)]
        if not licences:
            continue
        claim = _STANDING.search(_LICENCE.sub(" ", text))
        if claim is None:
            continue
        why = (
            f'added by this change; it lets the model skip a check ("{licences[0].lower()}") '
            f'on a claim of standing ("{claim.group(0).lower()}")'
        )
        cue = added_cue(CueKind.INSTRUCTION, CHANGE_LIFTS_CHECK, ptr, s, why, seen)
        if cue is not None:
            out.append(cue)
    return out


def command_in_parameter(
    old_map: Mapping[str, list[str]], added: Iterable[tuple[str, str]]
) -> list[Cue]:
    """``cue.instruction.change-adds-command-to-parameter`` for the added sentences."""
    out: list[Cue] = []
    seen: set[str] = set()
    vocab: dict[str, set[str]] = {}
    for ptr, s in added:
        m = _PARAMETER_TEXT.search(ptr)
        if m is None or not old_map.get(ptr):
            continue  # a parameter's pinned description, rewritten by this change
        own = cc._QUOTED.sub(" ", s[:_MAX_SENTENCE])
        if cc._IDENT.search(own):
            continue  # names an identifier: a sentence about the interface
        raw = [w.lower() for w in cc._RAW.findall(own)][: cc._MAX_WORDS]
        command = cc._commands(raw) and raw[0] not in cc._DO_NOT
        reply = _YOUR_REPLY.search(own)
        if not (command or reply) or not _REFERS_BACK.isdisjoint(raw):
            continue
        topic = cc._stems(cc._words(own)[: cc._MAX_WORDS]) - {cc.stem(raw[0])}
        if not topic:
            continue
        if ptr not in vocab:
            words = cc._words(m.group(1))
            for t in old_map[ptr]:
                words.extend(cc._words(t[: cc._MAX_TEXT]))
            vocab[ptr] = cc._stems(words)
        if not topic.isdisjoint(vocab[ptr]):
            continue
        what = "speaks of the model's reply" if reply else "a command"
        why = (
            f"added by this change to a parameter's description; {what} that shares no word "
            "with the parameter and refers to nothing of it"
        )
        cue = added_cue(CueKind.INSTRUCTION, CHANGE_ADDS_COMMAND_TO_PARAMETER, ptr, s, why, seen)
        if cue is not None:
            out.append(cue)
    return out


def claim_cues(
    old_map: Mapping[str, list[str]], added: list[tuple[str, str]], blocked: set[str]
) -> list[Cue]:
    """The three readers on the sentences a change adds, then the relayed-message readers of
    ``engine/cue_notes.py``, the pitch readers of ``engine/cue_pitch.py`` and the hand-over
    readers of ``engine/cue_handover.py``, at pointers not already blocked (a blocked text stands
    alone and its blocking cues name the evidence, as the learned reader does)."""
    rest = list(as_read((p, s) for p, s in added if p not in blocked))
    return [
        *redirects_from_parameter(rest),
        *lifts_check(rest),
        *command_in_parameter(old_map, rest),
        *note_cues(old_map, rest),
        *pitch_cues(rest),
        *handover_cues(rest),
    ]


def change_cues(
    old_map: Mapping[str, list[str]],
    new_texts: Iterable[tuple[str, str]],
    introduced: list[Cue],
    kw: Mapping[str, Any],
) -> list[Cue]:
    """``engine/cue_change.py``'s ``change_cues`` (same arguments), then these readers on the
    sentences the change adds, at pointers no cue of the change blocks."""
    texts = list(new_texts)
    added = list(cc.added_sentences(old_map, texts))
    if not added:
        return introduced
    out = cc.read_added(old_map, texts, added, introduced, kw)
    return [*out, *claim_cues(old_map, added, {c.pointer for c in introduced if c.blocking})]
