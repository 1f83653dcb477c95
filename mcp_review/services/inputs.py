"""One resolution of inputs for every command and the app: config → tool lists → call logs → status.

Every headless command (``check``, ``status``, ``pin``, ``approve``, ``deny``, ``watch``) and the
review app build their inputs here, so one drift gets one answer whichever of them shows it::

    inp = resolve(opts)                  # config (given or discovered), pins, calls, tiers
    snap = inp.snapshot()                # the --snapshot/--from-snapshot file, or a live fetch
    report = inp.status(snap)            # engine.status.compute_status with the same calls/tiers

The rules, in one place:

- **Config**: ``--config FILE``, else the first of ``services.config.DISCOVERY_ORDER`` in the
  cwd. A live command needs one; with a snapshot file it is optional (no config found → the
  snapshot alone, no calls, default tiers), but a config that exists and is bad is exit 2.
- **Tool lists**: the snapshot file when one is given, else a live fetch of the configured
  servers (``--server`` narrows both).
- **Calls**, per server: ``--calls SERVER=PATH`` on the command line, else ``calls`` in the
  config, else the log the proxy writes by default, ``<state dir>/calls/NAME.jsonl`` (the state
  dir is the config's, so the answer does not depend on the directory the command runs in). A
  log that does not exist yet is a note, never an error: it is the normal state before the
  proxy has recorded anything.
- **Tiers**: ``policy`` in the config (the pin file's own tier still wins, in engine.status).
- **Gate**: ``[rules]`` classes and ``[[ignore]]`` waivers in the config (engine/rulesconfig.py) are
  applied to every status computed here; the proxy, which does not come through here, never
  applies them.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_review.engine.errors import InputError

if TYPE_CHECKING:
    from mcp_review.engine.hosts import Targets
    from mcp_review.engine.model import ToolDef
    from mcp_review.engine.pins import PinFile
    from mcp_review.engine.snapshot import Snapshot
    from mcp_review.engine.status import StatusReport
    from mcp_review.engine.status_calls import CallLog
    from mcp_review.services.config import Config
    from mcp_review.services.config_model import ServerConfig
    from mcp_review.services.fetch import ProgressFn


@dataclass(frozen=True, slots=True)
class InputOptions:
    """What :func:`resolve` reads of a command line: the options every command shares, typed.
    The command layer builds it from its parsed arguments (``mcp_review.cli_args.input_options``);
    the demo and the screenshot script from paths (:func:`resolve_paths`)."""

    config: str | None = None
    """``--config FILE`` (or ``auto``); None: discovered in the cwd."""
    list_configs: bool = False
    """``--list-configs``: print the client configs ``--config auto`` reads, and exit."""
    servers: tuple[str, ...] = ()
    """The servers the command names: ``--server`` (repeatable), or ``approve``'s and
    ``deny``'s positional SERVER. ``--candidate`` swaps in only these (all when empty)."""
    snapshot: str | None = None
    """The snapshot file to review instead of a live fetch."""
    snapshot_option: str = "--snapshot"
    """How the command spells its snapshot option (``check``: ``--from-snapshot``)."""
    candidate: bool = False
    timeout: float | None = None
    pins: str | None = None
    quiet: bool = False
    sign_key: str | None = None
    calls: tuple[str, ...] = ()
    """``--calls SERVER=PATH`` specs, as given."""
    hosts: str | None = None
    """``--hosts A,B`` as given."""


