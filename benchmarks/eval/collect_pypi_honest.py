#!/usr/bin/env python3
"""Collect honest tool lists from published PyPI MCP servers by running them (``honest_dev6/``).

``python benchmarks/eval/collect_pypi_honest.py OUT_DIR NAME==VERSION[@SCRIPT][|KEY=VALUE,...] ...``

The PyPI counterpart of ``collect_npm_honest.py``, for servers whose authors write their tool
descriptions in Chinese, Japanese or Russian. For each package: its distribution of that exact
version is downloaded with ``pip download --no-deps`` (its SHA-1 is the ``commit`` the honest
sets' test asks for) and installed into a scratch virtual environment of its own with ``pip
install NAME==VERSION "mcp<2"`` (the servers were written for the 1.x SDK and most leave it
unpinned; a package that asks for 2.x is installed as it asks); its console script (``SCRIPT``, else the
distribution's only or first one) is started over stdio with no credentials and a scratch
working folder, and ``tools/list`` is read with the project's MCP client (every page). The tools
are written as the server sent them (name, description, input schema; titles and annotations
dropped; a tool with no description is left out and counted in the ``note``) to
``OUT_DIR/pypi_<stem>.json`` with ``repo`` (the GitHub repository the metadata names, else
``pypi/NAME``), ``path`` (``pypi NAME==VERSION``), ``commit``, ``licence`` and ``note``. A
package that will not install, start or list a tool is reported and skipped.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent))
from collect_npm_honest import list_tools, run

SCRATCH = Path(tempfile.gettempdir()) / "honest_pypi"
_MCP_V1 = "mcp<2"
"""Installed beside each package: the servers were written for the 1.x SDK (``FastMCP``), which
2.x renamed, and most do not pin it."""

_META = r"""
import importlib.metadata as m, json, sys
d = m.distribution(sys.argv[1])
md = d.metadata
urls = [md.get("Home-page") or ""] + [u.split(",", 1)[-1].strip() for u in md.get_all("Project-URL") or []]
print(json.dumps({
    "version": d.version,
    "license": md.get("License-Expression") or md.get("License") or "",
    "classifiers": [c for c in md.get_all("Classifier") or [] if c.startswith("License")],
    "urls": urls,
    "scripts": sorted(e.name for e in d.entry_points if e.group == "console_scripts"),
}))
"""


def _stem(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def _install(name: str, version: str) -> tuple[Path, Path]:
    """The package's scratch folder (its venv and its downloaded distribution) and the file."""
    where = SCRATCH / f"{_stem(name)}_{_stem(version)}"
    dist = where / "dist"
    if not (where / "venv" / "bin" / "python").exists():
        where.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True)
    if not dist.exists() or not any(dist.iterdir()):
        subprocess.run(
            [
                str(where / "venv" / "bin" / "python"),
                *("-m", "pip", "download", "-q", "--no-deps", "-d", str(dist)),
                f"{name}=={version}",
            ],
            check=True,
            capture_output=True,
            timeout=600,
        )
    pip = [str(where / "venv" / "bin" / "python"), "-m", "pip", "install", "-q"]
    # with the 1.x SDK where the package allows it, else as it asks (a 2.x server)
    done = subprocess.run(
        [*pip, f"{name}=={version}", _MCP_V1], capture_output=True, timeout=900, check=False
    )
    if done.returncode:
        subprocess.run([*pip, f"{name}=={version}"], check=True, capture_output=True, timeout=900)
    return where, sorted(dist.iterdir())[0]


def _meta(where: Path, name: str) -> dict[str, Any]:
    out = subprocess.run(
        [str(where / "venv" / "bin" / "python"), "-c", _META, name],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def _repo(urls: list[str], name: str) -> str:
    for url in urls:
        m = re.search(r"github\.com[/:]([^/\s]+)/([^/#\s]+?)(?:\.git)?(?:[/#].*)?$", url)
        if m:
            return f"{m.group(1)}/{m.group(2)}"
    return f"pypi/{name}"


async def _list_tools(
    command: Path, args: list[str], cwd: Path, extra: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    env = {"PATH": f"{command.parent}:/usr/bin:/bin", "HOME": str(cwd), "LANG": "C.UTF-8"}
    env |= extra or {}
    params = StdioServerParameters(command=str(command), args=args, cwd=str(cwd), env=env)
    return await list_tools(params)


def collect(spec: str, out: Path) -> str:
    spec, _, extra = spec.partition("|")  # placeholder settings, as collect_npm_honest.py's
    env = dict(kv.split("=", 1) for kv in extra.split(",") if kv)
    spec, _, script = spec.partition("@")
    name, version = spec.split("==")
    where, dist = _install(name, version)
    meta = _meta(where, name)
    scripts = meta["scripts"]
    if not scripts and not script:
        raise RuntimeError("no console script")
    command = where / "venv" / "bin" / (script or scripts[0])
    work = where / "cwd"
    work.mkdir(exist_ok=True)
    sent = asyncio.run(asyncio.wait_for(_list_tools(command, [], work, env), 120))
    tools = [t for t in sent if str(t["description"]).strip()]
    if not tools:
        raise RuntimeError("no tools with a description")
    sha1 = hashlib.sha1(dist.read_bytes()).hexdigest()
    licence = meta["license"] or "; ".join(meta["classifiers"])
    licence = (
        f"{licence} (per the package metadata)" if licence else "not stated in the package metadata"
    )
    left = len(sent) - len(tools)
    doc = {
        "repo": _repo(meta["urls"], name),
        "path": f"pypi {name}=={version}",
        "commit": sha1,
        "note": (
            f"The published PyPI package {name}=={version} ({dist.name}, SHA-1 {sha1}), "
            f"installed into a scratch virtual environment and started with its console script "
            f"{command.name!r} over stdio with no credentials and an environment of PATH, HOME (the scratch folder) and LANG only; every "
            "tool its tools/list answered, names, descriptions and input schemas as sent"
            + (f" ({left} tool(s) with no description left out)" if left else "")
            + ". 'commit' is the distribution file's SHA-1."
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
    (out / f"pypi_{_stem(name)}.json").write_text(
        json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return f"{name}=={version}: {len(tools)} tools"


def main(argv: list[str]) -> int:
    return run(collect, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
