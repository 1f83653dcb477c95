"""The headless pin commands end to end on real files: status, pin, approve, deny."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from mcp_review.cli import main
from mcp_review.engine.pins import Decision
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins

FIX = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "pins")
V1 = os.path.join(FIX, "snapshot_v1.json")
V2 = os.path.join(FIX, "snapshot_v2.json")
CALLS = os.path.join(FIX, "calls_files.jsonl")


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def status_json(capsys, *extra: str) -> tuple[int, dict]:
    rc, out, _ = run(capsys, "status", "--format", "json", *extra)
    return rc, json.loads(out)


def by_tool(doc: dict) -> dict[str, dict]:
    return {t["tool"]: t for t in doc["tools"]}


def test_baseline_then_drift(work, capsys):
    rc, doc = status_json(capsys, "--snapshot", V1)
    assert rc == 1 and doc["counts"]["new"] == 4 and doc["verdict"] == "FAIL"
    rc, out, _ = run(capsys, "pin", "--snapshot", V1, "--note", "baseline", "--by", "alice")
    assert rc == 0 and "4 decision(s)" in out
    rc, doc = status_json(capsys, "--snapshot", V1)
    assert rc == 0 and doc["counts"]["pinned"] == 4 and doc["verdict"] == "PASS"
    before = (work / "mcp-pins.toml").read_bytes()
    rc, out, _ = run(capsys, "pin", "--snapshot", V1)
    assert rc == 0 and (work / "mcp-pins.toml").read_bytes() == before  # no churn

    rc, doc = status_json(capsys, "--snapshot", V2, "--calls", f"files={CALLS}")
    assert rc == 1
    t = by_tool(doc)
    assert t["search"]["status"] == "changed"
    assert t["search"]["policy"]["outcome"] == "auto-approve"
    assert t["read_file"]["policy"]["outcome"] == "block"
    assert t["delete_file"]["status"] == "broken"
    assert t["delete_file"]["comparison"]["replay"]["broken"] == 1
    assert t["list_dir"]["status"] == "removed" and t["list_directory"]["status"] == "new"
    assert doc["servers"][0]["calls"]["path"] == CALLS
    assert set(doc) >= {
        "format",
        "version",
        "verdict",
        "exit_code",
        "counts",
        "servers",
        "tools",
        "applied",
    }
    assert set(t["search"]) == {
        "server",
        "principal",
        "tool",
        "status",
        "previously_denied",
        "policy",
        "decision",
        "pinned_digest",
        "live_digest",
        "decided_at",
        "decided_by",
        "note",
        "calls_recorded",
        "notes",
        "shadows",
        "protocol",
        "comparison",
        "cues",
        "held_by_proxy",
    }


def test_status_text_is_readable_and_safe(work, capsys):
    run(capsys, "pin", "--snapshot", V1)
    rc, out, _ = run(capsys, "status", "--snapshot", V2)
    assert rc == 1
    assert "[BLOCK] files/read_file  changed, alone (blocking cue, hidden characters)" in out
    assert "\u200b" not in out
    rc, out, _ = run(capsys, "status", "--snapshot", V2, "--verbose")
    assert "[BLOCK] changed: read_file" in out and "⟨U+200B⟩" in out
    assert "\u200b" not in out  # hidden characters are shown, never emitted
    assert "status verdict: FAIL" in out


def test_status_apply_repins_auto_approvals_only(work, capsys):
    run(capsys, "pin", "--snapshot", V1)
    rc, doc = status_json(capsys, "--snapshot", V2, "--apply")
    assert rc == 1  # read_file and delete_file still need a human
    assert doc["applied"] == ["files/default/search"]
    pf = load_pins("mcp-pins.toml")
    assert pf.get("files", "default", "search").decided_by == "mcp-review (policy tiered)"
    assert pf.get("files", "default", "read_file").decided_by != "mcp-review (policy tiered)"
    rec = audit.read("mcp-pins.audit.jsonl")[-1]
    assert rec["tool"] == "search" and rec["source"] == "policy tiered"


def test_approve_blocked_needs_yes(work, capsys):
    run(capsys, "pin", "--snapshot", V1)
    before = (work / "mcp-pins.toml").read_bytes()
    rc, _, err = run(capsys, "approve", "files", "read_file", "--snapshot", V2)
    assert rc == 1 and "--yes" in err and "hidden characters" in err
    assert (work / "mcp-pins.toml").read_bytes() == before
    rc, out, _ = run(
        capsys,
        "approve",
        "files",
        "read_file",
        "--snapshot",
        V2,
        "--yes",
        "--note",
        "checked with upstream",
        "--by",
        "carol",
    )
    assert rc == 0 and "approved (trust): files/default/read_file" in out
    pin = load_pins("mcp-pins.toml").get("files", "default", "read_file")
    assert pin.decided_by == "carol" and pin.note == "checked with upstream"
    assert pin.server_version == "1.1.0"
    rec = audit.read("mcp-pins.audit.jsonl")[-1]
    assert "confirmed with --yes" in rec["why"] and rec["old_digest"] != rec["new_digest"]


def test_approve_review_change_needs_no_yes(work, capsys):
    run(capsys, "pin", "--snapshot", V1)
    rc, _, _ = run(capsys, "approve", "files", "delete_file", "--snapshot", V2)
    assert rc == 0


@pytest.mark.parametrize(
    "argv, msg",
    [
        (["approve", "files", "nope", "--snapshot", V1], "not served"),
        (["approve", "ghost", "search", "--snapshot", V1], "not in the snapshot"),
        (["approve", "files", "search", "--snapshot", V1, "--principal", "other"], "principal"),
        (["deny", "files", "nope"], "nothing to deny"),
        (["status", "--snapshot", V1, "--calls", "no-equals-sign"], "SERVER=PATH"),
        (["status", "--snapshot", "missing.json"], "no such file"),
    ],
)
def test_input_errors_exit_2(work, capsys, argv, msg):
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and msg in err
    assert not (work / "mcp-pins.toml").exists()


def test_deny_and_the_denied_lifecycle(work, capsys):
    run(capsys, "pin", "--snapshot", V1)
    # Deny works without a snapshot when the tool is pinned.
    rc, out, _ = run(capsys, "deny", "files", "delete_file", "--note", "too dangerous")
    assert rc == 0 and "denied" in out
    pin = load_pins("mcp-pins.toml").get("files", "default", "delete_file")
    assert pin.decision is Decision.DENIED and pin.note == "too dangerous"
    rc, doc = status_json(capsys, "--snapshot", V1)
    assert rc == 0 and by_tool(doc)["delete_file"]["status"] == "denied"
    rc, doc = status_json(capsys, "--snapshot", V2)
    d = by_tool(doc)["delete_file"]
    assert d["status"] == "broken" and d["previously_denied"] is True
    assert d["policy"]["outcome"] == "review"
    # The baseline keeps denials unless forced.
    rc, out, _ = run(capsys, "pin", "--snapshot", V1)
    assert "held back (denied): files/default/delete_file: denied" in out
    assert (
        load_pins("mcp-pins.toml").get("files", "default", "delete_file").decision
        is Decision.DENIED
    )
    rc, out, _ = run(capsys, "pin", "--snapshot", V1, "--force")
    assert (
        load_pins("mcp-pins.toml").get("files", "default", "delete_file").decision
        is Decision.APPROVED
    )


def test_deny_with_snapshot_binds_the_served_definition(work, capsys):
    rc, _, _ = run(capsys, "deny", "files", "read_file", "--snapshot", V2)
    assert rc == 0
    rc, doc = status_json(capsys, "--snapshot", V2)
    assert by_tool(doc)["read_file"]["status"] == "denied"


def test_pin_skips_blocked_and_prunes_removed(work, capsys):
    run(capsys, "pin", "--snapshot", V1)
    rc, out, _ = run(capsys, "pin", "--snapshot", V2)
    assert rc == 1 and "held back (trust): files/default/read_file: blocked" in out
    pf = load_pins("mcp-pins.toml")
    assert pf.get("files", "default", "list_dir") is None  # no longer served: dropped
    assert pf.get("files", "default", "list_directory") is not None
    assert (
        pf.get("files", "default", "read_file").digest
        != by_tool(status_json(capsys, "--snapshot", V2)[1])["read_file"]["live_digest"]
    )
    rc, _, _ = run(capsys, "pin", "--snapshot", V2, "--yes")
    assert rc == 0
    assert status_json(capsys, "--snapshot", V2)[0] == 0


@pytest.mark.parametrize("fixture, msg", [("corrupt.toml", "line 7"), ("future.toml", "version 3")])
@pytest.mark.parametrize(
    "argv",
    [
        ["status", "--snapshot", V1],
        ["pin", "--snapshot", V1],
        ["approve", "files", "search", "--snapshot", V1],
        ["deny", "files", "search", "--snapshot", V1],
    ],
)
def test_bad_pin_file_exit_2_and_bytes_unchanged(work, capsys, fixture, msg, argv):
    shutil.copy(os.path.join(FIX, fixture), work / "mcp-pins.toml")
    before = (work / "mcp-pins.toml").read_bytes()
    rc, _, err = run(capsys, *argv)
    assert rc == 2 and msg in err and "mcp-pins.toml" in err
    assert (work / "mcp-pins.toml").read_bytes() == before
    assert not (work / "mcp-pins.audit.jsonl").exists()


SECRETS = ("ghp_ENVSECRET0123456789", "Bearer HDRSECRET-abc", "sk-CALLLOG-SECRET-123")


def test_secrets_never_reach_pins_or_audit(work, capsys, monkeypatch):
    # Secrets an operator has around: env values, a config with headers/env, a call log that
    # recorded a token in its arguments.
    monkeypatch.setenv("GITHUB_TOKEN", SECRETS[0])
    (work / "mcp-review.toml").write_text(
        '[servers.files]\ncommand = "files-server"\n'
        f'env = {{ GITHUB_TOKEN = "{SECRETS[0]}" }}\n'
        '[servers.remote]\nurl = "https://example.invalid/mcp"\n'
        f'headers = {{ Authorization = "{SECRETS[1]}" }}\n'
    )
    run(capsys, "pin", "--snapshot", V1, "--note", "baseline")
    run(capsys, "status", "--snapshot", V2, "--calls", f"files={CALLS}", "--apply")
    run(
        capsys,
        "approve",
        "files",
        "read_file",
        "--snapshot",
        V2,
        "--yes",
        "--calls",
        f"files={CALLS}",
    )
    run(capsys, "deny", "files", "delete_file", "--snapshot", V2)
    files = [work / "mcp-pins.toml", work / "mcp-pins.audit.jsonl"]
    assert all(f.exists() for f in files)
    for f in files:
        data = f.read_text()
        for s in SECRETS:
            assert s not in data, f"{s} leaked into {f.name}"
        assert "files-server" not in data and "example.invalid" not in data
