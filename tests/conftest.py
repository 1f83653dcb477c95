"""Shared test setup: no test reads or writes the real user's state directory."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """XDG_STATE_HOME (the trust store of client configs, the proxy's default logs) points at
    a fresh folder per test, and CI is unset so the trust gate behaves the same on a laptop
    and in the pipeline (tests that mean CI set it themselves)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    monkeypatch.delenv("CI", raising=False)
