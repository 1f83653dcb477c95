"""The words of a change: quoting server values, and rendering a rule's message template.

A rule (see ``registry`` and the family modules) decides *that* something changed; ``make``
turns it into a ``Change`` that carries its parameters (server values already quoted: visible,
single-line, bounded), and ``render_change`` fills the rule's template with them. The formats
and the app call ``render_change`` (oasdiff's messages.yaml habit: messages apart from logic,
keyed by rule id), so the CLI and the TUI word a change identically, and another wording is one
table away.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from mcp_review.engine.hidden import decode_tags, find_hidden, visible
from mcp_review.engine.model import (
    Change,
    ChangeClass,
    Direction,
    NewText,
    install_renderer,
    pointer_tokens,
)
from mcp_review.engine.rules.registry import Rule

_TABLE: list[Mapping[str, Rule]] = []
"""The rule registry, installed by ``catalog`` once it is built (:func:`install_rules`): the
families that ``catalog`` assembles make their changes with this module, so it cannot import
``catalog`` without a circle."""


def install_rules(table: Mapping[str, Rule]) -> None:
    """Set the registry :func:`make` and :func:`render_change` read (``catalog`` calls it)."""
    _TABLE[:] = [table]


def _rules() -> Mapping[str, Rule]:
    if not _TABLE:
        raise RuntimeError("no rule registry installed: import mcp_review.engine.rules first")
    return _TABLE[0]


QUOTE_CAP = 200
"""Longest quoted server value in a message (characters, before the ellipsis)."""


# Quoting -------------------------------------------------------------------------------------


class Raw(str):
    """Text written by us (not the server): inserted into a message as is."""

    __slots__ = ()


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _cap(s: str, cap: int = QUOTE_CAP) -> str:
    return s if len(s) <= cap else s[:cap] + "…"


def _safe(s: str) -> str:
    s = visible(s)
    if _SURROGATE.search(s):  # a lone surrogate would crash whoever prints the message
        s = _SURROGATE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", s)
    return s


def quote(value: Any, cap: int = QUOTE_CAP) -> str:
    """A server value as a short, single-line, visible literal (JSON-style quoting)."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, str):
        # Cut before escaping so a 10 MB description costs O(cap), not O(size).
        cut = len(value) > cap
        text = json.dumps(_safe(value[:cap]), ensure_ascii=False)
        return text + ("…" if cut else "")
    if isinstance(value, (list, tuple, set, frozenset)):
        parts: list[str] = []
        used = 0
        items = list(value)
        for i, item in enumerate(items):
            q = quote(item, max(20, cap - used))
            parts.append(q)
            used += len(q) + 2
            if used > cap and i < len(items) - 1:
                parts.append(f"… {len(items) - i - 1} more")
                break
        return "[" + ", ".join(parts) + "]"
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return _cap(_safe(_cap(text, cap * 4)), cap)


def where(pointer: str) -> str:
    """A short human label for a schema location: ``property 'a.b[]'``, ``input schema``."""
    toks = pointer_tokens(pointer)
    if not toks:
        return "tool"
    side = {"inputSchema": "input", "outputSchema": "output"}.get(toks[0], toks[0])
    path = ""
    i = 1
    named = False
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if (
            t in ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
            and nxt is not None
        ):
            sep = "" if not path else "."
            label = nxt if t == "properties" else f"{t}/{nxt}"
            path += sep + _cap(_safe(label), 60)
            named = named or t == "properties"
            i += 2
            continue
        if t in ("prefixItems", "anyOf", "oneOf", "allOf") and nxt is not None:
            path += f"[{nxt}]" if t == "prefixItems" else f"<{t} {nxt}>"
            i += 2
            continue
        if t in ("items", "additionalItems"):
            path += "[]"
        elif t == "additionalProperties":
            path += ".*"
        elif t in ("not", "if", "then", "else", "contains", "propertyNames"):
            path += f"<{t}>"
        else:
            break  # a keyword at the end (enum, minimum, ...): not part of the location
        i += 1
    if not path:
        return f"{side} schema"
    return f"{side} property '{path}'" if named else f"{side} schema '{path}'"


def make(
    rule_id: str,
    pointer: str,
    *,
    cls: ChangeClass | None = None,
    direction: Direction | None = None,
    **params: Any,
) -> Change:
    """A Change of ``rule_id`` at ``pointer`` carrying ``params``, each quoted safely.

    ``cls`` overrides the registry class (the walker passes the polarity-adjusted class);
    ``direction`` defaults to the rule's. ``where`` is derived from the pointer unless given,
    ``parent`` too when the template names it.
    """
    rule = _rules()[rule_id]
    fields = {k: quote(v) for k, v in params.items()}
    fields.setdefault("where", where(pointer))
    if "{parent}" in rule.message and "parent" not in fields:
        toks = pointer.split("/")
        fields["parent"] = where(
            "/".join(toks[:-2] if len(toks) > 2 and toks[-2] == "properties" else toks)
        )
    return Change(
        rule_id, cls or rule.cls, pointer, tuple(fields.items()), direction or rule.direction
    )


