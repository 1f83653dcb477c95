"""Tool and server names on the command line: an escaped form anyone can type, and "did you mean".

A tool name can hold letters nobody can type or tell apart (a Cyrillic ``е`` in ``rеad_file``,
a zero-width space, a line break). Reports show such a name marked (``rе⟨U+0435⟩ad_file``) and,
beside it, its escaped form ``r\\u0435ad_file``; every command that takes a tool name accepts
that form. Pure: no I/O.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from mcp_review.engine.errors import InputError
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


def find_name(given: str, names: Iterable[str] | Mapping[str, str | None]) -> str | None:
    """The name ``given`` addresses among ``names``: itself, or its unescaped form; None when
    neither is one of them.

    A name given on the command line must name exactly one tool: when it reads as one tool
    literally and as another once unescaped (a tool named ``x\\u200by``, with a real
    backslash, beside ``x`` + zero-width space + ``y``, whose printed form is that same text),
    :class:`AmbiguousName` is raised, listing both (with their digests when ``names`` maps
    each name to its digest) and a form that names each alone. Never the exact match by
    default: the printed command for one would decide the other."""
    pool: Mapping[str, str | None] = (
        names if isinstance(names, Mapping) else dict.fromkeys(names, None)
    )
    hits = [given] if given in pool else []
    if "\\" in given:
        plain = unescape_name(given)
        if plain != given and plain in pool:
            hits.append(plain)
    if len(hits) > 1:
        raise AmbiguousName(given, [(h, pool[h]) for h in hits], pool)
    return hits[0] if hits else None


def unambiguous_form(name: str, pool: Iterable[str]) -> str:
    """A form of ``name`` that :func:`find_name` resolves to it alone among ``pool``: its
    escaped form when that is, else every character beyond ASCII as ``\\UXXXXXXXX`` and every
    backslash doubled (no other name can read so)."""
    names = set(pool)
    long = "".join(
        "\\\\" if c == "\\" else c if 0x20 <= ord(c) <= 0x7E else f"\\U{ord(c):08x}" for c in name
    )
    for form in (escape_name(name), long):
        hits = {form} & names
        if "\\" in form and unescape_name(form) in names:
            hits.add(unescape_name(form))
        if hits == {name}:
            return form
    return long


class AmbiguousName(InputError):
    """A name given on the command line that names more than one tool (see find_name)."""

    def __init__(self, given: str, matches: list[tuple[str, str | None]], pool: Iterable[str] = ()):
        self.given = given
        self.matches = [name for name, _ in matches]
        names = list(pool)
        rows = []
        for name, digest in matches:
            d = f" {digest}" if digest else ""
            rows.append(
                f"  '{safe_text(mark_lookalikes(name))}'{d}: name it alone as "
                f"{unambiguous_form(name, names)}"
            )
        super().__init__(
            f"'{safe_text(given)}' names {len(matches)} tools (read as it is, and with its "
            "escapes read): nothing was decided. The tools:\n" + "\n".join(rows)
        )


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


KNOWN_LISTED = 20
"""Names an error lists at most (``known: a, b, … and 12 more``)."""


def shown(name: str) -> str:
    """A name as an error quotes it: ``'rе⟨U+0435⟩ad_file' (as r\\u0435ad_file)``, every
    hidden or look-alike character marked, its escaped form beside it when it has one (the
    command line's own ``!r`` would print a look-alike as it is, and a bidi control raw)."""
    return with_escape(f"'{safe_text(mark_lookalikes(name))}'", name)


def known_names(names: Iterable[str], what: str = "", limit: int = KNOWN_LISTED) -> str:
    """``known servers: a, b, c`` (``what`` the plural noun, none: ``known: …``; sorted, each
    name marked as :func:`shown` marks it, unquoted; at most ``limit``, then ``… and N more``),
    or ``no servers known``."""
    pool = sorted(set(names))
    noun = f" {what}" if what else ""
    if not pool:
        return f"no{noun or ' names'} known"
    listed = [with_escape(safe_text(mark_lookalikes(n)), n) for n in pool[:limit]]
    more = f", … and {len(pool) - limit} more" if len(pool) > limit else ""
    return f"known{noun}: " + ", ".join(listed) + more


def not_found(given: str, names: Iterable[str], what: str = "") -> str:
    """What a "no such server/tool/prompt/…" error ends with: `` (known tools: a, b). Did you
    mean 'a'?`` (the suggestion only when one is close)."""
    pool = list(names)
    return f" ({known_names(pool, what)})." + did_you_mean(given, pool)
