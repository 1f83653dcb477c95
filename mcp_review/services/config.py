"""Read mcp-review.toml and the mcp.json dialects (Claude Desktop/Code, VS Code, Cursor) into ServerConfigs."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.surfaces import DEFAULT_RESOURCE_LIMIT

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
    gate: Any = None
    """``[rules]`` and ``[[ignore]]`` (a engine.rulesconfig.RulesConfig; None when the file has neither)."""
    hosts: Any = None
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

        try:
            return self.by_name(name)
        except KeyError:
            known = ", ".join(s.name for s in self.servers) or "none"
            raise InputError(
                f"no server {name!r} in the config (known: {known})", source=self.source
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


class UntrustedConfigError(InputError):
    """A client config file found in the working directory that the user has not trusted."""


def in_ci() -> bool:
    """``CI=true`` (or ``1``): the pipeline already runs the repository's code."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


def untrusted_client_configs(cwd: str | os.PathLike[str] = ".") -> list[tuple[Path, str]]:
    """Client config files present in ``cwd`` that are not trusted as they are now, each with
    why (never trusted / changed since trusted)."""
    from mcp_review.services import trust

    out = []
    for rel in CLIENT_CONFIGS:
        p = Path(cwd) / rel
        if not p.is_file():
            continue
        try:
            data = p.read_bytes()
        except OSError:
            continue  # load_config reports it
        known = trust.trusted_digest(p)
        if known != trust.digest_bytes(data):
            out.append((p, "never trusted" if known is None else "changed since it was trusted"))
    return out


def _require_trusted(p: Path, data: bytes | None, cwd: str | os.PathLike[str]) -> None:
    """Refuse a discovered client config unless trusted as it is (``data``: the exact bytes
    about to be parsed, so a file swapped after the check is caught)."""
    from mcp_review.services import trust

    if in_ci():
        return
    if data is not None and trust.is_trusted(p, data):
        return
    bad = untrusted_client_configs(cwd)
    if data is not None and not any(x == p for x, _ in bad):
        bad.insert(0, (p, "changed while it was being read"))
    listed = "\n".join(f"  {x} ({why})" for x, why in bad)
    raise UntrustedConfigError(
        "client config found in the working directory is not trusted, so the commands it "
        f"names were not run:\n{listed}\nreview it, then run `mcp-review trust {p}` (once per "
        f"version of the file), or name it with `--config {p}`",
        source=str(p),
    )


def discover_config(cwd: str | os.PathLike[str] = ".", *, require_trust: bool = True) -> Path:
    """The first of :data:`DISCOVERY_ORDER` in ``cwd``. A client config file (``.mcp.json``,
    ``.vscode/mcp.json``, ``.cursor/mcp.json``) found this way is refused with
    :class:`UntrustedConfigError` unless the user trusted it as it is now (``mcp-review trust``)
    or ``CI=true``; ``mcp-review.toml`` (the project's own file) is not gated, nor is a file
    named with ``--config``, nor ``require_trust=False`` (the proxy, which the client runs)."""
    base = Path(cwd)
    for rel in DISCOVERY_ORDER:
        p = base / rel
        if p.is_file():
            if require_trust and rel in CLIENT_CONFIGS:
                try:
                    data: bytes | None = p.read_bytes()
                except OSError:
                    data = None
                _require_trusted(p, data, base)
            return p
    raise InputError(
        "no config found: looked for " + ", ".join(DISCOVERY_ORDER) + f" in {base.resolve()}; "
        "pass --config FILE (or try `mcp-review demo` to see it on bundled servers)"
    )


def load_config(
    path: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    require_trust: bool = True,
) -> Config:
    """Load a config file (TOML or any mcp.json dialect); ``None`` discovers one in the cwd
    (a discovered client config must be trusted: see :func:`discover_config`)."""
    if path is not None and str(path) == "auto":
        # Every client config on this machine (services/discover.py).
        from mcp_review.services.discover import load_auto

        return load_auto(".", environ)
    p = Path(path) if path is not None else discover_config(require_trust=require_trust)
    env = os.environ if environ is None else environ
    src = str(p)
    try:
        raw = p.read_bytes()
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise InputError("config file not found", source=src) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read config: {e}", source=src) from None
    if path is None and require_trust and p.as_posix() in CLIENT_CONFIGS:
        _require_trusted(p, raw, ".")  # the bytes parsed are the bytes trusted
    if p.suffix == ".toml":
        cfg = _load_toml(text, src, env)
    else:
        cfg = _load_json(text, src, env)
    if cfg.state_dir is None:
        cfg.state_dir = str(_project_root(p) / ".mcp-review")
    from mcp_review.store.tokens import token_path

    cfg.servers = [
        dataclasses.replace(s, token_file=token_path(cfg.state_dir, s.name))
        if s.url is not None
        else s
        for s in cfg.servers
    ]
    return cfg


