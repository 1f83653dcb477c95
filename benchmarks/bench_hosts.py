#!/usr/bin/env python3
"""Host profiles on the real-server corpus (issue 44): how many upgrades of a tool become
refused per host, and how each profile agrees with the vendor's own converter.

``python benchmarks/bench_hosts.py [--list]``. Reads tests/corpus/ (scripts/corpus/corpus_data);
the oracles are scripts/hosts/oracles.py (openai-agents, anthropic, google-genai: the test
extras). Prints the figures of benchmarks/README.md, "Hosts"; ``--list`` prints every
disagreement with its reason.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts" / "corpus"))
sys.path.insert(0, str(ROOT / "scripts" / "hosts"))

import logging  # noqa: E402
import warnings  # noqa: E402

import corpus_data as cd  # noqa: E402
import oracles  # noqa: E402

from mcp_review.engine import hosts as H  # noqa: E402


def refusals(profile: H.Profile, wire: dict, server: str) -> list[H.Finding]:
    return [f for f in H.tool_findings(profile, wire, server) if f.refuses]


def upgrades() -> dict[str, collections.Counter[str]]:
    """Per profile: tool changes (a tool in two consecutive versions whose definition differs),
    how many become refused (a host-regression), how many gain a degrade or cut."""
    out: dict[str, collections.Counter[str]] = {p: collections.Counter() for p in H.PROFILES}
    for old, new in cd.pairs():
        for name in sorted(old.tools.keys() & new.tools.keys()):
            a, b = old.tools[name], new.tools[name]
            if json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True):
                continue
            for p in H.PROFILES.values():
                v = H.regressions(
                    H.tool_findings(p, a, old.server), H.tool_findings(p, b, new.server)
                )
                c = out[p.name]
                c["changes"] += 1
                c["refused"] += bool(v.regressions)
                c["degraded"] += bool(v.degrades) and not v.regressions
                for f in (*v.regressions, *v.degrades):
                    c["rule " + f.rule.removeprefix(f"host-{p.name}-")] += 1
                if v.regressions:
                    c["server " + old.server] += 1
    return out


def reason(oracle: str, ours: list[H.Finding], sdk: tuple[str, str]) -> str:
    """Why a profile and an oracle disagree on one schema (oracles.EXPLAINED's words)."""
    rules = {f.rule.removeprefix(f"host-{f.profile}-") for f in ours}
    keys = oracles.explain(oracle, rules, sdk)
    if keys is None:
        return f"UNEXPLAINED: profile {sorted(rules) or 'accepts'}, SDK {sdk[0]}: {sdk[1][:80]}"
    return " + ".join(f"[{k}] {oracles.EXPLAINED[oracle][k]}" for k in keys)


def agreement(list_all: bool) -> None:
    seen: set[str] = set()
    schemas: list[tuple[str, str, dict]] = []
    for caps in cd.servers().values():
        for cap in caps:
            for name, t in cap.tools.items():
                key = json.dumps(t.get("inputSchema"), sort_keys=True)
                if key in seen or not isinstance(t.get("inputSchema"), dict):
                    continue
                seen.add(key)
                schemas.append((cap.server, f"{cap.server} {cap.version} {name}", t))
    print(f"distinct input schemas in the corpus: {len(schemas)}")
    for oracle, profile_name in oracles.ORACLES.items():
        profile = H.PROFILES[profile_name]
        both_refuse = both_accept = 0
        reasons: collections.Counter[str] = collections.Counter()
        rewritten = 0
        examples: dict[str, str] = {}
        for server, label, t in schemas:
            ours = refusals(profile, t, server)
            sdk = oracles.judge(oracle, t["inputSchema"])
            rewritten += sdk == ("accept", "rewritten")
            if (sdk[0] == "refuse") == bool(ours):
                if ours:
                    both_refuse += 1
                else:
                    both_accept += 1
                continue
            r = reason(oracle, ours, sdk)
            reasons[r] += 1
            examples.setdefault(r, label)
        n = len(schemas)
        agree = both_refuse + both_accept
        print(
            f"{oracle} [{oracles.SOURCE[oracle]}] vs {profile_name}: agree {agree}/{n} "
            f"({100 * agree / n:.1f}%: {both_refuse} both refuse, {both_accept} both accept), "
            f"disagree {n - agree}"
            + (f"; the SDK rewrote {rewritten} it accepted" if rewritten else "")
        )
        for r, k in reasons.most_common():
            print(f"    {k:4d}  {r}" + (f"  (e.g. {examples[r]})" if list_all else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="an example of each disagreement")
    a = ap.parse_args(argv)
    warnings.simplefilter("ignore")  # the SDKs warn on every union type they convert
    logging.disable(logging.WARNING)
    servers = cd.servers()
    print(f"corpus: {len(servers)} servers, {sum(len(v) for v in servers.values())} versions")
    ups = upgrades()
    n = next(iter(ups.values()))["changes"]
    print(f"tool changes between consecutive versions: {n}")
    for p, c in ups.items():
        print(
            f"  {p:15s} refused by the change: {c['refused']:3d}   new degrade or cut: "
            f"{c['degraded']:3d}"
        )
        rules = ", ".join(f"{k[5:]} {n}" for k, n in c.most_common() if k.startswith("rule "))
        where = ", ".join(f"{k[7:]} {n}" for k, n in c.most_common(40) if k.startswith("server "))
        if rules:
            print(f"      by rule: {rules}")
        if where:
            print(f"      refused, by server: {where}")
    agreement(a.list)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
