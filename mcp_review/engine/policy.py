"""Policy tiers: what happens to a drifted tool — auto-approve, wait for review, or block.

The tier table (docs/design.md; each row is checked by tests/engine/test_policy.py):

==========================  ============  ============  ============
what changed                strict        tiered        compatible
==========================  ============  ============  ============
cosmetic only               review        auto-approve  auto-approve
compatible schema only      review        auto-approve  auto-approve
trust (text, default…)      review        review        auto-approve
potentially-breaking        review        review        auto-approve
breaking                    review        review        review
a recorded call broken      review        review        review
digest changed, no change   review        review        review
  the engine can name
previously denied, changed  review        review        review
new tool                    review        review        review
other annotation changed    review        review        review
annotation claims less      review        review        review
  power, uncontradicted
annotation claims more      block         block         block
_meta claims more power     block         block         block
annotation claims less      block         block         block
  power, contradicted
a cue needing attention     review        review        review
  introduced
hidden characters appeared  block         block         block
a blocking cue introduced   block         block         block
==========================  ============  ============  ============

"trust" covers every piece of server-written text the model reads, new or changed, anywhere in
the definition: text edits (description, title, ``$comment``, ``examples``, ``default``) and text
carried in by a structural change (a new property's description, a new enum value that reads as
a sentence, prose in a ``pattern`` or ``format``: ``Change.new_text``). "Annotation claims less" is a hint moving towards the value
that makes clients gate the tool *less* (readOnlyHint false→true, destructiveHint true→false,
idempotentHint false→true, openWorldHint true→false, MCP defaults when absent): hosts auto-run
tools that claim to be read-only, so no tier approves that claim before a human has read it. It
blocks when something contradicts it (:func:`claim_contradictions`): a word of
its hint's list in the tool's name or description (``delete_file`` claiming ``readOnlyHint``),
the pinned definition's explicit opposite claim, or ``readOnlyHint: true`` beside an explicit
``destructiveHint: true``; otherwise it waits for review and is decided by kind with the other
tools that make the same claim (engine/kinds.py).

"A blocking cue introduced": changed text that asks the model for something outside the tool's
own use (engine/cues.py: an instruction aimed at the agent, concealment, an ask for a secret,
exfiltration, a path to a secret location; docs/cues.md). A new tool's cues are first-sight
cues (every cue it carries): they block when their level is ``block`` after the corroboration
step (engine/cue_corroborate.py): a blocking cue of kind instruction, concealment, exfiltration
or secret that rests on one reading alone, with nothing independent agreeing, is shown at
``attention`` instead (``cue.<kind>.uncorroborated``), so a baseline ``pin`` of honest servers,
whose descriptions name their own paths, URLs and arguments and speak to the model, is not held
back by one misread phrase; a path to a secret location blocks alone (hidden characters block
as their own row).

"A cue needing attention" (level ``attention``, docs/cues.md "Levels"): a word mixing
scripts, an encoded blob, text the reader could not normalise. No pattern tells it honest from
hostile, so no tier approves it before a human has read the tool, alone (engine/kinds.py), and
approving it needs no typed reason (it does not block).

The most severe row present wins (block > review > auto-approve). ``compatible`` is the seed's
gate semantics: anything not breaking and with no broken recorded call is re-pinned. No tier
ever auto-approves an annotation change on the trust axis (any of those rows), a new tool, hidden
characters, or a tool the operator denied. A blocked tool is cleared only by an explicit
approval with confirmation.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from mcp_review.engine.cues import Cue, needs_attention, severity, tool_cues
from mcp_review.engine.hidden import find_hidden, has_hidden, none_hidden
from mcp_review.engine.model import Change, ChangeClass, ToolDef, pointer_join
from mcp_review.engine.rules import where as where_label
from mcp_review.engine.rules.catalog import rule_of
from mcp_review.engine.rules.cues import CueKind, Level
from mcp_review.engine.rules.registry import Claim
from mcp_review.engine.rules.render import added_text, quote
from mcp_review.engine.rules.ui import UI_RULES


def _claims(changes: Iterable[Change], claim: Claim) -> tuple[str, ...]:
    """The messages of the changes whose rule makes ``claim`` (``Rule.claim``)."""
    return tuple(c.message for c in changes if rule_of(c.rule).claim is claim)


TIERS: tuple[str, ...] = ("strict", "tiered", "compatible")
DEFAULT_TIER = "tiered"


class Outcome(StrEnum):
    NONE = "none"
    """Nothing to decide: pinned and unchanged, or denied and unchanged."""
    AUTO_APPROVE = "auto-approve"
    REVIEW = "review"
    BLOCK = "block"
    WAIVED = "waived"
    """Every change needing review is covered by an ``[[ignore]]`` waiver (engine/rulesconfig.py): it
    does not fail the gate and is never approved automatically. :func:`decide` never gives it."""


def blocked_approval(decision: object, outcome: object) -> bool:
    """Is this the approval of a blocked change? ``decision``: ``approved`` or ``denied`` (a
    ``Decision`` or its text); ``outcome``: the policy's outcome for what is decided (a tool,
    server instructions, a prompt, resource or template, a group of review by kind). Such an
    approval needs a confirmation (:func:`approval_allowed`), and its audit record names the
    blocking reasons it confirmed. Decided here only: every front end asks (the CLI's
    ``approve``/``pin``, the app, the recording service; tests/repo/test_one_place.py)."""
    return str(decision) == "approved" and outcome == Outcome.BLOCK


def approval_allowed(decision: object, outcome: object, confirmation: bool | str | None) -> bool:
    """May ``decision`` be recorded? Anything but a blocked approval (:func:`blocked_approval`)
    may; a blocked approval only with its confirmation: ``--yes`` (True), the words saying how
    it was confirmed (``with --yes``, ``in the review app``), or the reason the operator typed
    in the app (blank does not count). Without it nothing is recorded."""
    if not blocked_approval(decision, outcome):
        return True
    if isinstance(confirmation, str):
        return bool(confirmation.strip())
    return bool(confirmation)


_SEVERITY = {
    Outcome.NONE: 0,
    Outcome.WAIVED: 1,
    Outcome.AUTO_APPROVE: 1,
    Outcome.REVIEW: 2,
    Outcome.BLOCK: 3,
}

# MCP ToolAnnotations defaults: an absent hint means the less trusting value.
_HINT_DEFAULTS = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
# The value a hint moves *to* when it is relaxed (trusting less than before).
_RELAXED_TO = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}


@dataclass(frozen=True, slots=True)
class Facts:
    """What the policy needs to know about one live tool against its pin."""

    new_tool: bool = False
    classes: frozenset[ChangeClass] = frozenset()
    broken_calls: int = 0
    annotations_relaxed: tuple[str, ...] = ()
    """Hints relaxed, e.g. ``("readOnlyHint true→false",)``."""
    annotations_gate_less: tuple[str, ...] = ()
    """Hints that now claim less power, e.g. ``("readOnlyHint false→true",)``."""
    claims_contradicted: tuple[str, ...] = ()
    """Claims of less power that contradict the tool's name or description, its explicit
    pinned claim or its other annotations (:func:`claim_contradictions`), e.g.
    ``("readOnlyHint false→true against 'delete' in the name",)``: these block."""
    claims_reversed: bool = False
    """Every one of :attr:`claims_contradicted` is an explicit pinned claim reversed, nothing
    else (:func:`reversals`): the tool blocks, yet may be decided in a group of its kind
   ."""
    hidden_appeared: tuple[str, ...] = ()
    """Where hidden characters appeared, e.g. ``("/description: ⟨U+200B⟩",)``."""
    previously_denied: bool = False
    trust: tuple[str, ...] = ()
    """What each change on the trust axis puts before the model, visible and bounded, so the
    reason a tier gives names the text (every output shows the reasons)."""
    text_added: tuple[str, ...] = ()
    """The text the tool's own description and title add, quoted (e.g. ``the description adds
    "Before using this tool, …"``): named among the reasons of a blocked tool too, so what
    blocks it (an annotation) never hides what the model will now read."""
    unclassified: bool = False
    """The digest changed but the engine named no change (never auto-approved)."""
    annotations_other: tuple[str, ...] = ()
    """Annotation keys MCP does not define that changed (``read_only_hint``, ``x-...``): a
    client or the model may read them, so no tier re-pins them (never auto-approved)."""
    blocking_cues: tuple[str, ...] = ()
    """Blocking cues the change introduces (engine/cues.py: instruction, concealment, secret,
    exfiltration, hidden, a secret location), each as ``kind: text``."""
    first_sight_cues: tuple[str, ...] = ()
    """A new tool's cues that block on first sight (:func:`first_sight_blocking`), worded as
    :attr:`blocking_cues`."""
    attention_cues: tuple[str, ...] = ()
    """Cues at level ``attention`` the change introduces (a new tool's: every one it carries),
    worded as :attr:`blocking_cues`: never auto-approved, in any tier."""
    meta_more_power: tuple[str, ...] = ()
    """Claims of more power in ``_meta`` (``Claim.META_MORE``, engine/rules/meta.py: the model
    may now call an app-only tool, the UI's CSP or permissions grew), each as its message."""
    ui_changed: tuple[str, ...] = ()
    """A UI resource the tool renders changed behind its URI (engine/rules/ui.py), each as its
    message: never approved automatically, in any tier."""


class Concern(StrEnum):
    """A trust finding that blocks, as data: what a reason's words say, for code to test
    without reading the words (the app's row flags)."""

    ANNOTATION_RELAXED = "annotation claims more power"
    ANNOTATION_GATES_LESS = "annotation claims less power"
    """A claim of less power that is contradicted (:attr:`Facts.claims_contradicted`): it
    blocks, and the tool stands alone (engine/kinds.py). An uncontradicted one waits for
    review, groupable, and is no concern."""
    CLAIM_REVERSED = "annotation claim reversed"
    """A claim of less power contradicted only by the pinned definition's explicit opposite
    (:func:`reversals`): it blocks, and the tool may be decided with the others that reverse
    a claim (engine/kinds.py), one confirmation and one reason for them all."""
    HIDDEN_CHARACTERS = "hidden characters"
    CUE = "cue"
    """A blocking cue introduced by changed text, or one a new tool carries on first sight."""
    META_MORE_POWER = "_meta claims more power"
    """``_meta`` claims more power (engine/rules/meta.py): the model may now call a tool only
    the host's UI could, or the UI may reach more. It blocks and the tool stands alone."""


@dataclass(frozen=True, slots=True)
class PolicyResult:
    tier: str
    outcome: Outcome
    reasons: tuple[str, ...] = ()
    concerns: frozenset[Concern] = frozenset()
    """The blocking trust findings among :attr:`reasons` (kept with them: a result that
    replaces the reasons drops them). Not part of :meth:`to_json`, which the reasons word."""

    def to_json(self) -> dict[str, Any]:
        return {"tier": self.tier, "outcome": str(self.outcome), "reasons": list(self.reasons)}


def decide(tier: str, facts: Facts) -> PolicyResult:
    """Apply ``tier`` to ``facts`` (see the table in the module docstring)."""
    if tier not in TIERS:
        raise ValueError(f"unknown policy tier {tier!r}")
    steps: list[tuple[Outcome, str]] = []
    concerns = {
        c
        for c, found in (
            (Concern.ANNOTATION_RELAXED, facts.annotations_relaxed),
            (
                Concern.ANNOTATION_GATES_LESS,
                facts.claims_contradicted and not facts.claims_reversed,
            ),
            (Concern.CLAIM_REVERSED, facts.claims_contradicted and facts.claims_reversed),
            (Concern.HIDDEN_CHARACTERS, facts.hidden_appeared),
            (Concern.CUE, facts.blocking_cues or facts.first_sight_cues),
            (Concern.META_MORE_POWER, facts.meta_more_power),
        )
        if found
    }
    for hint in facts.annotations_relaxed:
        steps.append((Outcome.BLOCK, f"annotation claims more power: {hint}"))
    for what in facts.meta_more_power:
        steps.append((Outcome.BLOCK, f"_meta claims more power: {what}"))
    for why in facts.claims_contradicted:
        steps.append((Outcome.BLOCK, f"annotation claims less power, contradicted: {why}"))
    contradicted = {w.split(" against ", 1)[0] for w in facts.claims_contradicted}
    for hint in facts.annotations_gate_less:
        if hint in contradicted:
            continue
        steps.append(
            (
                Outcome.REVIEW,
                f"annotation now claims less power, no contradiction found: {hint} (clients "
                "gate the tool less; never approved automatically)",
            )
        )
    for where in facts.hidden_appeared:
        steps.append((Outcome.BLOCK, f"hidden characters: {where}"))
    for cue in facts.blocking_cues:
        steps.append((Outcome.BLOCK, f"cue in new text: {cue}"))
    for cue in facts.first_sight_cues:
        steps.append((Outcome.BLOCK, f"cue in new tool: {cue}"))
    for cue in facts.attention_cues:
        steps.append((Outcome.REVIEW, f"cue needs attention: {cue}: never approved automatically"))
    if facts.new_tool:
        steps.append((Outcome.REVIEW, "new tool: never approved automatically"))
    for what in facts.annotations_other:
        steps.append((Outcome.REVIEW, f"{what}: never approved automatically"))
    for what in facts.ui_changed:
        steps.append((Outcome.REVIEW, what))
    if facts.previously_denied:
        steps.append((Outcome.REVIEW, "previously denied: a change never lifts a denial"))
    if facts.unclassified:
        steps.append((Outcome.REVIEW, "digest changed but no change was classified"))
    if facts.broken_calls:
        steps.append((Outcome.REVIEW, f"{facts.broken_calls} recorded call(s) broken"))
    for cls in sorted(facts.classes, key=lambda c: c.value):
        why = f"{cls.value} change ({tier})"
        if cls is ChangeClass.TRUST and facts.trust:
            more = len(facts.trust) - 1
            why += ": " + facts.trust[0] + (f" (+{more} more)" if more else "")
        steps.append((_class_outcome(tier, cls), why))
    if not steps:
        return PolicyResult(tier, Outcome.NONE)
    worst = max((o for o, _ in steps), key=_SEVERITY.__getitem__)
    reasons = tuple(r for o, r in steps if o is worst)
    if worst is Outcome.BLOCK:
        # Blocked for an annotation or hidden characters, the tool may also carry new words
        # for the model ("blocked" named the annotations, not an injected
        # sentence): the reasons name them too.
        reasons += tuple(t for t in facts.text_added if t not in reasons)
    # Every concern blocks, and block is the worst outcome: their reasons are all kept.
    return PolicyResult(tier, worst, reasons, frozenset(concerns))


def severity_rank(o: Outcome) -> int:
    """How severe an outcome is (none < auto-approve, waived < review < block)."""
    return _SEVERITY[o]


def class_outcome(tier: str, cls: ChangeClass) -> Outcome:
    """The tier table's outcome for a change of class ``cls`` alone."""
    return _class_outcome(tier, cls)


def _class_outcome(tier: str, cls: ChangeClass) -> Outcome:
    if tier == "strict" or cls is ChangeClass.BREAKING:
        return Outcome.REVIEW
    if cls in (ChangeClass.COSMETIC, ChangeClass.COMPATIBLE):
        return Outcome.AUTO_APPROVE
    # trust / potentially-breaking: the compatible tier re-pins anything not breaking.
    return Outcome.AUTO_APPROVE if tier == "compatible" else Outcome.REVIEW


# Facts from definitions ----------------------------------------------------------------------


def annotation_relaxations(old: ToolDef | None, new: ToolDef) -> tuple[str, ...]:
    """Hints that moved to the less trusting value (absent hints take the MCP default)."""
    if old is None:
        return ()
    out = []
    oa, na = old.annotations, new.annotations
    for hint, default in _HINT_DEFAULTS.items():
        ov, nv = oa.get(hint, default), na.get(hint, default)
        if ov != nv and nv == _RELAXED_TO[hint]:
            out.append(f"{hint} {_b(ov)}→{_b(nv)}")
    return tuple(out)


def annotation_gate_less(old: ToolDef | None, new: ToolDef) -> tuple[str, ...]:
    """Hints that moved to the value that makes clients gate the tool less (absent hints take
    the MCP default). A hint that is not a boolean restricts nothing, yet counts as the claim
    when a client reads it so (``readOnlyHint: "yes"``: the mcp SDK's lax bool reads true;
    ``tool_annotations.client_readings``)."""
    if old is None:
        return ()
    from mcp_review.engine.rules.tool_annotations import client_readings

    out = []
    oa, na = old.annotations, new.annotations
    for hint, default in _HINT_DEFAULTS.items():
        ov, nv = _eff(oa.get(hint), default, hint), _eff(na.get(hint), default, hint)
        less = not _RELAXED_TO[hint]
        if ov != nv and nv != _RELAXED_TO[hint]:
            out.append(f"{hint} {_b(ov)}→{_b(nv)}")
        elif (
            ov == _RELAXED_TO[hint]
            and less in client_readings(na.get(hint))
            and less not in client_readings(oa.get(hint))
        ):
            # A value that is not a boolean, read by clients as the claim (the mcp SDK's lax
            # bool reads "yes" as true): the claim they act on.
            out.append(f"{hint} {_b(ov)}→{_b(na.get(hint))}")
    return tuple(out)


DESTRUCTIVE_VERBS: tuple[str, ...] = (
    "delete",
    "remove",
    "overwrite",
    "drop",
    "kill",
    "truncate",
    "wipe",
    "purge",
    "erase",
    "destroy",
    "reset",
    "revoke",
    "terminate",
    "transfer",
    "deploy",
    "publish",
)
"""Verbs whose call destroys, undoes or hands over something (``readOnlyHint:
true`` on tools named with wipe, purge, erase, destroy, reset, revoke, terminate, transfer,
deploy or publish rode in a group): they contradict a claim of read-only or non-destructive."""

ADDS_AGAIN_VERBS: tuple[str, ...] = (
    "append",
    "increment",
    "decrement",
    "send",
    "post",
    "charge",
    "enqueue",
    "push",
    "insert",
    "submit",
)
"""Verbs meaning each call adds something again: only these contradict ``idempotentHint: true``
(creating or adding what then exists, or writing the same content twice, is idempotent)."""

CLAIM_WORDS: dict[str, tuple[str, ...]] = {
    "readOnlyHint": ("write", "create", "update", "move", "send", "execute", *DESTRUCTIVE_VERBS),
    "destructiveHint": DESTRUCTIVE_VERBS,
    "idempotentHint": ADDS_AGAIN_VERBS,
    "openWorldHint": ("fetch", "http", "url", "web", "email", "send"),
}
"""Per hint, the words that contradict its claim of less power, read against the tool's own words as
:func:`tool_verbs` reads them: the name's verb and the
description's main verbs (``openWorldHint``: every word of the name too, which names the world
it reaches: ``web_search``). A tool that says it deletes does not get to claim it is
read-only."""

READ_VERBS: tuple[str, ...] = (
    "get",
    "list",
    "read",
    "search",
    "find",
    "view",
    "show",
    "describe",
    "retrieve",
    "query",
    "inspect",
    "check",
    "validate",
    "count",
    "lookup",
    "browse",
    "explore",
    "analyze",
    "preview",
    "fetch",
)
"""Verbs that name a reading: a name led by one is not contradicted by the soft words
(:data:`_SOFT`) of its description ("read_neo4j_cypher: Execute a read Cypher query")."""

_SOFT = {"readOnlyHint": frozenset({"execute"})}
"""Words that contradict a hint only when the name's verb is not a reading."""

OTHER_VERBS: tuple[str, ...] = (
    "add",
    "set",
    "edit",
    "patch",
    "modify",
    "rename",
    "upload",
    "download",
    "save",
    "load",
    "start",
    "stop",
    "cancel",
    "restart",
    "run",
    "open",
    "close",
    "clear",
    "reply",
    "merge",
    "pull",
    "commit",
    "checkout",
    "archive",
    "restore",
    "clone",
    "copy",
    "mark",
    "assign",
    "invite",
    "share",
    "subscribe",
    "generate",
    "parse",
    "resolve",
    "convert",
    "calculate",
    "compute",
    "render",
    "summarize",
    "scan",
    "monitor",
    "trigger",
    "simulate",
    "test",
    "call",
    "invoke",
    "make",
    "build",
    "install",
    "manage",
    "export",
    "import",
    "store",
    "navigate",
    "click",
    "type",
    "fill",
    "select",
    "take",
    "capture",
    "tidy",
    "return",
    "use",
    "demonstrate",
)
"""More verbs a name starts with (never contradicting by themselves): the name's verb is the
first word of the name that is a verb, so knowing them keeps a later noun ("getProjectUpdates",
"set_delete_protection") from being read as the verb."""


def _forms(word: str) -> set[str]:
    """The word and its inflections (``delete`` → deletes, deleted, deleting; ``drop`` →
    dropped, dropping; ``send`` → sent); nouns like "creation" are not the verb."""
    out = {word, word + "s", word + "es", *_IRREGULAR.get(word, ())}
    if word.endswith("e"):
        out |= {word + "d", word[:-1] + "ing"}
    elif word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        out |= {word[:-1] + "ies", word[:-1] + "ied", word + "ing"}
    else:
        out |= {word + "ed", word + "ing"}
        if re.fullmatch(r".*[^aeiou][aeiou][bdgklmnprt]", word):
            out |= {word + word[-1] + "ed", word + word[-1] + "ing"}
    return out


_IRREGULAR = {
    "write": ("wrote", "written"),
    "send": ("sent",),
    "find": ("found",),
    "make": ("made",),
    "build": ("built",),
    "take": ("took", "taken"),
    "run": ("ran", "running"),
    "set": ("setting",),
    "get": ("got", "getting"),
}


@functools.cache
def _claim_forms() -> dict[str, dict[str, str]]:
    """hint -> {skeleton of a form: the list word}."""
    from mcp_review.engine.hidden import skeleton

    return {
        hint: {skeleton(f): w for w in words for f in _forms(w)}
        for hint, words in CLAIM_WORDS.items()
    }


@functools.cache
def _verb_forms(present: bool = False) -> dict[str, str]:
    """{skeleton of a form: the verb} for every verb the reading knows (``present``: only the
    verb itself and its third person, "delete"/"deletes", as a description's main verb is)."""
    from mcp_review.engine.hidden import skeleton

    verbs = {*READ_VERBS, *OTHER_VERBS, *(w for ws in CLAIM_WORDS.values() for w in ws)}
    verbs -= {"http", "url", "web", "email"}  # nouns of the open-world list
    return {skeleton(f): w for w in sorted(verbs) for f in (_present(w) if present else _forms(w))}


def _present(word: str) -> set[str]:
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return {word, word[:-1] + "ies"}
    return {word, word + "s", word + "es"}


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE = re.compile(r"[.!?;:|\n]+|\s[-–—•*#]+\s|\*\*")
_JOINS = frozenset({"and", "or", "then", "also"})


def _plain(text: str) -> str:
    from mcp_review.engine.hidden import strip_hidden

    # Hidden characters out and NFKC first, so a word split by a zero-width space or written in
    # fullwidth letters splits at its camelCase humps before the skeleton folds case.
    return unicodedata.normalize("NFKC", strip_hidden(text))


def _words_in_order(text: str) -> list[str]:
    from mcp_review.engine.hidden import skeleton

    folded = skeleton(_CAMEL.sub(" ", text))
    return _WORD.findall(folded.replace("_", " "))


def claim_words(text: str) -> set[str]:
    """The words of a name or description as the word check reads them: camelCase and
    ``snake_case`` split, hidden characters dropped and every word reduced to its confusable
    skeleton (engine/hidden.py), so ``dеlete`` with a Cyrillic е, ``delete`` split by a
    zero-width space and ``ＤＥＬＥＴＥ`` read as ``delete``."""
    return set(_words_in_order(_plain(text)))


def name_verbs(name: str) -> tuple[str, ...]:
    """The name's verb: the first word that is a verb once a product or
    namespace prefix is skipped (``git_reset`` → reset, ``pg_kill`` → kill,
    ``API-delete-a-block`` → delete, ``getProjectUpdates`` → get), and the first verb after
    each "and"/"or"/"then" (``get_and_delete``: both). Verbs as their list word."""
    forms = _verb_forms()
    out: list[str] = []
    want = True
    for w in _words_in_order(_plain(name)):
        if w in _JOINS:
            want = True
        elif want and w in forms:
            out.append(forms[w])
            want = False
    return tuple(out)


def description_verbs(text: str) -> tuple[str, ...]:
    """The description's main verbs: in its lead paragraph (up to the first blank line), each
    sentence's (or line's) first word when it is a verb in the present ("Create a new file…",
    "Adds file contents…", "Notion | Retrieve a page"), and the verbs joined to it by
    "and"/"or"/"then" ("…or completely overwrite an existing file"). A noun later in a
    sentence ("…with progress updates"), a participle ("created by the current user"), an
    aside in brackets and the examples further down are not its verbs."""
    forms = _verb_forms(present=True)
    lead = re.split(r"\n\s*\n", _plain(text).strip(), maxsplit=1)[0]
    lead = _ASIDE.sub(" ", lead)
    out: list[str] = []
    for sentence in _SENTENCE.split(lead):
        words = _words_in_order(sentence)
        if not words or words[0] not in forms:
            continue
        out.append(forms[words[0]])
        for i, w in enumerate(words[:-1]):
            if w not in _JOINS:
                continue
            nxt = words[i + 1]
            if nxt.endswith("ly") and i + 2 < len(words):
                nxt = words[i + 2]  # "or completely overwrite"
            if nxt in forms:
                out.append(forms[nxt])
    return tuple(dict.fromkeys(out))


_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


def claim_contradictions(old: ToolDef | None, new: ToolDef) -> tuple[str, ...]:
    """The claims of less power ``new`` makes over ``old`` that contradict something,
    each as ``"<hint> <old>→<new> against <what>"``:

    - a word of :data:`CLAIM_WORDS` among the tool's own verbs: the name's verb
      (:func:`name_verbs`), else the description's and title's main verbs
      (:func:`description_verbs`); for ``openWorldHint`` any word of the name too;
    - the pinned definition claimed the opposite *explicitly* (not the protocol default):
      :func:`reversals` words these alone;
    - ``readOnlyHint: true`` beside an explicit ``destructiveHint: true``.
    """
    return tuple(why for why, _ in _contradictions(old, new))


def reversals(old: ToolDef | None, new: ToolDef) -> tuple[str, ...]:
    """The contradictions of :func:`claim_contradictions` that are only an explicit pinned claim
    reversed: empty when anything else contradicts a claim (the tool's own
    words, its other annotations), which keeps the tool alone."""
    found = _contradictions(old, new)
    if not found or any(not reversed_ for _, reversed_ in found):
        return ()
    return tuple(why for why, _ in found)


def _contradictions(old: ToolDef | None, new: ToolDef) -> list[tuple[str, bool]]:
    if old is None:
        return []
    claimed = {h.split(" ", 1)[0]: h for h in annotation_gate_less(old, new)}
    if not claimed:
        return []
    named = name_verbs(new.name)
    reads = bool(named) and named[0] in READ_VERBS
    said = description_verbs(new.description or "") + description_verbs(new.title or "")
    name_all = claim_words(new.name)
    forms = _claim_forms()
    oa, na = old.annotations, new.annotations
    out: list[tuple[str, bool]] = []
    for hint, shown in claimed.items():
        words = set(CLAIM_WORDS[hint]) - (_SOFT.get(hint, frozenset()) if reads else set())
        in_name = [v for v in named if v in words]
        if hint == "openWorldHint":
            in_name += sorted({forms[hint][w] for w in name_all if w in forms[hint]})
        in_text = [v for v in said if v in words]
        if in_name:
            out.append((f"{shown} against {sorted(in_name)[0]!r} in the name", False))
        elif in_text:
            out.append((f"{shown} against {sorted(in_text)[0]!r} in the description", False))
        if oa.get(hint) is _RELAXED_TO[hint]:
            why = f"{shown} against the pinned definition's explicit {hint}: {_b(oa[hint])}"
            out.append((why, True))
        if hint == "readOnlyHint" and na.get("destructiveHint") is True:
            out.append((f"{shown} against the explicit destructiveHint: true beside it", False))
    return out


def _eff(v: Any, default: bool, hint: str) -> bool:
    if v is None:
        return default
    return v if isinstance(v, bool) else _RELAXED_TO[hint]


def _trust_line(c: Change) -> str:
    """One bounded line for a change on the trust axis: the new text it carries, or its own
    message (messages quote server text visibly and bounded already)."""
    if c.new_text:
        t = c.new_text[0]
        more = len(c.new_text) - 1
        return f"new {t.field} text at {where_label(t.pointer)}: {t.text}" + (
            f" (+{more} more)" if more else ""
        )
    return c.message if len(c.message) <= _TRUST_LINE else c.message[:_TRUST_LINE] + "…"


_TRUST_LINE = 300


def text_added(old: ToolDef | None, new: ToolDef) -> tuple[str, ...]:
    """What the tool's description and title add to the pinned ones, quoted and bounded
    (nothing for a new tool: all of it is new, and it is reviewed as such)."""
    if old is None:
        return ()
    out = []
    for field, a, b in (
        ("description", old.description, new.description),
        ("title", old.title, new.title),
    ):
        if a != b and b:
            added = added_text(a, b)
            if added.strip():
                out.append(f"the {field} adds {quote(added, cap=_ADDED_QUOTE)}")
    return tuple(out)


_ADDED_QUOTE = 160


def _b(v: Any) -> str:
    return "true" if v is True else "false" if v is False else repr(v)


def _hidden_counts(tool: ToolDef) -> Counter[tuple[str, str]]:
    """(pointer, label) -> how many times, for every hidden character in every string (object
    keys included). Pointers are joined only for the strings that have one."""
    c: Counter[tuple[str, str]] = Counter()
    stack: list[tuple[Any, str, str | int | None]] = [(tool.hashed_projection(), "", None)]
    while stack:
        x, parent, at = stack.pop()
        if isinstance(x, str):
            if has_hidden(x):
                p = parent if at is None else pointer_join(parent, at)
                for h in find_hidden(x):
                    c[(p, h.label)] += 1
        elif isinstance(x, dict):
            p = parent if at is None else pointer_join(parent, at)
            for k, y in x.items():
                if has_hidden(k):
                    for h in find_hidden(k):
                        c[(pointer_join(p, k), h.label)] += 1
                stack.append((y, p, k))
        elif isinstance(x, list):
            p = parent if at is None else pointer_join(parent, at)
            stack.extend((y, p, i) for i, y in enumerate(x))
    return c


def hidden_appeared(old: ToolDef | None, new: ToolDef) -> tuple[str, ...]:
    """Hidden characters in ``new`` that ``old`` did not have at the same place (all of them
    for a new tool). Ones the operator already approved do not block again."""
    if none_hidden(new.hashed_projection()):
        return ()
    nc = _hidden_counts(new)
    if not nc:
        return ()
    diff = nc - _hidden_counts(old) if old is not None else nc
    # One reason per location, not per character: a TAG-smuggled sentence is dozens of
    # distinct characters, and a reason line per letter buries the point.
    by_ptr: dict[str, list[str]] = {}
    for (ptr, label), n in sorted(diff.items()):
        by_ptr.setdefault(ptr or "/", []).extend([label] * n)
    out = []
    for ptr, labels in by_ptr.items():
        if len(labels) == 1:
            out.append(f"{ptr}: {labels[0]}")
            continue
        shown = "".join(dict.fromkeys(labels).keys())
        if len(shown) > 80:
            shown = shown[:79] + "…"
        out.append(f"{ptr}: {len(labels)} hidden characters {shown}")
    return tuple(out)


def facts_for(
    old: ToolDef | None,
    new: ToolDef,
    changes: Iterable[Change] = (),
    *,
    broken_calls: int = 0,
    previously_denied: bool = False,
    cues: Sequence[Cue] | None = None,
) -> Facts:
    """Facts for one live tool: ``old`` is the pinned definition (None for a new tool).
    ``cues``: what the live definition introduces over ``old`` (``tool_cues``), when the
    caller already has them (ToolStatus.cues); read here otherwise, and only when needed."""
    changes = list(changes)
    # A change that brings in text the model reads (a new property's description) is on the
    # trust axis as well as its own class: the tier judges both.
    classes = frozenset(c.cls for c in changes) | (
        {ChangeClass.TRUST} if any(c.new_text for c in changes) else set()
    )
    relaxed = annotation_relaxations(old, new)
    gate_less = annotation_gate_less(old, new)
    contradicted = claim_contradictions(old, new)
    hidden = hidden_appeared(old, new)
    # The engine's own findings count too (belt and braces: either detector blocks).
    if not relaxed:
        relaxed = _claims(changes, Claim.ANNOTATION_MORE)
    if not gate_less:
        gate_less = _claims(changes, Claim.ANNOTATION_LESS)
    if not hidden:
        hidden = tuple(c.message for c in changes if rule_of(c.rule).hidden)
    # What the new text asks: a blocking cue it introduces blocks in every tier.
    # Read only when a change brings in text, or for a new tool (first sight: fewer kinds block).
    # Hidden characters are already a reason of their own.
    blocking: tuple[str, ...] = ()
    first_sight: tuple[str, ...] = ()
    attention: tuple[str, ...] = ()
    if old is None:
        found = tool_cues(None, new.wire) if cues is None else cues
        first_sight = _worded(
            c for c in found if first_sight_blocking(c) and c.kind is not CueKind.HIDDEN
        )
        attention = _worded(c for c in found if needs_attention(c))
    elif changes or old.digest != new.digest:
        # Any change is read, not only one on the trust axis: a sentence in an ``x-`` keyword,
        # a ``pattern`` or a ``required`` entry reaches the model all the same.
        found = tool_cues(old.wire, new.wire) if cues is None else cues
        blocking = _worded(c for c in found if c.blocking and c.kind is not CueKind.HIDDEN)
        attention = _worded(c for c in found if needs_attention(c))
    return Facts(
        new_tool=old is None,
        classes=classes,
        broken_calls=broken_calls,
        annotations_relaxed=relaxed,
        annotations_gate_less=gate_less,
        claims_contradicted=contradicted,
        claims_reversed=bool(contradicted) and reversals(old, new) == contradicted,
        hidden_appeared=hidden,
        previously_denied=previously_denied,
        trust=tuple(_trust_line(c) for c in changes if c.trust),
        text_added=text_added(old, new),
        unclassified=old is not None and not changes and old.digest != new.digest,
        annotations_other=_claims(changes, Claim.ANNOTATION_OTHER),
        blocking_cues=blocking,
        first_sight_cues=first_sight,
        attention_cues=attention,
        meta_more_power=_claims(changes, Claim.META_MORE),
        ui_changed=tuple(c.message for c in changes if c.rule in UI_RULES),
    )


def first_sight_blocking(cue: Cue) -> bool:
    """Whether ``cue``, carried by a tool seen for the first time, blocks it: its level is
    ``block``. A new tool's cues have been through the corroboration step
    (``engine/cue_corroborate.py``): a blocking cue of kind instruction, concealment,
    exfiltration or secret that rests on one reading alone is shown at ``attention`` under its
    kind's ``cue.<kind>.uncorroborated`` rule, so what still blocks here is corroborated, a path
    to a secret location, or hidden characters (which block through :func:`hidden_appeared`
    as their own reason as well)."""
    return cue.level is Level.BLOCK


def _worded(cues: Iterable[Cue]) -> tuple[str, ...]:
    return tuple(f"{c.kind} ({c.rule}): {c.text}" for c in sorted(cues, key=severity))