def _project_root(p: Path) -> Path:
    parent = p.resolve().parent
    # .vscode/mcp.json and .cursor/mcp.json describe the folder above them.
    if parent.name in (".vscode", ".cursor"):
        return parent.parent
    return parent


# --- TOML -----------------------------------------------------------------------------------

_TOML_LINE = re.compile(r"at line (\d+)")
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


def server_lines(cfg: Any) -> dict[str, int]:
    """{server: line of its ``[servers.NAME]`` table} when the config is a TOML file (SARIF's
    region); empty for a JSON client config or ``--config auto``."""
    src = getattr(cfg, "source", None)
    if not isinstance(src, str) or not src.endswith(".toml") or not os.path.isfile(src):
        return {}
    try:
        with open(src, encoding="utf-8") as f:
            lines = _Lines(f.read())
    except (OSError, UnicodeDecodeError):
        return {}
    out = {}
    for s in cfg.servers:
        n = lines.server(s.name)
        if n is not None:
            out[s.name] = n
    return out


class _Lines:
    """Finds the line of a `[servers.NAME]` table or one of its keys, for error messages.

    tomllib gives no positions for valid documents, so this is a best-effort text scan.
    """

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def server(self, name: str, key: str | None = None) -> int | None:
        hdr = re.compile(
            r"^\s*\[\s*servers\s*\.\s*(?:"
            + re.escape(name)
            + r"|\""
            + re.escape(name)
            + r"\"|'"
            + re.escape(name)
            + r"')\s*\]"
        )
        start = None
        for i, line in enumerate(self.lines):
            if hdr.match(line):
                start = i
                break
        if start is None:
            return None
        if key is None:
            return start + 1
        for k in _key_parts(key):
            kre = re.compile(r"(^|[\s{,])\"?" + re.escape(k) + r"\"?\s*=")
            for j in range(start + 1, len(self.lines)):
                if re.match(r"^\s*\[", self.lines[j]) and not re.match(
                    r"^\s*\[\s*servers\s*\.\s*" + re.escape(name) + r"\s*\.", self.lines[j]
                ):
                    break
                if kre.search(self.lines[j]):
                    return j + 1
        return start + 1

    def candidate(self, name: str, key: str | None = None) -> int | None:
        """The line of ``[servers.NAME.candidate]`` (or of ``key`` in it); else the server's."""
        hdr = re.compile(
            r"^\s*\[\s*servers\s*\.\s*(?:"
            + re.escape(name)
            + r"|\""
            + re.escape(name)
            + r"\"|'"
            + re.escape(name)
            + r"')\s*\.\s*\"?candidate\"?\s*\]"
        )
        start = next((i for i, line in enumerate(self.lines) if hdr.match(line)), None)
        if start is None:
            return self.server(name, "candidate")
        if key is None:
            return start + 1
        for k in _key_parts(key):
            kre = re.compile(r"(^|[\s{,])\"?" + re.escape(k) + r"\"?\s*=")
            for j in range(start + 1, len(self.lines)):
                if re.match(r"^\s*\[", self.lines[j]):
                    break
                if kre.search(self.lines[j]):
                    return j + 1
        return start + 1

    def table(self, header: str, index: int = 0, key: str | None = None) -> int | None:
        """Line of the ``index``-th ``[header]`` / ``[[header]]`` table, or of ``key`` in it."""
        hre = re.compile(r"^\s*\[\[?\s*" + re.escape(header) + r"\s*\]\]?\s*(#.*)?$")
        starts = [i for i, line in enumerate(self.lines) if hre.match(line)]
        if index >= len(starts):
            return None
        start = starts[index]
        if key is not None:
            kre = re.compile(r"^\s*[\"']?" + re.escape(key) + r"[\"']?\s*=")
            for j in range(start + 1, len(self.lines)):
                if re.match(r"^\s*\[", self.lines[j]):
                    break
                if kre.match(self.lines[j]):
                    return j + 1
        return start + 1

    def top(self, key: str) -> int | None:
        kre = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i, line in enumerate(self.lines):
            if re.match(r"^\s*\[", line):
                return None
            if kre.match(line):
                return i + 1
        return None


