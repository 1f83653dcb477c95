"""Cues: what server-written text asks of the model, and which of them a new text introduces.

For a pinned text and a new text (or a new text alone: first sight), :func:`introduced` lists the
cues the new text carries that the pinned one did not (docs/design.md, "Cues"). The rules
are catalogued in ``engine/rules/cues.py``; this module finds them.

How it reads a text, deterministically and in linear time (no regex here has a nested
quantifier, and none scans further than a fixed bound from where it starts):

- *runs* (``engine/cue_runs.py``): the text split on white space and quoting into chunks,
  each classified once by anchored patterns: URLs, e-mail addresses, IP addresses, domains,
  paths (secret locations apart), encoded blobs, names of other tools and servers;
- *words*: the lower-cased text as word tokens with sentence and clause boundaries. A verb is
  *imperative* when nothing but filler words ("please", "always", "you must", ...) precede it in
  its clause, or a modal does; a rule is a verb class acting on an object class in the same
  sentence ("read" + a secret location, "send" + a destination, "do not" + "tell" + the user):
  the word rules, sentence by sentence, live in ``engine/cue_find.py``.
- markup and the hidden-character detector (``engine/hidden.py``) run over the whole text.

A cue's identity is its rule and a normalised key (the URL, the path, the verb and object words
that fired): a cue is introduced when the pinned text at the same pointer (or, for a text with no
pinned predecessor, any pinned text of the definition) had none with the same identity, so an
honest rewording around an unchanged URL or instruction introduces nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from mcp_review.engine import cue_care as care
from mcp_review.engine.cue_change_claims import change_cues
from mcp_review.engine.cue_corroborate import corroborate
from mcp_review.engine.cue_directive import own_names_of
from mcp_review.engine.cue_families import family_cues
from mcp_review.engine.cue_find import _Found, _script_cues, _sentence_rules
from mcp_review.engine.cue_goals import goals_into
from mcp_review.engine.cue_hidden_first import first_hidden as _first_hidden
from mcp_review.engine.cue_model import model_cues
from mcp_review.engine.cue_runs import _run_cues
from mcp_review.engine.cue_scope import (
    is_section_tag,
    section_tags,
)
from mcp_review.engine.cue_sentences import _bounds, _sentences
from mcp_review.engine.cue_types import (
    _NO_NAMES,
    TEXT_CAP,
    Cue,
    KnownNames,
    cues_json,
    is_blocking,
    most_severe,
    needs_attention,
    severity,
)
from mcp_review.engine.cue_words import (
    _MD_IMAGE,
    _MD_LINK,
    _MIMIC_TAG,
    _TAG,
    _worth_reading,
)
from mcp_review.engine.dialects import dialect_of
from mcp_review.engine.readas import Copy, folded, leet, revealed
from mcp_review.engine.rules.cue_families import INSTRUCTION_TAGGED_SECTION, PATH_ENV_FILE
from mcp_review.engine.rules.cues import (
    HIDDEN_CHARACTERS,
    INSTRUCTION_SYSTEM_MIMICRY,
    MARKUP_IMAGE,
    MARKUP_LINK,
    MARKUP_TAG,
    SCRIPT_MIX_UNREADABLE,
    SECRET_PATH_RULE,
    Level,
)
from mcp_review.engine.textwalk import Role, tool_strings

__all__ = [
    "TEXT_CAP",
    "Cue",
    "KnownNames",
    "Level",
    "cues_json",
    "introduced",
    "is_blocking",
    "most_severe",
    "needs_attention",
    "severity",
    "text_cues",
    "tool_cues",
    "tool_texts",
]


def text_cues(
    text: str,
    pointer: str = "",
    *,
    names: KnownNames = _NO_NAMES,
    own_server: str = "",
    own_tool: str = "",
    own_names: frozenset[str] = frozenset(),
) -> list[Cue]:
    """Every cue ``text`` carries (first sight), in text order per rule family. The text is
    read as the model reads it (engine/readas.py): URLs, paths, addresses and blobs in copy *a*
    (hidden characters out, TAG text decoded), the word rules in copy *b* (NFKC, marks,
    look-alikes inside Latin words and leetspeak folded, case folded); each cue shows the
    original text it was read in."""
    if len(text) <= _MEMO_CHARS:
        memo_key = (text, own_server, own_tool, own_names, id(names))
        hit = _MEMO.get(memo_key)
        if hit is None or hit[0] is not names:  # an id reused by other names: not theirs
            hit = (names, tuple(_text_cues(text, "", names, own_server, own_tool, own_names)))
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            _MEMO[memo_key] = hit
        return [Cue(c.kind, c.text, pointer, c.rule, c.key, c.span) for c in hit[1]]
    return _text_cues(text, pointer, names, own_server, own_tool, own_names)


_MEMO_CHARS = 80
"""Texts this short are read once per fleet (``type`` names, property names, short titles
repeat across tools): the cues are a function of the text, the names and the owner."""
_MEMO_SIZE = 16_384
_MEMO: dict[tuple[str, str, str, frozenset[str], int], tuple[KnownNames, tuple[Cue, ...]]] = {}


def _text_cues(
    text: str,
    pointer: str,
    names: KnownNames,
    own_server: str,
    own_tool: str,
    own_names: frozenset[str] = frozenset(),
) -> list[Cue]:
    found = _Found(pointer, original=text, own_names=own_names, names=names, own_server=own_server)
    if not text:
        return found.out
    hidden = _first_hidden(text)
    own = frozenset({own_server}) if own_server else frozenset()
    if hidden:
        labels = " ".join(h.label for h in hidden[:20])
        found.add(HIDDEN_CHARACTERS, labels, labels)
    plain = Copy(text)
    if len(text) > _REVEAL_MAX and not text.isascii():
        # Too long to normalise whole: read as written, and a human reads it.
        odd = next((i for i, c in enumerate(text) if c >= "\x80"), 0)
        found.at = (odd, odd + 1)
        found.add(SCRIPT_MIX_UNREADABLE, text[odd], "too long to normalise")
        _read(plain, plain, text.lower(), found, own, own_tool, names)
        return found.out
    a = revealed(text)
    cased, low = folded(a)
    _read(a, cased, low, found, own, own_tool, names)
    if hidden:
        # Hidden characters may stand where a space was ("do<ZWSP>not<ZWSP>tell"): the text
        # as written is read too.
        _read(plain, plain, leet(text.lower()), found, own, own_tool, names)
    # the families and the goals read the revealed, folded copy (look-alikes and NFKC folded,
    # case kept: a header's capitals are part of what they look for), and the revealed copy
    # too: folding touches other scripts' letters the families read in six languages.
    found.view, found.at, found.only = cased, None, None
    family_cues(cased.text, found.add)
    if a.text != cased.text:
        found.view = a
        family_cues(a.text, found.add)
    goals_into(found, (cased, a), own_tool)  # what an instruction asks (engine/cue_goals.py)
    model_cues(cased.text, found.add)  # a learned reading (engine/cue_model.py), info
    return found.out


_REVEAL_MAX = 100_000
"""Characters of a non-ASCII text normalised at most (beyond: read as written, and shown at
``attention``)."""


def _read(
    a: Copy,
    b: Copy,
    low: str,
    found: _Found,
    own: frozenset[str],
    own_tool: str,
    names: KnownNames,
) -> None:
    """Every cue but the hidden characters, into ``found``: the runs and markup of copy ``a``,
    the words of copy ``b`` (cased; ``low`` its lower-cased text, of the same length)."""
    found.view = a
    spans = _run_cues(a.text, found, own, own_tool, names)
    if b is not a:
        # The folded copy's runs give the word rules their spans (in its own offsets), and
        # a secret location written in full-width or look-alike letters is one all the same.
        found.view = b
        found.only = frozenset({SECRET_PATH_RULE, PATH_ENV_FILE})
        spans = _run_cues(b.text, found, own, own_tool, names)
        found.only = None
    found.view = a
    for m in _MD_IMAGE.finditer(a.text):
        found.at = m.span()
        found.add(MARKUP_IMAGE, m.group(), m.group().lower())
    for m in _MD_LINK.finditer(a.text):
        found.at = m.span()
        found.add(MARKUP_LINK, m.group(), m.group().lower())
    for m in _TAG.finditer(a.text):
        tag = m.group()
        found.at = m.span()
        found.add(MARKUP_TAG, tag, tag.lower().split(None, 1)[0] if tag.strip() else tag)
    found.view = b
    text = b.text
    sections = section_tags(text) if "<" in text else frozenset()
    for m in _MIMIC_TAG.finditer(text):
        found.at = m.span()
        if care.scope_label(text, m.start()) or care.in_code_span(text, m.start()):
            continue  # "[system] error|warning|info|debug", "`[inst : C]`": a label, code
        if is_section_tag(m.group(), sections):
            # <instructions> as one of the tagged sections a description is laid out in
            found.add(INSTRUCTION_TAGGED_SECTION, m.group(), m.group().lower().strip(" </>"))
            continue
        found.add(INSTRUCTION_SYSTEM_MIMICRY, m.group(), m.group().lower().strip())
        break
    for x, y in _bounds(text):
        if _worth_reading(low, x, y, spans):
            for s in _sentences(text, low, x, y):
                _sentence_rules(text, s, spans, found)
    found.view = a
    _script_cues(a.text, found)
    found.at = None


# Texts of a definition --------------------------------------------------------------------------


def tool_texts(wire: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(pointer, text) for every server-written string of a tool definition a host may pass
    to the model: the one walk of engine/textwalk.py (name, title, description, every string
    anywhere in both schemas, annotations, ``_meta``), which the trust axis reads too."""
    for ptr, role, text in tool_strings(wire):
        if role is Role.IDENTIFIER and ptr.endswith("/$schema") and dialect_of({"$schema": text}):
            continue  # a standard meta-schema's URI (a known dialect): no server words in it
        yield ptr, text


