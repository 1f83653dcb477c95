#!/usr/bin/env python3
"""Capture the raw ``tools/list`` of published MCP servers, several released versions each.

Each version is installed into a throwaway folder with install scripts off
(``npm install --ignore-scripts``; ``pip install --only-binary :all:`` into a throwaway venv),
started with no network (``unshare -n``, needs root) and dummy credentials where a server wants
a token to start, and asked for its tool list by a raw JSON-RPC client written here: no SDK
model sits between the wire and the file, so an old release that sends a schema today's SDK
rejects (an ``inputSchema`` without ``type``) is saved as it was sent.

Output: ``tests/corpus/<server>/<version>.json``::

    {"manifest": {server, package, ecosystem, version, captured, started, env, protocolVersion,
                  serverInfo, pages, sha256 of each raw result line},
     "results": [<raw JSON-RPC result of each tools/list page, exactly as sent>]}

Usage: ``python scripts/corpus/capture.py [--only SERVER ...] [--force] [--list]``. Installs run
one after another (the machine is shared); a version already captured is skipped unless
``--force``. Needs network to the registries for the install step only.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"
PROTOCOL = "2025-06-18"
"""Offered in ``initialize``: old servers answer with their own version, new ones accept it."""
START_TIMEOUT = 90.0
PAGE_LIMIT = 20


@dataclass(frozen=True)
class Server:
    slug: str
    ecosystem: str  # "npm" | "pypi"
    package: str
    versions: tuple[str, ...]
    bin: str | None = None  # npm bin / console script; default: the package's only bin
    args: tuple[str, ...] = ()  # "{tmp}" is replaced by a throwaway directory
    env: dict[str, str] = field(default_factory=dict)
    version_args: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per-version args where a release changed its command line (a transport subcommand)."""
    fallbacks: tuple[tuple[str, ...], ...] = ()
    """Further requirements (pip caps, npm pins) to try in order when a release exits before
    answering; each is recorded in the capture's ``installed_with``."""
    loopback: bool = False
    """Bring up ``lo`` inside the network namespace: servers that bind a local port at start
    (an OAuth callback) fail without it. Still no route off the machine."""

    def args_for(self, version: str) -> tuple[str, ...]:
        return self.version_args.get(version, self.args)