OUTSIDE_TEMPLATES: dict[str, str] = {}
"""Templates of changes judged outside the schema walk, so outside the registry (engine/hosts.py
registers ``host-regression`` and ``host-degrade``: they need the user's target hosts, which a
pair of definitions alone does not give)."""


def render_change(change: Change, templates: Mapping[str, str] | None = None) -> str:
    """The message of ``change``: its rule's template (from ``templates`` when given, else the
    registry's) filled with the change's quoted parameters, then the new text it carries.

    Never raises: a template that names a parameter the change lacks, or a rule this registry
    does not know, falls back to the rule's purpose (or id) with every parameter listed."""
    fields = dict(change.params)
    rule = _rules().get(change.rule)
    template = (templates or {}).get(change.rule) or (
        rule.message if rule else OUTSIDE_TEMPLATES.get(change.rule)
    )
    try:
        if template is None:
            raise KeyError(change.rule)
        message = template.format(**fields)
    except (KeyError, IndexError, ValueError, AttributeError):
        what = rule.purpose if rule else change.rule
        message = f"{what} ({', '.join(f'{k}={v}' for k, v in fields.items())})"
    if change.new_text:
        items = change.new_text
        shown = ", ".join(f"{t.field} {t.text}" for t in items[:NEW_TEXT_SHOWN])
        extra = len(items) - NEW_TEXT_SHOWN + change.new_text_more
        message += (
            "; new text the model reads: " + shown + (f" (+{extra} more)" if extra > 0 else "")
        )
    return message


DELTA_ADDED_CAP = 600
"""Characters of added text a delta quotes in all (every ``{+…+}`` of it together); a longer
addition keeps its head and its tail and says how much is left out between them."""
DELTA_REMOVED_CAP = 120
"""Characters of removed text a delta quotes in all."""
DELTA_HUNKS = 24
"""Separate changes a delta shows before it counts the rest."""
DELTA_WORD_LIMIT = 1_000_000
"""Largest token-count product of the changed middles diffed word by word (~0.1 s of difflib);
past it the middle is one change, its added text capped at head and tail."""

_DELTA_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def text_delta(old: str | None, new: str | None, context: int = 40) -> Raw:
    """What changed between two texts, word by word, visible and bounded:
    ``…common [-removed-]{+added+} common [-…-]{+…+} common…``.

    Every stretch of added text is its own ``{+…+}``, whatever else changed around it (a
    sentence planted at the end of a description reworded at its start is marked, not buried
    in one span from the first change to the last and cut short). The common prefix and suffix
    are found in O(size) first; only the middle between them is diffed word by word (bounded
    by ``DELTA_WORD_LIMIT``), and the message is O(caps)."""
    a, b = old or "", new or ""
    if not a:
        added = "{+" + _safe(_cap_mid(b, DELTA_ADDED_CAP)) + "+}"
        return Raw("(none) -> " + json.dumps(added, ensure_ascii=False))
    if not b:
        return Raw(quote(a) + " -> (none)")
    pre, suf = _ends(a, b)
    head = a[max(0, pre - context) : pre]
    tail = a[len(a) - suf : len(a) - suf + context]
    out = ("…" if pre > context else "") + _safe(head)
    out += _hunks(a[pre : len(a) - suf], b[pre : len(b) - suf], context)
    out += _safe(tail) + ("…" if suf > context else "")
    return Raw(json.dumps(out, ensure_ascii=False))


def _ends(a: str, b: str) -> tuple[int, int]:
    """The lengths of the common prefix and suffix of two different texts, each cut back to a
    word's edge (``version`` -> ``versions`` is the word changed, not ``{+s+}``)."""
    n = min(len(a), len(b))
    pre = common_length(lambda k: a[:k] == b[:k], n)
    suf = common_length(lambda k: a[len(a) - k :] == b[len(b) - k :], n - pre)

    def word(s: str, i: int) -> bool:
        return 0 <= i < len(s) and (s[i].isalnum() or s[i] == "_")

    if word(a, pre) or word(b, pre):
        while pre and word(a, pre - 1):
            pre -= 1
    if word(a, len(a) - suf - 1) or word(b, len(b) - suf - 1):
        while suf and word(a, len(a) - suf):
            suf -= 1
    return pre, suf


