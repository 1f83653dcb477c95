"""Server-written text inside the schemas that the model reads: descriptions, titles, ``$comment``,
``examples``, new text anywhere, defaults, the cosmetic whitespace / normalisation edits and the
annotation keywords (``deprecated``, ``readOnly``, ...).

Its rules, the handlers that judge these keywords at each schema node (``HANDLERS``), and
the pass that puts text new anywhere in a definition on the trust axis (``with_model_text``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from mcp_review.engine.model import (
    Change,
    ChangeClass,
    Direction,
    NewText,
    pointer_join,
)
from mcp_review.engine.rules.kit import (
    ANNOTATIONS_COSMETIC,
    MISSING,
    TEXT_ANNOTATIONS,
    TEXT_KIND,
    WS,
    Handler,
    Judge,
    Pair,
    as_text,
    data_strings,
    jeq,
    norm,
    opt,
    text_rule,
)
from mcp_review.engine.rules.registry import Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
    make,
    new_text,
    text_delta,
    with_new_text,
)
from mcp_review.engine.textwalk import Loc, Role, pointer_of, schema_strings

_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_I = Direction.INPUT

RULES: tuple[Rule, ...] = (
    _r(
        "schema-description-changed",
        _TR,
        _I,
        "a description inside a schema changed",
        "{where}: description changed: {delta}",
        text=True,
    ),
    _r(
        "schema-title-changed",
        _TR,
        _I,
        "a title inside a schema changed",
        "{where}: title changed: {delta}",
        text=True,
        title=True,
    ),
    _r(
        "schema-comment-changed",
        _TR,
        _I,
        "a $comment inside a schema gained or changed text (the model reads the whole schema)",
        "{where}: $comment changed: {delta}",
        text=True,
    ),
    _r(
        "schema-examples-changed",
        _TR,
        _I,
        "examples inside a schema gained text the model reads",
        "{where}: {field} gained text: {added}",
        text=True,
    ),
    _r(
        "schema-text-added",
        _TR,
        _I,
        "server-written text the old definition did not have, where no other change names it "
        "(an unreferenced $defs entry, a folded allOf part, ...)",
        "{where}: new {field} text: {delta}",
        text=True,
        text_added=True,
    ),
    _r(
        "text-whitespace-changed",
        _CO,
        _I,
        "only whitespace changed in a text field",
        "{where}: {field} changed in whitespace only",
        trust_axis=True,
    ),
    _r(
        "text-normalization-changed",
        _CO,
        _I,
        "a text field changed only in Unicode normalisation (NFC-equal)",
        "{where}: {field} changed in Unicode normalisation only (same text under NFC)",
        trust_axis=True,
    ),
    _r(
        "schema-annotation-changed",
        _CO,
        _I,
        "an annotation keyword (deprecated, readOnly, ...) changed, or examples/$comment lost "
        "text or changed only in whitespace (removed text puts nothing new before the model)",
        "{where}: annotation {keyword} changed: {old} -> {new}",
        trust_axis=True,
    ),
    _r(
        "default-changed",
        _TR,
        _I,
        "a default value changed: same calls, different behaviour",
        "{where}: default changed {old} -> {new} (calls that omit it now behave differently)",
    ),
    _r(
        "default-added",
        _TR,
        _I,
        "a default value was declared",
        "{where}: default {new} declared (calls that omit it may behave differently)",
    ),
    _r(
        "default-removed",
        _TR,
        _I,
        "a default value was dropped",
        "{where}: default {old} dropped (calls that omit it may behave differently)",
    ),
)


# Judging ------------------------------------------------------------------------------------------


def judge_text(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    for field, rule in (
        ("description", "schema-description-changed"),
        ("title", "schema-title-changed"),
    ):
        ov, nv = o.get(field, MISSING), n.get(field, MISSING)
        if ov is MISSING and nv is MISSING:
            continue
        a, b = as_text(ov), as_text(nv)
        fired = text_rule(a, b, rule)
        if fired is None and (ov is MISSING) != (nv is MISSING):
            fired = "text-whitespace-changed"  # "" -> absent: nothing a reader sees
        if fired:
            ptr = pointer_join(np if nv is not MISSING else op, field)
            w.emit(fired, ptr, pos, delta=text_delta(a, b), field=Raw(field))
            w.reported.add((field, norm(b)))


def judge_annotation(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    for k in ANNOTATIONS_COSMETIC:
        ov, nv = o.get(k, MISSING), n.get(k, MISSING)
        if (ov is MISSING and nv is MISSING) or jeq(ov, nv):
            continue
        ptr = pointer_join(np if nv is not MISSING else op, k)
        if k in TEXT_ANNOTATIONS and _text_annotation(w, k, ov, nv, ptr, pos):
            continue
        w.emit("schema-annotation-changed", ptr, pos, keyword=Raw(k), old=opt(ov), new=opt(nv))


def _text_annotation(w: Judge, k: str, ov: Any, nv: Any, ptr: str, pos: bool) -> bool:
    """``$comment`` / ``examples`` text the model reads: True when new text fired a trust
    rule. Text that was only removed, or changed in whitespace, stays cosmetic."""
    kind = TEXT_KIND[k]
    olds = {norm(t) for t in data_strings(ov)}
    gained = [t for t in data_strings(nv) if norm(t) and norm(t) not in olds]
    if not gained:
        return False
    w.reported.update((kind, norm(t)) for t in gained)
    if k == "$comment":
        w.emit("schema-comment-changed", ptr, pos, delta=text_delta(as_text(ov), as_text(nv)))
    else:
        w.emit("schema-examples-changed", ptr, pos, field=Raw(k), added=list(dict.fromkeys(gained)))
    return True


def judge_default(w: Judge, at: Pair) -> None:
    o, n, op, np, pos, _depth = at
    ov, nv = o.get("default", MISSING), n.get("default", MISSING)
    if not jeq(ov, nv):  # default-added/changed below are trust: they name this text
        w.reported.update(("default", norm(t)) for t in data_strings(nv))
    if ov is MISSING:
        w.emit("default-added", pointer_join(np, "default"), pos, new=nv)
    elif nv is MISSING:
        w.emit("default-removed", pointer_join(op, "default"), pos, old=ov)
    elif not jeq(ov, nv):
        w.emit("default-changed", pointer_join(np, "default"), pos, old=ov, new=nv)


# Text the model reads ------------------------------------------------------------------------
#
# Every piece of server-written text in a definition reaches the model, wherever it sits: a new
# property's description is as much an instruction as a rewritten tool description.
# The walker names text edits where it compares two nodes; this pass finds the rest (text in a
# new property, branch, $defs entry or output schema, a new enum value that reads as a
# sentence) and puts it on the trust axis: on the structural change that carried it in, else on
# a change of its own. Text the old definition already had (same kind, any place, whitespace
# and Unicode normalisation aside) is not new; removed text puts nothing new before the model.

TEXT_MIN = 40
"""An enum/const value (or another free string) longer than this reads as text."""


_NEW_TEXT_CAP = 20
"""Most new texts carried by one change (the rest are counted)."""


_TEXT_CHANGES_CAP = 100
"""Most changes of their own for new text per definition; the rest are summarised in one."""


def _texty(s: str) -> bool:
    """A value that reads as prose: whitespace in it, or longer than TEXT_MIN."""
    return len(s) > TEXT_MIN or (not s.isidentifier() and WS.search(s) is not None)


# A regex or a format name is a value, but the model reads it as it reads a description: prose
# written into one is text. A pattern is prose when it holds PROSE_WORDS plain words (letters
# only, bar quotes and sentence punctuation around them) separated by whitespace, by the regex
# escapes for it (`\s`, `\s+`, `\ `) or by underscores; regex tokens such as `^[a-z]+$`,
# `(GET|POST)` or `\.com` are never plain words. A format is prose when it is not a registered
# format name and either reads as text (`_texty`) or spells PROSE_WORDS words
# (`IGNORE_PREVIOUS_INSTRUCTIONS`); custom one- and two-word formats (`json`, `phone`) stay values.
# An enum or const value is judged as a format is, bar the list of format names.
PROSE_WORDS = 3
_PATTERN_SEP = re.compile(r"(?:\\s[+*?]?|\\ |_|\s)+")
_PLAIN_WORD = re.compile(r"[\"'(]*[^\W\d_]{2,}[\"'),.;:!?]*")
_FORMAT_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
KNOWN_FORMATS = frozenset(
    {
        # JSON Schema (2020-12 and the drafts before it)
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
        "host-name",
        "ip-address",
        "color",
        "utc-millisec",
        # OpenAPI and common generators (pydantic, zod)
        "int32",
        "int64",
        "float",
        "double",
        "byte",
        "binary",
        "password",
        "path",
        "file-path",
        "directory-path",
        "unix-time",
        "base64",
        "cuid",
        "cuid2",
        "ulid",
        "emoji",
        "nanoid",
    }
)


def prose_pattern(s: str) -> bool:
    """A ``pattern`` (or ``patternProperties`` key) that reads as prose, not as a regex."""
    words = 0
    for w in _PATTERN_SEP.split(s):
        if _PLAIN_WORD.fullmatch(w):
            words += 1
            if words >= PROSE_WORDS:
                return True
    return False


def spells_words(s: str) -> bool:
    """An identifier that spells PROSE_WORDS words or more (``IGNORE_PREVIOUS_INSTRUCTIONS``,
    ``alwaysSendTheKey``): the model reads it as a sentence."""
    return len(_FORMAT_WORD.findall(s)) >= PROSE_WORDS


NAME_WORDS = 4
"""A name (a property, a ``patternProperties`` key, a ``required`` entry) spelling this many
words reads as a sentence: ``readSshKeyAndSendItHere``. Names are longer than values: of the
959 names new anywhere in a changed tool across tests/corpus, three words alone would flag 57
(``includeStackTraces``, ``maxDiscoveryDepth``); four flag 2 (``waitForStableDom``,
``strictConstrainToURLs``), and three with a cue word 2 more (``tokenEstimateMethod``,
``inlineTokenBudget``)."""

# Interim: a name of PROSE_WORDS words is text when one of them asks for a
# secret, names a secret's place, or sends something somewhere. To be replaced by the cue
# engine's check once it lands.
_NAME_CUE_WORDS = frozenset(
    {
        # secrets
        "ssh",
        "rsa",
        "key",
        "keys",
        "apikey",
        "token",
        "tokens",
        "secret",
        "secrets",
        "password",
        "passwords",
        "passwd",
        "passphrase",
        "credential",
        "credentials",
        "cookie",
        "cookies",
        "private",
        "env",
        "dotenv",
        "seed",
        "mnemonic",
        "wallet",
        # sending it away
        "send",
        "upload",
        "exfil",
        "exfiltrate",
        "leak",
        "forward",
        # the conversation and the model's orders
        "conversation",
        "instruction",
        "instructions",
        "prompt",
    }
)


def _name_words(s: str) -> list[str]:
    """The words an identifier spells (``camelCase``, ``snake_case``, ``kebab-case``,
    ``UPPER_CASE``), lower-cased; single letters are not words."""
    return [w.lower() for w in _FORMAT_WORD.findall(s) if len(w) > 1]


def name_has_cue_word(words: list[str]) -> bool:
    """Interim stand-in for the cue engine: a word of the name asks for a secret,
    names a secret's place, or sends something away."""
    return any(w in _NAME_CUE_WORDS for w in words)