def _signing(raw: Any, src: str, lines: _Lines) -> dict[str, str]:
    """``[signing]``: ``key`` and ``policy``, each a path relative to the config
    file (``key = "agent"``: ssh-agent's first key)."""
    if not isinstance(raw, dict):
        raise InputError("'signing' must be a table", source=src, line=lines.table("signing"))
    out: dict[str, str] = {}
    for k, v in raw.items():
        if k not in ("key", "policy"):
            raise InputError(
                f"[signing]: unknown key {k!r} (expected one of: key, policy)",
                source=src,
                line=lines.table("signing", key=k),
            )
        if not isinstance(v, str) or not v:
            raise InputError(
                f"[signing] {k!r} must be a non-empty string (a path)",
                source=src,
                line=lines.table("signing", key=k),
            )
        if k == "key" and v == "agent":
            out[k] = v
        else:
            out[k] = str(Path(src).resolve().parent / os.path.expanduser(v))
    return out


def _load_toml(text: str, src: str, env: Mapping[str, str]) -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_LINE.search(str(e))
        msg = _TOML_LINE.sub("", str(e)).replace("(, column", "(column").strip()
        raise InputError(
            f"invalid TOML: {msg}", source=src, line=int(m.group(1)) if m else None
        ) from None
    except RecursionError:
        raise InputError("invalid TOML: a value is nested too deeply", source=src) from None
    lines = _Lines(text)
    cfg = Config(source=src)
    for key in data:
        if key not in _TOP_KEYS:
            raise InputError(
                f"unknown top-level key {key!r} (expected one of: {', '.join(sorted(_TOP_KEYS))})",
                source=src,
                line=lines.top(key),
            )
    cfg.timeout = _positive(data, "timeout", DEFAULT_TIMEOUT, src, lines.top("timeout"))
    cfg.concurrency = int(
        _positive(data, "concurrency", DEFAULT_CONCURRENCY, src, lines.top("concurrency"))
    )
    cfg.max_tools = int(
        _positive(data, "max_tools", DEFAULT_MAX_TOOLS, src, lines.top("max_tools"))
    )
    cfg.max_pages = int(
        _positive(data, "max_pages", DEFAULT_MAX_PAGES, src, lines.top("max_pages"))
    )
    cfg.max_resources = int(
        _positive(data, "max_resources", DEFAULT_RESOURCE_LIMIT, src, lines.top("max_resources"))
    )
    for key in ("concurrency", "max_tools", "max_pages", "max_resources"):
        if key in data and not isinstance(data[key], int):
            raise InputError(f"{key!r} must be a positive integer", source=src, line=lines.top(key))
    for key in ("state_dir", "pins"):
        if key in data and (not isinstance(data[key], str) or not data[key]):
            raise InputError(
                f"{key!r} must be a non-empty string (a path, relative to the config file)",
                source=src,
                line=lines.top(key),
            )
    if "state_dir" in data:
        cfg.state_dir = str(Path(src).resolve().parent / data["state_dir"])
    if "pins" in data:
        cfg.pins = str(Path(src).resolve().parent / data["pins"])
    servers = data.get("servers", {})
    if not isinstance(servers, dict):
        raise InputError("'servers' must be a table of [servers.NAME] tables", source=src)
    if "rules" in data or "ignore" in data:
        cfg.gate = _gate(data, src, lines)
    if "hosts" in data:
        cfg.hosts = _hosts(data["hosts"], src, lines)
    if "signing" in data:
        cfg.signing = _signing(data["signing"], src, lines)
    for name, raw in servers.items():
        where = Where(src, name, lambda k, n=name: lines.server(n, k))
        if not isinstance(raw, dict):
            raise where.error(None, "must be a table")
        for k in raw:
            if k not in _SERVER_KEYS and k != "candidate":
                raise where.error(
                    k,
                    f"unknown key {k!r} (expected one of: "
                    f"{', '.join(sorted(_SERVER_KEYS | {'candidate'}))})",
                )
        cand_raw = raw.get("candidate")
        raw = {k: v for k, v in raw.items() if k != "candidate"}
        if "command" in raw and "url" in raw:
            raise where.error(
                "command", "a server takes either 'command' (stdio) or 'url' (HTTP), not both"
            )
        ttype = raw.get(
            "type",
            raw.get("transport", "stdio" if "command" in raw else "http" if "url" in raw else None),
        )
        foreign = (
            ()
            if ttype is None
            else ("url", "headers")
            if ttype == "stdio"
            else ("command", "args", "env", "cwd")
        )
        for k in foreign:
            if k in raw:
                raise where.error(
                    k,
                    f"not used by a {ttype!r} server (a stdio server takes "
                    "command/args/env/cwd, an HTTP one url/headers)",
                )
        server = server_from(name, raw, where, env, cfg.timeout, Path(src))
        if cand_raw is not None:
            cwhere = Where(src, name, lambda k, n=name: lines.candidate(n, k), "candidate")
            server = dataclasses.replace(
                server,
                candidate=_candidate_from(name, raw, cand_raw, cwhere, env, cfg.timeout, Path(src)),
            )
        cfg.servers.append(server)
    return cfg


