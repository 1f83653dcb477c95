"""Golden files: the exact bytes `check`, `status` and `gate` print, in every format they offer.

Each case runs the real CLI (``mcp_review.cli.main``, in-process, stdout and stderr captured)
on committed inputs and compares stdout **byte for byte** with ``tests/golden/<command>/<case>``,
checks the exit code against the literal table below and asserts stderr is empty (``-q``).
A change of any output, intended or not, shows up here first: when your change means to change
an output, regenerate and read the diff of ``tests/golden/`` before committing it (and say in the
commit message which goldens moved and why).

Regenerate (writes the goldens instead of comparing; the test then fails nothing)::

    MCP_REVIEW_UPDATE_GOLDEN=1 python -m pytest -q -p no:cacheprovider tests/formats/test_golden_outputs.py
    git diff tests/golden/

The inputs (``tests/golden/inputs``):

- ``fleet``: two servers pinned from ``base.json`` (``pin --snapshot``), reviewed offline from
  ``new.json`` with recorded calls: a hidden-character rug pull on ``files/search`` (zero-width
  space + Unicode TAG text "Ignore" + a new instruction), a breaking change with recorded calls
  that fail (``files/read_file`` gains a required ``encoding``), a removed tool that still has a
  recorded call (``files/delete_file``), a compatible optional property (``files/list_notes``),
  a new tool (``files/send_mail``) and seed C4's enum narrowing with its four calls
  (``warehouse/run_query``).
- ``seeds``: the seed table C1–C6 (``tests/fixtures/seed``), one server per case, as snapshots
  pinned then checked, and each case through ``gate OLD NEW CALLS``.
- ``gate/hidden`` and ``gate/breaking``: the fleet's rug pull and breaking change as a ``gate``.

Volatile values are normalised explicitly, never by loosening the comparison: every
``decided_at`` the ``pin`` command wrote (read back from the pin file) becomes ``<PINNED_AT>``;
the operator name is fixed by running with ``LOGNAME``/``USER`` set to ``golden-operator``;
commands run with the temporary project folder as working directory and relative paths, and any
remaining occurrence of that folder's path becomes ``<TMP>``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from mcp_review.cli import main

HERE = Path(__file__).parent.parent
GOLDEN = HERE / "golden"
INPUTS = GOLDEN / "inputs"
SEED = HERE / "fixtures" / "seed"
UPDATE = os.environ.get("MCP_REVIEW_UPDATE_GOLDEN") == "1"

SEED_CASES = {
    "c1": ("c1_old.json", "c1_new.json", "calls.jsonl"),
    "c2": (
        "c2/implementation-2025-06-18.json",
        "c2/implementation-2025-11-25.json",
        "c2/calls.jsonl",
    ),
    "c3": ("c3_old.json", "c3_new.json", "calls.jsonl"),
    "c4": ("c4_old.json", "c4_new.json", "calls.jsonl"),
    "c5": ("c5_old.json", "c5_new.json", "calls.jsonl"),
    "c6": ("c6_old.json", "c6_new.json", "calls.jsonl"),
}

# Expected exit codes, written down by hand: the seed table (PASS for C1, C2, C6; FAIL else);
# `gate` is the compatibility gate, so the rug pull (trust, not breaking) passes it, while
# `check` and `status` fail both scenarios.
GATE_EXIT = {"c1": 0, "c2": 0, "c3": 1, "c4": 1, "c5": 1, "c6": 0, "hidden": 0, "breaking": 1}
SCENARIO_EXIT = {"fleet": 1, "seeds": 1}

FORMATS = {
    "check": ("text", "json", "markdown", "sarif"),
    "status": ("text", "json"),
    "gate": ("text", "json"),
}
SUFFIX = {"text": "txt", "json": "json", "markdown": "md", "sarif": "sarif"}

DECIDED_AT = re.compile(r'^decided_at = "([^"]+)"$', re.M)


def _snapshot(servers: dict[str, tuple[str, list[dict]]]) -> dict:
    return {
        "format": "mcp-review-snapshot",
        "version": 1,
        "taken_at": "2026-11-01T00:00:00Z",
        "servers": {
            name: {
                "principal": "default",
                "server_info": {"name": name, "version": version},
                "protocol_version": "2025-11-25",
                "ttl_ms": None,
                "cache_scope": None,
                "tools": tools,
            }
            for name, (version, tools) in servers.items()
        },
    }


def _write_seed_inputs(root: Path) -> list[str]:
    """Seeds C1–C6 as two snapshots (one server per case) and a call log per server.

    Five seeds name their tool ``run_query``; served side by side that would be cross-server
    shadowing on every row, so each gets its case as a suffix (``run_query_c3``).
    """
    base, new, calls_args = {}, {}, []
    for case, (old_f, new_f, calls_f) in SEED_CASES.items():
        old = json.loads((SEED / old_f).read_text(encoding="utf-8"))
        nxt = json.loads((SEED / new_f).read_text(encoding="utf-8"))
        if old["name"] == "run_query":
            old["name"] = nxt["name"] = f"run_query_{case}"
        base[case] = ("1.0.0", [old])
        new[case] = ("1.1.0", [nxt])
        lines = [
            json.dumps({"tool": old["name"], "arguments": json.loads(line)})
            for line in (SEED / calls_f).read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        (root / f"{case}.calls.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        calls_args += ["--calls", f"{case}={case}.calls.jsonl"]
    (root / "base.json").write_text(json.dumps(_snapshot(base), indent=2), encoding="utf-8")
    (root / "new.json").write_text(json.dumps(_snapshot(new), indent=2), encoding="utf-8")
    return calls_args


def _write_fleet_inputs(root: Path) -> list[str]:
    for name in ("base.json", "new.json", "files.calls.jsonl", "warehouse.calls.jsonl"):
        shutil.copy(INPUTS / name, root / name)
    return ["--calls", "files=files.calls.jsonl", "--calls", "warehouse=warehouse.calls.jsonl"]


SCENARIOS = {"fleet": _write_fleet_inputs, "seeds": _write_seed_inputs}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    for var in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(var, "golden-operator")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("NO_COLOR", raising=False)
    return root


def _run(capsys: pytest.CaptureFixture, argv: list[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    assert err == "", f"{argv}: unexpected stderr {err!r}"
    return code, out


def _normalise(text: str, root: Path, stamps: set[str]) -> str:
    text = text.replace(str(root), "<TMP>")
    for stamp in sorted(stamps):
        text = text.replace(stamp, "<PINNED_AT>")
    return text


def _compare(rel: str, actual: str) -> None:
    path = GOLDEN / rel
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
        return
    assert path.exists(), f"missing golden {rel}: regenerate with MCP_REVIEW_UPDATE_GOLDEN=1"
    expected = path.read_bytes()
    got = actual.encode("utf-8")
    if got != expected:
        # Show the first differing line for a quick read; the full picture is the file diff.
        exp_lines = expected.decode("utf-8").splitlines(keepends=True)
        got_lines = actual.splitlines(keepends=True)
        pairs = zip(exp_lines, got_lines, strict=False)
        first = next(
            (i for i, (a, b) in enumerate(pairs) if a != b), min(len(exp_lines), len(got_lines))
        )
        pytest.fail(
            f"{rel} differs from its golden at line {first + 1}:\n"
            f"  golden: {exp_lines[first] if first < len(exp_lines) else '<end>'!r}\n"
            f"  actual: {got_lines[first] if first < len(got_lines) else '<end>'!r}\n"
            "(an intended change: regenerate with MCP_REVIEW_UPDATE_GOLDEN=1 and "
            "review `git diff tests/golden/`)"
        )


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_check_and_status_outputs(scenario: str, project: Path, capsys) -> None:
    calls = SCENARIOS[scenario](project)
    assert _run(capsys, ["pin", "--snapshot", "base.json", "--yes", "--pins", "pins.toml"])[0] == 0
    stamps = set(DECIDED_AT.findall((project / "pins.toml").read_text(encoding="utf-8")))
    assert stamps, "the pin command wrote no decided_at: the normalisation would be a no-op"
    common = ["-q", "--pins", "pins.toml", *calls]
    for fmt in FORMATS["check"]:
        code, out = _run(capsys, ["check", "--from-snapshot", "new.json", "--format", fmt, *common])
        assert code == SCENARIO_EXIT[scenario], (fmt, code)
        _compare(f"check/{scenario}.{SUFFIX[fmt]}", _normalise(out, project, stamps))
    for fmt in FORMATS["status"]:
        code, out = _run(capsys, ["status", "--snapshot", "new.json", "--format", fmt, *common])
        assert code == SCENARIO_EXIT[scenario], (fmt, code)
        _compare(f"status/{scenario}.{SUFFIX[fmt]}", _normalise(out, project, stamps))
    # The detailed listing (every change, reason, cue and replayed call) under --verbose: the
    # text status printed by default before it became one line per decision.
    code, out = _run(capsys, ["status", "--snapshot", "new.json", "--verbose", *common])
    assert code == SCENARIO_EXIT[scenario], ("verbose", code)
    _compare(f"status/{scenario}.verbose.txt", _normalise(out, project, stamps))


def _fleet_tool(snapshot: str, server: str, name: str) -> dict:
    doc = json.loads((INPUTS / snapshot).read_text(encoding="utf-8"))
    [t] = [t for t in doc["servers"][server]["tools"] if t["name"] == name]
    return t


def _gate_inputs(case: str, root: Path) -> tuple[str, str, str]:
    if case in SEED_CASES:
        return tuple(str(SEED / f) for f in SEED_CASES[case])  # type: ignore[return-value]
    tool = {"hidden": "search", "breaking": "read_file"}[case]
    for side, snap in (("old", "base.json"), ("new", "new.json")):
        (root / f"{case}_{side}.json").write_text(
            json.dumps(_fleet_tool(snap, "files", tool), indent=2), encoding="utf-8"
        )
    shutil.copy(INPUTS / "files.calls.jsonl", root / "files.calls.jsonl")
    return f"{case}_old.json", f"{case}_new.json", "files.calls.jsonl"


@pytest.mark.parametrize("case", sorted(GATE_EXIT))
def test_gate_outputs(case: str, project: Path, capsys) -> None:
    old, new, calls = _gate_inputs(case, project)
    for fmt in FORMATS["gate"]:
        code, out = _run(capsys, ["gate", old, new, calls, "--format", fmt])
        assert code == GATE_EXIT[case], (fmt, code)
        out = out.replace(str(SEED), "<SEED>")
        _compare(f"gate/{case}.{SUFFIX[fmt]}", _normalise(out, project, set()))


def test_goldens_are_all_used() -> None:
    """No stale golden lingers after a case is renamed or dropped."""
    expected = {f"check/{s}.{SUFFIX[f]}" for s in SCENARIOS for f in FORMATS["check"]}
    expected |= {f"status/{s}.{SUFFIX[f]}" for s in SCENARIOS for f in FORMATS["status"]}
    expected |= {f"gate/{c}.{SUFFIX[f]}" for c in GATE_EXIT for f in FORMATS["gate"]}
    expected |= {f"status/{s}.verbose.txt" for s in SCENARIOS}
    on_disk = {
        p.relative_to(GOLDEN).as_posix()
        for p in GOLDEN.rglob("*")
        if p.is_file() and INPUTS not in p.parents
    }
    if UPDATE:
        for stale in on_disk - expected:
            (GOLDEN / stale).unlink()
        return
    assert on_disk == expected
