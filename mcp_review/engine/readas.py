"""Read a text as the model reads it: two normalised copies, each with an offset
map back to the original, so a cue found in a copy is shown (and marked in the diff) as the
operator sees it.

- :func:`revealed` (copy *a*, for URLs, paths, addresses and encoded blobs): the text with its
  hidden characters removed (they are reported on their own) and Unicode TAG text decoded in
  place, on a line of its own.
- :func:`folded` (copy *b*, for the word rules): copy *a*, then per character NFKD with the
  combining marks dropped and NFC again (full-width, mathematical and accented letters read as
  their plain letter), letters of another script inside a Latin word folded to their Latin
  look-alike (per word: the names' whole-string skeleton turns ``m`` into ``rn`` and would
  break URLs, numbers and non-Latin words), leetspeak digits inside words folded, lower-cased.
  It comes as two strings of one length: the cased one (a capital letter starts a clause, a
  marker such as ``SYSTEM:`` is read from it) and the lower-cased one the words are read from.
  Whitespace runs are one separator to the word reader.

Linear in the text's length; characters are folded through a bounded cache. Engine layer: pure.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from mcp_review.engine.hidden import find_hidden, has_hidden, latin_lookalike

__all__ = ["Copy", "folded", "leet", "revealed"]


@dataclass(frozen=True, slots=True)
class Copy:
    """A normalised copy of an original text: ``text`` and, for each of its characters, the
    offset of the original character it comes from (``at``; None when the copy is the original
    itself)."""

    text: str
    at: list[int] | None = None

    def orig(self, i: int) -> int:
        return i if self.at is None else self.at[i]

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The original span of the copy's ``[a, b)`` (``b > a``)."""
        if self.at is None:
            return a, b
        if b <= a:
            o = self.at[a] if a < len(self.at) else (self.at[-1] + 1 if self.at else 0)
            return o, o
        return self.at[a], self.at[b - 1] + 1


def revealed(text: str) -> Copy:
    """Copy *a*: hidden characters out, TAG characters decoded where they stand (a TAG run is
    read as a line of its own, as a host that renders it would show it)."""
    if not has_hidden(text):
        return Copy(text)
    out: list[str] = []
    at: list[int] = []
    pos = 0
    tag_end = -1  # where the last TAG run ended, while it is still open
    for h in find_hidden(text):
        if pos < h.offset:
            if tag_end >= 0:
                out.append("\n")
                at.append(tag_end - 1)
                tag_end = -1
            out.append(text[pos : h.offset])
            at.extend(range(pos, h.offset))
        pos = h.offset + len(h.text)
        inner = ord(h.text) - 0xE0000 if len(h.text) == 1 else -1
        if h.kind == "tag" and 0x20 <= inner <= 0x7E:
            if tag_end < 0:
                out.append("\n")
                at.append(h.offset)
            out.append(chr(inner))
            at.append(h.offset)
            tag_end = pos
    if pos < len(text):
        if tag_end >= 0:
            out.append("\n")
            at.append(tag_end - 1)
        out.append(text[pos:])
        at.extend(range(pos, len(text)))
    return Copy("".join(out), at)


_LEET = str.maketrans("013457", "oieast")
_DIGITS = re.compile(r"[0-9]+")


def leet(low: str) -> str:
    """Leetspeak digits inside words read as the letters they stand for (``passw0rd``,
    ``1gnore``, ``t0ken``): a run of digits touching a letter. Numbers on their own, and digits
    between other digits or punctuation (``v1.2.3``, ``127.0.0.1``), stay."""
    if not any(c in low for c in "013457"):
        return low

    def fold(m: re.Match[str]) -> str:
        a, b = m.span()
        if low[b : b + 1] == "." and low[b + 1 : b + 2].isdigit():
            return m.group()  # a version or an address: v1.2.3
        if (a and low[a - 1].isalpha()) or (b < len(low) and low[b].isalpha()):
            return m.group().translate(_LEET)
        return m.group()

    return _DIGITS.sub(fold, low)


_FOLD_CACHE: dict[str, str] = {}


def _fold_char(c: str) -> str:
    f = _FOLD_CACHE.get(c)
    if f is None:
        d = unicodedata.normalize("NFKD", c)
        d = "".join(x for x in d if not unicodedata.combining(x))
        f = unicodedata.normalize("NFC", d) if d else ""
        if len(_FOLD_CACHE) < 65536:
            _FOLD_CACHE[c] = f
    return f


_LETTERS = re.compile(r"[^\W\d_]+")


def folded(a: Copy) -> tuple[Copy, str]:
    """Copy *b* of copy *a*: (the cased copy with its map to the original, the lower-cased
    text of the same length that the word rules read)."""
    t = a.text
    if t.isascii():
        return a, leet(t.lower())
    cased: list[str] = []
    low: list[str] = []
    at: list[int] = []
    for i, c in enumerate(t):
        f = c if c < "\x80" else _fold_char(c)
        if not f:
            continue
        o = a.orig(i)
        for x in f:
            cased.append(x)
            lx = x.lower()
            low.append(lx if len(lx) == 1 else x)
            at.append(o)
    s = "".join(cased)
    if not s.isascii():
        # Letters of another script inside a Latin word read as their Latin look-alike.
        for m in _LETTERS.finditer(s):
            w = m.group()
            if w.isascii() or not any(ch < "\x80" for ch in w):
                continue
            for j, ch in enumerate(w, m.start()):
                if ch >= "\x80":
                    lat = latin_lookalike(ch)
                    if lat:
                        cased[j] = lat
                        low[j] = lat.lower()
        s = "".join(cased)
    return Copy(s, at), leet("".join(low))
