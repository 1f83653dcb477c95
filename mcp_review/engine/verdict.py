"""The gate: whether a tool, a server's instructions or a whole report fails, and every exit
code a command returns, decided here once for every command, the app and the proxy (formats
only print what this module decided; design.md "Exit codes")."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from mcp_review.engine import exitcodes

if TYPE_CHECKING:
    from mcp_review.engine.instructions import InstructionsStatus
    from mcp_review.engine.pins import Pin
    from mcp_review.engine.policy import Outcome
    from mcp_review.engine.rerun import Outcome as RerunOutcome
    from mcp_review.engine.status import State, StatusReport, ToolStatus

FAIL_ON = ("breaking", "review", "any")
"""``check --fail-on``: what fails the gate. ``review`` (the default, and what ``status`` and
the app use) fails on anything a human must look at."""


@functools.cache
def _gate_names() -> tuple[Callable[[Pin | None], bool], type[Outcome], type[State]]:
    """(awaiting_upgrade, Outcome, State), imported on first use (they build on this module's
    callers) and kept: fails_gate runs once per tool, three times per report on a fleet."""
    from mcp_review.engine.candidate import awaiting_upgrade
    from mcp_review.engine.policy import Outcome
    from mcp_review.engine.status import State

    return awaiting_upgrade, Outcome, State


def fails_gate(t: ToolStatus, fail_on: str) -> bool:
    """Whether one tool fails the gate under ``fail_on``."""
    awaiting_upgrade, Outcome, State = _gate_names()

    if t.state is State.REMOVED and awaiting_upgrade(t.pin):
        return False  # approved in a candidate preview; the running version never served it
    if fail_on == "any":
        return (
            t.state not in (State.PINNED, State.DENIED) and t.policy.outcome is not Outcome.WAIVED
        )
    if fail_on == "review":
        return t.needs_attention
    if t.policy.outcome is Outcome.BLOCK:
        return True
    if t.policy.outcome is Outcome.WAIVED:
        return False  # every change that fails it is waived (engine/gate.py)
    if t.state is State.BROKEN:
        return True
    return t.state is State.REMOVED and t.pin is not None and t.pin.approved


def failing(report: StatusReport, fail_on: str) -> list[ToolStatus]:
    """The tools that fail the gate under ``fail_on``."""
    return [t for t in report.tools if fails_gate(t, fail_on)]


def instructions_fail(i: InstructionsStatus, fail_on: str) -> bool:
    """Server instructions are on the trust axis: ``review`` fails on new, changed or removed
    ones; ``breaking`` only on blocked ones (hidden characters); ``any`` on any drift."""
    from mcp_review.engine.policy import Outcome

    if fail_on == "any":
        return i.state not in ("pinned", "denied")
    if fail_on == "review":
        return i.needs_attention
    return i.policy.outcome is Outcome.BLOCK


def drifted_instructions(report: StatusReport) -> list[InstructionsStatus]:
    """Every server's instructions that are not simply pinned."""
    return [
        s.instructions
        for s in report.servers
        if s.instructions is not None and s.instructions.state != "pinned"
    ]


def exit_code(report: StatusReport, fail_on: str = "review") -> int:
    """1 when anything fails the gate under ``fail_on``; else 3 when a server could not be
    read; else 0. ``status`` and the app judge with ``review``."""
    if failing(report, fail_on) or any(
        instructions_fail(i, fail_on) for i in drifted_instructions(report)
    ):
        return exitcodes.FAIL
    if report.unreachable:
        return exitcodes.UNREACHABLE
    return exitcodes.PASS


def verdict_word(code: int) -> str:
    """PASS / FAIL / UNREACHABLE for an exit code, as every report says it."""
    return {exitcodes.FAIL: "FAIL", exitcodes.UNREACHABLE: "UNREACHABLE"}.get(code, "PASS")


def verdict(report: StatusReport, fail_on: str) -> str:
    """The report's verdict word under ``fail_on``."""
    return verdict_word(exit_code(report, fail_on))


def rerun_exit_code(outcomes: Iterable[RerunOutcome]) -> int:
    """``rerun``: 1 on any changed / shape-drift / now-error result, else 0."""
    from mcp_review.engine.rerun import FAILING

    return exitcodes.FAIL if any(o in FAILING for o in outcomes) else exitcodes.PASS


def with_rerun(code: int, fail_on: str, *, rerun_failed: bool, unreachable: bool) -> int:
    """``check --rerun``: the gate also fails (under ``review`` or ``any``) on a rerun result
    that fails; a server rerun could not reach is exit 3 when nothing else failed."""
    if rerun_failed and fail_on in ("review", "any"):
        return exitcodes.FAIL
    if unreachable and code == exitcodes.PASS:
        return exitcodes.UNREACHABLE
    return code


def proxy_exit_code(rc: int) -> int:
    """``proxy``: the relay's own code (0, 3 when the server could not be started or died
    under the client, 128+N after signal N) is passed on; anything else is 1."""
    return rc if rc in (exitcodes.PASS, exitcodes.UNREACHABLE) or rc > 100 else exitcodes.FAIL


def needs_confirmation(t: ToolStatus) -> bool:
    """A pinned tool whose change a baseline must not wave through: breaking, trust, a broken
    recorded call, or a digest change the engine could not name."""
    from mcp_review.engine.model import ChangeClass

    cmp = t.comparison
    if cmp is None:
        return False
    classes = {c.cls for c in cmp.changes}
    return (
        not classes
        or ChangeClass.BREAKING in classes
        or ChangeClass.TRUST in classes
        or cmp.broken_calls > 0
    )
