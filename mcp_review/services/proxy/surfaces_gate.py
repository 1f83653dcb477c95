"""The proxy's enforcement of prompts, resources and resource templates.

Under ``--enforce`` only what the operator approved reaches the client: a listed prompt,
resource or template passes when its pin is approved and the object served is exactly the one
approved (its digest); every other (new, changed, denied, or its pin does not verify) is
withheld from the list. ``prompts/get`` is refused for a prompt without an approved pin, or
whose last listed form is not the approved one; ``resources/read`` is refused for a URI that
is neither an approved resource nor matches an approved template (fail closed). MCP Apps UI
resources (``ui://``) are judged by the tool's pin (services/proxy/enforce.py ``ui_resource``).

Pure functions over a parsed pin file; the relay calls them in a worker thread through the
Enforcer, which reads the pin file."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcp_review.engine.surfaces import (
    LIST_FIELD,
    PROMPT,
    RESOURCE,
    TEMPLATE,
    surface_digest,
    surface_key,
)

KIND_OF_FIELD = {v: k for k, v in LIST_FIELD.items()}
"""The list member of a result (``prompts``, ``resources``, ``resourceTemplates``) → kind."""


def verdict(pins: Any, server: str, principal: str, kind: str, wire: Any) -> str | None:
    """Why ``wire`` (one listed entry) is withheld, or None when it passes."""
    if not isinstance(wire, dict):
        return "not an object"
    name = surface_key(kind, wire)
    if name is None:
        return "no name" if kind != RESOURCE else "no uri"
    key = (server, principal, kind, name)
    if key in pins.unverified_surfaces:
        return _unverified(pins, key)
    pin = pins.surfaces.get(key)
    if pin is None:
        return f"new, never approved (mcp-review approve SERVER --{kind} ...)"
    try:
        digest = surface_digest(wire)
    except (ValueError, TypeError):
        return "not JSON the pin could match"
    if not pin.approved:
        return "denied by the operator"
    if pin.digest != digest:
        return "changed since approved (review it, then approve it again)"
    return None


def _unverified(pins: Any, key: tuple[str, str, str, str]) -> str:
    """Why a surface's pin is set aside (its digest, or with ``--require-signed`` its signed
    decision, does not verify), bounded: the reason may quote a name the server chose."""
    why = " ".join(str(pins.unverified_surfaces[key][1]).split())
    return "its pin does not verify: " + (why if len(why) <= 300 else why[:299] + "…")


def filter_list(
    pins: Any, server: str, principal: str, kind: str, items: list[Any]
) -> tuple[list[Any], list[tuple[str, str]]]:
    """(the entries that pass, [(name, why) withheld])."""
    kept: list[Any] = []
    out: list[tuple[str, str]] = []
    for w in items:
        why = verdict(pins, server, principal, kind, w)
        if why is None:
            kept.append(w)
        else:
            name = surface_key(kind, w) if isinstance(w, dict) else None
            out.append((name or "?", why))
    return kept, out


def prompt_refusal(
    pins: Any, server: str, principal: str, name: Any, seen: Mapping[tuple[str, str], str]
) -> str | None:
    """Why ``prompts/get`` of ``name`` is refused, or None. ``seen``: the digests of what the
    server last listed through this proxy, by (kind, name)."""
    if not isinstance(name, str):
        return "a prompts/get without a prompt name"
    key = (server, principal, PROMPT, name)
    if key in pins.unverified_surfaces:
        return f"prompt {name!r}: {_unverified(pins, key)}"
    pin = pins.surfaces.get(key)
    if pin is None or not pin.approved:
        return f"prompt {name!r} is not approved (mcp-review approve SERVER --prompt NAME)"
    live = seen.get((PROMPT, name))
    if live is not None and live != pin.digest:
        return f"prompt {name!r} changed since it was approved"
    return None


def template_regex(template: str) -> re.Pattern[str] | None:
    """A regex matching the URIs an RFC 6570 template expands to (levels 1-4, loosely: a simple
    ``{var}`` is one path segment, ``{+var}`` / ``{#var}`` anything, ``{?a,b}`` / ``{&a}`` a
    query); None for a template that does not parse."""
    out = ["^"]
    i = 0
    while i < len(template):
        j = template.find("{", i)
        if j < 0:
            out.append(re.escape(template[i:]))
            break
        out.append(re.escape(template[i:j]))
        k = template.find("}", j)
        if k < 0:
            return None
        expr = template[j + 1 : k]
        op = expr[:1]
        if op in ("+", "#"):
            out.append((re.escape(op) if op == "#" else "") + ".*")
        elif op in ("?", "&"):
            out.append(r"(?:[?&][^#]*)?")
        elif op in ("/", ".", ";"):
            out.append(r"(?:" + re.escape(op) + r"[^?#]*)*")
        else:
            out.append(r"[^/?#]*")
        i = k + 1
    out.append("$")
    try:
        return re.compile("".join(out))
    except re.error:
        return None


def read_refusal(
    pins: Any, server: str, principal: str, uri: Any, seen: Mapping[tuple[str, str], str]
) -> str | None:
    """Why ``resources/read`` of ``uri`` is refused, or None: it passes when it is an approved
    resource (unchanged when last listed) or matches an approved template's uriTemplate."""
    if not isinstance(uri, str):
        return "a resources/read without a uri"
    key = (server, principal, RESOURCE, uri)
    pin = pins.surfaces.get(key)
    if key not in pins.unverified_surfaces and pin is not None and pin.approved:
        live = seen.get((RESOURCE, uri))
        if live is None or live == pin.digest:
            return None
        return f"resource {uri!r} changed since it was approved"
    for (s, p, kind, _), tp in pins.surfaces.items():
        if s != server or p != principal or kind != TEMPLATE or not tp.approved:
            continue
        if seen.get((TEMPLATE, tp.name), tp.digest) != tp.digest:
            continue  # the template changed since approved: it vouches for nothing
        tmpl = tp.wire.get("uriTemplate")
        rx = template_regex(tmpl) if isinstance(tmpl, str) else None
        if rx is not None and rx.match(uri):
            return None
    return (
        f"resource {uri!r} is neither an approved resource nor matches an approved "
        "resource template (mcp-review approve SERVER --resource URI)"
    )