SERVERS: tuple[Server, ...] = (
    Server(
        "server-filesystem",
        "npm",
        "@modelcontextprotocol/server-filesystem",
        ("0.6.2", "2025.3.28", "2025.7.29", "2025.11.25", "2026.8.31"),
        args=("{tmp}",),
    ),
    Server(
        "server-everything",
        "npm",
        "@modelcontextprotocol/server-everything",
        ("0.6.2", "2025.5.12", "2025.9.25", "2025.11.25", "2026.1.26", "2026.7.4", "2026.8.31"),
        args=("stdio",),
    ),
    Server(
        "server-memory",
        "npm",
        "@modelcontextprotocol/server-memory",
        ("0.6.2", "2025.8.4", "2025.11.25", "2026.8.31"),
        env={"MEMORY_FILE_PATH": "{tmp}/memory.jsonl"},
    ),
    Server(
        "server-github",
        "npm",
        "@modelcontextprotocol/server-github",
        ("0.6.2", "2025.1.23", "2025.4.8"),
        env={"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_dummy0000000000000000000000000000"},
    ),
    Server(
        "server-sequential-thinking",
        "npm",
        "@modelcontextprotocol/server-sequential-thinking",
        ("0.6.2", "2025.7.1", "2025.12.18", "2026.8.31"),
    ),
    Server(
        "firecrawl-mcp",
        "npm",
        "firecrawl-mcp",
        ("1.3.0", "1.12.0", "2.0.2", "3.5.2", "3.15.0", "3.26.0"),
        env={"FIRECRAWL_API_KEY": "fc-dummy0000000000000000"},
    ),
    Server(
        "playwright-mcp",
        "npm",
        "@playwright/mcp",
        ("0.0.10", "0.0.30", "0.0.40", "0.0.50", "0.0.60", "0.0.70", "0.0.83"),
    ),
    Server(
        "notion-mcp-server",
        "npm",
        "@notionhq/notion-mcp-server",
        ("1.8.0", "1.9.1", "2.0.0", "2.5.2"),
        env={
            "NOTION_TOKEN": "ntn_dummy000000000000",
            "OPENAPI_MCP_HEADERS": '{"Authorization": "Bearer ntn_dummy", '
            '"Notion-Version": "2022-06-28"}',
        },
    ),
    Server(
        "tavily-mcp",
        "npm",
        "tavily-mcp",
        ("0.1.4", "0.2.3", "0.2.12", "0.2.22"),
        env={"TAVILY_API_KEY": "tvly-dummy000000000000"},
    ),
    # exa-mcp-server 2.1.1 cannot start (its bin, .smithery/index.cjs, is not in the package).
    Server(
        "exa-mcp-server",
        "npm",
        "exa-mcp-server",
        ("0.1.1", "3.0.5", "3.2.1", "3.4.1"),
        env={"EXA_API_KEY": "dummy-exa-key"},
    ),
    Server(
        "context7-mcp",
        "npm",
        "@upstash/context7-mcp",
        ("1.0.0", "1.0.14", "2.0.0", "3.0.0", "4.1.1"),
    ),
    Server(
        "chrome-devtools-mcp",
        "npm",
        "chrome-devtools-mcp",
        ("0.2.6", "0.10.1", "0.15.0", "0.20.0", "1.0.1", "1.11.0"),
    ),
    Server(
        "desktop-commander",
        "npm",
        "@wonderwhy-er/desktop-commander",
        ("0.1.19", "0.2.3", "0.2.15", "0.2.30", "0.2.52"),
    ),
    Server(
        "mcp-server-time",
        "pypi",
        "mcp-server-time",
        ("0.6.2", "2025.7.1", "2026.1.26", "2026.10.19"),
    ),
    Server(
        "mcp-server-fetch",
        "pypi",
        "mcp-server-fetch",
        ("0.6.2", "2025.4.7", "2026.6.4", "2026.10.24"),
    ),
    Server(
        "mcp-server-git",
        "pypi",
        "mcp-server-git",
        ("0.5.1", "0.6.2", "2025.7.1", "2025.12.18", "2026.10.19"),
    ),
    # Added for issue 26: large SaaS servers (20+ tools) and FastMCP servers from PyPI, chosen
    # for schema churn across the releases the registries hold (LEFT_OUT: tried and dropped).
    Server(
        "gitlab-mcp",
        "npm",
        "@zereight/mcp-gitlab",
        ("2.0.34", "2.0.36", "2.1.49", "2.1.64"),
        env={
            "GITLAB_PERSONAL_ACCESS_TOKEN": "glpat-dummy00000000000000",
            "GITLAB_API_URL": "https://gitlab.invalid/api/v4",
        },
    ),
    Server(
        "heroku-mcp-server",
        "npm",
        "@heroku/mcp-server",
        ("1.0.7", "1.2.0", "1.2.8"),
        env={"HEROKU_API_KEY": "HRKU-dummy0000000000000000"},
        # 1.2.8 imports '@modelcontextprotocol/sdk/server/mcp' with no extension, which the
        # SDK's exports map resolves up to 1.26 and not in the 1.32 npm picks today.
        fallbacks=(("@modelcontextprotocol/sdk@1.26.0",),),
    ),
    Server(
        "airtable-mcp-server",
        "npm",
        "airtable-mcp-server",
        ("1.4.1", "1.7.3", "1.9.6", "1.12.0", "1.14.0"),
        env={"AIRTABLE_API_KEY": "patdummy0000000000.0000"},
    ),
    Server(
        "git-mcp-server",
        "npm",
        "@cyanheads/git-mcp-server",
        ("2.3.2", "2.6.5", "2.10.5", "2.15.3"),
        env={"MCP_TRANSPORT_TYPE": "stdio", "MCP_LOG_LEVEL": "error"},
    ),
    Server(
        "shopify-dev-mcp",
        "npm",
        "@shopify/dev-mcp",
        ("1.0.0", "1.4.1", "1.11.0", "1.15.0", "1.16.0"),
    ),
    Server(
        "azure-devops-mcp",
        "npm",
        "@azure-devops/mcp",
        ("2.2.2", "2.7.0", "2.10.0"),
        args=("dummy-org",),
    ),
    Server(
        "datadog-mcp-server",
        "npm",
        "@winor30/mcp-server-datadog",
        ("1.6.0", "1.8.0"),
        env={"DATADOG_API_KEY": "dummy", "DATADOG_APP_KEY": "dummy"},
    ),
    Server(
        "mapbox-mcp-server",
        "npm",
        "@mapbox/mcp-server",
        ("0.2.0", "0.14.0"),
        env={"MAPBOX_ACCESS_TOKEN": "pk.dummy0000000000"},
    ),
    Server(
        "mcp-server-sqlite",
        "pypi",
        "mcp-server-sqlite",
        ("0.5.1", "2025.4.25"),
        args=("--db-path", "{tmp}/test.db"),
    ),
    Server(
        "workspace-mcp",
        "pypi",
        "workspace-mcp",
        ("1.6.3", "1.22.2", "2.2.1"),
        env={
            "GOOGLE_OAUTH_CLIENT_ID": "dummy.apps.googleusercontent.com",
            "GOOGLE_OAUTH_CLIENT_SECRET": "GOCSPX-dummy",
        },
        loopback=True,
    ),
    Server(
        "mcp-neo4j-cypher",
        "pypi",
        "mcp-neo4j-cypher",
        ("0.2.4", "0.6.0"),
        env={
            "NEO4J_URI": "bolt://neo4j.invalid:7687",
            "NEO4J_USERNAME": "neo4j",
            "NEO4J_PASSWORD": "dummy",
        },
    ),
    Server(
        "excel-mcp-server",
        "pypi",
        "excel-mcp-server",
        ("1.1.2", "2.0.0", "2.2.2"),
        args=("stdio",),
        env={"EXCEL_FILES_PATH": "{tmp}"},
    ),
    Server(
        "redis-mcp-server",
        "pypi",
        "redis-mcp-server",
        ("0.2.0", "0.3.6", "0.5.1"),
        env={"REDIS_HOST": "redis.invalid", "REDIS_PORT": "6379"},
    ),
    Server(
        "office-word-mcp-server",
        "pypi",
        "office-word-mcp-server",
        ("1.0.0", "1.1.5", "1.1.11"),
        bin="word_mcp_server",
    ),
    Server(
        "eks-mcp-server",
        "pypi",
        "awslabs.eks-mcp-server",
        ("0.1.1", "0.1.20", "0.2.1"),
        env={
            "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "AKIADUMMY000000000000",
            "AWS_SECRET_ACCESS_KEY": "dummy",
        },
    ),
    Server(
        "elasticsearch-mcp-server",
        "pypi",
        "elasticsearch-mcp-server",
        ("1.0.0", "2.0.10", "2.1.0", "2.1.6"),
        env={
            "ELASTICSEARCH_HOSTS": "https://es.invalid:9200",
            "ELASTICSEARCH_USERNAME": "elastic",
            "ELASTICSEARCH_PASSWORD": "dummy",
        },
    ),
    Server(
        "dynamodb-mcp-server",
        "pypi",
        "awslabs.dynamodb-mcp-server",
        ("0.1.4", "1.0.9", "2.0.24", "2.1.8"),
        env={
            "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "AKIADUMMY000000000000",
            "AWS_SECRET_ACCESS_KEY": "dummy",
        },
    ),
)


