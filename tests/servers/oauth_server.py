"""A real MCP server behind OAuth on 127.0.0.1, for `mcp-review login` and the proxy's refresh:
the SDK's MCPServer with its authorisation server routes (``mcp.server.auth``: metadata,
/register, /authorize, /token, protected resource metadata, the bearer check on /mcp) over an
in-memory provider. /authorize approves at once (no person to ask): it redirects to the
client's loopback address with the code, as a browser would be sent there.

The test can expire every access token (``expire_all``), revoke the refresh tokens
(``revoke_refresh``), and read what was issued (``issued``) and how many refreshes ran."""

from __future__ import annotations

import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class MemoryAuthProvider:
    def __init__(self, lifetime: int = 3600):
        self.lifetime = lifetime
        self.clients: dict[str, Any] = {}
        self.codes: dict[str, Any] = {}
        self.access: dict[str, Any] = {}
        self.refresh: dict[str, Any] = {}
        self.issued: list[str] = []
        self.refreshes = 0
        self.authorize_params: list[Any] = []

    async def get_client(self, client_id: str) -> Any:
        return self.clients.get(client_id)

    async def register_client(self, client_info: Any) -> None:
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: Any, params: Any) -> str:
        from mcp.server.auth.provider import AuthorizationCode, construct_redirect_uri

        self.authorize_params.append(params)
        code = secrets.token_urlsafe(24)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: Any, authorization_code: str) -> Any:
        return self.codes.get(authorization_code)

    def _tokens(self, client_id: str, scopes: list[str], resource: str | None) -> Any:
        from mcp.server.auth.provider import AccessToken, RefreshToken
        from mcp.shared.auth import OAuthToken

        at, rt = "at-" + secrets.token_urlsafe(24), "rt-" + secrets.token_urlsafe(24)
        exp = int(time.time()) + self.lifetime
        self.access[at] = AccessToken(
            token=at, client_id=client_id, scopes=scopes, expires_at=exp, resource=resource
        )
        self.refresh[rt] = RefreshToken(
            token=rt, client_id=client_id, scopes=scopes, resource=resource
        )
        self.issued += [at, rt]
        return OAuthToken(
            access_token=at,
            expires_in=self.lifetime,
            refresh_token=rt,
            scope=" ".join(scopes) or None,
        )

    async def exchange_authorization_code(self, client: Any, authorization_code: Any) -> Any:
        self.codes.pop(authorization_code.code, None)
        return self._tokens(
            client.client_id, authorization_code.scopes, authorization_code.resource
        )

    async def load_refresh_token(self, client: Any, refresh_token: str) -> Any:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: Any, refresh_token: Any, scopes: list[str]
    ) -> Any:
        self.refreshes += 1
        self.refresh.pop(refresh_token.token, None)  # rotated
        return self._tokens(
            client.client_id, scopes or refresh_token.scopes, refresh_token.resource
        )

    async def load_access_token(self, token: str) -> Any:
        t = self.access.get(token)
        if t is None or (t.expires_at is not None and t.expires_at < time.time()):
            return None
        return t

    async def revoke_token(self, token: Any) -> None:
        self.access.pop(getattr(token, "token", ""), None)
        self.refresh.pop(getattr(token, "token", ""), None)

    def expire_all(self) -> None:
        for t in self.access.values():
            t.expires_at = int(time.time()) - 10

    def revoke_refresh(self) -> None:
        self.refresh.clear()


@contextmanager
def oauth_server(
    tools: list[str] = ("echo",),
) -> Iterator[tuple[MemoryAuthProvider, str, list[Any]]]:
    """(provider, the MCP endpoint URL, the calls the server ran)."""
    import uvicorn
    from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
    from mcp.server.mcpserver import MCPServer

    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    provider = MemoryAuthProvider()
    ran: list[Any] = []
    srv = MCPServer(
        "oauth-test",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=base,
            resource_server_url=f"{base}/mcp",
            client_registration_options=ClientRegistrationOptions(enabled=True),
            validate_token_resource=False,
        ),
    )

    @srv.tool()
    def echo(a: int) -> str:
        """echo a"""
        ran.append({"tool": "echo", "arguments": {"a": a}})
        return str(a)

    server = uvicorn.Server(uvicorn.Config(srv.streamable_http_app(), log_level="critical"))
    th = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    th.start()
    deadline = time.monotonic() + 120  # never waited out: generous on a loaded machine
    while not server.started:
        if time.monotonic() > deadline or not th.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield provider, f"{base}/mcp", ran
    finally:
        server.should_exit = True
        th.join(5)