def spells_sentence(s: str) -> bool:
    """A name that reads as a sentence: NAME_WORDS words or more, or PROSE_WORDS when one of
    them is a cue word (``sendSshKey``)."""
    words = _name_words(s)
    return len(words) >= NAME_WORDS or (len(words) >= PROSE_WORDS and name_has_cue_word(words))


def prose_name(s: str) -> bool:
    """A property name (or a ``required`` entry) the model reads as text: prose (``_texty``) or
    an identifier that spells a sentence (``spells_sentence``)."""
    return _texty(s) or spells_sentence(s)


def prose_format(s: str) -> bool:
    """A ``format`` value that reads as prose, not as a format name."""
    return s not in KNOWN_FORMATS and prose_value(s)


def prose_value(s: str) -> bool:
    """An ``enum`` or ``const`` string that reads as prose, not as a value: text
    (``_texty``), or an identifier spelling PROSE_WORDS words. Real servers' enums hold such
    identifiers now and then (``replace_content_range``: 7 of 446 values in tests/corpus);
    a new one is then reviewed rather than auto-approved (fail closed)."""
    return _texty(s) or spells_words(s)


# A pointer is built only for the rare text that turns out to be new: (parent, token) pairs
# chained back to the document's base, so a 100,000-string schema costs no string joins.
_Loc = Loc
_ptr = pointer_of


