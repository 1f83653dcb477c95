"""Batch 10 of the evaluation set (issue 39): a large **development** set of injected
instructions written by others, from general indirect-prompt-injection corpora, for the
learned cue (``cue.instruction.reads-as-instruction``) to train and be measured on.

Hand rules learn their authors' phrasing; a learned cue needs many positives from many hands.
This batch takes the texts that attackers plant for an agent or a model in public benchmarks
and red-team tools, none of them an MCP scanner's fixtures:

- ``microsoft/BIPIA``: the benchmark's text and code attack instructions (train and test
  files), injected into e-mails, tables and code questions an assistant reads;
- ``Zhang-Henry/AIOS_agent``: ASB's attacker instructions (``all_attack_tools.jsonl``; the eight
  batch 9 took are left out here) and a copy of InjecAgent's direct-harm attacker cases
  (``injecAgent.jsonl``), both planted in tool output an agent reads;
- ``yunwei37/satml-llmail-injection``: LLMail-Inject attack e-mails aimed at an e-mail agent's
  ``send_email`` tool, in English and ten other languages;
- ``NVIDIA/garak``: garak's MCP tool-poisoning and tool-response injection payloads;
- ``ReversecLabs/spikee``: spikee's injection framings ("jailbreaks"), each with its
  ``<INSTRUCTION>`` placeholder as written, in English and four other languages, and from the
  project's earlier repository ``kyuz0/spikee`` the system-message extraction instructions
  those framings wrap;
- ``facebookresearch/wasp``: WASP's goal-hijacking instructions planted in GitLab issues and
  Reddit posts for a web agent, each with its ``{placeholders}`` as written.

Every text was copied verbatim through the project's search tools (stored copies of public
GitHub files). The copies are in ``batch10_raw/<owner>/<repo>/<path>``: whole files where the
file is the attack list (BIPIA, LLMail-Inject, garak, spikee), checked against the stored
copy's length; for ASB, InjecAgent and WASP, whose files carry much else, the attack field of
each record in file order (``<path>.tsv``: the record's name, a tab, the text).

**Split by whole source: every source is development**; none is in an earlier batch's file, an
honest set or the keep-off list (``tests/engine/test_cues_eval_batch10.py`` checks it), and
AgentDojo's default suites and their forks are left out (the frozen batch 2 is built from one).
Three filters run before planting, and the script prints how many each dropped per source:

- a text that is **nothing but a template placeholder** (spikee's bare ``<INSTRUCTION>.``);

- **near-identical templated items** are dropped after the first (lower-cased, digits and
  spaces folded): distinct wordings are kept;
- **the leak check**: a candidate sharing a run of 8 or more lower-cased words with any frozen
  poisoned text, transformed frozen text, held-out batch 7 or 8 text or ``honest_held8/``
  string is dropped. Only counts per source are printed, never a text or which frozen item;
  this is the only place a development script reads those files.

``python benchmarks/eval/public_batch10.py`` writes ``poisoned_dev10.json`` (planted with seed
``PLANT_SEED + 9``). Texts in a language other than English carry ``language``."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from dev_batch import NOT_STATED, collector, write_batch

HERE = Path(__file__).resolve().parent
RAW = HERE / "batch10_raw"

SOURCES, source = collector()

BIPIA = "5a48626aece9739ce587ffdbcb2b7badcfd9d8ba"
BIPIA_LICENCE = (
    "MIT (the repository's LICENSE; the attack files are not among the datasets it excepts)"
)
SATML_PROMPTS = "db7a00e694fec9a3a7cc162f13d4edde492b3ccd"
SATML_LANG = "133e9be69729b1c8887368677746c0c53a92fefe"
SATML_LATE = "23e38983ea99c8f7d354abe39a58c0af1c3c286b"
SATML_ZERO = "a8b4773c498a395b1729a96691cfa2d1aa7f596b"
SATML_FEW = "dabffbe53c5f9a10718e07d3250882b7d682de2e"

LANGUAGE_OF_FILE = {
    "multi_language_attack": "es",
    "multi_language_attack_russian": "ru",
    "multi_language_attack_japanese": "ja",
    "multi_language_attack_turkish": "tr",
    "multi_language_attack_vietnamese": "vi",
    "multi_language_attack_arabic": "ar",
    "multi_language_attack_hindi": "hi",
    "multi_language_attack_thai": "th",
    "multi_language_attack_urdu": "ur",
    "multi_language_attack_swahili": "sw",
    "combined_multi_language_attack_system_override": "es",
    "combined_system_override_multi_language_attack_hindi": "hi",
    "combined_system_override_multi_language_attack_vietnamese": "vi",
}
"""LLMail-Inject's files that name their language (the file name or its ``description``; the
``combined_*`` ones mix English headers into the other language's body)."""


