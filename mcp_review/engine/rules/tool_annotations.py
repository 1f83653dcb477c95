"""Tool annotations (MCP hints): a hint relaxed, a claim of less power, a default written out,
the annotation title, hints this tool does not know.

Its rules, and the functions that judge them (``schema_diff.diff_tools`` calls them)."""

from __future__ import annotations

from typing import Any

from mcp_review.engine.model import (
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
from mcp_review.engine.rules.registry import Rule
from mcp_review.engine.rules.registry import rule as _r
from mcp_review.engine.rules.render import (
    Raw,
    make,
    text_delta,
)

_TR = ChangeClass.TRUST
_CO = ChangeClass.COSMETIC
_T = Direction.TOOL

RULES: tuple[Rule, ...] = (
    _r(
        "annotation-relaxed",
        _TR,
        _T,
        "a safety hint moved towards more power (MCP defaults apply when absent)",
        "annotation {hint} relaxed: {old} -> {new} ({meaning})",
    ),
    _r(
        "annotation-gates-less",
        _TR,
        _T,
        "a safety hint now claims less power, so clients gate the tool less (MCP defaults "
        "apply when absent): never approved automatically",
        "annotation {hint} now claims less: {old} -> {new} ({meaning}); never approved "
        "automatically",
    ),
    _r(
        "annotation-explicit-default",
        _CO,
        _T,
        "a hint was written out or dropped with the MCP default value: same meaning",
        "annotation {hint}: {old} -> {new} (same effective value {value})",
    ),
    _r(
        "annotation-title-changed",
        _TR,
        _T,
        "annotations.title changed",
        "annotation title changed: {delta}",
    ),
    _r(
        "annotation-other-changed",
        _TR,
        _T,
        "an annotation this tool does not know changed",
        "annotation {key} changed: {old} -> {new}",
    ),
)


# Judging ------------------------------------------------------------------------------------------


# hint: (MCP default when absent, the value that grants more power, what relaxing it means,
#        what a client does with the claim of less power)
_HINTS: dict[str, tuple[bool, bool, str, str]] = {
    "readOnlyHint": (
        False,
        False,
        "the tool may now modify its environment",
        "clients may now run it without asking",
    ),
    "destructiveHint": (
        True,
        True,
        "the tool may now perform destructive updates",
        "clients may stop confirming destructive calls",
    ),
    "idempotentHint": (
        False,
        False,
        "repeating a call may now have additional effects",
        "clients may now retry calls freely",
    ),
    "openWorldHint": (
        True,
        True,
        "the tool may now reach an open world of external entities",
        "clients may stop treating its results as untrusted",
    ),
}


def judge_annotations(
    old: dict[str, Any], new: dict[str, Any], whole: tuple[Any, Any] | None = None
) -> list[Change]:
    """The annotations' changes. ``whole``: the ``annotations`` fields as sent (MISSING when
    absent), so ``{}`` written out or dropped is named (same meaning: every hint at its
    default)."""
    out: list[Change] = []
    if whole is not None and not jeq(*whole) and all(v is MISSING or v == {} for v in whole):
        out.append(
            make(
                "annotation-explicit-default",
                "/annotations",
                hint=Raw("(the whole field)"),
                old=opt(whole[0]),
                new=opt(whole[1]),
                value=Raw("every hint at its MCP default"),
            )
        )
    for hint, (default, power, meaning, gated) in _HINTS.items():
        ov, nv = old.get(hint, MISSING), new.get(hint, MISSING)
        if jeq(ov, nv):
            continue
        oe, ne = _effective(ov, default, power), _effective(nv, default, power)
        ptr = "/annotations/" + hint
        shown = {"hint": Raw(hint), "old": opt(ov), "new": opt(nv)}
        less = not power
        if oe == ne and less in client_readings(nv) and less not in client_readings(ov):
            # Not a boolean, read as one by clients (the SDK's lax bool, a truthiness test):
            # the claim they act on is the claim of less power.
            out.append(make("annotation-gates-less", ptr, meaning=Raw(gated), **shown))
        elif oe == ne:
            out.append(make("annotation-explicit-default", ptr, value=ne, **shown))
        elif ne == power:
            out.append(make("annotation-relaxed", ptr, meaning=Raw(meaning), **shown))
        else:
            # A claim of *less* power is what hosts auto-run on (a tool that starts saying
            # readOnlyHint: true skips the approval prompt): trust, not a tightening.
            out.append(make("annotation-gates-less", ptr, meaning=Raw(gated), **shown))
    a, b = as_text(old.get("title")), as_text(new.get("title"))
    fired = text_rule(a, b, "annotation-title-changed")
    if fired:
        out.append(
            make(
                fired,
                "/annotations/title",
                direction=Direction.TOOL,
                delta=text_delta(a, b),
                field=Raw("annotations.title"),
                where=Raw("tool"),
            )
        )
    for key in sorted({*old, *new} - {*_HINTS, "title"}):
        ov, nv = old.get(key, MISSING), new.get(key, MISSING)
        if not jeq(ov, nv):
            out.append(
                make(
                    "annotation-other-changed",
                    "/annotations/" + pointer_escape(key),
                    key=key,
                    old=opt(ov),
                    new=opt(nv),
                )
            )
    return out


_LAX_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_LAX_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})


def client_readings(v: Any) -> frozenset[bool]:
    """The booleans clients may read a hint's value as when it is not a boolean: the mcp SDK's
    lax bool (pydantic: "yes", "true", "1", 1 → true; "no", "false", "0", 0 → false, any
    case) and a JavaScript host's truthiness test (a non-empty string, a non-zero number, an
    object → true). A boolean is read as itself; absent or null: empty (the MCP default)."""
    if v is MISSING or v is None:
        return frozenset()
    if isinstance(v, bool):
        return frozenset({v})
    out = set()
    if isinstance(v, str):
        word = v.strip().lower()
        if word in _LAX_TRUE or word in _LAX_FALSE:
            out.add(word in _LAX_TRUE)
        out.add(bool(v))
    elif isinstance(v, int | float):
        out.add(bool(v))
    else:
        out.add(True)
    return frozenset(out)


def _effective(v: Any, default: bool, power: bool) -> bool:
    # A hint that is not a boolean cannot be trusted to restrict anything.
    if v is MISSING or v is None:
        return default
    return v if isinstance(v, bool) else power
