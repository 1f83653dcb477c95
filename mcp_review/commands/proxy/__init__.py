"""`mcp-review proxy`: a stdio pass-through an MCP client launches in place of the server (a
stdio server it starts, or a remote one it reaches over Streamable HTTP or legacy SSE).

By job: ``target`` resolves what is proxied (NAME, --url, -- CMD),
``remote`` holds a remote server's credentials, ``listen`` starts the HTTP front;
this module is the command's arguments and the wiring of call log, gate and relay."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from mcp_review.commands.proxy.remote import (
    also_scrub,
    live_scrub,
    oauth_tokens,
    upstream_auth,
    with_forwarded,
)
from mcp_review.commands.proxy.target import (  # noqa: F401 - _argv_scrubber: its tests
    USAGE,
    Target,
    _argv_scrubber,
    _safe,
)
from mcp_review.engine.errors import InputError
from mcp_review.engine.verdict import proxy_exit_code


def _server_args(p: argparse.ArgumentParser) -> None:
    """What is proxied and how it is enforced."""
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


def _record_args(p: argparse.ArgumentParser) -> None:
    """The call log, and the limits of what is read and recorded."""
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


def _http_args(p: argparse.ArgumentParser) -> None:
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


def register(p: argparse.ArgumentParser) -> None:
    p.usage = USAGE
    _server_args(p)
    _record_args(p)
    _http_args(p)
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


def run(args: argparse.Namespace) -> int:
    import asyncio

    from mcp_review.commands.proxy.target import resolve

    if args.max_result_bytes is not None and args.max_result_bytes <= 0:
        raise InputError("--max-result-bytes must be a positive number of bytes")
    if args.max_message_bytes is not None and args.max_message_bytes <= 0:
        raise InputError("--max-message-bytes must be a positive number of bytes")
    t = resolve(args)
    # The same path every reader resolves (services.inputs): one log, wherever they run.
    from mcp_review.services.inputs import default_call_log

    t.calls = t.calls or default_call_log(t.state, t.name)
    tokens = None
    if t.remote is not None:
        tokens = oauth_tokens(
            t.name, t.state, bool(getattr(t.remote, "oauth", False)), getattr(t.remote, "url", None)
        )
        if isinstance(tokens, int):
            return tokens
        if tokens is not None:
            # The tokens are secrets in every log, as they change (a refresh) too.
            t.scrub, t.log_scrub = live_scrub(t.scrub, tokens), live_scrub(t.log_scrub, tokens)
    make_calllog = _calllog_factory(args, t)
    calllog = make_calllog()
    if calllog is not None and calllog.seal_problem:
        print(
            f"mcp-review proxy [{t.name}]: recording calls without a seal ("
            f"{calllog.seal_problem}): `rerun` will not re-send them",
            file=sys.stderr,
        )
    gate = _gate(args, t, calllog)
    if args.list_timeout is not None and not args.list_timeout > 0:
        raise InputError("--list-timeout must be a positive number of seconds")
    make_proxy = _proxy_factory(args, t, gate, tokens)
    from mcp_review.services.proxy.heap import keep_heap

    keep_heap()  # large calls reuse the heap's pages instead of faulting in fresh ones
    if args.listen is not None:
        from mcp_review.commands.proxy.listen import serve_http

        if calllog is not None:
            calllog.close()  # each session records through its own (one O_APPEND file)
        forward = bool(t.remote is not None and getattr(t.remote, "forward_authorization", False))
        return serve_http(
            args,
            t.name,
            t.state,
            lambda n, headers: make_proxy(make_calllog(headers), f"{t.name}, session {n}", headers),
            t.scrub,
            forward_authorization=forward,
        )
    proxy = make_proxy(calllog)
    rc = asyncio.run(proxy.run())
    return proxy_exit_code(rc)


def _calllog_factory(args: argparse.Namespace, t: Target) -> Any:
    """``make(forwarded=None)``: the call log a relay records through (None with --no-log);
    a client's forwarded headers are scrubbed from it as secrets."""
    from mcp_review.store.calllog import (
        DEFAULT_MAX_BYTES,
        DEFAULT_MAX_RESULT_BYTES,
        DEFAULT_REDACT,
        CallLog,
    )

    def make(forwarded: Any = None) -> CallLog | None:
        if args.no_log:
            return None
        patterns = [*(() if args.no_default_redact else DEFAULT_REDACT), *args.redact]
        assert t.calls is not None
        try:
            return CallLog(
                t.calls,
                server=t.name,
                principal=t.principal,
                redact=patterns,
                max_bytes=args.max_log_bytes or DEFAULT_MAX_BYTES,
                record_results=t.record_results,
                max_result_bytes=args.max_result_bytes or DEFAULT_MAX_RESULT_BYTES,
                scrub=also_scrub(t.log_scrub, forwarded) if forwarded else t.log_scrub,
            )
        except OSError as e:
            raise InputError(
                f"cannot open the call log: {e.strerror or e}", source=t.calls
            ) from None

    return make


