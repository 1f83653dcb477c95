"""The collector the development batches (``public_batch4.py`` and later) fill: each file
calls :func:`source` once per public file it copied from, and ``build_eval.py`` reads the
file's ``SOURCES``."""

from __future__ import annotations

import inspect
import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

NOT_STATED = "not stated in the file (repository licence not checked)"
HERE = Path(__file__).resolve().parent


def doc(raw: str) -> str:
    """A text copied from a docstring, as Python reads it (``inspect.cleandoc``)."""
    return inspect.cleandoc(raw)


def block(raw: str) -> str:
    """A text copied from an indented block: dedented, ends stripped."""
    return textwrap.dedent(raw).strip()


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


def planted(
    sources: list[dict[str, Any]],
    n: int,
    seed_offset: int,
    language: dict[tuple[str, str], str],
) -> list[dict[str, Any]]:
    """Batch ``n``'s items: ``sources`` (as a builder kept them) planted with
    ``build_eval.PLANT_SEED + seed_offset`` (``build_eval._dev_batch``), each text whose
    (repository, path) ``language`` names tagged with that language; every other text is
    English."""
    import build_eval

    out = build_eval._dev_batch(sources, n, build_eval.PLANT_SEED + seed_offset)
    for item in out:
        lang = language.get((str(item["source"]), str(item["path"])))
        if lang:
            item["language"] = lang
    return out


def kept_and_planted(
    sources: list[dict[str, Any]],
    n: int,
    seed_offset: int,
    language: dict[tuple[str, str], str],
    verbose: bool = False,
) -> list[dict[str, Any]]:
    """:func:`planted` of ``sources`` after ``public_batch10.kept_sources`` drops what repeats an
    earlier development text or overlaps a frozen or held-out one (``verbose``: say what it
    dropped)."""
    import public_batch10

    kept = public_batch10.kept_sources(
        sources, f"poisoned_dev{n}.json", dict.fromkeys(s["repo"] for s in sources), verbose
    )
    return planted(kept, n, seed_offset, language)


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
