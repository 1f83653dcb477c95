"""A planted or edited call log cannot make `rerun` re-send a call (issue 10, after the fact).

A call-log line says which definition the call was made against (``digest``), and `rerun`
re-sends a call only when that is the approved one. A pin's digest is public (it is in
``mcp-pins.toml``), so an attacker who can write the log folder (a cloned repository's
``.mcp-review/``, a shared state folder) can write "made against the approved definition" next
to arguments of their choice. The proxy therefore seals each record with an HMAC under a key
only this user can read (``$XDG_STATE_HOME/mcp-review/calllog.key``), and `rerun` acts only on
records whose seal verifies.

The independent truth for "never sent" is the server's own record of every call it received
(``seen.jsonl``, tests/servers/rerun_server.py), not anything mcp-review reports.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from rerun_helpers import GET_CONFIG, Workspace

from mcp_review.engine.errors import InputError
from mcp_review.engine.model import ToolDef
from mcp_review.services.rerun import load_recorded
from mcp_review.store.calllog import CallLog, seal_key, seal_key_path, seal_of, sealed
from mcp_review.store.lineseal import LINE_SCHEME, line_bytes, line_seal

APPROVED = ToolDef.from_wire(GET_CONFIG).digest


def _lines(p: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in p.read_text().splitlines() if x.strip()]


def _append(p: Path, *recs: dict[str, Any]) -> None:
    with open(p, "a") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


def _sent_envs(ws: Workspace) -> list[str]:
    return [c["arguments"].get("env") for c in ws.seen_calls() if c["tool"] == "get_config"]


@pytest.fixture(scope="module")
def _recorded_once(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """get_config approved and called once through the real proxy (env "staging"), with the
    user's own seal key in its own state folder: done once for the file (a pin, a proxy and a
    server process, a few seconds), then copied for each test, which may break it."""
    tmp = tmp_path_factory.mktemp("recorded")
    ws = Workspace(tmp, [GET_CONFIG])
    ws.state_home = str(tmp_path_factory.mktemp("recorded-state"))
    ws.pin_all()
    ws.record([("get_config", {"env": "staging"})])
    assert _sent_envs(ws) == ["staging"]
    assert (Path(ws.state_home) / "mcp-review" / "calllog.key").is_file()
    return ws


@pytest.fixture
def recorded(_recorded_once: Workspace, tmp_path: Path) -> Workspace:
    """A private copy of the recording: its pins, call log, results log and the server's own
    record, and the seal key in this test's state folder (its mode kept: 0600). Only the config
    names absolute paths, and this Workspace writes its own."""
    ws = Workspace(tmp_path, [GET_CONFIG])
    src = _recorded_once.tmp
    for f in src.iterdir():
        if f.is_file() and f.name not in ("mcp-review.toml", "state.json"):
            shutil.copy2(f, tmp_path / f.name)
    shutil.copytree(Path(_recorded_once.state_home), ws.state_home, dirs_exist_ok=True)
    assert _sent_envs(ws) == ["staging"]
    return ws


@pytest.mark.slow
def test_planted_and_edited_lines_claiming_the_approved_digest_are_never_resent(recorded):
    ws = recorded
    results = Path(str(ws.calls) + ".results.jsonl")
    (call,) = _lines(ws.calls)
    (result,) = _lines(results)
    assert call["digest"] == APPROVED and call["seal"].startswith(LINE_SCHEME)
    # The attacker's lines: each claims the approved digest and carries a result, so nothing
    # but the seal stands between it and a re-send.
    forged: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def forge(env: str, seal: Any = None, t: str = "") -> None:
        c = {
            **call,
            "time": t or f"2026-01-01T00:00:0{len(forged)}.000Z",
            "id": 900 + len(forged),
            "arguments": {"env": env},
            "digest": APPROVED,
        }
        r = {**result, "call_time": c["time"], "id": c["id"]}
        for rec in (c, r):
            rec.pop("seal", None)
            if seal is not None:
                rec["seal"] = seal(rec)
        forged.append((c, r))

    forge("planted-no-seal")
    forge("planted-made-up-seal", lambda rec: "hmac-sha256:" + "0" * 64)
    forge("planted-copied-seal", lambda rec: call["seal"])
    forge("planted-other-key", lambda rec: seal_of(rec, b"k" * 32))
    forge("planted-made-up-line-seal", lambda rec: LINE_SCHEME + "0" * 64)
    forge("planted-other-key-line", lambda rec: line_seal(line_bytes(rec) or b"", b"k" * 32))
    # The genuine line with only its arguments edited, its seal kept.
    edited = {**call, "arguments": {"env": "edited-genuine"}, "time": "2026-01-01T00:00:09.000Z"}
    edited_res = {
        **result,
        "call_time": edited["time"],
        "seal": seal_of({**result, "call_time": edited["time"]}, b"x" * 32),
    }
    _append(ws.calls, *(c for c, _ in forged), edited)
    _append(results, *(r for _, r in forged), edited_res)

    r = ws.rerun("--yes", "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    doc = json.loads(r.stdout)
    by_env = {c["arguments"]["env"]: c for c in doc["calls"]}
    # The control: the genuine call was re-sent (twice: the volatile check).
    assert by_env["staging"]["outcome"] == "same"
    for env in (
        "planted-no-seal",
        "planted-made-up-seal",
        "planted-copied-seal",
        "planted-other-key",
        "planted-made-up-line-seal",
        "planted-other-key-line",
        "edited-genuine",
    ):
        assert by_env[env]["outcome"] == "skipped", by_env[env]
        assert "not sealed by your mcp-review proxy" in by_env[env]["reason"]
    # The server's own record: only the agent's call and the two re-sends of it.
    assert _sent_envs(ws) == ["staging", "staging", "staging"]


@pytest.mark.slow
def test_a_call_log_that_is_a_link_or_not_a_regular_file_is_refused(recorded, tmp_path: Path):
    ws = recorded
    elsewhere = tmp_path / "elsewhere.jsonl"
    os.replace(ws.calls, elsewhere)
    os.symlink(elsewhere, ws.calls)
    r = ws.rerun("--yes")
    assert r.returncode == 2 and "symbolic link" in r.stderr, r.stderr
    os.unlink(ws.calls)
    os.replace(elsewhere, ws.calls)
    results = Path(str(ws.calls) + ".results.jsonl")
    os.replace(results, tmp_path / "res.jsonl")
    os.symlink(tmp_path / "res.jsonl", results)
    r = ws.rerun("--yes")
    assert r.returncode == 2 and "symbolic link" in r.stderr, r.stderr
    os.unlink(results)
    os.mkfifo(results)  # would hang a reader that opens it blindly
    r = ws.rerun("--yes")
    assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr
    assert _sent_envs(ws) == ["staging"]


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_call_log_owned_by_another_user_is_refused(recorded):
    ws = recorded
    os.chown(ws.calls, 65534, 65534)
    r = ws.rerun("--yes")
    assert r.returncode == 2 and "owned by another user" in r.stderr, r.stderr
    assert _sent_envs(ws) == ["staging"]


@pytest.mark.slow
def test_a_seal_key_that_is_not_private_trusts_nothing(recorded, tmp_path: Path):
    ws = recorded
    key = Path(seal_key_path())
    assert key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)  # readable by others: anyone could have sealed with it
    r = ws.rerun("--yes")
    assert r.returncode == 2 and "other users" in r.stderr and "calllog.key" in r.stderr
    key.chmod(0o600)
    moved = tmp_path / "key-elsewhere"
    os.replace(key, moved)
    os.symlink(moved, key)
    r = ws.rerun("--yes")
    assert r.returncode == 2 and "symbolic link" in r.stderr, r.stderr
    # No key at all (a new machine, the state folder wiped): nothing verifies, nothing is sent.
    os.unlink(key)
    r = ws.rerun("--yes", "--format", "json")
    (c,) = json.loads(r.stdout)["calls"]
    assert c["outcome"] == "skipped" and "not sealed" in c["reason"]
    assert _sent_envs(ws) == ["staging"]


@pytest.mark.slow
def test_a_proxy_whose_key_cannot_be_trusted_records_unsealed_and_says_so(tmp_path: Path):
    ws = Workspace(tmp_path, [GET_CONFIG])
    ws.pin_all()
    key = Path(seal_key_path())
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_text("00" * 32 + "\n")
    key.chmod(0o666)
    ws.record([("get_config", {"env": "staging"})])
    (call,) = _lines(ws.calls)
    assert "seal" not in call and call["digest"] == APPROVED  # still recorded, as evidence
    assert "recording calls without a seal" in (tmp_path / "proxy.log").read_text()
    key.chmod(0o600)  # even once the key is fixed, the unsealed line is never re-sent
    r = ws.rerun("--yes", "--format", "json")
    (c,) = json.loads(r.stdout)["calls"]
    assert c["outcome"] == "skipped" and "not sealed" in c["reason"]
    assert _sent_envs(ws) == ["staging"]


def test_the_seal_covers_every_field(tmp_path: Path):
    """Records written by the real CallLog verify; changing any one field (or the type of the
    id) breaks the seal, so the record is read as unsealed."""
    p = tmp_path / "calls.jsonl"
    log = CallLog(str(p), server="s", record_results=True)
    t = log.record_call(
        "get_config", {"env": "staging", "n": [1, 2.5, None]}, rpc_id=7, digest=APPROVED
    )
    log.record_result("get_config", 7, t, {"result": {"content": []}})
    log.close()
    key = seal_key(create=False)
    (rec,) = _lines(p)
    (res,) = _lines(Path(str(p) + ".results.jsonl"))
    assert sealed(rec, key) and sealed(res, key)
    (loaded,) = load_recorded(str(p))
    assert loaded.sealed and loaded.has_result
    for field, value in (
        ("tool", "deploy"),
        ("arguments", {"env": "prod"}),
        ("id", "7"),
        ("digest", "sha256:" + "0" * 64),
        ("server", "t"),
        ("principal", "admin"),
        ("time", "2030-01-01T00:00:00.000Z"),
    ):
        assert not sealed({**rec, field: value}, key), field
    assert not sealed({**rec, "redacted": False}, key)  # an added field too
    rest = {k: v for k, v in rec.items() if k != "digest"}
    assert not sealed(rest, key)  # and a removed one
    assert not sealed({**res, "result": {"content": [{"type": "text", "text": "forged"}]}}, key)


def test_a_seal_key_planted_as_a_link_is_refused_by_the_reader(tmp_path: Path):
    key = Path(seal_key_path())
    key.parent.mkdir(parents=True, exist_ok=True)
    target = tmp_path / "attacker-key"
    target.write_text("11" * 32 + "\n")
    target.chmod(0o600)
    os.symlink(target, key)
    with pytest.raises(OSError, match="symbolic link"):
        seal_key(create=True)
    p = tmp_path / "calls.jsonl"
    p.write_text(json.dumps({"tool": "t", "arguments": {}}) + "\n")
    with pytest.raises(InputError, match="seal key"):
        load_recorded(str(p))


@pytest.mark.slow
def test_rerun_compares_a_scrubbed_recording_with_a_scrubbed_live_answer(tmp_path: Path):
    """The server returns a secret its config gives it (an `env` value): the results log holds
    `***`, and rerun scrubs the live answer the same way, so the unchanged answer is `same`
    (not a false difference that would print the secret) and the secret is in no output."""
    token = "cfgtok-7d1e3a9b2c4f6e80-QxWv"
    ws = Workspace(
        tmp_path,
        [GET_CONFIG],
        config={"cluster": "eu-1", "strategy": "rolling", "token_echo": f"key {token}"},
    )
    ws.cfg.write_text(
        ws.cfg.read_text().replace("env = { ", f'env = {{ WIDGET_CFG = "{token}", ', 1)
    )
    ws.pin_all()
    ws.record([("get_config", {"env": "staging"})])
    results = Path(str(ws.calls) + ".results.jsonl").read_text()
    # The server did send it (the proxy replaced it where it stood), and it was scrubbed.
    assert token[:8] not in results and "key ***" in results
    r = ws.rerun("--yes", "--format", "json")
    doc = json.loads(r.stdout)
    (c,) = doc["calls"]
    assert c["outcome"] == "same", c
    assert _sent_envs(ws) == ["staging", "staging", "staging"]  # it really was re-sent
    assert token[:8] not in r.stdout + r.stderr
    # A real change is still reported (eu-1 -> eu-2), still without the secret.
    ws.write_state(config={"cluster": "eu-2", "strategy": "rolling", "token_echo": f"key {token}"})
    r = ws.rerun("--yes")
    assert "eu-2" in r.stdout and token[:8] not in r.stdout + r.stderr


def test_the_canonical_seal_is_hmac_sha256_of_the_canonical_record():
    """The first seal (``seal_of``, kept for records the line seal cannot hold), computed
    independently with ``hmac.new(...).hexdigest()`` over the canonical JSON its docstring
    names (sorted keys, ASCII, compact; every field but the seal): a faster spelling of the
    HMAC must not change a byte of it."""
    import hashlib
    import hmac

    key = bytes(range(32))
    rec = {
        "time": "2026-12-03T22:00:00.000Z",
        "server": "srv",
        "principal": "default",
        "tool": "get_config",
        "id": "a",
        "arguments": {"key": "é", "n": [1, None, True], "f": 1.5},
        "digest": APPROVED,
    }
    canon = json.dumps(rec, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode()
    want = hmac.new(key, b"mcp-review call log v1\n" + canon, hashlib.sha256).hexdigest()
    got = seal_of(rec, key)
    assert got == "hmac-sha256:" + want
    assert sealed({**rec, "seal": got}, key)
    assert not sealed({**rec, "id": "b", "seal": got}, key)


def test_record_times_are_utc_milliseconds_as_datetime_spells_them():
    """Each record's ``time`` is formatted once a second and the milliseconds added: it reads
    as ``datetime.now(UTC).isoformat(timespec="milliseconds")`` (with ``Z``) taken around it
    would, across second boundaries too."""
    import re
    import time
    from datetime import UTC, datetime

    from mcp_review.store.calllog import now_iso

    def ref() -> str:
        return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")

    seen = set()
    end = time.monotonic() + 2.2  # at least two second boundaries
    while time.monotonic() < end:
        before, got, after = ref(), now_iso(), ref()
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", got), got
        assert before <= got <= after, (before, got, after)
        seen.add(got[:19])
        time.sleep(0.02)
    assert len(seen) >= 3