LEFT_OUT = {
    "@softeria/ms-365-mcp-server": "size: 87-178 tools, 0.6-1.2 MB a version (3 captured, dropped)",
    "@apify/actors-mcp-server": "0.4.28 fetches its actors' definitions at start: no answer in "
    "90 s without network",
    "@hubspot/mcp-server, @circleci/mcp-server-circleci, @browserbasehq/mcp-server-browserbase, "
    "@cloudflare/mcp-server-cloudflare, @upstash/mcp-server": "one released version on npm "
    "today: no churn to capture",
    "pagerduty-mcp": "needs Python >= 3.12 (the capture machine has 3.11)",
    "@mondaydotcomorg/monday-api-mcp": "time: 2.0.0 captured (92 tools) in 267 s, the rest not "
    "reached in the session's time (2026-12-01)",
    "held out for an independent check (issue 26)": "@supabase/mcp-server-supabase, "
    "@sentry/mcp-server, figma-developer-mcp, mongodb-mcp-server, @neondatabase/mcp-server-neon, "
    "mcp-server-kubernetes, @executeautomation/playwright-mcp-server, @brightdata/mcp, "
    "@stripe/mcp, arxiv-mcp-server, mcp-clickhouse, mcp-server-motherduck, mcp-atlassian, "
    "jupyter-mcp-server",
}
"""Servers considered and not in the corpus, with why (written into the capture manifest)."""


