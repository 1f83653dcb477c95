"""One place per decision: what the code decides once must not be written again elsewhere
(docs/architecture.md). Each check reads the package's source, so a second copy fails here."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent.parent / "mcp_review"


def _sources() -> dict[str, str]:
    return {
        str(p.relative_to(PACKAGE.parent)): p.read_text(encoding="utf-8")
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def test_json_pointer_tokens_are_escaped_in_one_place() -> None:
    escape = re.compile(r"""\.replace\(\s*["']~["']\s*,\s*["']~0["']\s*\)""")
    where = [path for path, text in _sources().items() if escape.search(text)]
    assert where == ["mcp_review/engine/model.py"], where


def test_the_user_state_folder_is_decided_in_one_place() -> None:
    reads = [path for path, text in _sources().items() if '"XDG_STATE_HOME"' in text]
    assert reads == ["mcp_review/store/files.py"], reads


def test_a_relative_xdg_state_home_is_ignored_by_everything_that_keeps_state(
    monkeypatch, tmp_path
) -> None:
    """The XDG specification ignores a relative path: the trust store, the seal key, the
    proxy's logs and the OAuth tokens all fall back to ~/.local/state, never a folder inside
    whatever project the command runs in."""
    from mcp_review.services.trust import state_dir
    from mcp_review.store.calllog import seal_key_path
    from mcp_review.store.files import user_state_dir

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    expected = str(tmp_path / "home" / ".local" / "state" / "mcp-review")
    assert user_state_dir() == expected
    assert str(state_dir()) == expected
    assert seal_key_path().startswith(expected + "/")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "abs"))
    assert user_state_dir() == str(tmp_path / "abs" / "mcp-review")


def test_a_blocked_approval_is_judged_in_one_place() -> None:
    """Whether a decision approves a blocked change, and so needs its confirmation (``--yes``,
    the app's dialog and typed reason), is ``engine.policy.blocked_approval`` /
    ``approval_allowed``: no other module tests the block outcome beside an approval (the
    same line or the lines either side), so a second copy of the test fails here."""
    block = re.compile(r"Outcome\.BLOCK|\.blocked\b(?! = )|[\"']block[\"']")
    approval = re.compile(r"APPROVED|[\"']approved[\"']|args\.yes\b|\bconfirmed\b")
    where = set()
    for path, text in _sources().items():
        lines = text.splitlines()
        for i, line in enumerate(lines):
            if block.search(line) and approval.search("\n".join(lines[max(0, i - 1) : i + 2])):
                where.add(path)
    assert where == {"mcp_review/engine/policy.py"}, sorted(where)


def test_the_kinds_approved_on_a_definition_are_read_in_one_place() -> None:
    """Which kinds count as approved on a live definition (the record's, only when made on that
    digest) is ``engine.pinrecord.kinds_approved_on``: the status and a group decision ask it."""
    where = [path for path, text in _sources().items() if ".kind_keys" in text]
    assert where == ["mcp_review/engine/pinrecord.py"], where


def test_decisions_are_recorded_through_the_one_service() -> None:
    """Every decision (approve, deny, pin, the app, auto-approvals, ``forget``, a cosign) is
    recorded on the pin file through ``services/decisions.py``, so its audit wording, its
    compare-and-set and its signed ``seen`` are the same whoever decides. The demo seeds its
    own pin file (it sits beside services, which it may not import)."""
    record = re.compile(
        r"\b(?:pins|pf)\.(?:decide|forget|decide_instructions|forget_instructions|"
        r"decide_surface|forget_surface|approve_kind)\("
    )
    where = sorted(path for path, text in _sources().items() if record.search(text))
    assert where == ["mcp_review/demo/workspace.py", "mcp_review/services/decisions.py"], where


def test_a_group_members_values_are_worded_in_one_place() -> None:
    """A member's own values (``readOnlyHint: (absent) → true``) read the same in the CLI's
    reports and the app's group screen: one function words them, ``formats.kinds.change_values``."""
    from mcp_review.formats import kinds
    from mcp_review.tui.screens import groups

    assert groups.change_values is kinds.change_values
    arrow = re.compile(r"\{p\[['\"]old['\"]\]\}\s*(?:→|->)\s*\{p\[['\"]new['\"]\]\}")
    where = sorted(path for path, text in _sources().items() if arrow.search(text))
    assert where == ["mcp_review/formats/kinds.py"], where
