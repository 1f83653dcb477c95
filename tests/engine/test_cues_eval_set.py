"""Issue 39's evaluation set is what its scripts write from the verbatim public texts, and
every item carries its provenance (benchmarks/eval/SOURCES.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "benchmarks" / "eval"

import build_eval  # noqa: E402
import transform  # noqa: E402


def _load(name: str) -> object:
    return json.loads((EVAL / name).read_text(encoding="utf-8"))


# Every reserved source's name (keep-off list, benchmarks/eval/SOURCES.md), as a test looks for it
# in a repository name; "msb" is checked as a whole word below.
KEEP_OFF = (
    "mcptox",
    "fuzzd",
    "safetybench",
    "safety-bench",
    "cisco",
    "safe-mcp",
    "damn-vulnerable",
    "mcp-injection-experiments",
    "invariant",
    "mcpsecbench",
    "pipelock",
    "mcp-watchdog",
    "secure-mcp-gateway",
    "enkrypt",
    "mcp-shield",
    "mcp-guardian",
    "everything-wrong",
    "acuvity",
    "devsecops_arena",
    "devsecops-arena",
)
KEEP_OFF_HONEST = ("awslabs/mcp", "github/github-mcp-server", "basicmachines-co/basic-memory")


def _assert_unreserved(source: str) -> None:
    """``source`` names none of the sources kept for the independent check."""
    assert not any(r in source.lower() for r in KEEP_OFF), source
    # MSB (the MCP Security Bench) as a whole name, not a substring of another
    assert "msb" not in re.split(r"[/_.-]", source.lower()), source


def test_committed_set_is_what_the_build_writes():
    frozen, dev, split = build_eval.build()
    assert _load("poisoned_frozen.json") == frozen
    assert _load("poisoned_dev.json") == dev
    assert _load("honest_split.json") == split
    assert _load("poisoned_frozen2.json") == build_eval.batch2_items()
    frozen3, dev3 = build_eval.batch3_items()
    assert _load("poisoned_frozen3.json") == frozen3
    assert _load("poisoned_dev3.json") == dev3
    assert _load("transformed_frozen.json") == transform.build()


def test_every_item_names_where_it_comes_from_and_no_reserved_source():
    items = [
        *_load("poisoned_frozen.json"),
        *_load("poisoned_dev.json"),
        *_load("poisoned_frozen2.json"),
        *_load("poisoned_frozen3.json"),
        *_load("poisoned_dev3.json"),
    ]  # type: ignore[misc]
    assert len(items) == len({i["id"] for i in items}) == 380
    frozen = [
        *_load("poisoned_frozen.json"),
        *_load("poisoned_frozen2.json"),
        *_load("poisoned_frozen3.json"),
    ]  # type: ignore[misc]
    assert len(frozen) == 300
    for i in items:
        assert i["source"] and i["path"] and len(i["commit"]) == 40 and i["where"], i["id"]
        _assert_unreserved(i["source"])
    split = _load("honest_split.json")
    assert "eks-mcp-server" not in split["frozen_servers"] + split["dev_servers"]  # type: ignore[index]


def test_batch3_splits_whole_sources_and_shares_none_with_earlier_batches():
    """Batch 3's dev sources are tuned on and none of them has a frozen item; no batch-3 source
    is one batches 1 and 2 drew from."""
    frozen3 = _load("poisoned_frozen3.json")
    dev3 = _load("poisoned_dev3.json")
    assert {i["source"] for i in frozen3}.isdisjoint({i["source"] for i in dev3})  # type: ignore[index]
    earlier = {
        i["source"]  # type: ignore[index]
        for name in ("poisoned_frozen.json", "poisoned_dev.json", "poisoned_frozen2.json")
        for i in _load(name)  # type: ignore[attr-defined]
    }
    assert earlier.isdisjoint({i["source"] for i in [*frozen3, *dev3]})  # type: ignore[index, misc]


def test_batch4_is_development_data_from_new_unreserved_sources():
    """Batch 4 (the recall pass's development data) is what the build writes, every item of it
    development (tuned on, never frozen), each with its provenance, from sources no earlier
    batch drew from and none reserved for the independent check."""
    dev4 = build_eval.batch4_items()
    assert _load("poisoned_dev4.json") == dev4
    assert len(dev4) >= 25 and len({i["source"] for i in dev4}) >= 10
    assert all(i["split"] == "dev" and i["batch"] == 4 for i in dev4)
    earlier = {
        i["source"]  # type: ignore[index]
        for name in (
            "poisoned_frozen.json",
            "poisoned_dev.json",
            "poisoned_frozen2.json",
            "poisoned_frozen3.json",
            "poisoned_dev3.json",
        )
        for i in _load(name)  # type: ignore[attr-defined]
    }
    for i in dev4:
        assert i["source"] not in earlier, i["source"]
        assert i["path"] and len(i["commit"]) == 40 and i["where"] and i["text"], i["id"]
        _assert_unreserved(i["source"])
    assert len({i["id"] for i in dev4}) == len(dev4)


def test_batch5_is_the_held_out_check_from_sources_no_batch_used():
    """Batch 5 (collected after the recall pass's rules, scored before any change) is what the
    build writes, from repositories none of batches 1-4 drew from, none reserved."""
    dev5 = build_eval.batch5_items()
    assert _load("poisoned_dev5.json") == dev5
    assert len(dev5) >= 9 and all(i["batch"] == 5 for i in dev5)
    earlier = {
        i["source"]  # type: ignore[index]
        for name in (
            "poisoned_frozen.json",
            "poisoned_dev.json",
            "poisoned_frozen2.json",
            "poisoned_frozen3.json",
            "poisoned_dev3.json",
            "poisoned_dev4.json",
        )
        for i in _load(name)  # type: ignore[attr-defined]
    }
    for i in dev5:
        assert i["source"] not in earlier, i["source"]
        assert i["path"] and len(i["commit"]) == 40 and i["where"] and i["text"], i["id"]


def test_batch6_is_the_directive_pass_held_out_check_from_new_unreserved_sources():
    """Batch 6 (collected and committed before the directive detector, scored before and after
    it) is what the build writes: at least 15 texts, each with its provenance, from
    repositories none of batches 1-5 drew from, none reserved for the independent check."""
    dev6 = build_eval.batch6_items()
    assert _load("poisoned_dev6.json") == dev6
    assert len(dev6) >= 15 and all(i["batch"] == 6 and i["split"] == "dev" for i in dev6)
    earlier = {
        i["source"]  # type: ignore[index]
        for name in (
            "poisoned_frozen.json",
            "poisoned_dev.json",
            "poisoned_frozen2.json",
            "poisoned_frozen3.json",
            "poisoned_dev3.json",
            "poisoned_dev4.json",
            "poisoned_dev5.json",
            "poisoned_dev_lang.json",
        )
        for i in _load(name)  # type: ignore[attr-defined]
    }
    for i in dev6:
        assert i["source"] not in earlier, i["source"]
        assert i["path"] and len(i["commit"]) == 40 and i["where"] and i["text"], i["id"]
        _assert_unreserved(i["source"])
    assert len({i["id"] for i in dev6}) == len(dev6)


def _earlier_sources(batch: int = 7) -> set[str]:
    """Every repository a poisoned batch before ``batch`` or an honest development set drew
    from (batch 7: ``honest_dev/`` only, as it was checked when collected; batch 8: every
    ``honest_dev*/``)."""
    later = {f"poisoned_dev{n}.json" for n in range(batch, 11)}
    names = [p.name for p in EVAL.glob("poisoned_*.json") if p.name not in later]
    out = {i["source"] for name in names for i in _load(name)}  # type: ignore[attr-defined, index]
    folders = ("honest_dev",) if batch == 7 else ("honest_dev", "honest_dev2", "honest_dev3")
    for folder in folders:
        for f in (EVAL / folder).glob("*.json"):
            out.add(json.loads(f.read_text(encoding="utf-8"))["repo"])
    return out


def test_batch7_is_a_held_out_batch_from_new_unreserved_repositories():
    """Batch 7 (collected while rules were being changed, scored once on main's rules before
    anyone looked at it) is what the build writes: at least 60 texts from at least 10
    repositories none of the earlier batches drew from, at most 10 a repository, each with its
    repository, path, 40-digit commit, licence and how it was taken, none reserved."""
    dev7 = build_eval.batch7_items()
    assert _load("poisoned_dev7.json") == dev7
    assert len(dev7) >= 60 and all(i["batch"] == 7 and i["split"] == "dev" for i in dev7)
    per_repo: dict[str, int] = {}
    for i in dev7:
        per_repo[i["source"]] = per_repo.get(i["source"], 0) + 1
    assert len(per_repo) >= 10 and max(per_repo.values()) <= 10, per_repo
    earlier = _earlier_sources()
    for i in dev7:
        src = i["source"].lower()
        assert i["source"] not in earlier, i["source"]
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", i["source"]), i["source"]
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", i["commit"]), i["id"]
        assert i["where"] and i["text"].strip() and i["licence"], i["id"]
        _assert_unreserved(i["source"])
        assert not any(src.startswith(h.lower()) for h in KEEP_OFF_HONEST), i["source"]
    assert len({i["id"] for i in dev7}) == len(dev7)


def test_batches_7_and_8_are_development_lines_of_their_own_once_their_check_was_spent(
    eval_dev_scores,
):
    """Batches 7 and 8 were held out until a3b4f19 (scored only in totals); since then they are
    development data: each on a listed line of its own, outside the old development total,
    and no longer held out."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    for n in (7, 8):
        assert n in b.DEV_APART and n not in b.HELD_OUT
        assert r[f"poisoned_batch{n}"]["all"]["n"] == len(_load(f"poisoned_dev{n}.json"))
        assert "misses" in r[f"poisoned_batch{n}"]
    total = sum(len(_load(f"poisoned_dev{n}.json")) for n in ("", 3, 4, 5, 6))  # type: ignore[arg-type]
    assert r["poisoned_dev_all"]["all"]["n"] == total


def test_batch8_is_a_second_held_out_batch_from_new_unreserved_repositories():
    """Batch 8 (collected by a helper who changed no rule, committed before anyone scored it)
    is what the build writes: at least 60 texts from at least 12 repositories that no earlier
    batch (7 included) and no honest development set drew from, at most 8 a repository, each
    with its repository, path, 40-digit commit, licence and how it was taken, none reserved;
    some of it in languages other than English."""
    dev8 = build_eval.batch8_items()
    assert _load("poisoned_dev8.json") == dev8
    assert len(dev8) >= 60 and all(i["batch"] == 8 and i["split"] == "dev" for i in dev8)
    per_repo: dict[str, int] = {}
    for i in dev8:
        per_repo[i["source"]] = per_repo.get(i["source"], 0) + 1
    assert len(per_repo) >= 12 and max(per_repo.values()) <= 8, per_repo
    earlier = _earlier_sources(8)
    owners = {s.split("/")[0].lower() for s in earlier}
    for i in dev8:
        src = i["source"].lower()
        assert i["source"] not in earlier, i["source"]
        assert src.split("/")[0] not in owners, i["source"]  # nor another repository of theirs
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", i["source"]), i["source"]
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", i["commit"]), i["id"]
        assert i["where"] and i["text"].strip() and i["licence"], i["id"]
        _assert_unreserved(i["source"])
        assert not any(src.startswith(h.lower()) for h in KEEP_OFF_HONEST), i["source"]
    assert len({i["id"] for i in dev8}) == len(dev8)
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    assert {b.language(i["text"]) for i in dev8} >= {"en", "zh", "ko"}


def test_batch16_is_a_held_out_batch_from_authors_no_other_file_drew_from():
    """Batch 16 (collected by a helper who changed no rule, committed before anyone scored it)
    is what its builder writes (planted with seed 54): at least 60 texts from at least 12
    repositories that no other poisoned batch, batch builder or honest set names, whose owners
    own none of those repositories, at most 8 a repository, none reserved, each with its
    repository, path, 40-digit commit, licence and how it was taken, and no text that repeats
    (after folding) a text of any other poisoned file, frozen and held-out ones included."""
    import public_batch10
    import public_batch16
    from test_cues_eval_new_batches import _other_repos

    dev16 = public_batch16.items()
    assert _load("poisoned_dev16.json") == dev16
    assert public_batch16.SEED_OFFSET + build_eval.PLANT_SEED == 54
    assert len(dev16) >= 60 and all(i["batch"] == 16 and i["split"] == "dev" for i in dev16)
    per_repo: dict[str, int] = {}
    for i in dev16:
        per_repo[i["source"]] = per_repo.get(i["source"], 0) + 1
    assert len(per_repo) >= 12 and max(per_repo.values()) <= public_batch16.MAX_PER_REPO == 8
    others = _other_repos(16)
    owners = {r.split("/")[0].lower() for r in others}
    for i in dev16:
        src = i["source"]
        assert src not in others, src
        assert src.split("/")[0].lower() not in owners, src  # nor another repository of theirs
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", src), src
        assert i["path"] and re.fullmatch(r"[0-9a-f]{40}", i["commit"]), i["id"]
        assert i["where"] and i["text"].strip() and i["licence"], i["id"]
        _assert_unreserved(src)
        assert not any(src.lower().startswith(h.lower()) for h in KEEP_OFF_HONEST), src
    assert len({i["id"] for i in dev16}) == len(dev16)
    folded = [public_batch10._fold(i["text"]) for i in dev16]
    assert len(set(folded)) == len(folded)
    assert not set(folded) & public_batch16.other_texts()
    assert {i.get("language", "en") for i in dev16} == {"en", "es", "ko"}


def test_batch16_is_scored_alone_in_totals_and_never_in_a_development_run(eval_dev_scores, capsys):
    """Held out as batches 7 and 8 were until a3b4f19: ``--batch 16`` (or ``--held-out``) scores it alone, totals
    only; a development run, its listing included, never shows it, and no development
    reader (the learned cue's data, the block evidence) reads it."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b
    import block_evidence
    import train_cue_model

    assert 16 in b.HELD_OUT and 16 not in b.DEV_APART
    r = eval_dev_scores  # b.measure("dev"), once a run (tests/engine/conftest.py)
    assert "poisoned_batch16" not in r and not any(k.endswith("_heldout") for k in r)
    b.report(r, listing=True)  # what a tuning run prints, listing included
    assert "batch 16" not in capsys.readouterr().out
    held = b.measure_batch(16)
    assert held["all"]["n"] == len(_load("poisoned_dev16.json"))  # type: ignore[arg-type]
    assert "misses" not in held
    b.report_batch(16, held)
    out = capsys.readouterr().out
    assert "batch 16 (held out)" in out and "miss" not in out
    assert "poisoned_dev16.json" not in train_cue_model.POS_DEV
    assert "poisoned_dev16.json" not in {p.name for p in block_evidence.POISONED}


# Published servers held out for an independent check (tests/corpus/manifest.json's left_out)
HELD_FOR_INDEPENDENT_CHECK = (
    "ms-365-mcp",
    "actors-mcp",
    "hubspot",
    "circleci",
    "browserbase",
    "cloudflare",
    "upstash",
    "pagerduty",
    "monday",
)


def test_honest_dev2_keeps_provenance_and_stays_off_the_corpus_and_keep_off_servers():
    """The second honest development set: at least 300 tool definitions from at least 20
    published servers, one file a server, each file naming its repository, path and 40-digit
    commit; no file is a corpus server, a server of ``honest_dev/`` or a keep-off one."""
    import corpus_data as cd

    files = sorted((EVAL / "honest_dev2").glob("*.json"))
    docs = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    assert len(docs) >= 20
    assert sum(len(d["tools"]) for d in docs) >= 300
    earlier = {
        (d["repo"], d["path"])
        for d in (
            json.loads(f.read_text(encoding="utf-8")) for f in (EVAL / "honest_dev").glob("*.json")
        )
    }
    earlier_repos = {r for r, _ in earlier}
    corpus = {s.lower() for s in cd.servers()}
    for f, d in zip(files, docs, strict=True):
        assert d["repo"] and d["path"] and d["note"], f.name
        assert re.fullmatch(r"[0-9a-f]{40}", d["commit"]), f.name
        where = f"{d['repo']} {d['path']}".lower()
        assert not any(k.lower() in where for k in KEEP_OFF_HONEST), f.name
        assert not any(k in where for k in KEEP_OFF), f.name
        assert not any(k in where for k in HELD_FOR_INDEPENDENT_CHECK), f.name
        assert (d["repo"], d["path"]) not in earlier and d["repo"] not in earlier_repos, f.name
        # a corpus server is named in the path of a catalogue entry or is the repository itself
        names = {d["repo"].split("/")[1].lower(), *re.split(r"[/,\s]+", d["path"].lower())}
        assert not names & corpus, (f.name, names & corpus)
        assert d["tools"], f.name
        for t in d["tools"]:
            assert t["name"] and t["inputSchema"]["type"] == "object", (f.name, t.get("name"))
            assert "description" in t, (f.name, t["name"])
        assert len({t["name"] for t in d["tools"]}) == len(d["tools"]), f.name


def test_honest_dev3_keeps_provenance_and_stays_apart_from_the_other_honest_sets():
    """``honest_dev3/`` (agent-oriented published servers, precision work only) names where each
    tool list comes from, and shares no server with ``honest_dev/``, the corpus or the honest
    sources the issue keeps for the independent check."""
    kept_off = ("awslabs/mcp", "github/github-mcp-server", "basicmachines-co/basic-memory")
    earlier = {
        json.loads(f.read_text(encoding="utf-8"))["repo"]
        for f in (EVAL / "honest_dev").glob("*.json")
    }
    corpus = set(_load("honest_split.json")["frozen_servers"])  # type: ignore[index]
    corpus |= set(_load("honest_split.json")["dev_servers"])  # type: ignore[index]
    files = sorted((EVAL / "honest_dev3").glob("*.json"))
    repos, tools = set(), 0
    for f in files:
        d = json.loads(f.read_text(encoding="utf-8"))
        assert d["repo"] and d["path"] and d["note"], f.name
        assert re.fullmatch(r"[0-9a-f]{40}", d["commit"]), f.name
        assert d["repo"] not in earlier and d["repo"].lower() not in kept_off, d["repo"]
        assert d["repo"].split("/")[-1] not in corpus, d["repo"]
        assert d["tools"] and all(t["name"] and t["description"] for t in d["tools"]), f.name
        repos.add(d["repo"])
        tools += len(d["tools"])
    assert len(repos) >= 15 and tools >= 150


# The corpus's own list of servers it holds out for an independent check (manifest "left_out")
INDEPENDENT_CHECK_SERVERS = (
    "supabase",
    "sentry",
    "figma",
    "mongodb",
    "neon",
    "kubernetes",
    "playwright",
    "brightdata",
    "stripe",
    "arxiv",
    "clickhouse",
    "motherduck",
    "atlassian",
    "jupyter",
)


def _honest_docs(folder: str) -> list[dict]:  # type: ignore[type-arg]
    return [
        json.loads(f.read_text(encoding="utf-8")) for f in sorted((EVAL / folder).glob("*.json"))
    ]


def _assert_new_honest_servers(docs: list[dict], earlier: list[dict]) -> None:  # type: ignore[type-arg]
    """Each honest server file names its repository, path, 40-digit commit, licence and which
    part was taken; no server is one of ``earlier``'s, a corpus server, one the corpus holds
    out for an independent check or a keep-off one (a Docker catalogue entry counts as its own
    server: its path must be new, its repository may be the catalogue); each tool has a name,
    a description and an object input schema, and no name repeats within a server."""
    import corpus_data as cd

    earlier_paths = {(d["repo"], p.strip()) for d in earlier for p in d["path"].split(",")}
    earlier_repos = {d["repo"] for d in earlier} - {"docker/mcp-registry"}
    earlier_names = {d["path"].split("/")[1] for d in earlier if d["repo"] == "docker/mcp-registry"}
    split = _load("honest_split.json")
    corpus = {s.lower() for s in cd.servers()} | set(split["frozen_servers"])  # type: ignore[index]
    corpus |= set(split["dev_servers"])  # type: ignore[index]
    for d in docs:
        where = f"{d['repo']} {d['path']}".lower()
        assert d["note"] and d["licence"] and re.fullmatch(r"[0-9a-f]{40}", d["commit"]), where
        assert (d["repo"], d["path"]) not in earlier_paths and d["repo"] not in earlier_repos, where
        if d["repo"] == "docker/mcp-registry":
            assert d["path"].split("/")[1] not in earlier_names, where
        assert not any(k.lower() in where for k in KEEP_OFF_HONEST), where
        assert not any(k in where for k in KEEP_OFF), where
        assert not any(k in where for k in HELD_FOR_INDEPENDENT_CHECK), where
        assert not any(k in where for k in INDEPENDENT_CHECK_SERVERS), where
        names = {d["repo"].split("/")[1].lower(), *re.split(r"[/,\s]+", d["path"].lower())}
        assert not names & corpus, (where, names & corpus)
        assert d["tools"] and len({t["name"] for t in d["tools"]}) == len(d["tools"]), where
        for t in d["tools"]:
            assert t["name"] and t["description"].strip(), (where, t.get("name"))
            assert t["inputSchema"]["type"] == "object", (where, t["name"])


def _assert_registry_honest_set(
    folder: str, earlier: tuple[str, ...], servers: int, tools: int, words: tuple[str, ...]
) -> None:
    """An honest set taken from the package registries (``collect_npm_honest.py`` /
    ``collect_pypi_honest.py``): at least ``servers`` servers and ``tools`` tool definitions,
    each server new against the sets ``earlier`` (:func:`_assert_new_honest_servers`), one file
    a distinct ``npm name@version`` or ``pypi name==version``, a placeholder setting named as
    no working credential, and the kinds the set was chosen for (``words``) in its text."""
    docs = _honest_docs(folder)
    assert len(docs) >= servers and sum(len(d["tools"]) for d in docs) >= tools
    _assert_new_honest_servers(docs, [d for name in earlier for d in _honest_docs(name)])
    packages = [d["path"] for d in docs]
    assert all(
        re.fullmatch(r"npm (?:@[\w.-]+/)?[\w.-]+@\d[\w.+-]*|pypi [\w.-]+==\d[\w.+-]*", p)
        for p in packages
    ), packages
    assert len(set(packages)) == len(packages)
    for d in docs:
        if "placeholder" in d["note"]:
            assert "no working credential" in d["note"], d["path"]
    text = " ".join(t["description"].lower() for d in docs for t in d["tools"])
    for word in words:
        assert word in text, word


def test_honest_held8_keeps_provenance_and_shares_no_server_with_any_other_honest_set():
    """The held-out honest set: at least 200 tool definitions of at least 15 published servers,
    one file a server, each naming its repository, path, 40-digit commit, licence and which part
    was taken; no server is a corpus server, one of ``honest_dev*/``, one the corpus holds out
    for an independent check or a keep-off one (a Docker catalogue entry counts as its own
    server: its path must be new, its repository may be the catalogue)."""
    docs = _honest_docs("honest_held8")
    assert len(docs) >= 15 and sum(len(d["tools"]) for d in docs) >= 200
    earlier = [
        d for name in ("honest_dev", "honest_dev2", "honest_dev3") for d in _honest_docs(name)
    ]
    _assert_new_honest_servers(docs, earlier)
    # agent-facing kinds the set was chosen for: shell, files, email or messages, databases, cloud
    text = " ".join(t["description"].lower() for d in docs for t in d["tools"])
    for word in ("command", "file", "email", "database", "instance", "message"):
        assert word in text, word


def test_honest_held8_is_scored_in_totals_only():
    """``--honest-held`` reports the share of held-out honest tools with a block or attention
    cue and with a block cue, and returns no tool name, so none is listed."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    docs = _honest_docs("honest_held8")
    h = b.measure_honest_held()
    assert set(h) == {"servers", "n", "any", "any_rate", "block", "block_rate"}
    assert h["servers"] == len(docs) and h["n"] == sum(len(d["tools"]) for d in docs)
    assert 0 <= h["block"] <= h["any"] <= h["n"]


def test_honest_dev4_keeps_provenance_and_shares_no_server_with_any_other_honest_set():
    """The fourth honest development set (collected after the held-out honest set showed the
    precision work fit the servers it was tuned on): at least 300 tool definitions of at least
    20 published agent-facing servers, one file a server, each naming its repository, path,
    40-digit commit, licence and which part was taken; no server is a corpus server, one of the
    other honest sets (the held-out one included), one the corpus holds out for an independent
    check or a keep-off one (a Docker catalogue entry counts as its own server)."""
    docs = _honest_docs("honest_dev4")
    assert len(docs) >= 20 and sum(len(d["tools"]) for d in docs) >= 300
    earlier = [
        d
        for name in ("honest_dev", "honest_dev2", "honest_dev3", "honest_held8")
        for d in _honest_docs(name)
    ]
    _assert_new_honest_servers(docs, earlier)
    # agent-facing kinds the set was chosen for: payments, databases, containers, chat, files
    text = " ".join(t["description"].lower() for d in docs for t in d["tools"])
    for word in ("wallet", "database", "container", "chat", "file", "sql", "token"):
        assert word in text, word


def test_with_own_reads_a_server_as_a_review_does_its_siblings_its_own():
    """A review's fleet holds the server under review (engine/status.py): a sibling its text
    names is its own tool, not a same-named tool of another server (``--own-fleet``, the
    second ``--honest-held`` line)."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    from mcp_review.engine.cues import text_cues

    corpus = {"graphql-other": {"validate"}}
    tool = {
        "name": "execute",
        "description": "Run an operation. When asked anything, use the `validate` tool instead.",
        "inputSchema": {"type": "object", "properties": {}},
    }
    doc = {"tools": [tool, {"name": "validate"}]}
    alone = b.KnownNames.of(corpus)
    own = b.with_own(corpus, "apollo", doc)
    assert own.tools["validate"] == frozenset({"graphql-other", "apollo"})
    # read as one text (a new tool's single reading is shown at attention under its own rule,
    # engine/cue_corroborate.py; the names decide whether the reading is there at all)
    text = str(tool["description"])
    kw = {"own_server": "apollo", "own_tool": "execute"}
    rules_alone = {c.rule for c in text_cues(text, "/description", names=alone, **kw)}
    rules_own = {c.rule for c in text_cues(text, "/description", names=own, **kw)}
    assert "cue.instruction.other-tool" in rules_alone - rules_own


def test_honest_dev5_keeps_provenance_and_shares_no_server_with_any_other_honest_set():
    """The fifth honest development set (collected because the held-out honest set still drew
    far more cues than the development sets, which the precision passes had learned): at least
    300 tool definitions of at least 20 published npm MCP servers, each run and asked for its
    tools (``benchmarks/eval/collect_npm_honest.py``), one file a server naming its repository,
    ``npm NAME@VERSION``, a 40-digit commit (the publisher's gitHead or the tarball's SHA-1),
    licence and how it was taken; no server is a corpus server, one of the other honest sets
    (the held-out one included), one the corpus holds out for an independent check or a
    keep-off one."""
    docs = _honest_docs("honest_dev5")
    assert len(docs) >= 20 and sum(len(d["tools"]) for d in docs) >= 300
    earlier = [
        d
        for name in ("honest_dev", "honest_dev2", "honest_dev3", "honest_held8", "honest_dev4")
        for d in _honest_docs(name)
    ]
    _assert_new_honest_servers(docs, earlier)
    packages = [d["path"] for d in docs]
    assert all(re.fullmatch(r"npm (?:@[\w.-]+/)?[\w.-]+@\d[\w.+-]*", p) for p in packages)
    assert len(set(packages)) == len(packages)
    # agent-facing kinds the set was chosen for: task planners, memory, browsers, shells, code
    text = " ".join(t["description"].lower() for d in docs for t in d["tools"])
    for word in ("task", "memory", "browser", "command", "code", "file"):
        assert word in text, word


def test_honest_new_tools_are_also_read_with_the_releases_own_tools_known():
    """The corpus sets' new tools get a second reading with the release's own tools as the
    server's entry (``new_tools_own``), counted over the same tools as the first."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_cues_eval as b

    corpus = b.fleet_names(b.cd.servers())
    dev = _load("honest_split.json")["dev_servers"]  # type: ignore[index]
    h = b.score_honest(dev, b.KnownNames.of(corpus), corpus)
    own, first = h["new_tools_own"], h["new_tools"]
    assert own["n"] == first["n"] > 0
    assert 0 <= own["block"] <= own["any"] <= own["n"]
    assert b.score_honest(["mcp-server-time"], b.KnownNames.of(corpus))["new_tools_own"]["n"] == 0
