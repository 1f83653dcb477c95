"""The operator's walk on a real upgrade with one planted rug pull (benchmarks/README.md, "The
operator's walk on two real upgrades").

``python benchmarks/walk/walk.py UPGRADE SEED [--out DIR]`` with UPGRADE ``memory`` (the
published ``@modelcontextprotocol/server-memory`` 2025.4.25 -> 2026.8.31 through npx) or
``notion`` (``@notionhq/notion-mcp-server`` 1.8.0 -> 1.9.1 replayed from tests/corpus by
replay_server.py). SEED draws one text from benchmarks/eval/poisoned_dev10.json and one tool of
the new version (``random.Random(SEED)``: first the text, then the tool); the text is appended to
that tool's description in the candidate only. In a fresh folder (DIR, default a temporary one)
it writes ``mcp-review.toml`` with the server and its ``[servers.NAME.candidate]``, runs
``mcp-review pin``, then ``status``, ``status --groups``, ``check`` in its four formats (all with
``--candidate``), ``gate`` on the planted tool, and ``proxy NAME --enforce`` on the upgraded
server as a client would list it; each output is kept in DIR and a summary is printed: where
the planted tool landed in each, and whether they agree.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
POISONED = ROOT / "benchmarks" / "eval" / "poisoned_dev10.json"
MEMORY = "@modelcontextprotocol/server-memory"
NOTION = ROOT / "tests" / "corpus" / "notion-mcp-server"
MEMORY_TOOLS = ROOT / "tests" / "corpus" / "server-memory" / "2026.8.31.json"
MCP_REVIEW = [sys.executable, "-m", "mcp_review"]


def draw(upgrade: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    texts = json.loads(POISONED.read_text(encoding="utf-8"))
    item = rng.choice(texts)
    cap = MEMORY_TOOLS if upgrade == "memory" else NOTION / "1.9.1.json"
    names = [t["name"] for p in json.loads(cap.read_text())["results"] for t in p["tools"]]
    return {
        "seed": seed,
        "id": item["id"],
        "source": item["source"],
        "where": item["where"],
        "text": item["text"],
        "tool": rng.choice(names),
    }


def toml_str(s: str) -> str:
    return json.dumps(s)  # a JSON string is a valid TOML basic string


def server(argv: list[str]) -> str:
    return f"command = {toml_str(argv[0])}\nargs = [{', '.join(toml_str(a) for a in argv[1:])}]\n"


def commands(upgrade: str, plant: Path) -> tuple[list[str], list[str]]:
    py = sys.executable
    if upgrade == "memory":
        old = ["npx", "-y", f"{MEMORY}@2025.4.25"]
        # The test suite's relay (REWRITE_FILE, set in config()) plants the text in the list.
        relay = HERE.parent.parent / "tests" / "servers" / "rewrite_relay.py"
        new = [py, str(relay), "--", "npx", "-y", f"{MEMORY}@2026.8.31"]
    else:
        old = [py, str(HERE / "replay_server.py"), str(NOTION / "1.8.0.json")]
        new = [py, str(HERE / "replay_server.py"), str(NOTION / "1.9.1.json"), str(plant)]
    return old, new


def config(name: str, old: list[str], new: list[str], ws: Path, candidate: bool) -> str:
    env = (
        f"[servers.{name}.env]\nMEMORY_FILE_PATH = {toml_str(str(ws / 'memory.jsonl'))}\n"
        f"REWRITE_FILE = {toml_str(str(ws / 'rewrite.json'))}\n"
    )
    out = f"[servers.{name}]\n{server(old if candidate else new)}{env}"
    if candidate:
        out += f"\n[servers.{name}.candidate]\n{server(new)}" + env.replace(
            f"[servers.{name}.env]", f"[servers.{name}.candidate.env]"
        )
    return out


def run(ws: Path, label: str, argv: list[str], stdin: str | None = None) -> tuple[int, str]:
    p = subprocess.run(
        MCP_REVIEW + argv,
        cwd=ws,
        capture_output=True,
        text=True,
        input=stdin,
        timeout=600,
        env={**os.environ, "NO_COLOR": "1", "COLUMNS": "160"},
    )
    (ws / f"out-{label}.txt").write_text(p.stdout + "\n--- stderr ---\n" + p.stderr)
    return p.returncode, p.stdout


def proxy_listing(ws: Path, name: str) -> list[dict[str, Any]]:
    """What a client is served: initialize, initialized, tools/list through `proxy --enforce`."""
    msgs = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "walk", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}},
    ]
    p = subprocess.Popen(
        [*MCP_REVIEW, "proxy", name, "--config", "upgraded.toml", "--enforce"],
        cwd=ws,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert p.stdin is not None and p.stdout is not None
    tools: list[dict[str, Any]] = []
    try:
        for m in msgs:
            p.stdin.write(json.dumps(m) + "\n")
            p.stdin.flush()
            if "id" not in m:
                continue
            while True:
                line = p.stdout.readline()
                if not line:
                    raise RuntimeError("proxy closed: " + (p.stderr.read() if p.stderr else ""))
                r = json.loads(line)
                if r.get("id") == m["id"]:
                    break
            if m["id"] == 2:
                tools = r.get("result", {}).get("tools", [])
    finally:
        p.stdin.close()
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
    (ws / "out-proxy.json").write_text(json.dumps(tools, indent=1))
    return tools


def _json(ws: Path, label: str) -> Any:
    text = (ws / f"out-{label}.txt").read_text()
    return json.loads(text.split("\n--- stderr ---\n")[0])


def _where(decisions: list[dict[str, Any]], groups: list[dict[str, Any]], tool: str) -> str:
    """Where the planted tool sits in the visiting order: `alone #i/n` or `group #i/n (kind, size)`."""
    n, at = len(decisions), []
    for i, d in enumerate(decisions, 1):
        if d.get("tool") == tool:
            at.append(f"alone #{i}/{n} ({d.get('outcome')})")
        g = next((g for g in groups if g["id"] == d.get("group")), None)
        if g and any(m["tool"] == tool for m in g["members"]):
            at.append(f"group #{i}/{n} ({d['outcome']}: {g['kind']}, {len(g['members'])} tools)")
    return "; ".join(at) or f"not among {n} decisions"


def agreement(ws: Path, tool: str) -> dict[str, Any]:
    """The planted tool's status, outcome and cue ids, and the decision count, in each output."""
    c, s = _json(ws, "check-json"), _json(ws, "status-json")
    ct = next(t for t in c["tools"] if t["tool"] == tool)
    st = next(t for t in s["tools"] if t["tool"] == tool)
    sarif = _json(ws, "check-sarif")["runs"][0]["results"]
    sr = [r for r in sarif if f"/{tool}:" in r["message"]["text"]]
    out: dict[str, Any] = {
        "check-json": (
            ct["status"],
            ct["policy"]["outcome"],
            sorted(x["rule"] for x in ct["cues"]),
        ),
        "status-json": (
            st["status"],
            st["policy"]["outcome"],
            sorted(x["rule"] for x in st["cues"]),
        ),
        "sarif": [(r["ruleId"], r["level"]) for r in sr],
        "where": _where(c["decisions"], c["groups"], tool),
        "honest_blocked": sorted(
            t["tool"] for t in c["tools"] if t["tool"] != tool and t["policy"]["outcome"] == "block"
        ),
    }
    for label, pat in (
        ("status", r"^(\d+) decision\(s\)"),
        ("groups", r"^(\d+) decision\(s\)"),
        ("check-markdown", r"^\*\*(\d+) decision\(s\)\*\*"),
    ):
        m = re.search(pat, (ws / f"out-{label}.txt").read_text(), re.M)
        out[f"decisions-{label}"] = int(m.group(1)) if m else None
    out["decisions-check-json"] = len(c["decisions"])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("upgrade", choices=["memory", "notion"])
    ap.add_argument("seed", type=int)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--agree", action="store_true", help="only re-read the outputs in --out")
    a = ap.parse_args(argv)
    if a.agree:
        tool = json.loads((a.out / "plant.json").read_text())["tool"]
        print(json.dumps(agreement(a.out, tool), indent=1))
        return 0
    ws = a.out or Path(tempfile.mkdtemp(prefix=f"walk-{a.upgrade}-{a.seed}-"))
    ws.mkdir(parents=True, exist_ok=True)
    d = draw(a.upgrade, a.seed)
    plant = ws / "plant.json"
    plant.write_text(json.dumps({"tool": d["tool"], "text": d["text"]}))
    (ws / "rewrite.json").write_text(json.dumps({"tools_appended": {d["tool"]: d["text"]}}))
    old, new = commands(a.upgrade, plant)
    name = a.upgrade
    (ws / "mcp-review.toml").write_text(config(name, old, new, ws, candidate=True))
    (ws / "upgraded.toml").write_text(
        config(name, old, new, ws, candidate=False) + 'pins = "mcp-pins.toml"\n'
    )
    res: dict[str, Any] = {"draw": d, "workspace": str(ws)}
    res["pin"] = run(ws, "pin", ["pin"])[0]
    res["status"] = run(ws, "status", ["status", "--candidate"])
    res["status-json"] = run(ws, "status-json", ["status", "--candidate", "--format", "json"])
    res["groups"] = run(ws, "groups", ["status", "--candidate", "--groups"])
    for fmt in ("text", "json", "markdown", "sarif"):
        res[f"check-{fmt}"] = run(ws, f"check-{fmt}", ["check", "--candidate", "--format", fmt])
    snap = run(ws, "snap-old", ["snapshot", "--out", "old.json"])[0]
    res["snapshot"] = snap
    listing = proxy_listing(ws, name)
    served = {t["name"]: t.get("description") for t in listing}
    res["proxy"] = {
        "tools": len(listing),
        "planted_served": d["text"] in (served.get(d["tool"]) or ""),
        "planted_listed": d["tool"] in served,
    }
    res["agreement"] = agreement(ws, d["tool"])
    (ws / "summary.json").write_text(json.dumps(res, indent=1))
    print(json.dumps({k: (v[0] if isinstance(v, tuple) else v) for k, v in res.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
