"""`mcp-review proxy`: a stdio pass-through an MCP client launches in place of the server (a
stdio server it starts, or a remote one it reaches over Streamable HTTP or legacy SSE)."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.verdict import proxy_exit_code
from mcp_review.store.files import user_state_dir

USAGE = (
    "mcp-review proxy NAME [--config FILE] [--pins FILE] [--enforce [--withhold-changed]] "
    "[--mode withhold|mark] "
    "[--log FILE] [--record-results] [--list-timeout SECONDS] [--listen HOST:PORT]\n"
    "       mcp-review proxy [--name NAME] [--pins FILE] [--enforce] [--log FILE] "
    "[--listen HOST:PORT] -- CMD ARGS…\n"
    "       mcp-review proxy --url URL [--header 'K: V']… --name NAME [--pins FILE] [--enforce] "
    "[--listen HOST:PORT]"
)


def register(p: argparse.ArgumentParser) -> None:
    p.usage = USAGE
    p.add_argument(
        "name",
        metavar="NAME",
        nargs="?",
        help="a server from the config; or give the command after `--`",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="mcp-review.toml or an mcp.json (default: discovered in the cwd)",
    )
    p.add_argument(
        "--name",
        dest="server_name",
        metavar="NAME",
        help="the server's local name with `-- CMD` (default: the command's name)",
    )
    p.add_argument(
        "--url",
        metavar="URL",
        help="a remote server not in a config, reached over Streamable HTTP (needs --name)",
    )
    p.add_argument(
        "--header",
        metavar="'K: V'",
        action="append",
        default=[],
        help="with --url: an HTTP header for every request (repeatable); ${env:VAR} or ${VAR} "
        "in the value is read from the environment, so a token stays out of the command line",
    )
    p.add_argument(
        "--transport",
        choices=("http", "sse"),
        default="http",
        help="with --url: Streamable HTTP (default) or the legacy SSE transport",
    )
    p.add_argument(
        "--max-message-bytes",
        type=int,
        default=None,
        metavar="N",
        help="drop (and log) a server message longer than N bytes (default 256 MiB)",
    )
    p.add_argument(
        "--principal", help="authorization context of the pins (default: config's, else 'default')"
    )
    p.add_argument(
        "--pins",
        metavar="FILE",
        help="pin file (default: the config's `pins`, else mcp-pins.toml beside "
        "the config, else in the cwd)",
    )
    p.add_argument(
        "--enforce",
        action="store_true",
        help="withhold tools that are denied, new, or changed beyond what their tier "
        "auto-approves, and refuse calls to them; a change that is only text, a claim of "
        "less power or a compatible input change is held: the approved definition is "
        "served and calls are checked against it",
    )
    p.add_argument(
        "--require-signed",
        action="store_true",
        help="with --enforce: withhold every tool whose decision's signatures do not verify "
        "under the signing policy; refuse to start when the policy or its "
        "allowed-signers file cannot be read",
    )
    p.add_argument(
        "--signing-policy",
        metavar="FILE",
        default=None,
        help="with --require-signed: the signing policy (default: $MCP_REVIEW_SIGNING_POLICY, "
        "the config's [signing] policy, else mcp-review-signing.toml beside the pin file)",
    )
    p.add_argument(
        "--withhold-changed",
        action="store_true",
        help="with --enforce: hold nothing; withhold every change the tier does not "
        "auto-approve (the behaviour before holding)",
    )
    p.add_argument(
        "--mode",
        choices=("withhold", "mark"),
        default="withhold",
        help="with --enforce: drop such tools from tools/list (withhold) or list them "
        "with a warning in their description (mark); calls are refused either way",
    )
    p.add_argument(
        "--log",
        metavar="FILE",
        help="call log (default: the config's `calls`, else <state dir>/calls/NAME.jsonl)",
    )
    p.add_argument("--no-log", action="store_true", help="do not record calls")
    p.add_argument(
        "--record-results",
        action="store_true",
        help="also record each call's result, to <log>.results.jsonl (the config's "
        "`record_results = true` does the same per server)",
    )
    p.add_argument(
        "--max-result-bytes",
        type=int,
        default=None,
        metavar="N",
        help="a result larger than N bytes of JSON keeps its digest and first N "
        "bytes only (default 256 KiB)",
    )
    p.add_argument(
        "--redact",
        metavar="REGEX",
        action="append",
        default=[],
        help="also redact argument keys matching REGEX (repeatable; matched "
        "case-insensitively against the key with separators removed)",
    )
    p.add_argument(
        "--no-default-redact",
        action="store_true",
        help="drop the default patterns (token, password, secret, api_key, ...)",
    )
    p.add_argument(
        "--max-log-bytes",
        type=int,
        default=None,
        metavar="N",
        help="rotate the call log at N bytes (default 10 MiB; 3 backups kept)",
    )
    p.add_argument(
        "--list-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --enforce: how long to wait for the server's tools/list when the "
        "proxy fetches it itself to judge a call (default: the config's "
        "`timeout`, else 30)",
    )
    p.add_argument(
        "--server-log",
        metavar="FILE",
        help="where the server's stderr goes (default: <state dir>/logs/NAME.stderr.log)",
    )
    http = p.add_argument_group("HTTP front (serve Streamable HTTP to clients that take a URL)")
    http.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help="serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio; each client "
        "session gets its own server (loopback only without --listen-any; port 0 picks one)",
    )
    http.add_argument(
        "--listen-any",
        action="store_true",
        help="allow --listen on an address that is not loopback",
    )
    http.add_argument(
        "--token-file",
        metavar="FILE",
        help="where the per-run bearer token is written, 0600 (default: "
        "<state dir>/proxy/NAME.token)",
    )
    http.add_argument(
        "--max-sessions",
        type=int,
        default=None,
        metavar="N",
        help="client sessions at once (default 16); more are answered 503",
    )
    http.add_argument(
        "--max-body",
        type=int,
        default=None,
        metavar="BYTES",
        help="largest POST body (default 4 MiB); larger ones are answered 413",
    )
    http.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="close a connection whose request head takes longer (default 10)",
    )
    http.add_argument(
        "--body-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="close a connection whose request body takes longer once its head is in (default 30)",
    )
    http.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="open connections at once (default 256); past it the oldest that showed no "
        "token is closed",
    )
    http.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="end a session after this long without a request (default 1800)",
    )
    # Everything after `--` is the server command; argparse would otherwise parse its flags.
    orig = p.parse_known_args

    def parse_known_args(args: Any = None, namespace: Any = None) -> Any:
        args = list(args or [])
        cmd = None
        if "--" in args:
            i = args.index("--")
            args, cmd = args[:i], args[i + 1 :]
        ns, extras = orig(args, namespace)
        ns.proxy_argv = cmd
        return ns, extras

    p.parse_known_args = parse_known_args  # type: ignore[method-assign]


_LAUNCHERS = {
    "python",
    "python3",
    "node",
    "npx",
    "uvx",
    "uv",
    "bunx",
    "bun",
    "deno",
    "pipx",
    "docker",
    "run",
    "exec",
    "tool",
}


def _guess_name(argv: list[str]) -> str:
    """A readable server name from a command: the package or script, not the interpreter
    (``npx -y @scope/server-x@1`` -> ``server-x``, ``python srv.py`` -> ``srv``)."""
    for a in argv:
        base = os.path.basename(a.rstrip("/"))
        stem = base.split("@")[0] if not base.startswith("@") else base
        if a.startswith("-") or stem.lower().rstrip("0123456789.") in _LAUNCHERS or not stem:
            continue
        return os.path.splitext(stem)[0] if stem.endswith((".py", ".js", ".mjs", ".ts")) else stem
    return os.path.basename(argv[0]) or "server"


def _launches_proxy(argv: list[str]) -> bool:
    words = [os.path.basename(a) for a in argv[:4]]
    return "proxy" in argv[1:4] and ("mcp-review" in words or "mcp_review" in argv[:4])


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "server"


def _argv_scrubber(name: str, argv: list[str]) -> Any:
    """The secrets of a server launched as ``-- CMD ARGS…``, scrubbed from the proxy's log.

    The client's config put them in the arguments (``--api-key X``) or in the environment the
    proxy inherited (``GITHUB_TOKEN``); which of them is a secret is not written anywhere, so:
    every argument but flags and paths that exist, and every environment value whose name reads
    as a secret (the call log's key patterns: ``*_TOKEN``, ``API_KEY``, ``*_PASSWORD`` …), plus
    secrets in unmistakable formats (``ghp_…``, JWTs, URL passwords) in any line."""
    from mcp_review.services.config import ServerConfig
    from mcp_review.store.calllog import Redactor

    red = Redactor()
    # `--api-key=X` carries its value after the `=`; a bare flag is not a secret.
    vals = [a.split("=", 1)[1] if a.startswith("-") and "=" in a else a for a in argv[1:]]
    words = tuple(v for v in vals if not v.startswith("-") and not os.path.exists(v))
    # PWD/OLDPWD read as "pwd" (a password) to the key patterns, but are the shell's cwd.
    env = {k: v for k, v in os.environ.items() if red.secret_key(k) and k not in ("PWD", "OLDPWD")}
    return _scrubber(
        ServerConfig(name, command=argv[0], args=tuple(argv[1:]), env=env, expanded=words)
    )


def _argv_log_scrubber(name: str, argv: list[str]) -> Any:
    """The call log's secrets for ``-- CMD ARGS…``: only what is known to be one, the value of
    a secret-named flag (``--api-key X``, ``--token=X``) and every environment value whose
    name reads as a secret. (The proxy's own log scrubs every argument; the call log keeps
    package names and other arguments, which a recorded call may legitimately contain.)"""
    from mcp_review.services.config import ServerConfig, secrets_scrubber
    from mcp_review.store.calllog import Redactor

    red = Redactor()
    vals: list[str] = []
    for i, a in enumerate(argv[1:], 1):
        if not a.startswith("-"):
            continue
        flag, eq, val = a.lstrip("-").partition("=")
        if flag and red.secret_key(flag):
            if eq:
                vals.append(val)
            elif i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                vals.append(argv[i + 1])
    env = {k: v for k, v in os.environ.items() if red.secret_key(k) and k not in ("PWD", "OLDPWD")}
    return secrets_scrubber(ServerConfig(name, command=argv[0], env=env, expanded=tuple(vals)))


def _scrubber(srv: Any) -> Any:
    """``srv``'s secrets by value (``ServerConfig.scrub``), then secrets in unmistakable
    formats, as the call log redacts them."""
    from mcp_review.store.calllog import Redactor

    red = Redactor()
    return lambda text: red.scrub_text(srv.scrub(text))


_VAR = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")


def _headers(specs: list[str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """``--header 'K: V'`` values, ``${env:VAR}`` expanded; also what the variables expanded to
    (secrets to scrub like the values themselves)."""
    out: dict[str, str] = {}
    expanded: list[str] = []
    for spec in specs:
        key, colon, value = spec.partition(":")
        key, value = key.strip(), value.strip()
        if not colon or not key or not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", key):
            raise InputError("--header takes 'Name: value' (a header name, a colon, a value)")

        def var(m: re.Match[str], key: str = key) -> str:
            v = os.environ.get(m.group(1))
            if v is None:
                raise InputError(f"--header {key}: ${{{m.group(1)}}} is not set in the environment")
            expanded.append(v)
            return v

        value = _VAR.sub(var, value)
        if any(c in value for c in "\r\n\0"):
            raise InputError(f"--header {key}: a value cannot hold a line break")
        out[key] = value
    return out, tuple(expanded)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from mcp_review.services.proxy import FETCH_TIMEOUT, PinEnforcer, Proxy
    from mcp_review.store.calllog import (
        DEFAULT_MAX_BYTES,
        DEFAULT_MAX_RESULT_BYTES,
        DEFAULT_REDACT,
        CallLog,
    )

    if args.max_result_bytes is not None and args.max_result_bytes <= 0:
        raise InputError("--max-result-bytes must be a positive number of bytes")
    argv = getattr(args, "proxy_argv", None)
    env: dict[str, str] | None = None
    cwd = None
    principal = args.principal or "default"
    tier = None
    fetch_timeout = None
    calls = args.log
    scrub = None
    record_results = args.record_results
    remote = None  # the ServerConfig of a server reached over HTTP
    cfg: Any = None  # the config, when a configured server is proxied
    if args.max_message_bytes is not None and args.max_message_bytes <= 0:
        raise InputError("--max-message-bytes must be a positive number of bytes")
    if args.url is not None:
        from mcp_review.services.config import ServerConfig, secrets_scrubber

        if args.name or argv is not None:
            raise InputError("give one of a configured server NAME, --url URL or `-- CMD ARGS…`")
        if not args.server_name:
            raise InputError("--url needs --name NAME (the key of its pins and of its call log)")
        if not re.match(r"^https?://[^/?#\s]+", args.url):
            raise InputError("--url must start with http:// or https:// and name a host")
        headers, expanded = _headers(args.header)
        name = args.server_name
        remote = ServerConfig(
            name, transport=args.transport, url=args.url, headers=headers, expanded=expanded
        )
        scrub = _scrubber(remote)
        log_scrub = secrets_scrubber(remote)
        state = user_state_dir()
        pins = args.pins or "mcp-pins.toml"
    elif args.header:
        raise InputError("--header goes with --url (a configured server takes `headers`)")
    elif argv is not None:
        if args.name:
            raise InputError("give either a configured server NAME or `-- CMD ARGS…`, not both")
        if not argv:
            raise InputError("no server command after `--`")
        name = args.server_name or _guess_name(argv)
        scrub = _argv_scrubber(name, argv)
        log_scrub = _argv_log_scrubber(name, argv)
        state = user_state_dir()
        pins = args.pins or "mcp-pins.toml"
    else:
        if not args.name:
            raise InputError(f"a server NAME or `-- CMD ARGS…` is needed\nusage: {USAGE}")
        from mcp_review.services.config import load_config, secrets_scrubber

        # The client launches the proxy from its own config: no trust gate.
        cfg = load_config(args.config, require_trust=False)
        srv = cfg.named(args.name)
        if srv.target is not None or (srv.command is None and srv.url is None):
            raise InputError(
                f"server {args.name!r} has neither a command nor a url", source=cfg.source
            )
        name = srv.name
        if srv.url is not None:
            remote = srv
        else:
            assert srv.command is not None
            argv = [srv.command, *srv.args]
        if argv is not None and _launches_proxy(argv):
            # An mcp.json already rewritten to use the proxy: following it would recurse.
            raise InputError(
                f"server {name!r} in this config already runs `mcp-review proxy`; "
                "point --config at the file with the real command",
                source=cfg.source,
            )
        # The server sees what the proxy was given plus the config's env, as a direct launch would.
        env = {**os.environ, **srv.env} if srv.env else None
        cwd = srv.cwd
        principal = args.principal or srv.principal
        tier = srv.policy
        fetch_timeout = srv.timeout
        scrub = _scrubber(srv)
        log_scrub = secrets_scrubber(srv)
        calls = calls or srv.calls
        record_results = record_results or srv.record_results
        state = cfg.state_dir or user_state_dir()
        cfg_dir = os.path.dirname(os.path.abspath(cfg.source)) if cfg.source else os.getcwd()
        pins = args.pins or getattr(cfg, "pins", None) or os.path.join(cfg_dir, "mcp-pins.toml")
    fname = _safe(name)
    # The same path every reader resolves (services.inputs): one log, wherever they run.
    from mcp_review.services.inputs import default_call_log

    calls = calls or default_call_log(state, name)
    server_log = args.server_log or os.path.join(state, "logs", f"{fname}.stderr.log")
    tokens = None
    if remote is not None:
        tokens = _oauth_tokens(
            name, state, bool(getattr(remote, "oauth", False)), getattr(remote, "url", None)
        )
        if isinstance(tokens, int):
            return tokens
        if tokens is not None:
            # The tokens are secrets in every log, as they change (a refresh) too.
            scrub, log_scrub = _live_scrub(scrub, tokens), _live_scrub(log_scrub, tokens)

    def make_calllog(forwarded: Any = None) -> CallLog | None:
        if args.no_log:
            return None
        patterns = [*(() if args.no_default_redact else DEFAULT_REDACT), *args.redact]
        try:
            return CallLog(
                calls,
                server=name,
                principal=principal,
                redact=patterns,
                max_bytes=args.max_log_bytes or DEFAULT_MAX_BYTES,
                record_results=record_results,
                max_result_bytes=args.max_result_bytes or DEFAULT_MAX_RESULT_BYTES,
                scrub=_also_scrub(log_scrub, forwarded) if forwarded else log_scrub,
            )
        except OSError as e:
            raise InputError(f"cannot open the call log: {e.strerror or e}", source=calls) from None

    calllog = make_calllog()
    if calllog is not None and calllog.seal_problem:
        print(
            f"mcp-review proxy [{name}]: recording calls without a seal ("
            f"{calllog.seal_problem}): `rerun` will not re-send them",
            file=sys.stderr,
        )
    if args.require_signed and not args.enforce:
        raise InputError("--require-signed only means something with --enforce")
    if args.withhold_changed and not args.enforce:
        raise InputError("--withhold-changed only means something with --enforce")
    gate = None
    if args.enforce:
        gate = PinEnforcer(
            os.path.abspath(pins),
            name,
            principal=principal,
            default_tier=tier,
            calls_path=calllog.path if calllog else None,
            hold=not args.withhold_changed,
        )
        if args.require_signed:
            gate.vet = _require_signed(args, cfg, os.path.abspath(pins))
        gate.check([])  # a pin file that does not parse is a usage error now, not mid-session
        if not os.path.exists(pins):
            print(
                f"mcp-review proxy [{name}]: no pin file at {os.path.abspath(pins)}: every "
                "tool is new and will be withheld until approved",
                file=sys.stderr,
            )
    if args.list_timeout is not None and not args.list_timeout > 0:
        raise InputError("--list-timeout must be a positive number of seconds")

    def make_proxy(log: CallLog | None, label: str | None = None, forwarded: Any = None) -> Proxy:
        upstream = None
        if remote is not None:
            from mcp_review.services.proxy.http_upstream import HttpUpstream

            assert remote.url is not None
            upstream = HttpUpstream(
                remote.url,
                # The client's Authorization (forward_authorization = true) replaces the
                # config's: it is this client's identity at the remote server.
                headers=_with_forwarded(remote.headers, forwarded or {}),
                transport=remote.transport,
                timeout=remote.timeout,
                label=remote.display_target,
                # A forwarded Authorization is the client's identity: it wins over the token.
                auth=_upstream_auth(name, tokens) if tokens is not None and not forwarded else None,
            )
        return Proxy(
            argv if remote is None else None,
            upstream=upstream,
            name=name,
            env=env,
            cwd=cwd,
            calllog=log,
            gate=gate,
            mode=args.mode,
            server_log=server_log,
            fetch_timeout=args.list_timeout or fetch_timeout or FETCH_TIMEOUT,
            scrub=scrub if not forwarded else _also_scrub(scrub, forwarded),
            label=label,
            **({"max_line": args.max_message_bytes} if args.max_message_bytes else {}),
        )

    if args.listen is not None:
        if calllog is not None:
            calllog.close()  # each session records through its own (one O_APPEND file)
        forward = bool(remote is not None and getattr(remote, "forward_authorization", False))
        return _serve_http(
            args,
            name,
            state,
            lambda n, headers: make_proxy(make_calllog(headers), f"{name}, session {n}", headers),
            scrub,
            forward_authorization=forward,
        )
    proxy = make_proxy(calllog)
    rc = asyncio.run(proxy.run())
    return proxy_exit_code(rc)


def _oauth_tokens(name: str, state: str, required: bool, url: str | None) -> Any:
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


def _upstream_auth(name: str, tokens: Any) -> Any:
    from mcp_review.services.oauth import make_auth

    def failed(why: str) -> None:
        print(
            f"mcp-review proxy [{name}]: no usable OAuth token for server '{name}' ({why}): "
            f"run `mcp-review login {name}`",
            file=sys.stderr,
            flush=True,
        )

    return make_auth(tokens, failed)


def _live_scrub(scrub: Any, tokens: Any) -> Any:
    """``scrub``, and the OAuth tokens held now (a refresh replaces them) by value."""

    def both(text: str) -> str:
        for v in tokens.secrets():
            if len(v) >= 4:
                text = text.replace(v, "***")
        return scrub(text) if scrub is not None else text

    return both


def _with_forwarded(headers: Any, forwarded: Any) -> dict[str, str]:
    """The config's headers with the client's forwarded ones in place of any of the same name
    (case-insensitively: ``authorization`` from the config gives way to the client's)."""
    low = {k.lower() for k in forwarded}
    return {**{k: v for k, v in headers.items() if k.lower() not in low}, **forwarded}


def _also_scrub(scrub: Any, forwarded: Any) -> Any:
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


def _serve_http(
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


def _require_signed(args: argparse.Namespace, cfg: Any, pins: str) -> Any:
    """``--require-signed``: the check each pin file read goes through (services/signing.py);
    an InputError (the proxy does not start) when the policy or allowed-signers file cannot
    be read."""
    from mcp_review.services import signing

    where = signing.policy_path(args, cfg, pins)
    if where is None:
        raise InputError(
            "--require-signed: no signing policy (--signing-policy, $MCP_REVIEW_SIGNING_POLICY, "
            f"the config's [signing] policy, or {signing.POLICY_NAME} beside the pin file)"
        )
    return signing.withhold_unsigned(where, pins)
