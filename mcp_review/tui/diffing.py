"""Side-by-side diff model: aligned line pairs with word-level change spans (pure, no Textual).

Text is made visible first (``hidden.visible``) so hidden characters show up in the diff as
tokens, and the spans of those tokens are kept so the UI can mark them apart from the diff.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Literal

from mcp_review.engine.canonical import normalize
from mcp_review.engine.cue_types import matched_text
from mcp_review.engine.hidden import find_hidden
from mcp_review.engine.model import pointer_escape

Span = tuple[int, int]
RowKind = Literal["equal", "replace", "delete", "insert"]

WORD_DIFF_LIMIT = 4_000_000
"""Largest token-count product word-diffed; past it the whole line is marked (difflib is
quadratic in the worst case, and a hostile 100 KB description must not freeze the UI)."""

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


@dataclass(slots=True)
class VisibleText:
    """Text with hidden characters replaced by tokens, and where those tokens are."""

    text: str
    hidden: list[Span] = field(default_factory=list)


def make_visible(s: str) -> VisibleText:
    """Like ``hidden.visible`` but also returns the spans of the inserted tokens."""
    out: list[str] = []
    spans: list[Span] = []
    pos = n = 0
    for h in find_hidden(s):
        chunk = s[pos : h.offset]
        out.append(chunk)
        n += len(chunk)
        out.append(h.label)
        spans.append((n, n + len(h.label)))
        n += len(h.label)
        pos = h.offset + len(h.text)
    out.append(s[pos:])
    return VisibleText("".join(out), spans)


@dataclass(slots=True)
class Side:
    """One side of a row: the line number (1-based), the visible text, and its marks."""

    number: int
    text: str
    changed: list[Span] = field(default_factory=list)
    hidden: list[Span] = field(default_factory=list)
    cues: list[CueMark] = field(default_factory=list)
    """Cue spans (engine/cues.py), each followed in :attr:`text` by its kind's label."""


@dataclass(frozen=True, slots=True)
class CueMark:
    """A cue found in a side's text: the matched span, the label after it, and whether the
    cue blocks (styled apart)."""

    span: Span
    label: Span
    kind: str
    blocking: bool


CueText = tuple[str, str, bool]
"""A cue to mark: its matched text (as escaped, ``Cue.text``), its kind in words, blocking."""


_TAG_TOKEN = re.compile(r"⟨TAG (.)⟩")


def _reading(side: Side, *, tags: bool) -> tuple[str, list[Span]]:
    """The line as the cue engine reads it (engine.cues reads a text without its hidden
    characters, and apart the ASCII smuggled in TAG characters): the hidden-character tokens
    left out, or with ``tags`` each ``⟨TAG x⟩`` read as ``x``; and for each character of that
    reading, its span in the shown line."""
    text = side.text
    out: list[str] = []
    where: list[Span] = []
    pos = 0
    for a, b in side.hidden:
        for i in range(pos, a):
            out.append(text[i])
            where.append((i, i + 1))
        m = _TAG_TOKEN.fullmatch(text, a, b) if tags else None
        if m is not None:
            out.append(m.group(1))
            where.append((a, b))
        pos = b
    for i in range(pos, len(text)):
        out.append(text[i])
        where.append((i, i + 1))
    return "".join(out), where


def _cue_patterns(text: str) -> list[re.Pattern[str]]:
    """A cue's text as it is found in a line: whatever the whitespace between its words (the
    engine reads a sentence run on without a full stop, a tab or a line break as one), and a
    text the engine cut ("…") by what it kept, to the end of the word it was cut in (a label
    never splits a word), a reader's reason after the text left out
    (``engine.cue_types.matched_text``); and, where it differs, as a JSON string writes it (the
    Schema tab's pretty JSON escapes a quote or a backslash, and writes a line break or a tab
    between two words as ``\\n`` or ``\\t``)."""
    text = matched_text(text)
    cut = text.endswith("…") and len(text) > 1
    if cut:
        text = text[:-1]
    words = text.split()
    if not words:
        return []
    tail = r"\w*" if cut else ""
    between = r"(?:\s|\\[nrt])+"  # white space, or a JSON string's line break or tab
    out = [re.compile(between.join(re.escape(w) for w in words) + tail)]
    escaped = [json.dumps(w, ensure_ascii=False)[1:-1] for w in words]
    if escaped != words:
        out.append(re.compile(between.join(re.escape(w) for w in escaped) + tail))
    return out


