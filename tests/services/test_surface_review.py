"""Issue 43 (the operator's side): the app's decisions about prompts, resources and templates
(``services.surface_decisions.decide_reviewed_surface``, what ``tui/session.py`` calls) land
in the pin file's table ``approve SERVER --prompt NAME`` writes, judged again by the service
(a blocked approval needs a reason, fail closed), compare-and-set against the CLI; and review
by kind (``status --groups``, Markdown, JSON) puts each waiting surface in the engine's one
order, blocked first. Snapshots come from a real MCP server (tests/servers/surfaceserver.py),
pins are real TOML on disk."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from servers.surfaceserver import SurfaceServer

from mcp_review.cli import main
from mcp_review.engine.kinds import SurfaceAlone, group_report
from mcp_review.engine.snapshot import Snapshot, parse_snapshot
from mcp_review.engine.surface_kinds import SurfaceReason
from mcp_review.engine.surfaces import surface_digest, surface_status
from mcp_review.services import decisions
from mcp_review.services.config import ServerConfig
from mcp_review.services.fetch import fetch_server
from mcp_review.services.surface_decisions import decide_reviewed_surface
from mcp_review.store import audit
from mcp_review.store.pinfile import load_pins

FIX = Path(__file__).parent.parent / "fixtures" / "surfaces"
RUG = json.loads((FIX / "rugpull.json").read_text())["description"]
KEY = ("srv", "default", "prompt", "write_summary")


def fixture(name: str) -> dict:
    return json.loads((FIX / name).read_text())


def snapshot(srv: SurfaceServer, path: Path) -> str:
    s = anyio.run(fetch_server, ServerConfig("srv", target=srv.server, timeout=60))
    assert s.error is None
    path.write_text(Snapshot(servers={"srv": s}, taken_at="2026-12-03T00:00:00Z").dumps())
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def drifted(tmp_path, monkeypatch, capsys):
    """A pin file approving the prompt, resource and template as first served, and a snapshot
    in which the prompt's description is rug-pulled and a second prompt is new."""
    monkeypatch.chdir(tmp_path)
    srv = SurfaceServer(
        [fixture("prompt.json")], [fixture("resource.json")], [fixture("template.json")]
    )
    assert run(capsys, "pin", "--snapshot", snapshot(srv, tmp_path / "s1.json"))[0] == 0
    srv.prompts[0] = dict(srv.prompts[0], description=RUG)
    srv.prompts.append({"name": "plain_note", "description": "Write a plain note."})
    return tmp_path, snapshot(srv, tmp_path / "s2.json")


def _status(pins, snap_path: str, name: str = "write_summary"):
    snap = parse_snapshot(json.loads(Path(snap_path).read_text()))
    live = next(w for w in snap.servers["srv"].surfaces["prompt"] if w["name"] == name)
    key = ("srv", "default", "prompt", name)
    return surface_status(*key, live, pins.surfaces.get(key), pins.tier_for("srv")), live


def test_a_blocked_prompt_needs_a_reason_and_lands_where_the_cli_writes(drifted, capsys):
    _work, snap2 = drifted
    pins = load_pins("mcp-pins.toml")
    shown, live = _status(pins, snap2)
    assert shown.policy.outcome.value == "block"
    # No reason: refused, nothing recorded (the service judges, not the caller's word).
    out = decide_reviewed_surface(pins, shown, "approved", source="review app")
    assert out.pin is None and out.blocked and any("cue" in r for r in out.blocked)
    assert pins.pending == 0
    before = Path("mcp-pins.toml").read_bytes()
    # With the typed reason: recorded, saved as the CLI saves.
    out = decide_reviewed_surface(
        pins, shown, "approved", source="review app", why="vendor confirmed the upload"
    )
    assert out.pin is not None and out.before is not None and out.before.decision == "approved"
    decisions.save(pins, "mcp-pins.toml")
    assert Path("mcp-pins.toml").read_bytes() != before
    again = load_pins("mcp-pins.toml")
    pin = again.surfaces[KEY]
    assert pin.decision == "approved" and pin.digest == surface_digest(live)
    assert pin.wire["description"] == RUG
    rec = audit.read(audit.audit_path_for("mcp-pins.toml"))[-1]
    assert rec["source"] == "review app" and rec["decision"] == "approved"
    assert rec["why"].startswith("approved (changed prompt) [blocked: "), rec["why"]
    assert "; cue in new text: exfiltration" in rec["why"], rec["why"]
    assert rec["why"].endswith("; confirmed in the review app]: vendor confirmed the upload")
    # The CLI reads it as decided: `check` no longer reports the prompt.
    _rc, text, _ = run(capsys, "check", "--from-snapshot", snap2, "--format", "json")
    names = {x["name"] for x in json.loads(text).get("surfaces", [])}
    assert "write_summary" not in names and "plain_note" in names


