"""OAuth for remote servers.

``login`` runs the authorisation code flow with PKCE through a loopback redirect: the SDK's
``OAuthClientProvider`` does the discovery (protected resource metadata, authorisation server
metadata), the dynamic client registration, PKCE, ``state`` and the token exchange; this module
gives it a redirect receiver on 127.0.0.1 and a token store (``store.tokens``, 0600).

``StoredTokenAuth`` is what the proxy uses: it sends the stored access token and, when it has
expired (or the server answers 401), refreshes it with the stored refresh token. It never starts
an interactive flow: with no usable token, ``NoUsableToken`` says why, and the proxy says so in
one line and exits 3."""

from __future__ import annotations

import asyncio
import contextlib
import time
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any, TextIO

import anyio

from mcp_review.store.tokens import load_tokens, save_tokens

EARLY = 30.0
"""Seconds before its expiry an access token counts as expired (clocks and round trips)."""
CALLBACK_PATH = "/callback"


class NoUsableToken(Exception):
    """No stored token, or one that expired and could not be refreshed."""


# The token record ----------------------------------------------------------------------------


class FileTokenStorage:
    """The SDK's ``TokenStorage`` over ``store.tokens``. ``fresh``: ``login`` starts over
    (nothing stored is offered to the flow, so it registers and authorises anew)."""

    def __init__(self, path: str, *, server: str, url: str, fresh: bool = False):
        self.path = path
        self.server = server
        self.url = url
        self.fresh = fresh
        self.rec: dict[str, Any] = {"server": server, "url": url}
        if not fresh:
            self.rec.update(load_tokens(path) or {})

    def _save(self) -> None:
        save_tokens(self.path, self.rec)

    async def get_tokens(self) -> Any:
        from mcp.shared.auth import OAuthToken

        t = self.rec.get("tokens")
        return OAuthToken.model_validate(t) if isinstance(t, dict) else None

    async def set_tokens(self, tokens: Any) -> None:
        self.rec["tokens"] = tokens.model_dump(mode="json", exclude_none=True)
        exp = tokens.expires_in
        self.rec["expires_at"] = time.time() + exp if isinstance(exp, int) else None
        self._save()

    async def get_client_info(self) -> Any:
        from mcp.shared.auth import OAuthClientInformationFull

        c = self.rec.get("client")
        return OAuthClientInformationFull.model_validate(c) if isinstance(c, dict) else None

    async def set_client_info(self, client_info: Any) -> None:
        self.rec["client"] = client_info.model_dump(mode="json", exclude_none=True)
        self._save()


# The loopback redirect -----------------------------------------------------------------------


class LoopbackCallback:
    """Receives the browser's redirect (``GET /callback?code=…&state=…``) on 127.0.0.1: one
    answer is taken, anything else is 404. A minimal HTTP/1.1 reader: a head over 16 KiB or
    slower than 10 s is dropped."""

    def __init__(self, port: int = 0):
        self.port = port
        self._server: asyncio.Server | None = None
        self._got: asyncio.Future[dict[str, str]] | None = None

    async def start(self) -> str:
        self._got = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            with anyio.fail_after(10):
                head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError):
            writer.close()
            return
        if len(head) > 16384:
            writer.close()
            return
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        target = parts[1] if len(parts) == 3 and parts[0] == "GET" else ""
        url = urllib.parse.urlsplit(target)
        query = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
        ok = url.path == CALLBACK_PATH and ("code" in query or "error" in query)
        assert self._got is not None
        if ok and not self._got.done():
            self._got.set_result(query)
            text = "mcp-review: authorised. You can close this window.\n"
            status = "200 OK"
        else:
            text = "Not Found\n"
            status = "404 Not Found"
        body = text.encode()
        writer.write(
            f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode()
            + body
        )
        with contextlib.suppress(Exception):
            await writer.drain()
        writer.close()

    async def result(self, timeout: float) -> dict[str, str]:
        assert self._got is not None
        with anyio.fail_after(timeout):
            return await asyncio.shield(self._got)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()


# login ---------------------------------------------------------------------------------------


