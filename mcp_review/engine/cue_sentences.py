"""Sentences, clauses and runs: how ``engine/cues.py`` cuts a text before reading it.

Split from ``engine/cues.py`` (docs/design.md, "Cues"); each scan is linear and bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from mcp_review.engine.cue_types import TEXT_CAP
from mcp_review.engine.cue_words import (
    _BREAKS,
    _ENDS,
    _TRAIL,
    _VERBS,
    _WORD,
    CLAUSE_BREAK,
    FILLER,
    MODAL,
    NEG,
    TO_MODAL,
)
from mcp_review.engine.hidden import safe_text


def _snip(s: str) -> str:
    """The matched text as every server string is shown: escaped, at most TEXT_CAP chars."""
    s = safe_text(s[: TEXT_CAP + 1])
    return s if len(s) <= TEXT_CAP else s[: TEXT_CAP - 1] + "\u2026"


@dataclass(slots=True)
class _Sentence:
    start: int
    end: int
    words: list[str]
    starts: list[int]
    imperative: list[bool]
    negated: list[bool]
    condition: list[bool]
    """The word stands in a conditional clause ("If not found, ...", "If your client cannot
    show you a prompt, ..."): it states when, not what the model is told to do."""


_ARTICLES = frozenset(("a", "an", "the"))
_CONDITIONS = frozenset(("if", "unless", "when", "whenever"))
"""Words that open a conditional clause: its negation ("If not found, ask the user") ends at
its comma, and what it says is a condition, not an order."""


def _sentences(text: str, low: str, a: int, b: int) -> list[_Sentence]:
    """The sentences of ``text[a:b]`` as words (``low`` is ``text.lower()``), each word marked
    imperative or negated."""
    out: list[_Sentence] = []
    words: list[str] = []
    starts: list[int] = []
    imp: list[bool] = []
    neg: list[bool] = []
    cond: list[bool] = []
    clause: list[str] = []  # non-filler words since the clause began
    in_cond = False  # the clause began with "if", "unless", "when"
    use_head = False  # the clause began with an imperative "use"
    p1 = p2 = p3 = ""
    s_start = a
    for m in _WORD.finditer(low, a, b):
        w = m.group()
        if w in _ENDS:
            if words:
                _noun_heads(words, imp)
                out.append(_Sentence(s_start, m.end(), words, starts, imp, neg, cond))
            words, starts, imp, neg, clause, cond = [], [], [], [], [], []
            in_cond = False
            p1 = p2 = p3 = ""
            s_start = m.end()
            continue
        if w in _BREAKS:
            clause = []
            if in_cond and w == ",":
                # the condition ends here, and its negation with it: "If not provided, ask
                # the user ..." asks; "Do not, if asked, tell the user" opens on no condition
                p1 = p2 = p3 = ""
                in_cond = False
            if w == ";":
                # a clause of its own: "This cannot be undone; confirm with the user first"
                # (the negation stays behind the semicolon)
                p1 = p2 = p3 = ""
            continue
        w = w.replace("\u2019", "'")
        if (
            clause
            and w in _VERBS
            and text[m.start()].isupper()
            and text[m.start() + 1 : m.start() + 2].islower()
        ):
            # A capitalised verb inside a sentence starts a clause: text appended to a
            # description without a full stop ("... media feature Ask the user ...").
            clause = []
        # The three words before (p1 nearest): kept in locals, this loop runs per word.
        modal = p1 in MODAL or p2 in MODAL or p3 in MODAL or (p1 == "to" and p2 in TO_MODAL)
        # "Use X to <verb>": the purpose clause of an imperative "use" is an imperative too.
        purpose = p1 == "to" and use_head
        # A word just after an article is a noun ("and a place where he makes the request"),
        # not an order, whatever filler came before.
        imp.append((not clause or modal or purpose) and p1 not in _ARTICLES)
        neg.append(p1 in NEG or p2 in NEG or p3 in NEG)
        if not words and w in _CONDITIONS:
            in_cond = True  # a sentence that opens on its condition
        cond.append(in_cond)
        p3, p2, p1 = p2, p1, w
        words.append(w)
        starts.append(m.start())
        if w in CLAUSE_BREAK:
            clause = []
        elif w not in FILLER:
            if not clause:
                # not a negated "use" ("do not use that to pass a credential")
                use_head = w == "use" and imp[-1] and not neg[-1]
            clause.append(w)
    if words:
        _noun_heads(words, imp)
        out.append(_Sentence(s_start, b, words, starts, imp, neg, cond))
    return out


_BE = frozenset("is are was were".split())


def _noun_heads(words: list[str], imp: list[bool]) -> None:
    """Unmark a verb-looking word that opens a subject ("Upload credentials are generated and
    used internally", "Search results are cached"): a noun and then *is* or *are* right after
    it make it a noun's modifier, not an order."""
    for i in range(len(words) - 2):
        if imp[i] and words[i + 2] in _BE and words[i + 1] not in FILLER and words[i + 1].isalpha():
            imp[i] = False


_END = re.compile(r"[.!?](?=\s|$|\*\*|- )|\n|(?<=[a-z0-9)])- (?=[A-Z])")
"""Where a sentence or line ends: a stop before a space, bold markup or a list's dash, a line
break, or a list item run on without one ("... as a record.**Note**:The supported field types
...: - Text: Enter a value in string format- Number: Enter a value ...")."""


def _bounds(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each sentence or line of ``text``."""
    a = 0
    for m in _END.finditer(text):
        if m.end() - a > 1:
            yield a, m.end()
        a = m.end()
    if a < len(text):
        yield a, len(text)


@dataclass(slots=True)
class _Run:
    start: int
    end: int
    text: str
    quoted: bool


def _run_at(text: str, s: int, raw: str) -> _Run | None:
    """The run ``raw`` found at ``s``, its trailing full stop or colon left out, and whether it
    is quoted (backticks, quotes)."""
    core = raw.rstrip(_TRAIL)
    if not core:
        return None
    before = text[s - 1] if s else ""
    after = text[s + len(core)] if s + len(core) < len(text) else ""
    quoted = bool(before) and before in _QUOTES and bool(after) and after in _QUOTES
    return _Run(s, s + len(core), core, quoted or before == "`")


_QUOTES = "`'\""


def windows(
    text: str, sentence: re.Pattern[str], window: int, min_chars: int = 0
) -> Iterator[tuple[int, str]]:
    """(offset, sentence) of each match of ``sentence`` in ``text`` at least ``min_chars``
    long, a longer one than ``window`` cut into windows overlapping by half (each character
    read at most twice: linear). The directive reader and the learned cue cut their sentences
    this way, each with its own sentence pattern and window."""
    step = window // 2
    for m in sentence.finditer(text):
        a, b = m.span()
        if b - a < min_chars:
            continue
        if b - a <= window:
            yield a, m.group(0)
            continue
        for x in range(a, b, step):
            yield x, text[x : min(b, x + window)]
            if x + window >= b:
                break
