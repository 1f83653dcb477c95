"""The tool around its schemas: name, description, title, outputSchema declared or dropped,
``execution``, ``icons``, ``_meta`` (its rules: engine/rules/meta.py) and keys MCP does not
define.

Its rules, and the functions that judge them (``schema_diff.diff_tools`` calls them)."""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import (
    CONTRACT_FIELDS,
    Change,
    ChangeClass,
    Direction,
    pointer_escape,
)
from mcp_review.engine.rules.kit import (
    MISSING,
    as_text,
    jeq,
    opt,
    text_rule,
)
from mcp_review.engine.rules.meta import judge_meta
from mcp_review.engine.rules.registry import Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import Raw, make, text_delta

_B = ChangeClass.BREAKING
_P = ChangeClass.POTENTIALLY_BREAKING
_C = ChangeClass.COMPATIBLE
_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_T = Direction.TOOL

RULES: tuple[Rule, ...] = (
    _r(
        "tool-renamed",
        _B,
        _T,
        "the tool's name changed: calls by the old name fail",
        "tool renamed {old} -> {new}: calls by the old name fail",
    ),
    _r(
        "tool-description-changed",
        _TR,
        _T,
        "the tool description text changed",
        "tool description changed: {delta}",
    ),
    _r("tool-title-changed", _TR, _T, "the tool title changed", "tool title changed: {delta}"),
    _r(
        "output-schema-added",
        _C,
        Direction.OUTPUT,  # the results' side of the contract
        "an outputSchema was declared where none was",
        "outputSchema added: results are now described",
    ),
    _r(
        "output-schema-removed",
        _P,
        Direction.OUTPUT,  # the results' side of the contract
        "the outputSchema was dropped",
        "outputSchema removed: results are no longer promised to have any shape",
    ),
    _r(
        "execution-changed",
        _P,
        _T,
        "the tool's execution contract changed (e.g. taskSupport forbidden -> required)",
        "execution {key} changed: {old} -> {new}{meaning}",
    ),
    _r(
        "execution-explicit-default",
        _CO,
        _T,
        "execution (or its taskSupport) was written out or dropped with the MCP default value "
        '(absent taskSupport means "forbidden"): same meaning',
        "execution {key}: {old} -> {new} (same effective value {value})",
    ),
    _r(
        "icons-changed",
        _TR,
        _T,
        "the tool's icons changed: server-chosen content shown to users",
        "icons changed: {old} -> {new}",
    ),
    _r(
        "tool-key-changed",
        _TR,
        _T,
        "a key MCP does not define at the top level of the tool changed: part of the pinned "
        "contract (a host may pass it on)",
        "tool key {key} changed: {old} -> {new}",
    ),
)


# Judging ------------------------------------------------------------------------------------------


_TASK_MEANING = {
    ("forbidden", "required"): " (a client that does not run tasks can no longer call it)",
    ("optional", "required"): " (a client that does not run tasks can no longer call it)",
    ("forbidden", "optional"): " (the tool may now run as a task)",
    ("required", "optional"): " (the tool may now run without a task)",
    ("required", "forbidden"): " (a client that runs it as a task is now refused)",
    ("optional", "forbidden"): " (a client that runs it as a task is now refused)",
}


_DEFINED = frozenset({*CONTRACT_FIELDS, "_meta"})
"""Top-level keys MCP defines on a tool; any other is judged by ``tool-key-changed``."""


def _ptr_key(key: str) -> str:
    return pointer_escape(key)


def judge_outside_schemas(ow: dict[str, Any], nw: dict[str, Any]) -> list[Change]:
    """``execution`` (potentially-breaking: how a client must call the tool), ``icons`` (trust:
    server-chosen content shown to people), ``_meta`` (engine/rules/meta.py) and keys MCP does
    not define (trust: the digest covers the whole tool)."""
    out: list[Change] = []
    oe, ne = ow.get("execution", MISSING), nw.get("execution", MISSING)
    if not jeq(oe, ne):
        od = oe if isinstance(oe, dict) else {}
        nd = ne if isinstance(ne, dict) else {}
        if (oe is not MISSING and not isinstance(oe, dict)) or (
            ne is not MISSING and not isinstance(ne, dict)
        ):
            out.append(
                make(
                    "execution-changed",
                    "/execution",
                    key=Raw("(the whole field)"),
                    old=opt(oe),
                    new=opt(ne),
                    meaning=Raw(""),
                )
            )
        else:
            if jeq(od, nd):  # absent -> {} or back: no requirement either way
                out.append(
                    make(
                        "execution-explicit-default",
                        "/execution",
                        key=Raw("(the whole field)"),
                        old=opt(oe),
                        new=opt(ne),
                        value=Raw("(no execution requirements)"),
                    )
                )
            for key in sorted({*od, *nd}):
                ov, nv = od.get(key, MISSING), nd.get(key, MISSING)
                if jeq(ov, nv):
                    continue
                meaning = ""
                if key == "taskSupport":  # absent means "forbidden" (MCP 2025-11-25)
                    a = "forbidden" if ov is MISSING else ov
                    b = "forbidden" if nv is MISSING else nv
                    if a == b:
                        out.append(
                            make(
                                "execution-explicit-default",
                                "/execution/taskSupport",
                                key=key,
                                old=opt(ov),
                                new=opt(nv),
                                value=b,
                            )
                        )
                        continue
                    if isinstance(a, str) and isinstance(b, str):
                        meaning = _TASK_MEANING.get((a, b), "")
                out.append(
                    make(
                        "execution-changed",
                        "/execution/" + _ptr_key(key),
                        key=key,
                        old=opt(ov),
                        new=opt(nv),
                        meaning=Raw(meaning),
                    )
                )
    oi, ni = ow.get("icons", MISSING), nw.get("icons", MISSING)
    if not jeq(oi, ni):
        out.append(make("icons-changed", "/icons", old=opt(oi), new=opt(ni)))
    out += judge_meta(ow.get("_meta", MISSING), nw.get("_meta", MISSING))
    for key in sorted({*ow, *nw} - _DEFINED):
        ov, nv = ow.get(key, MISSING), nw.get(key, MISSING)
        if not jeq(ov, nv):
            out.append(
                make("tool-key-changed", "/" + _ptr_key(key), key=key, old=opt(ov), new=opt(nv))
            )
    return out


def judge_name_and_text(ow: dict[str, Any], nw: dict[str, Any]) -> list[Change]:
    """The tool's name, description and title."""
    out: list[Change] = []
    if ow.get("name") != nw.get("name"):
        out.append(make("tool-renamed", "/name", old=ow.get("name"), new=nw.get("name")))
    for field, rule in (
        ("description", "tool-description-changed"),
        ("title", "tool-title-changed"),
    ):
        a, b = as_text(ow.get(field)), as_text(nw.get(field))
        fired = text_rule(a, b, rule)
        if fired:
            out.append(
                make(
                    fired,
                    "/" + field,
                    direction=Direction.TOOL,
                    delta=text_delta(a, b),
                    field=Raw(field),
                    where=Raw("tool"),
                )
            )
    return out


def output_schema_presence(oo: Any, no: Any) -> Change | None:
    """An outputSchema declared where none was, or dropped; None when both or neither."""
    # Output-side changes: a removed schema's witness is a result the old one rejected.
    if oo is None and no is not None:
        return make("output-schema-added", "/outputSchema")
    if oo is not None and no is None:
        return make("output-schema-removed", "/outputSchema")
    return None
