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
    """A 1 MiB argument with a secret at its very end: found (the fast path skips nothing).
    No format matches in a run of x's nor across the space after it, so the reference is the
    run, the space and the reference of the secret alone (the reference over the whole MiB
    costs a second a secret; it is run whole on real text above)."""
    r = Redactor()
    big = "x" * (1 << 20)
    assert reference(r, big + " ") == big + " "
    for secret in SECRETS:
        got = r({"q": big + " " + secret})["q"]
        assert got == big + " " + reference(r, secret)
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


# The finder: every place a format can match is a place it looks ------------------------------

FORMAT_MATCHES = [
    # (a generator of one match of each format, from a random source)
    lambda r: (
        "-----BEGIN "
        + r.choice(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "])
        + "PRIVATE KEY-----\n"
        + _word(r, 40)
        + "\n-----END PRIVATE KEY-----"
    ),
    lambda r: "eyJ" + _word(r, 8) + ".eyJ" + _word(r, 8) + "." + _word(r, 12),
    lambda r: "gh" + r.choice("pousr") + "_" + _alnum(r, 36),
    lambda r: "github_pat_" + _alnum(r, 15) + "_" + _alnum(r, 15),
    lambda r: "sk-" + r.choice(["", "ant-", "proj-"]) + _word(r, 24),
    lambda r: "xox" + r.choice("abpr") + "-" + _alnum(r, 12),
    lambda r: "AKIA" + "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") for _ in range(16)),
    lambda r: "glpat-" + _word(r, 24),
    lambda r: "Bearer " + _word(r, 20),
]


def _alnum(r: random.Random, n: int) -> str:
    return "".join(r.choice("abcXYZ0189") for _ in range(n))


def _word(r: random.Random, n: int) -> str:
    return "".join(r.choice("abcXYZ0189_-") for _ in range(n))


def test_every_format_has_a_generator_here():
    from mcp_review.store.calllog import _FORMATS

    assert len(FORMAT_MATCHES) == len(_FORMATS)
    r = random.Random(0)
    for (_, pattern), make in zip(_FORMATS, FORMAT_MATCHES, strict=True):
        for _ in range(20):
            x = make(r)
            assert re.search(pattern, x), (pattern, x)


def test_every_match_starts_where_the_finder_looks():
    """The fast path tries the formats only at the places ``_FORMAT_STARTS`` finds: every match
    of the formats' alternation, in random text around random secrets, starts at one of them
    (a finder that missed one would let that secret through)."""
    from mcp_review.store.calllog import _FORMAT_STARTS
    from mcp_review.store.textscan import starts_at

    rnd = random.Random(4607)
    noise = ["a", "b", " ", "\n", "-", "_", "g", "h", "k", "s", "x", "o", "B", "K", "J", "é", "中"]
    for _ in range(3000):
        parts = []
        for _ in range(rnd.randint(1, 6)):
            parts.append("".join(rnd.choice(noise) for _ in range(rnd.randint(0, 8))))
            parts.append(rnd.choice(FORMAT_MATCHES)(rnd))
        s = "".join(parts)
        starts = set(starts_at(s, _FORMAT_STARTS, 1 << 30) or ())
        for m in _VALUE_FORMATS.finditer(s):
            assert m.start() in starts, (s, m.group(0))
        for i in range(len(s)):  # and every place a format could match at all
            if _VALUE_FORMATS.match(s, i):
                assert i in starts, (s, i)


