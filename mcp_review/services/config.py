"""Read mcp-review.toml and the mcp.json dialects (Claude Desktop/Code, VS Code, Cursor) into ServerConfigs."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcp_review.engine.errors import InputError
from mcp_review.engine.surfaces import DEFAULT_RESOURCE_LIMIT
from mcp_review.services.config_model import (  # noqa: F401 - re-exported: importers use config
    _CANDIDATE_KEYS,
    _HTTP_KEYS,
    _SERVER_KEYS,
    _STDIO_KEYS,
    _TOP_KEYS,
    CLIENT_CONFIGS,
    COMMON_VALUES,
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_PAGES,
    DEFAULT_MAX_TOOLS,
    DEFAULT_TIMEOUT,
    DISCOVERY_ORDER,
    JSON_KEYS,
    MIN_FRAGMENT,
    MIN_SECRET,
    MODES,
    TRANSPORTS,
    Config,
    ServerConfig,
    Where,
    _key_parts,
    expand,
    in_ci,
    json_line,
    redact_url,
    secrets_scrubber,
    server_from,
)

# What other modules take from here rather than from config_model (a strict module exports an
# imported name only when it says so); this module's own definitions are public as ever.
__all__ = [
    "CLIENT_CONFIGS",
    "DEFAULT_CONCURRENCY",
    "DEFAULT_MAX_PAGES",
    "DEFAULT_MAX_TOOLS",
    "DISCOVERY_ORDER",
    "Config",
    "ServerConfig",
    "secrets_scrubber",
]

# --- discovery and trust of client configs ------------------------------------------------


class UntrustedConfigError(InputError):
    """A client config file found in the working directory that the user has not trusted."""


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

        auto: Config = load_auto(".", environ)
        return auto
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