def test_the_cli_decided_meanwhile_nothing_written(drifted, capsys):
    _work, snap2 = drifted
    pins = load_pins("mcp-pins.toml")  # the app's view, read before the CLI decides
    shown, _ = _status(pins, snap2)
    rc, _, err = run(capsys, "deny", "srv", "--prompt", "write_summary", "--snapshot", snap2)
    assert rc == 0, err
    on_disk = Path("mcp-pins.toml").read_bytes()
    decide_reviewed_surface(pins, shown, "approved", source="review app", why="looked fine")
    with pytest.raises(decisions.ChangedMeanwhile):
        decisions.save(pins, "mcp-pins.toml")
    assert Path("mcp-pins.toml").read_bytes() == on_disk  # the CLI's denial stands
    assert load_pins("mcp-pins.toml").surfaces[KEY].decision == "denied"


def test_deny_what_is_no_longer_served_and_never_approve_it(drifted):
    _work, _ = drifted
    pins = load_pins("mcp-pins.toml")
    pinned = pins.surfaces[KEY]
    gone = surface_status(*KEY, None, pinned, "tiered")
    assert gone.state == "removed"
    with pytest.raises(ValueError, match="not served: nothing to approve"):
        decide_reviewed_surface(pins, gone, "approved", source="review app", why="x")
    out = decide_reviewed_surface(pins, gone, "denied", source="review app")
    assert out.pin.decision == "denied" and out.pin.digest == pinned.digest
    decisions.save(pins, "mcp-pins.toml")
    assert load_pins("mcp-pins.toml").surfaces[KEY].decision == "denied"


def test_review_by_kind_puts_surfaces_in_the_one_order(drifted, capsys):
    _work, snap2 = drifted
    _rc, text, _ = run(capsys, "status", "--groups", "--snapshot", snap2)
    lines = text.splitlines()
    head = next(ln for ln in lines if "decision(s) for" in ln)
    assert "2 prompt(s), resource(s) or template(s) alone" in head, head
    blocked = next(i for i, ln in enumerate(lines) if ln.startswith("[BLOCK] alone  srv prompt"))
    plain = next(i for i, ln in enumerate(lines) if ln.startswith("[REVIEW] alone  srv prompt"))
    assert blocked < plain  # blocked first
    assert '"write_summary"' in lines[blocked] and "blocking cue" in lines[blocked]
    assert '"plain_note"' in lines[plain]
    assert any("decide: mcp-review approve srv --prompt write_summary --yes" in ln for ln in lines)
    # JSON: the decisions list names them in that order, and each in full.
    _rc, text, _ = run(capsys, "status", "--groups", "--snapshot", snap2, "--format", "json")
    doc = json.loads(text)
    assert [d.get("name") for d in doc["decisions"]] == ["write_summary", "plain_note"]
    assert doc["surfaces_alone"][0]["reasons"][:1] == ["blocking cue"]
    # One new prompt: a kind no other surface shares (review by kind, as a tool), so alone.
    assert doc["surfaces_alone"][1]["reasons"] == [
        "a kind no other prompt, resource or template shares"
    ]
    # `status` (one line per decision) says each once, at its place in the order.
    _rc, text, _ = run(capsys, "status", "--snapshot", snap2)
    lines = [ln for ln in text.splitlines() if '"write_summary"' in ln]
    assert len(lines) == 1 and lines[0].startswith('[BLOCK] srv prompt "write_summary"  changed'), (
        text
    )
    assert "alone (blocking cue" in lines[0] and "exfiltration" in lines[0], lines
    first = next(i for i, ln in enumerate(text.splitlines()) if '"plain_note"' in ln)
    assert text.splitlines().index(lines[0]) < first
    assert "mcp-review approve SERVER --prompt NAME" in text
    # check's Markdown table lists them too.
    _rc, text, _ = run(capsys, "check", "--from-snapshot", snap2, "--format", "markdown")
    assert "| alone | | block | blocking cue" in text and "(prompt write_summary)" in text