def _raw(repo: str, path: str) -> Path:
    return RAW / repo / path


def _bipia(path: str, kind: str) -> None:
    data = json.loads(_raw("microsoft/BIPIA", path).read_text(encoding="utf-8"))
    items = [
        (f"{category} #{i} (json)", text)
        for category, texts in data.items()
        for i, text in enumerate(texts, 1)
    ]
    source("microsoft/BIPIA", path, BIPIA, BIPIA_LICENCE, kind, items)


def _tsv(repo: str, path: str) -> Iterator[tuple[int, str, str]]:
    lines = _raw(repo, path + ".tsv").read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        name, text = line.split("\t", 1)
        yield n, name, text


_bipia(
    "benchmark/text_attack_test.json",
    "BIPIA's text attack instructions (test split): task hijacks, output encodings, "
    "advertising, scams, misinformation, planted in the e-mails, tables and pages it reads",
)
_bipia(
    "benchmark/text_attack_train.json",
    "BIPIA's text attack instructions (train split)",
)
_bipia(
    "benchmark/code_attack_test.json",
    "BIPIA's code attack instructions (test split): an order to put a malicious code snippet "
    "(exfiltration, keylogging, ransomware, denial of service) in the answer",
)
_bipia(
    "benchmark/code_attack_train.json",
    "BIPIA's code attack instructions (train split)",
)


def _asb_taken_by_batch9() -> set[str]:
    """Texts batch 9 already took from the same file (left out here)."""
    dev9 = json.loads((HERE / "poisoned_dev9.json").read_text(encoding="utf-8"))
    return {str(i["text"]) for i in dev9 if i["source"] == "Zhang-Henry/AIOS_agent"}


_TAKEN9 = _asb_taken_by_batch9()
source(
    "Zhang-Henry/AIOS_agent",
    "data/all_attack_tools.jsonl",
    "a29a032b84ced716e4de0d5ad6ba0aab9d4b42a2",
    "not stated in the file (a copy of ASB's attack tools; repository licence not checked)",
    "ASB's (Agent Security Bench) attacker instructions, each an order planted in a tool's "
    "output for ten kinds of agent; the rest of the file batch 9 sampled",
    [
        (f"line {n}: {name} 'Attacker Instruction' (json)", text)
        for n, name, text in _tsv("Zhang-Henry/AIOS_agent", "data/all_attack_tools.jsonl")
        if text not in _TAKEN9
    ],
)
source(
    "Zhang-Henry/AIOS_agent",
    "data/injecAgent.jsonl",
    "17b181627a5c394e143c083c1242b2094336ed40",
    "not stated in the file (a copy of InjecAgent's attacker_cases_dh.jsonl; "
    "repository licence not checked)",
    "InjecAgent's direct-harm attacker instructions (a copy of attacker_cases_dh.jsonl), "
    "planted in the output of a tool the user asked for",
    [
        (f"line {n}: {name} 'Attacker Instruction' (json)", text)
        for n, name, text in _tsv("Zhang-Henry/AIOS_agent", "data/injecAgent.jsonl")
    ],
)