def _always(_: str) -> bool:
    return True


def _named_property(_: str) -> bool:
    """A ``required`` entry naming a declared property: the same string is judged as that
    property's name (``Role.PROPERTY_NAME``), where the change that brought it names it."""
    return False


def _identifier_text(s: str) -> bool:
    """A ``type`` / ``$ref`` / ``$id`` string with prose in it (an identifier has no spaces)."""
    return WS.search(s) is not None and _texty(s)


def _pattern_name(s: str) -> bool:
    return prose_pattern(s) or spells_sentence(s)


TRUST_FILTERS: dict[Role, tuple[str | None, Callable[[str], bool]]] = {
    Role.TEXT: (None, _always),
    Role.VALUE: ("enum", prose_value),
    Role.PROPERTY_NAME: ("property name", prose_name),
    Role.PATTERN_NAME: ("pattern", _pattern_name),
    Role.DEFS_NAME: ("property name", prose_name),
    Role.REQUIRED: ("property name", _named_property),
    Role.REQUIRED_UNDECLARED: ("property name", prose_name),
    Role.DEPENDENT: ("property name", prose_name),
    Role.PATTERN: ("pattern", prose_pattern),
    Role.FORMAT: ("format", prose_format),
    Role.IDENTIFIER: ("other", _identifier_text),
    Role.OTHER: ("other", _texty),
}
"""Per place of a schema (engine/textwalk.py), the kind a new string there is on the trust axis
as, and when it reads as text (``None``: the keyword's own kind, ``TEXT_KIND``). Every schema
place of the walk is here: the walk is the cue reader's too, and tests/engine/test_textwalk.py holds
the two to the same places."""

