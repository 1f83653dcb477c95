"""Hold: under ``--enforce`` a changed tool whose change is text, a claim of less power, icons,
``_meta`` or a compatible input change (output unchanged or narrowed) stays callable with its
approved definition while the change waits for review (docs/design.md, "Hold (proxy)").

:func:`hold_for` judges one tool from the engine's classification of pinned → live (a
:class:`~mcp_review.engine.status.ToolStatus`): a :class:`Hold` (what the client is served and
what its calls and results must satisfy) or the reason the tool is withheld instead. Every
check a :class:`Hold` makes runs on the relay's path: compiled once, when the tool is judged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_review.engine.status import ToolStatus

HELD = "held"
"""The verdict status of a held tool (and of a refused call to one)."""

TASK_REFUSED = (
    "a task-augmented call to a held tool is refused (its result would arrive outside the "
    "call, past the check of the approved output schema)"
)


@dataclass(frozen=True, slots=True, eq=False)
class Hold:
    """A held tool: the approved definition the client is served, and the checks every call
    to it and every result of it pass through."""

    pinned: dict[str, Any]
    """The approved definition's whole stored wire form (``_meta`` included)."""
    pinned_digest: str
    live_digest: str
    input: Any
    """The approved input schema's validator (engine.replay.SchemaValidator, its dialect)."""
    input_schema: Any
    output: Any = None
    """The approved output schema's validator, ``format`` not asserted; None without one."""

    def check_arguments(self, arguments: Any) -> str | None:
        """Why a call with ``arguments`` is refused, or None when it may be relayed: it
        validates under the approved input schema and sends no key that schema does not
        declare at that level (closed world, engine/closed.py)."""
        from mcp_review.engine.closed import CannotTell, undeclared

        args = {} if arguments is None else arguments  # MCP: absent arguments are {}
        if not isinstance(args, dict):
            return "its arguments are not a JSON object"
        # Valid (the common case) is told without building the error list.
        issues = [] if self.input.is_valid(args) else self.input.errors(args)
        if issues:
            first = issues[0]
            where = first.path or "/"
            more = f" (+{len(issues) - 1} more)" if len(issues) > 1 else ""
            return (
                f"its arguments do not validate under the approved input schema: at {where}: "
                f"{_bounded(first.message)}{more}"
            )
        try:
            extra = undeclared(self.input_schema, args)
        except CannotTell as e:
            return f"the proxy cannot tell which keys the approved schema declares: {e}"
        if extra is not None:
            return (
                f"it sends {_bounded(extra)}, which the approved input schema does not declare "
                "(a parameter added since is not callable until the change is approved)"
            )
        return None

    def check_result(self, result: Any) -> str | None:
        """Why a result must not reach the client as it is (None: it may): the approved
        definition has an output schema and the result's ``structuredContent`` is missing or
        fails it. Error results need none (clients do not validate them), but one they carry
        must pass too: a client may hand it on unvalidated."""
        if self.output is None:
            return None
        if not isinstance(result, dict):
            return "the server's result is not a JSON object"
        if result.get("isError") is True and "structuredContent" not in result:
            return None
        if "structuredContent" not in result:
            return (
                "the result carries no structuredContent, which the approved output schema requires"
            )
        sc = result["structuredContent"]
        issues = [] if self.output.is_valid(sc) else self.output.errors(sc)
        if issues:
            first = issues[0]
            return (
                "its structuredContent does not validate under the approved output schema: at "
                f"{first.path or '/'}: {_bounded(first.message)}"
            )
        return None


def _bounded(text: str, cap: int = 200) -> str:
    """Validator messages quote the instance (the call's own values): kept short."""
    text = " ".join(str(text).split())
    return text if len(text) <= cap else text[: cap - 1] + "…"


def hold_for(t: ToolStatus) -> Hold | str:
    """Whether a changed tool (``t``: an engine ToolStatus, state changed or broken) is held:
    a :class:`Hold`, or the reason it is withheld instead (the issue's "never held" list)."""
    from mcp_review.engine.candidate import ALSO_KEY, PREVIEW_KEY
    from mcp_review.engine.model import ChangeClass, Direction
    from mcp_review.engine.policy import Concern
    from mcp_review.engine.replay import SchemaError, SchemaValidator
    from mcp_review.engine.rules.catalog import rule_of
    from mcp_review.engine.rules.hidden import HIDDEN_ADDED
    from mcp_review.engine.rules.outside import HOST_RULES
    from mcp_review.engine.rules.tool_annotations import RELAXED
    from mcp_review.engine.status import State

    pin = t.pin
    if t.state is State.NEW:
        return "a new tool: never approved"
    if t.state not in (State.CHANGED, State.BROKEN) or pin is None or t.live is None:
        return f"{t.state}: nothing approved to serve"
    if not pin.approved or t.previously_denied:
        return "denied by the operator: a change never lifts a denial"
    if ALSO_KEY in pin.extra or PREVIEW_KEY in pin.extra:
        return (
            "its pin carries an approval made while previewing a candidate: the stored "
            "definition may not be the running server's"
        )
    if t.shadows:
        return "its name shadows another tool (" + ", ".join(map(repr, t.shadows))[:200] + ")"
    concerns = t.policy.concerns
    if Concern.HIDDEN_CHARACTERS in concerns:
        return rule_of(HIDDEN_ADDED).withheld
    if Concern.ANNOTATION_RELAXED in concerns:
        return rule_of(RELAXED).withheld
    if Concern.META_MORE_POWER in concerns:
        return (
            "_meta claims more power: "
            + "; ".join(
                r.removeprefix("_meta claims more power: ")
                for r in t.policy.reasons
                if r.startswith("_meta claims more power: ")
            )[:300]
        )
    cmp = t.comparison
    if cmp is None or t.pending:
        return "not compared with its pin"
    if cmp.broken_calls:
        return f"{cmp.broken_calls} recorded call(s) broken"
    if not cmp.changes:
        return "its digest changed but no change was classified"
    from mcp_review.engine.hosts import held_for_host

    host_held = held_for_host(t)
    for c in cmp.changes:
        if host_held and c.rule in HOST_RULES:
            continue  # the approved definition is served: the host keeps working
        rule = rule_of(c.rule)
        if not rule.holdable:  # (Rule.withheld: a claim of more power, hidden characters)
            return rule.withheld
        if c.cls in (ChangeClass.BREAKING, ChangeClass.POTENTIALLY_BREAKING):
            side = "output" if c.direction is Direction.OUTPUT else "input"
            if c.direction is Direction.TOOL:
                side = "tool"
            return f"a {c.cls} {side} change: {_bounded(c.message)}"
    approved = pin.tool_def()
    try:
        inp = SchemaValidator(approved.input_schema, source="the approved input schema")
        out_schema = approved.output_schema
        out = (
            SchemaValidator(out_schema, source="the approved output schema", formats=False)
            if out_schema is not None
            else None
        )
    except SchemaError as e:
        return f"the approved definition's schema cannot be compiled: {_bounded(e.reason)}"
    return Hold(
        pinned=approved.wire,
        pinned_digest=approved.digest,
        live_digest=t.live.digest,
        input=inp,
        input_schema=approved.input_schema,
        output=out,
    )
