"""The config model (ServerConfig, Config), secret redaction, and one server entry's parsing
(``server_from``), shared by the config file reader (services/config.py) and ``--config auto``
(services/discover.py). Kept apart from config.py so discover.py imports these without
importing config.py, which imports discover.py for ``--config auto``: no import circle."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.surfaces import DEFAULT_RESOURCE_LIMIT

if TYPE_CHECKING:
    from mcp_review.engine.hosts import HostsConfig
    from mcp_review.engine.rulesconfig import RulesConfig

DEFAULT_TIMEOUT = 30.0
DEFAULT_CONCURRENCY = 32
DEFAULT_MAX_TOOLS = 2000
DEFAULT_MAX_PAGES = 200

DISCOVERY_ORDER = ("mcp-review.toml", ".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")
"""Where `--config` is looked for when not given, first match wins."""

CLIENT_CONFIGS = (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")
"""Client config files a cloned repository may carry: discovered, they are run only once trusted
(``mcp-review trust``) or when named with ``--config`` (see :func:`discover_config`)."""

MIN_SECRET = 6
"""Shorter values are not scrubbed from messages: "on", "1", "dev" would mangle every word."""

MIN_FRAGMENT = 8
"""A run of this many characters of a secret is scrubbed even when the rest was cut away."""

COMMON_VALUES = frozenset(
    {
        "true",
        "false",
        "yes",
        "no",
        "none",
        "null",
        "enabled",
        "disabled",
        "default",
        "production",
        "development",
        "staging",
        "testing",
        "localhost",
        "127.0.0.1",
        "0.0.0.0",
        "verbose",
        "warning",
        "error",
        "debug",
        "info",
        "stdio",
        "stderr",
        "stdout",
        "http",
        "https",
    }
)
"""Values never scrubbed however they were written (ordinary words and hosts of a config)."""

TRANSPORTS = ("stdio", "http", "sse")
MODES = ("auto", "legacy")


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """One server to connect to, with variables already expanded.

    ``env`` values and ``headers`` hold secrets (tokens): ``__repr__`` redacts them, and nothing
    in mcp-review writes them anywhere (snapshots and pins store the local name only).
    """

    name: str
    transport: str = "stdio"
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    principal: str = "default"
    policy: str | None = None
    calls: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    mode: str = "auto"
    source: str | None = None
    target: Any = None
    """An in-process ``Server``/``MCPServer`` (tests, the demo); never read from a file."""
    record_results: bool = False
    """``record_results = true``: the proxy also records each call's result (for ``rerun``)."""
    oauth: bool = False
    """``oauth = true`` (url servers): the proxy needs the token ``mcp-review login NAME``
    stored, and exits 3 without a usable one. (A stored token is used with or without it.)"""
    token_file: str | None = None
    """Where ``mcp-review login`` keeps this url server's OAuth tokens (``<state_dir>/oauth/
    NAME.json``, set by ``load_config``); fetching uses them when the file exists."""
    forward_authorization: bool = False
    """``forward_authorization = true`` (url servers): the proxy's HTTP front passes each
    client's ``Authorization`` to this server (its own token then comes in
    ``X-MCP-Review-Token``). Off: a client's ``Authorization`` never leaves the proxy."""
    rerun_ignore: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per tool, result pointers ``rerun`` ignores (``[servers.X.tools.T] rerun_ignore``)."""
    expanded: tuple[str, ...] = ()
    """Every value a ``${VAR}`` expanded to, in any field (command, args, env, cwd, url,
    headers, calls): scrubbed from every message like env and header values."""
    candidate: ServerConfig | None = None
    """``[servers.NAME.candidate]``: the version an upgrade would switch to, under the same
    name and principal (so approvals made while previewing it land where the switched config
    looks). Run only with ``--candidate`` (services/inputs.py)."""

    def __repr__(self) -> str:
        parts = [f"name={self.name!r}", f"transport={self.transport!r}"]
        if self.target is not None:
            parts.append("target=<in-process>")
        if self.command is not None:
            parts.append(f"command={self.scrub(self.command)!r}")
        if self.args:
            # args may carry a token (`--api-key X`): show the count, not the text.
            parts.append(f"args=<{len(self.args)} redacted>")
        if self.env:
            parts.append("env={" + ", ".join(f"{k!r}: '***'" for k in sorted(self.env)) + "}")
        if self.url is not None:
            parts.append(f"url={redact_url(self.url)!r}")
        if self.headers:
            parts.append(
                "headers={" + ", ".join(f"{k!r}: '***'" for k in sorted(self.headers)) + "}"
            )
        parts.append(f"principal={self.principal!r}")
        parts.append(f"timeout={self.timeout!r}")
        return f"ServerConfig({', '.join(parts)})"

    __str__ = __repr__

    @property
    def secrets(self) -> list[str]:
        """Values that must never appear in output, longest first: every env and header value,
        every value a ``${VAR}`` expanded to (in command, args, url … too), a header's token
        after its scheme (``Bearer abc`` → ``abc``), and a URL's password and query values.
        Values shorter than :data:`MIN_SECRET` and :data:`COMMON_VALUES` are left out."""
        vals = [*self.env.values(), *self.headers.values(), *self.expanded]
        for v in list(self.headers.values()):
            # "Bearer abc" -> also scrub "abc" on its own.
            if " " in v:
                vals.append(v.split(" ", 1)[1])
        if self.url is not None:
            vals.extend(_url_secrets(self.url))
        out = {v for v in vals if _secret_like(v)}
        return sorted(out, key=lambda v: (-len(v), v))

    def scrub(self, text: str) -> str:
        """``text`` with every secret replaced by ``***``, also in its ``repr`` and JSON-escaped
        forms (a message quoting a value escapes it), and then every run of
        :data:`MIN_FRAGMENT` or more characters of a secret: a library that shortened the
        secret before we saw it (pydantic quotes ``'AAAA...t-9f4c1a7e'``) leaves a fragment no
        whole-value match finds. mcp-review itself scrubs before it cuts anything."""
        secrets = self.secrets
        for s in secrets:
            for form in dict.fromkeys((s, repr(s)[1:-1], json.dumps(s)[1:-1])):
                text = text.replace(form, "***")
        for s in secrets:
            if len(s) >= MIN_FRAGMENT:
                text = _scrub_fragments(text, s)
        return text

    @property
    def display_target(self) -> str:
        """A secret-free one-line description of where the server is."""
        if self.target is not None:
            return "in-process"
        if self.url is not None:
            return self.scrub(redact_url(self.url))
        return self.scrub(self.command) if self.command else "?"


@dataclass(slots=True)
class Config:
    servers: list[ServerConfig] = field(default_factory=list)
    source: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    concurrency: int = DEFAULT_CONCURRENCY
    max_tools: int = DEFAULT_MAX_TOOLS
    max_pages: int = DEFAULT_MAX_PAGES
    max_resources: int = DEFAULT_RESOURCE_LIMIT
    """Resources pinned per server at most (the first listed)."""
    state_dir: str | None = None
    """Where logs go (``<state_dir>/logs``); default ``.mcp-review`` beside the config file."""
    pins: str | None = None
    """The pin file the config names (``pins = "…"``, relative to the config file), if any."""
    notes: list[str] = field(default_factory=list)
    """What was read but not used (keys of a client's mcp.json mcp-review has no use for)."""
    candidates: list[str] = field(default_factory=list)
    """Servers replaced by their ``[servers.NAME.candidate]`` (``--candidate``)."""
    sources: list[Any] = field(default_factory=list)
    """``--config auto``: every place looked at (services.discover.Source)."""
    gate: RulesConfig | None = None
    """``[rules]`` and ``[[ignore]]`` (a engine.rulesconfig.RulesConfig; None when the file has neither)."""
    hosts: HostsConfig | None = None
    """``[hosts]`` (an engine.hosts.HostsConfig; None when the file has none)."""
    signing: dict[str, str] | None = None
    """``[signing]``: ``key`` (the SSH key decisions are signed with) and ``policy`` (the
    signing policy file), paths resolved against the config's folder (services/signing.py)."""

    def by_name(self, name: str) -> ServerConfig:
        for s in self.servers:
            if s.name == name:
                return s
        raise KeyError(name)

    def named(self, name: str) -> ServerConfig:
        """The server ``name`` as a command names it: an InputError (exit 2) naming the
        config and the servers it has when there is none of that name."""
        from mcp_review.engine.errors import InputError
        from mcp_review.engine.names import not_found, shown

        try:
            return self.by_name(name)
        except KeyError:
            raise InputError(
                f"no server {shown(name)} in the config"
                + not_found(name, [s.name for s in self.servers], "servers"),
                source=self.source,
            ) from None


def _scrub_fragments(text: str, secret: str, n: int | None = None) -> str:
    """Replace every maximal run of at least ``n`` characters of ``text`` that also occurs in
    ``secret`` by ``***``."""
    n = n or MIN_FRAGMENT
    if len(text) < n:
        return text
    # Most text holds no piece of the secret: one C-speed search per piece says so.
    if not any(secret[i : i + n] in text for i in range(len(secret) - n + 1)):
        return text
    out: list[str] = []
    i = j = 0
    while j <= len(text) - n:
        if text[j : j + n] in secret:
            k = j + n
            while k < len(text) and text[j : k + 1] in secret:
                k += 1
            out.append(text[i:j])
            out.append("***")
            i = j = k
        else:
            j += 1
    out.append(text[i:])
    return "".join(out)


def _secret_like(v: str) -> bool:
    v = v.strip()
    return len(v) >= MIN_SECRET and v.lower() not in COMMON_VALUES and not v.isdigit()


def _url_secrets(url: str) -> list[str]:
    out = []
    m = re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://([^/@]*)@", url)
    if m:
        out.append(m.group(1))
        if ":" in m.group(1):
            out.append(m.group(1).split(":", 1)[1])
    out.extend(v for v in re.findall(r"[?&][^=&#]+=([^&#]*)", url))
    return out


def redact_url(url: str) -> str:
    """Drop userinfo and query values: both are common places for tokens."""
    url = re.sub(r"^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@", r"\1***@", url)
    return re.sub(r"([?&][^=&#]+)=[^&#]*", r"\1=***", url)


# --- discovery ------------------------------------------------------------------------------


def in_ci() -> bool:
    """``CI=true`` (or ``1``): the pipeline already runs the repository's code."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


# --- server entries ---------------------------------------------------------------------------

_SERVER_KEYS = {
    "command", "args", "env", "cwd", "url", "headers", "type", "transport", "principal",
    "policy", "calls", "timeout", "mode", "record_results", "tools", "forward_authorization",
    "oauth",
}  # fmt: skip
_CANDIDATE_KEYS = _SERVER_KEYS - {"principal"}
"""A candidate is reviewed under its server's name and principal: it cannot name another."""
_STDIO_KEYS = ("command", "args", "env", "cwd")
_HTTP_KEYS = ("url", "headers")
_TOOL_KEYS = {"rerun_ignore"}
_TOP_KEYS = {
    "servers",
    "timeout",
    "concurrency",
    "max_tools",
    "max_pages",
    "max_resources",
    "state_dir",
    "pins",
    "rules",
    "ignore",
    "hosts",
    "signing",
}
JSON_KEYS = _SERVER_KEYS | {"serverUrl", "disabled"}
"""Keys a server entry of a JSON client config (Claude, Cursor, VS Code) may hold."""


def json_line(text: str, name: str, key: str | None) -> int | None:
    """Best-effort line of `"name": {` (and then of `"key":` after it) in a JSON file."""
    lines = text.splitlines()
    needle = json.dumps(name) + ":"
    needle2 = json.dumps(name) + " :"
    for i, line in enumerate(lines):
        if needle in line or needle2 in line:
            if key is None:
                return i + 1
            for k in _key_parts(key):
                kn = json.dumps(k)
                for j in range(i, min(len(lines), i + 60)):
                    if kn in lines[j]:
                        return j + 1
            return i + 1
    return None


def _key_parts(key: str) -> list[str]:
    """``headers.Authorization`` -> ``["Authorization", "headers"]``: the leaf first, then its table."""
    parts = [p for p in re.split(r"[.\[\]]", key) if p and not p.isdigit()]
    return [parts[-1], parts[0]] if len(parts) > 1 else parts


# --- shared ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Where:
    """Where a server's keys were read (file, server, a line finder), for error messages."""

    src: str
    server: str
    line_of: Any
    table: str | None = None
    """``candidate`` for keys of ``[servers.NAME.candidate]``."""

    def error(self, key: str | None, msg: str) -> InputError:
        where = ".".join(x for x in (self.table, key) if x)
        prefix = f"server {self.server!r}" + (f": {where}" if where else "")
        return InputError(f"{prefix}: {msg}", source=self.src, line=self.line_of(key))


_VAR = re.compile(r"\$\{([^}]*)\}")


def expand(
    value: str,
    env: Mapping[str, str],
    where: Where,
    key: str,
    workspace: Path | None = None,
    found: list[str] | None = None,
) -> str:
    """Expand ``${VAR}``, ``${env:VAR}``, ``${VAR:-default}`` and VS Code's ``${workspaceFolder}``."""

    def sub(m: re.Match[str]) -> str:
        expr = m.group(1)
        default: str | None = None
        if ":-" in expr:
            expr, default = expr.split(":-", 1)
        if expr.startswith("env:"):
            expr = expr[4:]
        elif expr in ("workspaceFolder", "workspaceRoot") and workspace is not None:
            return str(workspace)
        elif ":" in expr:
            # ${input:x} prompts the user in VS Code; a headless run cannot answer it.
            raise where.error(
                key,
                f"${{{expr}}} cannot be resolved outside the editor; "
                "set the value with ${env:NAME} instead",
            )
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", expr):
            raise where.error(key, f"bad variable reference ${{{m.group(1)}}}")
        if expr in env:
            if found is not None:
                found.append(env[expr])  # a secret as often as not: scrubbed from messages
            return env[expr]
        if default is not None:
            return default
        raise where.error(
            key, f"environment variable {expr} is not set (referenced as {m.group(0)})"
        )

    return _VAR.sub(sub, value)


def _str(raw: Mapping[str, Any], key: str, where: Where) -> str | None:
    v = raw.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise where.error(key, "must be a string")
    return v


def _str_map(raw: Mapping[str, Any], key: str, where: Where) -> dict[str, str]:
    v = raw.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise where.error(key, "must be a table/object of strings")
    out: dict[str, str] = {}
    for k, x in v.items():
        if isinstance(x, bool) or not isinstance(x, (str, int, float)):
            raise where.error(f"{key}.{k}", "must be a string")
        out[str(k)] = str(x)
    return out


def _tool_settings(raw: Mapping[str, Any], where: Where) -> dict[str, tuple[str, ...]]:
    """``[servers.NAME.tools.TOOL]`` tables: per-tool settings (today ``rerun_ignore``, a list
    of JSON pointers into the tool's result that ``rerun`` ignores)."""
    tools = raw.get("tools")
    if tools is None:
        return {}
    if not isinstance(tools, dict):
        raise where.error("tools", "must be a table of [servers.NAME.tools.TOOL] tables")
    out: dict[str, tuple[str, ...]] = {}
    for tool, t in tools.items():
        if not isinstance(t, dict):
            raise where.error(f"tools.{tool}", "must be a table")
        for k in t:
            if k not in _TOOL_KEYS:
                raise where.error(
                    f"tools.{tool}",
                    f"unknown key {k!r} (expected one of: {', '.join(sorted(_TOOL_KEYS))})",
                )
        ign = t.get("rerun_ignore", [])
        if not isinstance(ign, list) or not all(
            isinstance(x, str) and (x == "" or x.startswith("/")) for x in ign
        ):
            raise where.error(
                f"tools.{tool}.rerun_ignore",
                "must be a list of JSON pointers (strings starting with '/')",
            )
        out[str(tool)] = tuple(ign)
    return out


def _transport(raw: Mapping[str, Any], where: Where, command: str | None, url: str | None) -> str:
    """The entry's transport: ``type`` (or ``transport``, the clients' spellings of HTTP
    folded), else implied by ``command`` or ``url``; an entry that names none is an error."""
    ttype = raw.get("type", raw.get("transport"))
    if ttype is None:
        ttype = "stdio" if command is not None else "http" if url is not None else None
    if ttype in ("streamable-http", "streamableHttp", "streamable_http"):
        ttype = "http"
    if ttype is None:
        raise where.error(None, "needs either 'command' (stdio) or 'url' (HTTP)")
    if not isinstance(ttype, str) or ttype not in TRANSPORTS:
        key = "type" if "type" in raw else "transport"
        raise where.error(key, f"must be one of {', '.join(TRANSPORTS)} (got {ttype!r})")
    return ttype


def _stdio_launch(
    raw: Mapping[str, Any],
    where: Where,
    command: str | None,
    x: Callable[[str, str], str],
    workspace: Path | None,
    cfg_path: Path,
) -> dict[str, Any]:
    """How a stdio server is started (command, args, env, cwd), each expanded; a relative
    cwd is resolved against the config file, not wherever CI runs us."""
    if command is None:
        raise where.error("command", "a stdio server needs 'command'")
    args = raw.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise where.error("args", "must be a list of strings")
    kw: dict[str, Any] = {"command": x(command, "command")}
    kw["args"] = tuple(x(a, f"args[{i}]") for i, a in enumerate(args))
    kw["env"] = {k: x(v, f"env.{k}") for k, v in _str_map(raw, "env", where).items()}
    cwd = _str(raw, "cwd", where)
    if cwd is not None:
        cwd = x(cwd, "cwd")
        # A relative cwd means "relative to the config file", not to wherever CI runs us.
        base = workspace if workspace is not None else cfg_path.resolve().parent
        kw["cwd"] = str((base / cwd).resolve()) if not os.path.isabs(cwd) else cwd
    return kw


def _http_launch(
    raw: Mapping[str, Any],
    where: Where,
    ttype: str,
    url: str | None,
    x: Callable[[str, str], str],
) -> dict[str, Any]:
    """Where an HTTP server is reached (url, headers), each expanded; only http(s) URLs."""
    if url is None:
        raise where.error("url", f"an {ttype} server needs 'url'")
    kw: dict[str, Any] = {"url": x(url, "url")}
    if not re.match(r"^https?://", kw["url"]):
        raise where.error("url", "must start with http:// or https://")
    kw["headers"] = {k: x(v, f"headers.{k}") for k, v in _str_map(raw, "headers", where).items()}
    return kw


def _principal_and_policy(raw: Mapping[str, Any], where: Where) -> dict[str, Any]:
    """Whom the server is reviewed as and under which tier, checked at load so a typo fails
    closed here instead of deep in the policy engine."""
    kw: dict[str, Any] = {}
    principal = _str(raw, "principal", where)
    if principal is not None:
        if not principal.strip():
            raise where.error("principal", "must be a non-empty string")
        kw["principal"] = principal
    policy = _str(raw, "policy", where)
    if policy is not None:
        from mcp_review.engine.policy import TIERS

        if policy not in TIERS:
            # Fail closed at load: a typo must not reach the policy engine (a traceback, or a
            # proxy withholding every tool without saying why).
            raise where.error("policy", f"must be one of {', '.join(TIERS)} (got {policy!r})")
        kw["policy"] = policy
    return kw


def _switches(
    raw: Mapping[str, Any], where: Where, default_timeout: float, by_url: bool
) -> dict[str, Any]:
    """The entry's timeout, mode and true/false switches, each checked for its type; the
    HTTP-only switches refused on a server not reached by url."""
    kw: dict[str, Any] = {}
    t = raw.get("timeout", default_timeout)
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t <= 0:
        raise where.error("timeout", "must be a positive number of seconds")
    kw["timeout"] = float(t)
    mode = raw.get("mode", "auto")
    if not isinstance(mode, str) or mode not in MODES:
        raise where.error("mode", f"must be one of {', '.join(MODES)} (got {mode!r})")
    kw["mode"] = mode
    rr = raw.get("record_results", False)
    if not isinstance(rr, bool):
        raise where.error("record_results", "must be true or false")
    kw["record_results"] = rr
    fa = raw.get("forward_authorization", False)
    if not isinstance(fa, bool):
        raise where.error("forward_authorization", "must be true or false")
    if fa and not by_url:
        raise where.error(
            "forward_authorization", "is for a server reached by url (a stdio server has no HTTP)"
        )
    kw["forward_authorization"] = fa
    oa = raw.get("oauth", False)
    if not isinstance(oa, bool):
        raise where.error("oauth", "must be true or false")
    if oa and not by_url:
        raise where.error("oauth", "is for a server reached by url")
    kw["oauth"] = oa
    return kw


def server_from(
    name: str,
    raw: Mapping[str, Any],
    where: Where,
    env: Mapping[str, str],
    default_timeout: float,
    cfg_path: Path,
    workspace: Path | None = None,
) -> ServerConfig:
    """One server's entry (TOML table or JSON object) as a ServerConfig; errors name the file
    and line through ``where``. Shared by the config file and auto-discovery (discover.py)."""
    if not name or not isinstance(name, str):
        raise where.error(None, "server names must be non-empty strings")
    command = _str(raw, "command", where)
    url = _str(raw, "url", where) or _str(raw, "serverUrl", where)
    ttype = _transport(raw, where, command, url)

    expanded: list[str] = []

    def x(v: str, key: str) -> str:
        return expand(v, env, where, key, workspace, expanded)

    kw: dict[str, Any] = {"name": name, "transport": ttype, "source": where.src}
    if ttype == "stdio":
        kw.update(_stdio_launch(raw, where, command, x, workspace, cfg_path))
    else:
        kw.update(_http_launch(raw, where, ttype, url, x))
    kw.update(_principal_and_policy(raw, where))
    calls = _str(raw, "calls", where)
    if calls is not None:
        calls = x(calls, "calls")
        kw["calls"] = calls if os.path.isabs(calls) else str(cfg_path.resolve().parent / calls)
    kw.update(_switches(raw, where, default_timeout, by_url=kw.get("url") is not None))
    kw["rerun_ignore"] = _tool_settings(raw, where)
    kw["expanded"] = tuple(dict.fromkeys(expanded))
    return ServerConfig(**kw)


def secrets_scrubber(srv: Any) -> Callable[[str], str] | None:
    """What the call log and the results log scrub by value (and ``rerun`` from the live
    answers it compares with them): ``srv``'s configured secrets (``ServerConfig.secrets``),
    except values that name a path that exists (``${HOME}/docs`` in ``args``). Recorded
    arguments are replay evidence: a path is not a secret, and scrubbing every 8-character
    piece of one would eat the paths a call was made with (and mark it never to be re-sent)."""
    keep = tuple(v for v in getattr(srv, "secrets", ()) if not os.path.exists(v))
    return ServerConfig(srv.name, command="-", expanded=keep).scrub if keep else None
