"""The host profiles against the vendors' own converters, offline (issue 44 item 8): the
openai-agents strict conversion, the anthropic SDK's transform_schema and the google-genai
SDK's MCP conversion, on the fixtures and on the corpus. Every disagreement must be of a kind
scripts/hosts/oracles.py explains (what the SDK does is not what the API does, or an SDK
defect); a new kind of disagreement fails. The figures are benchmarks/bench_hosts.py's."""

from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

import corpus_data as cd  # noqa: E402
import oracles  # noqa: E402  (imports the SDKs only when it judges)

from mcp_review.engine import hosts as H  # noqa: E402

FIXTURES = Path(__file__).parent.parent / "fixtures" / "hosts"


@pytest.fixture(scope="module", autouse=True)
def _sdks() -> None:
    """The three SDKs (about 4 s of CPU to import), imported here rather than at collection,
    where every xdist worker would pay for them; a module fixture puts this file on one
    worker (tests/conftest.py). Without them the tests are skipped, as before."""
    pytest.importorskip("agents")
    pytest.importorskip("anthropic")
    pytest.importorskip("google.genai")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        logging.disable(logging.WARNING)
        yield
        logging.disable(logging.NOTSET)


def _refusals(profile: str, wire: dict, server: str = "srv") -> set[str]:
    p = H.PROFILES[profile]
    return {
        f.rule.removeprefix(f"host-{p.name}-")
        for f in H.tool_findings(p, wire, server)
        if f.refuses
    }


def _new(case: str) -> dict:
    return json.loads((FIXTURES / case / "new.json").read_text())


def test_openai_agents_refuses_what_openai_strict_refuses_on_the_fixtures():
    for case in ("root-combinator", "free-form-map"):
        wire = _new(case)
        assert _refusals("openai-strict", wire), case
        verdict, words = oracles.judge("openai-agents", wire["inputSchema"])
        assert verdict == "refuse", (case, words)
    # format: uri: the SDK does not check formats, the API does (an explained disagreement).
    wire = _new("format-uri")
    assert _refusals("openai-strict", wire) == {"format-unsupported"}
    sdk = oracles.judge("openai-agents", wire["inputSchema"])
    assert sdk[0] == "accept"
    assert oracles.explain("openai-agents", {"format-unsupported"}, sdk) == (
        "profile:format-unsupported",
    )


def test_anthropic_sdk_closes_a_free_form_map_the_api_refuses():
    wire = _new("free-form-map")
    assert _refusals("claude-strict", wire) == {"open-object"}
    from anthropic.lib._parse._transform import transform_schema

    out = transform_schema(wire["inputSchema"])
    labels = out["properties"]["labels"]
    assert labels["additionalProperties"] is False  # the model can send no label at all
    assert oracles.judge("anthropic", wire["inputSchema"]) == ("accept", "rewritten")


def test_google_genai_drops_what_gemini_refuses_as_sent():
    schema = {"type": "object", "properties": {"mode": {"type": "string", "const": "fast"}}}
    assert _refusals("gemini", {"name": "t", "inputSchema": schema}) == {"unsupported-keyword"}
    assert oracles.judge("google-genai", schema) == ("accept", "rewritten")
    plain = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    assert not _refusals("gemini", {"name": "t", "inputSchema": plain})
    assert oracles.judge("google-genai", plain) == ("accept", "")


def _suite_schemas() -> list[tuple[str, str, dict]]:
    seen: set[str] = set()
    out = []
    for server, caps in cd.servers().items():
        if server not in cd.SUITE_SERVERS:
            continue
        for cap in caps:
            for name, t in cap.tools.items():
                s = t.get("inputSchema")
                key = json.dumps(s, sort_keys=True)
                if isinstance(s, dict) and key not in seen:
                    seen.add(key)
                    out.append((server, f"{server} {cap.version} {name}", t))
    return out


@pytest.mark.parametrize("oracle", sorted(oracles.ORACLES))
def test_every_disagreement_on_the_corpus_is_explained(oracle: str):
    profile = oracles.ORACLES[oracle]
    schemas = _suite_schemas()
    assert len(schemas) > 200
    agree = {"refuse": 0, "accept": 0}
    unexplained = []
    for server, label, t in schemas:
        ours = _refusals(profile, t, server)
        sdk = oracles.judge(oracle, t["inputSchema"])
        keys = oracles.explain(oracle, ours, sdk)
        if keys is None:
            unexplained.append((label, sorted(ours), sdk))
        elif keys == ():
            agree[sdk[0]] += 1
    assert not unexplained, unexplained[:5]
    assert agree["accept"] > 0 and agree["refuse"] > 0, agree
