"""``proxy --enforce --require-signed`` (issue 45) between a real SDK client and a real SDK
server: a tool whose approval is unsigned is withheld, a signed one is served; the proxy
refuses to start only when the signing policy or its allowed-signers file cannot be read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from helpers import int_tool, run_cli
from servers.proxy_harness import sdk_proxy_params

from mcp_review.engine.model import ToolDef
from mcp_review.engine.pins import Decision, make_pin
from mcp_review.services.signing import load_signer
from mcp_review.store.pinfile import load_pins, save_pins

pytest.importorskip("mcp")
from mcp import Client, MCPError
from mcp.client.stdio import stdio_client


def _keys(tmp: Path) -> Path:
    key = tmp / "alice"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    kind, b64, *_ = (tmp / "alice.pub").read_text().split()
    (tmp / "allowed_signers").write_text(f"alice@example.com {kind} {b64}\n")
    (tmp / "policy.toml").write_text(
        'version = 1\nallowed_signers = "allowed_signers"\nsigners = 1\nrequire = ["*"]\n'
    )
    return key


def _client(tmp: Path, *extra: str, env: dict[str, str]) -> Client:
    params = sdk_proxy_params(tmp, *extra, env=env)
    errlog = open(tmp / "proxy.log", "a")
    return Client(stdio_client(params, errlog=errlog), cache=None, read_timeout_seconds=30)


async def test_an_unsigned_approval_is_withheld_and_a_signed_one_served(tmp_path: Path):
    key = _keys(tmp_path)
    pins = tmp_path / "mcp-pins.toml"
    echo, add = int_tool("echo", "echo a"), int_tool("add", "add one to a")
    (tmp_path / "tools.json").write_text(json.dumps([echo, add]))
    signed = load_pins(str(pins))
    signed.sign = load_signer(str(key)).sign_pin  # what approve --sign-key installs
    signed.decide(make_pin("demo", ToolDef.from_wire(echo), Decision.APPROVED, by="alice"))
    save_pins(signed, str(pins))
    unsigned = load_pins(str(pins))  # someone who can push, without a key
    unsigned.decide(make_pin("demo", ToolDef.from_wire(add), Decision.APPROVED, by="mallory"))
    save_pins(unsigned, str(pins))
    argv = ("--enforce", "--pins", str(pins), "--name", "demo")
    env = {"PROXY_TOOLS_FILE": str(tmp_path / "tools.json")}
    with anyio.fail_after(90):
        # Without --require-signed both approvals count, as before.
        async with _client(tmp_path, *argv, env=env) as c:
            assert sorted(t.name for t in (await c.list_tools()).tools) == ["add", "echo"]
        policy = str(tmp_path / "policy.toml")
        async with _client(
            tmp_path, *argv, "--require-signed", "--signing-policy", policy, env=env
        ) as c:
            assert [t.name for t in (await c.list_tools()).tools] == ["echo"]
            r = await c.call_tool("echo", {"a": 1})
            assert json.loads(r.content[0].text)["arguments"] == {"a": 1}
            with pytest.raises(MCPError) as e:
                await c.call_tool("add", {"a": 2})
            assert "'add'" in str(e.value)
            assert "signed-decision check failed: unsigned" in str(e.value), str(e.value)
    log = (tmp_path / "proxy.log").read_text()
    assert "refused tools/call 'add': unverified pin" in log, log


@pytest.mark.parametrize("missing", ["policy.toml", "allowed_signers"])
def test_the_proxy_refuses_to_start_without_its_policy(tmp_path: Path, missing: str):
    _keys(tmp_path)
    (tmp_path / missing).unlink()
    r = run_cli(
        [
            "proxy",
            "--enforce",
            "--require-signed",
            "--signing-policy",
            str(tmp_path / "policy.toml"),
            "--pins",
            str(tmp_path / "mcp-pins.toml"),
            "--name",
            "demo",
            "--no-log",
            "--",
            sys.executable,
            "-c",
            "raise SystemExit(9)",
        ],
        cwd=tmp_path,
    )
    assert r.returncode == 2, r.stderr
    what = "signing policy" if missing == "policy.toml" else "allowed-signers file"
    assert f"cannot read the {what}" in r.stderr
