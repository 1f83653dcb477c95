"""TOML reading for the pin file, which grows big (10,000 pins are ~7 MB): rtoml (Rust) when
it is installed, ``tomllib`` for every text rtoml refuses.

Measured on a 6.8 MB pin file (10,000 pins): tomllib ~2.4 s, rtoml ~0.2 s, the same document.
rtoml reads TOML 1.1 (the current spec; tomllib in Python 3.11-3.13 reads 1.0), so a hand edit
that uses 1.1 syntax (a trailing comma or a line break inside an inline table, ``\\e`` or
``\\xHH`` escapes, a time without seconds) is read, whatever the file's size; mcp-review
writes 1.0 (tomli-w). Text rtoml refuses is parsed again by ``tomllib``, so an error is always
``tomllib.TOMLDecodeError`` with its "(at line N, column M)" message (or the RecursionError
``engine.pins`` already turns into an input error), never a new kind of exception. Nesting is
bounded in rtoml too (it refuses, it never crashes). tests/engine/test_tomlread.py holds both readers
to the same document on every kind of value a pin file holds.
"""

from __future__ import annotations

import tomllib
from types import ModuleType
from typing import Any

try:
    import rtoml

    _rtoml: ModuleType | None = rtoml
except ImportError:  # pragma: no cover - a declared dependency; tomllib is the exact fallback
    _rtoml = None


def loads(text: str) -> dict[str, Any]:
    if _rtoml is not None:
        try:
            doc = _rtoml.loads(text)
        except Exception:  # any refusal: the reference parser decides and explains
            pass
        else:
            if isinstance(doc, dict):
                return doc
    return tomllib.loads(text)