def _candidate_from(
    name: str,
    raw: Mapping[str, Any],
    cand: Any,
    where: Where,
    env: Mapping[str, str],
    default_timeout: float,
    cfg_path: Path,
) -> ServerConfig:
    """``[servers.NAME.candidate]``: the server's keys with the candidate's replacing them,
    ``env`` and ``headers`` merged key by key. Naming the other transport's key (``url`` for a
    stdio server) switches transport: the server's keys of the old one are not carried over."""
    if not isinstance(cand, dict):
        raise where.error(None, "must be a table ([servers.NAME.candidate])")
    for k in cand:
        if k not in _CANDIDATE_KEYS:
            why = (
                "a candidate is reviewed under its server's principal"
                if k == "principal"
                else f"expected one of: {', '.join(sorted(_CANDIDATE_KEYS))}"
            )
            raise where.error(k, f"unknown key {k!r} ({why})")
    merged = dict(raw)
    if "url" in cand and "command" not in cand:
        for k in _STDIO_KEYS:
            merged.pop(k, None)
    if "command" in cand and "url" not in cand:
        for k in _HTTP_KEYS:
            merged.pop(k, None)
    for k, v in cand.items():
        if k in ("env", "headers") and isinstance(v, dict) and isinstance(merged.get(k), dict):
            merged[k] = {**merged[k], **v}
        else:
            merged[k] = v
    if "command" in merged and "url" in merged:
        raise where.error(
            "command" if "command" in cand else "url",
            "a server takes either 'command' (stdio) or 'url' (HTTP), not both",
        )
    return server_from(name, merged, where, env, default_timeout, cfg_path)


def _gate(data: Mapping[str, Any], src: str, lines: _Lines) -> Any:
    """``[rules]`` and ``[[ignore]]`` (engine/rulesconfig.py), each error at its FILE:LINE."""
    from mcp_review.engine.rulesconfig import (
        RulesConfig,
        RulesConfigError,
        parse_rules,
        parse_waiver,
    )

    try:
        rules = parse_rules(data.get("rules", {}))
    except RulesConfigError as e:
        raise InputError(str(e), source=src, line=lines.table("rules", 0, e.key)) from None
    raw = data.get("ignore", [])
    if not isinstance(raw, list):
        raise InputError(
            "'ignore' must be an array of [[ignore]] tables", source=src, line=lines.top("ignore")
        )
    waivers = []
    for i, w in enumerate(raw):
        try:
            waivers.append(parse_waiver(w, line=lines.table("ignore", i)))
        except RulesConfigError as e:
            raise InputError(str(e), source=src, line=lines.table("ignore", i, e.key)) from None
    return RulesConfig(rules=rules, waivers=tuple(waivers))


def _hosts(raw: Any, src: str, lines: _Lines) -> Any:
    """``[hosts]`` (engine/hosts.py): targets and the numbers a user overrides, each error at its
    FILE:LINE."""
    from mcp_review.engine.hosts import HostsError, parse_hosts

    try:
        return parse_hosts(raw)
    except HostsError as e:
        line = None
        if isinstance(raw, dict):
            for name in raw.get("profiles", {}) if isinstance(raw.get("profiles"), dict) else ():
                at = lines.table(f"hosts.profiles.{name}", 0, e.key)
                if at is not None and (
                    e.key == name or lines.table(f"hosts.profiles.{name}") != at
                ):
                    line = at
                    break
        if line is None:
            line = lines.table("hosts", 0, e.key) or lines.table("hosts")
        raise InputError(str(e), source=src, line=line) from None


