"""What the screens ask of the app: messages up (the app owns the source and writes decisions).

A screen never calls the app's methods: it hands one of these up with :func:`ask_app`
(delivered at once, so a dialog it opens is on top before the next key is routed), or posts it
and it bubbles from the screen to ``ReviewApp``. The app asks the operator first where a decision is involved (a stray key never
decides), writes through the source, then tells the main screen to recompute (attributes
down).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.dom import DOMNode
from textual.message import Message

from mcp_review.engine.pins import Decision
from mcp_review.tui.view import ServerEntry, SurfaceEntry, ToolEntry

if TYPE_CHECKING:
    from mcp_review.engine.kinds import Alone, Group, SurfaceAlone


@dataclass
class ReviewRequested(Message):
    """Open the review screen on a tool."""

    entry: ToolEntry


@dataclass
class DecisionRequested(Message):
    """Approve or deny a tool from the list (the app asks first)."""

    entry: ToolEntry
    decision: Decision
    note: str = ""
    """The note kept for this tool's next decision (``e`` on the main screen)."""


@dataclass
class InstructionsDecisionRequested(Message):
    """Approve or deny a server's instructions from its row (the app shows the diff first)."""

    server: ServerEntry
    decision: Decision


@dataclass
class SurfaceReviewRequested(Message):
    """Open the review screen of a prompt, resource or resource template."""

    entry: SurfaceEntry


@dataclass
class SurfaceDecisionRequested(Message):
    """Approve or deny a prompt, resource or template from the list (the app asks first)."""

    entry: SurfaceEntry
    decision: Decision


@dataclass
class GroupRequested(Message):
    """Open the group (review by kind) a tool is a member of (``g`` on the list)."""

    entry: ToolEntry


@dataclass
class GroupsRequested(Message):
    """Open the groups view of the whole drift: the groups and the tools that stand alone."""


@dataclass
class GroupItemRequested(Message):
    """Open one row of the groups view: a group's screen, or the review of a tool alone."""

    item: Group | Alone | SurfaceAlone


@dataclass
class GroupDecisionRequested(Message):
    """Approve or deny a group but the members left out (the app asks first, once)."""

    group: Group
    decision: Decision
    left_out: frozenset[tuple[str, ...]] = frozenset()
    """Keys of the members removed with space: nothing is decided for them."""


@dataclass
class CompatibleApprovalRequested(Message):
    """Approve every compatible-only change of a server (listed first)."""

    server: ServerEntry


@dataclass
class AutoApprovalsRequested(Message):
    """Re-pin every tool whose policy outcome is auto-approve (listed first)."""


@dataclass
class UndoRequested(Message):
    """Undo the last decision (asks first: an undo writes the pin file too)."""


@dataclass
class PolicyRequested(Message):
    """Choose the policy tier of a server, or of one of its tools."""

    server: str
    entry: ToolEntry | None = None


def ask_app(node: DOMNode, message: Message) -> None:
    """Hand a request up to the app *now*, not through the message queues: the dialog it
    opens must be on top before the app routes the next key (keys typed in
    one burst, ``ax``, reached the screen under a dialog still opening, so the ``x`` that should
    cancel it was spent and the dialog waited for ``y``). An app without ``handle_request``
    gets the message posted, as before."""
    handle = getattr(node.app, "handle_request", None)
    if callable(handle):
        handle(message)
    else:
        node.post_message(message)