def mark_cues(rows: list[Row], cues: list[CueText]) -> int:
    """Mark each cue's text where it occurs on the new side of ``rows``, and write its kind
    after it as a label (``«kind»``), moving the line's other spans. The text searched is the
    visible text (hidden characters as the same tokens ``safe_text`` writes), so a cue is found
    as the operator reads it, whatever the whitespace between its words; a cue cut at
    ``TEXT_CAP`` is marked as far as the engine kept it; one spanning lines is not marked (the
    review header lists every cue). Kinds found on one span share its label
    (``«concealment, exfiltration»``). Returns the number of spans marked."""
    marked = 0
    for row in rows:
        side = row.right
        if side is None or not side.text:
            continue
        spans: dict[tuple[int, int], tuple[list[str], bool]] = {}
        readings = [
            (side.text, [(i, i + 1) for i in range(len(side.text))]),
            _reading(side, tags=False),
            _reading(side, tags=True),
        ]
        for text, kind, blocking in cues:
            for pattern, (plain, where) in product(_cue_patterns(text), readings):
                for m in pattern.finditer(plain):
                    span = (where[m.start()][0], where[m.end() - 1][1])
                    # Kinds sharing one span are listed together
                    # («instruction» was hidden under «concealment»).
                    kinds, block = spans.get(span, ([], False))
                    if kind not in kinds:
                        kinds.append(kind)
                    spans[span] = (kinds, block or blocking)
        if not spans:
            continue
        found = [(a, b, ", ".join(k), bl) for (a, b), (k, bl) in spans.items()]
        found.sort(key=lambda f: (f[1], f[0]))  # labels in the order their spans end
        labels = [(f[1], f"«{f[2]}»") for f in found]

        def start(x: int, labels: list[tuple[int, str]] = labels) -> int:
            return x + sum(len(t) for p, t in labels if p <= x)  # a label at x precedes x

        def end(x: int, labels: list[tuple[int, str]] = labels) -> int:
            return x + sum(len(t) for p, t in labels if p < x)  # labels at x follow the span

        old = side.text
        out: list[str] = []
        pos = 0
        for p, t in labels:
            out.append(old[pos:p])
            out.append(t)
            pos = p
        out.append(old[pos:])
        side.text = "".join(out)
        side.changed = [(start(a), end(b)) for a, b in side.changed]
        side.hidden = [(start(a), end(b)) for a, b in side.hidden]
        marks: list[CueMark] = []
        at_end: dict[int, int] = {}
        for a, b, kind, blocking in found:
            lab = end(b) + at_end.get(b, 0)
            at_end[b] = at_end.get(b, 0) + len(kind) + 2
            marks.append(CueMark((start(a), end(b)), (lab, lab + len(kind) + 2), kind, blocking))
            marked += 1
        side.cues = marks
    return marked


@dataclass(slots=True)
class Row:
    kind: RowKind
    left: Side | None
    right: Side | None


def _split(vt: VisibleText) -> list[Side]:
    sides: list[Side] = []
    start = 0
    spans = vt.hidden
    si = 0
    for i, line in enumerate(vt.text.split("\n"), 1):
        end = start + len(line)
        hid: list[Span] = []
        while si < len(spans) and spans[si][0] < end:
            a, b = spans[si]
            hid.append((max(a, start) - start, min(b, end) - start))
            if b <= end:
                si += 1
            else:
                break
        sides.append(Side(i, line, [], hid))
        start = end + 1
    return sides


def word_spans(a: str, b: str) -> tuple[list[Span], list[Span]]:
    """Character spans that differ between two lines, at word granularity."""
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    if len(ta) * len(tb) > WORD_DIFF_LIMIT:
        return ([(0, len(a))] if a else []), ([(0, len(b))] if b else [])
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    oa = [0]
    for t in ta:
        oa.append(oa[-1] + len(t))
    ob = [0]
    for t in tb:
        ob.append(ob[-1] + len(t))
    sa: list[Span] = []
    sb: list[Span] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            sa.append((oa[i1], oa[i2]))
        if j2 > j1:
            sb.append((ob[j1], ob[j2]))
    return sa, sb


