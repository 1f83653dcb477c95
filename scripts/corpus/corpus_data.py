"""Read the captured corpus (tests/corpus/<server>/<version>.json) into changed-tool units.

Shared by the oracle sweep (its own venv, no mcp_review import), the corpus benchmark and the
test suite, so all three see the same list of changes. Standard library only.

A *unit* is one side (``input`` or ``output``) of one tool present in two consecutive captured
versions of a server whose schema on that side differs (key order and formatting are not
differences; an absent ``outputSchema`` is its own value). Tools whose only change is outside
the schemas (description, title, annotations) are *text-only* changes, counted apart.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
LABELS = CORPUS / "labels.json"
ABSENT = "<absent>"

SUITE_SERVERS = frozenset(
    {
        "chrome-devtools-mcp",
        "context7-mcp",
        "desktop-commander",
        "exa-mcp-server",
        "firecrawl-mcp",
        "mcp-server-fetch",
        "mcp-server-git",
        "mcp-server-time",
        "notion-mcp-server",
        "playwright-mcp",
        "server-everything",
        "server-filesystem",
        "server-github",
        "server-memory",
        "server-sequential-thinking",
        "tavily-mcp",
    }
)
"""The servers of the corpus before issue 26 widened it: the test suite runs every pair of these
(the agreement of every command and the app, the memo's equivalence); the rest run in
benchmarks/ scripts whose committed results the suite re-checks."""

AGREEMENT_SERVERS = frozenset(
    {
        "context7-mcp",
        "exa-mcp-server",
        "mcp-server-fetch",
        "redis-mcp-server",
        "server-filesystem",
        "shopify-dev-mcp",
    }
)
"""The servers whose every release pair tests/e2e/test_corpus_agreement.py runs in the suite (every
command and the app, three tiers); every other server's pairs run in
benchmarks/bench_corpus_agreement.py, whose committed results the suite re-checks against
today's captures. Chosen so that their 20 pairs still meet, under each tier, every (status,
outcome) the whole corpus meets, both exit codes and `P`, and every mark of every format
(benchmarks/README.md, "corpus agreement in the suite", names a pair for each;
``test_the_suite_servers_meet_every_answer_the_corpus_gives`` checks the answers): any other
server's pairs add no kind of answer these lack, only CPU. Until issue 31 item 7 the suite ran
the 16 SUITE_SERVERS (73 s of CPU for the commands half); two small servers joined for paths
only the heaviest of those had: a new tool that blocks (new/block, every tier), and
``redis-mcp-server`` 0.2.0->0.3.6, a pair `tiered` auto-approves (changed/auto-approve and the
app's `P` under the default tier). The new tool that blocks was ``mapbox-mcp-server``
0.2.0->0.14.0's ``place_details_tool`` until corroboration at first sight
(engine/cue_corroborate.py) showed its single exfiltration reading at attention (new/review);
``shopify-dev-mcp`` (1.0.0->1.4.1: three new tools that block) took its place."""


def version_key(v: str) -> tuple:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"[.\-+]", v))


@dataclass(frozen=True)
class Capture:
    server: str
    version: str
    path: Path
    manifest: dict[str, Any]
    tools: dict[str, dict[str, Any]]  # first definition of each name, as sent
    raw_tools: list[Any]  # every entry of every page, as sent


@dataclass(frozen=True)
class Unit:
    server: str
    old_version: str
    new_version: str
    tool: str
    side: str  # "input" | "output"
    old_tool: dict[str, Any]
    new_tool: dict[str, Any]

    @property
    def key(self) -> str:
        return f"{self.server} {self.old_version}->{self.new_version} {self.tool} {self.side}"

    @property
    def field(self) -> str:
        return "inputSchema" if self.side == "input" else "outputSchema"

    @property
    def old_schema(self) -> Any:
        return self.old_tool.get(self.field, ABSENT)

    @property
    def new_schema(self) -> Any:
        return self.new_tool.get(self.field, ABSENT)


def load_capture(path: Path) -> Capture:
    data = json.loads(path.read_text(encoding="utf-8"))
    raw: list[Any] = []
    for page in data["results"]:
        if isinstance(page, dict) and isinstance(page.get("tools"), list):
            raw.extend(page["tools"])
    tools: dict[str, dict[str, Any]] = {}
    for t in raw:
        if isinstance(t, dict) and isinstance(t.get("name"), str):
            tools.setdefault(t["name"], t)
    m = data["manifest"]
    return Capture(m["server"], m["version"], path, m, tools, raw)


def servers(corpus: Path = CORPUS) -> dict[str, list[Capture]]:
    """Every server's captures, oldest version first."""
    out: dict[str, list[Capture]] = {}
    for d in sorted(p for p in corpus.iterdir() if p.is_dir()):
        caps = [load_capture(p) for p in d.glob("*.json")]
        if caps:
            out[d.name] = sorted(caps, key=lambda c: version_key(c.version))
    return out


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pairs(corpus: Path = CORPUS) -> Iterator[tuple[Capture, Capture]]:
    for caps in servers(corpus).values():
        yield from itertools.pairwise(caps)


def units(corpus: Path = CORPUS) -> Iterator[Unit]:
    for old, new in pairs(corpus):
        for name in sorted(old.tools.keys() & new.tools.keys()):
            a, b = old.tools[name], new.tools[name]
            for side, fld in (("input", "inputSchema"), ("output", "outputSchema")):
                if _canon(a.get(fld, ABSENT)) != _canon(b.get(fld, ABSENT)):
                    yield Unit(old.server, old.version, new.version, name, side, a, b)


def text_only(corpus: Path = CORPUS) -> Iterator[tuple[Capture, Capture, str]]:
    """Tools in both versions that changed, with both schemas unchanged."""
    for old, new in pairs(corpus):
        for name in sorted(old.tools.keys() & new.tools.keys()):
            a, b = old.tools[name], new.tools[name]
            if _canon(a) == _canon(b):
                continue
            if all(
                _canon(a.get(f, ABSENT)) == _canon(b.get(f, ABSENT))
                for f in ("inputSchema", "outputSchema")
            ):
                yield old, new, name


def fingerprint(u: Unit) -> str:
    """sha256 over both schemas of a unit: a committed label is valid only for these."""
    import hashlib

    blob = _canon([u.old_schema, u.new_schema]).encode("utf-8")
    return "sha256:" + hashlib.sha256(blob).hexdigest()[:32]
