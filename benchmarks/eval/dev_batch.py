"""The collector the development batches (``public_batch4.py`` and later) fill: each file
calls :func:`source` once per public file it copied from, and ``build_eval.py`` reads the
file's ``SOURCES``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOT_STATED = "not stated in the file (repository licence not checked)"
HERE = Path(__file__).resolve().parent


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


def language_collector() -> tuple[
    list[dict[str, Any]], dict[tuple[str, str], str], Callable[..., None]
]:
    """:func:`collector` for a batch whose texts come in several languages: its ``SOURCES``,
    its ``LANGUAGE`` ((repository, where) -> the language the author wrote the text in), and a
    ``source`` whose items are (where, language, text)."""
    sources, plain = collector()
    language: dict[tuple[str, str], str] = {}

    def source(
        repo: str,
        path: str,
        commit: str,
        licence: str,
        kind: str,
        items: list[tuple[str, str, str]],
    ) -> None:
        for where, lang, _ in items:
            language[(repo, where)] = lang
        plain(repo, path, commit, licence, kind, [(w, t) for w, _, t in items])

    return sources, language, source


def write_batch(n: int, out: list[dict[str, Any]], summary: str | None = None) -> int:
    """A batch builder's ``main``: ``out`` (no id twice) written as ``poisoned_dev<n>.json``
    and said in a line (``summary``, else how many texts from how many repositories)."""
    ids = [i["id"] for i in out]
    assert len(set(ids)) == len(ids), "duplicate items"
    path = HERE / f"poisoned_dev{n}.json"
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if summary is None:
        summary = f"{len(out)} dev texts from {len({i['source'] for i in out})} repositories"
    print(f"batch {n}: {summary}")
    return 0