def _pieces(gone: str, came: str) -> list[tuple[str, str, str]]:
    """The middles as (common text before, removed, added) hunks, word by word when they are
    small enough (else one hunk); whitespace alone between two changes joins them."""
    if len(gone) * len(came) > 16 * DELTA_WORD_LIMIT:  # not even tokenised (a 10 MB rewrite)
        return [("", gone, came)]
    ta, tb = _DELTA_TOKEN.findall(gone), _DELTA_TOKEN.findall(came)
    if not ta or not tb or len(ta) * len(tb) > DELTA_WORD_LIMIT:
        return [("", gone, came)]
    hunks: list[list[str]] = []
    eq = ""
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            eq = "".join(ta[i1:i2])
            continue
        g, c = "".join(ta[i1:i2]), "".join(tb[j1:j2])
        if hunks and not eq.strip():
            hunks[-1][1] += eq + g
            hunks[-1][2] += eq + c
        else:
            hunks.append([eq, g, c])
        eq = ""
    if eq:
        hunks.append([eq, "", ""])
    return [(e, g, c) for e, g, c in hunks]


def _hunks(gone: str, came: str, context: int) -> str:
    out = ""
    added, removed, shown = DELTA_ADDED_CAP, DELTA_REMOVED_CAP, 0
    pieces = _pieces(gone, came)
    changes = sum(1 for _, g, c in pieces if g or c)
    for eq, g, c in pieces:
        if eq:
            out += _safe(eq if len(eq) <= 2 * context + 1 else eq[:context] + "…" + eq[-context:])
        if not (g or c):
            continue
        if shown == DELTA_HUNKS:
            out += f"… ({changes - shown} more changes)"
            break
        shown += 1
        if g:
            out += "[-" + _safe(_cap(g, max(removed, 1))) + "-]"
            removed = max(removed - len(g), 0)
        if c:
            out += "{+" + _safe(_cap_mid(c, max(added, 40))) + "+}"
            added = max(added - len(c), 0)
    return out


def added_text(old: str | None, new: str | None) -> str:
    """The text ``new`` adds to ``old``, word by word as :func:`text_delta` finds it: its
    added stretches joined by " … " (raw server text: quote it before showing it)."""
    a, b = old or "", new or ""
    if not a:
        return b
    pre, suf = _ends(a, b)
    parts = [c.strip() for _, _, c in _pieces(a[pre : len(a) - suf], b[pre : len(b) - suf])]
    return " … ".join(p for p in parts if p)


def _cap_mid(s: str, cap: int) -> str:
    """``s`` cut to about ``cap`` characters keeping its head and its tail (what is planted at
    the end of a long addition stays in view), saying how much was left out."""
    if len(s) <= cap:
        return s
    half = cap // 2
    return s[:half] + f" …({len(s) - 2 * half} characters)… " + s[len(s) - half :]


def common_length(same: Callable[[int], bool], limit: int) -> int:
    """Longest k <= limit with same(k): a binary search over C-speed slice comparisons, so a
    10 MB description is not walked character by character in Python."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def hidden_tokens(text: str, cap: int = 12) -> tuple[Raw, Raw]:
    """(the distinct visible tokens of hidden characters in ``text``, the decoded TAG text)."""
    seen: dict[str, int] = {}
    for h in find_hidden(text):
        seen[h.label] = seen.get(h.label, 0) + 1
    labels = [f"{k}×{v}" if v > 1 else k for k, v in seen.items()]
    shown = " ".join(labels[:cap]) + (
        f" … {len(labels) - cap} more kinds" if len(labels) > cap else ""
    )
    tags = decode_tags(text)
    decoded = f"; TAG text decodes to {quote(tags)}" if tags else ""
    return Raw(_safe(shown)), Raw(decoded)


NEW_TEXT_SHOWN = 2
"""New texts quoted in a change's message (all of them, up to the cap, are in ``new_text``)."""
NEW_TEXT_QUOTE = 160


def new_text(pointer: str, field: str, text: str) -> NewText:
    """A NewText with the server's ``text`` (and a server-named ``field``) made visible and
    bounded, as every quoted server value is."""
    return NewText(pointer, _safe(_cap(field, 60)), quote(text, NEW_TEXT_QUOTE))


def with_new_text(change: Change, items: list[NewText], more: int = 0) -> Change:
    """``change`` carrying ``items`` on the trust axis (``more``: how many were left out);
    ``render_change`` names them at the end of its message, so every output that shows the message
    shows the text too."""
    return dataclasses.replace(
        change, new_text=change.new_text + tuple(items), new_text_more=change.new_text_more + more
    )


install_renderer(render_change)  # Change.message words a change this way (model.py)
