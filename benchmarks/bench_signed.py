"""Verifying signed decisions (issue 45): N decisions signed with an ed25519 (and an ECDSA
P-256) key made by ssh-keygen, then ``verify --require-signed``'s work on them in process: the
pin file read, every record rebuilt and every signature checked with ``cryptography``
(services.signing.vet), against calling ``ssh-keygen -Y verify`` once per decision (the
interoperable check, timed on a sample and scaled).

    python benchmarks/bench_signed.py [--decisions 1000] [--repeat 5] [--ssh-sample 20]

Target: 1,000 decisions well under a second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, PinFile, make_pin
from mcp_review.engine.signed import SIGNATURES, record_bytes
from mcp_review.engine.sshsig import armor, dearmor
from mcp_review.services import signing
from mcp_review.store.pinfile import load_pins, save_pins


def tool(i: int) -> ToolDef:
    return ToolDef.from_wire(
        {
            "name": f"tool{i:05d}",
            "description": f"Look up record {i} in the warehouse and return it as JSON.",
            "inputSchema": {
                "type": "object",
                "properties": {"id": {"type": "string", "description": "the record's id"}},
                "required": ["id"],
            },
            "annotations": {"readOnlyHint": True},
        }
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ssh-sample", type=int, default=20)
    ap.add_argument("--kind", choices=("ed25519", "ecdsa"), default="ed25519")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        key = Path(d) / "k"
        subprocess.run(["ssh-keygen", "-q", "-t", a.kind, "-N", "", "-f", str(key)], check=True)
        kind, b64, *_ = (Path(d) / "k.pub").read_text().split()
        (Path(d) / "allowed_signers").write_text(f"alice@example.com {kind} {b64}\n")
        policy = Path(d) / "policy.toml"
        policy.write_text('version = 1\nallowed_signers = "allowed_signers"\n')
        pins_path = str(Path(d) / "mcp-pins.toml")
        pf = PinFile(path=pins_path)
        pf.sign = signing.load_signer(str(key)).sign_pin
        t0 = time.perf_counter()
        for i in range(a.decisions):
            pf.decide(make_pin("warehouse", tool(i), Decision.APPROVED, by="alice"))
        save_pins(pf, pins_path)
        sign_s = time.perf_counter() - t0
        size = os.path.getsize(pins_path)

        times, read_times = [], []
        for _ in range(a.repeat):
            signing._KEYS.clear()  # a fresh process parses the key once: count it
            t0 = time.perf_counter()
            pins = load_pins(pins_path)
            t1 = time.perf_counter()
            trust = signing.load_trust(str(policy), pins_path)
            v = signing.vet(pins, trust)
            t2 = time.perf_counter()
            assert v.ok and v.good == a.decisions, (v.failures[:3], v.policy_problems)
            read_times.append(t1 - t0)
            times.append(t2 - t1)

        # The floor: the same N signatures checked by a bare cryptography loop (no parsing, no
        # records, no policy), in the same minutes.
        pins = load_pins(pins_path)
        from mcp_review.engine.sshsig import parse_sshsig, signed_data

        pairs = []
        for p in pins.pins.values():
            sig = parse_sshsig(dearmor(p.extra[SIGNATURES][0]))
            pairs.append((sig, signed_data(sig.namespace, sig.hash_alg, record_bytes(p))))
        pub = signing._public(pairs[0][0].public_key)
        raw_times = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            for sig, data in pairs:
                if a.kind == "ed25519":
                    pub.verify(sig.sig, data)
            raw_times.append(time.perf_counter() - t0)

        # ssh-keygen -Y verify, one process per decision (on a sample, scaled).
        sample = list(pins.pins.values())[: a.ssh_sample]
        t0 = time.perf_counter()
        for p in sample:
            sig = Path(d) / "s.sig"
            sig.write_text(armor(dearmor(p.extra[SIGNATURES][0])))
            subprocess.run(
                [
                    "ssh-keygen",
                    "-Y",
                    "verify",
                    "-f",
                    str(Path(d) / "allowed_signers"),
                    "-I",
                    "alice@example.com",
                    "-n",
                    "mcp-review-decision",
                    "-s",
                    str(sig),
                ],
                input=record_bytes(p),
                capture_output=True,
                check=True,
            )
        per_ssh = (time.perf_counter() - t0) / len(sample)

    med = statistics.median(times)
    print(f"{a.decisions} decisions ({a.kind}), pin file {size / 1024:.0f} KiB")
    print(f"  signing + save:            {sign_s:.2f} s")
    print(f"  load_pins (digests):       median {statistics.median(read_times) * 1000:.0f} ms")
    print(
        f"  verify signatures+policy:  median {med * 1000:.0f} ms "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}; "
        f"{med / a.decisions * 1e6:.0f} µs a decision)"
    )
    if a.kind == "ed25519":
        raw = statistics.median(raw_times)
        print(
            f"  bare Ed25519 verify loop:  median {raw * 1000:.0f} ms (the floor; ours {med / raw:.2f}×)"
        )
    print(
        f"  ssh-keygen -Y verify:      {per_ssh * 1000:.1f} ms a decision → "
        f"{per_ssh * a.decisions:.1f} s for {a.decisions} ({per_ssh * a.decisions / med:.0f}×)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
