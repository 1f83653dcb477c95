"""Approvals made while previewing an upgrade (``--candidate``) keep the running version's.

A server's ``[servers.NAME.candidate]`` is reviewed under the server's name and principal, so
approving a candidate's definition replaces the tool's pin. The definition it replaces (the
one the running version serves) must stay approved until the running version is gone: else
the proxy would withhold the tool from the clients still running it. So a decision made with
``--candidate`` keeps the earlier approved definition(s) in the pin's ``also_approved`` key (a
list of definition texts, as ``definition``), and ``core.status`` counts a live definition
equal to one of them as pinned. A later decision made without ``--candidate`` drops the list:
by then the config was switched and the old version is no longer what runs.

The list rides in ``Pin.extra`` (keys the pin file keeps and writes back as they are), so the
pin file's layout does not change; each entry is a whole definition, hashed when read, so
there is no digest to forge beside it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

ALSO_KEY = "also_approved"
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
    from mcp_review.core.canonical import loads
    from mcp_review.core.errors import InputError
    from mcp_review.core.model import ToolDef

    out = set()
    for text in also_approved(pin):
        try:
            t = ToolDef.from_wire(loads(text, source=ALSO_KEY), source=ALSO_KEY)
        except InputError:
            continue
        if t.name == pin.tool:
            out.add(t.digest)
    return out


def keep_running(new: Any, before: Any, *, candidate: bool) -> Any:
    """``new`` (a Pin about to be written) with the approvals it must keep.

    With ``candidate``: ``before``'s approved definition and those it kept ride along, unless
    equal to ``new``'s. Without: ``new`` as it is (no ``also_approved``)."""
    extra = {k: v for k, v in new.extra.items() if k != ALSO_KEY}
    kept: list[str] = []
    if candidate and before is not None:
        if before.approved:
            kept.append(before.definition)
        kept.extend(also_approved(before))
    kept = [t for t in dict.fromkeys(kept) if t != new.definition][:MAX_KEPT]
    if kept:
        extra[ALSO_KEY] = kept
    return dataclasses.replace(new, extra=extra)