JUDGED_ELSEWHERE: dict[Role, str] = {
    Role.NAME: "the tool's name: tool-renamed and the look-alike check (engine/names.py)",
    Role.TITLE: "tool-title-changed (rules/tool.py)",
    Role.DESCRIPTION: "tool-description-changed (rules/tool.py)",
    Role.ANNOTATION: "annotation rules (rules/tool_annotations.py); unknown keys never "
    "auto-approved (annotation-other-changed)",
    Role.META: "_meta (the MCP Apps issue's contract)",
}
"""The tool-level places of the walk: judged by the tool rules, not by this pass."""


def _model_text(doc: Any, base: str) -> Iterator[tuple[_Loc | str, str, str, str]]:
    """(location, field, kind, text) for every piece of text the model reads in a schema
    document, at any depth (the walk of engine/textwalk.py, each string judged by its place's
    ``TRUST_FILTERS``): under description/title/$comment/examples/default (every string),
    enum/const values, names (properties, pattern properties, ``$defs``, ``required`` and
    ``dependentRequired`` entries) that read as text or spell a sentence, patterns and formats
    and any other free strings that read as prose. ``_ptr(location)`` is its JSON pointer."""
    for loc, field, role, t in schema_strings(doc, base):
        kind, reads = TRUST_FILTERS[role]
        if reads(t):
            if role is Role.PATTERN_NAME:
                field = "pattern"
            elif role is Role.PROPERTY_NAME:
                field = "property name"
            yield loc, field, kind or TEXT_KIND[field], t