def safe_file_name(name: str) -> str:
    """A server's local name as a file name (the proxy's default call and stderr logs)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "server"


def default_call_log(state_dir: str, server: str) -> str:
    """Where ``mcp-review proxy NAME`` records calls when the config sets no ``calls``."""
    return os.path.join(state_dir, "calls", f"{safe_file_name(server)}.jsonl")


def parse_calls_specs(specs: list[str]) -> dict[str, str]:
    """``["srv=path", ...]`` → {server: path}. Split at the first ``=``: paths such as
    ``logs/date=2026-11-29/calls.jsonl`` are more common than ``=`` in a server name."""
    out: dict[str, str] = {}
    for spec in specs:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--calls expects SERVER=PATH, got {spec!r}")
        out[name] = path
    return out


def call_log_paths(cfg: Config | None, servers: list[str]) -> dict[str, tuple[str, str]]:
    """{server: (path, where-from)} for each of ``servers`` the config knows: its ``calls``,
    else the proxy's default log in the config's state dir; when that log does not exist but
    the one a proxy started without the config writes does (``proxy --url URL --name NAME`` or
    ``proxy --name NAME -- CMD``: the user's state folder), that one. So a server's recorded
    calls are found whichever way its proxy was started."""
    from mcp_review.store.files import user_state_dir

    out: dict[str, tuple[str, str]] = {}
    if cfg is None:
        return out
    for s in cfg.servers:
        if s.name not in servers:
            continue
        if s.calls:
            out[s.name] = (s.calls, "config")
        elif cfg.state_dir:
            path = default_call_log(cfg.state_dir, s.name)
            user = default_call_log(user_state_dir(), s.name)
            if not os.path.lexists(path) and os.path.lexists(user):
                out[s.name] = (user, "proxy default (started without the config)")
            else:
                out[s.name] = (path, "proxy default")
    return out


def load_calls_for(
    cfg: Config | None,
    servers: list[str],
    specs: list[str],
    note: Callable[[str], None],
    *,
    stream: bool = False,
) -> dict[str, CallLog]:
    """{server: CallLog} by the rules in the module docstring. A ``--calls`` file must exist
    (it was named on purpose); a config's or the proxy's log that does not exist yet is a note.

    ``stream``: the logs are opened (an unreadable one is an error now) but read only when the
    status is computed, once, keeping only the calls the report lists (``status``, ``check``:
    memory bounded by the report, not by the log). The app and ``watch`` keep every call."""
    from mcp_review.store.readers import load_call_log, stream_call_log

    read = stream_call_log if stream else load_call_log

    out: dict[str, CallLog] = {}
    explicit = parse_calls_specs(specs)
    for name, (path, origin) in call_log_paths(cfg, servers).items():
        if name in explicit:
            continue
        if os.path.exists(path):
            out[name] = read(path)
        elif origin == "config":
            note(
                f"no call log yet at {path} (server {name!r}): nothing to replay until the "
                "proxy records calls"
            )
    for name, path in explicit.items():
        out[name] = read(path)
    return out


def _discover_optional(path: str | None) -> Config | None:
    """The config at ``path``, or the discovered one, or None when none exists (snapshot runs)."""
    from mcp_review.services.config import DISCOVERY_ORDER, load_config

    if path is not None:
        return load_config(path)
    if not any(os.path.isfile(p) for p in DISCOVERY_ORDER):
        return None
    return load_config(None)


def load_config_for(opts: InputOptions, *, required: bool) -> Config | None:
    """The config ``opts`` names (``--config``) or the discovered one, applying ``--candidate``
    and ``--timeout``; None only when not ``required`` and none exists."""
    from mcp_review.services.config import load_config

    cfg = load_config(opts.config) if required else _discover_optional(opts.config)
    if cfg is not None and opts.candidate:
        use_candidates(cfg, only=list(opts.servers) or None)
    timeout = opts.timeout
    if cfg is not None and timeout is not None:
        if timeout <= 0:
            raise InputError("--timeout must be positive")
        cfg.servers = [dataclasses.replace(s, timeout=timeout) for s in cfg.servers]
    return cfg


def use_candidates(cfg: Config, *, only: list[str] | None = None) -> None:
    """``--candidate``: each server that names a candidate is replaced by it (same name and
    principal); the others are reviewed as they are. Without the flag nothing of a candidate
    runs. No candidate among the servers reviewed is an input error."""
    named = [
        s.name for s in cfg.servers if s.candidate is not None and (not only or s.name in only)
    ]
    if not named:
        raise InputError(
            "--candidate: no server reviewed names a candidate (add a "
            "[servers.NAME.candidate] table with the keys the upgrade changes)",
            source=cfg.source,
        )
    cfg.servers = [s.candidate if s.candidate is not None else s for s in cfg.servers]
    cfg.candidates = named


@dataclass(slots=True)
class Inputs:
    """Everything a command or the app reviews, resolved once."""

    config: Config | None
    """services.config.Config, or None (a snapshot reviewed without any config)."""
    snapshot_path: str | None
    pins_path: str
    pins: PinFile
    only: list[str] | None = None
    calls: dict[str, CallLog] = field(default_factory=dict)
    tiers: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    quiet: bool = False
    explicit_calls: list[str] = field(default_factory=list)
    """Servers whose log was named with ``--calls``."""
    candidates: list[str] = field(default_factory=list)
    """``--candidate``: the servers whose candidate is reviewed in their place. A decision on
    one of them keeps the running version's approval beside it (engine/candidate.py)."""
    hosts: Targets | None = None
    """The target hosts (engine.hosts.Targets: ``--hosts``, ``[hosts] targets``, or inferred
    from the client configs read; services/hosts.py), or None: no host is judged."""

    @property
    def live(self) -> bool:
        return self.snapshot_path is None

    @property
    def servers(self) -> list[ServerConfig]:
        """The configured servers reviewed (``--server`` applied)."""
        if self.config is None:
            return []
        return [s for s in self.config.servers if not self.only or s.name in self.only]

    @property
    def origins(self) -> dict[str, str]:
        """Per configured server, what it runs: command and arguments (stdio) or URL. The same
        tool name on two servers with one origin is one server configured twice, not
        shadowing (engine.status.flag_shadowing)."""
        import json

        if self.config is None:
            return {}
        return {
            s.name: (
                json.dumps([s.command, *s.args]) if s.command is not None else json.dumps([s.url])
            )
            for s in self.config.servers
            if s.command is not None or s.url is not None
        }

    def snapshot(self, on_progress: ProgressFn | None = None) -> Snapshot:
        """The tool lists: the snapshot file (``--server`` applied), or a live fetch."""
        if self.snapshot_path is not None:
            from mcp_review.engine.calls import gc_paused
            from mcp_review.store.readers import load_snapshot

            with gc_paused():  # 10,000 definitions, no reference cycles (see status below)
                snap = load_snapshot(self.snapshot_path)
            if self.only:
                missing = [n for n in self.only if n not in snap.servers]
                if missing:
                    from mcp_review.engine.names import not_found, shown

                    raise InputError(
                        f"server {shown(missing[0])} is not in the snapshot"
                        + not_found(missing[0], snap.servers, "servers"),
                        source=self.snapshot_path,
                    )
                snap.servers = {n: s for n, s in snap.servers.items() if n in self.only}
            return snap
        cfg = self.config
        if cfg is None:
            from mcp_review.engine.snapshot import Snapshot

            return Snapshot()
        from mcp_review.services.fetch import fetch_config

        if not self.quiet:
            print(f"fetching {len(self.servers)} server(s) from {cfg.source}", file=sys.stderr)
        return fetch_config(
            cfg, only=self.only, on_progress=on_progress or progress_printer(self.quiet)
        )

    def status(
        self,
        snap: Snapshot,
        *,
        witnesses: bool = True,
        version_bumps: bool = False,
        keep_valid_calls: bool = True,
        pinned_elsewhere: bool = False,
    ) -> StatusReport:
        """engine.status.compute_status over ``snap`` with these calls and tiers.

        ``pinned_elsewhere``: a deciding command that fetched only the servers it names judges
        look-alikes and cross-server shadowing against the approved pinned names of the
        servers it did not fetch (the findings say so)."""
        from mcp_review.engine.calls import gc_paused
        from mcp_review.engine.status import compute_status

        for name in self.explicit_calls:
            if name not in snap.servers and not self.quiet:
                print(
                    f"mcp-review: warning: --calls names server {name!r}, which is not "
                    "among the servers reviewed",
                    file=sys.stderr,
                )
        # A fleet's status builds hundreds of thousands of objects and no reference cycles:
        # collections during it only walked the snapshot and the pin file again and again.
        with gc_paused():
            report = compute_status(
                snap,
                self.pins,
                calls=self.calls,
                tiers=self.tiers,
                witnesses=witnesses,
                version_bumps=version_bumps,
                origins=self.origins,
                keep_valid_calls=keep_valid_calls,
                elsewhere=self.pinned_elsewhere(snap) if pinned_elsewhere else (),
                hosts=self.hosts,
            )
        if self.candidates:
            report.mark_candidates(self.candidates)
        self.mark_held(report)
        gate = self.config.gate if self.config is not None else None
        if gate:
            from mcp_review.engine.rulesconfig import govern

            govern(report, gate)
        return report

    def mark_held(self, report: StatusReport) -> None:
        """``held_by_proxy`` on the tools an enforcing proxy holds now (its state file beside
        the server's call log: the log named with ``--calls``, the config's, else the proxy's
        default)."""
        from mcp_review.store.calllog import mark_held

        names = [s.name for s in report.servers]
        logs = {n: p for n, (p, _) in call_log_paths(self.config, names).items()}
        logs.update({n: c.path for n, c in self.calls.items() if c.path})
        mark_held(report, logs)

    def pinned_elsewhere(self, snap: Snapshot) -> list[tuple[str, str, str]]:
        """(server, principal, tool) of the approved pins of servers not in ``snap``."""
        present = set(snap.servers)
        return sorted(k for k, p in self.pins.pins.items() if k[0] not in present and p.approved)

    def print_notes(self) -> None:
        if self.quiet:
            return
        from mcp_review.engine.hidden import safe_text

        for n in self.notes:
            print(f"mcp-review: note: {safe_text(n)}", file=sys.stderr)


def resolve(
    opts: InputOptions,
    *,
    live: bool = True,
    load_pin_file: bool = True,
    with_calls: bool = True,
    require_config: bool = True,
    server_filter: bool = True,
    stream_calls: bool = False,
) -> Inputs:
    """Resolve a command's options (``--config``, ``--server``, ``--pins``, ``--calls``, its
    snapshot file: :class:`InputOptions`) into :class:`Inputs`.

    ``live``: without a snapshot file the command fetches the configured servers (so the
    config is required); a command that cannot fetch passes False. ``require_config=False``:
    no config found is no error even without a snapshot (``deny`` falls back to the pin file);
    :meth:`Inputs.snapshot` then returns an empty snapshot. ``server_filter=False``: the
    command's server is positional (approve, deny), not a ``--server`` filter.
    ``stream_calls``: see :func:`load_calls_for` (a command that computes the status once).
    """
    from mcp_review.engine.pins import PinFile
    from mcp_review.store.pinfile import load_pins

    if opts.list_configs:
        from mcp_review.engine.errors import EarlyExit
        from mcp_review.services.discover import list_sources, list_text

        sys.stdout.write(list_text(list_sources()))
        raise EarlyExit(0)
    snapshot_path = opts.snapshot
    if snapshot_path is not None and opts.candidate:
        raise InputError(
            "--candidate runs each server's candidate live; it cannot be combined "
            "with a snapshot file"
        )
    if snapshot_path is None and not live:
        raise InputError(f"{opts.snapshot_option} FILE is needed")
    cfg = load_config_for(opts, required=snapshot_path is None and require_config)
    pins_path = opts.pins or (cfg.pins if cfg is not None else None) or "mcp-pins.toml"
    # The pin file before anything connects anywhere: a bad one fails first.
    from mcp_review.engine.calls import gc_paused

    with gc_paused():  # a fleet's pin file: 10,000 pins, no reference cycles
        pins = load_pins(pins_path) if load_pin_file else PinFile(path=pins_path)
    only = (list(opts.servers) or None) if server_filter else None
    inp = Inputs(
        config=cfg,
        snapshot_path=snapshot_path,
        pins_path=pins_path,
        pins=pins,
        only=only,
        quiet=opts.quiet,
    )
    from mcp_review.services.signing import install

    install(pins, opts.sign_key, cfg)  # decisions signed when a key is set
    if cfg is not None:
        inp.notes.extend(cfg.notes)
        inp.candidates = list(cfg.candidates)
    if cfg is not None and only and snapshot_path is None:
        known = {s.name for s in cfg.servers}
        for n in only:
            if n not in known:
                from mcp_review.engine.names import not_found, shown

                raise InputError(
                    f"no server {shown(n)} in the config" + not_found(n, known, "servers"),
                    source=cfg.source,
                )
    names = [s.name for s in inp.servers]
    if with_calls:
        inp.explicit_calls = list(parse_calls_specs(list(opts.calls)))
        inp.calls = load_calls_for(
            cfg,
            names,
            list(opts.calls),
            inp.notes.append,
            stream=stream_calls,
        )
    inp.tiers = {s.name: s.policy for s in inp.servers if s.policy}
    from mcp_review.services.hosts import parse_hosts_option, resolve_targets, targets_note

    given = opts.hosts
    inp.hosts = resolve_targets(
        cfg, parse_hosts_option(given) if given else None, recorded_clients(cfg, names)
    )
    note = targets_note(inp.hosts)
    if note:
        inp.notes.append(note)
    return inp


def recorded_clients(cfg: Config | None, servers: list[str]) -> dict[str, str]:
    """clientInfo names an enforcing proxy recorded for ``servers`` (beside each call log,
    ``store.calllog.record_client``) -> where and when: the hosts the user runs."""
    from mcp_review.store.calllog import clients_path, read_clients

    out: dict[str, str] = {}
    for path, _ in call_log_paths(cfg, servers).values():
        for name, at in read_clients(path).items():
            out.setdefault(name, f"{clients_path(path)}, last {at}")
    return out


def resolve_paths(
    *, config: str | None, pins: str, snapshot: str | None = None, quiet: bool = True
) -> Inputs:
    """:func:`resolve` for callers that hold paths rather than a command line (the demo, the
    screenshot script): the same rules, the same answer."""
    return resolve(InputOptions(config=config, pins=pins, snapshot=snapshot, quiet=quiet))


def load_pair(old_path: str, new_path: str) -> tuple[ToolDef, ToolDef]:
    """Two tool-definition JSON files (``classify``/``gate`` OLD NEW)."""
    from mcp_review.engine.model import ToolDef
    from mcp_review.store.readers import load_file

    old = ToolDef.from_wire(load_file(old_path), source=old_path)
    new = ToolDef.from_wire(load_file(new_path), source=new_path)
    return old, new


def progress_printer(quiet: bool) -> ProgressFn | None:
    """A fetch ``Progress`` callback printing one line per finished server to stderr."""
    if quiet:
        return None

    from mcp_review.engine.hidden import safe_text

    def on_progress(p: Any) -> None:
        # The error message quotes the server (its stderr, its error text): sanitised.
        if p.state == "done":
            print(f"  {safe_text(p.server)}: {p.tools} tools ({p.elapsed:.1f} s)", file=sys.stderr)
        elif p.state == "failed":
            err = p.snapshot.error if p.snapshot is not None else {"kind": "?", "message": ""}
            print(
                f"  {safe_text(p.server)}: {safe_text(err['kind'])}: "
                f"{safe_text(err['message'])} ({p.elapsed:.1f} s)",
                file=sys.stderr,
            )

    return on_progress
