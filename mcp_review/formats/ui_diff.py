"""A changed UI resource as text: the approved content against the served
one, every line made visible (hidden characters as tokens, ``hidden.safe_text``) and each cue
the engine's reader finds in the added text marked after it with its kind (``«kind»``).

Bounded on hostile input: the diff is linear and cut (engine/ui_resource.diff_lines), the cue
reader reads at most ``CUE_CHARS`` of added text, and a cue is looked for on the shown lines
only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_review.engine.cues import text_cues
from mcp_review.engine.hidden import safe_text
from mcp_review.engine.rules.cues import SECRET_PATH_RULE
from mcp_review.engine.ui_resource import UIResource, added_text, diff_lines, record_of

if TYPE_CHECKING:
    from mcp_review.engine.cues import Cue

MAX_MARKS = 50
"""Most cue marks written on a UI diff."""


def _kind(c: Cue) -> str:
    return "secret path" if c.rule == SECRET_PATH_RULE else str(c.kind)


def records_differ(old: UIResource | None, new: UIResource) -> bool:
    return old is None or not old.same_content(new)


def ui_diff_lines(
    old: tuple[UIResource, ...] | None, new: tuple[UIResource, ...] | None
) -> list[str]:
    """The text diff of every served UI resource whose record differs from the approved one
    (nothing when either side holds no records), each under a header naming it."""
    if old is None or new is None:
        return []
    out: list[str] = []
    for r in new:
        was = record_of(old, r.uri)
        if not records_differ(was, r):
            continue
        head = f"UI resource {safe_text(r.uri)}"
        if r.error is not None:
            out.append(f"{head}: cannot be read: {safe_text(r.error)}")
            continue
        mime = safe_text(r.mime_type or "(no MIME type)")
        if was is not None and was.mime_type != r.mime_type:
            mime = f"{safe_text(was.mime_type or '(none)')} -> {mime}"
        out.append(f"{head} ({mime}): {was.digest if was else '(none approved)'} -> {r.digest}")
        if was is not None and was.meta != r.meta:
            out.append(f"  content _meta: {safe_text(was.meta)} -> {safe_text(r.meta)}")
        lines, more = diff_lines(was, r)
        shown = [safe_text(x) for x in lines]
        _mark(shown, added_text(was, r))
        out += ["  " + x for x in shown]
        if more:
            out.append(f"  … {more} more lines")
    return out


def _mark(shown: list[str], added: str) -> None:
    """Write each cue of ``added`` after its text on the added lines of ``shown`` (in place)."""
    if not added:
        return
    marks = 0
    for c in text_cues(added):
        if marks >= MAX_MARKS or not c.text:
            break
        for i, line in enumerate(shown):
            if not line.startswith("+"):
                continue
            at = line.find(c.text)
            if at >= 0:
                end = at + len(c.text)
                shown[i] = f"{line[:end]}«{_kind(c)}»{line[end:]}"
                marks += 1
                break
