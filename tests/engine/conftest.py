"""Shared set-up of the engine tests: the one way they tell linear from quadratic work, and the
corpus compared once."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from mcp_review.engine.compare import Comparison
from mcp_review.engine.model import Change, ToolDef

GROWTH = 10
"""The big text is this many times the small one: linear work costs about this many times
more, quadratic work about its square."""
BOUND = 30
"""Past this many times the small text's cost the reader is not linear (between the two)."""


def _cpu(read: Callable[[str], object], text: str) -> float:
    t0 = time.process_time()
    read(text)
    return time.process_time() - t0


def grows_linearly(read: Callable[[str], object], unit: str, small_chars: int) -> None:
    """``read`` of ``unit`` repeated to ``small_chars`` characters, then to ten times that:
    the second costs under :data:`BOUND` times the first (a quadratic reader costs about a
    hundred times). A ratio of two CPU times of the same process, no seconds: the small text
    is read three times and its best kept, and the big one is read again before failing, so
    a burst of other work on a busy machine is not taken for a quadratic reader. The sizes
    are the smallest that keep the small text's cost well above the clock's grain; larger
    ones (1 MB and beyond) run in ``benchmarks/bench_cues_hostile.py``."""
    small = unit * (small_chars // len(unit))
    big = unit * (GROWTH * small_chars // len(unit))
    t_small = min(_cpu(read, small) for _ in range(3))
    t_big = _cpu(read, big)
    if t_big >= BOUND * t_small:
        t_big = min(t_big, _cpu(read, big))
    assert t_big < BOUND * t_small, (unit[:40], t_small, t_big)


@pytest.fixture
def linear() -> Callable[[Callable[[str], object], str, int], None]:
    """:func:`grows_linearly`, for the hostile-text tests of the readers."""
    return grows_linearly


# The corpus compared once ------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusPair:
    """One tool present in two consecutive captured versions of a corpus server."""

    old: Any  # corpus_data.Capture
    new: Any
    name: str
    a: ToolDef
    b: ToolDef
    changes: tuple[Change, ...]
    """``diff_tools(a, b)``: every classified change, before any witness search."""
    comparison: Comparison | None
    """``compare(a, b)`` (witnesses on) when the definitions differ, else None."""
    error: str | None
    """The traceback when ``compare`` raised (the tests that judge it report it)."""

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.old.server, self.old.version, self.new.version, self.name)


@pytest.fixture(scope="session")
def corpus_pairs() -> tuple[CorpusPair, ...]:
    """Every tool of every consecutive pair of the corpus (tests/corpus), classified and compared
    once for the tests that read the whole corpus (test_corpus, test_mcp_verdicts, test_settle,
    test_rule_messages): ``compare`` is ``diff_tools`` then the witness search, so one
    ``PendingComparison`` gives both answers. Those tests share one xdist group (below), so the
    corpus is compared once in a run, not once per file."""
    import corpus_data as cd

    from mcp_review.engine.compare import PendingComparison

    out = []
    for old, new in cd.pairs():
        for name in sorted(old.tools.keys() & new.tools.keys()):
            a, b = ToolDef.from_wire(old.tools[name]), ToolDef.from_wire(new.tools[name])
            cmp, err = None, None
            try:
                pending = PendingComparison(a, b)
                changes = tuple(pending.changes)  # finish() sorts its list in place
                if a.digest != b.digest:
                    cmp = pending.finish(None)
            except Exception:
                changes, err = (), traceback.format_exc()
            out.append(CorpusPair(old, new, name, a, b, changes, cmp, err))
    return tuple(out)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests reading :func:`corpus_pairs` run on one xdist worker, and those reading
    :func:`eval_dev_scores` on one (``--dist loadgroup``: marked before xdist names the
    groups)."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "corpus_pairs" in names:
            item.add_marker(pytest.mark.xdist_group("engine-corpus"))
        if "eval_dev_scores" in names:
            item.add_marker(pytest.mark.xdist_group("eval-dev"))


@pytest.fixture(scope="session")
def eval_dev_scores() -> dict[str, Any]:
    """``bench_cues_eval.measure("dev")``, the development set scored with every batch on its
    line, computed once for the tests that read its lines (batches 7, 8 and 9 in
    test_cues_eval_set and test_cues_eval_batch9; each read it whole before). Nothing changes
    it; those tests share one xdist group (below)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_cues_eval

    return bench_cues_eval.measure("dev")
