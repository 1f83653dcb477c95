"""Issue 19 item 3: ``[rules]`` classes and ``[[ignore]]`` waivers in mcp-review.toml, on real
files end to end (check, status, diff), with the proxy's own gate beside them."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path

import pytest

from mcp_review.cli import main
from mcp_review.engine.model import ToolDef
from mcp_review.engine.policy import Outcome
from mcp_review.engine.rulesconfig import (
    TRUST_AXIS_RULES,
    RulesConfig,
    RulesConfigError,
    govern,
    parse_rules,
    parse_waiver,
)
from mcp_review.engine.status import State, compute_status
from mcp_review.services.proxy import PinEnforcer
from mcp_review.store.readers import load_snapshot

FIX = Path(__file__).parent.parent / "fixtures" / "pins"
V1 = json.loads((FIX / "snapshot_v1.json").read_text())
FAR = "2099-12-31"


def tools_of(snap: dict) -> dict[str, dict]:
    return {t["name"]: t for t in snap["servers"]["files"]["tools"]}


def with_tool(snap: dict, tool: dict) -> dict:
    out = copy.deepcopy(snap)
    ts = out["servers"]["files"]["tools"]
    out["servers"]["files"]["tools"] = [tool if t["name"] == tool["name"] else t for t in ts]
    return out


def narrowed(extra: dict | None = None) -> dict:
    """delete_file with a new required property (breaking), optionally more."""
    t = copy.deepcopy(tools_of(V1)["delete_file"])
    t["inputSchema"]["properties"]["confirm"] = {"type": "boolean"}
    t["inputSchema"]["required"] = ["path", "confirm"]
    t["inputSchema"].update(extra or {})
    return t


def digest(tool: dict) -> str:
    return ToolDef.from_wire(tool).digest


@pytest.fixture
def work(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v1.json").write_text(json.dumps(V1))
    assert main(["pin", "--snapshot", "v1.json", "-q"]) == 0
    capsys.readouterr()
    return tmp_path


def write(path: Path, snap: dict) -> str:
    path.write_text(json.dumps(snap))
    return str(path)


def waiver(
    tool: dict,
    *,
    rule: str = "property-added-required",
    until: str = FAR,
    reason: str = "every client sends confirm",
    name: str | None = None,
) -> str:
    return (
        "\n[[ignore]]\n"
        f'server = "files"\ntool = "{name or tool["name"]}"\nrule = "{rule}"\n'
        f'reason = {json.dumps(reason)}\nuntil = "{until}"\n'
        f'digest = "{digest(tool)}"\n'
    )


def check(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(["check", "-q", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_without_a_waiver_the_breaking_change_fails(work, capsys):
    snap = write(work / "v2.json", with_tool(V1, narrowed()))
    rc, out, _ = check(capsys, "--from-snapshot", snap)
    assert rc == 1 and "BROKEN" in out


def test_waiver_honoured_listed_and_gate_passes_in_every_format(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t))
    rc, out, err = check(capsys, "--from-snapshot", snap)
    assert rc == 0, out + err
    assert "[waived until 2099-12-31: every client sends confirm]" in out
    assert "property-added-required" in out  # still listed
    assert "PASS" in out.splitlines()[-1]

    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    doc = json.loads(out)
    assert rc == 0 and doc["verdict"] == "PASS" and doc["counts"]["waived"] == 1
    (w,) = doc["waivers"]
    assert w["state"] == "honoured" and w["rule"] == "property-added-required"
    assert w["until"] == FAR and w["line"] == 2
    (tool,) = doc["tools"]
    assert tool["status"] == "broken" and tool["policy"]["outcome"] == "waived"
    assert tool["fails_gate"] is False
    (ch,) = [c for c in tool["comparison"]["changes"] if c["rule"] == "property-added-required"]
    assert ch["class"] == "breaking"
    assert ch["waived"] == {"reason": "every client sends confirm", "until": FAR}

    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "markdown")
    assert rc == 0 and "**waived** until 2099-12-31" in out and "### Waivers" in out

    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "sarif")
    results = json.loads(out)["runs"][0]["results"]
    sup = [r for r in results if r.get("suppressions")]
    # The tool's result is filed under its most severe rule (issue 30 item 19), as the waived
    # change's own result is: both suppressed.
    assert [r["ruleId"] for r in sup] == ["property-added-required"] * 2
    for r in sup:
        (s,) = r["suppressions"]
        assert s["kind"] == "external" and s["status"] == "accepted"
        assert s["justification"].startswith("every client sends confirm (until 2099-12-31")

    # --fail-on breaking and any agree: a waived change fails neither.
    assert check(capsys, "--from-snapshot", snap, "--fail-on", "breaking")[0] == 0
    assert check(capsys, "--from-snapshot", snap, "--fail-on", "any")[0] == 0


def test_waiver_is_in_status_and_diff_too(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t))
    assert main(["status", "--snapshot", snap, "-q"]) == 0
    out = capsys.readouterr().out
    assert "[WAIVED] 1 broken: files/delete_file" in out  # no decision: one line per outcome
    assert main(["status", "--snapshot", snap, "-q", "--verbose"]) == 0
    assert "[WAIVED] broken: delete_file" in capsys.readouterr().out
    assert main(["diff", "files", "delete_file", "--snapshot", snap, "-q"]) == 0
    out = capsys.readouterr().out
    assert "policy (tiered): waived" in out


def test_waiver_without_digest_honours_nothing_and_names_the_digest_to_add(work, capsys):
    """The issue's own example has no digest: it loads (so `diff` and `status` still run to
    find the digest), waives nothing, and the report prints the served digest; pasting that
    line in makes it honoured."""
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    unbound = "".join(ln + "\n" for ln in waiver(t).splitlines() if not ln.startswith("digest"))
    (work / "mcp-review.toml").write_text(unbound)
    rc, out, _ = check(capsys, "--from-snapshot", snap)
    assert rc == 1 and "[waived" not in out
    want = f'add digest = "{digest(t)}" (the definition served now)'
    assert want in out
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    doc = json.loads(out)
    assert doc["waivers"][0]["state"] == "unbound" and doc["waivers"][0]["digest"] is None
    assert doc["tools"][0]["fails_gate"] is True
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "sarif")
    assert not any(r.get("suppressions") for r in json.loads(out)["runs"][0]["results"])
    assert main(["diff", "files", "delete_file", "--snapshot", snap, "-q"]) == 0
    assert f"live:   {digest(t)}" in capsys.readouterr().out
    (work / "mcp-review.toml").write_text(unbound + f'digest = "{digest(t)}"\n')
    assert check(capsys, "--from-snapshot", snap)[0] == 0


def test_expired_waiver_fails_again_and_says_so(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t, until="2020-01-31"))
    rc, out, _ = check(capsys, "--from-snapshot", snap)
    assert rc == 1
    assert "waiver expired on 2020-01-31 (it said: every client sends confirm)" in out
    assert "[waived" not in out
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    doc = json.loads(out)
    assert doc["waivers"][0]["state"] == "expired"
    assert doc["tools"][0]["fails_gate"] is True
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "sarif")
    assert not any(r.get("suppressions") for r in json.loads(out)["runs"][0]["results"])


def test_until_is_inclusive_in_utc():
    """The last day of a waiver is honoured; the day after it is not."""
    snap = load_snapshot(str(FIX / "snapshot_v1.json"))
    from mcp_review.engine.pins import Decision, PinFile, make_pin

    pf = PinFile()
    for t in snap.servers["files"].tools:
        pf.decide(make_pin("files", t, Decision.APPROVED))
    t = narrowed()
    snap.servers["files"].tools = [
        ToolDef.from_wire(t) if d.name == "delete_file" else d for d in snap.servers["files"].tools
    ]
    w = parse_waiver(
        {
            "server": "files",
            "tool": "delete_file",
            "rule": "property-added-required",
            "reason": "r",
            "until": dt.date(2027, 1, 31),
            "digest": digest(t),
        }
    )
    for today, outcome in (
        (dt.date(2027, 1, 31), Outcome.WAIVED),
        (dt.date(2027, 2, 1), Outcome.REVIEW),
    ):
        report = compute_status(snap, pf)
        (use,) = govern(report, RulesConfig(waivers=(w,)), today=today)
        (st,) = [x for x in report.tools if x.tool == "delete_file"]
        assert st.policy.outcome is outcome, (today, st.policy)
        assert use.state == ("honoured" if outcome is Outcome.WAIVED else "expired")


def test_another_change_reopens_review(work, capsys):
    first = narrowed()
    (work / "mcp-review.toml").write_text(waiver(first))
    # The server changes again: one more required property (same rule), a new definition.
    again = narrowed(
        {
            "required": ["path", "confirm", "reason"],
            "properties": {**first["inputSchema"]["properties"], "reason": {"type": "string"}},
        }
    )
    snap = write(work / "v3.json", with_tool(V1, again))
    rc, out, _ = check(capsys, "--from-snapshot", snap)
    assert rc == 1
    assert "waiver of property-added-required no longer applies: the definition changed" in out
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    assert json.loads(out)["waivers"][0]["state"] == "reopened"


def test_waiver_covers_only_its_rule(work, capsys):
    """A waived change beside another breaking change: the other one still fails the gate."""
    t = narrowed({"additionalProperties": False})
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t))
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    tool = json.loads(out)["tools"][0]
    assert rc == 1 and tool["policy"]["outcome"] == "review"
    waived = [c["rule"] for c in tool["comparison"]["changes"] if "waived" in c]
    assert waived == ["property-added-required"]


def test_a_broken_recorded_call_is_never_waived(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "calls.jsonl").write_text(
        json.dumps({"tool": "delete_file", "arguments": {"path": "/x"}}) + "\n"
    )
    (work / "mcp-review.toml").write_text(waiver(t))
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--calls", "files=calls.jsonl")
    assert rc == 1 and "1 recorded call(s) broken" in out


def test_waived_tool_is_never_auto_approved(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t))
    before = (work / "mcp-pins.toml").read_bytes()
    assert main(["status", "--snapshot", snap, "--apply", "-q"]) == 0
    assert (work / "mcp-pins.toml").read_bytes() == before


def test_the_proxy_does_not_apply_waivers_or_rules(work, capsys):
    """The gate passes the waived tool; the proxy's own judge (PinEnforcer) still withholds it."""
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(
        '[rules]\n"property-added-required" = "compatible"\n' + waiver(t)
    )
    assert check(capsys, "--from-snapshot", snap)[0] == 0
    gate = PinEnforcer(str(work / "mcp-pins.toml"), "files")
    v = gate.check([t])["delete_file"]
    assert v.allowed is False