def _gate(args: argparse.Namespace, t: Target, calllog: Any) -> Any:
    """--enforce: the pin file's verdicts (checked now: one that does not parse is a usage
    error, not a failure mid-session); None without it."""
    from mcp_review.services.proxy import PinEnforcer

    if args.require_signed and not args.enforce:
        raise InputError("--require-signed only means something with --enforce")
    if args.withhold_changed and not args.enforce:
        raise InputError("--withhold-changed only means something with --enforce")
    if not args.enforce:
        return None
    gate = PinEnforcer(
        os.path.abspath(t.pins),
        t.name,
        principal=t.principal,
        default_tier=t.tier,
        calls_path=calllog.path if calllog else None,
        hold=not args.withhold_changed,
    )
    if args.require_signed:
        gate.vet = _require_signed(args, t.cfg, os.path.abspath(t.pins))
    gate.check([])
    if not os.path.exists(t.pins):
        print(
            f"mcp-review proxy [{t.name}]: no pin file at {os.path.abspath(t.pins)}: every "
            "tool is new and will be withheld until approved",
            file=sys.stderr,
        )
    return gate


def _proxy_factory(args: argparse.Namespace, t: Target, gate: Any, tokens: Any) -> Any:
    """``make(calllog, label=None, forwarded=None)``: one relay (a stdio server it starts, or
    the remote server over HTTP)."""
    from mcp_review.services.proxy import FETCH_TIMEOUT, Proxy

    server_log = args.server_log or os.path.join(t.state, "logs", f"{_safe(t.name)}.stderr.log")

    def make(log: Any, label: str | None = None, forwarded: Any = None) -> Proxy:
        upstream = None
        remote = t.remote
        if remote is not None:
            from mcp_review.services.proxy.http_upstream import HttpUpstream

            assert remote.url is not None
            upstream = HttpUpstream(
                remote.url,
                # The client's Authorization (forward_authorization = true) replaces the
                # config's: it is this client's identity at the remote server.
                headers=with_forwarded(remote.headers, forwarded or {}),
                transport=remote.transport,
                timeout=remote.timeout,
                label=remote.display_target,
                # A forwarded Authorization is the client's identity: it wins over the token.
                auth=upstream_auth(t.name, tokens)
                if tokens is not None and not forwarded
                else None,
            )
        return Proxy(
            t.argv if remote is None else None,
            upstream=upstream,
            name=t.name,
            env=t.env,
            cwd=t.cwd,
            calllog=log,
            gate=gate,
            mode=args.mode,
            server_log=server_log,
            fetch_timeout=args.list_timeout or t.fetch_timeout or FETCH_TIMEOUT,
            scrub=t.scrub if not forwarded else also_scrub(t.scrub, forwarded),
            label=label,
            record_aside=_aside(log, t, gate) if not forwarded and args.listen is None else None,
            **({"max_line": args.max_message_bytes} if args.max_message_bytes else {}),
        )

    return make


def _aside(log: Any, t: Target, gate: Any) -> Any:
    """Record-only, one relay: what the call log's recorder process needs (None: record in
    this process; services/proxy/recorder.py)."""
    if log is None or gate is not None:
        return None
    from mcp_review.services.proxy.recorder import spec_for

    return spec_for(log, t.log_scrub)


def _require_signed(args: argparse.Namespace, cfg: Any, pins: str) -> Any:
    """``--require-signed``: the check each pin file read goes through (services/signing.py);
    an InputError (the proxy does not start) when the policy or allowed-signers file cannot
    be read."""
    from mcp_review.services import signing

    where = signing.find_policy(getattr(args, "signing_policy", None), cfg, pins)
    if where is None:
        raise InputError(
            "--require-signed: no signing policy (--signing-policy, $MCP_REVIEW_SIGNING_POLICY, "
            f"the config's [signing] policy, or {signing.POLICY_NAME} beside the pin file)"
        )
    return signing.withhold_unsigned(where, pins)
