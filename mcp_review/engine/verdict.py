"""Exit codes and verdict words: every exit code a command returns, read from what the status
decided (``StatusReport.gate``: whether each tool, each server's instructions and the whole
report fail, decided once in ``engine.status``; formats only print it; docs/design.md "Exit
codes"). A verdict reads a status: this module imports ``engine.status``, never the reverse
(the import-linter contract on the engine's own layers)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from mcp_review.engine import exitcodes

if TYPE_CHECKING:  # (imported for types only: the proxy reads its exit code without them)
    from mcp_review.engine.instructions import InstructionsStatus
    from mcp_review.engine.rerun import RerunOutcome
    from mcp_review.engine.status import StatusReport, ToolStatus

FAIL_ON = ("breaking", "review", "any")
"""``check --fail-on``: what fails the gate. ``review`` (the default, and what ``status`` and
the app use) fails on anything a human must look at."""


def fails_gate(t: ToolStatus, fail_on: str) -> bool:
    """Whether one tool fails the gate under ``fail_on`` (:meth:`ToolStatus.fails_gate`)."""
    return t.fails_gate(fail_on)


def failing(report: StatusReport, fail_on: str) -> list[ToolStatus]:
    """The tools that fail the gate under ``fail_on``."""
    return list(report.gate(fail_on).failing)


def instructions_fail(i: InstructionsStatus, fail_on: str) -> bool:
    """Whether server instructions fail the gate (:meth:`InstructionsStatus.fails_gate`)."""
    return i.fails_gate(fail_on)


def drifted_instructions(report: StatusReport) -> list[InstructionsStatus]:
    """Every server's instructions that are not simply pinned."""
    return list(report.gate().drifted_instructions)


def exit_code(report: StatusReport, fail_on: str = "review") -> int:
    """1 when anything fails the gate under ``fail_on``; else 3 when a server could not be
    read; else 0. ``status`` and the app judge with ``review``."""
    return report.gate(fail_on).exit_code


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
