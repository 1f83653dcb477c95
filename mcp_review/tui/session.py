"""The operator's review session: decide, undo, save and the history of decisions.

A :class:`ReviewSession` owns the pin file the app writes: every decision is recorded in an
``engine.pins.PinFile`` and, when the session has a path, saved at once (atomic, merged with
concurrent writers, audit line first: ``store.pinfile.save_pins``). Without a path decisions
stay in memory (demos, previews). Each decision is undone on its own, newest first; an undo is
itself a logged, saved change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_review.engine.instructions import InstructionsPin
from mcp_review.engine.pins import Decision, PinFile
from mcp_review.engine.pins import Pin as CorePin
from mcp_review.engine.policy import Outcome, blocked_approval
from mcp_review.engine.snapshot import ServerSnapshot, Snapshot
from mcp_review.engine.status import StatusReport
from mcp_review.engine.surfaces import SurfacePin
from mcp_review.services import decisions
from mcp_review.tui.view import ServerEntry, SurfaceEntry, ToolEntry

if TYPE_CHECKING:
    from mcp_review.engine.kinds import Group

# The audit log's words for a decision, as a verb before the tool (the undo dialog).
_SAID_VERB = {
    "removal acknowledged": "acknowledged the removal of",
    "auto-approval": "auto-approved",
}
_DECISION_NOUN = {"approved": "approval", "denied": "denial"}


@dataclass(frozen=True, slots=True)
class Decided:
    """One decision the session can undo: what it replaced, in the audit log's words."""

    server: str
    principal: str
    tool: str | None
    """None: a decision about the server's instructions (then :attr:`before` is an
    ``InstructionsPin``), or about a prompt, resource or template (:attr:`surface`)."""
    before: CorePin | InstructionsPin | SurfacePin | None
    """The pin the decision replaced on disk, read under the pin file's lock (None: there was
    none)."""
    said: str
    """The decision in the audit log's words (``removal acknowledged``, ``auto-approval``…)."""
    after: CorePin | InstructionsPin | SurfacePin | None = None
    """The decision written (None: a pin dropped). An undo restores :attr:`before` only while
    the pin file still holds exactly this (same decision, digest, decider and time)."""
    surface: tuple[str, str] | None = None
    """(kind, name) of the prompt, resource or template decided (then :attr:`tool` is
    None and :attr:`before` a ``SurfacePin``)."""

    @property
    def what(self) -> str:
        """What was decided, in words."""
        if self.surface is not None:
            return f'{self.server} › {self.surface[0]} "{self.surface[1]}"'
        if self.tool is not None:
            return f"{self.server} › {self.tool}"
        return f"the instructions of {self.server}"


