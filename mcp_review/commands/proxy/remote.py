"""A remote server's credentials in `mcp-review proxy`: its stored OAuth
tokens (refreshed at start, an ``httpx2.Auth`` for the upstream), a client's forwarded
``Authorization`` in place of the config's, and both scrubbed by value from every log."""

from __future__ import annotations

import os
import sys
from typing import Any


def oauth_tokens(name: str, state: str, required: bool, url: str | None) -> Any:
    """The stored OAuth tokens of a remote server (``mcp-review login NAME``), refreshed now if
    they expired; None when there are none and the config does not ask for them; the exit
    code 3 (said in one line naming the server) when they are needed and none is usable."""
    import asyncio

    from mcp_review.engine.exitcodes import UNREACHABLE
    from mcp_review.services.oauth import NoUsableToken, StoredTokenAuth
    from mcp_review.store.tokens import token_path

    path = token_path(state, name)
    if not (required or os.path.lexists(path)):
        return None
    try:
        tokens = StoredTokenAuth(path, name, url)  # bound to the URL it was issued for
        asyncio.run(tokens.usable())
    except (NoUsableToken, ValueError, OSError) as e:
        print(
            f"mcp-review proxy [{name}]: no usable OAuth token for server '{name}' ({e}): "
            f"run `mcp-review login {name}`",
            file=sys.stderr,
        )
        return UNREACHABLE
    tokens._lock = None  # made on the loop the relay runs
    return tokens


def upstream_auth(name: str, tokens: Any) -> Any:
    from mcp_review.services.oauth import make_auth

    def failed(why: str) -> None:
        print(
            f"mcp-review proxy [{name}]: no usable OAuth token for server '{name}' ({why}): "
            f"run `mcp-review login {name}`",
            file=sys.stderr,
            flush=True,
        )

    return make_auth(tokens, failed)


def live_scrub(scrub: Any, tokens: Any) -> Any:
    """``scrub``, and the OAuth tokens held now (a refresh replaces them) by value."""

    def both(text: str) -> str:
        for v in tokens.secrets():
            if len(v) >= 4:
                text = text.replace(v, "***")
        return scrub(text) if scrub is not None else text

    return both


def with_forwarded(headers: Any, forwarded: Any) -> dict[str, str]:
    """The config's headers with the client's forwarded ones in place of any of the same name
    (case-insensitively: ``authorization`` from the config gives way to the client's)."""
    low = {k.lower() for k in forwarded}
    return {**{k: v for k, v in headers.items() if k.lower() not in low}, **forwarded}


def also_scrub(scrub: Any, forwarded: Any) -> Any:
    """``scrub``, and the forwarded header values by value (a client's token is a secret in
    every log, as a configured header is), the credential after ``Bearer `` too."""
    vals = sorted(
        {x for v in forwarded.values() for x in (v, v.split(" ", 1)[-1].strip()) if len(x) >= 4},
        key=len,
        reverse=True,
    )

    def both(text: str) -> str:
        for v in vals:
            text = text.replace(v, "***")
        return scrub(text) if scrub is not None else text

    return both
