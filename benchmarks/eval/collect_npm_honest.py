#!/usr/bin/env python3
"""Collect honest tool lists from published npm MCP servers by running them (``honest_dev5/``).

``python benchmarks/eval/collect_npm_honest.py OUT_DIR NAME@VERSION[=BIN ARGS][|KEY=VALUE,...] ...``

``|KEY=VALUE,...`` sets placeholder settings (``honest_dev7/``'s vendor servers refuse to start
without an API token's variable, though listing their tools calls no service): made-up values,
never a working credential; the ``note`` names each variable set.

For each package: the registry's metadata of that exact version (its tarball's SHA-1, its
``gitHead`` where the publisher recorded one, its repository and licence) is read with
``npm view``; the package is installed into a scratch folder with ``npm install
--ignore-scripts`` (no install script runs); its command is started over stdio with no
credentials and a scratch working folder, and ``tools/list`` is read with the project's MCP
client (every page). The tools are written as the server sent them (name, description,
input schema; titles and annotations dropped) to ``OUT_DIR/<stem>.json`` with the provenance
the honest sets' test checks: ``repo`` (the package's repository), ``path`` (``npm
NAME@VERSION``), ``commit`` (the ``gitHead`` where recorded, else the tarball's SHA-1; the
``note`` says which), ``licence`` and ``note``. A package that will not start or lists no tool
is reported and skipped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client

SCRATCH = Path(tempfile.gettempdir()) / "honest_npm"


def _view(spec: str) -> dict[str, Any]:
    out = subprocess.run(
        ["npm", "view", spec, "--json"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    data = json.loads(out)
    return data[-1] if isinstance(data, list) else data


def _repo(meta: dict[str, Any]) -> str:
    url = meta.get("repository")
    url = url.get("url", "") if isinstance(url, dict) else (url or "")
    m = re.search(r"github\.com[/:]([^/]+)/([^/#]+?)(?:\.git)?(?:[/#].*)?$", url)
    if m:
        return f"{m.group(1)}/{m.group(2)}"
    return f"npm/{meta['name']}"


def _install(name: str, version: str) -> Path:
    where = SCRATCH / re.sub(r"[^a-zA-Z0-9]+", "_", f"{name}@{version}")
    if not (where / "node_modules" / name / "package.json").exists():
        where.mkdir(parents=True, exist_ok=True)
        (where / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        subprocess.run(
            ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", f"{name}@{version}"],
            cwd=where,
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
            env={**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"},
        )
    return where


def _bin(where: Path, name: str, want: str | None) -> Path:
    pkg = json.loads((where / "node_modules" / name / "package.json").read_text(encoding="utf-8"))
    bins = pkg.get("bin")
    if isinstance(bins, str):
        rel = bins
    elif isinstance(bins, dict) and bins:
        rel = bins[want] if want else sorted(bins.values())[0]
    else:
        rel = pkg.get("main", "index.js")
    return where / "node_modules" / name / rel


async def _list_tools(
    script: Path, args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    params = StdioServerParameters(
        command="node",
        args=[str(script), *args],
        cwd=str(cwd),
        env={**get_default_environment(), **env} if env else None,
    )
    return await list_tools(params)


async def list_tools(params: StdioServerParameters) -> list[dict[str, Any]]:
    """Every page of the server's tool list, each tool as name, description and input schema
    (collect_pypi_honest.py lists its servers the same way)."""
    with tempfile.TemporaryFile("w+") as err:
        async with Client(stdio_client(params, errlog=err), mode="legacy", cache=None) as c:
            tools: list[dict[str, Any]] = []
            cursor = None
            for _ in range(20):
                page = await c.list_tools(cursor=cursor)
                tools += [
                    t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in page.tools
                ]
                cursor = page.next_cursor
                if not cursor:
                    break
    return [
        {
            "name": t["name"],
            "description": t.get("description", ""),
            "inputSchema": t.get("inputSchema", {"type": "object"}),
        }
        for t in tools
    ]


def placeholders(spec: str) -> tuple[str, dict[str, str]]:
    """``SPEC|KEY=VALUE,...`` -> (SPEC, placeholder settings)."""
    spec, _, env = spec.partition("|")
    return spec, dict(kv.split("=", 1) for kv in env.split(",") if kv)


def collect(spec: str, out: Path) -> str:
    spec, env = placeholders(spec)
    spec, _, want = spec.partition("=")
    args: list[str] = []
    if " " in want:
        want, *args = want.split(" ")
    meta = _view(spec)
    name, version = meta["name"], meta["version"]
    where = _install(name, version)
    work = where / "cwd"
    work.mkdir(exist_ok=True)
    tools = asyncio.run(
        asyncio.wait_for(_list_tools(_bin(where, name, want or None), args, work, env), 90)
    )
    sent = len(tools)
    tools = [t for t in tools if str(t["description"]).strip()]
    if not tools:
        raise RuntimeError("no tools with a description")
    dist = meta.get("dist", {})
    git_head = meta.get("gitHead")
    commit = git_head if git_head and re.fullmatch(r"[0-9a-f]{40}", git_head) else dist["shasum"]
    which = (
        "the publisher's recorded gitHead"
        if commit == git_head
        else "the registry tarball's SHA-1 (no gitHead recorded)"
    )
    licence = meta.get("license")
    licence = (
        f"{licence} (per the package metadata)" if licence else "not stated in the package metadata"
    )
    doc = {
        "repo": _repo(meta),
        "path": f"npm {name}@{version}",
        "commit": commit,
        "note": (
            f"The published npm package {name}@{version} (tarball SHA-1 {dist.get('shasum')}), "
            "installed with install scripts off and started over stdio with no credentials; "
            "every tool its tools/list answered, names, descriptions and input schemas as sent"
            + (
                f" ({sent - len(tools)} tool(s) with no description left out)"
                if sent > len(tools)
                else ""
            )
            + ". "
            f"'commit' is {which}."
            + (f" Started with arguments {args}." if args else "")
            + (
                f" Started with made-up placeholder values (no working credential) for "
                f"{sorted(env)}: the server will not start without them, and listing its "
                "tools calls no service."
                if env
                else ""
            )
        ),
        "licence": licence,
        "tools": tools,
    }
    stem = re.sub(r"[^a-z0-9]+", "_", name.lower().lstrip("@")).strip("_")
    (out / f"npm_{stem}.json").write_text(
        json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return f"{name}@{version}: {len(tools)} tools"


def run(collect: Callable[[str, Path], str], argv: list[str]) -> int:
    """``collect`` each package spec of ``argv[1:]`` into the folder ``argv[0]``; a package
    that fails is reported and skipped (collect_pypi_honest.py runs its own the same way)."""
    logging.getLogger("mcp").setLevel(logging.CRITICAL)
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for spec in argv[1:]:
        try:
            print("ok  ", collect(spec, out), flush=True)
        except BaseException as e:  # a package that fails is reported and skipped
            print("FAIL", spec, type(e).__name__, str(e)[:200], flush=True)
    return 0


def main(argv: list[str]) -> int:
    return run(collect, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