class CaptureError(Exception):
    pass


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float = 900):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise CaptureError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-2000:]}")
    return p


def install(srv: Server, version: str, work: Path, extra: tuple[str, ...] = ()) -> list[str]:
    """Install one version into ``work``; return the command that starts it (no args yet).
    ``extra``: further requirements (a cap on a dependency the release predates)."""
    if srv.ecosystem == "npm":
        _run(
            [
                "npm",
                "install",
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--no-save",
                "--loglevel=error",
                "--prefix",
                str(work),
                f"{srv.package}@{version}",
                *extra,
            ],
            cwd=work,
        )
        pkg_dir = work / "node_modules" / srv.package
        meta = json.loads((pkg_dir / "package.json").read_text())
        bins = meta.get("bin")
        if isinstance(bins, str):
            entry = bins
        elif isinstance(bins, dict) and bins:
            entry = bins[srv.bin] if srv.bin else next(iter(bins.values()))
        else:
            raise CaptureError(f"{srv.package}@{version} declares no bin")
        return ["node", str((pkg_dir / entry).resolve())]
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=work)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    _run(
        [
            str(venv / "bin" / "pip"),
            "install",
            "-q",
            "--only-binary",
            ":all:",
            f"{srv.package}=={version}",
            *extra,
        ],
        cwd=work,
        env=env,
    )
    exe = venv / "bin" / (srv.bin or srv.package)
    if not exe.exists() and not srv.bin:
        exe = venv / "bin" / _console_script(venv, srv.package)
    if not exe.exists():
        raise CaptureError(f"{exe} not installed")
    return [str(exe)]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _console_script(venv: Path, package: str) -> str:
    """The package's only console script, from its installed entry points (a release may name
    its command differently from the package)."""
    for info in venv.glob("lib/python*/site-packages/*.dist-info"):
        if _norm(info.name.rsplit("-", 1)[0]) != _norm(package):
            continue
        ep = info / "entry_points.txt"
        names: list[str] = []
        section = ""
        for line in ep.read_text().splitlines() if ep.exists() else []:
            line = line.strip()
            if line.startswith("["):
                section = line
            elif section == "[console_scripts]" and "=" in line:
                names.append(line.split("=", 1)[0].strip())
        if len(names) == 1:
            return names[0]
        raise CaptureError(f"{package}: console scripts {names}: name one with bin=")
    raise CaptureError(f"{package}: not installed")