_SATML = "yunwei37/satml-llmail-injection"
_SATML_FILES = (
    ("examples/satml/prompts/ascii_art_obfuscation.json", SATML_PROMPTS),
    ("examples/satml/prompts/contextual_role_confusion.json", SATML_PROMPTS),
    ("examples/satml/prompts/encoded_request.json", SATML_PROMPTS),
    ("examples/satml/prompts/friendly_request.json", SATML_PROMPTS),
    ("examples/satml/prompts/important_test.json", SATML_PROMPTS),
    ("examples/satml/prompts/multi_language_attack.json", SATML_PROMPTS),
    ("examples/satml/prompts/reasoning_based_exploit.json", SATML_PROMPTS),
    ("examples/satml/prompts/role_play.json", SATML_LATE),
    ("examples/satml/prompts/urgent_action.json", SATML_LATE),
    ("examples/satml/prompts/multi_language_attack_russian.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_japanese.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_turkish.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_vietnamese.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_arabic.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_hindi.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_thai.json", SATML_LANG),
    ("examples/satml/prompts/multi_language_attack_urdu.json", SATML_LANG),
    ("examples/satml/zero-shot-baseline/prompts/adversarial_suffix.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/code_injection.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/covert_prompt_injection.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/format_tricks.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/multi_language_attack_swahili.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/multi_turn_compressed.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/payload_splitting.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/prompt_leaking.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/security_alert.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/system_override.json", SATML_ZERO),
    ("examples/satml/zero-shot-baseline/prompts/token_smuggling.json", SATML_ZERO),
    *(
        (f"examples/satml/few-shots-2-tech/prompts/{name}.json", SATML_FEW)
        for name in (
            "combined_security_alert_system_override",
            "combined_multi_language_attack_system_override",
            "combined_reasoning_based_exploit_system_override",
            "combined_system_override_multi_language_attack_hindi",
            "combined_system_override_multi_language_attack_vietnamese",
        )
    ),
)
LANGUAGE: dict[tuple[str, str], str] = {}
"""(repository, path) of a file written in one language other than English -> its code."""

for _path, _commit in _SATML_FILES:
    _doc = json.loads(_raw(_SATML, _path).read_text(encoding="utf-8"))
    if Path(_path).stem in LANGUAGE_OF_FILE:
        LANGUAGE[(_SATML, _path)] = LANGUAGE_OF_FILE[Path(_path).stem]
    source(
        _SATML,
        _path,
        _commit,
        NOT_STATED,
        "an LLMail-Inject (SaTML 2025 challenge) attack e-mail: its body, which the e-mail "
        "agent reads and which asks it to send mail to contact@contact.com",
        [(f"{_doc['id']} body (json)", _doc["body"])],
    )

_GARAK = "a02a9e94cd882a3f67a1a726e3fda785bda1e538"
for _name, _kind in (
    ("mcp_tool_poisoning", "garak's payloads for a poisoned MCP tool description"),
    ("mcp_tool_response_injection", "garak's payloads for an injected MCP tool response"),
):
    _path = f"garak/data/payloads/{_name}.json"
    _doc = json.loads(_raw("NVIDIA/garak", _path).read_text(encoding="utf-8"))
    source(
        "NVIDIA/garak",
        _path,
        _GARAK,
        "not stated in the file (Apache-2.0 per the repository's source headers)",
        _kind,
        [(f"payloads[{i}] (json)", t) for i, t in enumerate(_doc["payloads"])],
    )


def _spikee(repo: str, path: str, commit: str, field: str, kind: str) -> None:
    items: list[tuple[str, str]] = []
    for line in _raw(repo, path).read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        items.append((f"{rec['id']} {field} (json)", rec[field]))
        if rec.get("lang"):
            LANGUAGE[(repo, rec["id"])] = rec["lang"]
    source(repo, path, commit, NOT_STATED, kind, items)


