"""The app's cyclic garbage collection on a big fleet.

Two measures, both only from :data:`FREEZE_TOOLS` tools (a small review, every test's sample
included, runs with CPython's defaults):

- what is alive once a status is shown is frozen out of the collector's reach
  (``gc.freeze``): a 10,000-tool status is over a million objects, and every full collection
  walked all of them;
- the full collections that remain wait for a quiet moment. CPython runs one on its own after
  every tenth collection of the middle generation; on the fleet it walks what was allocated
  since the freeze (Textual's own cyclic garbage: a ``Strip`` caches itself) and costs 12-60 ms
  on a quiet machine, twice that under load, landing in whichever keystroke allocated last
  (bench_tui.py: the one filter key over 100 ms). While a fleet is shown the automatic ones
  are off; :meth:`QuietCollector.tick` runs one when as many middle collections have passed and
  no input came for :attr:`~QuietCollector.QUIET` seconds, or at once past
  :attr:`~QuietCollector.MAX_PENDING` (input that never pauses keeps memory bounded too).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

FREEZE_TOOLS = 2_000
"""From this many tools the app freezes what is alive and defers full collections."""

MAX_THRESHOLD = 1 << 30
"""A full-collection threshold no run reaches (the automatic ones are off)."""


class QuietCollector:
    """Full collections moved out of the keys' way, for the app's lifetime (``restore`` ends
    it: the app calls it when it stops, so nothing outlives the app)."""

    TICK = 0.25
    """Seconds between two looks at the collector (the app's interval timer)."""
    QUIET = 0.5
    """Seconds without input after which a due collection runs."""
    MAX_PENDING = 100
    """Middle collections after which a full one runs whether input paused or not."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._saved: tuple[int, int, int] | None = None
        self.last_input = clock()
        self.collections = 0
        """Full collections this collector ran."""

    @property
    def deferring(self) -> bool:
        return self._saved is not None

    def settle(self, tools: int) -> None:
        """A status of ``tools`` tools is shown: from :data:`FREEZE_TOOLS`, freeze what is
        alive now and defer full collections. Frozen objects are still freed by reference
        counting when the next status replaces them (a computation makes no reference cycles:
        tests/tui/test_tui_fleet.py); only cyclic garbage alive at this moment stays."""
        if tools < FREEZE_TOOLS:
            return
        gc.freeze()
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(self._saved[0], self._saved[1], MAX_THRESHOLD)

    def input(self) -> None:
        """A key or a mouse event came in."""
        self.last_input = self._clock()

    def tick(self) -> bool:
        """Run a full collection if one is due; True if it ran."""
        if self._saved is None:
            return False
        pending = gc.get_count()[2]  # middle collections since the last full one
        quiet = self._clock() - self.last_input >= self.QUIET
        if (quiet and pending >= max(self._saved[2], 1)) or pending >= self.MAX_PENDING:
            gc.collect()
            self.collections += 1
            return True
        return False

    def restore(self) -> None:
        """CPython's own schedule again (what is frozen stays frozen)."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
