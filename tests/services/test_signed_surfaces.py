"""Signed decisions about prompts, resources and resource templates (issue 43 with the signed
decisions of issue 45): ``approve``/``deny --prompt/--resource/--resource-template`` sign as
tools do when a key is configured, ``ssh-keygen -Y verify`` accepts each signature (the
independent oracle), ``verify --require-signed`` checks them and names each that fails, and
``proxy --enforce --require-signed`` serves a signed approval to a real SDK client and
withholds an unsigned or tampered one (the attacker's hand-edited pin among them). Real keys
made by ``ssh-keygen``; real TOML on disk; a real MCP server behind the real proxy."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import run_cli, stdio_server_argv
from servers.proxy_harness import ROOT, SERVERS

from mcp_review.engine.signed import SIGNATURES, record
from mcp_review.engine.surfaces import PROMPT, RESOURCE, TEMPLATE, make_surface_pin
from mcp_review.services.signing import load_signer
from mcp_review.store.pinfile import load_pins, save_pins

pytestmark = pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")

FIX = Path(__file__).parent.parent / "fixtures" / "surfaces"
SERVER = "srv"
README = "file:///project/README.md"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIX / name).read_text())


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("keys")
    out = {}
    for name in ("alice", "mallory"):
        argv = ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(d / name)]
        subprocess.run(argv, check=True)
        out[name] = d / name
    return out


def allowed(key: Path, who: str = "alice@example.com") -> str:
    kind, b64, *_ = (key.parent / (key.name + ".pub")).read_text().split()
    return f"{who} {kind} {b64}\n"


def snapshot(path: Path, prompt: dict[str, Any]) -> Path:
    surfaces = {
        PROMPT: [prompt],
        RESOURCE: [fixture("resource.json")],
        TEMPLATE: [fixture("template.json")],
    }
    server = {
        "principal": "default",
        "server_info": {"name": "s", "version": "1"},
        "protocol_version": "2025-11-25",
        "tools": [],
        "surfaces": surfaces,
        "error": None,
    }
    doc = {
        "format": "mcp-review-snapshot",
        "version": 1,
        "taken_at": "2026-12-01T00:00:00Z",
        "servers": {SERVER: server},
    }
    path.write_text(json.dumps(doc))
    return path


def cli(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCP_REVIEW_", "SSH_AUTH"))}
    return run_cli(list(argv), cwd=cwd, env=env)


def ssh_verify(cwd: Path, kind: str, name: str, who: str = "alice@example.com") -> str:
    """docs/security.md's one-line check, step by step, for a prompt's (…) decision."""
    head = ("verify", "--pins", "mcp-pins.toml", "--kind", kind)
    rec = cli(cwd, *head, "--record", SERVER, "default", name)
    sig = cli(cwd, *head, "--signature", SERVER, "default", name)
    assert rec.returncode == 0 and sig.returncode == 0, rec.stderr + sig.stderr
    (cwd / "d.sig").write_text(sig.stdout)
    argv = ["ssh-keygen", "-Y", "verify", "-f", str(cwd / "allowed_signers"), "-I", who]
    r = subprocess.run(
        [*argv, "-n", "mcp-review-decision", "-s", str(cwd / "d.sig")],
        input=rec.stdout.encode("ascii"),
        capture_output=True,
    )
    return r.stdout.decode() if r.returncode == 0 else "FAILED " + r.stderr.decode()


def flip(text: str, table: str, key: str, to: str) -> str:
    """The pin file with one surface's ``decision`` rewritten by hand (a push, no key)."""
    at = re.escape(f"[servers.{SERVER}.principals.default.{table}.")
    m = re.search(at + f'(?:"{re.escape(key)}"|{re.escape(key)})' + r'\]\ndecision = "(\w+)"', text)
    assert m is not None, text
    return text[: m.start(1)] + to + text[m.end(1) :]


