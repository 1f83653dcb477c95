"""The run reader of the cues (engine/cues.py): the text split on white space and quoting into
chunks, each classified once by anchored patterns (URLs, e-mail addresses, IP addresses,
domains, paths and secret locations, encoded blobs, names of other tools and servers), each
giving its cue and the spans the word rules read.

It writes into the cue reader's collector (``engine/cue_find.py``'s ``_Found``), seen here as
:class:`_Collector` so this module imports nothing of the reader above it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from mcp_review.engine.cue_sentences import _QUOTES, _Run, _run_at
from mcp_review.engine.cue_types import KnownNames
from mcp_review.engine.cue_words import (
    _ARG_AFTER,
    _B64,
    _CALLED_BY_NAME,
    _DATA_URI,
    _DOMAIN,
    _EMAIL,
    _ENV_SECRET,
    _HEX,
    _IP,
    _PATH,
    _PCT,
    _RUN,
    _SCHEME,
    _SECRET_LITERAL,
    _SECRET_PATH,
)
from mcp_review.engine.rules.cue_families import PATH_ENV_FILE
from mcp_review.engine.rules.cues import (
    ENCODED_BASE64,
    ENCODED_DATA_URI,
    ENCODED_HEX,
    ENCODED_PERCENT,
    PATH_FILE,
    SECRET_PATH_RULE,
    TOOL_REFERENCE_SERVER,
    TOOL_REFERENCE_TOOL,
    URL_DOMAIN,
    URL_EMAIL,
    URL_IP,
    URL_LINK,
)


class _Collector(Protocol):
    """What the run reader needs of the cue reader's collector: the span a rule fires on, and
    the rule, the text shown and the cue's key."""

    at: tuple[int, int] | None

    def add(self, rule: str, text: str, key: str) -> None: ...


_PERSONS = re.compile(r"\b(?:user'?s|users'|your|their|his|her|my)(?:\s+own)?\s{1,3}[`'\"]?$", re.I)
"""A person owning the file just before it ("the user's .env file", "your .env"): someone's
secrets aimed at, not the project's configuration."""


def _looks_base64(blob: str) -> bool:
    """A run of the base64 alphabet over 40 characters that is not a word or a path: not all
    lower-case letters, and no path-like short segments between slashes (base64 has a slash
    every 64 characters on average)."""
    if blob.isalpha() and blob.islower():
        return False
    if "/" in blob and max(len(seg) for seg in blob.split("/")) < 20:
        return False
    return True


_CALL_PARENS = re.compile(r"\([^()`\n]{0,80}\)")


def _alone_in_span(text: str, r: _Run) -> bool:
    """Whether a quoted plain word is the whole quoted span, or the span is the word and a
    call's parentheses (`` `fetch` ``, `` `fetch()` ``), not one word of a longer code span
    (`` `type(scope): subject` ``: a commit-message format, not redis's ``type`` tool)."""
    close = text[r.start - 1 : r.start]
    if not close:
        return True
    end = text.find(close, r.end, r.end + 200)
    if end < 0:
        return True
    inner = text[r.end : end]
    return not inner or _CALL_PARENS.fullmatch(inner) is not None


def _name_cue(
    text: str,
    r: _Run,
    name: str,
    found: _Collector,
    span: Callable[[str, int, int, str], None],
    own: frozenset[str],
    own_tool: str,
    names: KnownNames,
) -> None:
    """A run that names another tool or server (``tool-reference``), and the spans the
    shadowing rule reads."""
    if name != own_tool and name in names.tools:
        after = text[r.end + 1 : r.end + 12].lower().lstrip()
        plain = name.isalpha() and name.islower()
        if after.startswith(_ARG_AFTER) or text[r.end + 1 : r.end + 2] in (":", "="):
            pass  # `search` parameter: an argument's name, not a tool
        elif plain and not (r.quoted and _alone_in_span(text, r)):
            # A plain word ("fetch", "search") names a tool when quoted, or as "the fetch
            # tool" (then only an instruction to avoid it counts: "never use the fetch
            # tool", "the fetch tool is compromised").
            if after.startswith("tool") and not (names.tools[name] & own):
                found.add(TOOL_REFERENCE_TOOL, name, name.lower())
                span("plain-tool", r.start, r.end, name)
        else:
            found.add(TOOL_REFERENCE_TOOL, name, name.lower())
            if not (names.tools[name] & own):
                span("other-tool", r.start, r.end, name)
    elif name in names.servers and name not in own:
        found.add(TOOL_REFERENCE_SERVER, name, name.lower())
    elif "_" in name and name.islower() and name != own_tool and name not in names.tools:
        # A snake_case name of no configured tool, called by name: a tool elsewhere.
        before = text[max(0, r.start - 30) : r.start].lower()
        after = text[r.end : r.end + 12].lower()
        passive = after.lstrip().startswith(
            ("is ", "are ", "returned ")
        )  # "when context_lines is used", "the file_token returned by ...": a value
        if (_CALLED_BY_NAME.search(before) and not passive) or after.lstrip().startswith(
            ("tool", "runs")
        ):
            found.add(TOOL_REFERENCE_TOOL, name, name.lower())
            span("unknown-tool", r.start, r.end, name)