_spikee(
    "ReversecLabs/spikee",
    "spikee/data/workspace/datasets/seeds-cybersec-2026-01/jailbreaks.jsonl",
    "1e29f8d6cf7f4c6a4e6a3d78e7ad5aa7dd3196d5",
    "text",
    "spikee's injection framings (its 'jailbreaks'), each wrapping an <INSTRUCTION> "
    "placeholder the tool fills, given as written",
)
_spikee(
    "kyuz0/spikee",
    "spikee/data/workspace/datasets/sysmsg-extraction-2025-04/instructions.jsonl",
    "009b9dcb7777dcf18ad1541a64cfe2ae35b3e03f",
    "instruction",
    "spikee's system-message and secret extraction instructions (what its framings wrap), "
    "from the project's earlier repository",
)

_WASP_PATH = "webarena_prompt_injections/task_configs/goal_hijacking_all.json"
source(
    "facebookresearch/wasp",
    _WASP_PATH,
    "10f312f54fb0f7c2e804425bcbdc4d080b1564eb",
    NOT_STATED,
    "WASP's goal-hijacking instructions (adversarial_instruction_template) planted in a GitLab "
    "issue or a Reddit post for a web agent; the first 18 tasks, {placeholders} as written",
    [
        (f"task_id {name} adversarial_instruction_template (json)", text)
        for _n, name, text in _tsv("facebookresearch/wasp", _WASP_PATH)
    ],
)


# ---------------------------------------------------------------------------------------------
# The two filters (counts only are printed)

PLACEHOLDER = re.compile(r"<INSTRUCTION>|\{[a-z_]+\}")
"""The template placeholders kept as written in the texts of :data:`TEMPLATE_SOURCES`:
spikee's ``<INSTRUCTION>`` and WASP's ``{gitlab_domain}``-style fields (other sources' braces
are code, e.g. BIPIA's f-strings). A learned cue should mask them there before it trains:
main's rules catch every spikee framing through ``<INSTRUCTION>`` itself (a markup tag, and
the word "instruction"), not through what the framing says. A text that is nothing but a
placeholder is dropped (the third filter)."""

TEMPLATE_SOURCES = frozenset({"ReversecLabs/spikee", "facebookresearch/wasp"})

LEAK_RUN = 8
"""A candidate sharing this many consecutive lower-cased words with a protected text is dropped."""


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _grams(text: str, n: int = LEAK_RUN) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + n]) for i in range(len(w) - n + 1)}


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def protected_texts() -> Iterator[str]:
    """Every frozen poisoned and transformed text, every text of batches 7 and 8 (held out until
    a3b4f19, kept here so the builders before then reproduce their batches) and of the held-out
    batch 16, and every string of the held-out honest set: read here only to drop overlapping
    candidates."""
    for p in sorted(HERE.glob("poisoned_frozen*.json")):
        yield from (str(i["text"]) for i in json.loads(p.read_text(encoding="utf-8")))
    transformed = HERE / "transformed_frozen.json"
    if transformed.exists():
        yield from (str(i["text"]) for i in json.loads(transformed.read_text(encoding="utf-8")))
    for n in (7, 8, 16):
        p = HERE / f"poisoned_dev{n}.json"
        yield from (str(i["text"]) for i in json.loads(p.read_text(encoding="utf-8")))
    for p in sorted((HERE / "honest_held8").glob("*.json")):
        yield from _strings(json.loads(p.read_text(encoding="utf-8")))


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"\d+", "0", text.lower())).strip()


def filtered(
    sources: list[dict[str, Any]], protected: set[tuple[str, ...]]
) -> tuple[list[dict[str, Any]], dict[str, Counter[str]]]:
    """``sources`` without texts that are only a placeholder, near-identical repeats and
    leaking candidates, with the number each filter dropped per repository."""
    seen: set[str] = set()
    dropped: dict[str, Counter[str]] = {"empty": Counter(), "near-identical": Counter()}
    dropped["leak"] = Counter()
    out: list[dict[str, Any]] = []
    for s in sources:
        kept: list[tuple[str, str]] = []
        for where, text in s["items"]:
            key = _fold(text)
            if not words(PLACEHOLDER.sub("", text)):
                dropped["empty"][s["repo"]] += 1
            elif key in seen:
                dropped["near-identical"][s["repo"]] += 1
            elif _grams(text) & protected:
                dropped["leak"][s["repo"]] += 1
            else:
                kept.append((where, text))
            seen.add(key)
        if kept:
            out.append({**s, "items": kept})
    return out, dropped