def _text_of(patterns: list[str]) -> str:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent.parent
    parts = [p.read_text(encoding="utf-8") for pat in patterns for p in sorted(root.glob(pat))]
    text = "".join(parts)
    return (text * ((1 << 20) // len(text) + 1))[: 1 << 20]


@pytest.fixture(scope="module")
def mib_texts() -> dict[str, str]:
    """1 MiB of this repository's prose and of its source: URLs, ``sk-`` and ``gh`` in the
    words, non-ASCII, what a file a tool writes looks like."""
    return {
        "prose": _text_of(["docs/*.md", "README.md"]),
        "code": _text_of(["mcp_review/store/*.py", "mcp_review/services/*.py"]),
    }


@pytest.mark.parametrize("kind", ["prose", "code"])
def test_secrets_at_the_start_middle_and_end_of_a_mib_are_redacted(mib_texts, kind):
    """An attacker's placement: every secret first, in the middle and last in a 1 MiB argument
    of real text (the unterminated private key last: it runs to the end); each is redacted and
    the whole equals the reference."""
    r = Redactor()
    text = mib_texts[kind]
    mid = len(text) // 2
    whole = [x for x in SECRETS if "OPENSSH" not in x]
    batch = " ".join(whole)
    s = f"{batch} {text[:mid]} {batch} {text[mid:]} {batch} {SECRETS[1]}"
    got = r.scrub_text(s)
    assert got == reference(r, s)
    for secret in SECRETS:
        assert secret not in got
    assert got.count(REDACTED) >= 3 * len(whole)


def test_secrets_across_the_fast_paths_own_edges():
    """Where the fast path changes how it looks, a secret on either side and across the edge
    is redacted as before: strings just shorter and longer than the short-string cut (the
    prefilter regex below it, the finder above), a URL scheme longer than the 64 characters
    the userinfo finder looks back before going on, and a text dense enough with candidates
    to send it to the whole-text scan."""
    from mcp_review.store.calllog import _SHORT, _SPARSE

    r = Redactor()
    cases = []
    for secret in SECRETS:
        for pad in range(_SHORT - len(secret) - 3, _SHORT + 3):
            cases.append("y" * max(0, pad) + secret)
            cases.append("- " * (max(0, pad) // 2) + secret + " tail")
    for n in (62, 63, 64, 65, 66, 130, 200):
        scheme = "a" * n
        cases.append(f"x {scheme}://user:pw-{n}@host/p?token=t{n}&q=1 and more")
        cases.append(f"{scheme}://user:pw@h " * 3)
        cases.append(f"http://a.b/ {scheme}://u:secretpw@h/")
    # Dense: more candidate places than one in _SPARSE characters, a secret among them.
    dense = "sk-" * (1 << 12)
    cases.append(dense + " sk-" + "z" * 24 + " " + dense)
    cases.append("AKIA" * (1 << 12) + " AKIA" + "Q" * 16 + " ")
    cases.append("?" * (1 << 12) + " https://h/?password=x&token=y " + "&" * (1 << 12))
    cases.append(("x://" * (1 << 12)) + "https://u:p@h")
    assert len(dense) // _SPARSE < dense.count("sk-")
    for s in cases:
        assert r.scrub_text(s) == reference(r, s), s[:200]


def reference_walk(r: Redactor, v):
    """The redactor's walk as it was (every key judged afresh, every string scrubbed whole)."""
    if isinstance(v, dict):
        return {
            r._value(k) if isinstance(k, str) else k: _ref_hidden(r, x)
            if isinstance(k, str) and r.secret_key(k)
            else reference_walk(r, x)
            for k, x in v.items()
        }
    if isinstance(v, list):
        return [reference_walk(r, x) for x in v]
    if isinstance(v, str):
        return reference(r, r._value(v))
    return v


def _ref_hidden(r: Redactor, v):
    if isinstance(v, dict):
        return {r._value(k) if isinstance(k, str) else k: _ref_hidden(r, x) for k, x in v.items()}
    if isinstance(v, list):
        return [_ref_hidden(r, x) for x in v]
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, str):
        return REDACTED
    return 0


@pytest.mark.parametrize("scrub", [None, "by-value"])
def test_the_walk_redacts_as_before(scrub):
    """Random nested arguments (secret-named keys at any depth, repeated so the remembered
    verdicts are used, long and short strings with secrets, numbers, booleans, nulls), with and
    without a by-value scrubber: the same result as the walk before the fast path."""
    fn = (lambda t: t.replace("hunter22-secret", "***")) if scrub else None
    r = Redactor(scrub=fn)
    rnd = random.Random(46 if scrub else 47)
    keys = ["q", "password", "apiKey", "max_tokens", "author", "x-api-key", "hunter22-secret", "n"]
    leaves = [None, True, False, 0, 7, 1.5, "plain", "hunter22-secret inside", *SECRETS]

    def value(depth: int):
        roll = rnd.random()
        if depth > 4 or roll < 0.45:
            leaf = rnd.choice(leaves)
            if isinstance(leaf, str) and rnd.random() < 0.1:
                leaf = "w " * rnd.randint(200, 400) + leaf  # past the short-string cut
            return leaf
        if roll < 0.7:
            return [value(depth + 1) for _ in range(rnd.randint(0, 4))]
        return {rnd.choice(keys): value(depth + 1) for _ in range(rnd.randint(0, 5))}

    for _ in range(1500):
        v = value(0)
        assert r(v) == reference_walk(r, v), v


def test_a_recorded_mib_call_loses_every_secret(tmp_path, monkeypatch, mib_texts):
    """Through the call log writer, read back from disk: a 1 MiB argument of real text with a
    secret at its start, middle and end, in a string and under a secret-named key."""
    import json

    from mcp_review.store.calllog import CallLog

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    text = mib_texts["prose"]
    mid = len(text) // 2
    token = "ghp_" + "Q7" * 18
    args = {
        "content": f"{token}\n{text[:mid]}Bearer {token}{text[mid:]}\n{token}",
        "auth": {"token": token},
    }
    log = CallLog(str(tmp_path / "calls.jsonl"), server="s")
    log.record_call("write_file", args, 1)
    log.close()
    raw = (tmp_path / "calls.jsonl").read_text()
    assert token not in raw and "Q7Q7" not in raw
    rec = json.loads(raw)
    assert rec["redacted"] is True
    assert rec["arguments"]["auth"] == {"token": REDACTED}
    assert rec["arguments"]["content"] == reference(Redactor(), args["content"])


def test_seal_bytes_spell_non_ascii_as_the_stdlib_does():
    """Records holding non-ASCII text (every range: Latin-1, the rest of the BMP, past U+FFFF;
    in keys and values) beside backslashes JSON itself escapes and text that reads like a
    Python escape (``\\xe9``, ``\\U0001f600`` literally): the seal's bytes are json.dumps'."""
    from mcp_review.store.calllog import _seal_bytes

    tricky = [
        "é",
        "\\é",
        "\\\\é",
        "é\\",
        "\\xe9",
        "\\\\xe9",
        "\\U0001f600",
        "\\u00e9",
        "\U0001f600",
        "\\\U0001f600",
        "a\u2028b\u2029",
        "\u00ff\u0100\uffff\U00010000\U0010ffff",
        'q"é"\\n\n\t\x7f\x00',
        "中文\\x41",
        "x" * 300 + "é" + "\\" * 7 + "×",
    ]
    rnd = random.Random(2046)
    for _ in range(500):
        args = {rnd.choice(tricky): rnd.choice(tricky) for _ in range(rnd.randint(1, 6))}
        args["list"] = [rnd.choice(tricky) for _ in range(rnd.randint(0, 5))]
        rec = {"time": "t", "tool": "é", "arguments": args, "id": rnd.randint(-(2**63), 2**63)}
        assert _seal_bytes(rec) == _stdlib_seal_bytes(rec), rec


# Needles found by memchr while sparse and by the regex engine once dense ----------------------


def _dense_texts(rnd: random.Random, pieces: list[str], n: int):
    """Texts long enough for a needle's character to pass the switch to the regex engine
    (textscan.DENSE), with the pieces (needles, near misses) before and after it, at the very
    start and end, overlapping, beside non-ASCII."""
    from mcp_review.store.textscan import DENSE

    filler = ["a", " ", "\n", "é", "中", "\U0001f600", "=", "#"]
    for k in range(n):
        dense = rnd.random() < 0.7
        out = []
        for _ in range(rnd.randint(1, 80 if k % 4 else 600)):
            if dense or rnd.random() < 0.02:
                out.append(rnd.choice(pieces))
            if not dense:
                out.append("x" * rnd.randint(0, 2 * DENSE))
            out.append(rnd.choice(filler))
        s = "".join(out)
        yield s
        yield rnd.choice(pieces) + s + rnd.choice(pieces)


def test_format_starts_are_the_same_sparse_or_dense():
    """The places the formats' needles give, whether a needle's character is found by memchr
    throughout or the rest of the text is searched in C once it is dense, are every place a
    fixed part occurs: held against every occurrence (overlapping ones too) found another way. ``Bearer `` at the text's
    end, a run of ``B``, overlapping ``BBearer Bearer``, ``-----BEGIN`` inside a run of dashes."""
    from mcp_review.store.calllog import _FORMAT_STARTS
    from mcp_review.store.textscan import starts_at

    rnd = random.Random(4608)
    pieces = [
        "B", "Bearer ", "BBearer Bearer ", "Bearer", "Bea", "K", "AKIA", "AAKIAKIA", "AKI",
        "G", "-----BEGIN", "------BEGIN", "----BEGIN", "-----BEG", "J", "eyJ", "eyeyJ", "ey",
        "ghp_", "glpat-", "sk-", "xox", "github_pat_",
    ]  # fmt: skip
    for s in _dense_texts(rnd, pieces, 100):
        want: set[int] = set()
        for what, offset, _ in _FORMAT_STARTS:
            if isinstance(what, str):  # every occurrence, overlapping ones too
                every = re.finditer(f"(?={re.escape(what)})", s)
                want |= {m.start() + offset for m in every}
            else:  # the pattern at every index its first character is at
                c = what.pattern[0]
                want |= {i + offset for i, x in enumerate(s) if x == c and what.match(s, i)}
        assert starts_at(s, _FORMAT_STARTS, 1 << 30) == sorted(want), s[:200]


def test_query_starts_hold_every_match_the_substitution_makes():
    """``query_starts`` gives every place where ``_URL_QUERY.sub`` starts a match (so nothing
    secret is missed), and only places where the pattern matches, sparse or dense: runs of
    ``?`` and ``&``, a name cut by ``#``, white space or another ``&``, ``=`` first, a ``?``
    inside a value or a name, non-ASCII names, the text's end. The query's substitution over
    them is ``re.sub``'s."""
    from mcp_review.store.secretplaces import query_starts

    rnd = random.Random(4609)
    pieces = ["?", "&", "??", "&&?", "?a=", "&b=c", "?=", "&#x=", "? y=", "?é=1", "?a", "a=b",
              "?a?b=", "?token=t?x", "=?", "?aaaaaaaaaaaaaaa"]  # fmt: skip
    r = Redactor()
    for s in _dense_texts(rnd, pieces, 100):
        starts = query_starts(s)
        assert starts == sorted(set(starts))
        every = [m.start() for m in _URL_QUERY.finditer(s)]  # the matches re.sub makes
        assert set(every) <= set(starts), s[:200]
        assert all(_URL_QUERY.match(s, i) for i in starts), s[:200]
        assert r._sub_query(s) == _URL_QUERY.sub(r._query, s), s[:200]


def test_a_text_dense_with_query_marks_is_read_once():
    """A crafted text of ``?`` and name characters with no ``=`` after them (each ``?`` once
    tried to the end of its run: minutes for a MiB) and one where every run ends at an ``=``:
    each run's first character decides for the run, so the places are found with one regex
    match a run (counted here, not timed), and redacted as ``re.sub`` redacts them."""
    from mcp_review.store import secretplaces

    calls = []

    class Counting:
        def __init__(self, pat):
            self.pat = pat

        def match(self, s, i):
            calls.append(i)
            return self.pat.match(s, i)

        def finditer(self, s, i):
            for m in self.pat.finditer(s, i):
                calls.append(m.start())
                yield m

    real = secretplaces._RUNS
    secretplaces._RUNS = tuple((c, Counting(p)) for c, p in real)
    try:
        r = Redactor()
        for run, redacted in (
            ("?" + "a" * 15, "?" + "a" * 15),  # (no "=" after them: nothing is a query)
            ("?a?b?c?d?e?f?g?h", "?a?b?c?d?e?f?g?h"),
            ("&token=t?x?y?z", f"&token={REDACTED}"),  # (the value runs to the next "&")
        ):
            s = "see https://h.test/p?q=1 " + run * 4096 + " #"
            calls.clear()
            got = r.scrub_text(s)
            assert got == "see https://h.test/p?q=1 " + redacted * 4096 + " #", run
            assert len(calls) <= s.count("?") // run.count("?") + s.count("&") + 2, run
    finally:
        secretplaces._RUNS = real


def test_sub_at_keeps_matches_replaced_by_themselves():
    """A replacement equal to its match leaves the text in place (the same object back when
    none changed); the result is ``pattern.sub``'s whichever matches change, where they are
    adjacent, overlapping candidate starts, at either end."""
    from mcp_review.store.textscan import sub_at

    pat = re.compile(r"[?&]([a-z]+)=[^ ]*")  # a value holds later candidate starts
    rnd = random.Random(4610)
    for _ in range(2000):
        s = "".join(rnd.choice(["?a=1", "&bb=2", "?c=", "&", "?", "x", " ", "é", "=z"]) for _ in range(rnd.randint(0, 30)))  # fmt: skip
        secret = rnd.choice(["a", "bb", "c", "zz"])

        def repl(m, secret=secret):
            return f"{m.group(0)[0]}{m.group(1)}=***" if m.group(1) == secret else m.group(0)

        starts = [i for i, c in enumerate(s) if c in "?&"]
        got = sub_at(pat, s, starts, repl)
        assert got == pat.sub(repl, s), s
        if got == s:
            assert got is s
    text = "see https://h.test/p?page=2&q=cats " * 3000
    assert Redactor().scrub_text(text) is text