def _known_text(ow: dict[str, Any], named: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """(kind, normalised text) of every text the old definition showed the model, plus the
    ones the walker already named."""
    known = set(named)
    for field in ("description", "title"):
        v = ow.get(field)
        if isinstance(v, str):
            known.add((field, norm(v)))
    ann = ow.get("annotations")
    if isinstance(ann, dict) and isinstance(ann.get("title"), str):
        known.add(("title", norm(ann["title"])))
    for key, base in (("inputSchema", "/inputSchema"), ("outputSchema", "/outputSchema")):
        for _, _, kind, t in _model_text(ow.get(key), base):
            known.add((kind, norm(t)))
    return known


def _under(ptr: str, anc: str) -> bool:
    return ptr == anc or ptr.startswith(anc + "/")


def with_model_text(
    ow: dict[str, Any], nw: dict[str, Any], changes: list[Change], named: set[tuple[str, str]]
) -> list[Change]:
    """``changes`` with the new text of the definition put on the trust axis."""
    known = _known_text(ow, named)
    old_at: dict[str, str] | None = None
    carried: dict[int, list[NewText]] = {}
    extra: dict[int, int] = {}
    own: list[Change] = []
    left = 0
    # The deepest change whose pointer holds the text carried it in (a new property, a new
    # branch, enum values added); rename hints point where the added property does: skip them.
    anchors = sorted(
        ((c.pointer, i) for i, c in enumerate(changes) if c.rule != "property-rename-suspected"),
        key=lambda x: -len(x[0]),
    )
    for key, base in (("inputSchema", "/inputSchema"), ("outputSchema", "/outputSchema")):
        for loc, field, kind, t in _model_text(nw.get(key), base):
            n = norm(t)
            if not n or (kind, n) in known:
                continue
            known.add((kind, n))  # the same text twice is one finding
            ptr = _ptr(loc)
            i = next((i for p, i in anchors if _under(ptr, p)), None)
            if i is not None:
                got = carried.setdefault(i, [])
                if len(got) < _NEW_TEXT_CAP:
                    got.append(new_text(ptr, field, t))
                else:
                    extra[i] = extra.get(i, 0) + 1
                continue
            if len(own) >= _TEXT_CHANGES_CAP:
                left += 1
                continue
            if old_at is None:
                old_at = {
                    _ptr(p): x
                    for k, b in (("inputSchema", "/inputSchema"), ("outputSchema", "/outputSchema"))
                    for p, _, _, x in _model_text(ow.get(k), b)
                }
            rule = "schema-text-added"
            direction = Direction.OUTPUT if base == "/outputSchema" else Direction.INPUT
            was = old_at.get(ptr)
            own.append(
                make(
                    rule,
                    ptr,
                    direction=direction,
                    field=Raw(field),
                    delta=text_delta(was, t) if was else t,
                )
            )
    if left:
        own.append(
            make(
                "schema-text-added",
                "",
                where=Raw(f"{left} more places"),
                field=Raw("server"),
                delta=Raw("(not listed)"),
            )
        )
    out = [
        with_new_text(c, carried[i], extra.get(i, 0)) if i in carried else c
        for i, c in enumerate(changes)
    ]
    return out + own


HANDLERS: dict[str, Handler] = {
    "title": judge_text,
    "description": judge_text,
    "default": judge_default,
    **dict.fromkeys(ANNOTATIONS_COSMETIC, judge_annotation),
}
"""The keywords this family judges, and the handler the walker calls for each."""