class ReviewSession:
    """Decisions over one pin file, saved as they are made, with their undo history."""

    def __init__(
        self,
        pins: PinFile,
        *,
        pins_path: str | None = None,
        audit_path: str | None = None,
        candidates: Iterable[str] = (),
    ) -> None:
        self.pins = pins
        self.pins_path = pins_path
        self.audit_path = audit_path
        self.candidates = list(candidates)
        """Servers shown through their ``[servers.NAME.candidate]`` (``--candidate``): approving
        one keeps the running version's approval beside it."""
        self.save_notes: list[str] = []
        """Notes from saves for the app to show once (a pin file rewritten in a newer version)."""
        self.history: list[Decided] = []

    def save(self) -> list[Any] | None:
        """Write what was recorded (through ``services.decisions``); returns what each
        decision replaced on disk (None: no pin file, decisions stay in memory). A decision's
        compare-and-set refused raises ``ChangedMeanwhile`` with nothing written and
        :attr:`pins` reset to the file on disk."""
        if self.pins_path is None:
            return None
        from mcp_review.store.pinfile import upgrade_note

        result = decisions.save(self.pins, self.pins_path, audit_path=self.audit_path)
        note = upgrade_note(result, self.pins_path)
        if note:
            self.save_notes.append(note)
        return result.replaced

    def reread(self) -> bool:
        """Re-read the pin file when another writer changed it (a CLI ``approve`` while the app
        is open): True when it did. Without a pin file, nothing to read (False). Decisions are
        saved as they are made, so none is lost; the undo history stays, each undo checked
        against what is on disk (compare-and-set)."""
        if self.pins_path is None:
            return False
        from mcp_review.store.pinfile import reread_pins

        return reread_pins(self.pins, self.pins_path)

    def _saved(self, before: Any) -> Any:
        """Save one decision; what it replaced on disk (``before``, as recorded in memory,
        when there is no pin file)."""
        replaced = self.save()
        return replaced[-1] if replaced else before

    def last_decision(self) -> str | None:
        """What :meth:`undo` would undo, in words (None when nothing)."""
        if not self.history:
            return None
        d = self.history[-1]
        what = d.what
        verb = _SAID_VERB.get(d.said, d.said)
        if d.before is None:
            back = "undoing drops its pin (there was none before)"
        else:
            noun = _DECISION_NOUN.get(str(d.before.decision), str(d.before.decision))
            back = f"undoing puts back the earlier {noun} by {d.before.decided_by}"
        return f"{verb} {what}; {back}"

    def decide(
        self,
        entry: ToolEntry,
        decision: Decision,
        note: str = "",
        *,
        why: str = "",
        server: ServerSnapshot | None = None,
    ) -> None:
        """Record ``decision`` for exactly the definition shown, and save. ``why``: the
        operator's reason for approving a blocked change (the audit log's why); ``server``:
        the fetched server, whose versions the pin records.

        Made against the pin the row was computed with (``entry.shown``): when the pin file
        holds another decision by the time it is saved (the CLI decided meanwhile), nothing is
        written and ``ChangedMeanwhile`` says what is there now (the app asks again)."""
        key = entry.key
        before = self.pins.get(*key)
        # The audit log's words, as the CLI's (services.decisions.audit_why): what the
        # decision is made on, the blocking reasons it confirmed, then the operator's words.
        if entry.current is None and decision is Decision.APPROVED:
            made_on = "removed: removal acknowledged"  # approving a removal: the pin goes
        else:
            made_on = entry.accepted or str(entry.status)
        blocked = entry.reasons if blocked_approval(decision, entry.policy) else ()
        audit_why = decisions.audit_why(
            decision,
            made_on,
            note="; ".join(w for w in (why, note) if w),
            blocked=blocked,
            confirmed="in the review app",
        )
        # Previewing a candidate: the running version's approval stays beside it.
        decisions.decide_tool(
            self.pins,
            key,
            decision,
            live=entry.current,
            note=note,
            why=audit_why,
            source="review app",
            server_version=server.server_version if server else None,
            protocol_version=server.protocol_version if server else None,
            candidate=entry.server in self.candidates,
            before=before,
            expect=entry.shown,
            seen=entry,
        )
        after = self.pins.get(*key)
        before = self._saved(before)
        said = (
            "removal acknowledged"
            if entry.current is None and decision is Decision.APPROVED
            else str(decision)
        )  # the words of the audit log, for undo
        self.history.append(Decided(entry.server, entry.principal, entry.name, before, said, after))

    def decide_instructions(
        self, server: ServerEntry, decision: Decision, *, why: str = ""
    ) -> None:
        """Record ``decision`` for exactly the instructions shown on ``server``'s row (denying
        instructions the server no longer sends denies the pinned text), and save."""
        from mcp_review.engine.pins import make_instructions_pin

        st = server.instructions
        if st is None:
            raise ValueError("this server sends no instructions and has none pinned")
        text = st.live if st.live is not None else (st.pin.text if st.pin else None)
        if text is None or (decision is Decision.APPROVED and st.live is None):
            raise ValueError("the server sends no instructions now: nothing to approve")
        ipin = make_instructions_pin(
            server.name,
            text,
            decision,
            principal=st.principal,
            server_version=server.server_version,
        )
        audit_why = decisions.audit_why(
            decision,
            f"{st.state} server instructions",
            note=why,
            blocked=st.policy.reasons if blocked_approval(decision, st.policy.outcome) else (),
            confirmed="in the review app",
        )
        before = self.pins.instructions.get((server.name, st.principal))
        # Made against the instructions' pin the row was computed with (compare-and-set).
        decisions.decide_instructions_pin(
            self.pins, ipin, why=audit_why, source="review app", expect=st.pin
        )
        before = self._saved(before)
        self.history.append(Decided(server.name, st.principal, None, before, str(decision), ipin))

    def decide_surface(
        self,
        entry: SurfaceEntry,
        decision: Decision,
        *,
        why: str = "",
        server: ServerSnapshot | None = None,
    ) -> list[str]:
        """Record ``decision`` for exactly the prompt, resource or template shown on
        ``entry``'s row, through ``services.surface_decisions`` (the service ``approve SERVER
        --prompt NAME`` uses), and save. ``why``: the operator's reason for approving a
        blocked one (refused without it: returns the policy's reasons, nothing written)."""
        from mcp_review.services import surface_decisions

        if entry.status is None:
            raise ValueError("this row carries no status to decide on")
        done = surface_decisions.decide_reviewed_surface(
            self.pins,
            entry.status,
            str(decision),
            source="review app",
            why=why,
            server_version=server.server_version if server else None,
        )
        if done.blocked:
            return done.blocked
        before = self._saved(done.before)
        self.history.append(
            Decided(
                entry.server,
                entry.principal,
                None,
                before,
                str(decision),
                done.pin,
                surface=(entry.kind, entry.name),
            )
        )
        return []

    def decide_group(
        self,
        group: Group,
        decision: Decision,
        *,
        left_out: Iterable[tuple[str, ...]] = (),
        why: str = "",
        servers: Sequence[Any] = (),
    ) -> decisions.GroupDecision:
        """Decide ``group`` (review by kind) but the members ``left_out``, through
        ``services.decisions.decide_group`` (one decision per member, each audit record with
        the group's id and ``why``), and save. A blocked group is approved only with a reason
        (``why``), confirmed in the app.

        Each member's decision is made against the pin its status was computed with (a
        compare-and-set under the pin file's lock): when another writer decided one of them
        since (the CLI), nothing is written and ``ChangedMeanwhile`` names it (the app shows the
        new state). Each member decided as a whole is undone on its own by :meth:`undo`; a kind
        approved on a tool that keeps other kinds pending stays until the tool's own decision
        replaces it. A kind approval has no pin to compare and set: the pin file is re-read
        first, and a member whose pin changed on disk since refuses the group the same way."""
        from mcp_review.engine.pins import same_decision

        out = set(left_out)
        members = [m for m in group.members if m.key not in out]
        self.reread()

        def held(m: Any) -> Any:
            # A prompt, resource or template member: its decision in the surfaces table.
            return self.pins.surfaces.get(m.key) if m.surface else self.pins.get(*m.key)

        for m in members:
            shown = getattr(m.status, "pin", None)
            now = held(m)
            if not same_decision(now, shown):
                raise decisions.ChangedMeanwhile((m.server, m.principal, m.tool), shown, now)
        before = {m.key: held(m) for m in members}
        result = decisions.decide_group(
            self.pins,
            group,
            decision,
            source="review app",
            except_=[(m.server, m.tool) for m in group.members if m.key in out],
            note=why,
            confirmed="in the review app",
            servers=servers,
            candidates=self.candidates,
            expect_seen=True,
        )
        after = {m.key: held(m) for m in result.whole}
        # Saved only if each member's pin on disk is still the one shown (compare-and-set), so
        # what a decision replaced is what ``before`` holds.
        self.save()
        said = str(decision)
        for m in result.whole:
            if m.surface:
                self.history.append(
                    Decided(
                        m.server,
                        m.principal,
                        None,
                        before[m.key],
                        said,
                        after[m.key],
                        surface=(m.subject, m.tool),
                    )
                )
                continue
            self.history.append(
                Decided(m.server, m.principal, m.tool, before[m.key], said, after[m.key])
            )
        return result

    def apply_auto_approvals(
        self, entries: Iterable[ToolEntry], report: StatusReport, snapshot: Snapshot | None
    ) -> list[ToolEntry]:
        """Re-pin ``entries`` as their policy tier allows, through
        ``services.decisions.apply_auto_approvals`` (decided_by ``mcp-review (policy <tier>)``, logged
        in the audit log), and save. Only a tool still auto-approved in ``report`` for exactly
        the definition in its entry is re-pinned; each one is undone on its own by
        :meth:`undo`. Returns the entries re-pinned."""
        from mcp_review.services.decisions import apply_auto_approvals

        wanted = {e.key: e for e in entries}
        picked = [
            t
            for t in report.tools
            if t.key in wanted
            and t.policy.outcome is Outcome.AUTO_APPROVE
            and t.live is not None
            and t.live is wanted[t.key].current
        ]
        if not picked:
            return []
        before = {t.key: self.pins.get(*t.key) for t in picked}
        done = apply_auto_approvals(
            StatusReport(servers=report.servers, tools=picked),
            self.pins,
            snapshot,
            candidates=self.candidates,
        )
        after = {t.key: self.pins.get(*t.key) for t in done}
        replaced = self.save()
        if replaced is not None:  # what each re-pin replaced on disk, in order
            before = {t.key: r for t, r in zip(done, replaced, strict=True)}
        for t in done:
            self.history.append(
                Decided(t.server, t.principal, t.tool, before[t.key], "auto-approval", after[t.key])
            )
        return [wanted[t.key] for t in done]

    def undo(self) -> str | None:
        """Restore the pin the last decision replaced (itself a logged, saved change), only
        while the pin file still holds that decision (same decision, digest, decider and
        time): when another writer decided since, nothing is written, the decision leaves the
        history and ``ChangedMeanwhile`` says what changed and who changed it."""
        if not self.history:
            return None
        d = self.history.pop()
        why, source = f"undo {d.said}", "review app undo"
        # The undo is a compare-and-set on the decision it undoes (under the pin file's lock).
        expect = d.after if self.pins_path is not None else decisions.ANY
        what = d.tool if d.tool is not None else d.what
        try:
            if d.surface is not None:  # a prompt, resource or template
                key = (d.server, d.principal, *d.surface)
                if d.before is None:
                    decisions.forget_surface(self.pins, key, why=why, source=source)
                else:
                    assert isinstance(d.before, SurfacePin)
                    decisions.decide_surface_pin(
                        self.pins, d.before, why=why, source=source, expect=expect
                    )
            elif d.tool is None:  # a decision about the server's instructions
                if d.before is None:
                    decisions.forget_instructions(
                        self.pins, d.server, d.principal, why=why, source=source, expect=expect
                    )
                else:
                    assert isinstance(d.before, InstructionsPin)
                    decisions.decide_instructions_pin(
                        self.pins, d.before, why=why, source=source, expect=expect
                    )
            elif d.before is None:
                decisions.forget_tool(
                    self.pins,
                    (d.server, d.principal, d.tool),
                    why=why,
                    source=source,
                    expect=expect,
                )
            else:
                assert isinstance(d.before, CorePin)
                decisions.record_pin(self.pins, d.before, why=why, source=source, expect=expect)
            self.save()
        except decisions.ChangedMeanwhile as e:
            e.doing = f"cannot undo {d.said} of {what}"
            raise
        return f"undid {d.said} of {what}"

    def set_policy(self, server: str, tool: str | None, tier: str) -> None:
        self.pins.set_policy(server, tier, tool=tool, source="review app")
        self.save()
