"""Approvals made while previewing an upgrade (``--candidate``) keep the running version's.

A server's ``[servers.NAME.candidate]`` is reviewed under the server's name and principal, so
a decision on a candidate's definition replaces the tool's pin. The approved definition it
replaces (the one the running version serves) must stay approved while the running version
serves it: else the proxy would withhold the tool from the clients still running it. So a
decision made with ``--candidate`` (approve, deny, pin) keeps the earlier approved
definition(s) in the pin's ``also_approved`` key (a list of definition texts, as
``definition``), and ``engine.status`` counts a live definition equal to one of them as pinned.

A kept definition's approval ends when the running version **no longer serves it**: a fetch
of the running (non-candidate) server that does not list its digest for that tool. Decisions
made without ``--candidate`` pass what that fetch lists (``served``) and keep only those; the
baseline (``pin``) drops the ones its fetch no longer lists (:func:`prune`). A denial made
without ``--candidate`` denies the tool: nothing stays approved beside it.

A tool the candidate adds has no running definition to keep: approved while previewing, its
pin carries ``approved_in_preview = true`` (:data:`PREVIEW_KEY`), and while the running
version does not serve it, ``engine.status`` reports it removed but waiting for the upgrade
(nothing to review, no gate fails), not as an approved tool gone. A decision made without
``--candidate`` drops the mark, so a later removal counts again.

The list rides in ``Pin.extra`` (keys the pin file keeps and writes back), written like
``definition`` (``PinFile.dumps``: an array of multi-line strings, one JSON key per line, issue
30 item 14); each entry is a whole definition, hashed when read, so there is no digest to
forge beside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Any

ALSO_KEY = "also_approved"
PREVIEW_KEY = "approved_in_preview"
AWAITING_UPGRADE = (
    "approved while previewing the candidate; the running version does not serve it yet"
)
MAX_KEPT = 4
"""Earlier approved definitions kept per tool: an upgrade previewed step by step keeps a few."""


def also_approved(pin: Any) -> list[str]:
    """The definition texts kept beside ``pin``'s own (well-formed entries only)."""
    v = pin.extra.get(ALSO_KEY) if isinstance(getattr(pin, "extra", None), dict) else None
    if not isinstance(v, list):
        return []
    return [x for x in v if isinstance(x, str)]


def also_digests(pin: Any) -> set[str]:
    """Digests (this scheme) of the definitions kept beside ``pin``; an entry that does not
    parse, or is a definition of another tool, counts for nothing (fail closed)."""
    return {d for d in (_digest(t, pin.tool) for t in also_approved(pin)) if d is not None}


def awaiting_upgrade(pin: Any) -> bool:
    """``pin`` is an approval made while previewing a candidate, of a tool the running version
    did not serve then (its removal from the running servers is no removal)."""
    extra = getattr(pin, "extra", None)
    return bool(getattr(pin, "approved", False)) and (
        isinstance(extra, dict) and extra.get(PREVIEW_KEY) is True
    )


def keep_running(
    new: Any, before: Any, *, candidate: bool, served: Collection[str] | None = None
) -> Any:
    """``new`` (a Pin about to be written) with the approvals it must keep.

    With ``candidate``: an approval of a tool with no pin yet (or one still awaiting the
    upgrade) is marked :data:`PREVIEW_KEY`; ``before``'s approved definition and those it kept ride along, unless
    equal to ``new``'s. Without: a denial keeps nothing; an approval keeps the definitions
    ``before`` kept that the running version still serves (``served``: the digests a fetch of
    the running server lists for this tool; None means the decision binds the one it serves
    now, ``new``'s, so nothing else is served)."""
    extra = {k: v for k, v in new.extra.items() if k not in (ALSO_KEY, PREVIEW_KEY)}
    if candidate and new.approved and (before is None or awaiting_upgrade(before)):
        extra[PREVIEW_KEY] = True  # new in the candidate: the running version never served it
    kept: list[str] = []
    if candidate and before is not None:
        if before.approved:
            kept.append(before.definition)
        kept.extend(also_approved(before))
    elif before is not None and new.approved and served:
        kept.extend(t for t in also_approved(before) if _digest(t, new.tool) in served)
    kept = [t for t in dict.fromkeys(kept) if t != new.definition][:MAX_KEPT]
    if kept:
        extra[ALSO_KEY] = kept
    return dataclasses.replace(new, extra=extra)


def prune(pin: Any, served: Collection[str]) -> Any | None:
    """``pin`` without the kept definitions the running version no longer serves (``served``:
    the digests a fetch of the running server lists for this tool), and without the preview's
    mark once the running version serves the tool at all; None when nothing changes."""
    kept = also_approved(pin)
    marked = PREVIEW_KEY in pin.extra and bool(served)
    if not kept and not marked:
        return None
    still = [t for t in kept if _digest(t, pin.tool) in served]
    if still == kept and not marked:
        return None
    # Served by the running version now: no longer awaiting the upgrade.
    extra = {k: v for k, v in pin.extra.items() if k not in (ALSO_KEY, PREVIEW_KEY)}
    if still:
        extra[ALSO_KEY] = still
    return dataclasses.replace(pin, extra=extra)


def _digest(text: str, tool: str) -> str | None:
    from mcp_review.engine.canonical import loads
    from mcp_review.engine.errors import InputError
    from mcp_review.engine.model import ToolDef

    try:
        t = ToolDef.from_wire(loads(text, source=ALSO_KEY), source=ALSO_KEY)
    except InputError:
        return None
    return t.digest if t.name == tool else None
