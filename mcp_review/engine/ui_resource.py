"""A tool's UI resource pinned with it: content, MIME type and URI.

A tool whose ``_meta`` names an MCP Apps UI resource (``ui.resourceUri``, the flat
``ui/resourceUri``, OpenAI's ``openai/outputTemplate``: engine/rules/meta.py) renders that
resource to the user. The URI alone is in the tool's digest; what the host renders is the
resource's content, which the server may change behind the same URI. The listing commands read
it (``resources/read``, services/fetch.py) and a decision keeps it with the tool's pin:

- ``digest``: ``sha256:<hex>`` of the content's bytes (text as UTF-8, a blob base64-decoded),
  always;
- ``text``: the content itself when it is text of at most :data:`MAX_TEXT` bytes (the diff a
  reviewer reads); a blob or a longer text is kept by its digest only;
- ``mime_type`` and ``meta`` (the content item's own ``_meta``, where MCP Apps puts the UI's
  CSP): a change of either is a change of the UI;
- ``error``: why it could not be read (said, never passed over silently).

A changed record is a trust change (``meta-ui-content-changed``, engine/rules/ui.py), never
approved automatically in any tier; the enforcing proxy serves a ``resources/read`` of the URI
only when the response matches the approved record (:func:`served_matches`).

Pure: no files, no network. Hostile input is bounded: the diff is linear (common head and tail
stripped, the middle word-diffed only when small) and cut at :data:`DIFF_LINES` lines; the cue
reader reads at most :data:`CUE_CHARS` characters of added text.
"""

from __future__ import annotations

import base64
import binascii
import difflib
import hashlib
import json
from dataclasses import dataclass
from typing import Any

MAX_TEXT = 1_000_000
"""Largest text content (UTF-8 bytes) kept in a pin as text; beyond it, its digest only."""

DIFF_LINES = 400
"""Most lines of a UI diff shown (the rest are counted)."""

DIFF_MIDDLE = 2_000
"""Most lines on each side of the changed middle given to difflib (its worst case is
quadratic); a larger middle is shown as removed, then added."""

CUE_CHARS = 100_000
"""Most characters of a UI's added text read for cues (the engine's reader; its own bound)."""

PIN_KEY = "ui_resources"
"""The key of a tool's pin (an array of tables) that holds its UI resources' records."""


@dataclass(frozen=True, slots=True)
class UIResource:
    """One UI resource as read (or approved): see the module docstring."""

    uri: str
    digest: str | None = None
    mime_type: str | None = None
    size: int = 0
    text: str | None = None
    binary: bool = False
    meta: str | None = None
    """The content item's ``_meta`` as canonical JSON text (None: it had none)."""
    error: str | None = None

    def same_content(self, other: UIResource) -> bool:
        """Whether ``other`` serves what this record approved (content, MIME type, ``_meta``);
        a record with an error matches nothing."""
        return (
            self.error is None
            and other.error is None
            and self.digest is not None
            and self.digest == other.digest
            and self.mime_type == other.mime_type
            and self.meta == other.meta
        )

    def to_toml(self) -> dict[str, Any]:
        d: dict[str, Any] = {"uri": self.uri}
        if self.error is not None:
            d["error"] = self.error
            return d
        d["digest"] = self.digest
        if self.mime_type is not None:
            d["mime_type"] = self.mime_type
        d["size"] = self.size
        if self.binary:
            d["binary"] = True
        if self.meta is not None:
            d["meta"] = self.meta
        if self.text is not None:
            d["text"] = self.text
        return d