WORD_DIFF_BUDGET = 20_000_000
"""Token-count products word-diffed in one side-by-side diff (:func:`align_bounded`): a 1 MB
description rewritten line by line would otherwise cost minutes of difflib. Past it, each
changed line is marked whole and the view says where the word diff stopped."""


def align(old: str | None, new: str | None) -> list[Row]:
    """Aligned rows for a side-by-side view of two texts (None = absent on that side)."""
    return align_bounded(old, new, None)[0]


def align_bounded(
    old: str | None, new: str | None, budget: int | None = WORD_DIFF_BUDGET
) -> tuple[list[Row], int | None]:
    """:func:`align` with at most ``budget`` token-count products word-diffed in total (None:
    no total bound, only the per-line WORD_DIFF_LIMIT). Returns the rows and, when the budget
    ran out, the index of the first row whose changed lines are marked whole instead of word
    by word (every later changed row is too); hidden-character tokens are marked either way."""
    left = _split(make_visible(old)) if old is not None else []
    right = _split(make_visible(new)) if new is not None else []
    sm = difflib.SequenceMatcher(
        None, [s.text for s in left], [s.text for s in right], autojunk=False
    )
    rows: list[Row] = []
    left_budget = budget
    truncated: int | None = None
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            rows.extend(Row("equal", left[i1 + k], right[j1 + k]) for k in range(i2 - i1))
            continue
        for lside, rside in pair_lines(left[i1:i2], right[j1:j2]):
            if lside and rside:
                if left_budget is not None and truncated is None:
                    cost = len(_TOKEN.findall(lside.text)) * len(_TOKEN.findall(rside.text))
                    if cost > left_budget:
                        truncated = len(rows)
                    else:
                        left_budget -= cost
                if truncated is None:
                    lside.changed, rside.changed = word_spans(lside.text, rside.text)
                else:
                    lside.changed = [(0, len(lside.text))] if lside.text else []
                    rside.changed = [(0, len(rside.text))] if rside.text else []
                rows.append(Row("replace", lside, rside))
            elif lside:
                lside.changed = [(0, len(lside.text))] if lside.text else []
                rows.append(Row("delete", lside, None))
            elif rside:
                rside.changed = [(0, len(rside.text))] if rside.text else []
                rows.append(Row("insert", None, rside))
    return rows, truncated


PAIR_LIMIT = 400
"""Largest (old lines x new lines) of a changed block whose lines are paired by likeness;
past it they are paired in order."""
PAIR_CUTOFF = 0.3
"""Least likeness (difflib ratio over the lines' words) for two lines to be one changed line."""
_WORD = re.compile(r"\w+")


def pair_lines(ls: list[Side], rs: list[Side]) -> list[tuple[Side | None, Side | None]]:
    """The lines of a changed block as rows: each old line beside the new line most like it
    (so a line inserted above a changed one, a ``"default"`` key above a property's
    ``"description"``, never takes its place and hides what the changed line gained), the
    others alone on their side; in order on both sides. Blocks past ``PAIR_LIMIT``, and lines
    nothing is like, pair in order."""
    if not ls or not rs or len(ls) * len(rs) > PAIR_LIMIT:
        return _in_order(ls, rs)
    lw = [_WORD.findall(x.text) for x in ls]
    rw = [_WORD.findall(x.text) for x in rs]
    out: list[tuple[Side | None, Side | None]] = []

    def walk(a1: int, a2: int, b1: int, b2: int) -> None:
        best, bi, bj = PAIR_CUTOFF, -1, -1
        sm = difflib.SequenceMatcher(autojunk=False)
        for j in range(b1, b2):
            sm.set_seq2(rw[j])
            for i in range(a1, a2):
                sm.set_seq1(lw[i])
                if sm.real_quick_ratio() > best and sm.quick_ratio() > best:
                    r = sm.ratio()
                    if r > best:
                        best, bi, bj = r, i, j
        if bi < 0:
            out.extend(_in_order(ls[a1:a2], rs[b1:b2]))
            return
        walk(a1, bi, b1, bj)
        out.append((ls[bi], rs[bj]))
        walk(bi + 1, a2, bj + 1, b2)

    walk(0, len(ls), 0, len(rs))
    return out


