"""`mcp-review proxy --listen`: the HTTP front's socket, token file and limits from the
command line; services.proxy.front serves it."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

from mcp_review.commands.proxy.target import _safe
from mcp_review.engine.errors import InputError
from mcp_review.engine.verdict import proxy_exit_code


def serve_http(
    args: argparse.Namespace,
    name: str,
    state: str,
    make_proxy: Any,
    scrub: Any,
    *,
    forward_authorization: bool = False,
) -> int:
    """``--listen``: the HTTP front, one relay per client session (services.proxy.front)."""
    import asyncio
    import secrets
    import socket

    from mcp_review.services.proxy.front import Front, Limits, is_loopback, parse_listen
    from mcp_review.store.files import write_secret

    try:
        host, port = parse_listen(args.listen)
    except ValueError as e:
        raise InputError(str(e)) from None
    if not is_loopback(host) and not args.listen_any:
        raise InputError(
            f"--listen {args.listen}: not a loopback address; any machine that reaches it could "
            "use the server. Add --listen-any if that is what you want"
        )
    limits = Limits()
    for attr, val in (
        ("max_sessions", args.max_sessions),
        ("max_body", args.max_body),
        ("idle_timeout", args.idle_timeout),
        ("header_timeout", args.header_timeout),
        ("body_timeout", args.body_timeout),
        ("max_connections", args.max_connections),
    ):
        if val is not None:
            if not val > 0:
                raise InputError(f"--{attr.replace('_', '-')} must be positive")
            setattr(limits, attr, val)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit it: without, each keep-alive answer waits ~40 ms (Nagle).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise InputError(f"--listen {args.listen}: {e.strerror or e}") from None
    sock.listen(128)
    sock.setblocking(False)
    token = secrets.token_urlsafe(32)
    token_file = args.token_file or os.path.join(state, "proxy", f"{_safe(name)}.token")
    try:
        write_secret(token_file, (token + "\n").encode())
    except OSError as e:
        sock.close()
        raise InputError(
            f"cannot write the token file: {e.strerror or e}", source=token_file
        ) from None
    shown = f"[{host}]" if ":" in host else host
    front = Front(
        make_proxy,
        forward_authorization=forward_authorization,
        name=name,
        token=token,
        listen_any=args.listen_any,
        limits=limits,
        scrub=scrub,
    )

    def ready() -> None:
        port_now = sock.getsockname()[1]
        print(
            f"mcp-review proxy [{name}]: listening on http://{shown}:{port_now}/mcp; "
            f"bearer token in {os.path.abspath(token_file)}",
            file=sys.stderr,
            flush=True,
        )

    try:
        rc = asyncio.run(front.run(sock, ready))
    finally:
        sock.close()
        with contextlib.suppress(OSError):
            os.unlink(token_file)  # the token dies with this run
    return proxy_exit_code(rc)
