"""What `mcp-review proxy` relays to (the proxy by job): a configured server
NAME, ``--url URL`` or ``-- CMD ARGS…`` resolved into one ``Target`` (its command or remote
config, environment, principal, policy tier, call log, pin file, state directory and the
scrubbers for its secrets), with the usage errors of each form."""

from __future__ import annotations

import argparse
import os
import re
from dataclasses import dataclass
from typing import Any

from mcp_review.engine.errors import InputError
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


@dataclass
class Target:
    """The server the proxy stands in for, and where its records go."""

    name: str
    state: str
    pins: str
    scrub: Any
    """The proxy's log scrubber: every secret the server was given, by value."""
    log_scrub: Any
    """The call log's: only what is known to be a secret."""
    argv: list[str] | None = None
    remote: Any = None
    """The ``ServerConfig`` of a server reached over HTTP."""
    cfg: Any = None
    """The config, when a configured server is proxied."""
    env: dict[str, str] | None = None
    cwd: str | None = None
    principal: str = "default"
    tier: Any = None
    fetch_timeout: float | None = None
    calls: str | None = None
    record_results: bool = False


def resolve(args: argparse.Namespace) -> Target:
    """The target ``args`` name: ``--url``, ``-- CMD ARGS…`` or a configured NAME."""
    argv = getattr(args, "proxy_argv", None)
    if args.url is not None:
        return _remote_url(args, argv)
    if args.header:
        raise InputError("--header goes with --url (a configured server takes `headers`)")
    if argv is not None:
        return _command(args, argv)
    return _configured(args)


def _remote_url(args: argparse.Namespace, argv: list[str] | None) -> Target:
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
    return Target(
        name,
        state=user_state_dir(),
        pins=args.pins or "mcp-pins.toml",
        scrub=_scrubber(remote),
        log_scrub=secrets_scrubber(remote),
        remote=remote,
        principal=args.principal or "default",
        calls=args.log,
        record_results=args.record_results,
    )


def _command(args: argparse.Namespace, argv: list[str]) -> Target:
    if args.name:
        raise InputError("give either a configured server NAME or `-- CMD ARGS…`, not both")
    if not argv:
        raise InputError("no server command after `--`")
    name = args.server_name or _guess_name(argv)
    return Target(
        name,
        state=user_state_dir(),
        pins=args.pins or "mcp-pins.toml",
        scrub=_argv_scrubber(name, argv),
        log_scrub=_argv_log_scrubber(name, argv),
        argv=argv,
        principal=args.principal or "default",
        calls=args.log,
        record_results=args.record_results,
    )


def _configured(args: argparse.Namespace) -> Target:
    if not args.name:
        raise InputError(f"a server NAME or `-- CMD ARGS…` is needed\nusage: {USAGE}")
    from mcp_review.services.config import load_config, secrets_scrubber

    # The client launches the proxy from its own config: no trust gate.
    cfg = load_config(args.config, require_trust=False)
    srv = cfg.named(args.name)
    if srv.target is not None or (srv.command is None and srv.url is None):
        raise InputError(f"server {args.name!r} has neither a command nor a url", source=cfg.source)
    name = srv.name
    argv = None
    if srv.url is None:
        assert srv.command is not None
        argv = [srv.command, *srv.args]
    if argv is not None and _launches_proxy(argv):
        # An mcp.json already rewritten to use the proxy: following it would recurse.
        raise InputError(
            f"server {name!r} in this config already runs `mcp-review proxy`; "
            "point --config at the file with the real command",
            source=cfg.source,
        )
    cfg_dir = os.path.dirname(os.path.abspath(cfg.source)) if cfg.source else os.getcwd()
    return Target(
        name,
        state=cfg.state_dir or user_state_dir(),
        pins=args.pins or getattr(cfg, "pins", None) or os.path.join(cfg_dir, "mcp-pins.toml"),
        scrub=_scrubber(srv),
        log_scrub=secrets_scrubber(srv),
        argv=argv,
        remote=srv if srv.url is not None else None,
        cfg=cfg,
        # The server sees what the proxy was given plus the config's env, as a direct launch
        # would.
        env={**os.environ, **srv.env} if srv.env else None,
        cwd=srv.cwd,
        principal=args.principal or srv.principal,
        tier=srv.policy,
        fetch_timeout=srv.timeout,
        calls=args.log or srv.calls,
        record_results=args.record_results or srv.record_results,
    )


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
