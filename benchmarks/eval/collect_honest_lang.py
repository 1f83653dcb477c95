#!/usr/bin/env python3
"""Collect ``honest_lang/``: the honest counter-set of batch 15 (issue 39 scope 2).

``python benchmarks/eval/collect_honest_lang.py [OUT_DIR]`` runs ``collect_pypi_honest.py``'s
collector (download the exact distribution, install it into a scratch virtual environment,
start its console script over stdio with no credentials, write every tool its ``tools/list``
answered) over :data:`PACKAGES`, then writes into each file the ``language`` its author wrote
the descriptions in (the package's, as listed here, chosen from the summary in the workplace's
package list before the server was run). A package that will not install, start or list a tool
is reported and skipped; a server whose descriptions turn out mostly English is removed and
reported (kept: at least half of its descriptions in the language, as ``honest_dev6``).

Chosen from the package lists of this workplace (``pypi.tsv``, outside this repository): MCP
servers whose summary is in Korean, Spanish, German, French, Portuguese, Japanese, Chinese or
Russian, published from 2025-06 on, of kinds an agent uses (tax and law look-ups, finance,
public data, memory, files and documents, developer tools), none in an earlier honest set.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

PACKAGES: dict[str, str] = {
    # Korean
    "apt-info-mcp==0.1.0": "ko",
    "sports-rules-mcp==0.3.0": "ko",
    "kcsc-design-mcp==0.3.1": "ko",
    "wlab-calc-mcp==0.1.0": "ko",
    "korean-tax-mcp==0.11.1": "ko",
    "velog-mcp==0.1.0": "ko",
    "naver-stock-mcp==0.1.2": "ko",
    "seojae-mcp==0.1.0": "ko",
    "oc-korea-weather-time-mcp==0.1.0": "ko",
    # Spanish
    "finanzas-mcp==0.1.3": "es",
    "gasolineras-mcp==0.1.1": "es",
    "ensmcp==0.1.2": "es",
    "godot-gut-mcp==0.1.2": "es",
    "devmemomcp==0.1.1": "es",
    "lex-api-mx-mcp==0.3.1": "es",
    "ce3x-mcp-server==1.5.2": "es",
    "glpi-mcp==0.1.2": "es",
    # German
    "gesetze-mcp==0.2.4": "de",
    "germany-mcp-server==0.2.0": "de",
    "energy-grid-mcp-server==0.1.0": "de",
    # French
    "insee-mcp==0.1.12": "fr",
    "fiscogpt-mcp==0.1.0": "fr",
    "heurix-mcp-server==0.1.2": "fr",
    # Portuguese
    "bncc-mcp==0.1.0": "pt",
    "datajud-mcp==1.0.0": "pt",
    "jenkins-mcp-toolkit==0.4.0": "pt",
    # Japanese
    "mcp-pystub==0.2.0": "ja",
    "yet-another-figma-mcp==0.2.0": "ja",
    # Chinese
    "ai-agent-memory-mcp==0.2.0": "zh",
    "accommodation-expenses-mcp==1.0.0": "zh",
    "apollo-mcp-server==1.0.0": "zh",
    "agentarts-demo-mcp==0.1.0": "zh",
    "annual-series-forecast-mcp==0.1.0": "zh",
    "a207-clinical-calc-mcp==0.2.2": "zh",
    # Russian
    "elba-mcp==0.1.1": "ru",
    "kaiten-mcp==0.1.0": "ru",
    "kwork-mcp==1.5.2": "ru",
    "kontragentpro-mcp==0.3.0": "ru",
}

_SCRIPT = {
    "ko": r"[\uac00-\ud7af]",
    "ja": r"[\u3040-\u30ff]",
    "zh": r"[\u4e00-\u9fff]",
    "ru": r"[\u0400-\u04ff]",
}
_WORDS = {
    "es": (" los ", " del ", " para ", " una ", " según ", " el ", " de la "),
    "de": (" der ", " die ", " und ", " für ", " mit ", " das ", " den "),
    "fr": (" les ", " des ", " pour ", " une ", " avec ", " du ", " la "),
    "pt": (" dos ", " para ", " uma ", " não ", " com ", " da ", " do "),
}


def written_in(description: str, lang: str) -> bool:
    """Whether ``description`` is in ``lang``: its script, or two of its function words."""
    if lang in _SCRIPT:
        return bool(re.search(_SCRIPT[lang], description))
    low = f" {description.lower()} "
    return sum(w in low for w in _WORDS[lang]) >= 2


def main(argv: list[str]) -> int:
    from collect_npm_honest import run
    from collect_pypi_honest import _stem, collect

    out = Path(argv[0]) if argv else HERE / "honest_lang"
    run(collect, [str(out), *PACKAGES])
    for spec, lang in PACKAGES.items():
        f = out / f"pypi_{_stem(spec.split('==')[0])}.json"
        if not f.exists():
            continue
        doc = json.loads(f.read_text(encoding="utf-8"))
        native = sum(written_in(t["description"], lang) for t in doc["tools"])
        if 2 * native < len(doc["tools"]):
            print(f"drop {spec}: {native} of {len(doc['tools'])} descriptions in {lang}")
            f.unlink()
            continue
        doc["language"] = lang
        f.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
