"""The call log's redaction, made fast for large calls (issue 46 item 7), redacts exactly what
it did: held against the previous implementation (kept here as the reference) on every secret
format, URLs with userinfo and secret query values, and texts around and between them.
Speed is measured in benchmarks/bench_proxy.py, never asserted here."""

from __future__ import annotations

import random
import re

import pytest

from mcp_review.store.calllog import _URL_QUERY, _URL_USERINFO, _VALUE_FORMATS, REDACTED, Redactor

_OLD_PREFILTER = re.compile(
    r"-----BEGIN|eyJ|gh[pousr]_|github_pat_|sk-|xox|AKIA|glpat-|Bearer |://"
)


def reference(r: Redactor, s: str) -> str:
    """scrub_text as it was before issue 46 (one alternation over the whole text)."""
    if not _OLD_PREFILTER.search(s):
        return s
    s = _VALUE_FORMATS.sub(REDACTED, s)
    if "://" in s:
        s = _URL_USERINFO.sub(lambda m: f"{m.group(1)}:{REDACTED}@", s)
        s = _URL_QUERY.sub(
            lambda m: (
                f"{m.group(1)}{m.group(2)}={REDACTED}" if r.secret_key(m.group(2)) else m.group(0)
            ),
            s,
        )
    return s


SECRETS = [
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk",  # unterminated: to the end
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_nature-x",
    "ghp_" + "a1" * 18,
    "gho_" + "Z" * 36,
    "github_pat_" + "A_b" * 10,
    "sk-" + "x" * 24,
    "sk-ant-" + "k" * 30,
    "sk-proj-" + "p_-" * 9,
    "xoxb-1234567890-abcdef",
    "AKIA" + "ABCDEFGHIJ012345",
    "glpat-" + "g" * 22,
    "Bearer abcdefghijklmnop.qrstu",
    "https://user:hunter22@example.com/x",
    "postgres://admin:s3cr3t-pw@db.internal:5432/app",
    "https://api.example.com/v1?q=cats&api_key=AAAA1111&token=zz&page=2",
    "see http://x.test/?password=p4ss&user=bob",
]
DECOYS = [
    "the forecast for Paris: rain",
    "sk-short",
    "xox",
    "gh_pages",
    "eyJ but nothing else",
    "AKIA1",
    "mailto:bob@example.com",
    "a=b&c=d ?x=y",
    "Bearer short",
    "----- BEGIN nothing",
    "ftp:/not-a-url",
    "_under_scores_ everywhere_",
    "x" * 300,
]


@pytest.mark.parametrize("text", SECRETS + DECOYS)
def test_each_format_and_decoy_redacts_as_before(text):
    r = Redactor()
    for s in (text, f"before {text} after", f"{text}\n{text}", f"({text})"):
        assert r.scrub_text(s) == reference(r, s), s


def test_mixed_texts_redact_as_before():
    """Random texts of words, punctuation, secrets and decoys, long and short."""
    rnd = random.Random(46)
    pieces = SECRETS + DECOYS + ["word", " ", "\n", "-", ":", "//", "=", "&", "?", "@", "_", "J"]
    r = Redactor()
    for n in range(400):
        s = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 40 if n % 10 else 400)))
        assert r.scrub_text(s) == reference(r, s), s


def test_a_large_call_is_still_redacted_whole():
    """A 1 MiB argument with a secret at its very end: found (the fast path skips nothing)."""
    r = Redactor()
    big = "x" * (1 << 20)
    for secret in SECRETS:
        got = r({"q": big + " " + secret})["q"]
        assert got == reference(r, big + " " + secret)
        assert got != big + " " + secret
    assert r({"q": big})["q"] == big


def _stdlib_seal_bytes(rec):
    import json

    body = {k: v for k, v in rec.items() if k != "seal"}
    return json.dumps(
        body, sort_keys=True, ensure_ascii=True, separators=(",", ":"), allow_nan=False
    ).encode()


def test_seal_bytes_are_the_stdlibs_whichever_writer_made_them():
    """The seal's canonical bytes (orjson where it writes json.dumps' bytes, else the stdlib)
    are json.dumps' bytes on every record: control characters, DEL, quotes, backslashes,
    non-ASCII, lone surrogates, floats, big integers, nesting; so every seal written before
    still verifies and every one written now verifies anywhere."""
    from mcp_review.store.calllog import _seal_bytes

    rnd = random.Random(7)
    alphabet = [chr(c) for c in range(0, 0x80)] + ["é", "中", "\U0001f600", "\u2028", "\ud800"]
    leaves = [None, True, False, 0, -1, 2**63 - 1, 2**63, 2**64, -(2**63), 1.5, 1e-07, 1e300]

    def value(depth: int):
        r = rnd.random()
        if depth > 3 or r < 0.4:
            if rnd.random() < 0.5:
                return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
            return rnd.choice(leaves)
        if r < 0.7:
            return [value(depth + 1) for _ in range(rnd.randint(0, 4))]
        return {
            "".join(rnd.choice(alphabet[32:127]) for _ in range(rnd.randint(0, 5))): value(
                depth + 1
            )
            for _ in range(rnd.randint(0, 4))
        }

    for _ in range(3000):
        rec = {"time": "t", "tool": "x", "arguments": value(0), "seal": "ignored"}
        assert _seal_bytes(rec) == _stdlib_seal_bytes(rec), rec
    big = {"time": "t", "arguments": {"q": "x" * (1 << 20) + "\x7f"}}
    assert _seal_bytes(big) == _stdlib_seal_bytes(big)