def _run_cues(
    text: str, found: _Collector, own: frozenset[str], own_tool: str, names: KnownNames
) -> dict[str, list[tuple[int, int, str]]]:
    spans: dict[str, list[tuple[int, int, str]]] = {}

    def span(kind: str, a: int, b: int, t: str) -> None:
        spans.setdefault(kind, []).append((a, b, t))

    for m in _DATA_URI.finditer(text):
        found.at = m.span()
        found.add(ENCODED_DATA_URI, m.group(), m.group().lower())
        span("encoded", m.start(), m.end(), m.group())

    tools = names.tools
    servers = names.servers
    for m in _RUN.finditer(text):
        t = m.group()
        if len(t) <= 40 and t.isalnum():
            # A plain word or number (most runs): only a name can be a cue, and a quoted word
            # may be an argument's name. No run object for it.
            s0 = m.start()
            if s0 and text[s0 - 1] in _QUOTES:
                r = _run_at(text, s0, t)
                if r is not None and r.quoted:
                    span("quoted", r.start, r.end, t)
            if t in tools or t in servers:
                r = _run_at(text, s0, t)
                if r is not None:
                    found.at = (r.start, r.end)
                    _name_cue(text, r, t, found, span, own, own_tool, names)
            continue
        run = _run_at(text, m.start(), t)
        if run is None:
            continue
        r = run
        found.at = (r.start, r.end)
        t = r.text
        if r.quoted:
            span("quoted", r.start, r.end, t)
        low = t.lower()
        secret = _SECRET_PATH.search(t)
        if secret:
            where = secret.group().lower().removeprefix("~/").strip("/")  # one key per place
            # A project's .env is named by honest setup steps as often as by attacks: shown;
            # an order to read, pass or send it blocks through the word rules (the span).
            env = where.startswith(".env") and not _PERSONS.search(
                text, max(0, r.start - 40), r.start
            )
            found.add(PATH_ENV_FILE if env else SECRET_PATH_RULE, t, where)
            span("secret-path", r.start, r.end, where)
        if len(t) > 4096:  # one run this long: only its blobs and secret locations count
            t = t[:4096]
        m_data = "data:" in low  # a data: URI's payload is its own cue
        m_url = _SCHEME.match(t) or _SCHEME.search(t) if "://" in t else None
        if m_url:
            found.add(URL_LINK, t, low)
            span("dest", r.start, r.end, t)
        elif "@" in t and _EMAIL.fullmatch(t.strip(".")):
            found.add(URL_EMAIL, t, low)
            span("dest", r.start, r.end, t)
        elif t[:1].isdigit() and _IP.fullmatch(t):
            found.add(URL_IP, t, low)
            span("dest", r.start, r.end, t)
        elif "." in t and not t.startswith((".", "/", "~")) and _DOMAIN.fullmatch(t):
            found.add(URL_DOMAIN, t, low)
            span("dest", r.start, r.end, t)
        elif (
            not secret
            and ("/" in t or "\\" in t or t.startswith("~"))
            and text[r.start - 1 : r.start] != "<"
            and _PATH.fullmatch(t)
        ):
            found.add(PATH_FILE, t, low)
        if len(t) > 40 and not m_data:
            if _HEX.search(t):
                found.add(ENCODED_HEX, t, low[:64])
                span("encoded", r.start, r.end, t)
            else:
                blob = _B64.search(t)
                if blob and _looks_base64(blob.group()):
                    found.add(ENCODED_BASE64, t, blob.group()[:64])
                    span("encoded", r.start, r.end, t)
        if "%" in t and _PCT.search(t):
            found.add(ENCODED_PERCENT, t, low[:64])
            span("encoded", r.start, r.end, t)
        if "_" in t and _ENV_SECRET.fullmatch(t.strip(".:")):
            span("env-secret", r.start, r.end, t)
        if _SECRET_LITERAL.match(t):
            span("env-secret", r.start, r.end, t)
        _name_cue(text, r, t.strip(".:!?"), found, span, own, own_tool, names)
    return spans