def content_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _utf8(text: str) -> bool:
    """Whether ``text`` is valid Unicode (no lone surrogate): only such text is kept as text
    (a pin file is UTF-8); the rest is kept by its digest."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _err(uri: str, why: str) -> UIResource:
    return UIResource(uri=uri, error=why)


def from_read_result(uri: str, result: Any) -> UIResource:
    """The record of ``uri`` from a ``resources/read`` result (wire JSON: ``{"contents":
    [...]}``). A result that is not exactly one content item of this URI with a string
    ``text`` or a base64 ``blob`` is recorded as an error (fail closed: the proxy serves no
    such UI)."""
    contents = result.get("contents") if isinstance(result, dict) else None
    if not isinstance(contents, list):
        return _err(uri, "the server's resources/read result has no contents list")
    if len(contents) != 1:
        return _err(uri, f"the server returned {len(contents)} contents for it (one is pinned)")
    item = contents[0]
    if not isinstance(item, dict):
        return _err(uri, "its content is not a JSON object")
    if item.get("uri", uri) != uri:
        return _err(uri, "its content names another URI")
    mime = item.get("mimeType")
    if mime is not None and not isinstance(mime, str):
        return _err(uri, "its mimeType is not a string")
    meta = item.get("_meta")
    meta_text = None
    if meta is not None:
        try:
            meta_text = json.dumps(meta, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
        except (TypeError, ValueError, RecursionError):
            return _err(uri, "its _meta is not JSON")
    text, blob = item.get("text"), item.get("blob")
    if isinstance(text, str) and blob is None:
        data = text.encode("utf-8", "surrogatepass")
        return UIResource(
            uri=uri,
            digest=content_digest(data),
            mime_type=mime,
            size=len(data),
            text=text if len(data) <= MAX_TEXT and _utf8(text) else None,
            meta=meta_text,
        )
    if isinstance(blob, str) and text is None:
        try:
            data = base64.b64decode(blob, validate=True)
        except (binascii.Error, ValueError):
            return _err(uri, "its blob is not valid base64")
        return UIResource(
            uri=uri,
            digest=content_digest(data),
            mime_type=mime,
            size=len(data),
            binary=True,
            meta=meta_text,
        )
    return _err(uri, "its content has no string text or blob")


def served_matches(approved: UIResource, uri: str, result: Any) -> str | None:
    """Why the ``resources/read`` ``result`` for ``uri`` is not the approved UI, or None when
    it is (content digest, MIME type and the item's ``_meta``)."""
    live = from_read_result(uri, result)
    if live.error is not None:
        return f"the served UI resource cannot be checked: {live.error}"
    if approved.error is not None or approved.digest is None:
        return "its approved record holds no content (it could not be read when approved)"
    if live.digest != approved.digest:
        return "its content is not the approved content (digest differs)"
    if live.mime_type != approved.mime_type:
        return "its MIME type is not the approved one"
    if live.meta != approved.meta:
        return "its _meta (the UI's CSP) is not the approved one"
    return None


def from_toml(rows: Any) -> tuple[UIResource, ...] | None:
    """The records kept in a pin (``ui_resources``), or None when it holds none or they are
    malformed (a malformed record is reported by :func:`toml_problem`)."""
    if toml_problem(rows) is not None:
        return None
    out = []
    for r in rows:
        out.append(
            UIResource(
                uri=r["uri"],
                digest=r.get("digest"),
                mime_type=r.get("mime_type"),
                size=r.get("size", 0),
                text=r.get("text"),
                binary=bool(r.get("binary", False)),
                meta=r.get("meta"),
                error=r.get("error"),
            )
        )
    return tuple(out)


_TYPES = {
    "uri": str,
    "digest": str,
    "mime_type": str,
    "size": int,
    "text": str,
    "binary": bool,
    "meta": str,
    "error": str,
}


def toml_problem(rows: Any) -> str | None:
    """Why a pin's ``ui_resources`` cannot be trusted, or None (a text that does not hash to
    the record's digest is a hand edit or corruption)."""
    if not isinstance(rows, list):
        return "its ui_resources is not an array of tables"
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            return f"its ui_resources #{i} is not a table"
        for k, v in r.items():
            t = _TYPES.get(k)
            if t is None:
                return f"its ui_resources #{i} has an unknown key"
            if not isinstance(v, t) or (t is int and isinstance(v, bool)):
                return f"its ui_resources #{i}: {k} has the wrong type"
        if "uri" not in r:
            return f"its ui_resources #{i} has no uri"
        if "error" not in r and "digest" not in r:
            return f"its ui_resources #{i} has neither a digest nor an error"
        text = r.get("text")
        if text is not None and content_digest(text.encode("utf-8", "surrogatepass")) != r.get(
            "digest"
        ):
            return (
                f"its ui_resources #{i}: the text is not the text of its digest (the file was "
                "edited by hand or is corrupted)"
            )
    return None


def record_of(records: tuple[UIResource, ...] | None, uri: str) -> UIResource | None:
    for r in records or ():
        if r.uri == uri:
            return r
    return None


def differs(old: tuple[UIResource, ...] | None, new: tuple[UIResource, ...] | None) -> bool:
    """Whether the live records ``new`` differ from the approved ``old``. A pin that holds no
    records (``None``: written before UI resources were pinned) differs from nothing: its
    content is recorded at the tool's next decision."""
    if old is None or new is None:
        return False
    return _key(old) != _key(new)


def _key(rs: tuple[UIResource, ...]) -> list[tuple[Any, ...]]:
    # Unreadable is unreadable whatever the words of why (a timeout, then a refusal).
    return sorted(
        (
            r.uri,
            r.error is not None,
            *((v is None, v or "") for v in (r.digest, r.mime_type, r.meta)),
        )
        for r in rs
    )


# The text diff -------------------------------------------------------------------------------


def _lines(r: UIResource | None) -> list[str] | None:
    """The content as lines, or None when it is not kept as text."""
    if r is None or r.text is None:
        return None
    return r.text.split("\n")


def diff_lines(old: UIResource | None, new: UIResource | None) -> tuple[list[str], int]:
    """A unified-style diff of the approved UI text against the served one, as raw lines
    (callers make them visible: ``hidden.safe_text``), and how many more lines were cut.
    Linear: the common head and tail are stripped first, and only a middle of at most
    :data:`DIFF_MIDDLE` lines a side is given to difflib."""
    a, b = _lines(old), _lines(new)
    out: list[str] = []
    if a is None or b is None:
        for side, r, lines in (("approved", old, a), ("served", new, b)):
            if r is not None and lines is None and r.error is None:
                what = "binary" if r.binary else f"{r.size} bytes, over {MAX_TEXT}"
                out.append(f"({side}: {what}: compared by digest {r.digest})")
        if a is None and b is not None:
            out += ["+" + x for x in b]
        elif b is None and a is not None:
            out += ["-" + x for x in a]
        return _cut(out)
    head = 0
    top = min(len(a), len(b))
    while head < top and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < top - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    ma, mb = a[head : len(a) - tail], b[head : len(b) - tail]
    if not ma and not mb:
        return [], 0
    out.append(f"@@ -{head + 1},{len(ma)} +{head + 1},{len(mb)} @@")
    if head:
        out.append(" " + a[head - 1])
    if len(ma) <= DIFF_MIDDLE and len(mb) <= DIFF_MIDDLE:
        sm = difflib.SequenceMatcher(None, ma, mb, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                out += [" " + x for x in ma[i1:i2]]
                continue
            out += ["-" + x for x in ma[i1:i2]]
            out += ["+" + x for x in mb[j1:j2]]
    else:
        out += ["-" + x for x in ma]
        out += ["+" + x for x in mb]
    if tail:
        out.append(" " + a[len(a) - tail])
    return _cut(out)


def _cut(lines: list[str]) -> tuple[list[str], int]:
    if len(lines) <= DIFF_LINES:
        return lines, 0
    return lines[:DIFF_LINES], len(lines) - DIFF_LINES


def added_text(old: UIResource | None, new: UIResource | None) -> str:
    """The text the served UI adds (its added diff lines, joined), at most :data:`CUE_CHARS`
    characters: what the cue reader reads."""
    if new is None or new.text is None:
        return ""
    if old is None or old.text is None:
        return new.text[:CUE_CHARS]
    lines, _ = diff_lines(old, new)
    got = "\n".join(x[1:] for x in lines if x.startswith("+"))
    return got[:CUE_CHARS]
