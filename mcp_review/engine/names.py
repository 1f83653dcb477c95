"""Tool and server names on the command line: an escaped form anyone can type, and "did you mean".

A tool name can hold letters nobody can type or tell apart (a Cyrillic ``е`` in ``rеad_file``,
a zero-width space, a line break). Reports show such a name marked (``rе⟨U+0435⟩ad_file``) and,
beside it, its escaped form ``r\\u0435ad_file``; every command that takes a tool name accepts
that form. Pure: no I/O.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from mcp_review.engine.hidden import is_confusable_name, mark_lookalikes, safe_text, skeleton

_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[nrt\\])")


def escape_name(name: str) -> str:
    """``name`` in printable ASCII: ``\\uXXXX`` (``\\UXXXXXXXX`` above the BMP) for every other
    character, ``\\n``/``\\r``/``\\t``/``\\\\`` for those. ``unescape_name`` reverses it."""
    out: list[str] = []
    for c in name:
        cp = ord(c)
        if c in _NAMED:
            out.append(_NAMED[c])
        elif 0x20 <= cp <= 0x7E:
            out.append(c)
        elif cp <= 0xFFFF:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(f"\\U{cp:08x}")
    return "".join(out)


def unescape_name(text: str) -> str:
    """The name an escaped form stands for (``r\\u0435ad_file`` → ``rеad_file``). Backslashes
    that start no escape are kept as they are."""

    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] in "uUx":
            return chr(int(e[1:], 16)) if int(e[1:], 16) <= 0x10FFFF else m.group()
        return {"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}[e]

    return _ESCAPE_RE.sub(one, text)


def needs_escape(name: str) -> bool:
    """True when the name as reports show it is not what one types: hidden characters, line
    breaks or look-alike letters are marked in it."""
    return safe_text(mark_lookalikes(name)) != name


def with_escape(shown: str, name: str) -> str:
    """``shown`` (the name as a report prints it) followed by its escaped form when it has one
    worth giving: ``rе⟨U+0435⟩ad_file (as r\\u0435ad_file)``."""
    return f"{shown} (as {escape_name(name)})" if needs_escape(name) else shown


def find_name(given: str, names: Iterable[str]) -> str | None:
    """The name ``given`` addresses among ``names``: itself, else its unescaped form."""
    pool = set(names)
    if given in pool:
        return given
    if "\\" in given:
        plain = unescape_name(given)
        if plain in pool:
            return plain
    return None


def suggest(given: str, names: Iterable[str], n: int = 3) -> list[str]:
    """Names close to ``given`` (a typo, or a look-alike of it), closest first."""
    pool = sorted(set(names))
    target = unescape_name(given)
    out: list[str] = []
    # Same skeleton first: typing ``read_file`` for a served ``rеad_file`` (or the reverse).
    out.extend(x for x in pool if is_confusable_name(x, target))
    sk = skeleton(target)
    if out:
        return out[:n]
    by_skeleton = {skeleton(x): x for x in pool}
    close = difflib.get_close_matches(sk, list(by_skeleton), n=n, cutoff=0.75)
    if not close:
        return []
    # Only the names about as close as the best one: a near miss, not a list of guesses.
    best = difflib.SequenceMatcher(None, sk, close[0]).ratio()
    return [
        by_skeleton[m] for m in close if difflib.SequenceMatcher(None, sk, m).ratio() >= best - 0.05
    ]


def did_you_mean(given: str, names: Iterable[str]) -> str:
    """`` Did you mean 'x'?`` (each name shown safely, with its escaped form when it needs
    one), or "" when nothing is close."""
    close = suggest(given, names)
    if not close:
        return ""
    shown = [with_escape(f"'{safe_text(mark_lookalikes(x))}'", x) for x in close]
    return " Did you mean " + " or ".join(shown) + "?"