def test_grouping_without_surfaces_is_as_before():
    """A report without prompts or resources: no surfaces key, the same JSON as before."""
    g = group_report([])
    assert g.to_json() == {"decisions": [], "groups": [], "alone": []}


def test_a_breaking_prompt_stands_alone_with_its_witness(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    srv = SurfaceServer([fixture("prompt.json")])
    assert run(capsys, "pin", "--snapshot", snapshot(srv, tmp_path / "s1.json"))[0] == 0
    p = dict(srv.prompts[0])
    p["arguments"] = [dict(a) for a in p["arguments"]]
    p["arguments"][1]["required"] = True
    snap2 = snapshot(SurfaceServer([p]), tmp_path / "s2.json")
    from mcp_review.services.inputs import resolve_paths

    inp = resolve_paths(config=None, pins="mcp-pins.toml", snapshot=snap2)
    report = inp.status(inp.snapshot())
    [item] = group_report(report).ordered()
    assert isinstance(item, SurfaceAlone) and SurfaceReason.BREAKING in item.reasons
    _rc, text, _ = run(capsys, "status", "--groups", "--snapshot", snap2)
    assert "breaking: argument 'style' made required" in text
    assert 'witness: {"arguments": {"topic": "x"}}' in text, text


def test_a_new_prompt_with_hidden_characters_is_blocked():
    """As a new tool with hidden characters (policy.hidden_appeared): blocked at first sight,
    so approving it needs the confirmation; the same text without them waits for review."""
    from mcp_review.engine.surfaces import surface_status

    hidden = {"name": "p", "description": "Summarise.\u200b\u202e"}
    plain = {"name": "p", "description": "Summarise."}
    st = surface_status("s", "default", "prompt", "p", hidden, None, "tiered")
    assert st.policy.outcome.value == "block", st.policy.reasons
    assert any("hidden" in r for r in st.policy.reasons)
    assert (
        surface_status("s", "default", "prompt", "p", plain, None, "tiered").policy.outcome.value
        == "review"
    )


@pytest.mark.skipif(__import__("shutil").which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_the_apps_surface_decision_is_signed_and_verifies(tmp_path, monkeypatch, capsys):
    """A pin file that signs (``signing.install``, as ``review`` installs it): the app's
    decision about the rug-pulled prompt is signed through the one service, carries what its
    screen showed (``seen``), and ``verify --require-signed`` accepts it."""
    import subprocess

    from mcp_review.engine.pins import Decision
    from mcp_review.engine.signed import SIGNATURES, record
    from mcp_review.engine.status import compute_status
    from mcp_review.services import signing
    from mcp_review.store.readers import load_snapshot
    from mcp_review.tui.session import ReviewSession
    from mcp_review.tui.view import server_entries

    monkeypatch.chdir(tmp_path)
    for k in [k for k in __import__("os").environ if k.startswith(("MCP_REVIEW_", "SSH_AUTH"))]:
        monkeypatch.delenv(k)
    key = tmp_path / "alice"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "a", "-f", str(key)], check=True
    )
    kind, b64, *_ = (tmp_path / "alice.pub").read_text().split()
    (tmp_path / "allowed_signers").write_text(f"alice@example.com {kind} {b64}\n")
    srv = SurfaceServer([fixture("prompt.json")])
    assert run(capsys, "pin", "--snapshot", snapshot(srv, tmp_path / "s1.json"))[0] == 0
    assert run(capsys, "signing", "init", "--allowed-signers", "allowed_signers")[0] == 0
    srv.prompts[0] = dict(srv.prompts[0], description=RUG)
    snap2 = snapshot(srv, tmp_path / "s2.json")

    pins_path = str(tmp_path / "mcp-pins.toml")
    session = ReviewSession(load_pins(pins_path), pins_path=pins_path)
    signing.install(session.pins, str(key))
    report = compute_status(load_snapshot(snap2), session.pins)
    (row,) = server_entries(report, ["srv"], lambda _: "tiered")
    (entry,) = row.surfaces
    assert entry.blocked
    assert session.decide_surface(entry, Decision.APPROVED, why="") != []  # refused
    assert session.decide_surface(entry, Decision.APPROVED, why="checked") == []
    sp = load_pins(pins_path).surfaces[KEY]
    assert sp.decision == "approved" and len(sp.extra[SIGNATURES]) == 1
    rec = record(sp)
    assert "state:changed" in rec["seen"] and "outcome:block" in rec["seen"], rec
    rc, out, err = run(capsys, "verify", "--require-signed")
    assert rc == 0, out + err