def tool_cues(
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    *,
    names: KnownNames = _NO_NAMES,
    server: str = "",
) -> list[Cue]:
    """The cues ``new`` introduces over ``old`` (a definition's wire JSON); every cue of ``new``
    when ``old`` is None (first sight).

    Each text of ``new`` is compared with the pinned text at the same pointer: a cue is
    introduced when that text had none with the same rule and key. A text with no pinned
    predecessor (a new property, a moved text) is compared with every pinned text of the
    definition. A text present verbatim anywhere in ``old`` introduces nothing, and a pinned
    text is read only when a new one carries a cue. On a change, the sentences it adds are
    read once more (engine/cue_change.py: cues only a change raises)."""
    own_tool = new.get("name") if isinstance(new.get("name"), str) else ""
    kw: dict[str, Any] = {
        "names": names,
        "own_server": server,
        "own_tool": own_tool,
        "own_names": own_names_of(new),
    }
    old_map: dict[str, list[str]] = {}
    if old is not None:
        for p, o in tool_texts(old):
            old_map.setdefault(p, []).append(o)  # a key and its value share a pointer
    old_texts = {o for texts in old_map.values() for o in texts}
    whole: set[tuple[str, str]] | None = None
    out: list[Cue] = []
    done: set[tuple[str, str, str]] = set()
    for ptr, t in tool_texts(new):
        if t in old_texts:
            continue
        cues = text_cues(t, ptr, **kw)
        if not cues:
            continue
        before = old_map.get(ptr)
        if before is not None:
            pinned = {(c.rule, c.key) for o in before for c in text_cues(o, ptr, **kw)}
        else:
            if whole is None:
                whole = set()
                for p, olds in old_map.items():
                    for o in olds:
                        whole.update((c.rule, c.key) for c in text_cues(o, p, **kw))
            pinned = whole
        for c in cues:
            ident = (c.rule, c.key, c.pointer)
            if (c.rule, c.key) not in pinned and ident not in done:
                done.add(ident)
                out.append(c)
    if old is None:  # first sight: one reading alone is shown, not blocking (cue_corroborate)
        return corroborate(out, tool_texts(new), kw)
    return change_cues(old_map, tool_texts(new), out, kw)


def introduced(
    old: str | None,
    new: str,
    pointer: str = "",
    *,
    names: KnownNames = _NO_NAMES,
    own_server: str = "",
    own_tool: str = "",
    own_names: frozenset[str] = frozenset(),
) -> list[Cue]:
    """The cues ``new`` carries that ``old`` did not (all of them when ``old`` is None)."""
    kw: dict[str, Any] = {
        "names": names,
        "own_server": own_server,
        "own_tool": own_tool,
        "own_names": own_names,
    }
    if old is not None and old == new:
        return []
    pinned = {(c.rule, c.key) for c in text_cues(old, pointer, **kw)} if old else set()
    return [c for c in text_cues(new, pointer, **kw) if (c.rule, c.key) not in pinned]