def _in_order(ls: list[Side], rs: list[Side]) -> list[tuple[Side | None, Side | None]]:
    return [
        (ls[k] if k < len(ls) else None, rs[k] if k < len(rs) else None)
        for k in range(max(len(ls), len(rs)))
    ]


Field = tuple[str | None, str | None]
"""One text field's pinned and current text (None: absent on that side)."""


def align_fields(
    fields: list[Field], budget: int | None = WORD_DIFF_BUDGET
) -> tuple[list[Row], int | None]:
    """Aligned rows for several text fields shown as one (a tool's title, then its
    description): each field diffed against its own counterpart only, so a title added in the
    same release never stands beside the old description. Fields absent on both sides are
    left out; the others are separated by one blank row, and each side's lines are numbered
    as if its fields were one text joined by blank lines. Bounded as :func:`align_bounded`
    (the budget shared by the fields); the index returned is of the first row whose changed
    lines are marked whole."""
    shown = [(o, n) for o, n in fields if o is not None or n is not None]
    if len(shown) <= 1:
        return align_bounded(*(shown[0] if shown else (None, None)), budget)
    rows: list[Row] = []
    truncated: int | None = None
    left_n = right_n = 0
    for k, (old, new) in enumerate(shown):
        if k:
            lsep = Side(left_n + 1, "") if left_n else None
            rsep = Side(right_n + 1, "") if right_n else None
            left_n += 1 if lsep else 0
            right_n += 1 if rsep else 0
            rows.append(Row("equal", lsep, rsep))
        part, cut = align_bounded(old, new, budget)
        if truncated is None and cut is not None:
            truncated = len(rows) + cut
        if budget is not None:
            budget = 0 if cut is not None else budget  # one budget: spent once cut
        top_l = top_r = 0
        for row in part:
            if row.left is not None:
                row.left.number += left_n
                top_l = row.left.number
            if row.right is not None:
                row.right.number += right_n
                top_r = row.right.number
        left_n = max(left_n, top_l)
        right_n = max(right_n, top_r)
        rows.extend(part)
    return rows, truncated


# Pretty JSON with a map from JSON pointer to line ------------------------------------------


def pretty_with_lines(value: Any) -> tuple[str, dict[str, int]]:
    """Sorted, indented JSON (same text as ``canonical.pretty_json``) and, for every JSON
    pointer inside it, the 1-based line where that value starts."""
    lines: list[str] = []
    where: dict[str, int] = {}

    def emit(v: Any, ptr: str, indent: str, prefix: str, suffix: str) -> None:
        where[ptr] = len(lines) + 1
        if isinstance(v, dict) and v:
            lines.append(f"{indent}{prefix}{{")
            keys = sorted(v)
            for i, k in enumerate(keys):
                tok = pointer_escape(k)
                emit(
                    v[k],
                    f"{ptr}/{tok}",
                    indent + "  ",
                    json.dumps(k, ensure_ascii=False) + ": ",
                    "," if i < len(keys) - 1 else "",
                )
            lines.append(f"{indent}}}{suffix}")
        elif isinstance(v, list) and v:
            lines.append(f"{indent}{prefix}[")
            for i, x in enumerate(v):
                emit(x, f"{ptr}/{i}", indent + "  ", "", "," if i < len(v) - 1 else "")
            lines.append(f"{indent}]{suffix}")
        else:
            lines.append(f"{indent}{prefix}{json.dumps(v, ensure_ascii=False)}{suffix}")

    emit(normalize(value), "", "", "", "")
    return "\n".join(lines), where


def line_for_pointer(where: dict[str, int], pointer: str) -> int | None:
    """Line of ``pointer``, or of its nearest ancestor present in the document."""
    p = pointer
    while True:
        if p in where:
            return where[p]
        if not p:
            return None
        p = p.rsplit("/", 1)[0]