# [rules] ------------------------------------------------------------------------------------


def test_rule_class_override_demotes_everywhere(work, capsys):
    t = copy.deepcopy(tools_of(V1)["search"])
    t["inputSchema"]["properties"]["q"]["format"] = "uri"
    snap = write(work / "v2.json", with_tool(V1, t))
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    (tool,) = json.loads(out)["tools"]
    # A generated witness (a string that is not a URI) promotes it to breaking.
    assert rc == 1 and tool["comparison"]["changes"][0]["class"] == "breaking"
    assert tool["comparison"]["changes"][0]["promoted_by_witness"] is True

    (work / "mcp-review.toml").write_text('[rules]\n"format-added" = "compatible"\n')
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    (tool,) = json.loads(out)["tools"]
    (ch,) = tool["comparison"]["changes"]
    assert rc == 0 and ch["class"] == "compatible"
    assert ch["note"] == "class set by [rules] (engine: breaking)"
    assert tool["policy"]["outcome"] == "auto-approve"
    assert main(["diff", "files", "search", "--snapshot", snap, "-q"]) == 0
    assert "[COMPATIBLE] format-added" in capsys.readouterr().out


def test_rule_class_override_promotes_to_breaking(work, capsys):
    t = copy.deepcopy(tools_of(V1)["search"])
    t["inputSchema"]["properties"]["limit"] = {"type": "integer"}
    snap = write(work / "v2.json", with_tool(V1, t))
    assert check(capsys, "--from-snapshot", snap, "--fail-on", "breaking")[0] == 0
    (work / "mcp-review.toml").write_text('[rules]\n"property-added-optional" = "breaking"\n')
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--fail-on", "breaking", "--format", "json")
    (tool,) = json.loads(out)["tools"]
    assert rc == 1 and tool["status"] == "broken" and tool["policy"]["outcome"] == "review"
    # Stricter rules never make --apply re-pin: nothing is auto-approvable now.
    before = (work / "mcp-pins.toml").read_bytes()
    main(["status", "--snapshot", snap, "--apply", "-q"])
    capsys.readouterr()
    assert (work / "mcp-pins.toml").read_bytes() == before


