"""Shared set-up of the engine tests: the one way they tell linear from quadratic work."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

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