def _positive(
    data: Mapping[str, Any], key: str, default: float, src: str, line: int | None
) -> float:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
        raise InputError(f"{key!r} must be a positive number", source=src, line=line)
    return float(v)


# --- JSON dialects --------------------------------------------------------------------------


def _load_json(text: str, src: str, env: Mapping[str, str]) -> Config:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(
            f"invalid JSON: {e.msg} (column {e.colno})", source=src, line=e.lineno
        ) from None
    if not isinstance(data, dict):
        raise InputError('expected a JSON object with "mcpServers" or "servers"', source=src)
    # Claude Desktop, Claude Code and Cursor use "mcpServers"; VS Code uses "servers".
    servers = data.get("mcpServers")
    if servers is None:
        servers = data.get("servers")
    if not isinstance(servers, dict):
        raise InputError(
            'no "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" '
            "(VS Code) object found",
            source=src,
        )
    cfg = Config(source=src)
    root = _project_root(Path(src))
    for name, raw in servers.items():
        where = Where(src, name, lambda k, n=name: json_line(text, n, k))
        if not isinstance(raw, dict):
            raise where.error(None, "must be an object")
        raw = dict(raw)
        if raw.get("disabled") is True:  # Cursor/Cline style switch
            continue
        # A client's file is read as it is: keys meant for the client are a note, not an error.
        unused = sorted(str(k) for k in raw if k not in JSON_KEYS)
        if unused:
            cfg.notes.append(
                f"{src}: server {name!r}: not used by mcp-review: " + ", ".join(unused)
            )
        cfg.servers.append(
            server_from(name, raw, where, env, cfg.timeout, Path(src), workspace=root)
        )
    return cfg


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
    ttype = raw.get("type", raw.get("transport"))
    command = _str(raw, "command", where)
    url = _str(raw, "url", where) or _str(raw, "serverUrl", where)
    if ttype is None:
        ttype = "stdio" if command is not None else "http" if url is not None else None
    if ttype in ("streamable-http", "streamableHttp", "streamable_http"):
        ttype = "http"
    if ttype is None:
        raise where.error(None, "needs either 'command' (stdio) or 'url' (HTTP)")
    if not isinstance(ttype, str) or ttype not in TRANSPORTS:
        key = "type" if "type" in raw else "transport"
        raise where.error(key, f"must be one of {', '.join(TRANSPORTS)} (got {ttype!r})")

    expanded: list[str] = []

    def x(v: str, key: str) -> str:
        return expand(v, env, where, key, workspace, expanded)

    kw: dict[str, Any] = {"name": name, "transport": ttype, "source": where.src}
    if ttype == "stdio":
        if command is None:
            raise where.error("command", "a stdio server needs 'command'")
        args = raw.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise where.error("args", "must be a list of strings")
        kw["command"] = x(command, "command")
        kw["args"] = tuple(x(a, f"args[{i}]") for i, a in enumerate(args))
        kw["env"] = {k: x(v, f"env.{k}") for k, v in _str_map(raw, "env", where).items()}
        cwd = _str(raw, "cwd", where)
        if cwd is not None:
            cwd = x(cwd, "cwd")
            # A relative cwd means "relative to the config file", not to wherever CI runs us.
            base = workspace if workspace is not None else cfg_path.resolve().parent
            kw["cwd"] = str((base / cwd).resolve()) if not os.path.isabs(cwd) else cwd
    else:
        if url is None:
            raise where.error("url", f"an {ttype} server needs 'url'")
        kw["url"] = x(url, "url")
        if not re.match(r"^https?://", kw["url"]):
            raise where.error("url", "must start with http:// or https://")
        kw["headers"] = {
            k: x(v, f"headers.{k}") for k, v in _str_map(raw, "headers", where).items()
        }
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
    calls = _str(raw, "calls", where)
    if calls is not None:
        calls = x(calls, "calls")
        kw["calls"] = calls if os.path.isabs(calls) else str(cfg_path.resolve().parent / calls)
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
    if fa and kw.get("url") is None:
        raise where.error(
            "forward_authorization", "is for a server reached by url (a stdio server has no HTTP)"
        )
    kw["forward_authorization"] = fa
    oa = raw.get("oauth", False)
    if not isinstance(oa, bool):
        raise where.error("oauth", "must be true or false")
    if oa and kw.get("url") is None:
        raise where.error("oauth", "is for a server reached by url")
    kw["oauth"] = oa
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
