"""The pin file's TOML text (``mcp-pins.toml``): tables to text and text to tables.

Knows no pin: :mod:`mcp_review.engine.pins` is the model (and maps it to the file's tables),
:mod:`mcp_review.engine.pinread` validates the tables read back into it. Here: the layout of a
definition's JSON text, the multi-line strings it is written in, the file's header, reading
the bytes (UTF-8, TOML) with errors naming the file and the line, and quoting of table names.
"""

from __future__ import annotations

import json
import re
import secrets
import tomllib
from collections.abc import Callable
from typing import Any

import tomli_w

from mcp_review.engine.errors import InputError
from mcp_review.engine.tomlread import loads as toml_loads

Placeholder = Callable[[tuple[str, str, str], str | list[str]], str]
"""Given a table's key and a definition's text (or the list of texts of ``also_approved``),
the value tomli-w writes in its place."""

MULTILINE_KEYS = ("definition", "text", "also_approved")
"""The keys written as multi-line strings (``also_approved``: an array of them)."""

HEADER = (
    "# mcp-review pin file: operator decisions about MCP tool definitions.\n"
    "# Written by mcp-review; edit with `mcp-review approve/deny` or the review app.\n"
)


def layout(value: Any) -> str:
    """The version 2 layout of a definition's JSON text (see :func:`pins.definition_text`)."""
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=True, allow_nan=False)


# TOML multi-line strings ----------------------------------------------------------------------
# tomli-w writes every string as a one-line basic string. A definition is written by hand as a
# multi-line *literal* string (no escaping: the JSON lines read as they are) when that is
# exact, else as a multi-line *basic* string with escapes. Either form reads back to exactly
# the same string (tests/store/test_pin_layout.py).

_LITERAL_OK = re.compile(r"[\x20-\x7e\n]*")


def toml_multiline(text: str) -> str:
    """``text`` as a TOML multi-line string that parses back to exactly ``text``.

    A literal string (``'''``, no escapes) when ``text`` is printable ASCII and newlines,
    holds no ``'''`` and does not end with ``'``; otherwise a basic string (``\"\"\"``) in
    which backslashes, control characters and every non-ASCII character are escaped, and a
    double quote where it could end the string (before another one, or last); newlines kept. The first newline after the opening delimiter is trimmed by TOML,
    so one is always written (a leading newline of ``text`` survives). A lone surrogate
    cannot be written to TOML at all: ValueError."""
    if _LITERAL_OK.fullmatch(text) and "'''" not in text and not text.endswith("'"):
        return "'''\n" + text + "'''"
    out = []
    last = len(text) - 1
    for i, ch in enumerate(text):
        o = ord(ch)
        if ch == "\n":
            out.append("\n")
        elif ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            # Escaped only where it could close the string: before another quote, or last.
            # No two raw quotes are ever adjacent, so no raw `"""` can appear.
            out.append('\\"' if i == last or text[i + 1] == '"' else '"')
        elif 0x20 <= o <= 0x7E:
            out.append(ch)
        elif 0xD800 <= o <= 0xDFFF:
            raise ValueError(f"a lone surrogate (U+{o:04X}) cannot be written to TOML")
        elif o <= 0xFFFF:
            out.append(f"\\u{o:04X}")
        else:
            out.append(f"\\U{o:08X}")
    return '"""\n' + "".join(out) + '"""'


def toml_multiline_array(texts: list[str]) -> str:
    """``texts`` as a TOML array of multi-line strings (:func:`toml_multiline`), one element
    after another, each ending ``,`` on its own closing line: the array parses back to exactly
    ``texts``, and each definition in it reads (and diffs) line by line like ``definition``."""
    if not texts:
        return "[]"
    return "[\n" + "".join(toml_multiline(t) + ",\n" for t in texts) + "]"


def render(tables: Callable[[Placeholder], dict[str, Any]]) -> str:
    """The file's text: tomli-w for the tables (``tables`` builds them, given the placeholder
    to write in place of each multi-line text), each ``definition`` or ``text`` as a
    multi-line string (:func:`toml_multiline`) so a changed definition diffs line by line, and
    ``also_approved`` (the definitions kept beside a candidate's, engine/candidate.py) as an
    array of them (:func:`toml_multiline_array`), not one escaped line per definition."""
    # Each definition goes through tomli-w as a placeholder no server can guess (a random
    # nonce), then the placeholder line is replaced by the multi-line string.
    nonce = secrets.token_hex(16)
    texts: list[tuple[tuple[str, str, str], str | list[str]]] = []

    def placeholder(key: tuple[str, str, str], text: str | list[str]) -> str:
        texts.append((key, text))
        return f"mcp-review-definition-{nonce}-{len(texts) - 1}"

    body = tomli_w.dumps(tables(placeholder))

    def put(m: re.Match[str]) -> str:
        key, text = texts[int(m.group(2))]
        try:
            if isinstance(text, list):
                return m.group(1) + " = " + toml_multiline_array(text)
            return m.group(1) + " = " + toml_multiline(text)
        except ValueError as e:
            raise InputError(f"cannot write the definition of {table_path(key)}: {e}") from None

    keys = "|".join(MULTILINE_KEYS)
    body, n = re.subn(rf'^({keys}) = "mcp-review-definition-{nonce}-(\d+)"$', put, body, flags=re.M)
    if n != len(texts):  # tomli-w changed how it writes a key: never write a broken file
        raise RuntimeError("pin file serialisation: a definition placeholder was not found")
    return HEADER + body


def read(text: str | bytes, source: str) -> tuple[bytes, dict[str, Any] | None]:
    """(the file's bytes, its TOML document; None for an empty file). Errors are InputErrors
    naming the file and the line (syntax, from tomllib)."""
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    try:
        s = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 text (byte {e.start})", source=source, line=line) from None
    if not s.strip():
        return raw, None  # an empty file (`touch mcp-pins.toml`) is an empty pin set
    try:
        doc = toml_loads(s)  # rtoml for big files, tomllib's answer and errors otherwise
    except tomllib.TOMLDecodeError as e:
        # tomllib's message ends "(at line N, column M)": keep it, it names the line.
        raise InputError(
            f"cannot parse the pin file: {e}; it was left unchanged", source=source
        ) from None
    except RecursionError:
        # tomllib recurses per nesting level: a value nested thousands deep is bad input.
        raise InputError(
            "cannot parse the pin file: a value is nested too deeply; it was left unchanged",
            source=source,
        ) from None
    return raw, doc


def utf8_ok(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def qa(s: str) -> str:
    """A name from the file, quoted with every non-ASCII and control character escaped (it is
    printed to a terminal)."""
    return json.dumps(s, ensure_ascii=True)


def table_path(key: tuple[str, str, str]) -> str:
    s, p, t = key
    return f"servers.{q(s)}.principals.{q(p)}.tools.{q(t)}"