def test_surface_decisions_are_signed_and_verified(tmp_path: Path, keys: dict[str, Path]):
    (tmp_path / "allowed_signers").write_text(allowed(keys["alice"]))
    assert cli(tmp_path, "signing", "init", "--allowed-signers", "allowed_signers").returncode == 0
    snap = str(snapshot(tmp_path / "s1.json", fixture("prompt.json")))
    sign = ("--snapshot", snap, "--sign-key", str(keys["alice"]))
    for verb, option, name in (
        ("approve", "--prompt", "write_summary"),
        ("approve", "--resource", README),
        ("deny", "--resource-template", "project_file"),
    ):
        r = cli(tmp_path, verb, SERVER, option, name, *sign, "--note", f"{verb} {name}")
        assert r.returncode == 0, r.stderr
    pf = load_pins(str(tmp_path / "mcp-pins.toml"))
    assert len(pf.surfaces) == 3
    for sp in pf.surfaces.values():
        assert len(sp.extra[SIGNATURES]) == 1, sp
        rec = record(sp)
        assert (rec["subject"], rec["name"]) == (sp.kind, sp.name)
        assert "state:new" in rec["seen"] and "outcome:review" in rec["seen"], rec
    # the independent check: ssh-keygen accepts each signature over its record
    for kind, name in ((PROMPT, "write_summary"), (RESOURCE, README), (TEMPLATE, "project_file")):
        said = ssh_verify(tmp_path, kind, name)
        assert said.startswith('Good "mcp-review-decision" signature for alice@example.com'), said
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 0, r.stderr
    assert "ok: 3 decision(s) verify" in r.stdout, r.stdout

    # tampering: a signed denial flipped to an approval, by hand
    pins = tmp_path / "mcp-pins.toml"
    good = pins.read_text()
    pins.write_text(flip(good, "resource_templates", "project_file", "approved"))
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 1
    assert "srv/default/(resource-template) project_file: decision flipped" in r.stderr, r.stderr
    # a signature moved from the prompt to the resource
    pf = load_pins(str(pins))
    pins.write_text(good)
    sig_p = pf.surfaces[(SERVER, "default", PROMPT, "write_summary")].extra[SIGNATURES][0]
    sig_r = pf.surfaces[(SERVER, "default", RESOURCE, README)].extra[SIGNATURES][0]
    pins.write_text(good.replace(sig_r, sig_p))
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 1
    assert (
        f"srv/default/(resource) {README}: a signature over another record "
        "(moved from srv/default/(prompt) write_summary)"
    ) in r.stderr, r.stderr