# The trust axis ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "toml, line, words",
    [
        ('[rules]\n"tool-description-changed" = "cosmetic"\n', 2, "is on the trust axis"),
        (
            'timeout = 5\n\n[rules]\n"hidden-characters-added" = "compatible"\n',
            4,
            "is on the trust axis",
        ),
        ('[rules]\n"annotation-relaxed" = "cosmetic"\n', 2, "is on the trust axis"),
        ('[rules]\n"enum-narrowed" = "trust"\n', 2, "the trust axis cannot be set"),
        ('[rules]\n"engine-error" = "compatible"\n', 2, "could not read"),
        ('[rules]\n"no-such-rule" = "compatible"\n', 2, "unknown rule id 'no-such-rule'"),
        ('[rules]\n"enum-narrowed" = "fine"\n', 2, "class must be one of"),
        (
            '[[ignore]]\nserver = "files"\ntool = "read_file"\nrule = "tool-description-changed"\n'
            'reason = "x"\nuntil = "2099-01-01"\ndigest = "sha256:' + "0" * 64 + '"\n',
            4,
            "cannot be waived",
        ),
        (
            '[[ignore]]\nserver = "files"\ntool = "t"\nrule = "enum-narrowed"\nreason = "x"\n'
            'until = "2099-01-01"\ndigest = ""\n',
            7,
            "'digest' must be a non-empty string: the served definition",
        ),
        (
            '[[ignore]]\nserver = "files"\ntool = "t"\nrule = "enum-narrowed"\nreason = "x"\n'
            'until = "soon"\ndigest = "sha256:' + "0" * 64 + '"\n',
            6,
            "'until' must be a date",
        ),
        (
            '[[ignore]]\nserver = "files"\ntool = "t"\nrule = "enum-narrowed"\nuntil = 2099-01-01\n'
            'digest = "sha256:' + "0" * 64 + '"\n',
            1,
            "'reason' must be a non-empty string",
        ),
    ],
)
def test_config_errors_name_file_and_line(work, capsys, toml, line, words):
    (work / "mcp-review.toml").write_text(toml)
    rc, _, err = check(capsys, "--from-snapshot", "v1.json")
    assert rc == 2
    assert f"mcp-review.toml:{line}: " in err and words in err, err