async def login(
    name: str,
    url: str,
    path: str,
    *,
    headers: Mapping[str, str] | None = None,
    port: int = 0,
    open_browser: bool = True,
    timeout: float = 300.0,
    out: TextIO,
) -> None:
    """Authorise mcp-review at ``url``'s authorisation server and store the tokens at
    ``path``. Raises (``OAuthFlowError``, ``OAuthTokenError``, TimeoutError, …) on failure;
    nothing is stored then but the client registration."""
    import httpx2
    from mcp import Client
    from mcp.client.auth import OAuthClientProvider
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

    cb = LoopbackCallback(port)
    redirect_uri = await cb.start()
    storage = FileTokenStorage(path, server=name, url=url, fresh=True)
    metadata = OAuthClientMetadata(
        client_name="mcp-review",
        redirect_uris=[redirect_uri],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )

    async def redirect(auth_url: str) -> None:
        out.write(
            f"mcp-review login [{name}]: open this address in a browser to authorise "
            f"mcp-review:\n  {auth_url}\n"
        )
        out.flush()
        if open_browser:
            import webbrowser

            with contextlib.suppress(Exception):
                await anyio.to_thread.run_sync(webbrowser.open, auth_url)

    async def callback() -> Any:
        q = await cb.result(timeout)
        if "error" in q:
            from mcp.client.auth import OAuthFlowError

            desc = q.get("error_description", "")
            raise OAuthFlowError(f"the authorisation server said {q['error']!r} {desc!r}")
        return AuthorizationCodeResult(code=q["code"], state=q.get("state"), iss=q.get("iss"))

    provider = OAuthClientProvider(url, metadata, storage, redirect, callback)
    # The config's own Authorization would stand in for the token: the others are kept.
    keep = {k: v for k, v in (headers or {}).items() if k.lower() != "authorization"}
    try:
        async with (
            httpx2.AsyncClient(auth=provider, headers=keep, timeout=30) as http,
            Client(
                streamable_http_client(url, http_client=http),
                mode="legacy",
                cache=None,
                read_timeout_seconds=30,
            ),
        ):
            pass
    finally:
        await cb.close()
    ctx = provider.context
    if not isinstance(storage.rec.get("tokens"), dict):
        raise NoUsableToken("the server accepted the connection without a token")
    asm = ctx.oauth_metadata
    storage.rec["token_endpoint"] = (
        str(asm.token_endpoint)
        if asm is not None and asm.token_endpoint
        else urllib.parse.urljoin(ctx.get_authorization_base_url(url), "/token")
    )
    storage.rec["resource"] = (
        ctx.get_resource_url() if ctx.should_include_resource_param(ctx.protocol_version) else None
    )
    storage.rec["obtained_at"] = time.time()
    storage._save()


# The proxy: refresh only ----------------------------------------------------------------------


def bound_to(url: str) -> str:
    """Where a token is bound: the URL's origin (scheme, host, port) and path, normalised
    (case-folded scheme and host, the default port written out, no query or fragment)."""
    u = urllib.parse.urlsplit(url)
    scheme = u.scheme.lower()
    try:
        port = u.port
    except ValueError:
        port = None
    port = port or {"http": 80, "https": 443}.get(scheme)
    host = (u.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}{u.path or '/'}"


