"""uvicorn's HTTP/1.1 layer alone: CPU per keep-alive request, h11 against httptools.

The proxy's HTTP front (``proxy --listen``) runs on uvicorn's h11 protocol (extended by
services/proxy/guard.py); this measures what that layer costs per request with an ASGI app that
answers a fixed JSON body at once, so the question "would httptools pay for porting the guard?"
has a counted answer. A uvicorn subprocess per protocol; one ``http.client`` connection posting
a ``tools/call``-sized body with the headers an MCP client sends; CPU (user + system) of the
server process from /proc over the timed requests. ``httptools`` is not a dependency: that row
is skipped when it is not installed.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import multiprocessing as mp
import os
import socket
import time

BODY = b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}'
REQUEST = (
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"q":"'
    + b"x" * 100
    + b'"}}}'
)


async def app(scope, receive, send):  # type: ignore[no-untyped-def]
    await receive()
    head = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]
    await send({"type": "http.response.start", "status": 200, "headers": head})
    await send({"type": "http.response.body", "body": BODY})


def _serve(impl: str, port: int) -> None:
    import uvicorn

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        http=impl,
        log_level="warning",
        access_log=False,
        lifespan="off",
        ws="none",
    )


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(impl: str, n: int) -> float:
    """Milliseconds of server CPU per request."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    p = mp.Process(target=_serve, args=(impl, port))
    p.start()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                h = http.client.HTTPConnection("127.0.0.1", port)
                h.connect()
                break
            except OSError:
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.1)
        h.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "Authorization": "Bearer " + "t" * 43,
            "Mcp-Session-Id": "s" * 32,
            "MCP-Protocol-Version": "2025-11-25",
        }

        def one() -> None:
            h.request("POST", "/mcp", body=REQUEST, headers=headers)
            assert h.getresponse().read() == BODY

        for _ in range(300):
            one()
        c0 = _cpu(p.pid)
        for _ in range(n):
            one()
        return (_cpu(p.pid) - c0) * 1000 / n
    finally:
        p.terminate()
        p.join()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000, help="timed requests per run")
    ap.add_argument("-r", type=int, default=2, help="alternating runs per protocol")
    a = ap.parse_args()
    impls = ["h11"] + (["httptools"] if importlib.util.find_spec("httptools") else [])
    for _ in range(a.r):
        for impl in impls:
            ms = measure(impl, a.n)
            print(f"{impl:<10} {ms:.3f} ms CPU/request   load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
