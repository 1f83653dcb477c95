"""The remote proxy's SSE parser (``http_upstream.SSEParser``) against httpx2's, the one the mcp
SDK client reads Streamable HTTP with, as an independent oracle: the same events (type, data,
last id) from the same bytes however the stream is cut into chunks; and its size limit."""

from __future__ import annotations

from httpx2._sse import _SSEParser
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_review.services.proxy.http_upstream import SSEParser

NL = st.sampled_from(["\n", "\r\n", "\r"])
VALUE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\0\ufeff"),
    max_size=12,
)
LINE = st.one_of(
    st.tuples(st.sampled_from(["data", "event", "id", "retry", "x", ""]), st.booleans(), VALUE).map(
        lambda t: f"{t[0]}:{' ' if t[1] else ''}{t[2]}"
    ),
    st.just(""),
    st.just(":comment"),
    st.just("data"),
)


def _ours(raw: bytes, cuts: list[int]) -> list[tuple[str, str, str]]:
    p = SSEParser(1 << 20, lambda n: None)
    out = []
    last = 0
    for c in [*sorted(set(cuts)), len(raw)]:
        for ev in p.feed(raw[last:c]):
            out.append((ev.event, ev.data.decode("utf-8"), ev.id or ""))
        last = c
    return out


def _oracle(text: str) -> list[tuple[str, str, str]]:
    p = _SSEParser()
    # httpx2 also dispatches events without data (an id or a type alone); the proxy drops
    # them (no message in them), as the SDK client does: compared on events with data.
    return [(e.event, e.data, e.id) for e in [*p.decode(text), *p.flush()] if e.data != ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(LINE, NL), max_size=25), st.lists(st.integers(0, 400), max_size=12))
def test_events_match_httpx2_whatever_the_chunks(lines: list[tuple[str, str]], cuts: list[int]):
    # Ended by a blank line: httpx2 dispatches an unfinished event at the end of the stream,
    # the proxy (as the SSE spec says) does not.
    text = "".join(line + nl for line, nl in lines) + "\n\n"
    raw = text.encode("utf-8")
    ours = [e for e in _ours(raw, [c for c in cuts if c < len(raw)]) if e[1] != ""]
    assert ours == _oracle(text)


def test_a_cr_at_the_end_of_a_chunk_waits_for_the_next_and_bytes_split_anywhere():
    raw = b'id: 7\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\n'
    for i in range(len(raw) + 1):
        assert _ours(raw, [i]) == [("message", '{"a":\n1}', "7")], i
    assert _ours(raw, list(range(len(raw)))) == [("message", '{"a":\n1}', "7")]


def test_an_event_over_the_limit_is_dropped_whole_and_reported_once():
    sizes: list[int] = []
    p = SSEParser(100, sizes.append)
    big = b"data: " + b"x" * 60 + b"\ndata: " + b"y" * 60 + b"\n\n"
    small = b"data: ok\n\n"
    assert [e.data for e in p.feed(big + small)] == [b"ok"]
    assert len(sizes) == 1 and sizes[0] > 100
    # A single line with no end in sight is dropped as it streams, never buffered whole.
    p = SSEParser(100, sizes.append)
    assert p.feed(b"data: " + b"z" * 500) == []
    assert len(p._buf) <= 164
    assert [e.data for e in p.feed(b"z" * 500 + b"\n\n" + small)] == [b"ok"]
    assert len(sizes) == 2


def test_a_leading_bom_is_skipped_and_the_last_id_persists():
    p = SSEParser(1 << 20, lambda n: None)
    evs = p.feed(b"\xef\xbb\xbfid: a\ndata: 1\n\ndata: 2\n\nid\ndata: 3\n\n")
    assert [(e.data, e.id) for e in evs] == [(b"1", "a"), (b"2", "a"), (b"3", "")]