class RawClient:
    """Newline-delimited JSON-RPC over a child's stdio; keeps each response line's raw bytes."""

    def __init__(self, argv: list[str], *, cwd: Path, env: dict[str, str], errlog: Path):
        self._err = errlog.open("wb")
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            start_new_session=True,
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self._next_id = 0

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def send(self, msg: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict, deadline: float) -> tuple[dict, bytes]:
        self._next_id += 1
        rid = self._next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CaptureError(f"{method}: no answer in time")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                raise CaptureError(f"{method}: no answer in time") from None
            if line is None:
                raise CaptureError(f"{method}: server exited ({self.proc.poll()})")
            try:
                msg = json.loads(line)
            except ValueError:
                continue  # a log line on stdout: not ours
            if not isinstance(msg, dict):
                continue
            if msg.get("id") == rid and ("result" in msg or "error" in msg):
                if "error" in msg:
                    raise CaptureError(f"{method}: error {json.dumps(msg['error'])[:500]}")
                return msg["result"], line.rstrip(b"\r\n")
            if "method" in msg and "id" in msg:  # a server->client request: answer empty
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=3)
        except (subprocess.TimeoutExpired, OSError):
            pass
        try:  # the server's own children (browsers, daemons) go with it
            os.killpg(self.proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc.wait()
        self._err.close()


PYPI_FALLBACK = ("mcp<2",)
"""PyPI releases declare ``mcp>=1.x`` with no upper bound; those that predate mcp 2.0 fail to
start under it (``McpError`` moved, the server API changed). A release whose server exits
before answering is installed again with this cap (recorded in ``installed_with``)."""


def capture(srv: Server, version: str) -> dict:
    """The release as pip resolves it today; where it exits before answering, again with
    PYPI_FALLBACK, then with each of the server's own ``fallbacks`` (caps on what it imports)."""
    tries = [(), PYPI_FALLBACK, *srv.fallbacks] if srv.ecosystem == "pypi" else [(), *srv.fallbacks]
    for i, extra in enumerate(tries):
        try:
            return _capture(srv, version, extra)
        except CaptureError as e:
            if i == len(tries) - 1 or "server exited" not in str(e):
                raise
    raise AssertionError("unreachable")


def _capture(srv: Server, version: str, extra: tuple[str, ...] = ()) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"corpus-{srv.slug}-", ignore_cleanup_errors=True) as d:
        work = Path(d)
        home = work / "home"
        scratch = work / "tmp"
        home.mkdir()
        scratch.mkdir()
        argv0 = install(srv, version, work, extra)
        subst = {"{tmp}": str(scratch)}

        def fill(s: str) -> str:
            for k, v in subst.items():
                s = s.replace(k, v)
            return s

        args = [fill(a) for a in srv.args_for(version)]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TMPDIR": str(scratch),
            "LANG": "C.UTF-8",
            "NODE_ENV": "production",
            "NO_UPDATE_NOTIFIER": "1",
        }
        env.update({k: fill(v) for k, v in srv.env.items()})
        argv = ["unshare", "-n", *argv0, *args]
        if srv.loopback:  # lo up, then the server: still no route off the machine
            argv = ["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh"]
            argv += [*argv0, *args]
        errlog = work / "stderr.log"
        client = RawClient(argv, cwd=scratch, env=env, errlog=errlog)
        deadline = time.monotonic() + START_TIMEOUT
        try:
            init, _ = client.request(
                "initialize",
                {
                    "protocolVersion": PROTOCOL,
                    "capabilities": {},
                    "clientInfo": {"name": "mcp-review-corpus", "version": "1"},
                },
                deadline,
            )
            client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            results, digests, cursor = [], [], None
            for _ in range(PAGE_LIMIT):
                params = {"cursor": cursor} if cursor else {}
                res, raw = client.request("tools/list", params, deadline)
                results.append(res)
                digests.append("sha256:" + hashlib.sha256(raw).hexdigest())
                cursor = res.get("nextCursor") if isinstance(res, dict) else None
                if not cursor:
                    break
        except CaptureError as e:
            tail = errlog.read_bytes()[-1500:].decode("utf-8", "replace")
            raise CaptureError(f"{e}; stderr tail: {tail}") from None
        finally:
            client.close()
        shown_args = [a.replace(str(scratch), "<tmp>") for a in args]
        how = " ".join(
            [
                "npm install --ignore-scripts"
                if srv.ecosystem == "npm"
                else "pip install --only-binary :all: (venv)",
                *extra,
            ]
        )
        manifest = {
            "server": srv.slug,
            "package": srv.package,
            "ecosystem": srv.ecosystem,
            "version": version,
            "captured": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "installed_with": how,
            "started": " ".join(
                [
                    "unshare -n",
                    *(["(lo up)"] if srv.loopback else []),
                    srv.bin or srv.package,
                    *shown_args,
                ]
            ),
            "env": {
                k: (v.replace("{tmp}", "<tmp>") if "{tmp}" in v else "<dummy>")
                for k, v in srv.env.items()
            },
            "protocolVersion": init.get("protocolVersion") if isinstance(init, dict) else None,
            "serverInfo": init.get("serverInfo") if isinstance(init, dict) else None,
            "instructions": init.get("instructions") if isinstance(init, dict) else None,
            "pages": len(results),
            "raw_sha256": digests,
        }
        return {"manifest": manifest, "results": results}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="server slugs to capture")
    ap.add_argument("--force", action="store_true", help="re-capture versions already saved")
    ap.add_argument("--list", action="store_true", help="list servers and versions, then exit")
    ap.add_argument(
        "--retry", action="store_true", help="try again versions the manifest records as skipped"
    )
    a = ap.parse_args(argv)
    if a.list:
        for s in SERVERS:
            print(f"{s.slug:28} {s.ecosystem:5} {s.package} {' '.join(s.versions)}")
        return 0
    if shutil.which("unshare") is None:
        print("unshare not found (util-linux)", file=sys.stderr)
        return 2
    failed = []
    book = _read_manifest()
    for srv in SERVERS:
        if a.only and srv.slug not in a.only:
            continue
        entry = book.setdefault(srv.slug, {})
        _TOUCHED.add(srv.slug)
        entry.update(package=srv.package, ecosystem=srv.ecosystem)
        skipped = entry.setdefault("skipped", {})
        for v in srv.versions:
            out = CORPUS / srv.slug / f"{v}.json"
            if out.exists() and not a.force:
                continue
            if v in skipped and not a.retry:
                continue
            t0 = time.monotonic()
            try:
                data = capture(srv, v)
            except (CaptureError, subprocess.TimeoutExpired, OSError, ValueError) as e:
                failed.append((srv.slug, v, str(e)))
                skipped[v] = _why(e)
                print(f"FAIL {srv.slug} {v}: {str(e)[:600]}", file=sys.stderr, flush=True)
                _write_manifest(book)
                continue
            skipped.pop(v, None)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
            n = sum(len(r.get("tools", [])) for r in data["results"] if isinstance(r, dict))
            print(f"ok   {srv.slug} {v}: {n} tools ({time.monotonic() - t0:.0f} s)", flush=True)
            _write_manifest(book)
    _write_manifest(book)
    return 1 if failed else 0