def test_standing_surface_decisions_and_a_later_unsigned_one(tmp_path: Path, keys):
    """Turning signing on accepts the prompts (…) decided before it, by record digest; an
    approval made after it without a key fails ``verify --require-signed``."""
    snap1 = str(snapshot(tmp_path / "s1.json", fixture("prompt.json")))
    assert cli(tmp_path, "pin", "--snapshot", snap1).returncode == 0
    assert len(load_pins(str(tmp_path / "mcp-pins.toml")).surfaces) == 3
    (tmp_path / "allowed_signers").write_text(allowed(keys["alice"]))
    r = cli(tmp_path, "signing", "init", "--allowed-signers", "allowed_signers")
    assert r.returncode == 0 and "3 standing decision(s)" in r.stdout, r.stdout + r.stderr
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 0, r.stderr
    reworded = dict(fixture("prompt.json"), description="Write a short, plain summary.")
    snap2 = str(snapshot(tmp_path / "s2.json", reworded))
    r = cli(tmp_path, "approve", SERVER, "--prompt", "write_summary", "--snapshot", snap2)
    assert r.returncode == 0, r.stderr
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 1
    assert "srv/default/(prompt) write_summary: unsigned" in r.stderr, r.stderr
    # approving it again with a key writes nothing (unchanged); a signer vouches for it
    # with ``signing cosign --kind prompt``
    r = cli(
        tmp_path, "approve", SERVER, "--prompt", "write_summary", "--snapshot", snap2,
        "--sign-key", str(keys["alice"]),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert cli(tmp_path, "verify", "--require-signed").returncode == 1
    r = cli(
        tmp_path, "signing", "cosign", "--decision", SERVER, "default", "write_summary",
        "--kind", "prompt", "--sign-key", str(keys["alice"]),
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 0, r.stderr


def _surface_pins(tmp_path: Path, keys: dict[str, Path]) -> Path:
    """The proxy's pin file: alice signs an approval of the prompt ``write_summary``, the
    README resource and the template, and a denial of the prompt ``delete_notes``; mallory
    (no key) approves the resource ``other.txt``, then hand-edits the denial to an approval."""
    pins = tmp_path / "mcp-pins.toml"
    p, r, t = fixture("prompt.json"), fixture("resource.json"), fixture("template.json")
    p2 = {"name": "delete_notes", "description": "Delete the project's notes."}
    other = dict(r, uri="file:///other.txt", name="other")

    def decide(pf: Any, kind: str, wire: dict[str, Any], decision: str, by: str) -> None:
        sp = make_surface_pin(SERVER, kind, wire, decision, principal="default", by=by, at="x")
        pf.decide_surface(sp)

    pf = load_pins(str(pins))
    pf.sign = load_signer(str(keys["alice"])).sign_pin  # what approve --sign-key installs
    decide(pf, PROMPT, p, "approved", "alice")
    decide(pf, PROMPT, p2, "denied", "alice")
    decide(pf, RESOURCE, r, "approved", "alice")
    decide(pf, TEMPLATE, t, "approved", "alice")
    save_pins(pf, str(pins))
    pf = load_pins(str(pins))  # someone who can push, without a key
    decide(pf, RESOURCE, other, "approved", "mallory")
    save_pins(pf, str(pins))
    pins.write_text(flip(pins.read_text(), "prompts", "delete_notes", "approved"))
    (tmp_path / "surfaces.json").write_text(
        json.dumps({"prompts": [p, p2], "resources": [r, other], "templates": [t]})
    )
    (tmp_path / "allowed_signers").write_text(allowed(keys["alice"]))
    (tmp_path / "policy.toml").write_text(
        'version = 1\nallowed_signers = "allowed_signers"\nsigners = 1\nrequire = ["*"]\n'
    )
    return pins


def test_the_proxy_serves_signed_surfaces_and_withholds_unsigned_or_tampered_ones(
    tmp_path: Path, keys: dict[str, Path]
):
    from mcp import Client, MCPError, StdioServerParameters
    from mcp.client.stdio import stdio_client

    pins = _surface_pins(tmp_path, keys)
    # The attacker's edit reads as a valid pin: only the signature tells it from alice's word.
    assert load_pins(str(pins)).surfaces[(SERVER, "default", PROMPT, "delete_notes")].approved

    def params(*extra: str) -> StdioServerParameters:
        return StdioServerParameters(
            command=sys.executable,
            args=[
                "-m", "mcp_review", "proxy", "--enforce", "--pins", str(pins), "--name", SERVER,
                *extra, "--", *stdio_server_argv(SERVERS / "surfaceserver.py"),
            ],
            env={"MCP_REVIEW_SURFACES_FILE": str(tmp_path / "surfaces.json")},
            cwd=str(ROOT),
        )  # fmt: skip

    signed = ("--require-signed", "--signing-policy", str(tmp_path / "policy.toml"))

    async def go() -> None:
        with open(tmp_path / "proxy.log", "a") as errlog, anyio.fail_after(120):
            # Without --require-signed the file's word counts, hand edit and all.
            async with Client(
                stdio_client(params(), errlog=errlog), cache=None, read_timeout_seconds=30
            ) as c:
                names = sorted(x.name for x in (await c.list_prompts()).prompts)
                assert names == ["delete_notes", "write_summary"]
                assert len((await c.list_resources()).resources) == 2
            async with Client(
                stdio_client(params(*signed), errlog=errlog), cache=None, read_timeout_seconds=30
            ) as c:
                assert [x.name for x in (await c.list_prompts()).prompts] == ["write_summary"]
                assert [str(x.uri) for x in (await c.list_resources()).resources] == [README]
                templates = (await c.list_resource_templates()).resource_templates
                assert [x.name for x in templates] == ["project_file"]
                assert (await c.get_prompt("write_summary", {"topic": "x"})).messages
                assert (await c.read_resource(README)).contents[0].text
                assert (await c.read_resource("file:///project/notes.txt")).contents
                with pytest.raises(MCPError) as e:
                    await c.get_prompt("delete_notes", {})
                said = e.value.error.message
                assert "signed-decision check failed" in said and "decision flipped" in said, said
                with pytest.raises(MCPError) as e:
                    await c.read_resource("file:///other.txt")
                assert "neither an approved resource" in e.value.error.message

    anyio.run(go)
    log = (tmp_path / "proxy.log").read_text()
    assert "withheld prompt 'delete_notes'" in log, log
    assert "signed-decision check failed: unsigned" in log, log


def test_a_reworded_prompt_with_no_cue_is_withheld_not_held(tmp_path: Path):
    """docs/proxy.md: a prompt, resource or template that changed is withheld, never held,
    even when the change is text with no blocking cue (what a tool would be held for)."""
    from mcp_review.services.proxy.enforce import PinEnforcer

    pins = tmp_path / "mcp-pins.toml"
    p = fixture("prompt.json")
    pf = load_pins(str(pins))
    pf.decide_surface(
        make_surface_pin(SERVER, PROMPT, p, "approved", principal="default", by="t", at="x")
    )
    save_pins(pf, str(pins))
    gate = PinEnforcer(str(pins), SERVER)
    kept, withheld = gate.surfaces(PROMPT, [p])
    assert kept == [p] and withheld == []
    kept, withheld = gate.surfaces(PROMPT, [dict(p, description="Summarise a topic briefly.")])
    assert kept == []
    assert withheld == [
        ("write_summary", "changed since approved (review it, then approve it again)")
    ]


def git(d: Path, *argv: str) -> None:
    who = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x"}
    env = {**os.environ, **who, "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x"}
    subprocess.run(["git", "-C", str(d), *argv], check=True, capture_output=True, env=env)


def test_a_replayed_old_signed_prompt_approval_breaks_the_chain(tmp_path: Path, keys):
    """Against ``--base`` (CI: the pull request's base), a prompt's new decision must name the
    base's as its ``previous``: a new approval does, and the older, genuinely signed approval
    of the prompt's first text put back is a broken chain (alone, each signature holds)."""
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "allowed_signers").write_text(allowed(keys["alice"]))
    sign = ("--sign-key", str(keys["alice"]))
    r = cli(tmp_path, "signing", "init", "--allowed-signers", "allowed_signers", *sign)
    assert r.returncode == 0, r.stderr
    snap1 = str(snapshot(tmp_path / "s1.json", fixture("prompt.json")))
    r = cli(tmp_path, "approve", SERVER, "--prompt", "write_summary", "--snapshot", snap1, *sign)
    assert r.returncode == 0, r.stderr
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "v1")
    v1 = (tmp_path / "mcp-pins.toml").read_bytes()
    reworded = dict(fixture("prompt.json"), description="Write a short, plain summary.")
    snap2 = str(snapshot(tmp_path / "s2.json", reworded))
    r = cli(tmp_path, "approve", SERVER, "--prompt", "write_summary", "--snapshot", snap2, *sign)
    assert r.returncode == 0, r.stderr
    r = cli(tmp_path, "verify", "--require-signed", "--base", "HEAD")
    assert r.returncode == 0, r.stderr
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "v2")
    (tmp_path / "mcp-pins.toml").write_bytes(v1)  # the older approval put back
    assert cli(tmp_path, "verify", "--require-signed").returncode == 0
    r = cli(tmp_path, "verify", "--require-signed", "--base", "HEAD")
    assert r.returncode == 1
    assert "srv/default/(prompt) write_summary: broken chain" in r.stderr, r.stderr


