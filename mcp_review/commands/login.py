"""`mcp-review login NAME`: authorise mcp-review at a remote server's OAuth authorisation server
(authorisation code with PKCE, loopback redirect) and store the tokens for the proxy."""

from __future__ import annotations

import argparse
import logging
import sys

from mcp_review.engine import exitcodes
from mcp_review.engine.errors import InputError
from mcp_review.store.files import user_state_dir

EXAMPLE = "mcp-review login github --config mcp-review.toml"


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", metavar="NAME", help="a server from the config that has a url")
    p.add_argument(
        "--config",
        metavar="FILE",
        help="mcp-review.toml or an mcp.json (default: discovered in the cwd)",
    )
    p.add_argument(
        "--port",
        type=int,
        default=0,
        help="the loopback port of the redirect (default: any free one; some authorisation "
        "servers want the registered one)",
    )
    p.add_argument(
        "--no-browser",
        action="store_true",
        help="print the address to open instead of opening a browser",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="how long to wait for the browser's redirect (default 300)",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio

    from mcp_review.services.config import load_config
    from mcp_review.services.oauth import login
    from mcp_review.store.tokens import token_path

    cfg = load_config(args.config, require_trust=False)
    srv = cfg.named(args.name)
    if srv.url is None:
        raise InputError(f"server {srv.name!r} has no url: login is for remote servers")
    if not 0 <= args.port <= 65535:
        raise InputError("--port must be 0..65535")
    state = cfg.state_dir or user_state_dir()
    path = token_path(state, srv.name)
    # The SDK logs a failed flow with its traceback ("OAuth flow error"): the one line below
    # says why, so none of its logging reaches the terminal.
    logging.getLogger("mcp").setLevel(logging.CRITICAL + 1)
    try:
        asyncio.run(
            login(
                srv.name,
                srv.url,
                path,
                headers=srv.headers,
                port=args.port,
                open_browser=not args.no_browser,
                timeout=args.timeout,
                out=sys.stderr,
            )
        )
    except BaseException as e:  # the SDK's errors arrive grouped; the first leaf says why
        if isinstance(e, KeyboardInterrupt):
            raise
        leaf: BaseException = e
        while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
            leaf = leaf.exceptions[0]
        why = srv.scrub(str(leaf))[:300] or type(leaf).__name__
        if type(leaf).__name__ == "OAuthRegistrationError":
            # What a server without OAuth answers (or one that registers no clients itself).
            why += (
                "; does the server use OAuth? A server that takes a fixed token needs it in "
                "the config's `headers` instead"
            )
        print(f"mcp-review login [{srv.name}]: failed: {why}", file=sys.stderr)
        return exitcodes.UNREACHABLE
    print(f"mcp-review login [{srv.name}]: tokens stored in {path} (0600)", file=sys.stderr)
    return exitcodes.PASS
