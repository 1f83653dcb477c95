"""The engine stays pure and the store stays below services: importing either never pulls in
textual, rich, mcp or anything above it (import-linter holds the same contracts statically).

Each check runs in a fresh interpreter, because this test process may already have imported
those packages for other tests.
"""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import mcp_review.engine
import mcp_review.store

FORBIDDEN = (
    "textual",
    "rich",
    "mcp",
    "mcp_types",
    "mcp_review.tui",
    "mcp_review.services",
    "mcp_review.cli",
    "httpx2",
    "uvicorn",
)


def _core_modules() -> list[str]:
    return sorted(
        m.name
        for pkg in (mcp_review.engine, mcp_review.store)
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
    )


def test_core_modules_found():
    mods = _core_modules()
    assert "mcp_review.engine.model" in mods and "mcp_review.store.audit" in mods


def test_core_imports_nothing_above_it():
    mods = _core_modules()
    code = (
        "import importlib, sys\n"
        f"for m in {mods!r}: importlib.import_module(m)\n"
        f"bad = sorted(k for k in sys.modules for f in {FORBIDDEN!r} "
        "if k == f or k.startswith(f + '.'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"core pulled in: {out.stdout.strip()}"


def test_file_commands_do_not_import_mcp_or_textual():
    """classify/gate/status work on files and must start fast: no mcp, no textual."""
    code = (
        "import sys\n"
        "from mcp_review import cli\n"
        "cli.build_parser()\n"
        "bad = sorted(k for k in sys.modules if k.split('.')[0] in ('mcp', 'textual', 'mcp_types'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_engine_opens_no_file():
    """Files are the store's: no engine module calls ``open`` or touches the file system
    (a parser takes bytes or a stream it is handed; ``store.readers`` opens them)."""
    import ast
    from pathlib import Path

    fs = {
        "open",
        "stat",
        "lstat",
        "listdir",
        "scandir",
        "walk",
        "remove",
        "unlink",
        "replace",
        "rename",
        "mkdir",
        "makedirs",
        "read_text",
        "read_bytes",
        "write_text",
        "write_bytes",
    }
    found = []
    for p in sorted(Path(mcp_review.engine.__path__[0]).rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if isinstance(f, ast.Name) and f.id == "open":
                found.append(f"{p.name}:{node.lineno} open()")
            elif (
                isinstance(f, ast.Attribute)
                and f.attr in fs
                and isinstance(f.value, ast.Name)
                and f.value.id in {"os", "shutil", "Path"}
            ):
                found.append(f"{p.name}:{node.lineno} {f.value.id}.{f.attr}()")
    assert not found, found