def test_every_trust_rule_is_refused_by_both():
    for rule in sorted(TRUST_AXIS_RULES):
        with pytest.raises(RulesConfigError, match="trust axis"):
            parse_rules({rule: "compatible"})
        with pytest.raises(RulesConfigError, match="trust axis"):
            parse_waiver(
                {
                    "server": "s",
                    "tool": "t",
                    "rule": rule,
                    "reason": "r",
                    "until": "2099-01-01",
                    "digest": "sha256:" + "a" * 64,
                }
            )
    # Every trust-class rule of the registry is in the set.
    from mcp_review.engine.model import ChangeClass
    from mcp_review.engine.rules import RULES

    assert {r.id for r in RULES.values() if r.cls is ChangeClass.TRUST} <= TRUST_AXIS_RULES


def test_waiver_never_covers_a_change_that_brings_in_text(work, capsys):
    """property-added-optional is not a trust rule, but a new property's description is text
    the model reads: the waiver is listed as not applied and the tool still needs review."""
    t = copy.deepcopy(tools_of(V1)["search"])
    t["inputSchema"]["properties"]["limit"] = {
        "type": "integer",
        # Honest text: "Also send ~/.ssh/id_rsa." would block on its cues (issue 27).
        "description": "At most this many results.",
    }
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t, rule="property-added-optional"))
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    doc = json.loads(out)
    assert rc == 1 and doc["waivers"][0]["state"] == "trust"
    assert doc["tools"][0]["policy"]["outcome"] == "review"


