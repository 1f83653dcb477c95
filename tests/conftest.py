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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`-n auto --dist loadgroup`, the README's command), the tests of a
    file that share a module-scoped fixture (a live server, a fleet built from the corpus, a
    virtualenv, a proxy session) run on one worker, so its set-up runs once, as in a serial
    run; the other tests go to whichever worker is free."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        if any(defs and defs[-1].scope == "module" for defs in info.name2fixturedefs.values()):
            item.add_marker(pytest.mark.xdist_group(item.path.name))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores this process may run on. An app test spends
    part of its time waiting (a frame, a server's answer, a timeout it is about), and the extra
    worker runs in those waits; on 2 cores, 3 workers finish the suite sooner than 2."""
    import os

    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return cores + 1