HELD_OUT_DEV = ("poisoned_dev7.json", "poisoned_dev8.json", "poisoned_dev16.json")
"""The batches held out when the builders were written (7 and 8 until a3b4f19) or held out now
(16), read by a later batch's builder only through the leak check."""


def earlier_dev_texts(own: str) -> set[str]:
    """Every development poisoned text of a batch other than ``own`` (its file name) and the
    held-out ones, folded: a later batch drops its repeats."""
    out: set[str] = set()
    for p in sorted(HERE.glob("poisoned_dev*.json")):
        if p.name in (*HELD_OUT_DEV, own):
            continue  # the held-out batches are read only through the leak check
        out |= {_fold(str(i["text"])) for i in json.loads(p.read_text(encoding="utf-8"))}
    return out


def kept_sources(
    sources: list[dict[str, Any]], own: str, repos: Iterable[str], verbose: bool = False
) -> list[dict[str, Any]]:
    """A later batch's ``sources`` without the texts of earlier batches (``own``: its file
    name), then :func:`filtered` against the protected texts' runs; with ``verbose``, what
    each filter dropped per repository of ``repos``."""
    protected: set[tuple[str, ...]] = set()
    for t in protected_texts():
        protected |= _grams(t)
    earlier = earlier_dev_texts(own)
    fresh: list[dict[str, Any]] = []
    repeats: dict[str, int] = {}
    for s in sources:
        kept = [(w, t) for w, t in s["items"] if _fold(t) not in earlier]
        repeats[s["repo"]] = repeats.get(s["repo"], 0) + len(s["items"]) - len(kept)
        fresh.append({**s, "items": kept})
    out, dropped = filtered(fresh, protected)
    if verbose:
        for repo in repos:
            n = sum(len(s["items"]) for s in sources if s["repo"] == repo)
            print(
                f"  {repo}: {n} candidates; dropped: {dropped['empty'][repo]} only a "
                f"placeholder, {dropped['near-identical'][repo] + repeats[repo]} near-identical "
                f"({repeats[repo]} of an earlier batch), {dropped['leak'][repo]} by the leak check"
            )
    return out


SEED_OFFSET = 9
"""Planted with ``build_eval.PLANT_SEED + 9`` (batch 9 takes ``+ 8``)."""


def _language(item: dict[str, Any]) -> str | None:
    """A file's language, or a spikee record's (keyed by its id, the first word of ``where``)."""
    repo = str(item["source"])
    return LANGUAGE.get((repo, str(item["path"]))) or LANGUAGE.get(
        (repo, str(item["where"]).split(" ", 1)[0])
    )


def build(verbose: bool = False) -> list[dict[str, Any]]:
    """The batch's items: filtered, then planted (``build_eval._dev_batch``)."""
    import build_eval

    protected: set[tuple[str, ...]] = set()
    for t in protected_texts():
        protected |= _grams(t)
    kept, dropped = filtered(SOURCES, protected)
    if verbose:
        for repo in sorted({s["repo"] for s in SOURCES}):
            n = sum(len(s["items"]) for s in SOURCES if s["repo"] == repo)
            print(
                f"  {repo}: {n} candidates; dropped: {dropped['empty'][repo]} only a "
                f"placeholder, {dropped['near-identical'][repo]} near-identical, "
                f"{dropped['leak'][repo]} by the leak check"
            )
    out = build_eval._dev_batch(kept, 10, build_eval.PLANT_SEED + SEED_OFFSET)
    for item in out:
        lang = _language(item)
        if lang:
            item["language"] = lang
    return out


def items() -> list[dict[str, Any]]:
    return build()


def main() -> int:
    return write_batch(10, build(verbose=True))


if __name__ == "__main__":
    raise SystemExit(main())
