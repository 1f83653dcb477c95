"""The first hidden characters of a text, as the cue reader shows them (``engine/cues.py``):
the detector of ``engine/hidden.py`` over growing windows, an emoji or text presentation
selector after a symbol ("⚠️") not counted. Its own module so the cue reader stays within the
module size the repository holds every hand-written module to."""

from __future__ import annotations

import re
import unicodedata

from mcp_review.engine.hidden import HiddenChar, find_hidden, has_hidden

__all__ = ["first_hidden"]

_HIDDEN_WINDOW = 4096


def first_hidden(text: str) -> list[HiddenChar]:
    """The first hidden characters of ``text`` (the cue shows at most 20): the detector of
    engine/hidden.py over growing windows, so a megabyte of them is not listed whole."""
    if not has_hidden(text):
        return []
    a = 0
    while a < len(text):
        found = [
            h
            for h in find_hidden(text[a : a + _HIDDEN_WINDOW])
            if not _presentation_selector(text, a + h.offset)
        ]
        if found:
            return found[:20]
        a += _HIDDEN_WINDOW - 16  # an ANSI sequence cut at the edge is found whole next time
    return [h for h in find_hidden(text) if not _presentation_selector(text, h.offset)][:20]


_PRESENTATION = frozenset("\ufe0e\ufe0f")
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _presentation_selector(text: str, i: int) -> bool:
    """Whether the character at ``i`` is one text or emoji presentation selector after a
    symbol ("⚠️", "✔️", the keycap "1️⃣"), as keyboards write them: it selects how the symbol
    looks and carries nothing. A selector after a letter, or next to another selector (the
    runs that smuggle bytes), is still hidden text."""
    if text[i] not in _PRESENTATION or i == 0:
        return False
    before = text[i - 1]
    after = text[i + 1 : i + 2]
    if _SELECTORS.match(before) or (after and _SELECTORS.match(after)):
        return False
    if unicodedata.category(before) in ("So", "Sm", "Sk"):
        return True
    return before in "0123456789#*" and after == "\u20e3"
