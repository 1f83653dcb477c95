"""One place per decision: what the code decides once must not be written again elsewhere
(docs/architecture.md). Each check reads the package's source, so a second copy fails here."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mcp_review"


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
