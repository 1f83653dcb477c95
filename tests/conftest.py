"""Shared test setup: no test reads or writes the real user's state directory."""

from __future__ import annotations

from typing import Any

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
    if hasattr(config, "workerinput"):
        # The scheduler hands out work in this order (groups first, by size): the `slow`
        # tests (processes, servers, the whole corpus) start early, so the run ends on short
        # tests that even the workers out instead of one worker finishing a long one alone.
        # Every worker sorts alike (a stable sort of the same collection); a serial run keeps
        # the file order.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, the controller rewrites the test modules' asserts once, into pytest's own
    cache (``tests/__pycache__/*-pytest-*.pyc``, what pytest writes by default), before the
    workers start: each worker then reads them instead of rewriting all of them itself (about
    7 s of CPU a worker, a third of the run's start on 2 cores). The cache is pytest's, checked
    against each file's size and mtime as pytest checks it; written here even where
    PYTHONDONTWRITEBYTECODE is set (this machine sets it), since without it every worker
    repeats the same work. Only a head start: anything unexpected leaves pytest to do it."""
    _fewer_collections()
    if hasattr(config, "workerinput"):
        return
    _compile_sources_once()
    if not getattr(config.option, "numprocesses", None):
        return
    try:
        _rewrite_test_modules_once(config)
    except Exception:  # a private pytest API that moved: the workers rewrite, as before
        return


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    from pathlib import Path

    from _pytest.assertion import rewrite

    state = config.stash[rewrite.assertstate_key]
    for fn in sorted(Path(__file__).parent.rglob("test_*.py")):
        pyc = rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(fn, pyc) is not None:
            continue  # already rewritten from this very source
        if not rewrite.try_makedirs(pyc.parent):
            return
        source_stat, co = rewrite._rewrite_test(fn, config)
        rewrite._write_pyc(state, co, source_stat, pyc)


def _compile_sources_once() -> None:
    """The package's and the test helpers' bytecode (``__pycache__/*.pyc``, what ``import``
    writes by default), written once here where it is missing or stale: PYTHONDONTWRITEBYTECODE
    (set on this machine) or a fresh clone otherwise leaves every interpreter the suite starts
    (each worker, each ``python -m mcp_review``, each server script importing the helpers)
    compiling the same modules again, about 0.25 s of CPU per process for the package. Checked
    against each file's size and mtime as ``import`` checks it; test modules are pytest's, above."""
    import py_compile
    from importlib.util import cache_from_source
    from pathlib import Path

    tests = Path(__file__).parent
    sources = [*(tests.parent / "mcp_review").rglob("*.py")]
    sources += [p for p in tests.rglob("*.py") if not p.name.startswith(("test_", "conftest"))]
    for src in sources:
        try:
            pyc = Path(cache_from_source(str(src)))
            st = src.stat()
            if pyc.exists():
                head = pyc.read_bytes()[:16]
                mtime = int.from_bytes(head[8:12], "little")
                size = int.from_bytes(head[12:16], "little")
                if mtime == int(st.st_mtime) & 0xFFFFFFFF and size == st.st_size & 0xFFFFFFFF:
                    continue
            py_compile.compile(str(src), cfile=str(pyc), doraise=True)
        except Exception:  # unwritable or unparsable: the importer does it, as before
            continue


def _fewer_collections() -> None:
    """Young collections every 5,000 allocations rather than 700, from the start (collection
    imports most of a worker's heap): each of them can end in a full collection of it."""
    import gc

    gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(max(gen0, 5000), gen1, gen2)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once collected, the objects of every imported module and collected test (most of a
    worker's heap, and they live to the end) leave the cyclic collector (gc.freeze): with the
    whole suite collected, full collections walked that heap again and again, a third of a
    worker's CPU in a sample run (417 tests: 3.8 s of GC before, 1.2 s after, with the
    thresholds above). Garbage made by the tests is collected as before, only later; tests
    about the collector set their own thresholds (tests/tui/test_tui_fleet.py)."""
    import gc

    _fewer_collections()
    _one_parser_per_process()
    gc.freeze()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that imports the CLI itself (not at collection) gets the one parser too."""
    if not _PARSER_SHARED:
        _one_parser_per_process()


_PARSER_SHARED: list[bool] = []


def _one_parser_per_process() -> None:
    """``cli.main`` builds its argparse parser (the command's options, every command's name
    and help) on each call: nothing in a real ``mcp-review`` process, which calls it once, but
    the suite calls ``main`` in-process thousands of times (tests/helpers.py ``run_cli``, the
    corpus agreement's ten commands a pair). Once the CLI is imported, ``cli.build_parser``
    builds each parser it is asked for (the whole one, or ``only`` one command's) once per test
    process and hands every later caller the same one: a plain cache, since ``main`` looks a
    command's ``run`` up in its module when it runs (a test may replace it), and parsing changes
    no parser (each parse fills a new namespace). What could leak from one call into the next
    is a command changing a mutable default it was handed (a list option's ``[]``), so each
    reuse first checks that every such default is still what the build made, and fails naming
    it otherwise."""
    import sys

    cli = sys.modules.get("mcp_review.cli")
    if cli is None or _PARSER_SHARED:
        return
    _PARSER_SHARED.append(True)
    import argparse
    import copy

    build = cli.build_parser
    # each parser built, with its mutable defaults: (where, action, the default as built)
    built: dict[str | None, tuple[argparse.ArgumentParser, list[tuple[str, Any, object]]]] = {}

    def mutable_defaults(parser: argparse.ArgumentParser, path: str, out: list[Any]) -> None:
        for action in parser._actions:  # argparse lists a parser's options nowhere public
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    mutable_defaults(sub, f"{path} {name}", out)
            elif isinstance(action.default, (list, dict, set, bytearray)):
                out.append((f"{path} {action.dest}", action, copy.deepcopy(action.default)))

    def build_parser(only: str | None = None) -> argparse.ArgumentParser:
        if only not in built:
            parser = build(only)
            defaults: list[Any] = []
            mutable_defaults(parser, "mcp-review", defaults)
            built[only] = (parser, defaults)
        parser, defaults = built[only]
        for where, action, made in defaults:
            assert action.default == made, f"a run changed the parser's default of {where}"
        return parser

    build_parser.__doc__ = build.__doc__
    cli.build_parser = build_parser
