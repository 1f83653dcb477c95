"""Hidden characters: find them in untrusted text, and make them visible.

Flagged: every invisible code point by Unicode property (``unicode_tables.INVISIBLE``, generated
from the UCD: Default_Ignorable_Code_Point, format characters (Cf), variation selectors, the TAG
block U+E0000–E007F used to smuggle ASCII invisibly, and the blank-looking letters such as
U+2800), C0/C1 controls other than tab and newline, and ANSI escape sequences (which start with
ESC, a C0 control). Space separators other than U+0020 are not flagged: honest French and CJK
text uses them (names show them marked, see ``mark_lookalikes``). ``visible()`` turns each into a
bracketed token (``⟨U+200B⟩``, ``⟨ESC⟩``, ``⟨TAG a⟩``) so the evidence is shown, never hidden or
interpreted. The result is plain text: callers still render it as data, not markup.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mcp_review.engine.unicode_tables import INVISIBLE, SPACE_SEPARATORS

try:
    import orjson

    _orjson: ModuleType | None = orjson
except ImportError:  # pragma: no cover - a declared dependency
    _orjson = None

_ZERO_WIDTH = {
    0x200B: "ZWSP",
    0x200C: "ZWNJ",
    0x200D: "ZWJ",
    0x2060: "WJ",
    0xFEFF: "BOM",
    0x180E: "MVS",
    0x00AD: "SHY",
    0x034F: "CGJ",
    0x2061: "FA",
    0x2062: "IT",
    0x2063: "IS",
    0x2064: "IP",
    0x115F: "HCF",
    0x1160: "HJF",
    0x3164: "HF",
    0xFFA0: "HWHF",
}
_BIDI = {
    0x200E: "LRM",
    0x200F: "RLM",
    0x061C: "ALM",
    0x202A: "LRE",
    0x202B: "RLE",
    0x202C: "PDF",
    0x202D: "LRO",
    0x202E: "RLO",
    0x2066: "LRI",
    0x2067: "RLI",
    0x2068: "FSI",
    0x2069: "PDI",
}
_C0_NAMES = {
    0x00: "NUL",
    0x07: "BEL",
    0x08: "BS",
    0x0B: "VT",
    0x0C: "FF",
    0x0D: "CR",
    0x1B: "ESC",
    0x7F: "DEL",
}


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in ranges)


_INVISIBLE_CLASS = _char_class(INVISIBLE)

# One alternation: ANSI CSI/OSC sequences first (so they are reported whole), then single chars.
_HIDDEN_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL/ST
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f" + _INVISIBLE_CLASS + "]"
)


# The single characters of _HIDDEN_RE (no ANSI sequences: ESC alone is enough to escape), plus
# the line separators and lone surrogates (which no UTF-8 stream can even encode).
_HIDDEN_CHAR_RE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff" + _INVISIBLE_CLASS + "]"
)


def _json_escape(m: re.Match[str]) -> str:
    cp = ord(m.group())
    if cp > 0xFFFF:
        cp -= 0x10000
        return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"
    return f"\\u{cp:04x}"


def json_dumps_safe(value: Any, **kw: Any) -> str:
    """``json.dumps`` for output a person may read in a terminal: readable Unicode is kept, but
    every hidden or terminal-active character (C1 controls such as the 8-bit CSI, bidi
    controls, zero-width and TAG characters, line separators) is written as a ``\\u`` escape.
    Same JSON value, nothing invisible or interpreted. Outside strings JSON is plain ASCII, so
    only string contents are touched."""
    return _HIDDEN_CHAR_RE.sub(_json_escape, json.dumps(value, ensure_ascii=False, **kw))


def escape_hidden_json(text: str) -> str:
    """JSON text (from any serialiser that keeps Unicode) with every hidden or
    terminal-active character written as a ``\\u`` escape, as :func:`json_dumps_safe` does."""
    # Printable ASCII (0x20-0x7E) holds none of them: skip the scan (a streamed report's
    # entries are one such line each, ~15 µs of regex apiece otherwise).
    if text.isascii() and text.isprintable():
        return text
    return _HIDDEN_CHAR_RE.sub(_json_escape, text)


@dataclass(frozen=True, slots=True)
class HiddenChar:
    offset: int
    text: str
    kind: str  # zero-width | invisible | bidi | tag | control | ansi | variation-selector
    label: str  # the visible token, e.g. ⟨U+200B⟩


def _classify(s: str) -> tuple[str, str]:
    if len(s) > 1:
        # An OSC body may carry other controls (a C1 CSI, bidi, a BEL): token each of them too,
        # so the label itself is inert.
        body = _HIDDEN_RE.sub(lambda m: _classify(m.group())[1], s[1:])
        return "ansi", f"⟨ESC⟩{body}"
    cp = ord(s)
    if 0xE0000 <= cp <= 0xE007F:
        inner = cp - 0xE0000
        if 0x20 <= inner <= 0x7E:
            return "tag", f"⟨TAG {chr(inner)}⟩"
        return "tag", f"⟨TAG U+{cp:05X}⟩"
    if cp in _BIDI:
        return "bidi", f"⟨{_BIDI[cp]} U+{cp:04X}⟩"
    if cp in _ZERO_WIDTH:
        return "zero-width", f"⟨U+{cp:04X}⟩"
    if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or 0x180B <= cp <= 0x180F:
        return "variation-selector", f"⟨VS U+{cp:04X}⟩"
    if cp in _C0_NAMES:
        return "control", f"⟨{_C0_NAMES[cp]}⟩"
    if cp <= 0x9F:
        return "control", f"⟨U+{cp:04X}⟩"
    # Another invisible code point (a format character, a default-ignorable, a blank letter).
    return "invisible", f"⟨U+{cp:04X}⟩"


def find_hidden(text: str) -> list[HiddenChar]:
    """Every hidden character or ANSI sequence in ``text``, in order."""
    out = []
    for m in _HIDDEN_RE.finditer(text):
        kind, label = _classify(m.group())
        out.append(HiddenChar(m.start(), m.group(), kind, label))
    return out


def has_hidden(text: str) -> bool:
    return _HIDDEN_RE.search(text) is not None


def none_hidden(value: Any) -> bool:
    """True only when no string in the JSON ``value`` (object keys included) has a hidden
    character: one scan of orjson's text of it instead of a walk over every string. orjson
    writes every string character as it is except the C0 controls, which it escapes (``\\b``,
    ``\\f``, ``\\r``, ``\\uXXXX`` for the hidden ones; ``\\t`` and ``\\n`` are not hidden), and the
    text outside strings is plain ASCII; so no hidden character in the text and none of those
    escapes means none in any string. False when unsure (an escaped backslash before ``u``,
    a value orjson refuses): the caller walks."""
    if _orjson is None:
        return False
    try:
        raw = _orjson.dumps(value)
    except TypeError:  # a lone surrogate, a big integer, a non-JSON value
        return False
    if b"\\" in raw and _C0_ESCAPE.search(raw) is not None:
        return False
    return _HIDDEN_RE.search(raw.decode("utf-8")) is None


_C0_ESCAPE = re.compile(rb"\\[bfru]")


def visible(text: str) -> str:
    """``text`` with every hidden character replaced by a visible token. Tabs and newlines stay."""
    return _HIDDEN_RE.sub(lambda m: _classify(m.group())[1], text)


# --- the one sanitiser for terminal and report text --------------------------------------

_LINE_BREAKS = {
    "\n": "⟨LF⟩",
    "\r": "⟨CR⟩",
    "\x0b": "⟨VT⟩",
    "\x0c": "⟨FF⟩",
    "\x85": "⟨NEL⟩",
    "\u2028": "⟨LS U+2028⟩",
    "\u2029": "⟨PS U+2029⟩",
}
_BREAK_RE = re.compile("[\n\r\x0b\x0c\x85\u2028\u2029]")
_SOFT_BREAK_RE = re.compile("[\r\x0b\x0c\x85\u2028\u2029]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
# What must never reach a terminal raw, whoever wrote it: C0 controls but tab and newline, DEL,
# C1 controls (U+0080-U+009F: 8-bit CSI/OSC), bidi controls, TAG characters, lone surrogates.
_TERMINAL_ACTIVE_RE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u2028\u2029\ud800-\udfff\U000e0000-\U000e007f]"
)


def _char_token(c: str) -> str:
    if c in _LINE_BREAKS:
        return _LINE_BREAKS[c]
    if 0xD800 <= ord(c) <= 0xDFFF:
        return f"⟨U+{ord(c):04X}⟩"
    return _classify(c)[1]


def safe_text(value: object, *, oneline: bool = True) -> str:
    """Server-supplied text made safe for a terminal or a line-oriented report.

    The one sanitiser every output path uses (text, Markdown and SARIF build on it): hidden
    characters and ANSI/OSC sequences become visible tokens (``visible``), lone surrogates
    become ``⟨U+D800⟩`` (no UTF-8 stream can encode them), and every line break — LF, CR, VT,
    FF, NEL, U+2028, U+2029 — becomes a token, so a name cannot start a forged report line.
    ``oneline=False`` keeps LF (for multi-line text such as a description) and tokens the rest.
    """
    s = value if isinstance(value, str) else str(value)
    s = (_BREAK_RE if oneline else _SOFT_BREAK_RE).sub(lambda m: _LINE_BREAKS[m.group()], s)
    s = visible(s)
    return _SURROGATE_RE.sub(lambda m: f"⟨U+{ord(m.group()):04X}⟩", s)


def terminal_guard(text: str) -> str:
    """Last line of defence for a whole output stream: every terminal-active character left in
    ``text`` (ESC, other C0 but tab/newline, C1, bidi, TAG, lone surrogates) as a token. Our own
    report text never contains one, so on a correct path this changes nothing."""
    # ASCII printable or a newline (what reports are made of) holds none: skip the scan.
    if text.isascii() and text.replace("\n", "").isprintable():
        return text
    return _TERMINAL_ACTIVE_RE.sub(lambda m: _char_token(m.group()), text)


_MD_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MD_ESCAPED = frozenset("\\`*[]|~$")
_MD_WORD = re.compile(r"[^\W_]")  # a letter or digit: `_` between two never emphasises
# Where a renderer or GitHub would make a link, a mention or a reference of plain text: a
# scheme (`https:/` | `/`: neither half is a link, not even protocol-relative), `www.`, an e-mail's or a mention's `@`, an issue's `#123`. An empty HTML
# comment after the trigger splits the text node, so no autolink extension, linkify pass or
# GitHub's mention/reference filter (which read text nodes) sees the whole token; it renders
# as nothing.
_MD_LINKY = re.compile(r"(?i)(?<=[a-z0-9+.-])(:/)(?=/)|(www)(\.)|(@)(?=\w)|(#)(?=\d)")


def md_text(value: object) -> str:
    """``safe_text`` for Markdown and the HTML inside it (GitHub job summaries, ``<details>``),
    escaping the minimum so the raw text still reads as written (``directory_tree``):

    - ``&``, ``<``, ``>`` as ``&amp;`` ``&lt;`` ``&gt;``: no tag, no HTML autolink, no entity;
    - a backslash before ``\\`` `````` ``*`` ``[`` ``]`` ``|`` ``~`` ``$``: no code span, emphasis,
      link, table cell break, strikethrough or math; before ``_`` only where it could open or
      close emphasis (not inside a word: ``read_file`` stays as it is);
    - an empty HTML comment ``<!---->`` after the trigger of an autolink (``https:/``, ``www.``),
      an e-mail or ``@mention`` and a ``#123`` reference, so none becomes a link.

    Text only: it is placed in table cells and inline HTML, never at the start of a line of
    its own (so ``#`` headings, ``>`` quotes and list markers cannot start)."""
    text = safe_text(value)
    out: list[str] = []
    for i, c in enumerate(text):
        if c in _MD_HTML:
            out.append(_MD_HTML[c])
        elif c in _MD_ESCAPED:
            out.append("\\" + c)
        elif c == "_":
            inside = (
                0 < i < len(text) - 1
                and _MD_WORD.match(text[i - 1]) is not None
                and _MD_WORD.match(text[i + 1]) is not None
            )
            out.append("_" if inside else "\\_")
        else:
            out.append(c)
    return _MD_LINKY.sub(_break_link, "".join(out))


def md_html_text(value: object) -> str:
    """``safe_text`` for the raw HTML of a Markdown document (a ``<summary>`` line: an HTML
    block, where Markdown is not parsed, so a backslash would show): ``&``, ``<``, ``>`` as
    entities and links, mentions and references broken as in :func:`md_text`."""
    text = "".join(_MD_HTML.get(c, c) for c in safe_text(value))
    return _MD_LINKY.sub(_break_link, text)


def _break_link(m: re.Match[str]) -> str:
    if m.group(2):
        return f"{m.group(2)}{m.group(3)}<!---->"
    return f"{m.group(0)}<!---->"


_SARIF_SPECIAL = re.compile(r"[\\\[\]{}]")


def sarif_text(value: object) -> str:
    """``safe_text`` for a SARIF ``message.text``: tokens for hidden characters, and ``[``, ``]``,
    ``{``, ``}`` and ``\\`` backslash-escaped so no embedded link or placeholder is formed."""
    return _SARIF_SPECIAL.sub(lambda m: "\\" + m.group(), safe_text(value))


def decode_tags(text: str) -> str:
    """The ASCII message smuggled in TAG characters, if any (for showing the operator)."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)


def hidden_kinds(text: str) -> set[str]:
    return {h.kind for h in find_hidden(text)}


def is_confusable_name(a: str, b: str) -> bool:
    """True when two distinct names look alike (see :func:`lookalike_keys`)."""
    (a1, a2), (b1, b2) = lookalike_keys(a), lookalike_keys(b)
    return a != b and (a1 == b1 or a2 == b2)


def lookalike_keys(name: str) -> tuple[str, str]:
    """Two names look alike when either of their keys meet: ``skeleton(a) == skeleton(b)`` or
    ``skeleton(casefold(a)) == skeleton(casefold(b))``. Folding case first is what makes
    ``READ_FILE`` meet ``read_file`` (its own skeleton maps the capital I to ``l``); the
    skeleton of the name as written is what makes ``read_fiIe`` meet it."""
    return skeleton(name), skeleton(name.casefold())


_EXTRA = str.maketrans({"-": "_"})


_ASCII_PROTOTYPES: dict[int, str] = {
    ord('"'): "''",
    ord("%"): "\u00b0/\u2080",
    ord("0"): "O",
    ord("1"): "l",
    ord("I"): "l",
    ord("`"): "'",
    ord("m"): "rn",
    ord("|"): "l",
}
"""The ASCII entries of :func:`_uts39_map` (a test holds them to the generated table): an ASCII
name's skeleton without building the 6,700-entry map."""


@functools.cache
def _uts39_map() -> dict[int, str]:
    """Character -> prototype, from UTS #39's confusables.txt (``confusables_table``, a module
    generated by scripts/gen_unicode_tables.py: the engine opens no file)."""
    from mcp_review.engine.confusables_table import PROTOTYPES

    out: dict[int, str] = {}
    for line in PROTOTYPES.splitlines():
        src, *target = line.split()
        out[int(src, 16)] = "".join(chr(int(t, 16)) for t in target)
    return out


_SPACE_RE = re.compile("[" + _char_class(SPACE_SEPARATORS) + "]")


def is_space_separator(c: str) -> bool:
    """A space separator other than U+0020 (U+00A0, U+3000, ...): shown, never blocking."""
    return _SPACE_RE.fullmatch(c) is not None


def mark_lookalikes(name: str) -> str:
    """``name`` with hidden characters as tokens and, when the name is otherwise ASCII, each
    non-ASCII letter followed by its code point: ``rеad_file`` -> ``rе⟨U+0435⟩ad_file``.

    For names only: a homoglyph twin must not look identical to the tool it imitates. Names
    written in a non-Latin script throughout are left as they are, but for space separators
    other than U+0020, which are marked in every name."""
    shown = visible(name)
    odd = [c for c in shown if ord(c) > 0x7E and c not in "⟨⟩"]
    if not odd:
        return shown
    if len(odd) * 2 > len(shown):
        # Written in another script: left as it is, but for a space other than U+0020 (the
        # one look-alike of a plain space no script needs inside a name).
        return _SPACE_RE.sub(lambda m: f"{m.group()}⟨U+{ord(m.group()):04X}⟩", shown)
    return "".join(f"{c}⟨U+{ord(c):04X}⟩" if ord(c) > 0x7E and c not in "⟨⟩" else c for c in shown)


def strip_hidden(text: str) -> str:
    """``text`` without its hidden characters (every default-ignorable and invisible code point
    :func:`skeleton` drops)."""
    return _HIDDEN_RE.sub("", text)


def skeleton(name: str) -> str:
    """The name as it looks, for comparing names: Unicode's confusable skeleton (UTS #39:
    NFD, each character to its prototype in confusables.txt, NFD again), after hidden
    characters (every default-ignorable and invisible code point) are dropped and NFKC folds
    compatibility forms (fullwidth letters), then case-folded, with ``-`` read as ``_``.
    ``read_text_fiIe`` (capital I), ``rеad_file`` (Cyrillic е), ``dep1oy`` and ``rn``/``m``
    all meet their twin; :func:`lookalike_keys` adds the case-folded-first skeleton."""
    n = _HIDDEN_RE.sub("", name)
    if n.isascii():  # NFKC and NFD leave ASCII text as it is (most names)
        n = n.translate(_ASCII_PROTOTYPES)
    else:
        n = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", n))
        n = n.translate(_uts39_map())
    if not n.isascii():
        n = unicodedata.normalize("NFD", n)
    return n.casefold().translate(_EXTRA)


@functools.cache
def latin_lookalike(c: str) -> str:
    """The ASCII letter ``c`` is confusable with (UTS #39: Cyrillic ``а`` -> ``a``, Greek ``ο``
    -> ``o``), or ``""`` when its prototype is not one ASCII letter. Read per word by the cue
    reader (engine/readas.py), never as a whole-string skeleton."""
    p = _uts39_map().get(ord(c), "")
    if len(p) == 1 and p.isascii() and p.isalpha():
        return p
    return ""