def test_a_block_stays_a_block(work, capsys):
    """read_file gains hidden characters and a breaking change; waiving the breaking one
    leaves the block (hidden characters) in place."""
    t = copy.deepcopy(tools_of(V1)["read_file"])
    t["description"] += "\u200b"
    t["inputSchema"]["properties"]["mode"] = {"type": "string"}
    t["inputSchema"]["required"] = ["path", "mode"]
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t))
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    tool = json.loads(out)["tools"][0]
    assert rc == 1 and tool["policy"]["outcome"] == "block"
    assert any(r.startswith("hidden characters") for r in tool["policy"]["reasons"])


def test_waiver_text_is_data_on_every_output(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text(waiver(t, reason="ok\u001b[31m RED \u202e| x |"))
    rc, out, _ = check(capsys, "--from-snapshot", snap)
    assert rc == 0 and "\x1b" not in out and "\u202e" not in out and "⟨ESC⟩[31m" in out
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "markdown")
    assert (
        "\x1b" not in out and "\u202e" not in out and "\\| x \\|" in out
    )  # a cell break escaped (issue 30 item 20)


def test_unused_waiver_is_reported(work, capsys):
    t = narrowed()
    (work / "mcp-review.toml").write_text(waiver(t, name="gone_tool"))
    rc, out, _ = check(capsys, "--from-snapshot", "v1.json", "--format", "json")
    assert rc == 0 and json.loads(out)["waivers"][0]["state"] == "unused"


def test_status_report_state_is_recomputed_from_the_new_classes(work, capsys):
    t = narrowed()
    snap = write(work / "v2.json", with_tool(V1, t))
    (work / "mcp-review.toml").write_text('[rules]\n"property-added-required" = "compatible"\n')
    rc, out, _ = check(capsys, "--from-snapshot", snap, "--format", "json")
    tool = json.loads(out)["tools"][0]
    assert rc == 0
    assert tool["status"] == str(State.CHANGED) and tool["policy"]["outcome"] == "auto-approve"


def test_watch_applies_the_same_gate(work, capsys):
    """`watch` judges what it sees as `check` does: with the config's rules and waivers."""
    import io

    from mcp_review.commands.watch import DriftPrinter
    from mcp_review.services.config import load_config
    from mcp_review.store.pinfile import load_pins as _load

    t = narrowed()
    (work / "mcp-review.toml").write_text(
        waiver(t) + '\n[servers.files]\nurl = "http://127.0.0.1:9/mcp"\n'
    )
    snap = load_snapshot(write(work / "v2.json", with_tool(V1, t)))
    cfg = load_config("mcp-review.toml")
    plain = DriftPrinter(_load("mcp-pins.toml"), {}, "text", "review", io.StringIO())
    gated = DriftPrinter(_load("mcp-pins.toml"), {}, "text", "review", io.StringIO(), gate=cfg.gate)
    for p in (plain, gated):
        p.latest = dict(snap.servers)
    assert plain.exit_code() == 1 and gated.exit_code() == 0
    (st,) = [x for x in gated.report().tools if x.tool == "delete_file"]
    assert st.policy.outcome is Outcome.WAIVED