def test_an_untrusted_policy_withholds_every_surface(tmp_path: Path, keys):
    """``--require-signed`` with a policy that is not trusted (inside the repository,
    unsigned): no decision counts, so every prompt, resource and template is set aside with
    the reason, signed or not, as every tool is."""
    from mcp_review.services.signing import withhold_unsigned

    pins = _surface_pins(tmp_path, keys)
    git(tmp_path, "init", "-q", "-b", "main")  # the policy now sits in the repository
    run = withhold_unsigned(str(tmp_path / "policy.toml"), str(pins))
    pf = load_pins(str(pins))
    run(pf)
    assert pf.surfaces == {}
    assert len(pf.unverified_surfaces) == 5
    for _, why in pf.unverified_surfaces.values():
        assert why.startswith("the signing policy is not trusted: the signing policy is unsigned")


def test_a_group_of_prompts_is_signed_member_by_member(tmp_path: Path, keys):
    """``approve --group`` over two honest prompt rewordings (review by kind): each member is
    recorded through the one surface path, so each is signed, ``ssh-keygen`` accepts each
    signature and ``verify --require-signed`` passes; each record names the group."""
    from mcp_review.engine.kinds import group_report
    from mcp_review.services.inputs import resolve_paths
    from mcp_review.store import audit

    (tmp_path / "allowed_signers").write_text(allowed(keys["alice"]))
    assert cli(tmp_path, "signing", "init", "--allowed-signers", "allowed_signers").returncode == 0
    first = [{"name": "p1", "description": "Say hi."}, {"name": "p2", "description": "Say bye."}]

    def snap(name: str, prompts: list[dict[str, Any]]) -> str:
        path = snapshot(tmp_path / name, prompts[0])
        doc = json.loads(path.read_text())
        doc["servers"][SERVER]["surfaces"] = {PROMPT: prompts}
        path.write_text(json.dumps(doc))
        return str(path)

    s1 = snap("s1.json", first)
    for p in first:
        r = cli(tmp_path, "approve", SERVER, "--prompt", p["name"], "--snapshot", s1, "--sign-key",
                str(keys["alice"]))  # fmt: skip
        assert r.returncode == 0, r.stderr
    s2 = snap("s2.json", [dict(p, description=p["description"] + " Politely.") for p in first])
    inp = resolve_paths(config=None, pins=str(tmp_path / "mcp-pins.toml"), snapshot=s2)
    [g] = group_report(inp.status(inp.snapshot())).groups
    assert g.subject == PROMPT and g.size == 2
    r = cli(
        tmp_path, "approve", "--group", g.id, "--snapshot", s2, "--sign-key", str(keys["alice"])
    )
    assert r.returncode == 0, r.stderr
    pf = load_pins(str(tmp_path / "mcp-pins.toml"))
    for name in ("p1", "p2"):
        sp = pf.surfaces[(SERVER, "default", PROMPT, name)]
        assert sp.wire["description"].endswith("Politely.") and len(sp.extra[SIGNATURES]) == 1
        said = ssh_verify(tmp_path, PROMPT, name)
        assert said.startswith('Good "mcp-review-decision" signature for alice@example.com'), said
    r = cli(tmp_path, "verify", "--require-signed")
    assert r.returncode == 0, r.stderr
    recs = audit.read(audit.audit_path_for(str(tmp_path / "mcp-pins.toml")))
    assert [r.get("name") for r in recs if r.get("group") == g.id] == ["p1", "p2"]
