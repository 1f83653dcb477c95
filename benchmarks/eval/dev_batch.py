"""The collector the development batches (``public_batch4.py`` and later) fill: each file
calls :func:`source` once per public file it copied from, and ``build_eval.py`` reads the
file's ``SOURCES``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

NOT_STATED = "not stated in the file (repository licence not checked)"


def collector(split: str = "dev") -> tuple[list[dict[str, Any]], Callable[..., None]]:
    """A batch's ``SOURCES`` list and the ``source`` function that appends to it."""
    sources: list[dict[str, Any]] = []

    def source(
        repo: str, path: str, commit: str, licence: str, kind: str, items: list[tuple[str, str]]
    ) -> None:
        sources.append(
            {
                "repo": repo,
                "path": path,
                "commit": commit,
                "licence": licence,
                "kind": kind,
                "items": items,
                "split": split,
            }
        )

    return sources, source
