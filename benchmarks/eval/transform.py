#!/usr/bin/env python3
"""Respelled copies of frozen items (issue 39: transformed items, made by a script from frozen
items, reported apart).

``python benchmarks/eval/transform.py`` rewrites ``transformed_frozen.json``: 40 items of
``poisoned_frozen.json`` drawn with ``SEED``, each in four spellings a model still reads:
full-width letters (NFKC folds them), Cyrillic look-alike letters inside Latin words, a
zero-width space inside every word of four letters or more, and all capitals. Each keeps the
original's plant; its ``language`` field names the spelling (``en/<spelling>``) so the bench
reports them per spelling.

Translations (issue 39 item 2): every item of ``poisoned_frozen.json`` rendered into Spanish,
French, German, Chinese, Russian and Japanese by ``translate.py``'s phrase tables (offline, no
translator: a dozen English clause shapes of the cue families, each with a hand-written
rendering; sentences no shape matches are left out, and an item none of whose sentences
matches gives none). Their ``language`` is ``<lang>/translated``. Read them as the module
says: the tables and the language families were written together, so their catch rate shows
coverage of those renderings, not of how attackers write in those languages.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from translate import LANGS, translate  # noqa: E402

SEED = 3906
N = 40
_LOOK = str.maketrans({"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"})


def fullwidth(t: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in t)


def lookalike(t: str) -> str:
    return re.sub(r"[A-Za-z]{4,}", lambda m: m.group(0)[0] + m.group(0)[1:].translate(_LOOK), t)


def zero_width(t: str) -> str:
    return re.sub(r"[A-Za-z]{4,}", lambda m: m.group(0)[:2] + "\u200b" + m.group(0)[2:], t)


SPELLINGS = {
    "fullwidth": fullwidth,
    "lookalike": lookalike,
    "zero-width": zero_width,
    "capitals": str.upper,
}


def build() -> list[dict[str, Any]]:
    frozen = json.loads((HERE / "poisoned_frozen.json").read_text(encoding="utf-8"))
    picked = random.Random(SEED).sample(frozen, N)
    out = []
    for item in picked:
        for name, f in SPELLINGS.items():
            out.append(
                {
                    **item,
                    "id": f"{item['id']}~{name}",
                    "text": f(item["text"]),
                    "language": f"en/{name}",
                    "transform": name,
                    "from": item["id"],
                }
            )
    for item in frozen:
        for lang in LANGS:
            text = translate(item["text"], lang)
            if text is None:
                continue
            out.append(
                {
                    **item,
                    "id": f"{item['id']}~{lang}",
                    "text": text,
                    "language": f"{lang}/translated",
                    "transform": "translated",
                    "from": item["id"],
                }
            )
    return out


def main() -> int:
    out = build()
    (HERE / "transformed_frozen.json").write_text(
        json.dumps(out, indent=1, ensure_ascii=True) + "\n", encoding="utf-8"
    )
    spelled = sum(o["transform"] != "translated" for o in out)
    print(f"{spelled} respelled items from {N} frozen ones, {len(out) - spelled} translated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