class StoredTokenAuth:
    """An ``httpx2.Auth`` (built by ``make_auth``) that sends the stored access token and
    refreshes it when it has expired or the server answers 401, writing the new tokens back.
    No interactive flow, ever: ``NoUsableToken`` when nothing is usable.

    ``url``: the server's URL now. A token is bound to the URL (origin and path) it was issued
    for (``login`` stores it beside the tokens): for any other, nothing is usable (the config's
    URL changed: log in again), and ``make_auth`` never puts it on a request elsewhere."""

    def __init__(self, path: str, name: str, url: str | None = None):
        self.path = path
        self.name = name
        rec = load_tokens(path)
        if rec is None:
            raise NoUsableToken("no token stored (never logged in)")
        issued = rec.get("url")
        if not isinstance(issued, str) or not issued:
            raise NoUsableToken("the stored token does not say which server it was issued for")
        self.bound = bound_to(issued)
        if url is not None and bound_to(url) != self.bound:
            raise NoUsableToken(
                f"the stored token was issued for {self.bound}, not {bound_to(url)}: the "
                "server's URL changed, so it is not sent there"
            )
        self.rec = rec
        self._lock: anyio.Lock | None = None

    def sends_to(self, url: Any) -> bool:
        """Whether a request to ``url`` may carry the token (its origin and path are the
        ones the token was issued for)."""
        return bound_to(str(url)) == self.bound

    def secrets(self) -> list[str]:
        t = self.rec.get("tokens") or {}
        return [v for k in ("access_token", "refresh_token") if isinstance(v := t.get(k), str)]

    @property
    def access_token(self) -> str | None:
        t = self.rec.get("tokens")
        v = t.get("access_token") if isinstance(t, dict) else None
        return v if isinstance(v, str) and v else None

    def expired(self) -> bool:
        exp = self.rec.get("expires_at")
        return isinstance(exp, (int, float)) and time.time() > exp - EARLY

    async def usable(self) -> str:
        """A token to send now, refreshing first if it has expired; NoUsableToken if none."""
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            if self.access_token is not None and not self.expired():
                return self.access_token
            await self._refresh()
            assert self.access_token is not None
            return self.access_token

    async def _refresh(self) -> None:
        import httpx2

        t = self.rec.get("tokens") or {}
        refresh = t.get("refresh_token")
        endpoint = self.rec.get("token_endpoint")
        client = self.rec.get("client") or {}
        if not isinstance(refresh, str) or not isinstance(endpoint, str):
            raise NoUsableToken("the token expired and there is no refresh token")
        data = {
            "grant_type": "refresh_token",
            "refresh_token": refresh,
            "client_id": str(client.get("client_id", "")),
        }
        if isinstance(self.rec.get("resource"), str):
            data["resource"] = self.rec["resource"]
        auth: Any = None
        secret = client.get("client_secret")
        if isinstance(secret, str):
            if client.get("token_endpoint_auth_method") == "client_secret_basic":
                auth = (data["client_id"], secret)
            else:
                data["client_secret"] = secret
        try:
            async with httpx2.AsyncClient(timeout=30, follow_redirects=False) as http:
                r = await (
                    http.post(endpoint, data=data, auth=auth)
                    if auth is not None
                    else http.post(endpoint, data=data)
                )
        except Exception as e:
            raise NoUsableToken(f"the refresh failed: {type(e).__name__}") from None
        if r.status_code != 200:
            raise NoUsableToken(f"the refresh was refused (HTTP {r.status_code})")
        try:
            new = r.json()
        except ValueError:
            raise NoUsableToken("the refresh answer is not JSON") from None
        if not isinstance(new, dict) or not isinstance(new.get("access_token"), str):
            raise NoUsableToken("the refresh answer has no access token")
        kept = {k: v for k, v in t.items() if k in ("refresh_token", "scope")}
        self.rec["tokens"] = {**kept, **{k: v for k, v in new.items() if v is not None}}
        exp = new.get("expires_in")
        self.rec["expires_at"] = time.time() + exp if isinstance(exp, (int, float)) else None
        save_tokens(self.path, self.rec)


def make_auth(tokens: StoredTokenAuth, on_failure: Callable[[str], None]) -> Any:
    """The ``httpx2.Auth`` the proxy's HTTP upstream uses: the stored token on every request;
    on a 401 one refresh and one retry. ``on_failure`` hears why a refresh failed."""
    import httpx2

    class _Auth(httpx2.Auth):
        async def async_auth_flow(self, request: Any) -> Any:
            if not tokens.sends_to(request.url):
                # Not where the token was issued (a redirect, a changed URL): sent without it
                # (a hop of a redirect copies the headers it was given; a configured header
                # of the user's own stays).
                if request.headers.get("Authorization") in {
                    f"Bearer {s}" for s in tokens.secrets()
                }:
                    del request.headers["Authorization"]
                yield request
                return
            try:
                request.headers["Authorization"] = f"Bearer {await tokens.usable()}"
            except NoUsableToken as e:
                on_failure(str(e))
            response = yield request
            if response.status_code == 401 and tokens.rec.get("tokens"):
                tokens.rec["expires_at"] = 0  # the server says it is no longer good
                try:
                    request.headers["Authorization"] = f"Bearer {await tokens.usable()}"
                except NoUsableToken as e:
                    on_failure(str(e))
                    return
                yield request

    return _Auth()