_TOUCHED: set[str] = set()
"""Servers this run captures: its entries win over the manifest on disk, the others' stay."""

MANIFEST = CORPUS / "manifest.json"
"""The capture manifest: per server its package, the versions captured (the files) and the
versions tried and skipped, each with why (the first lines of the failure, paths elided)."""


def _read_manifest() -> dict:
    if MANIFEST.exists():
        return json.loads(MANIFEST.read_text(encoding="utf-8"))["servers"]
    return {}


def _write_manifest(book: dict) -> None:
    """Write ``book`` over the manifest on disk, keeping the entries of servers another
    capture run (running beside this one on other servers) wrote since this run read it."""
    on_disk = _read_manifest()
    book = {**on_disk, **{k: v for k, v in book.items() if k in _TOUCHED}}
    for slug, entry in book.items():
        d = CORPUS / slug
        caps = [p.stem for p in d.glob("*.json")] if d.is_dir() else []
        entry["captured"] = sorted(caps, key=_version_key)
        entry["skipped"] = dict(sorted(entry.get("skipped", {}).items()))
    doc = {
        "about": "tests/corpus/README.md; made by scripts/corpus/capture.py",
        "servers": dict(sorted(book.items())),
        "left_out": LEFT_OUT,
    }
    MANIFEST.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def _version_key(v: str) -> tuple:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"[.\-+]", v))


def _why(e: BaseException) -> str:
    """A skip's reason as committed: the failure and the server's last words, without the
    throwaway folder's paths."""
    text = f"{type(e).__name__}: {e}" if not isinstance(e, CaptureError) else str(e)
    text = re.sub(r"/tmp/corpus-[^/\s]+", "<work>", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text[:900]


if __name__ == "__main__":
    sys.exit(main())
